// RUN: %floors-opt %s | %floors-opt | FileCheck %s

// What JAX 0.10.2 prints with shardings round-trips: meshes (axes, device
// ids), shardings on arguments, results and ops (open dimensions,
// sub-axes, priorities, replicated axes), sharding constraints.
// CHECK: sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
// CHECK: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK: func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(1)2, ?}p1], replicated={"z"}>})
// CHECK-SAME: -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
// CHECK: sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> {keep = 1 : i32} : tensor<8x4xf32>
// CHECK: stablehlo.custom_call @cb(%0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
module {
  sdy.mesh @mesh = <["x"=2, "y"=4]> {stablehlo.mesh = {axes = [{name = "x", size = 2 : i64}]}}
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func public @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(1)2, ?}p1], replicated={"z"}>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> {keep = 1 : i32} : tensor<8x4xf32>
    %1 = stablehlo.custom_call @cb(%0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %1 : tensor<8x4xf32>
  }
}
