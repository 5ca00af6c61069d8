// Complex numbers the CPU floor compiles: the GPU and TPU floors refuse them at the op.
func.func @main(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
