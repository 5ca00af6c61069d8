// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// gather and scatter (JAX prints both generically).

// index_vector_dim defaults to 0 and is printed only when it is not (as
// StableHLO, and so JAX, prints it: jnp.take with a scalar index).
// CHECK-LABEL: @gather_index_vector_dim_0(
// CHECK: #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false
func.func @gather_index_vector_dim_0(%x: tensor<3x4xf32>, %i: tensor<1xi32>) -> tensor<3xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1>}> : (tensor<3x4xf32>, tensor<1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: @gather_rows(
// CHECK: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
// CHECK: return %0 : tensor<5x6xf32>
func.func @gather_rows(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// Batching dims, implicit index vector (index_vector_dim = rank).
// CHECK-LABEL: @gather_batched(
// CHECK: %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<3x10x6xf32>, tensor<3x5xi32>) -> tensor<3x5x6xf32>
// CHECK: return %0 : tensor<3x5x6xf32>
func.func @gather_batched(%x: tensor<3x10x6xf32>, %i: tensor<3x5xi32>) -> tensor<3x5x6xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 6>}> : (tensor<3x10x6xf32>, tensor<3x5xi32>) -> tensor<3x5x6xf32>
  return %0 : tensor<3x5x6xf32>
}

// CHECK-LABEL: @scatter_add(
// CHECK: %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %1 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK: stablehlo.return %1 : tensor<f32>
// CHECK: }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
// CHECK: return %0 : tensor<10x6xf32>
func.func @scatter_add(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) -> tensor<10x6xf32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}

// Two inputs scattered together.
// CHECK-LABEL: @scatter_variadic(
// CHECK: %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
// CHECK: ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
// CHECK: stablehlo.return %arg7, %arg8 : tensor<f32>, tensor<i32>
// CHECK: }) : (tensor<10xf32>, tensor<10xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<10xf32>, tensor<10xi32>)
// CHECK: return %0#0, %0#1 : tensor<10xf32>, tensor<10xi32>
func.func @scatter_variadic(%x: tensor<10xf32>, %y: tensor<10xi32>, %i: tensor<4x1xi32>, %u: tensor<4xf32>, %v: tensor<4xi32>) -> (tensor<10xf32>, tensor<10xi32>) {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %c, %d : tensor<f32>, tensor<i32>
  }) : (tensor<10xf32>, tensor<10xi32>, tensor<4x1xi32>, tensor<4xf32>, tensor<4xi32>) -> (tensor<10xf32>, tensor<10xi32>)
  return %0#0, %0#1 : tensor<10xf32>, tensor<10xi32>
}
