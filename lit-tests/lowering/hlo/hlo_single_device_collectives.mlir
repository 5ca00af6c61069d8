// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-single-device-collectives)' -split-input-file | FileCheck %s

// A shard_map over a one-device mesh as JAX 0.10.2 lowers it (psum): the
// all_reduce has one participant, so its result is its operand; the other
// collectives alike; replica_id and partition_id are 0; a permute with no
// pair to process 0 gives zeros.
// CHECK-LABEL: func.func public @main
// CHECK-NOT:   stablehlo.all_reduce
// CHECK-NOT:   stablehlo.all_gather
// CHECK-NOT:   stablehlo.reduce_scatter
// CHECK-NOT:   stablehlo.all_to_all
// CHECK-NOT:   stablehlo.collective_broadcast
// CHECK-NOT:   stablehlo.replica_id
// CHECK-NOT:   stablehlo.partition_id
// CHECK:       %[[M:.*]] = stablehlo.multiply %arg0, %{{.*}} : tensor<8xf32>
// CHECK:       %[[A:.*]] = stablehlo.add %[[M]], %[[M]] : tensor<8xf32>
// CHECK:       %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
// CHECK:       %[[R:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK:       %[[P:.*]] = stablehlo.constant dense<0> : tensor<ui32>
// CHECK:       return %[[A]], %[[Z]], %[[R]], %[[P]]
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<8xf32>
    %0 = stablehlo.multiply %arg0, %cst : tensor<8xf32>
    %1 = "stablehlo.all_reduce"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<0> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = "stablehlo.all_gather"(%1) <{all_gather_dim = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %3 = "stablehlo.reduce_scatter"(%2) <{scatter_dimension = 0 : i64, replica_groups = dense<0> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %4 = "stablehlo.all_to_all"(%3) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %5 = "stablehlo.collective_broadcast"(%4) <{replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %6 = "stablehlo.collective_permute"(%5) <{source_target_pairs = dense<0> : tensor<1x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %7 = stablehlo.add %6, %0 : tensor<8xf32>
    %8 = "stablehlo.collective_permute"(%5) <{source_target_pairs = dense<> : tensor<0x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %9 = stablehlo.replica_id : tensor<ui32>
    %10 = stablehlo.partition_id : tensor<ui32>
    return %7, %8, %9, %10 : tensor<8xf32>, tensor<8xf32>, tensor<ui32>, tensor<ui32>
  }
}

// -----

// A module for two devices keeps its collectives (refused by name at fusion).
// CHECK-LABEL: func.func public @two_devices
// CHECK:       stablehlo.all_reduce
// CHECK:       stablehlo.replica_id
module @jit_g attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @two_devices(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<ui32>) {
    %1 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = stablehlo.replica_id : tensor<ui32>
    return %1, %2 : tensor<8xf32>, tensor<ui32>
  }
}

// -----

// One device, but a group naming process 1: a program for more devices,
// left as it is.
// CHECK-LABEL: func.func public @other_process
// CHECK:       stablehlo.all_reduce
// CHECK:       stablehlo.collective_permute
module @jit_h {
  func.func public @other_process(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %1 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = "stablehlo.collective_permute"(%arg0) <{source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    return %1, %2 : tensor<8xf32>, tensor<8xf32>
  }
}
