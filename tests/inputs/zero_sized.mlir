func.func @main(%a: tensor<0x0xf32>, %x: tensor<3x0xf32>, %y: tensor<0x4xf32>, %init: tensor<f32>, %t: tensor<0x5xf32>) -> (tensor<0x0xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<0x2xf32>, tensor<0x2xi32>) {
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<0x0xf32>, tensor<0x0xf32>) -> tensor<0x0xf32>
  %1 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<3x0xf32>, tensor<0x4xf32>) -> tensor<3x4xf32>
  %2 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [1] : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = stablehlo.pad %y, %init, low = [1, 0], high = [1, 1], interior = [0, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<2x5xf32>
  %v, %i = chlo.top_k(%t, k = 2) : tensor<0x5xf32> -> (tensor<0x2xf32>, tensor<0x2xi32>)
  return %0, %1, %2, %3, %v, %i : tensor<0x0xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<0x2xf32>, tensor<0x2xi32>
}
