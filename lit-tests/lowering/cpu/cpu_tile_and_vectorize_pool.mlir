// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-linalg-lower-stablehlo,func.func(linalg-fuse-elementwise-ops),func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s

// Pooling windows (reduce_window over one operand) take the convolution
// schedule: one vector of the innermost output loop the image is read along
// contiguously, every other loop (the window's included) by 1, so each
// output element combines its window in loop order, as the scalar loops
// would.

// A 3x3/2 max pool over NHWC: vectors of the 8 channels.
// CHECK-LABEL: func.func @max_pool_nhwc
// CHECK:       vector.transfer_read {{.*}} vector<8xf32>
// CHECK:       arith.maximumf {{.*}} : vector<8xf32>
// CHECK-NOT:   arith.maximumf {{.*}} : f32
func.func @max_pool_nhwc(%x: tensor<1x9x9x8xf32>) -> tensor<1x4x4x8xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x9x9x8xf32>, tensor<f32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// A sum over windows of 3 along rows (unit stride): 32 output columns (four
// AVX2 vectors) at a time.
// CHECK-LABEL: func.func @sum_pool_rows
// CHECK:       vector.transfer_read %arg0{{.*}} : tensor<4x66xf32>, vector<32xf32>
// CHECK:       arith.addf {{.*}} : vector<32xf32>
// CHECK-NOT:   arith.addf {{.*}} : f32
func.func @sum_pool_rows(%x: tensor<4x66xf32>) -> tensor<4x64xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x66xf32>, tensor<f32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// Strided along the innermost dimension: no contiguous vector, so no
// schedule; the window stays scalar loops (correct, slower).
// CHECK-LABEL: func.func @strided_rows
// CHECK-NOT:   floors.cpu_schedule
// CHECK-NOT:   vector.transfer_read
// CHECK:       linalg.generic
// CHECK:       arith.minimumf {{.*}} : f32
func.func @strided_rows(%x: tensor<4x65xf32>) -> tensor<4x32xf32> {
  %init = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x65xf32>, tensor<f32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
