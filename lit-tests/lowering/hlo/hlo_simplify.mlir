// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-simplify,canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func @broadcast_chain
// CHECK-NEXT: %[[B:.*]] = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_chain(%arg0: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @broadcast_identity
// CHECK-NEXT: return %arg0
func.func @broadcast_identity(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A broadcast that transposes is not an identity.
// CHECK-LABEL: func.func @broadcast_transposing
// CHECK-NEXT: stablehlo.broadcast_in_dim %arg0, dims = [1, 0]
func.func @broadcast_transposing(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT: %[[R:.*]] = stablehlo.reshape %arg0 : (tensor<2x8xf32>) -> tensor<16xf32>
// CHECK-NEXT: return %[[R]], %arg0
func.func @reshapes(%arg0: tensor<2x8xf32>) -> (tensor<16xf32>, tensor<2x8xf32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<2x8xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<4x4xf32>) -> tensor<16xf32>
  %2 = stablehlo.reshape %arg0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1, %2 : tensor<16xf32>, tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @transposes
// CHECK-NEXT: %[[T:.*]] = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %arg0, %[[T]]
func.func @transposes(%arg0: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0, 2] : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0, 2] : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %2 = stablehlo.transpose %arg0, dims = [1, 2, 0] : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %3 = stablehlo.transpose %2, dims = [1, 2, 0] : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @converts
// CHECK-NEXT: %[[C:.*]] = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: return %arg0, %[[C]]
func.func @converts(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = stablehlo.convert %arg0 : tensor<4xf32>
  %1 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// Small constant expressions fold (JAX's attention scales by sqrt(64.0)).
// CHECK-LABEL: func.func @fold_small
// CHECK-DAG: %[[C:.*]] = stablehlo.constant dense<8.000000e+00> : tensor<f32>
// CHECK-DAG: %[[I:.*]] = stablehlo.constant dense<[5, 7]> : tensor<2xi32>
// CHECK-DAG: %[[N:.*]] = stablehlo.constant dense<0x7FC00000> : tensor<f32>
// CHECK-NOT: stablehlo.sqrt
// CHECK: return %[[C]], %[[I]], %[[N]]
func.func @fold_small() -> (tensor<f32>, tensor<2xi32>, tensor<f32>) {
  %cst = stablehlo.constant dense<6.400000e+01> : tensor<f32>
  %0 = stablehlo.sqrt %cst : tensor<f32>
  %c = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %c_0 = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %1 = stablehlo.add %c, %c_0 : tensor<2xi32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %2 = stablehlo.maximum %nan, %cst : tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<2xi32>, tensor<f32>
}

// Large constants, integer division and non-constant operands do not fold.
// CHECK-LABEL: func.func @no_fold
// CHECK: stablehlo.add
// CHECK: stablehlo.divide
// CHECK: stablehlo.multiply
func.func @no_fold(%arg0: tensor<f32>) -> (tensor<32xf32>, tensor<i32>, tensor<f32>) {
  %big = stablehlo.constant dense<1.000000e+00> : tensor<32xf32>
  %0 = stablehlo.add %big, %big : tensor<32xf32>
  %c = stablehlo.constant dense<7> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %1 = stablehlo.divide %c, %z : tensor<i32>
  %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %2 = stablehlo.multiply %arg0, %cst : tensor<f32>
  return %0, %1, %2 : tensor<32xf32>, tensor<i32>, tensor<f32>
}
