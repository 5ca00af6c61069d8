func.func public @main(%x0: tensor<4xf32>, %y0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %x = %x0, %y = %y0) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %two = stablehlo.constant dense<2> : tensor<i32>
    %f2 = stablehlo.constant dense<2.0> : tensor<4xf32>
    %f1 = stablehlo.constant dense<1.0> : tensor<4xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %rem = stablehlo.remainder %i, %two : tensor<i32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %even = stablehlo.compare EQ, %rem, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %xn = "stablehlo.if"(%even) ({
      %a = stablehlo.multiply %y, %f2 : tensor<4xf32>
      stablehlo.return %a : tensor<4xf32>
    }, {
      %b = stablehlo.subtract %y, %f1 : tensor<4xf32>
      stablehlo.return %b : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %yr = stablehlo.reverse %y, dims = [0] : tensor<4xf32>
    %yn = stablehlo.add %yr, %f1 : tensor<4xf32>
    stablehlo.return %i1, %xn, %yn : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
}
