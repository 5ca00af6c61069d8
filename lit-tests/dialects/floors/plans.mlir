// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s

// The GPU floor's plan for a fusion (floors-gpu-select-emitter writes it):
// a typed attribute that prints and parses back.
// CHECK-LABEL: func.func @planned
// CHECK: floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "row reduction of 8 rows x 16", block = [32, 8, 1], grid = [1, 1, 1]>
func.func @planned(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<8x16xf32>) -> tensor<8x16xf32> attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "row reduction of 8 rows x 16", block = [32, 8, 1], grid = [1, 1, 1]>} {
    floors.yield %a : tensor<8x16xf32>
  }
  return %0 : tensor<8x16xf32>
}

// The TPU floor's plan (floors-tpu-select-blocks) and a library call
// (floors-gpu-rewrite-gemm) on fusions.
// CHECK-LABEL: func.func @tpu_and_library
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "matmul", grid = [2, 2, 1], block = [512, 512, 256]>
// CHECK: floors.library_call = #floors.library_call<call = "gemm", batch = 4, m = 8, n = 16, k = 32, transpose_lhs = false, transpose_rhs = true, lhs_batch_stride = 256, rhs_batch_stride = 0>
func.func @tpu_and_library(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = floors.fusion loop (%a = %arg0 : tensor<8x16xf32>) -> tensor<8x16xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "matmul", grid = [2, 2, 1], block = [512, 512, 256]>} {
    floors.yield %a : tensor<8x16xf32>
  }
  %1 = floors.fusion gemm (%a = %arg0 : tensor<8x16xf32>) -> tensor<8x16xf32> attributes {floors.library_call = #floors.library_call<call = "gemm", batch = 4, m = 8, n = 16, k = 32, transpose_lhs = false, transpose_rhs = true, lhs_batch_stride = 256, rhs_batch_stride = 0>} {
    floors.yield %a : tensor<8x16xf32>
  }
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// The GPU launch manifest on a kernel module (floors-gpu-record-kernels).
// CHECK-LABEL: module @kernels
// CHECK-SAME: floors.gpu_kernels = [#floors.gpu_kernel<fusion = "fusion_0", temps = [64], launches = [#floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_k0", grid = [4, 1, 1], block = [256, 1, 1], args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"tmp", 0>, #floors.launch_arg<"out", 0>]>]>]
module @kernels attributes {floors.gpu_kernels = [#floors.gpu_kernel<fusion = "fusion_0", temps = [64], launches = [#floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_k0", grid = [4, 1, 1], block = [256, 1, 1], args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"tmp", 0>, #floors.launch_arg<"out", 0>]>]>]} {
}
