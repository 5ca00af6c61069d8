// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-tokens-to-zero-sized)' -split-input-file | FileCheck %s

// An ordered host callback as JAX lowers it for floors: the token argument
// and result of @main become bool[0] (what JAX passes at run time), tokens
// carried by a loop and through a call are retyped alike, create_token and
// after_all become empty constants.
// CHECK-LABEL: func.func public @main
// CHECK-SAME: (%arg0: tensor<0xi1> {jax.token = true}, %arg1: tensor<f32>) -> (tensor<0xi1> {jax.token = true}, tensor<f32>)
// CHECK: stablehlo.while(%{{.*}} = %arg0, %{{.*}} = %{{.*}}, %{{.*}} = %arg1) : tensor<0xi1>, tensor<i32>, tensor<f32>
// CHECK: func.call @closed_call({{.*}}) : (tensor<0xi1>, tensor<i32>, tensor<f32>) -> (tensor<0xi1>, tensor<i32>, tensor<f32>)
// CHECK: func.func private @closed_call(%arg0: tensor<0xi1> {jax.token = true}, %arg1: tensor<i32>, %arg2: tensor<f32>) -> (tensor<0xi1> {jax.token = true}, tensor<i32>, tensor<f32>)
// CHECK: %[[E:.*]] = stablehlo.constant dense<> : tensor<0xi1>
// CHECK-NOT: create_token
// CHECK-NOT: after_all
// CHECK-NOT: !stablehlo.token
module {
  func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<f32>) -> (!stablehlo.token {jax.token = true}, tensor<f32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%t = %arg0, %i = %c, %x = %arg1) : !stablehlo.token, tensor<i32>, tensor<f32>
    cond {
      %c3 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:3 = func.call @closed_call(%t, %i, %x) : (!stablehlo.token, tensor<i32>, tensor<f32>) -> (!stablehlo.token, tensor<i32>, tensor<f32>)
      stablehlo.return %1#0, %1#1, %1#2 : !stablehlo.token, tensor<i32>, tensor<f32>
    }
    return %0#0, %0#2 : !stablehlo.token, tensor<f32>
  }
  func.func private @closed_call(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<i32>, %arg2: tensor<f32>) -> (!stablehlo.token {jax.token = true}, tensor<i32>, tensor<f32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    stablehlo.custom_call @floors_python_callback(%arg1) {has_side_effect = true, mhlo.backend_config = {callback_id = 2 : ui64}} : (tensor<i32>) -> ()
    %t = stablehlo.create_token : !stablehlo.token
    %u = stablehlo.after_all %arg0, %t : !stablehlo.token
    return %u, %0, %arg2 : !stablehlo.token, tensor<i32>, tensor<f32>
  }
}

// -----

// A token used by a host transfer: the module keeps its tokens (fusion then
// refuses stablehlo.send by name).
// CHECK-LABEL: func.func @send
// CHECK: stablehlo.create_token : !stablehlo.token
// CHECK: stablehlo.send
func.func @send(%x: tensor<2xf32>) -> !stablehlo.token {
  %t = stablehlo.create_token : !stablehlo.token
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}
