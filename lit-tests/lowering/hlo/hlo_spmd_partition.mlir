// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-spmd-partition)' -split-input-file -verify-diagnostics | FileCheck %s

// A shard_map as JAX 0.10.2 lowers it: @main takes the local shards, the
// manual computation's body is the function's body, results are local, the
// Shardy annotations and the mesh are gone (the tilings of arguments and
// results recorded as XLA's tile assignments); the collectives stay.
// CHECK-LABEL: module @jit_f attributes {floors.spmd_shardings = {params = [{devices = array<i64: 0, 1, 2, 3>, replicated_last = false, tiles = array<i64: 4, 1>}, {devices = array<i64: 0, 1, 2, 3>, replicated_last = false, tiles = array<i64: 4, 1>}], results = [{}, {devices = array<i64: 0, 1, 2, 3>, replicated_last = false, tiles = array<i64: 4, 1>}]}, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// CHECK-NOT:   sdy.
// CHECK:       func.func public @main(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> (tensor<1x4xf32> {jax.result_info = "result[0]"}, tensor<2x4xf32> {jax.result_info = "result[1]"})
// CHECK:         %[[S:.*]] = stablehlo.add %arg0, %arg1 : tensor<2x4xf32>
// CHECK:         %[[P:.*]] = "stablehlo.collective_permute"(%[[S]])
// CHECK:         return %{{.*}}, %[[P]] : tensor<1x4xf32>, tensor<2x4xf32>
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<1x4xf32> {jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, tensor<8x4xf32> {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x4xf32>, %arg3: tensor<2x4xf32>) {
      %1 = stablehlo.add %arg2, %arg3 : tensor<2x4xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
      %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %5 = "stablehlo.collective_permute"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
      sdy.return %4, %5 : tensor<1x4xf32>, tensor<2x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>)
    return %0#0, %0#1 : tensor<1x4xf32>, tensor<8x4xf32>
  }
}

// -----

// An elementwise op after the shard_map, with a scalar broadcast constrained
// to the same placement: each device multiplies its shard by a local
// broadcast. A 2x2 mesh splitting both dimensions.
// CHECK-LABEL: module @jit_g
// CHECK:       func.func public @main(%arg0: tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:         %[[B:.*]] = stablehlo.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
// CHECK:         %[[M:.*]] = stablehlo.multiply %arg0, %[[B]] : tensor<4x2xf32>
// CHECK:         return %[[M]] : tensor<4x2xf32>
module @jit_g attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%a: tensor<4x2xf32>) {
      sdy.return %a : tensor<4x2xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<8x4xf32>
    return %3 : tensor<8x4xf32>
  }
}

// -----

// Automatic partitioning is refused at the op, naming the placement, where
// no data-parallel rule applies (a reverse of the split dimension).
module @jit_h attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
    // expected-error @+1 {{`stablehlo.reverse` on a value placed as <@mesh, [{"x"}, {}]> outside sdy.manual_computation needs automatic SPMD partitioning, which floors does not do}}
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

// -----

// A replicated value met by a split one is sliced per device: the tile at
// partition_id's offset (XLA's partitioner does the same); a reshape keeps
// the split rows.
// CHECK-LABEL: module @jit_slice
// CHECK:       func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<8x3xf32>) -> tensor<12xf32>
// CHECK:         %[[P:.*]] = stablehlo.partition_id : tensor<ui32>
// CHECK:         %[[I:.*]] = stablehlo.convert %[[P]] : (tensor<ui32>) -> tensor<i64>
// CHECK:         %[[S:.*]] = stablehlo.dynamic_slice %arg1, %{{.*}}, %{{.*}}, sizes = [4, 3] : (tensor<8x3xf32>, tensor<i64>, tensor<i64>) -> tensor<4x3xf32>
// CHECK:         %[[A:.*]] = stablehlo.add %arg0, %[[S]] : tensor<4x3xf32>
// CHECK:         %[[R:.*]] = stablehlo.reshape %[[A]] : (tensor<4x3xf32>) -> tensor<12xf32>
// CHECK:         return %[[R]]
module @jit_slice attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<24xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<8x3xf32>) -> tensor<24xf32>
    return %1 : tensor<24xf32>
  }
}

// -----

// Data parallelism as jit with NamedShardings writes it (XLA's rules): a dot
// of batch-split rows by a replicated matrix keeps the rows split; a reduce
// over the split dimension, and a dot contracting it, are partial per device
// and all-reduced over the mesh axis.
// CHECK-LABEL: module @jit_dp
// CHECK:       func.func public @main(%arg0: tensor<4x5xf32>, %arg1: tensor<5x3xf32>) -> (tensor<4x3xf32>, tensor<f32>, tensor<5x3xf32>)
// CHECK:         %[[D:.*]] = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
// CHECK:         %[[R:.*]] = stablehlo.reduce(%[[D]] init: %{{.*}}) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
// CHECK:         %[[S:.*]] = "stablehlo.all_reduce"(%[[R]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>
// CHECK:         %[[G:.*]] = stablehlo.dot_general %arg0, %[[D]], contracting_dims = [0] x [0] : (tensor<4x5xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
// CHECK:         %[[GS:.*]] = "stablehlo.all_reduce"(%[[G]])
// CHECK:           stablehlo.add
// CHECK:         return %[[D]], %[[S]], %[[GS]]
module @jit_dp attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<5x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x3xf32>, tensor<f32>, tensor<5x3xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x5xf32>, tensor<5x3xf32>) -> tensor<8x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x3xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.dot_general %arg0, %0, contracting_dims = [0] x [0] : (tensor<8x5xf32>, tensor<8x3xf32>) -> tensor<5x3xf32>
    return %0, %1, %2 : tensor<8x3xf32>, tensor<f32>, tensor<5x3xf32>
  }
}

// -----

// A partially manual computation (axis "y" left automatic) is refused.
module @jit_i attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
    // expected-error @+1 {{a partially manual computation (mesh axes ["y"] left automatic) needs automatic SPMD partitioning}}
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
      sdy.return %a : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// An uneven split is refused where the argument is.
module @jit_j attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  // expected-error @+1 {{argument 0: dimension 0 of size 6 cannot be split evenly into 4 shards}}
  func.func public @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<6xf32> {
    return %arg0 : tensor<6xf32>
  }
}

// -----

// An operand placed otherwise than the manual computation takes it.
module @jit_k attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    // expected-error @+1 {{operand 0 is placed as <@mesh, [{"x"}]> but the manual computation takes it as <@mesh, [{}]>: floors does not reshard}}
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"x"} (%a: tensor<8xf32>) {
      sdy.return %a : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// A loop carrying a split value: its condition and body are partitioned with
// the carried value placed as the operand, the loop result keeps it.
// CHECK-LABEL: module @jit_loop
// CHECK:       func.func public @main(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         stablehlo.while(%{{.*}} = %{{.*}}, %[[C:.*]] = %arg0) : tensor<i32>, tensor<2x3xf32>
// CHECK:           stablehlo.tanh %[[C]] : tensor<2x3xf32>
module @jit_loop attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]>
  func.func public @main(%arg0: tensor<8x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%i = %c0, %c = %arg0) : tensor<i32>, tensor<8x3xf32>
     cond {
      %c3 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %i, %c1 : tensor<i32>
      %2 = stablehlo.tanh %c : tensor<8x3xf32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<8x3xf32>
    }
    return %0#1 : tensor<8x3xf32>
  }
}
