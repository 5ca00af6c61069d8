// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-linalg-outline-kernels,builtin.module(floors-cpu-kernels-to-llvm))' -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=LLVM

// Every floors.fusion (walk order, also inside scf.while) becomes a kernel
// @fusion_N in the nested module @floors_kernels: inputs as read-only tensors,
// outputs as memrefs written with materialize_in_destination; the fusion op
// keeps its body and gets floors.kernel = "fusion_N".

// CHECK-LABEL: module @outline
// CHECK:       func.func @main(%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK:         floors.fusion loop (%{{.*}} = %[[A]] : tensor<4xf32>, %{{.*}} = %[[B]] : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {floors.kernel = "fusion_0"}
// CHECK:         scf.while
// CHECK:           floors.fusion loop {{.*}} attributes {floors.in_place = array<i64: 0, 0>, floors.kernel = "fusion_1"}
// CHECK:         floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_2"}
// CHECK:       module @floors_kernels attributes {floors.kernels = ["fusion_0", "fusion_1", "fusion_2"]}
// CHECK:         func.func @fusion_0(%[[X:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[O0:.*]]: memref<4xf32>, %[[O1:.*]]: memref<4xf32>)
// CHECK-SAME:      attributes {floors.kernel, floors.kind = #floors.kind<loop>, floors.num_inputs = 2 : i64}
// CHECK:           %[[S:.*]] = linalg.map { arith.addf } ins(%[[X]], %[[Y]]
// CHECK:           bufferization.materialize_in_destination %[[S]] in restrict writable %[[O0]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK:           bufferization.materialize_in_destination %[[X]] in restrict writable %[[O1]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      return
// CHECK:         func.func @fusion_1(%{{.*}}: tensor<i32> {bufferization.writable = false}, %{{.*}}: memref<i32>)
// CHECK:         func.func @fusion_2(%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{.*}}: memref<2x2xf32>)
// CHECK-SAME:      floors.num_inputs = 1

// After bufferization the sum is computed straight into the output buffer
// (no copy), the pass-through output is one copy, and every kernel is
// inlined into its ABI entry point.
// LLVM-LABEL: module @outline
// LLVM:       module @floors_kernels
// LLVM-NOT:     llvm.func @fusion_0(
// LLVM:         llvm.func @fusion_0_kernel(%{{.*}}: !llvm.ptr) -> !llvm.ptr
// LLVM-NOT:     llvm.func
// LLVM-NOT:     @_mlir_memref_to_llvm_alloc
// LLVM:         llvm.fadd
// LLVM-NOT:     llvm.func
// LLVM:         "llvm.intr.memcpy"
// LLVM:         llvm.func @fusion_1_kernel(
// LLVM:         llvm.func @fusion_2_kernel(
module @outline {
  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<2x2xf32>) {
    %0:2 = floors.fusion loop (%x = %a : tensor<4xf32>, %y = %b : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %s = linalg.map { arith.addf } ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
      floors.yield %s, %x : tensor<4xf32>, tensor<4xf32>
    }
    %c0 = arith.constant dense<0> : tensor<i32>
    %w:2 = scf.while (%i = %c0, %v = %0#0) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {
      %iv = tensor.extract %i[] : tensor<i32>
      %c3 = arith.constant 3 : i32
      %lt = arith.cmpi slt, %iv, %c3 : i32
      scf.condition(%lt) %i, %v : tensor<i32>, tensor<4xf32>
    } do {
    ^bb0(%i: tensor<i32>, %v: tensor<4xf32>):
      %n = floors.fusion loop (%ii = %i : tensor<i32>) -> tensor<i32> {
        %e = tensor.empty() : tensor<i32>
        %one = arith.constant 1 : i32
        %r = linalg.map ins(%ii : tensor<i32>) outs(%e : tensor<i32>) (%in: i32, %out: i32) {
          %s = arith.addi %in, %one : i32
          linalg.yield %s : i32
        }
        floors.yield %r : tensor<i32>
      }
      scf.yield %n, %v : tensor<i32>, tensor<4xf32>
    }
    %r = floors.fusion loop (%x = %w#1 : tensor<4xf32>) -> tensor<2x2xf32> {
      %s = tensor.expand_shape %x [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
      floors.yield %s : tensor<2x2xf32>
    }
    return %0#1, %r : tensor<4xf32>, tensor<2x2xf32>
  }
}

// -----

// expected-error @below {{floors-linalg-outline-kernels: the module already has a kernel module @floors_kernels}}
module @twice {
  module @floors_kernels {
  }
}

// -----

// Computation outside every fusion (here an unfused sort's loops) would be
// left uncompiled: an error, not a silent gap.
module @unfused {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @below {{floors-linalg-outline-kernels: 'scf.for' in the host program is outside every fusion; only fusions become kernels}}
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> (tensor<4xf32>) {
      scf.yield %t : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}
