// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @get_dimension_size_dim(%x: tensor<4x3xf32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.get_dimension_size' op dimension = 2 is out of range for operand rank 2}}
  %0 = stablehlo.get_dimension_size %x, dim = 2 : (tensor<4x3xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}
// -----
func.func @dynamic_broadcast_dims(%x: tensor<?x4xf32>, %s: tensor<3xi32>) -> tensor<1x?x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op broadcast_dimensions has 1 elements, expected 2 (operand rank)}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
  return %0 : tensor<1x?x4xf32>
}
// -----
func.func @dynamic_broadcast_shape(%x: tensor<?x4xf32>, %s: tensor<2xi32>) -> tensor<1x?x4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op output_dimensions has 2 elements, expected 3 (result rank)}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1, 2] : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<1x?x4xf32>
  return %0 : tensor<1x?x4xf32>
}
// -----
func.func @dynamic_iota_dim(%s: tensor<1xi32>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_iota' op iota_dimension = 1 is out of range for result rank 1}}
  %0 = stablehlo.dynamic_iota %s, dim = 1 : (tensor<1xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
// -----
func.func @dynamic_reshape_shape(%x: tensor<?x5xf32>, %s: tensor<?xi32>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op operand #1 must be statically shaped 1-dimensional tensor}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<?x5xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
// -----
func.func @dynamic_pad_rank(%x: tensor<?x5xf32>, %v: tensor<f32>, %p: tensor<3xi32>) -> tensor<?x5xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_pad' op edge_padding_low has 3 elements, expected 2 (operand rank)}}
  %0 = stablehlo.dynamic_pad %x, %v, %p, %p, %p : (tensor<?x5xf32>, tensor<f32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
// -----
func.func @dynamic_conv_padding(%lhs: tensor<1x?x16xf32>, %rhs: tensor<4x16x16xf32>, %p: tensor<2x2xi32>) -> tensor<1x?x16xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op padding must have shape [1, 2], got [2, 2]}}
  %0 = "stablehlo.dynamic_conv"(%lhs, %rhs, %p) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64}> : (tensor<1x?x16xf32>, tensor<4x16x16xf32>, tensor<2x2xi32>) -> tensor<1x?x16xf32>
  return %0 : tensor<1x?x16xf32>
}
// -----
func.func @dynamic_conv_strides(%lhs: tensor<1x?x16xf32>, %rhs: tensor<4x16x16xf32>, %p: tensor<1x2xi32>) -> tensor<1x?x16xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op window_strides has 2 elements, expected 1 (spatial dimensions)}}
  %0 = "stablehlo.dynamic_conv"(%lhs, %rhs, %p) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 2, 2>}> : (tensor<1x?x16xf32>, tensor<4x16x16xf32>, tensor<1x2xi32>) -> tensor<1x?x16xf32>
  return %0 : tensor<1x?x16xf32>
}
// -----
// expected-error @+1 {{static dimension 1 cannot have a bound; write '?'}}
func.func @bound_on_static(%x: tensor<?x4xf32, #stablehlo.bounds<8, 4>>) {
  return
}
// -----
// expected-error @+1 {{bounds has 1 elements, but the tensor has rank 2}}
func.func @bounds_rank(%x: tensor<?x4xf32, #stablehlo.type_extensions<bounds = [8]>>) {
  return
}
// -----
// expected-error @+1 {{unknown attribute 'bound' in dialect 'stablehlo'}}
func.func @unknown_attr() attributes {a = #stablehlo.bound<8>} {
  return
}
