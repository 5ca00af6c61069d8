// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-gpu-launch-to-loops)' | FileCheck %s

// A launch becomes loops over the block ids, then the thread ids (grid
// 2x1x1, block 4x1x1), its body inside with the ids and sizes replaced;
// floors.* attributes go.
// CHECK-LABEL: func.func @k
// CHECK-NOT: floors.
// CHECK: scf.for %[[BX:.*]] = %{{.*}} to %[[G:.*]] step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for %[[TX:.*]] = %{{.*}} to %[[B:.*]] step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[M:.*]] = arith.muli %[[BX]], %[[B]]
// CHECK: %[[I:.*]] = arith.addi %[[M]], %[[TX]]
// CHECK: memref.store %{{.*}}, %arg0[%[[I]]]
// CHECK-NOT: gpu.
func.func @k(%out: memref<8xf32>) attributes {floors.kernel} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %m = arith.muli %bx, %sx : index
    %i = arith.addi %m, %tx : index
    memref.store %v, %out[%i] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// Threads that wait for each other have no sequential version.
func.func @barrier(%out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.barrier' needs threads running together: no sequential host version}}
    gpu.barrier
    gpu.terminator
  }
  return
}
