// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-drop-one-device-shardings)' -split-input-file | FileCheck %s

// A jit with NamedShardings over a one-device mesh and a sharding
// constraint, as JAX 0.10.2 prints it: the mesh, the constraint and every
// sdy attribute go; other attributes stay.
// CHECK-LABEL: module @jit_f
// CHECK-NOT:   sdy.
// CHECK:       func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"})
// CHECK:         %[[M:.*]] = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
// CHECK-NEXT:    %[[C:.*]] = stablehlo.custom_call @cb(%[[M]]) {mhlo.backend_config = {index = 0 : ui64}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[C]]
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=1]> {stablehlo.mesh = {axes = [{name = "x", size = 1 : i64}]}}
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> (tensor<8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"x"}]> : tensor<8xf32>
    %2 = stablehlo.custom_call @cb(%1) {mhlo.backend_config = {index = 0 : ui64}, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

// A mesh of two devices: everything stays (refused by name at fusion).
// CHECK-LABEL: module @jit_g
// CHECK:       sdy.mesh @mesh = <["x"=2]>
// CHECK:       sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>
// CHECK:       sdy.sharding_constraint
module @jit_g {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
