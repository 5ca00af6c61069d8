// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(floors-hlo-legalize-chlo))' | FileCheck %s

// top_k is the one chlo op floors-hlo-legalize-chlo keeps (XLA's kTopK): a
// kernel of its own selects the k best with a heap, O(n log k)
// (floors-linalg-lower-stablehlo); expanding it into a sort of the whole row
// would cost O(n log n). The pass only checks its operand.
// CHECK-LABEL: func.func @top_k
// CHECK: %{{.*}}, %{{.*}} = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
// CHECK-NOT: stablehlo.sort
func.func @top_k(%x: tensor<8x16xf32>) -> (tensor<8x3xf32>, tensor<8x3xi32>) {
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
  return %values, %indices : tensor<8x3xf32>, tensor<8x3xi32>
}

// -----

// Beside other chlo ops, which are expanded.
// CHECK-LABEL: func.func @top_k_u8
// CHECK: chlo.top_k(%{{.*}}, k = 2) : tensor<5xui8> -> (tensor<2xui8>, tensor<2xi32>)
// CHECK-NOT: chlo.square
func.func @top_k_u8(%x: tensor<5xui8>) -> (tensor<2xui8>, tensor<2xi32>) {
  %sq = chlo.square %x : tensor<5xui8> -> tensor<5xui8>
  %values, %indices = chlo.top_k(%sq, k = 2) : tensor<5xui8> -> (tensor<2xui8>, tensor<2xi32>)
  return %values, %indices : tensor<2xui8>, tensor<2xi32>
}
