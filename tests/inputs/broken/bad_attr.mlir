func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xi1> {
  %0 = stablehlo.compare BIGGER, %arg0, %arg1, FLOAT : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
  return %0 : tensor<8xi1>
}
