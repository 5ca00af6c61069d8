// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// reduce: init filled from the 0-d init value, a generic with a reduction
// iterator, the body as scalar code (accumulator first).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[I:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: %[[F:.*]] = linalg.fill ins(%[[I]] : f32)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x16xf32>) outs(%[[F]] : tensor<8xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @row_sum(%a: tensor<8x16xf32>, %init: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Two-operand reduce (argmax): one generic with two outputs.
// CHECK-LABEL: func.func @argmax
// CHECK: %{{.*}}:2 = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpi slt
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i32
func.func @argmax(%arg0: tensor<8x16xf32>) -> tensor<8xi32> {
  %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x16xi32>
  %1 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<i32>):
    %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%11, %12) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %3#1 : tensor<8xi32>
}

// -----

// reduce_window: pad with the init value, then a generic over (output, window)
// dims with a window-shaped tensor.empty as the extra input.
// CHECK-DAG: #[[WIN_IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @max_pool
// CHECK: tensor.insert_slice
// CHECK: tensor.empty() : tensor<2x2xi8>
// CHECK: linalg.generic {indexing_maps = [#[[WIN_IN]], #[[WIN]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maximumf
func.func @max_pool(%a: tensor<4x5xf32>, %init: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "stablehlo.reduce_window"(%a, %init) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x5xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A bf16/f16 max or min is accumulated in f32 and rounded once (the same
// values: max and min are exact), so the accumulator itself is combined
// and the CPU floor vectorizes it; any other half reduction rounds every
// step (`arith.truncf` in the body).
// CHECK-LABEL: func.func @bf16_row_max
// CHECK:       %[[I:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:       %[[F:.*]] = linalg.fill ins(%[[I]] : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK:       %[[W:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x64xbf16>) outs(%[[F]] : tensor<8xf32>)
// CHECK:         %[[E:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.maximumf %{{.*}}, %[[E]] : f32
// CHECK:       linalg.generic {{.*}} ins(%[[W]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xbf16>)
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func.func @f16_col_min
// CHECK:       arith.minimumf %{{.*}}, %{{.*}} : f32
// CHECK-LABEL: func.func @bf16_sum_rounds_every_step
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<8xbf16>)
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.truncf %{{.*}} : f32 to bf16
func.func @bf16_row_max(%x: tensor<8x64xbf16>) -> tensor<8xbf16> {
  %init = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [1] : (tensor<8x64xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}
func.func @f16_col_min(%x: tensor<8x64xf16>) -> tensor<64xf16> {
  %init = stablehlo.constant dense<0x7C00> : tensor<f16>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.minimum across dimensions = [0] : (tensor<8x64xf16>, tensor<f16>) -> tensor<64xf16>
  return %0 : tensor<64xf16>
}
func.func @bf16_sum_rounds_every_step(%x: tensor<8x64xbf16>) -> tensor<8xbf16> {
  %init = stablehlo.constant dense<0.0> : tensor<bf16>
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<8x64xbf16>, tensor<bf16>) -> tensor<8xbf16>
  return %0 : tensor<8xbf16>
}

// -----

// A cumulative reduce_window (JAX's cumsum: the window covers the whole
// dimension, padding (W-1, 0)) is a prefix scan, O(n): per row, the
// accumulator starts at init and each step folds one element and stores it.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[INIT:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<6x37xf32>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c37 step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]], %[[OUT:.*]] = %{{.*}}) -> (f32, tensor<6x37xf32>)
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[R]], %[[I]]] : tensor<6x37xf32>
// CHECK: %[[Y:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK: %[[NEW:.*]] = tensor.insert %[[Y]] into %[[OUT]][%[[R]], %[[I]]] : tensor<6x37xf32>
// CHECK: scf.yield %[[Y]], %[[NEW]] : f32, tensor<6x37xf32>
// CHECK-NOT: linalg.generic
func.func @cumsum(%arg0: tensor<6x37xf32>, %init: tensor<f32>) -> tensor<6x37xf32> {
  %1 = "stablehlo.reduce_window"(%arg0, %init) <{padding = dense<[[0, 0], [36, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 37>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<6x37xf32>, tensor<f32>) -> tensor<6x37xf32>
  return %1 : tensor<6x37xf32>
}

// -----

// Reverse (padding (0, W-1), lax.cumsum(reverse=True)): the scan runs from
// the end of the dimension.
// CHECK-LABEL: func.func @cummax_reverse
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c9 step
// CHECK: %[[J:.*]] = arith.subi %c8{{.*}}, %[[I]] : index
// CHECK: tensor.extract %arg0[%[[J]]] : tensor<9xi32>
// CHECK: arith.maxsi
func.func @cummax_reverse(%arg0: tensor<9xi32>, %init: tensor<i32>) -> tensor<9xi32> {
  %1 = "stablehlo.reduce_window"(%arg0, %init) <{padding = dense<[[0, 8]]> : tensor<1x2xi64>, window_dimensions = array<i64: 9>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %2 = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %2 : tensor<i32>
  }) : (tensor<9xi32>, tensor<i32>) -> tensor<9xi32>
  return %1 : tensor<9xi32>
}

// -----

// A window shorter than the dimension is not a scan: evaluated per window.
// CHECK-LABEL: func.func @sliding_sum
// CHECK: linalg.generic
// CHECK-SAME: "parallel", "reduction"
func.func @sliding_sum(%arg0: tensor<9xf32>, %init: tensor<f32>) -> tensor<9xf32> {
  %1 = "stablehlo.reduce_window"(%arg0, %init) <{padding = dense<[[4, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 5>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<9xf32>, tensor<f32>) -> tensor<9xf32>
  return %1 : tensor<9xf32>
}
