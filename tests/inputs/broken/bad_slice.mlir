func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.slice %arg0 [2:20] : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
