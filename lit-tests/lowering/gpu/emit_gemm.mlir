// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,floors-gpu-emit-gemm))' | FileCheck %s
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(floors-gpu-kernels-to-gpu))' | FileCheck %s --check-prefix=FULL

// A 64x64x64 matmul (the tile divides every dimension: no bounds checks):
// one launch of one 64x64 block, 256 threads, A (transposed, rows padded to
// 66) and B slices in workgroup memory, the K-slice loop carrying the 16
// accumulators, a barrier after staging and after computing; the fill stays
// for floors-gpu-emit-kernels.
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK: linalg.fill
// CHECK-NOT: linalg.matmul
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c256{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) module(@fusion_0_gpu) function(@fusion_0_gemm0) workgroup(%[[AS:.*]] : memref<16x66xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: memref.store %{{.*}}, %[[AS]][
// CHECK: memref.store %{{.*}}, %[[BS]][
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK-COUNT-16: math.fma
// CHECK: scf.yield
// CHECK: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: memref.store
// CHECK: gpu.terminator
// The full pipeline: the fill's grid-stride launch, then the GEMM's.
// FULL-LABEL: module @floors_kernels
// FULL: entry = "fusion_0_k0"
// FULL-SAME: entry = "fusion_0_gemm0", grid = array<i64: 1, 1, 1>
// FULL: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread) + loop(grid-stride)"
// FULL: gpu.func @fusion_0_gemm0({{.*}}) workgroup({{.*}}memref<16x66xf32, #gpu.address_space<workgroup>>{{.*}}memref<16x64xf32, #gpu.address_space<workgroup>>)
func.func @square(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// M = N = 17, K = 1000 (no dimension divides its tile): a 1x1 grid,
// ceil(1000/16) = 63 K slices; out-of-range A/B elements are read at
// clamped indices (minui with 16 / 999) and replaced by 0; out-of-range C
// elements are not stored (scf.if).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads
// CHECK: arith.cmpi ult, %{{.*}}, %c17
// CHECK: arith.minui %{{.*}}, %c16
// CHECK: arith.select
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1000{{.*}} step %c16{{.*}} iter_args
// CHECK: arith.cmpi ult, %{{.*}}, %c1000
// CHECK: arith.minui %{{.*}}, %c999
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: memref.store
// CHECK: gpu.terminator
func.func @ragged(%a: tensor<17x1000xf32>, %b: tensor<1000x17xf32>) -> tensor<17x17xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<17x1000xf32>, tensor<1000x17xf32>) -> tensor<17x17xf32>
  return %0 : tensor<17x17xf32>
}

// -----

// A batched matmul: grid z is the batch (blockIdx.z indexes A, B and C).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in ({{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c4{{.*}})
// CHECK: memref.load %{{.*}}[%[[BZ]],
func.func @batched(%a: tensor<4x1x64xf32>, %b: tensor<4x64x100xf32>) -> tensor<4x1x100xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x1x64xf32>, tensor<4x64x100xf32>) -> tensor<4x1x100xf32>
  return %0 : tensor<4x1x100xf32>
}

// -----

// Fallbacks, each with its reason: an integer matmul, and a dot whose
// contracting dimension is not canonical (a contraction linalg.generic).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm fallback (linalg.matmul on i32 (the tiled kernel takes f32, f16, bf16))"
// CHECK: linalg.matmul
// CHECK-NOT: gpu.launch
// CHECK: floors.gpu_codegen = "gemm fallback (the dot was lowered to linalg.generic
// FULL-LABEL: module @floors_kernels
// FULL: floors.gpu_codegen = "gemm fallback (linalg.matmul on i32 (the tiled kernel takes f32, f16, bf16)) + loop(grid-stride); loop(grid-stride) [reduction emitter not applicable: a load of memref<8x8xi32> is not contiguous along the dimension threads stride over]"
func.func @fallbacks(%a: tensor<8x8xi32>, %b: tensor<8x8xi32>, %c: tensor<64x32xf32>, %d: tensor<64x16xf32>) -> (tensor<8x8xi32>, tensor<32x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [0] x [0] : (tensor<64x32xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  return %0, %1 : tensor<8x8xi32>, tensor<32x16xf32>
}
