// A host transfer (send, then recv): not compiled yet.
func.func @main(%arg0: !stablehlo.token, %arg1: tensor<f32>) -> (tensor<f32>, !stablehlo.token) {
  %0 = "stablehlo.send"(%arg1, %arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  return %1#0, %1#1 : tensor<f32>, !stablehlo.token
}
