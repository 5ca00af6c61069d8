// Uniform quantization: parsed and verified, not compiled yet.
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-30>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
