// jnp.fft.rfft: complex results and an fft (the CPU floor's built-in FFT call).
func.func @main(%arg0: tensor<8xf32>) -> tensor<5xf32> {
  %0 = stablehlo.fft %arg0, type =  RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
  %1 = stablehlo.real %0 : (tensor<5xcomplex<f32>>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
