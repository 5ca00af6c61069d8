module @jit_f1 attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<1x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<8x4xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x4xf32>, %arg3: tensor<2x4xf32>) {
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
      %2 = stablehlo.multiply %arg2, %1 : tensor<2x4xf32>
      %3 = stablehlo.add %2, %arg3 : tensor<2x4xf32>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
      %5 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
      %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %8 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %8 : tensor<f32>
      }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %7 = "stablehlo.collective_permute"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
      sdy.return %6, %7 : tensor<1x4xf32>, tensor<2x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>)
    return %0#0, %0#1 : tensor<1x4xf32>, tensor<8x4xf32>
  }
}
