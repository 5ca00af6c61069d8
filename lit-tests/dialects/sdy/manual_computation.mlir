// RUN: %floors-opt %s | %floors-opt | FileCheck %s

// What JAX 0.10.2 prints for a shard_map round-trips: operands, in/out
// shardings (kept as written), manual axes, the body's local block
// arguments, sdy.return and the global function type.
// CHECK:      %[[R:.*]]:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x4xf32>, %arg3: tensor<2x4xf32>) {
// CHECK:        %[[S:.*]] = stablehlo.add %arg2, %arg3 : tensor<2x4xf32>
// CHECK:        sdy.return %{{.*}}, %[[S]] : tensor<1x4xf32>, tensor<2x4xf32>
// CHECK-NEXT: } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>)
// CHECK:      sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={} (%arg2: tensor<8x4xf32>) {
// CHECK:      } : (tensor<8x4xf32>) -> tensor<8x4xf32>
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<1x4xf32>, tensor<8x4xf32>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg2: tensor<2x4xf32>, %arg3: tensor<2x4xf32>) {
      %1 = stablehlo.add %arg2, %arg3 : tensor<2x4xf32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
      %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
      sdy.return %3, %1 : tensor<1x4xf32>, tensor<2x4xf32>
    } : (tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<8x4xf32>)
    %4 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={} (%arg2: tensor<8x4xf32>) {
      sdy.return %arg2 : tensor<8x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0#0, %0#1 : tensor<1x4xf32>, tensor<8x4xf32>
  }
}
