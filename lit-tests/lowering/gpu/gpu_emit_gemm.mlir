// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,floors-gpu-emit-gemm))' | FileCheck %s
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(floors-gpu-kernels-to-gpu))' | FileCheck %s --check-prefix=FULL

// A 64x64x64 matmul (the tile divides every dimension: no bounds checks):
// one launch of one 64x64 block, 256 threads, A (transposed, rows padded to
// 66) and B slices in workgroup memory, the K-slice loop carrying the 16
// accumulators, a barrier after staging and after computing; the fill is
// folded into the accumulators' initial value (no launch of its own).
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK-NOT: linalg.fill
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
// The full pipeline: one launch, the GEMM's.
// FULL-LABEL: module @floors_kernels
// FULL-NOT: entry = "fusion_0_k0"
// FULL: entry = "fusion_0_gemm0", grid = [1, 1, 1]
// FULL: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// FULL: gpu.func @fusion_0_gemm0({{.*}}) workgroup({{.*}}memref<16x66xf32, #gpu.address_space<workgroup>>{{.*}}memref<16x64xf32, #gpu.address_space<workgroup>>)
func.func @square(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// M = N = 17, K = 1000 (no dimension divides its tile): a 1x1 grid,
// ceil(1000/16) = 63 K slices (the accumulators start from the folded
// fill's 0); out-of-range A/B elements are read at
// clamped indices (minui with 16 / 999) and replaced by 0; out-of-range C
// elements are not stored (scf.if).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}, {{.*}} = %c1{{.*}}) threads
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c1000{{.*}} step %c16{{.*}} iter_args
// CHECK: arith.cmpi ult, %{{.*}}, %c1000
// CHECK: arith.minui %{{.*}}, %c999
// CHECK: arith.cmpi ult, %{{.*}}, %c17
// CHECK: arith.minui %{{.*}}, %c16
// CHECK: arith.select
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
// CHECK: floors.gpu_codegen = "gemm fallback (the dot was lowered to linalg.generic (non-canonical dimension numbers), not linalg.matmul/batch_matmul or a matmul-shaped contraction)"
// FULL-LABEL: module @floors_kernels
// FULL: floors.gpu_codegen = "gemm fallback (linalg.matmul on i32 (the tiled kernel takes f32, f16, bf16)) + loop(grid-stride, 4 per thread, v4); loop(grid-stride) [reduction emitter not applicable: a load of memref<8x8xi32> is not contiguous along the dimension threads stride over] [scalar: 'scf.for' in the body accesses memory]"
func.func @fallbacks(%a: tensor<8x8xi32>, %b: tensor<8x8xi32>, %c: tensor<64x32xf32>, %d: tensor<64x16xf32>) -> (tensor<8x8xi32>, tensor<32x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi32>
  %1 = stablehlo.dot_general %c, %d, contracting_dims = [0] x [0] : (tensor<64x32xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  return %0, %1 : tensor<8x8xi32>, tensor<32x16xf32>
}

// -----

// f16 operands (JAX's f16 dot accumulates in f32): the shared lowering gives
// a contraction linalg.generic (extf, mulf, addf), not linalg.matmul; on
// sm_90 it takes the tensor-core kernel: 128 threads, A and B slices in f16
// (rows padded to 40 and 72), ldmatrix fragments, nvgpu.mma.sync m16n8k16
// carrying 8 vector<2x2xf32> accumulators; the result's truncation to f16
// is the fused epilogue (one launch, no f32 temporary).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(mma.sync m16n8k16 f16, 64x64x32, 4 warps, fused epilogue)"
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2{{.*}}, {{.*}} = %c2{{.*}}, {{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %c128{{.*}}, {{.*}}) module(@fusion_0_gpu) function(@fusion_0_gemm0) workgroup(%[[AS:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} to %c200{{.*}} step %c32{{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// CHECK: gpu.barrier
// CHECK: nvgpu.ldmatrix %[[AS]]{{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK: nvgpu.ldmatrix %[[BS]]{{.*}} {numTiles = 2 : i32, transpose = true}
// CHECK-COUNT-8: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: memref.store %{{.*}} : memref<96x72xf16>
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return
// FULL: temps = [], launches = [#floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_gemm0", grid = [2, 2, 1], block = [128, 1, 1], args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"in", 1>, #floors.launch_arg<"out", 0>]>]
// FULL: gpu.func @fusion_0_gemm0({{.*}}) workgroup(%{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel
func.func @f16(%a: tensor<96x200xf16>, %b: tensor<200x72xf16>) -> tensor<96x72xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<96x200xf16>, tensor<200x72xf16>) -> tensor<96x72xf16>
  return %0 : tensor<96x72xf16>
}

// -----

// bf16 operands with an f32 result and a bias + relu epilogue: nvvm.mma.sync
// on the packed registers (nvgpu.mma.sync has no bf16 lowering in MLIR 22),
// the bias read at the accumulator's column, relu, stored to the output.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(mma.sync m16n8k16 bf16, 64x64x32, 4 warps, fused epilogue)"
// CHECK: gpu.launch
// CHECK: nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK: vector.extract
// CHECK: memref.load %{{.*}} : memref<128xf32>
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}} : memref<128x128xf32>
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @bias_relu(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>, %c: tensor<128xf32>) -> tensor<128x128xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<128x64xbf16>, tensor<64x128xbf16>) -> tensor<128x128xf32>
  %1 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<128xf32>) -> tensor<128x128xf32>
  %2 = stablehlo.add %0, %1 : tensor<128x128xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
  %4 = stablehlo.maximum %2, %3 : tensor<128x128xf32>
  return %4 : tensor<128x128xf32>
}

// -----

// Epilogue fallback: the product is also a result of the fusion (C is an
// output, not a temporary), so the relu stays a launch of its own after
// the GEMM's.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "gemm(mma.sync m16n8k16 f16, 64x64x32, 4 warps)"
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK: gpu.terminator
// CHECK: linalg.generic
// FULL: floors.gpu_codegen = "gemm(mma.sync m16n8k16 f16, 64x64x32, 4 warps) + loop(grid-stride, 4 per thread, v4)"
func.func @two_results(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
  %2 = stablehlo.maximum %0, %1 : tensor<64x64xf32>
  return %0, %2 : tensor<64x64xf32>, tensor<64x64xf32>
}
