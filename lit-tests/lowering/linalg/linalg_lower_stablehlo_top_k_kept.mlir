// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-linalg-lower-stablehlo{keep-sorts=true})' | FileCheck %s

// With keep-sorts (the TPU floor), chlo.top_k inside a fusion is the first
// k of a stable descending sort left for the floor: the values with their
// positions (an iota over the last dim), GT in TOTALORDER for floats.
// CHECK-LABEL: func.func @top_k_f32
// CHECK: %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x50xi32>)
// CHECK: linalg.index 1 : index
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%{{.*}}, %[[IOTA]]) <{dimension = 1 : i64, is_stable = true}>
// CHECK: stablehlo.compare  GT, %{{.*}}, %{{.*}},  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: tensor.extract_slice %[[S]]#0[0, 0] [4, 3] [1, 1] : tensor<4x50xf32> to tensor<4x3xf32>
// CHECK: tensor.extract_slice %[[S]]#1[0, 0] [4, 3] [1, 1] : tensor<4x50xi32> to tensor<4x3xi32>
func.func @top_k_f32(%x: tensor<4x50xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<4x50xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return %v, %i : tensor<4x3xf32>, tensor<4x3xi32>
}

// -----

// Unsigned: sorted as signed keys with the sign bit flipped (the same
// order), flipped back after the slice.
// CHECK-LABEL: func.func @top_k_u8
// CHECK: %[[BIT:.*]] = arith.constant -128 : i8
// CHECK: %[[KEY:.*]] = linalg.generic
// CHECK: arith.xori %{{.*}}, %[[BIT]] : i8
// CHECK: %[[S:.*]]:2 = "stablehlo.sort"(%[[KEY]], %{{.*}})
// CHECK: stablehlo.compare  GT, %{{.*}}, %{{.*}},  SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
// CHECK: %[[V:.*]] = tensor.extract_slice %[[S]]#0[0, 0] [4, 3] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[V]] : tensor<4x3xi8>)
// CHECK: arith.xori
func.func @top_k_u8(%x: tensor<4x50xui8>) -> (tensor<4x3xui8>, tensor<4x3xi32>) {
  %v, %i = chlo.top_k(%x, k = 3) : tensor<4x50xui8> -> (tensor<4x3xui8>, tensor<4x3xi32>)
  return %v, %i : tensor<4x3xui8>, tensor<4x3xi32>
}
