module @jit__lambda attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xi16> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4x4xi16> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<4x4xi16>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<i16>, %arg3: tensor<i16>):
        %2 = stablehlo.add %arg2, %arg3 : tensor<i16>
        stablehlo.return %2 : tensor<i16>
      }) : (tensor<4x4xi16>) -> tensor<4x4xi16>
      sdy.return %1 : tensor<4x4xi16>
    } : (tensor<8x4xi16>) -> tensor<4x4xi16>
    return %0 : tensor<4x4xi16>
  }
}

