// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @dot_general_contracting_size(%a: tensor<4x8xf32>, %b: tensor<7x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op contracting dimension 0 has size 8 in lhs (dimension 1) but 7 in rhs (dimension 0)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @dot_general_dim_range(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs_contracting_dimensions[0] = 2 is out of range for lhs rank 2}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @dot_general_batching_count(%a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs_batching_dimensions has 1 elements but rhs_batching_dimensions has 0}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}
// -----
func.func @dot_general_result(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op result shape [4, 4] does not match the expected shape [4, 3] (dimension 1)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// -----
func.func @dot_general_precision(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dot_general' op precision_config must have 0 or 2 elements (lhs, rhs), got 1}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @dot_general_precision_name(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{custom op 'stablehlo.dot_general' unknown precision 'FAST', expected DEFAULT, HIGH or HIGHEST}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [FAST, DEFAULT] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @dot_attr_field(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{unknown field 'lhs_contracting', expected one of: lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions}}
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting = [1]>}> : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @dot_inner(%a: tensor<4x8xf32>, %b: tensor<7x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.dot' op lhs's last dimension (8) must equal rhs's first dimension (7)}}
  %0 = stablehlo.dot %a, %b : (tensor<4x8xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
// -----
func.func @conv_result(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op result shape [1, 8, 8, 8] does not match the expected shape [1, 6, 6, 8] (dimension 1)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
// -----
func.func @conv_feature_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op input feature dimension size 4 is not divisible by feature_group_count = 3}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_window_size(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op window_strides has 1 elements, expected 2 (number of spatial dimensions)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_layout_letter(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected 'b', 'f' or a spatial dimension number, got 'c'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, c]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_layout_spatial(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{custom op 'stablehlo.convolution' spatial dimension number 0 appears twice}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_raw_dims(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op input dimension numbers (batch, feature, spatial...)[1] = 0 is repeated}}
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_padding_shape(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op padding must have shape [2, 2], got [3, 2]}}
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<3x2xi64>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_kernel_input_features(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op kernel input feature dimension size 3 must be the input feature size 4 divided by feature_group_count = 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_grouped_kernel_input_features(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x6x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op kernel input feature dimension size 6 must be the input feature size 6 divided by feature_group_count = 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x6xf32>, tensor<3x3x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_output_features_groups(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x3x7xf32>) -> tensor<1x6x6x7xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op kernel output feature dimension size 7 must be divisible by feature_group_count = 2 and batch_group_count = 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x6xf32>, tensor<3x3x3x7xf32>) -> tensor<1x6x6x7xf32>
  return %0 : tensor<1x6x6x7xf32>
}
// -----
func.func @conv_batch_groups_batch(%x: tensor<3x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op input batch dimension size 3 is not divisible by batch_group_count = 2}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<3x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_batch_groups_output_features(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op kernel output feature dimension size 6 must be divisible by feature_group_count = 1 and batch_group_count = 4}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<4x8x8x4xf32>, tensor<3x3x4x6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}
// -----
func.func @conv_both_groups(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op feature_group_count = 2 and batch_group_count = 2 cannot both be greater than 1}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}
// -----
func.func @conv_batch_groups_result(%x: tensor<4x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<4x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op result shape [4, 6, 6, 8] does not match the expected shape [2, 6, 6, 8] (dimension 0)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<4x6x6x8xf32>
  return %0 : tensor<4x6x6x8xf32>
}
// -----
func.func @conv_lhs_dilation(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op lhs_dilation}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// The algorithm comes after the precision, once.
func.func @algorithm_twice(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{expected ':' after dot_general's algorithm}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}
