// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,func.func(convert-linalg-to-parallel-loops),canonicalize,floors-gpu-emit-kernels,canonicalize,cse))' | FileCheck %s

// XLA's ConcatenateFusion: one launch over the largest operand (4x16, 64
// threads), not the 4x32 output. Each thread writes the operands whose
// extent covers its point: the 4x8 ones behind a bound check on the
// concatenation dimension (column < 8), each into its own subview of the
// output (offsets 0, 8, 24); the exp producer of the middle operand is
// computed in place (its polynomial), no select over the operands.
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "concatenate(largest operand 4x16, 3 operands)"
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c64, {{.*}})
// CHECK-DAG: %[[V24:.*]] = memref.subview %arg3[0, 24] [4, 8] [1, 1]
// CHECK-DAG: %[[V8:.*]] = memref.subview %arg3[0, 8] [4, 16] [1, 1]
// CHECK-DAG: %[[V0:.*]] = memref.subview %arg3[0, 0] [4, 8] [1, 1]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c64 step %c64 {
// CHECK: %[[COL:.*]] = arith.remui %[[I]], %c16
// CHECK: %[[ROW:.*]] = arith.divui %[[I]], %c16
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COL]], %c8
// CHECK: scf.if %[[IN]] {
// CHECK: memref.load %arg1[%[[ROW]], %[[COL]]]
// CHECK: memref.store %{{.*}}, %[[V0]][%[[ROW]], %[[COL]]]
// CHECK: }
// CHECK: memref.load %arg0[%[[ROW]], %[[COL]]]
// CHECK-NOT: arith.select %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[V8]][%[[ROW]], %[[COL]]]
// CHECK: scf.if %[[IN]] {
// CHECK: memref.load %arg2[%[[ROW]], %[[COL]]]
// CHECK: memref.store %{{.*}}, %[[V24]][%[[ROW]], %[[COL]]]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @concat_minor(%a: tensor<4x8xf32>, %b: tensor<4x16xf32>, %c: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %e = stablehlo.exponential %b : tensor<4x16xf32>
  %0 = stablehlo.concatenate %a, %e, %c, dim = 1 : (tensor<4x8xf32>, tensor<4x16xf32>, tensor<4x8xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// Four operands along dimension 0 (largest 4x8, 32 threads): the first one
// (a negate) bufferizes into a temporary copied out; the emitter stores it
// straight into the output and the temporary goes. The broadcast operand
// (1x8, its unit loop dropped by canonicalization) is written by row 0
// only, the reversed 3x8 one by rows < 3, the plain copy by every thread.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "concatenate(largest operand 4x8, 4 operands)"
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}})
// CHECK-DAG: %[[V8:.*]] = memref.subview %arg3[8, 0] [4, 8] [1, 1]
// CHECK-DAG: %[[V5:.*]] = memref.subview %arg3[5, 0] [3, 8] [1, 1]
// CHECK-DAG: %[[V4:.*]] = memref.subview %arg3[4, 0] [1, 8] [1, 1]
// CHECK-DAG: %[[V0:.*]] = memref.subview %arg3[0, 0] [4, 8] [1, 1]
// CHECK: scf.for
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c8
// CHECK: arith.negf
// CHECK: memref.store %{{.*}}, %[[V0]][%[[ROW]], %[[COL]]]
// CHECK: %[[R1:.*]] = arith.cmpi ult, %[[ROW]], %c1
// CHECK: scf.if %[[R1]] {
// CHECK: memref.load %arg0[%[[COL]]]
// CHECK: memref.store %{{.*}}, %[[V4]][%c0, %[[COL]]]
// CHECK: %[[R3:.*]] = arith.cmpi ult, %[[ROW]], %c3
// CHECK: scf.if %[[R3]] {
// CHECK: memref.store %{{.*}}, %[[V5]][%[[ROW]], %[[COL]]]
// CHECK: memref.load %arg2[%[[ROW]], %[[COL]]]
// CHECK: memref.store %{{.*}}, %[[V8]][%[[ROW]], %[[COL]]]
// CHECK-NOT: gpu.launch
func.func @concat_major(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<3x8xf32>) -> tensor<12x8xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
  %cr = stablehlo.reverse %c, dims = [0] : tensor<3x8xf32>
  %n = stablehlo.negate %a : tensor<4x8xf32>
  %0 = stablehlo.concatenate %n, %bb, %cr, %a, dim = 0 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<3x8xf32>, tensor<4x8xf32>) -> tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// -----

// Fallback: a padded operand is written by two ops (its fill, then the
// copy into a subview of its subview), so the operands are not one op per
// subview of the output; the generic launches say why.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4) [concatenate emitter not applicable: the operands' subviews have different sources]; loop(grid-stride, 4 per thread, v4) [concatenate
// CHECK-COUNT-3: gpu.launch
func.func @concat_pad(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>) -> tensor<8x8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %b, %z, low = [1, 0], high = [1, 0], interior = [0, 0] : (tensor<2x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %0 = stablehlo.concatenate %a, %p, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
