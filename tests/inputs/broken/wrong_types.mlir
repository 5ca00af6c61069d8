func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xi32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : (tensor<8x16xf32>, tensor<8x16xi32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
