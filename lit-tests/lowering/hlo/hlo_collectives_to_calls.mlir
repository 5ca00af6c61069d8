// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-collectives-to-calls)' -split-input-file -verify-diagnostics | FileCheck %s

// In a module for 4 devices each collective becomes a call of the runtime's
// collective thunk, its process groups' mode resolved by the spec's rules.
// CHECK-LABEL: module @jit_f
// CHECK: stablehlo.custom_call @floors.all_reduce(%arg0) {api_version = 4 : i32, has_side_effect = true, mhlo.backend_config = {channel_id = 1 : i64, group_size = 4 : i64, mode = "flattened_ids", reduction = "add", replica_groups = array<i64: 0, 1, 2, 3>}}
// CHECK: stablehlo.custom_call @floors.all_gather(%arg0) {{.*}}dimension = 0 : i64, group_size = 2 : i64, mode = "cross_replica_and_partition", replica_groups = array<i64: 0, 1, 2, 3>
// CHECK: stablehlo.custom_call @floors.reduce_scatter(%arg0) {{.*}}dimension = 0 : i64, group_size = 4 : i64, mode = "cross_replica", reduction = "max"
// CHECK: stablehlo.custom_call @floors.all_to_all(%arg0) {{.*}}concat_dimension = 0 : i64, group_size = 4 : i64, mode = "cross_partition", replica_groups = array<i64: 0, 1, 2, 3>, split_count = 4 : i64, split_dimension = 0 : i64
// CHECK: stablehlo.custom_call @floors.collective_permute(%arg0) {{.*}}mode = "cross_partition", source_target_pairs = array<i64: 0, 1, 1, 0>
// CHECK: stablehlo.custom_call @floors.partition_id() {{.*}} : () -> tensor<ui32>
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<8xf32>) -> tensor<16xf32>
    %2 = "stablehlo.reduce_scatter"(%arg0) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %b, %a : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<2xf32>
    %3 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<8xf32>) -> tensor<8xf32>
    %4 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    %5 = stablehlo.partition_id : tensor<ui32>
    return %0, %1, %2, %3, %4, %5 : tensor<8xf32>, tensor<16xf32>, tensor<2xf32>, tensor<8xf32>, tensor<8xf32>, tensor<ui32>
  }
}

// -----

// A one-device module keeps its collectives (floors-hlo-single-device-collectives' work).
// CHECK-LABEL: module @jit_one
// CHECK: stablehlo.all_gather
module @jit_one {
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %1 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<8xf32>) -> tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}

// -----

// A computation other than one elementwise reduction is refused at the op.
module @jit_g attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{floors runs collectives whose computation is one add, multiply, minimum, maximum, and, or or xor of its two arguments per operand}}
    %0 = "stablehlo.all_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      %t = stablehlo.multiply %s, %s : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// On the GPU floor (NCCL moves rank-major blocks): a gather along dimension
// 1 becomes a gather along 0 between transposes; an all-to-all splitting
// dimension 1 and concatenating along 0 exchanges the split blocks moved to
// the front, then moves the source-rank axis to dimension 0 and merges it.
// A gather along the major dimension is left as it is.
// CHECK-LABEL: module @jit_gpu
// CHECK:       %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x2xf32>) -> tensor<2x8xf32>
// CHECK:       %[[G:.*]] = stablehlo.custom_call @floors.all_gather(%[[T]]) {{.*}}dimension = 0 : i64{{.*}} : (tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK:       %[[B:.*]] = stablehlo.transpose %[[G]], dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK:       %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<8x2xf32>) -> tensor<8x2x1xf32>
// CHECK:       %[[F:.*]] = stablehlo.transpose %[[R]], dims = [1, 0, 2] : (tensor<8x2x1xf32>) -> tensor<2x8x1xf32>
// CHECK:       %[[A:.*]] = stablehlo.custom_call @floors.all_to_all(%[[F]]) {{.*}}concat_dimension = 0 : i64{{.*}}split_count = 2 : i64, split_dimension = 0 : i64{{.*}} : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
// CHECK:       %[[M:.*]] = stablehlo.transpose %[[A]], dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
// CHECK:       %[[O:.*]] = stablehlo.reshape %[[M]] : (tensor<2x8x1xf32>) -> tensor<16x1xf32>
// CHECK:       %[[H:.*]] = stablehlo.custom_call @floors.all_gather(%arg0) {{.*}}dimension = 0 : i64{{.*}} : (tensor<8x2xf32>) -> tensor<16x2xf32>
// CHECK:       return %[[B]], %[[O]], %[[H]]
module @jit_gpu attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32, floors.target = #floors.gpu_target<chip = "sm_90a", sm_count = 132, warp_size = 32, max_threads_per_block = 1024, max_threads_per_sm = 2048, shared_memory_per_block = 49152, shared_memory_per_block_optin = 232448, shared_memory_per_sm = 233472, registers_per_block = 65536, registers_per_thread = 255, l2_cache_bytes = 52428800, clock_khz = 1980000, memory_bandwidth = 3350000000000>} {
  func.func public @main(%arg0: tensor<8x2xf32>) -> (tensor<8x4xf32>, tensor<16x1xf32>, tensor<16x2xf32>) {
    %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<8x4xf32>
    %1 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x2xf32>) -> tensor<16x1xf32>
    %2 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<16x2xf32>
    return %0, %1, %2 : tensor<8x4xf32>, tensor<16x1xf32>, tensor<16x2xf32>
  }
}
