// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo{keep-scatters=true},floors-tpu-select-blocks)'

// x.at[i, j].add(u): elements scattered by two index components are not a
// row scatter; refused at the scatter.
func.func @element_scatter(%x: tensor<8x16xf32>, %ij: tensor<4x2xi32>, %u: tensor<4xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{cannot put this fusion on the TPU floor yet: a scatter other than of whole rows along dimension 0 (indices [N] or [N, 1], updates [N, row...]) has no TPU lowering yet}}
  %0 = "stablehlo.scatter"(%x, %ij, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x16xf32>, tensor<4x2xi32>, tensor<4xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// An update computation the TPU floor has no vector form for.
func.func @scatter_with_an_exp(%x: tensor<8x128xf32>, %i: tensor<4xi32>, %u: tensor<4x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'stablehlo.exponential' in a scatter's update computation has no TPU lowering}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %e = stablehlo.exponential %b : tensor<f32>
    %s = stablehlo.add %a, %e : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x128xf32>, tensor<4xi32>, tensor<4x128xf32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// Unsigned elements would lose their signedness in the kept update
// computation: refused at the scatter.
func.func @scatter_unsigned(%x: tensor<8x128xui32>, %i: tensor<4xi32>, %u: tensor<4x128xui32>) -> tensor<8x128xui32> {
  // expected-error @+1 {{a scatter of unsigned integers inside a fusion cannot be kept for the floor (keep-scatters) yet}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %s = stablehlo.maximum %a, %b : tensor<ui32>
    stablehlo.return %s : tensor<ui32>
  }) : (tensor<8x128xui32>, tensor<4xi32>, tensor<4x128xui32>) -> tensor<8x128xui32>
  return %0 : tensor<8x128xui32>
}
