func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
