func.func @main(%arg0: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [0, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
