// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' | FileCheck %s

// The grid decision reads indexing maps structurally: a matmul whose maps
// are spelled out but are the default ones is split like a plain one; a
// matmul with transposed maps is not a plain matmul and is not split; a
// root whose map reverses a dimension (`-d0 + 255`) is not tileable and is
// not split either.
// CHECK-LABEL: module @maps
// CHECK:       floors.fusion gemm {{.*}} attributes {floors.grid = 4 : i64, floors.kernel = "fusion_0"}
// CHECK:       floors.fusion gemm {{.*}} attributes {floors.kernel = "fusion_1"}
// CHECK:       floors.fusion loop {{.*}} attributes {floors.kernel = "fusion_2"}
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#flip = affine_map<(d0, d1) -> (-d0 + 255, d1)>
module @maps attributes {floors.max_workgroups = 4 : i64, floors.min_workgroup_iterations = 1 : i64} {
  func.func @main(%a: tensor<256x128xf32>, %b: tensor<128x128xf32>) -> (tensor<256x128xf32>, tensor<256x128xf32>, tensor<256x128xf32>) {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<256x128xf32>, %q = %b : tensor<128x128xf32>) -> tensor<256x128xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<256x128xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
      %r = linalg.matmul indexing_maps = [#a, #b, #c] ins(%p, %q : tensor<256x128xf32>, tensor<128x128xf32>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
      floors.yield %r : tensor<256x128xf32>
    }
    %1 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<256x128xf32>, %q = %b : tensor<128x128xf32>) -> tensor<256x128xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<256x128xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
      %r = linalg.matmul indexing_maps = [#a, #bt, #c] ins(%p, %q : tensor<256x128xf32>, tensor<128x128xf32>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
      floors.yield %r : tensor<256x128xf32>
    }
    %2 = floors.fusion loop hero "stablehlo.reverse" (%p = %a : tensor<256x128xf32>) -> tensor<256x128xf32> {
      %e = tensor.empty() : tensor<256x128xf32>
      %r = linalg.generic {indexing_maps = [#flip, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<256x128xf32>) outs(%e : tensor<256x128xf32>) {
      ^bb0(%x: f32, %y: f32):
        linalg.yield %x : f32
      } -> tensor<256x128xf32>
      floors.yield %r : tensor<256x128xf32>
    }
    return %0, %1, %2 : tensor<256x128xf32>, tensor<256x128xf32>, tensor<256x128xf32>
  }
}
