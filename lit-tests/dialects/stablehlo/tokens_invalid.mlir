// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @infeed_no_token(%t: !stablehlo.token) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.infeed' op last result must be a !stablehlo.token}}
  %0 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @recv_two_tokens(%t: !stablehlo.token) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.recv' op result #0 is a token; only the last result may be one}}
  %0:2 = "stablehlo.recv"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (!stablehlo.token, !stablehlo.token)
  return %0#1 : !stablehlo.token
}
// -----
func.func @send_no_channel(%t: !stablehlo.token, %x: tensor<f32>) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.send' op requires attribute 'channel_handle'}}
  %0 = "stablehlo.send"(%x, %t) : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}
// -----
func.func @after_all_tensor(%x: tensor<f32>) -> !stablehlo.token {
  // expected-error @+1 {{'stablehlo.after_all' op operand #0 must be variadic of token, but got 'tensor<f32>'}}
  %0 = "stablehlo.after_all"(%x) : (tensor<f32>) -> !stablehlo.token
  return %0 : !stablehlo.token
}
