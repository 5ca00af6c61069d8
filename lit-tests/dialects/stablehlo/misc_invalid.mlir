// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @custom_call_dict_config(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op a dictionary backend_config needs api_version = 4 (API_VERSION_TYPED_FFI)}}
  %0 = stablehlo.custom_call @foo(%x) {backend_config = {a = 1 : i32}} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @custom_call_layouts(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op operand_layouts[0][1] = 0 is repeated}}
  %0 = stablehlo.custom_call @foo(%x) {operand_layouts = [dense<[0, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
// -----
func.func @custom_call_alias(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op output_operand_aliases[0] names operand 3 but the op has 1 operands}}
  %0 = stablehlo.custom_call @foo(%x) {output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 3, operand_tuple_indices = []>]} : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @tuple_type(%a: tensor<f32>) -> tuple<tensor<i32>> {
  // expected-error @+1 {{'stablehlo.tuple' op result type 'tuple<tensor<i32>>' must be 'tuple<tensor<f32>>'}}
  %0 = "stablehlo.tuple"(%a) : (tensor<f32>) -> tuple<tensor<i32>>
  return %0 : tuple<tensor<i32>>
}
// -----
func.func @get_tuple_element_index(%t: tuple<tensor<f32>>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op index = 1 is out of range for a tuple of 1 elements}}
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>>) -> tensor<f32>
  return %0 : tensor<f32>
}
// -----
func.func @rng_state(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op THREE_FRY needs an initial_state of 2 elements, got 3}}
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %0#0, %0#1 : tensor<3xui64>, tensor<4xui32>
}
// -----
func.func @rng_algorithm(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>) {
  // expected-error @+2 {{custom op 'stablehlo.rng_bit_generator' expected ::floors::stablehlo::RngAlgorithm to be one of: DEFAULT, THREE_FRY, PHILOX}}
  // expected-error @+1 {{custom op 'stablehlo.rng_bit_generator' failed to parse Stablehlo_RngAlgorithmAttr parameter 'value' which is to be a `::floors::stablehlo::RngAlgorithm`}}
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = MERSENNE : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<4xui32>
}
// -----
func.func @composite_missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @nowhere does not name a symbol in scope}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @nowhere} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func private @impl(%x: tensor<4xf32>) -> tensor<4xf16>
func.func @composite_signature(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @impl has type '(tensor<4xf32>) -> tensor<4xf16>' but the composite has type '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @batch_norm_feature_index(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op feature_index = 3 is out of range for operand rank 3}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.0e-05 : f32, feature_index = 3 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @batch_norm_scale(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op scale must be a 1-d tensor of 3 elements (the operand's feature dimension), got 'tensor<4xf32>'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.0e-05 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @reduce_precision_bits(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce_precision' op exponent_bits = 0 must be at least 1}}
  %0 = stablehlo.reduce_precision %x, format = e0m10 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @reduce_precision_format(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.reduce_precision' expected a format like 'e5m10', got 'fp16'}}
  %0 = stablehlo.reduce_precision %x, format = fp16 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @bitcast_shape(%x: tensor<4xf32>) -> tensor<4x4xf16> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op result shape [4, 4] does not match the expected shape [4, 2] (dimension 1)}}
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}
// -----
func.func @convert_shape(%x: tensor<4xf32>) -> tensor<5xi32> {
  // expected-error @+1 {{'stablehlo.convert' op result #0 has shape [5] but operand #0 has shape [4]; all operands and results must have the same shape}}
  %0 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}
