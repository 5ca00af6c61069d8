// RUN: %floors-opt %s -split-input-file -verify-diagnostics
// Malformed IR that must be rejected with a diagnostic, never a crash.
func.func @f() {
  // expected-error @+1 {{'stablehlo.scatter' op expected 1 or more operands, but found 0}}
  %0 = "stablehlo.scatter"() <{scatter_dimension_numbers = #stablehlo.scatter<index_vector_dim = 0>}> ({}) : () -> tensor<f32>
  return
}
// -----
func.func @f() {
  // expected-error @+1 {{'stablehlo.reduce' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "stablehlo.reduce"() <{dimensions = array<i64>}> ({}) : () -> tensor<f32>
  return
}
// -----
func.func @f() {
  // expected-error @+1 {{'stablehlo.reduce_window' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %0 = "stablehlo.reduce_window"() <{window_dimensions = array<i64>}> ({}) : () -> tensor<f32>
  return
}
// -----
func.func @f() {
  // expected-error @+1 {{'stablehlo.sort' op region #0 ('comparator') failed to verify constraint: region with 1 blocks}}
  "stablehlo.sort"() ({}) : () -> ()
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op region #0 ('comparator') failed to verify constraint: region with 1 blocks}}
  %0 = "stablehlo.sort"(%x) ({}) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body region must end in stablehlo.return}}
  %0 = "stablehlo.reduce"(%x, %c) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.while' op region #0 ('cond') failed to verify constraint: region with 1 blocks}}
  %0 = "stablehlo.while"(%x) ({}, {}) : (tensor<i32>) -> tensor<i32>
  return
}
// -----
func.func @f(%x: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.while' op cond must end in stablehlo.return}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i32>):
    %1 = stablehlo.add %a, %a : tensor<i32>
  }, {
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return
}
// -----
func.func @f() {
  // expected-error @+1 {{'stablehlo.iota' op iota_dimension = 0 is out of range for result rank 0}}
  %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op start_indices has 2 elements, expected 1 (the operand rank)}}
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1>, strides = array<i64>}> : (tensor<4xf32>) -> tensor<1xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op operands must have rank at least 2, got 1}}
  %0 = "stablehlo.convolution"(%x, %x) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 5, input_feature_dimension = -1, input_spatial_dimensions = [], kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 0, output_batch_dimension = 0, output_feature_dimension = 0>, feature_group_count = 0 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<2x3x4xf32>, %w: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op input dimension numbers (batch, feature, spatial...)[2] = 7 is out of range for lhs rank 3}}
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [7], kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 1, kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]>, feature_group_count = 1 : i64}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}
// -----
func.func @f(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op operand rank 2 must equal size(offset_dims) + size(collapsed_slice_dims) + size(operand_batching_dims) = 3}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [5, 9], collapsed_slice_dims = [0], start_index_map = [7], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return
}
// -----
func.func @f(%x: tensor<10x6xf32>, %i: tensor<5x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op collapsed_slice_dims[0] = 7 is out of range for operand rank 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [7], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return
}
// -----
func.func @f(%x: tensor<10x6xf32>, %i: tensor<4x1xi32>, %u: tensor<4x6xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op update_window_dims[1] = 2 is out of range for updates rank 2}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op result rank 1 does not match the expected shape [4, 32]}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi1>
  return
}
// -----
func.func @f(%x: tensor<f16>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op operand's last dimension must be 2 to bitcast 16-bit elements to 32-bit elements}}
  %0 = stablehlo.bitcast_convert %x : (tensor<f16>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op init value #0 must be a 0-d tensor, got 'tensor<4xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %x) <{window_dimensions = array<i64: 1>, padding = dense<[1, 2]> : tensor<2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  %0 = stablehlo.dot %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  // expected-error @+1 {{'stablehlo.dot' op result rank 3 does not match the expected shape []}}
  %1 = "stablehlo.dot"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4x4xf32>
  return
}
// -----
func.func @f(%t: tuple<>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op index = -1 is out of range for a tuple of 0 elements}}
  %0 = "stablehlo.get_tuple_element"(%t) <{index = -1 : i32}> : (tuple<>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce' op init value #0 must be a 0-d tensor, got 'tensor<4xf32>'}}
  %0 = "stablehlo.reduce"(%x, %x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.constant' op requires zero operands}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.constant across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'func.return' op requires zero results}}
  %0 = stablehlo.reduce(%x init: %c) applies func.return across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{unregistered operation 'stablehlo.nonexistent' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.nonexistent across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>, %c: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.while' op expected 2 regions}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.while across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected [low, high] padding pair}}
  %0 = stablehlo.convolution(%x, %x) dim_numbers = [b, f]x[i, o]->[b, f], window = {pad = [[1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<1x4xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op batch_group_count = 0 must be positive}}
  %0 = stablehlo.convolution(%x, %x) dim_numbers = [b, f]x[i, o]->[b, f], window = {} {batch_group_count = 0 : i64, feature_group_count = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.pad' op padding_value must be a 0-d tensor, got 'tensor<4xf32>'}}
  %0 = "stablehlo.pad"(%x, %x) <{edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 0>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op region #0 ('select') failed to verify constraint: region with 1 blocks}}
  %0 = "stablehlo.select_and_scatter"(%x, %x, %x) ({}, {}) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.custom_call' op operand_layouts[0][0] = 5 is out of range for rank 1}}
  %0 = "stablehlo.custom_call"(%x) <{call_target_name = "x", operand_layouts = [dense<[5]> : tensor<1xindex>], result_layouts = [dense<[0]> : tensor<1xindex>]}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}
// -----
func.func @f(%x: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.case' op operand #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<f32>'}}
  %0 = "stablehlo.case"(%x) ({}) : (tensor<f32>) -> tensor<f32>
  return
}
// -----
func.func @f(%s: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial_state must be a 1-d tensor, got rank 0}}
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<f32>) -> (tensor<f32>, tensor<2xf32>)
  return
}
