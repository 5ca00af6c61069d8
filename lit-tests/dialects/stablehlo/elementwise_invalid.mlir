// RUN: %floors-opt %s -split-input-file -verify-diagnostics
// Elementwise ops: shapes, element types, per-op type constraints.
func.func @add_shape(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op operand #1 has shape [5] but operand #0 has shape [4]; all operands and results must have the same shape}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @add_element_type(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.add' op operand #1 has element type 'f16' but operand #0 has element type 'f32'; all operands and results must have the same element type}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @and_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.and' op operand #0 must be ranked tensor of bool or integer values, but got 'tensor<4xf32>'}}
  %0 = stablehlo.and %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @shift_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.shift_left' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xi1>'}}
  %0 = stablehlo.shift_left %a, %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @sqrt_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.sqrt' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements or per-tensor integer quantized values, but got 'tensor<4xi32>'}}
  %0 = stablehlo.sqrt %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'stablehlo.exponential' op operand #0 must be ranked tensor of floating-point or complex type with 32-bit float or 64-bit float elements or per-tensor integer quantized values, but got 'tensor<*xf32>'}}
  %0 = stablehlo.exponential %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @abs_complex_result(%a: tensor<4xcomplex<f32>>) -> tensor<4xf64> {
  // expected-error @+1 {{'stablehlo.abs' op result element type 'f64' must be 'f32' for an operand of element type 'complex<f32>'}}
  %0 = stablehlo.abs %a : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// -----
func.func @is_finite_result(%a: tensor<4xf32>) -> tensor<5xi1> {
  // expected-error @+1 {{'stablehlo.is_finite' op result #0 has shape [5] but operand #0 has shape [4]; all operands and results must have the same shape}}
  %0 = stablehlo.is_finite %a : (tensor<4xf32>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}
// -----
func.func @bad_type_syntax(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{custom op 'stablehlo.add' expected a function type with 2 input(s) and 1 result, got '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = stablehlo.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
