// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},builtin.module(floors-gpu-emit-gemm))' | FileCheck %s

// On memrefs directly (what bufferization hands the pass): f16 operands
// on sm_90 take the tensor-core kernel (operands staged unconverted, f16
// workgroup tiles, nvgpu.mma.sync); bf16 ones call nvvm.mma.sync and a bf16
// result is truncated at the store; f16 x f32 operands (no common mma
// type) keep the SIMT kernel, staged as f32.
// CHECK-LABEL: func.func @fusion_0
// CHECK-SAME: floors.gpu_codegen = "gemm(mma.sync m16n8k16 f16, 64x64x32, 4 warps)"
// CHECK: gpu.launch
// CHECK-SAME: memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: memref.load %{{.*}} : memref<32x128xf16>
// CHECK-NOT: arith.extf
// CHECK: gpu.barrier
// CHECK: nvgpu.mma.sync
// CHECK-LABEL: func.func @fusion_1
// CHECK-SAME: floors.gpu_codegen = "gemm(mma.sync m16n8k16 bf16, 64x64x32, 4 warps)"
// CHECK: nvvm.mma.sync
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %{{.*}} : memref<8x8xbf16>
// CHECK-LABEL: func.func @fusion_2
// CHECK-SAME: floors.gpu_codegen = "gemm(simt 64x64x16, 4x4 per thread)"
// CHECK: arith.extf %{{.*}} : f16 to f32
module {
  module @floors_kernels {
    func.func @fusion_0(%a: memref<32x128xf16>, %b: memref<128x48xf16>, %c: memref<32x48xf32>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul ins(%a, %b : memref<32x128xf16>, memref<128x48xf16>) outs(%c : memref<32x48xf32>)
      return
    }
    func.func @fusion_1(%a: memref<8x8xbf16>, %b: memref<8x8xbf16>, %c: memref<8x8xbf16>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul ins(%a, %b : memref<8x8xbf16>, memref<8x8xbf16>) outs(%c : memref<8x8xbf16>)
      return
    }
    func.func @fusion_2(%a: memref<8x8xf16>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul ins(%a, %b : memref<8x8xf16>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
      return
    }
  }
}

// -----

// Transposed maps and dynamic shapes stay on the generic path, with the reason.
// CHECK-LABEL: func.func @fusion_0
// CHECK-SAME: floors.gpu_codegen = "gemm fallback (linalg.matmul with transposed or broadcast indexing maps
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @fusion_1
// CHECK-SAME: floors.gpu_codegen = "gemm fallback (linalg.matmul with dynamic shapes)"
// CHECK: linalg.matmul
module {
  module @floors_kernels {
    func.func @fusion_0(%a: memref<16x8xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<16x8xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
      return
    }
    func.func @fusion_1(%a: memref<?x8xf32>, %b: memref<8x4xf32>, %c: memref<?x4xf32>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul ins(%a, %b : memref<?x8xf32>, memref<8x4xf32>) outs(%c : memref<?x4xf32>)
      return
    }
  }
}

// -----

// A full reduction after the matmul becomes serial loops (single-block
// codegen, which would move the fill and the reduction after the GEMM's
// launch): the matmul stays on the generic path, with the reason.
// CHECK-LABEL: func.func @fusion_0
// CHECK-SAME: floors.gpu_codegen = "gemm fallback (the kernel holds serial code ('linalg.generic'): single-block codegen)"
// CHECK: linalg.matmul
module {
  module @floors_kernels {
    func.func @fusion_0(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %s: memref<f32>) attributes {floors.kernel, floors.kind = #floors.kind<gemm>, floors.num_inputs = 2 : i64} {
      linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%c : memref<8x8xf32>) outs(%s : memref<f32>) {
      ^bb0(%in: f32, %out: f32):
        %0 = arith.addf %in, %out : f32
        linalg.yield %0 : f32
      }
      return
    }
  }
}
