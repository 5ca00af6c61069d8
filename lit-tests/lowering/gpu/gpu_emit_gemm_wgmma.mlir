// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90a},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,floors-gpu-emit-gemm))' | FileCheck %s
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90a},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(floors-gpu-kernels-to-gpu))' | FileCheck %s --check-prefix=FULL

// sm_90a: a bf16 dot takes the warpgroup kernel. One warpgroup (128
// threads) per 64x64 tile, A and B slices staged into the no-swizzle
// core-matrix layout (1-D workgroup buffers of 64x32 elements), the
// generic-proxy stores fenced for the async proxy, then per k16 step two
// shared-memory descriptors and one wgmma.mma_async accumulating into the
// 32-f32 struct the K loop carries; commit, wait 0, barrier. The f32
// accumulators go through the fused truncation epilogue to the bf16 result.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(wgmma m64n64k16 bf16, 64x64x32, 1 warpgroup, fused epilogue)"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c3{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c3{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}}) module(@fusion_0_gpu) function(@fusion_0_gemm0) workgroup(%[[AS:.*]] : memref<2048xbf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<2048xbf16, #gpu.address_space<workgroup>>)
// CHECK: llvm.mlir.poison : !llvm.struct<(f32,
// CHECK: scf.for {{.*}} to %c48{{.*}} step %c32{{.*}} iter_args({{.*}}) -> (!llvm.struct<(f32,
// CHECK: memref.store %{{.*}}, %[[AS]][
// CHECK: memref.store %{{.*}}, %[[BS]][
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK: memref.extract_aligned_pointer_as_index %[[AS]]
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.extractvalue
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %{{.*}} : memref<3x40x130xbf16>
// FULL: floors.gpu_codegen = "gemm(wgmma m64n64k16 bf16, 64x64x32, 1 warpgroup, fused epilogue)"
// FULL: gpu.func @fusion_0_gemm0({{.*}}) workgroup(%{{.*}} : memref<2048xbf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}, %{{.*}} : memref<2048xbf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}) kernel
func.func @batched(%a: tensor<3x40x48xbf16>, %b: tensor<3x48x130xbf16>) -> tensor<3x40x130xbf16> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x40x48xbf16>, tensor<3x48x130xbf16>) -> tensor<3x40x130xbf16>
  return %0 : tensor<3x40x130xbf16>
}

// -----

// f32 operands keep the SIMT kernel on sm_90a (no TF32).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK-NOT: nvvm.wgmma
// CHECK: math.fma
func.func @f32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
