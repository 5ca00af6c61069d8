// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-custom-call-layouts)' -split-input-file | FileCheck %s

// LAPACK's column-major operand and results (what JAX's CPU lowering of
// jnp.linalg.cholesky asks): the operand is transposed into its physical
// order before the call, the column-major result is produced transposed and
// transposed back after it; a rank-0 result and a row-major one need nothing.
// CHECK-LABEL: func.func @potrf
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
// CHECK: %[[C:.*]]:3 = stablehlo.custom_call @lapack_spotrf_ffi(%[[T]])
// CHECK-SAME: floors.physical_layouts
// CHECK-SAME: (tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<i32>, tensor<4x3xf32>)
// CHECK: %[[B:.*]] = stablehlo.transpose %[[C]]#0, dims = [1, 0] : (tensor<3x4xf32>) -> tensor<4x3xf32>
// CHECK: return %[[B]], %[[C]]#1, %[[C]]#2
func.func @potrf(%a: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<i32>, tensor<4x3xf32>) {
  %0:3 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>, dense<[1, 0]> : tensor<2xindex>]} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<i32>, tensor<4x3xf32>)
  return %0#0, %0#1, %0#2 : tensor<4x3xf32>, tensor<i32>, tensor<4x3xf32>
}

// -----

// A batched column-major layout ({1, 2, 0}: batch major, then columns, then
// rows): physical order [0, 2, 1]; an aliased result keeps its operand's type.
// CHECK-LABEL: func.func @batched
// CHECK: %[[T:.*]] = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x5x3xf64>) -> tensor<2x3x5xf64>
// CHECK: %[[C:.*]] = stablehlo.custom_call @h(%[[T]])
// CHECK-SAME: output_operand_aliases
// CHECK-SAME: (tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
// CHECK: stablehlo.transpose %[[C]], dims = [0, 2, 1] : (tensor<2x3x5xf64>) -> tensor<2x5x3xf64>
func.func @batched(%a: tensor<2x5x3xf64>) -> tensor<2x5x3xf64> {
  %0 = stablehlo.custom_call @h(%a) {operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>]} : (tensor<2x5x3xf64>) -> tensor<2x5x3xf64>
  return %0 : tensor<2x5x3xf64>
}

// -----

// Row-major layouts everywhere: the call is left as it is, unmarked.
// CHECK-LABEL: func.func @row_major
// CHECK-NOT: stablehlo.transpose
// CHECK-NOT: floors.physical_layouts
func.func @row_major(%a: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.custom_call @h(%a) {operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
