func.func @main(%x: tensor<4x9xf32>, %init: tensor<f32>) -> (tensor<4x9xf32>, tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x9xf32>) {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4x9xf32>) -> tensor<4x9xf32>
  %v, %i = chlo.top_k(%x, k = 3) : tensor<4x9xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  %1 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [8, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 9>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
  return %0, %v, %i, %1 : tensor<4x9xf32>, tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x9xf32>
}
