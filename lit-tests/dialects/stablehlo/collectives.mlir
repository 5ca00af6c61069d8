// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Collectives and process ids, in the form JAX prints them (shard_map's psum,
// all_gather, all_to_all, ppermute, psum_scatter; axis_index).

// CHECK-LABEL: func.func @all_reduce(%arg0: tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %1 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0 : tensor<8xf32>
func.func @all_reduce(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Attributes in a plain dictionary (older printers) read the same.
// CHECK-LABEL: func.func @all_reduce_variadic(%arg0: tensor<8xf32>, %arg1: tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>) {
// CHECK-NEXT: %0:2 = "stablehlo.all_reduce"(%arg0, %arg1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<f32>, %arg5: tensor<i32>):
// CHECK-NEXT: %1 = stablehlo.maximum %arg2, %arg4 : tensor<f32>
// CHECK-NEXT: %2 = stablehlo.add %arg3, %arg5 : tensor<i32>
// CHECK-NEXT: stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }) : (tensor<8xf32>, tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>)
// CHECK-NEXT: return %0#0, %0#1 : tensor<8xf32>, tensor<4xi32>
func.func @all_reduce_variadic(%arg0: tensor<8xf32>, %arg1: tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>) {
  %0:2 = "stablehlo.all_reduce"(%arg0, %arg1) ({
  ^bb0(%arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<f32>, %arg5: tensor<i32>):
    %1 = stablehlo.maximum %arg2, %arg4 : tensor<f32>
    %2 = stablehlo.add %arg3, %arg5 : tensor<i32>
    stablehlo.return %1, %2 : tensor<f32>, tensor<i32>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<8xf32>, tensor<4xi32>) -> (tensor<8xf32>, tensor<4xi32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @all_gather(%arg0: tensor<2x4xf32>) -> tensor<8x4xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %0 : tensor<8x4xf32>
func.func @all_gather(%arg0: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @all_to_all(%arg0: tensor<4x8xf32>) -> tensor<16x2xf32> {
// CHECK-NEXT: %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return %0 : tensor<16x2xf32>
func.func @all_to_all(%arg0: tensor<4x8xf32>) -> tensor<16x2xf32> {
  %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// CHECK-LABEL: func.func @reduce_scatter(%arg0: tensor<8x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT: %0 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK-NEXT: %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %1 : tensor<f32>
// CHECK-NEXT: }) : (tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: return %0 : tensor<2x4xf32>
func.func @reduce_scatter(%arg0: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %0 = "stablehlo.reduce_scatter"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %1 = stablehlo.add %arg1, %arg2 : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @collective_permute(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
func.func @collective_permute(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.collective_permute"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @collective_broadcast(%arg0: tensor<1x2xi64>) -> tensor<1x2xi64> {
// CHECK-NEXT: %0 = "stablehlo.collective_broadcast"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>, replica_groups = dense<{{\[\[}}2, 1]]> : tensor<1x2xi64>}> : (tensor<1x2xi64>) -> tensor<1x2xi64>
// CHECK-NEXT: return %0 : tensor<1x2xi64>
func.func @collective_broadcast(%arg0: tensor<1x2xi64>) -> tensor<1x2xi64> {
  %0 = "stablehlo.collective_broadcast"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>, replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>}> : (tensor<1x2xi64>) -> tensor<1x2xi64>
  return %0 : tensor<1x2xi64>
}

// CHECK-LABEL: func.func @collective_reduce(%arg0: tensor<4xi64>) -> tensor<4xi64> {
// CHECK-NEXT: %0 = "stablehlo.collective_reduce"(%arg0) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> ({
// CHECK-NEXT: ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
// CHECK-NEXT: %1 = stablehlo.add %arg1, %arg2 : tensor<i64>
// CHECK-NEXT: stablehlo.return %1 : tensor<i64>
// CHECK-NEXT: }) : (tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: return %0 : tensor<4xi64>
func.func @collective_reduce(%arg0: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "stablehlo.collective_reduce"(%arg0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
    %1 = stablehlo.add %arg1, %arg2 : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
// CHECK-NEXT: %0 = stablehlo.replica_id : tensor<ui32>
// CHECK-NEXT: %1 = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: return %0, %1 : tensor<ui32>, tensor<ui32>
func.func @ids() -> (tensor<ui32>, tensor<ui32>) {
  %0 = stablehlo.replica_id : tensor<ui32>
  %1 = stablehlo.partition_id : tensor<ui32>
  return %0, %1 : tensor<ui32>, tensor<ui32>
}

// CHECK-LABEL: func.func @async(%arg0: tensor<8x2xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %0 = "stablehlo.async_start"(%arg0) ({
// CHECK-NEXT: ^bb0(%arg1: tensor<8x2xf32>):
// CHECK-NEXT: %2 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, replica_groups = dense<{{\[\[}}0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>}> : (tensor<8x2xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: stablehlo.return %2 : tensor<8x8xf32>
// CHECK-NEXT: }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
// CHECK-NEXT: %1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x8xf32>
// CHECK-NEXT: return %1 : tensor<8x8xf32>
func.func @async(%arg0: tensor<8x2xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.async_start"(%arg0) ({
  ^bb0(%arg1: tensor<8x2xf32>):
    %2 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>}> : (tensor<8x2xf32>) -> tensor<8x8xf32>
    stablehlo.return %2 : tensor<8x8xf32>
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x8xf32>>
  %1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x8xf32>>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
