func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.frobnicate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
