// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-cleanup)' | FileCheck %s

// Computation bodies are isolated: canonicalize and CSE keep their constants
// inside instead of hoisting them into the function (JAX's NaN-aware sort).
// CHECK-LABEL: func.func @sort_body_constants
// CHECK: "stablehlo.sort"
// CHECK-NEXT: ^bb0
// CHECK: stablehlo.constant
// CHECK: stablehlo.return
func.func @sort_body_constants(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare EQ, %a, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %z, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare LT, %2, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %3 : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = stablehlo.add %0, %0 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}

// -----

// The whole cleanup on a JAX-style program: helper inlined, chlo expanded,
// broadcast chain folded, duplicate constants merged.
// CHECK-LABEL: module @cleanup
// CHECK: func.func public @main
// CHECK-NOT: call
// CHECK-NOT: chlo.
// CHECK: stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: func.func private
module @cleanup {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>) -> tensor<8x16xf32> {
    %0 = call @bias(%arg0, %arg1) : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
    %1 = chlo.square %0 : tensor<8x16xf32> -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @bias(%arg0: tensor<8x16xf32>, %arg1: tensor<16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %2 = stablehlo.add %arg0, %1 : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
