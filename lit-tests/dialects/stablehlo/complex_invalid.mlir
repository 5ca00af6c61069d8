// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @real_type(%x: tensor<4xcomplex<f32>>) -> tensor<4xf64> {
  // expected-error @+1 {{'stablehlo.real' op result element type 'f64' must be 'f32' for an operand of element type 'complex<f32>'}}
  %0 = stablehlo.real %x : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// -----
func.func @complex_operands(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.complex' op lhs element type 'f32' differs from rhs element type 'f64'}}
  %0 = stablehlo.complex %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @complex_result(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{'stablehlo.complex' op result element type 'complex<f64>' must be 'complex<f32>' for operands of element type 'f32'}}
  %0 = stablehlo.complex %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}
// -----
func.func @complex_short_type(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a tensor with complex element type, got 'tensor<4xf32>'}}
  %0 = stablehlo.complex %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @complex_f16(%a: tensor<4xcomplex<f16>>) -> tensor<4xcomplex<f16>> {
  // expected-error @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.negate %a : tensor<4xcomplex<f16>>
  return %0 : tensor<4xcomplex<f16>>
}
