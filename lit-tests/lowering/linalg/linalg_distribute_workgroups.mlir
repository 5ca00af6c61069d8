// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' -verify-diagnostics | FileCheck %s --check-prefix=GRID
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels,builtin.module(floors-linalg-distribute-workgroups))' -verify-diagnostics | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-linalg-outline-kernels,builtin.module(floors-cpu-kernels-to-llvm))' -verify-diagnostics | FileCheck %s --check-prefix=LLVM

// The module allows 4 workgroups. The matmul (256 rows, enough work) gets a
// grid of 4 on the kernel and on the host's fusion op; the small add does
// not (below floors.min_workgroup_iterations); neither does a kernel whose
// output is not the result of a linalg op with a parallel outer loop.
// GRID-LABEL: module @split
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 4 : i64, floors.kernel = "fusion_0"}
// GRID:       floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_1"}
// GRID:       floors.fusion reduction {{.*}} attributes {floors.kernel = "fusion_2"}
// GRID:       func.func @fusion_0({{.*}}) attributes {floors.grid = 4 : i64, floors.kernel

// Distributed: the matmul is tiled into 4 chunks of 64 rows in an
// scf.forall marked floors.workgroups, and its zero fill is fused into the
// chunk (each workgroup fills only its rows).
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[I:.*]]) = (0) to (256) step (64) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<256x128xf32>)
// CHECK:         %[[A:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [64, 128] [1, 1]
// CHECK:         %[[F:.*]] = linalg.fill {{.*}} -> tensor<64x128xf32>
// CHECK:         linalg.matmul ins(%[[A]], %{{.*}} : tensor<64x128xf32>, tensor<128x128xf32>) outs(%[[F]] : tensor<64x128xf32>)
// CHECK:         tensor.parallel_insert_slice
// CHECK:       } {floors.workgroups}
// CHECK:       bufferization.materialize_in_destination
// CHECK-LABEL: func.func @fusion_1
// CHECK-NOT:   scf.forall
// CHECK-LABEL: func.func @fusion_2
// CHECK-NOT:   scf.forall

// Lowered: the kernel (whose last argument was the workgroup id) is inlined
// into its entry point, which checks the grid.
// LLVM-LABEL: module @floors_kernels
// LLVM-NOT:   llvm.func @fusion_0(
// LLVM:       fusion_0: the grid must be 4x1x1
// LLVM:       llvm.func @fusion_0_kernel(
module @split attributes {floors.max_workgroups = 4 : i64} {
  func.func @main(%a: tensor<256x128xf32>, %b: tensor<128x128xf32>, %x: tensor<4xf32>, %m: tensor<64x64xf32>) -> (tensor<256x128xf32>, tensor<4xf32>, tensor<64xf32>) {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<256x128xf32>, %q = %b : tensor<128x128xf32>) -> tensor<256x128xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<256x128xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
      %r = linalg.matmul ins(%p, %q : tensor<256x128xf32>, tensor<128x128xf32>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
      floors.yield %r : tensor<256x128xf32>
    }
    %1 = floors.fusion loop hero "stablehlo.add" (%p = %x : tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.map { arith.addf } ins(%p, %p : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
      floors.yield %r : tensor<4xf32>
    }
    %2 = floors.fusion reduction hero "stablehlo.reduce" (%p = %m : tensor<64x64xf32>) -> tensor<64xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<64xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
      %r = linalg.reduce ins(%p : tensor<64x64xf32>) outs(%f : tensor<64xf32>) dimensions = [0]
        (%in: f32, %acc: f32) {
          %s = arith.addf %in, %acc : f32
          linalg.yield %s : f32
        }
      floors.yield %r : tensor<64xf32>
    }
    return %0, %1, %2 : tensor<256x128xf32>, tensor<4xf32>, tensor<64xf32>
  }
}


