module @jit_prog attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<4x6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<16x2xf32> {jax.result_info = "result[0]"}, tensor<4x12x2xf32> {jax.result_info = "result[1]"}, tensor<8x2xf32> {jax.result_info = "result[2]"}) {
    %0:3 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<4x4xf32>, %arg3: tensor<2x6x4xf32>) {
      %1 = "stablehlo.all_to_all"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
      %2 = "stablehlo.all_to_all"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 2 : i64}> : (tensor<2x6x4xf32>) -> tensor<2x12x2xf32>
      %3 = "stablehlo.reduce_scatter"(%arg2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %4 = stablehlo.add %arg4, %arg5 : tensor<f32>
        stablehlo.return %4 : tensor<f32>
      }) : (tensor<4x4xf32>) -> tensor<4x2xf32>
      sdy.return %1, %2, %3 : tensor<8x2xf32>, tensor<2x12x2xf32>, tensor<4x2xf32>
    } : (tensor<8x4xf32>, tensor<4x6x4xf32>) -> (tensor<16x2xf32>, tensor<4x12x2xf32>, tensor<8x2xf32>)
    return %0#0, %0#1, %0#2 : tensor<16x2xf32>, tensor<4x12x2xf32>, tensor<8x2xf32>
  }
}

