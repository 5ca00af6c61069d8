func.func @main(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
  cond {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  } do {
    stablehlo.return %iterArg : tensor<i32>
  }
  return %0 : tensor<i32>
}
