// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' -split-input-file | FileCheck %s

// Identical fusions share one kernel (XLA:GPU's kernel reuse): the second
// and fourth fusions compute what the first does (locations and value names
// aside), so they call @fusion_0 and no copy of it is outlined; the third
// differs in a constant and the fifth in its kind attribute, so each keeps a
// kernel of its own. The manifest lists the kernels left.

// CHECK-LABEL: module @dedup
// CHECK: floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_0"}
// CHECK: floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_0"}
// CHECK: floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_2"}
// CHECK: floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_0"}
// CHECK: floors.fusion reduction {{.*}} attributes {floors.kernel = "fusion_4"}
// CHECK: module @floors_kernels attributes {floors.kernels = ["fusion_0", "fusion_2", "fusion_4"]}
// CHECK: func.func @fusion_0(
// CHECK-NOT: func.func @fusion_1(
// CHECK: func.func @fusion_2(
// CHECK-NOT: func.func @fusion_3(
// CHECK: func.func @fusion_4(
module @dedup {
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %a = floors.fusion loop (%p = %x : tensor<8xf32>) -> tensor<8xf32> {
      %c = arith.constant dense<2.0> : tensor<8xf32>
      %e = tensor.empty() : tensor<8xf32>
      %r = linalg.mul ins(%p, %c : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      floors.yield %r : tensor<8xf32>
    } loc("first")
    %b = floors.fusion loop (%q = %a : tensor<8xf32>) -> tensor<8xf32> {
      %k = arith.constant dense<2.0> : tensor<8xf32>
      %f = tensor.empty() : tensor<8xf32>
      %s = linalg.mul ins(%q, %k : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
      floors.yield %s : tensor<8xf32>
    } loc("second")
    %c = floors.fusion loop (%q = %b : tensor<8xf32>) -> tensor<8xf32> {
      %k = arith.constant dense<3.0> : tensor<8xf32>
      %f = tensor.empty() : tensor<8xf32>
      %s = linalg.mul ins(%q, %k : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
      floors.yield %s : tensor<8xf32>
    }
    %d = floors.fusion loop (%q = %c : tensor<8xf32>) -> tensor<8xf32> {
      %k = arith.constant dense<2.0> : tensor<8xf32>
      %f = tensor.empty() : tensor<8xf32>
      %s = linalg.mul ins(%q, %k : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
      floors.yield %s : tensor<8xf32>
    }
    %e = floors.fusion reduction (%q = %d : tensor<8xf32>) -> tensor<8xf32> {
      %k = arith.constant dense<2.0> : tensor<8xf32>
      %f = tensor.empty() : tensor<8xf32>
      %s = linalg.mul ins(%q, %k : tensor<8xf32>, tensor<8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
      floors.yield %s : tensor<8xf32>
    }
    return %e : tensor<8xf32>
  }
}
