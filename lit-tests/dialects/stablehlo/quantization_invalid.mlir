// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @dequantize_type(%x: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4xf16> {
  // expected-error @+1 {{'stablehlo.uniform_dequantize' op result element type 'f16' must be the expressed type 'f32' of the operand}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
// -----
func.func @quantize_to_float(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of per-tensor integer quantized or per-axis integer quantized values, but got 'tensor<4xf16>'}}
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
// -----
func.func @convert_quantized(%x: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.convert' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.convert %x : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
