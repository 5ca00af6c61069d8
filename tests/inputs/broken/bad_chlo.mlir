func.func @main(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = chlo.erf %arg0 : tensor<8xi32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
