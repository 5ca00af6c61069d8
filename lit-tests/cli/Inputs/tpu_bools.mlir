func.func @mask(%x: tensor<8x128xf32>, %m: tensor<8x128xi1>) -> (tensor<8x128xf32>, tensor<8x128xi1>) {
  %z = stablehlo.constant dense<0.0> : tensor<8x128xf32>
  %0 = stablehlo.select %m, %x, %z : tensor<8x128xi1>, tensor<8x128xf32>
  %1 = stablehlo.compare GT, %x, %z, FLOAT : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
  return %0, %1 : tensor<8x128xf32>, tensor<8x128xi1>
}
