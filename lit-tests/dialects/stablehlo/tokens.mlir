// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Tokens and host communication: create_token, after_all, infeed, outfeed,
// send, recv (host transfers as JAX's host callbacks print them).

// CHECK-LABEL: func.func @tokens(%arg0: !stablehlo.token, %arg1: !stablehlo.token) -> !stablehlo.token {
// CHECK-NEXT: %0 = stablehlo.create_token : !stablehlo.token
// CHECK-NEXT: %1 = stablehlo.after_all %arg0, %arg1, %0 : !stablehlo.token
// CHECK-NEXT: %2 = stablehlo.after_all %1 : !stablehlo.token
// CHECK-NEXT: return %2 : !stablehlo.token
func.func @tokens(%arg0: !stablehlo.token, %arg1: !stablehlo.token) -> !stablehlo.token {
  %0 = stablehlo.create_token : !stablehlo.token
  %1 = stablehlo.after_all %arg0, %arg1, %0 : !stablehlo.token
  %2 = stablehlo.after_all %1 : !stablehlo.token
  return %2 : !stablehlo.token
}

// An outfeed without outfeed_config gets the default "", printed, as
// upstream's does.
// CHECK-LABEL: func.func @feeds(%arg0: !stablehlo.token, %arg1: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<i32>, !stablehlo.token) {
// CHECK-NEXT: %0:3 = "stablehlo.infeed"(%arg0) <{infeed_config = "", layout = {{\[\[}}1, 0], []]}> : (!stablehlo.token) -> (tensor<3x4xf32>, tensor<i32>, !stablehlo.token)
// CHECK-NEXT: %1 = "stablehlo.outfeed"(%arg1, %0#2) <{outfeed_config = ""}> : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: %2 = "stablehlo.outfeed"(%1) <{outfeed_config = ""}> : (!stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: return %0#0, %0#1, %2 : tensor<3x4xf32>, tensor<i32>, !stablehlo.token
func.func @feeds(%arg0: !stablehlo.token, %arg1: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<i32>, !stablehlo.token) {
  %0:3 = "stablehlo.infeed"(%arg0) <{infeed_config = "", layout = [[1, 0], []]}> : (!stablehlo.token) -> (tensor<3x4xf32>, tensor<i32>, !stablehlo.token)
  %1 = "stablehlo.outfeed"(%arg1, %0#2) <{outfeed_config = ""}> : (tensor<3xf32>, !stablehlo.token) -> !stablehlo.token
  %2 = "stablehlo.outfeed"(%1) : (!stablehlo.token) -> !stablehlo.token
  return %0#0, %0#1, %2 : tensor<3x4xf32>, tensor<i32>, !stablehlo.token
}

// CHECK-LABEL: func.func @send_recv(%arg0: !stablehlo.token, %arg1: tensor<f32>) -> (tensor<f32>, !stablehlo.token) {
// CHECK-NEXT: %0 = "stablehlo.send"(%arg1, %arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> {mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous", _xla_host_transfer_rendezvous = "host_callback_0_args_0"}, mhlo.sharding = "{maximal device=0}"} : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> {mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous", _xla_host_transfer_rendezvous = "host_callback_0_results_0"}, mhlo.sharding = "{maximal device=0}"} : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
// CHECK-NEXT: return %1#0, %1#1 : tensor<f32>, !stablehlo.token
func.func @send_recv(%arg0: !stablehlo.token, %arg1: tensor<f32>) -> (tensor<f32>, !stablehlo.token) {
  %0 = "stablehlo.send"(%arg1, %arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> {mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous", _xla_host_transfer_rendezvous = "host_callback_0_args_0"}, mhlo.sharding = "{maximal device=0}"} : (tensor<f32>, !stablehlo.token) -> !stablehlo.token
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> {mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous", _xla_host_transfer_rendezvous = "host_callback_0_results_0"}, mhlo.sharding = "{maximal device=0}"} : (!stablehlo.token) -> (tensor<f32>, !stablehlo.token)
  return %1#0, %1#1 : tensor<f32>, !stablehlo.token
}

// Device-to-device send/recv between processes, with the pairs.
// CHECK-LABEL: func.func @send_recv_pairs(%arg0: !stablehlo.token, %arg1: tensor<2x2xi64>) -> !stablehlo.token {
// CHECK-NEXT: %0 = "stablehlo.send"(%arg1, %arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2]]> : tensor<2x2xi64>}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
// CHECK-NEXT: %2 = "stablehlo.recv"(%1#1) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>}> : (!stablehlo.token) -> !stablehlo.token
// CHECK-NEXT: return %2 : !stablehlo.token
func.func @send_recv_pairs(%arg0: !stablehlo.token, %arg1: tensor<2x2xi64>) -> !stablehlo.token {
  %0 = "stablehlo.send"(%arg1, %arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false, source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %2 = "stablehlo.recv"(%1#1) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>}> : (!stablehlo.token) -> !stablehlo.token
  return %2 : !stablehlo.token
}
