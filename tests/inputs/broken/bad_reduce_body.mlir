func.func @main(%arg0: tensor<8x16xf32>) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
   reducer(%a: tensor<f32>, %b: tensor<i32>)  {
    stablehlo.return %a : tensor<f32>
  }
  return %0 : tensor<8xf32>
}
