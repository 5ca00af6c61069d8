// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @broadcast_in_dim_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions[1] = 3 is out of range for result rank 2}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @broadcast_in_dim_size(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op operand dimension 1 has size 3, which is neither 1 nor the size 4 of result dimension 1 (broadcast_dimensions[1])}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @broadcast_in_dim_count(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions has 1 elements, expected 2 (the operand rank)}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @broadcast_sizes(%x: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast' op result shape [2, 4] does not match the expected shape [2, 3] (dimension 1)}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @reshape_count(%x: tensor<4x6xf32>) -> tensor<25xf32> {
  // expected-error @+1 {{'stablehlo.reshape' op operand has 24 elements but result has 25; reshape must keep the element count}}
  %0 = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<25xf32>
  return %0 : tensor<25xf32>
}
// -----
func.func @transpose_not_permutation(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op permutation[1] = 1 is repeated}}
  %0 = stablehlo.transpose %x, dims = [1, 1] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
// -----
func.func @transpose_result(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'stablehlo.transpose' op result shape [4, 6] does not match the expected shape [6, 4] (dimension 0)}}
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
// -----
func.func @concatenate_dim(%a: tensor<4x6xf32>, %b: tensor<3x6xf32>) -> tensor<7x6xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op dimension = 2 is out of range for input rank 2}}
  %0 = stablehlo.concatenate %a, %b, dim = 2 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
  return %0 : tensor<7x6xf32>
}
// -----
func.func @concatenate_other_dim(%a: tensor<4x6xf32>, %b: tensor<3x5xf32>) -> tensor<7x6xf32> {
  // expected-error @+1 {{'stablehlo.concatenate' op input #1 has size 5 in dimension 1 but input #0 has 6; only the concatenated dimension may differ}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x6xf32>, tensor<3x5xf32>) -> tensor<7x6xf32>
  return %0 : tensor<7x6xf32>
}
// -----
func.func @slice_limit(%x: tensor<10x9xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'stablehlo.slice' op limit_indices[0] = 12 exceeds operand dimension size 10}}
  %0 = stablehlo.slice %x [2:12:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
// -----
func.func @slice_result(%x: tensor<10x9xf32>) -> tensor<5x6xf32> {
  // expected-error @+1 {{'stablehlo.slice' op result shape [5, 6] does not match the expected shape [4, 6] (dimension 0)}}
  %0 = stablehlo.slice %x [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}
// -----
func.func @slice_stride(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'stablehlo.slice' op strides[0] = 0 must be positive}}
  %0 = stablehlo.slice %x [0:10:0] : (tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}
// -----
func.func @slice_syntax(%x: tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{expected ':'}}
  %0 = stablehlo.slice %x [0, 10] : (tensor<10xf32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}
// -----
func.func @dynamic_slice_count(%x: tensor<12x8xf32>, %i: tensor<i32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op has 1 start indices, expected 2 (the operand rank)}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @dynamic_slice_size(%x: tensor<12x8xf32>, %i: tensor<i32>) -> tensor<4x9xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice_sizes[1] = 9 exceeds operand dimension size 8}}
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [4, 9] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}
// -----
func.func @dynamic_update_slice_big(%x: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update dimension 0 has size 5, larger than the operand's 4}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @pad_result(%x: tensor<7x6xf32>, %v: tensor<f32>) -> tensor<10x10xf32> {
  // expected-error @+1 {{'stablehlo.pad' op result shape [10, 10] does not match the expected shape [10, 9] (dimension 1)}}
  %0 = stablehlo.pad %x, %v, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<10x10xf32>
  return %0 : tensor<10x10xf32>
}
// -----
func.func @pad_interior(%x: tensor<7xf32>, %v: tensor<f32>) -> tensor<7xf32> {
  // expected-error @+1 {{'stablehlo.pad' op interior_padding[0] = -1 must not be negative}}
  %0 = stablehlo.pad %x, %v, low = [0], high = [0], interior = [-1] : (tensor<7xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
// -----
func.func @reverse_dims(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'stablehlo.reverse' op dimensions[0] = 2 is out of range for operand rank 2}}
  %0 = stablehlo.reverse %x, dims = [2] : tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
// -----
func.func @iota_dim() -> tensor<8x16xi32> {
  // expected-error @+1 {{'stablehlo.iota' op iota_dimension = 2 is out of range for result rank 2}}
  %0 = stablehlo.iota dim = 2 : tensor<8x16xi32>
  return %0 : tensor<8x16xi32>
}
// -----
func.func @constant_type() -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.constant' op value has type 'tensor<f32>' but the result has type 'tensor<2xf32>'}}
  %0 = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @constant_not_elements() -> tensor<f32> {
  // expected-error @+1 {{custom op 'stablehlo.constant' expected a dense elements attribute, got 1.000000e+00 : f32}}
  %0 = stablehlo.constant 1.0 : f32
  return %0 : tensor<f32>
}
