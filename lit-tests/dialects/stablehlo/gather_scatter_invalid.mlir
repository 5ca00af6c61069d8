// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @gather_rank(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{'stablehlo.gather' op operand rank 2 must equal size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
// -----
func.func @gather_collapsed_size(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{'stablehlo.gather' op slice_sizes[0] = 2 must be 0 or 1 because dimension 0 is collapsed}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
// -----
func.func @gather_index_vector_dim(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{'stablehlo.gather' op index_vector_dim = 3 is out of range [0, 2] for start_indices rank 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
// -----
func.func @gather_result(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) -> tensor<5x5xf32> {
  // expected-error @+1 {{'stablehlo.gather' op result shape [5, 5] does not match the expected shape [5, 6] (dimension 1)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}
// -----
func.func @scatter_update_shape(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>, %u: tensor<3x6xf32>) -> tensor<10x6xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op updates dimension 0 has size 3 but the matching scatter_indices dimension has size 4}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<3x6xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}
// -----
func.func @scatter_rank(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) -> tensor<10x6xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op input rank 2 must equal size(update_window_dims) + size(inserted_window_dims) + size(input_batching_dims) = 1}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}
// -----
func.func @scatter_body(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) -> tensor<10x6xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op update_computation region argument #0 has type 'tensor<i32>', expected 'tensor<f32>'}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}
// -----
func.func @scatter_even_operands(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>) -> tensor<10x6xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op operand #0 must be ranked tensor of integer values, but got 'tensor<10x6xf32>'}}
  %0 = "stablehlo.scatter"(%x, %i) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}
