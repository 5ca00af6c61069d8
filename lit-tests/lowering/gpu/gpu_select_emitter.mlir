// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-gpu-select-emitter)' | FileCheck %s

// Elementwise only: the loop emitter, one thread per output element, blocks
// of 256 threads, at most one wave (132 SMs × 8 blocks).
// CHECK-LABEL: func.func @loop
// CHECK: floors.fusion loop {{.*}}floors.gpu_emitter = #floors.gpu_emitter<kind = "loop"{{.*}}block = [256, 1, 1], grid = [1056, 1, 1]>
func.func @loop(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.add %a, %b : tensor<1024x1024xf32>
  %1 = stablehlo.exponential %0 : tensor<1024x1024xf32>
  return %1 : tensor<1024x1024xf32>
}

// -----

// A row reduction (the minor dimension is reduced): a warp per row.
// CHECK-LABEL: func.func @row_reduction
// CHECK: floors.fusion reduction {{.*}}floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "reduction hero reduces the minor dimension: row reduction of 512 rows x 256{{.*}}block = [32, 8, 1], grid = [64, 1, 1]>
func.func @row_reduction(%a: tensor<512x256xf32>) -> tensor<512xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<512x256xf32>, tensor<f32>) -> tensor<512xf32>
  return %0 : tensor<512xf32>
}

// -----

// A column reduction (the minor dimension is kept): 32×8 tiles.
// CHECK-LABEL: func.func @column_reduction
// CHECK: floors.fusion reduction {{.*}}floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "reduction hero keeps the minor dimension: column reduction of 256 columns x 512{{.*}}block = [32, 8, 1], grid = [8, 1, 1]>
func.func @column_reduction(%a: tensor<512x256xf32>) -> tensor<256xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<512x256xf32>, tensor<f32>) -> tensor<256xf32>
  return %0 : tensor<256xf32>
}

// -----

// A transpose that moves the minor dimension: the transpose emitter.
// CHECK-LABEL: func.func @transpose
// CHECK: floors.fusion transpose {{.*}}floors.gpu_emitter = #floors.gpu_emitter<kind = "transpose"{{.*}}block = [32, 8, 1], grid = [4, 2, 1]>
func.func @transpose(%a: tensor<128x64xf32>) -> tensor<64x128xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<128x64xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// A concatenate of 3 operands: the concatenate emitter, one thread per
// element of the largest operand (4x8), not of the 12x8 output.
// CHECK-LABEL: func.func @concatenate
// CHECK: floors.fusion concatenate {{.*}}#floors.gpu_emitter<kind = "concatenate", reason = "concatenate hero with 3 operands{{.*}}block = [32, 1, 1], grid = [1, 1, 1]>
func.func @concatenate(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<12x8xf32> {
  %0 = stablehlo.concatenate %a, %b, %c, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// -----

// Several roots, all slices of one value: the input-slices emitter, one
// thread per element of the sliced 8x16 value (floors-fuse forms no such
// fusion from plain StableHLO yet, so it is written out).
// CHECK-LABEL: func.func @input_slices
// CHECK: floors.fusion input_slices {{.*}}floors.gpu_emitter = #floors.gpu_emitter<kind = "input_slices", reason = "several roots, all slices of the same input"{{.*}}block = [128, 1, 1], grid = [1, 1, 1]>
func.func @input_slices(%a: tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
  %0:2 = floors.fusion input_slices (%x = %a : tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
    %n = stablehlo.negate %x : tensor<8x16xf32>
    %s0 = stablehlo.slice %n [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
    %s1 = stablehlo.slice %n [2:6, 4:16:2] : (tensor<8x16xf32>) -> tensor<4x6xf32>
    floors.yield %s0, %s1 : tensor<8x4xf32>, tensor<4x6xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x6xf32>
}

// -----

// A scatter whose combiner is an add: atomics, one thread per update.
// CHECK-LABEL: func.func @scatter
// CHECK: floors.fusion scatter {{.*}}kind = "scatter", reason = "single scatter root: combiner stablehlo.add as atomics
func.func @scatter(%a: tensor<16x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// A dot: the GEMM emitter (--gpu-gemm auto|emitter), planned as the tiled
// kernel's launch: 256 threads, grid (ceil(N/64), ceil(M/64), batch).
// CHECK-LABEL: func.func @matmul
// CHECK: floors.fusion gemm {{.*}}#floors.gpu_emitter<kind = "gemm"{{.*}}block = [256, 1, 1], grid = [1, 2, 1]>
func.func @matmul(%a: tensor<100x32xf32>, %b: tensor<32x16xf32>) -> tensor<100x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<100x32xf32>, tensor<32x16xf32>) -> tensor<100x16xf32>
  return %0 : tensor<100x16xf32>
}

