// RUN: %floors-opt %s --pass-pipeline='builtin.module(builtin.module(floors-linalg-distribute-workgroups))' | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(builtin.module(floors-linalg-distribute-workgroups,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},floors-cpu-emit-kernel-abi))' | FileCheck %s --check-prefix=ABI


// A kernel given a grid whose output is no longer one linalg op's result
// (here elementwise fusion folded it to a copy): it is not split, and
// workgroup 0 runs all of it (marked floors.workgroup_zero_only; the ABI
// entry lets the other workgroups return at once).
// CHECK-LABEL: module @unsplittable
// CHECK:       func.func @fusion_0({{.*}}) attributes {{{.*}}floors.grid = 2 : i64{{.*}}floors.workgroup_zero_only
// CHECK-NOT:     scf.forall
// CHECK:         bufferization.materialize_in_destination
// ABI:         func.func @fusion_0_kernel(
// ABI:           %[[WGP:.*]] = llvm.getelementptr %{{.*}}[0, 1, 0]
// ABI:           %[[WG:.*]] = llvm.load %[[WGP]] : !llvm.ptr -> i64
// ABI:           %[[Z:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : i64
// ABI:           cf.cond_br %[[Z]], ^[[GO:.*]], ^[[IDLE:.*]]
// ABI:         ^[[IDLE]]:
// ABI-NEXT:      return %{{.*}} : !llvm.ptr
// ABI:           call @fusion_0(%{{.*}}, %{{.*}}) : (memref<8xf32>, memref<8xf32>) -> ()
module @unsplittable {
  module @floors_kernels {
    func.func @fusion_0(%x: tensor<8xf32> {bufferization.writable = false}, %o: memref<8xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.grid = 2 : i64} {
      bufferization.materialize_in_destination %x in restrict writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
      return
    }
  }
}
