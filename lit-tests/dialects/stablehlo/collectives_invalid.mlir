// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @all_reduce_results(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op has 1 operands but 2 results; expected one result per operand}}
  %0:2 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0 : tensor<8xf32>
}
// -----
func.func @all_reduce_computation(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op computation region must take 2 arguments, got 1}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @all_reduce_groups(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups must be a 2-d tensor, got rank 1}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[0, 1]> : tensor<2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
// -----
func.func @all_gather_dim(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op all_gather_dim = 2 is out of range for operand rank 2}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
// -----
func.func @all_gather_other_dim(%x: tensor<2x4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op result #0 dimension 1 is 8 but operand #0 has 4; only all_gather_dim may differ}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @all_to_all_split(%x: tensor<4x6xf32>) -> tensor<16x1xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op operand #0 dimension 1 (6) is not divisible by split_count = 4}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x6xf32>) -> tensor<16x1xf32>
  return %0 : tensor<16x1xf32>
}
// -----
func.func @all_to_all_shape(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op result #0 shape [4, 8] does not match the expected shape [16, 2] (dimension 0)}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @all_to_all_count(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op attribute 'split_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 0 : i64, split_dimension = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @reduce_scatter_dim(%x: tensor<8xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.reduce_scatter' op scatter_dimension = 1 is out of range for operand rank 1}}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @collective_permute_pairs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs must have 2 columns, got 3}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @collective_permute_type(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.collective_permute' op result type 'tensor<2xi32>' must match operand type 'tensor<2xf32>'}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
// -----
func.func @collective_broadcast_type(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op result #0 type 'tensor<3xf32>' must have the shape of operand #0 type 'tensor<2xf32>'}}
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @replica_id_type() -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.replica_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<i32>'}}
  %0 = stablehlo.replica_id : tensor<i32>
  return %0 : tensor<i32>
}
// -----
func.func @channel_handle_fields(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected ','}}
  %0 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @async_done_type(%x: tensor<8x2xf32>) -> tensor<8x2xf32> {
  %0 = "stablehlo.async_start"(%x) ({
  ^bb0(%a: tensor<8x2xf32>):
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<8x2xf32>) -> tensor<8x2xf32>
    stablehlo.return %1 : tensor<8x2xf32>
  }) : (tensor<8x2xf32>) -> !stablehlo.future<tensor<8x2xf32>>
  // expected-error @+1 {{'stablehlo.async_done' op result types must be the types of the future '!stablehlo.future<tensor<8x2xf32>>'}}
  %1 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<8x2xf32>>) -> tensor<8x8xf32>
  return %x : tensor<8x2xf32>
}
