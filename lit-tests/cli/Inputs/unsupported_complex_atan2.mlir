// An op floors compiles, on complex elements it does not: refused at the op.
func.func @main(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.atan2 %arg0, %arg0 : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
