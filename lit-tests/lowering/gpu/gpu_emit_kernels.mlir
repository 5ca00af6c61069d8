// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,func.func(convert-linalg-to-parallel-loops),canonicalize,floors-gpu-emit-kernels))' | FileCheck %s

// Grid-stride: one launch per loop nest, 256 threads, a linear index over
// the 64x64 points stepping by grid × block; exp as a polynomial (no math.exp left).
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "grid-stride"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}})
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4096 step %c4096
// CHECK-NOT: math.exp
// CHECK: gpu.terminator
func.func @elementwise(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.exponential %a : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Serial code (the clamped dynamic start index, read from memory) → one
// block: the copies spread over the block's threads (side effects of serial
// ops would run on thread 0), a barrier after each step.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "single-block"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}})
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: gpu.barrier
func.func @dynamic_update(%a: tensor<16xf32>, %u: tensor<4xf32>, %i: tensor<i32>) -> tensor<16xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<16xf32>, tensor<4xf32>, tensor<i32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
