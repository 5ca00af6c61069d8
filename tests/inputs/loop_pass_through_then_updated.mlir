// A loop passes %x (a parameter) through unchanged, so its state is read in
// the caller's buffer; afterwards that result is updated in place by a
// dynamic_update_slice and carried by a second loop that changes it. Neither
// may write the caller's %x: the results are computed in buffers of their own.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %acc0 = stablehlo.constant dense<0.0> : tensor<4xf32>
  %r:3 = stablehlo.while(%i = %c0, %a = %x, %s = %acc0) : tensor<i32>, tensor<4xf32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<i32>
      %t = stablehlo.add %s, %a : tensor<4xf32>
      stablehlo.return %n, %a, %t : tensor<i32>, tensor<4xf32>, tensor<4xf32>
    }
  %nine = stablehlo.constant dense<9.0> : tensor<1xf32>
  %u = stablehlo.dynamic_update_slice %r#1, %nine, %c1 : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
  %w:2 = stablehlo.while(%j = %c0, %b = %u) : tensor<i32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %j, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %j, %c1 : tensor<i32>
      %d = stablehlo.add %b, %b : tensor<4xf32>
      stablehlo.return %n, %d : tensor<i32>, tensor<4xf32>
    }
  return %r#2, %u, %w#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
