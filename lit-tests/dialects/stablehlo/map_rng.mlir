// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// The space pair in `distribution =  UNIFORM` is JAX's (the enum prints its own space):
// RUN: %floors-opt %s | FileCheck %s --check-prefix=EXACT --strict-whitespace
// map (generic form) and the legacy rng.

// CHECK-LABEL: func.func @map(%arg0: tensor<2x2xi64>, %arg1: tensor<2x2xi64>) -> tensor<2x2xi64> {
// CHECK-NEXT: %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> ({
// CHECK-NEXT: ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
// CHECK-NEXT: %1 = stablehlo.multiply %arg2, %arg3 : tensor<i64>
// CHECK-NEXT: stablehlo.return %1 : tensor<i64>
// CHECK-NEXT: }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
// CHECK-NEXT: return %0 : tensor<2x2xi64>
func.func @map(%arg0: tensor<2x2xi64>, %arg1: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%arg2: tensor<i64>, %arg3: tensor<i64>):
    %1 = stablehlo.multiply %arg2, %arg3 : tensor<i64>
    stablehlo.return %1 : tensor<i64>
  }) : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// EXACT-LABEL: func.func @rng(
// EXACT: stablehlo.rng %arg0, %arg1, %c, distribution =  UNIFORM :
// EXACT: stablehlo.rng %arg0, %arg1, %c, distribution =  NORMAL :
// CHECK-LABEL: func.func @rng(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
// CHECK-NEXT: %c = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
// CHECK-NEXT: %0 = stablehlo.rng %arg0, %arg1, %c, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
// CHECK-NEXT: %1 = stablehlo.rng %arg0, %arg1, %c, distribution =  NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
// CHECK-NEXT: return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
func.func @rng(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %c = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.rng %arg0, %arg1, %c, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %1 = stablehlo.rng %arg0, %arg1, %c, distribution =  NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<3x4xf32>
}

// CHECK-LABEL: func.func @rng_distribution() attributes {d = [#stablehlo<rng_distribution UNIFORM>, #stablehlo<rng_distribution NORMAL>]} {
// CHECK-NEXT: return
func.func @rng_distribution() attributes {d = [#stablehlo<rng_distribution UNIFORM>, #stablehlo<rng_distribution NORMAL>]} {
  return
}
