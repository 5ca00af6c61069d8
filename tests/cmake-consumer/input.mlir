module @jit_helpers {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @square(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @square(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = arith.mulf %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
