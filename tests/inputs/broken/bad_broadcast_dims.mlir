func.func @main(%arg0: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [3] : (tensor<16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
