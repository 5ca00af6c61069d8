// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-cpu-fold-transposes)' | FileCheck %s

// `q @ k.T` as JAX writes it: the transpose fusion is gone, the gemm fusion
// reads k itself and contracts its dim 1.
// CHECK-LABEL: func.func @q_at_k_t
// CHECK-NOT:   stablehlo.transpose
// CHECK:       floors.fusion gemm hero "stablehlo.dot_general" (%[[Q:.*]] = %arg0 : tensor<64x32xf32>, %[[K:.*]] = %arg1 : tensor<48x32xf32>) -> tensor<64x48xf32>
// CHECK-NEXT:    stablehlo.dot_general %[[Q]], %[[K]], contracting_dims = [1] x [1]{{.*}} : (tensor<64x32xf32>, tensor<48x32xf32>) -> tensor<64x48xf32>
// CHECK-NOT:   stablehlo.transpose
func.func @q_at_k_t(%q: tensor<64x32xf32>, %k: tensor<48x32xf32>) -> tensor<64x48xf32> {
  %t = stablehlo.transpose %k, dims = [1, 0] : (tensor<48x32xf32>) -> tensor<32x48xf32>
  %0 = stablehlo.dot_general %q, %t, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  return %0 : tensor<64x48xf32>
}

// -----

// A transposed lhs (`x.T @ y`); batch dims move with the permutation.
// CHECK-LABEL: func.func @lhs_and_batch
// CHECK-NOT:   stablehlo.transpose
// CHECK:       stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [0] x [0]{{.*}} : (tensor<32x64xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
// CHECK:       stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [1] x [0], contracting_dims = [2] x [1]{{.*}} : (tensor<8x4x16xf32>, tensor<4x16x24xf32>) -> tensor<4x8x24xf32>
func.func @lhs_and_batch(%x: tensor<32x64xf32>, %y: tensor<32x16xf32>, %a: tensor<8x4x16xf32>, %b: tensor<4x16x24xf32>) -> (tensor<64x16xf32>, tensor<4x8x24xf32>) {
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
  %0 = stablehlo.dot_general %t, %y, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %u = stablehlo.transpose %a, dims = [1, 0, 2] : (tensor<8x4x16xf32>) -> tensor<4x8x16xf32>
  %1 = stablehlo.dot_general %u, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x24xf32>) -> tensor<4x8x24xf32>
  return %0, %1 : tensor<64x16xf32>, tensor<4x8x24xf32>
}

// -----

// The transpose is also a result: folded into the dot, and kept for the
// other reader.
// CHECK-LABEL: func.func @other_reader
// CHECK:       %[[T:.*]] = floors.fusion transpose hero "stablehlo.transpose"
// CHECK:       floors.fusion gemm hero "stablehlo.dot_general" (%{{.*}} = %arg0 : tensor<64x32xf32>, %{{.*}} = %arg1 : tensor<48x32xf32>)
// CHECK:       return %[[T]], %{{.*}} :
func.func @other_reader(%q: tensor<64x32xf32>, %k: tensor<48x32xf32>) -> (tensor<32x48xf32>, tensor<64x48xf32>) {
  %t = stablehlo.transpose %k, dims = [1, 0] : (tensor<48x32xf32>) -> tensor<32x48xf32>
  %0 = stablehlo.dot_general %q, %t, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  return %t, %0 : tensor<32x48xf32>, tensor<64x48xf32>
}

// -----

// The permutation swaps the two free dims of the rhs, which the dot's
// result keeps in operand order: folding would transpose the result, so
// the transpose stays.
// CHECK-LABEL: func.func @free_dims_reordered
// CHECK:       floors.fusion transpose hero "stablehlo.transpose"
// CHECK:       stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0]{{.*}} : (tensor<64x16xf32>, tensor<16x4x8xf32>) -> tensor<64x4x8xf32>
func.func @free_dims_reordered(%x: tensor<64x16xf32>, %y: tensor<16x8x4xf32>) -> tensor<64x4x8xf32> {
  %t = stablehlo.transpose %y, dims = [0, 2, 1] : (tensor<16x8x4xf32>) -> tensor<16x4x8xf32>
  %0 = stablehlo.dot_general %x, %t, contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x4x8xf32>) -> tensor<64x4x8xf32>
  return %0 : tensor<64x4x8xf32>
}
