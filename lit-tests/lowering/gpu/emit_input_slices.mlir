// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,func.func(convert-linalg-to-parallel-loops),canonicalize,floors-gpu-emit-kernels,canonicalize,cse))' | FileCheck %s

// floors-fuse does not form input_slices fusions from plain StableHLO (no
// sibling fusion yet), so these fusions are written out.

// XLA's InputSlicesFusion: one launch over the sliced value's shape (8x16,
// 128 threads); each thread computes the add once and stores it into every
// slice containing its point: [0:8, 0:4] (column < 4), [2:6, 4:16:2] (rows
// 2..5, columns 4..14 with (column - 4) % 2 == 0, at ((row - 2), (column -
// 4) / 2)). The full 8x16 value is never written (its temporary goes).
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "input-slices(2 slices of 8x16)"
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}})
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c128 step %c128 {
// CHECK: %[[COL:.*]] = arith.remui %[[I]], %c16
// CHECK: %[[ROW:.*]] = arith.divui %[[I]], %c16
// CHECK: %[[V:.*]] = arith.addf
// CHECK: %[[IN0:.*]] = arith.cmpi ult, %[[COL]], %c4
// CHECK: scf.if %[[IN0]] {
// CHECK: memref.store %[[V]], %arg2[%[[ROW]], %[[COL]]]
// CHECK: arith.cmpi uge, %[[ROW]], %c2
// CHECK: arith.cmpi ult, %[[ROW]], %c6
// CHECK: %[[R:.*]] = arith.subi %[[ROW]], %c2
// CHECK: arith.cmpi uge, %[[COL]], %c4
// CHECK: arith.cmpi ult, %[[COL]], %c15
// CHECK: %[[C:.*]] = arith.subi %[[COL]], %c4
// CHECK: %[[M:.*]] = arith.remui %[[C]], %c2
// CHECK: arith.cmpi eq, %[[M]], %c0
// CHECK: %[[CI:.*]] = arith.divui %[[C]], %c2
// CHECK: scf.if
// CHECK: memref.store %[[V]], %arg3[%[[R]], %[[CI]]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @slices(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
  %0:2 = floors.fusion input_slices (%x = %a : tensor<8x16xf32>, %y = %b : tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
    %e = stablehlo.add %x, %y : tensor<8x16xf32>
    %s0 = stablehlo.slice %e [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
    %s1 = stablehlo.slice %e [2:6, 4:16:2] : (tensor<8x16xf32>) -> tensor<4x6xf32>
    floors.yield %s0, %s1 : tensor<8x4xf32>, tensor<4x6xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x6xf32>
}

// -----

// Slices of an input: each element is loaded once and stored into the
// slice that holds it (the halves of a 16-vector).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "input-slices(2 slices of 16)"
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c16 step %c32 {
// CHECK: %[[V:.*]] = memref.load %arg0[%[[I]]]
// CHECK: %[[LO:.*]] = arith.cmpi ult, %[[I]], %c8
// CHECK: scf.if %[[LO]] {
// CHECK: memref.store %[[V]], %arg1[%[[I]]]
// CHECK: %[[HI:.*]] = arith.cmpi uge, %[[I]], %c8
// CHECK: %[[J:.*]] = arith.subi %[[I]], %c8
// CHECK: scf.if %[[HI]] {
// CHECK: memref.store %[[V]], %arg2[%[[J]]]
// CHECK-NOT: gpu.launch
func.func @halves(%a: tensor<16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = floors.fusion input_slices (%x = %a : tensor<16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %s0 = stablehlo.slice %x [0:8] : (tensor<16xf32>) -> tensor<8xf32>
    %s1 = stablehlo.slice %x [8:16] : (tensor<16xf32>) -> tensor<8xf32>
    floors.yield %s0, %s1 : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Fallback: the sliced value is a reduction's accumulator (its nest reads
// what it writes), not one elementwise value per point; the reduction
// emitter takes its nest, the slices stay copies, and the generic launches
// say why.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4) [input-slices emitter not applicable: the nest writing the sliced buffer reads it too]; row-reduction(warp); loop(grid-stride, 4 per thread, v4) [input-slices
// CHECK-COUNT-4: gpu.launch
func.func @reduced(%a: tensor<8x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = floors.fusion input_slices (%x = %a : tensor<8x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %s0 = stablehlo.slice %r [0:4] : (tensor<8xf32>) -> tensor<4xf32>
    %s1 = stablehlo.slice %r [4:8] : (tensor<8xf32>) -> tensor<4xf32>
    floors.yield %s0, %s1 : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
