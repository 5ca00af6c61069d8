// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-eliminate-zero-sized,canonicalize)' | FileCheck %s

// Zero-element results become empty constants: no floor sees a kernel over
// zero elements (XLA's ZeroSizedHloElimination).
// CHECK-LABEL: func.func @empty_results
// CHECK-DAG: %[[A:.*]] = stablehlo.constant dense<> : tensor<0x0xf32>
// CHECK-DAG: %[[B:.*]] = stablehlo.constant dense<> : tensor<0x2x4xf32>
// CHECK-DAG: %[[V:.*]] = stablehlo.constant dense<> : tensor<0x2xf32>
// CHECK-DAG: %[[I:.*]] = stablehlo.constant dense<> : tensor<0x2xi32>
// CHECK-NOT: dot_general
// CHECK-NOT: chlo.top_k
// CHECK: return %[[A]], %[[B]], %[[V]], %[[I]]
func.func @empty_results(%a: tensor<0x0xf32>, %x: tensor<0x2x3xf32>, %y: tensor<0x3x4xf32>, %t: tensor<0x5xf32>) -> (tensor<0x0xf32>, tensor<0x2x4xf32>, tensor<0x2xf32>, tensor<0x2xi32>) {
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : (tensor<0x0xf32>, tensor<0x0xf32>) -> tensor<0x0xf32>
  %1 = stablehlo.dot_general %x, %y, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<0x2x3xf32>, tensor<0x3x4xf32>) -> tensor<0x2x4xf32>
  %v, %i = chlo.top_k(%t, k = 2) : tensor<0x5xf32> -> (tensor<0x2xf32>, tensor<0x2xi32>)
  return %0, %1, %v, %i : tensor<0x0xf32>, tensor<0x2x4xf32>, tensor<0x2xf32>, tensor<0x2xi32>
}

// -----

// A non-empty result over an empty operand is its init, padding or zero value.
// CHECK-LABEL: func.func @empty_operands
// CHECK-DAG: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: %[[Z:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = [] : (tensor<f32>) -> tensor<3x4xf32>
// CHECK-DAG: %[[R:.*]] = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<3xf32>
// CHECK-DAG: %[[P:.*]] = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
// CHECK: return %[[Z]], %[[R]], %[[P]], %arg3
func.func @empty_operands(%a: tensor<3x0xf32>, %b: tensor<0x4xf32>, %init: tensor<f32>, %u: tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x0xf32>, tensor<0x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1] : (tensor<3x0xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = stablehlo.pad %b, %init, low = [1, 0], high = [1, 1], interior = [0, 0] : (tensor<0x4xf32>, tensor<f32>) -> tensor<2x5xf32>
  %e = stablehlo.slice %u [0:0, 0:3] : (tensor<2x3xf32>) -> tensor<0x3xf32>
  %3 = stablehlo.concatenate %e, %u, dim = 0 : (tensor<0x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<3x4xf32>, tensor<3xf32>, tensor<2x5xf32>, tensor<2x3xf32>
}

// -----

// Effects and control flow stay, even over empty values.
// CHECK-LABEL: func.func @kept
// CHECK: stablehlo.custom_call @handler
// CHECK: stablehlo.while
func.func @kept(%a: tensor<0xf32>) -> (tensor<0xf32>, tensor<0xf32>) {
  %0 = stablehlo.custom_call @handler(%a) {has_side_effect = true} : (tensor<0xf32>) -> tensor<0xf32>
  %1 = stablehlo.while(%it = %a) : tensor<0xf32>
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      stablehlo.return %it : tensor<0xf32>
    }
  return %0, %1 : tensor<0xf32>, tensor<0xf32>
}

// -----

// A call without side effects (a LAPACK eig of an empty matrix): its empty
// results become empty constants, the status it also returns feeds only
// empty selects, so nothing uses the call and it is not made (XLA's DCE).
// A call with has_side_effect stays, even unused.
// CHECK-LABEL: func.func @empty_eig
// CHECK-NOT: lapack_sgeev_ffi
// CHECK: stablehlo.custom_call @effect
// CHECK-NOT: lapack_sgeev_ffi
func.func @empty_eig(%a: tensor<0x0xf32>) -> (tensor<0xf32>, tensor<0x0xf32>) {
  %0:3 = stablehlo.custom_call @lapack_sgeev_ffi(%a) : (tensor<0x0xf32>) -> (tensor<0xf32>, tensor<0x0xf32>, tensor<i32>)
  %c = stablehlo.constant dense<0> : tensor<i32>
  %ok = stablehlo.compare EQ, %0#2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %m = stablehlo.broadcast_in_dim %ok, dims = [] : (tensor<i1>) -> tensor<0xi1>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<0xf32>
  %w = stablehlo.select %m, %0#0, %nan : tensor<0xi1>, tensor<0xf32>
  %1 = stablehlo.custom_call @effect(%a) {has_side_effect = true} : (tensor<0x0xf32>) -> tensor<i32>
  return %w, %0#1 : tensor<0xf32>, tensor<0x0xf32>
}
