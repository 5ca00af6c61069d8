// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_80},floors-fuse,floors-gpu-select-emitter,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(floors-gpu-kernels-to-gpu))' | FileCheck %s

// The manifest: per fusion its launches in order (module, entry, grid,
// block, buffer order) and its temporaries; all launches of a fusion in one
// gpu.module (one PTX), NVVM targets on the gpu.modules.
// CHECK: module @floors_kernels attributes {floors.gpu_kernels = [#floors.gpu_kernel<fusion = "fusion_0", temps = [128], launches = [#floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_k0", grid = [1, 1, 1], block = [32, 1, 1], args = [#floors.launch_arg<"tmp", 0>]>, #floors.gpu_launch<{{.*}}entry = "fusion_0_k1"{{.*}}args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"tmp", 0>]>, #floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_k2", grid = [4, 1, 1], block = [256, 1, 1], args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"tmp", 0>, #floors.launch_arg<"out", 0>]>]>]
// CHECK: gpu.launch_func @fusion_0_gpu::@fusion_0_k0
// CHECK: gpu.module @fusion_0_gpu [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
func.func @center(%a: tensor<32x128xf32>) -> tensor<32x128xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<32x128xf32>, tensor<f32>) -> tensor<32xf32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<32xf32>) -> tensor<32x128xf32>
  %d = stablehlo.subtract %a, %b : tensor<32x128xf32>
  return %d : tensor<32x128xf32>
}
