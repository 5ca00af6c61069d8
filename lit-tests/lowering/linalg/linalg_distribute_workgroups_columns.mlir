// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=GRID
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels,builtin.module(floors-linalg-distribute-workgroups))' -split-input-file -verify-diagnostics | FileCheck %s

// A wide matmul (M = 128 < N = 1024) with an elementwise epilogue is split by
// columns: each workgroup then packs its quarter of B (A is read in place),
// instead of all of B for a quarter of the rows.
// Chunks are whole register columns (a multiple of 32).
// GRID-LABEL: module @columns
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 4 : i64, floors.kernel = "fusion_0"}
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[J:.*]]) = (0) to (1024) step (256)
// CHECK:         tensor.extract_slice %{{.*}}[0, %[[J]]] [256, 256] [1, 1] : tensor<256x1024xf32> to tensor<256x256xf32>
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x256xf32>, tensor<256x256xf32>) outs(%{{.*}} : tensor<128x256xf32>)
// CHECK:       } {floors.workgroups}

#id = affine_map<(d0, d1) -> (d0, d1)>
module @columns attributes {floors.max_workgroups = 4 : i64} {
  func.func @main(%a: tensor<128x256xf32>, %b: tensor<256x1024xf32>) -> tensor<128x1024xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<128x256xf32>, %q = %b : tensor<256x1024xf32>) -> tensor<128x1024xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<128x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %r = linalg.matmul ins(%p, %q : tensor<128x256xf32>, tensor<256x1024xf32>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<128x1024xf32>) outs(%e : tensor<128x1024xf32>) {
      ^bb0(%x: f32, %o: f32):
        %m = arith.maximumf %x, %cst : f32
        linalg.yield %m : f32
      } -> tensor<128x1024xf32>
      floors.yield %relu : tensor<128x1024xf32>
    }
    return %0 : tensor<128x1024xf32>
  }
}

// -----

// A tall one (M = 512 > N = 64) keeps the row split.
// GRID-LABEL: module @rows
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 4 : i64, floors.kernel = "fusion_0"}
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[I:.*]]) = (0) to (512) step (128)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<128x256xf32>, tensor<256x64xf32>) outs(%{{.*}} : tensor<128x64xf32>)
module @rows attributes {floors.max_workgroups = 4 : i64} {
  func.func @main(%a: tensor<512x256xf32>, %b: tensor<256x64xf32>) -> tensor<512x64xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<512x256xf32>, %q = %b : tensor<256x64xf32>) -> tensor<512x64xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<512x64xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x64xf32>) -> tensor<512x64xf32>
      %r = linalg.matmul ins(%p, %q : tensor<512x256xf32>, tensor<256x64xf32>) outs(%f : tensor<512x64xf32>) -> tensor<512x64xf32>
      floors.yield %r : tensor<512x64xf32>
    }
    return %0 : tensor<512x64xf32>
  }
}

// -----

// A square one whose B is 1 MiB or more (512x512 f32) is split by columns
// too: by rows, each workgroup would pack all of B.
// GRID-LABEL: module @square_big_b
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 2 : i64, floors.kernel = "fusion_0"}
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[J:.*]]) = (0) to (512) step (256)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<512x512xf32>, tensor<512x256xf32>) outs(%{{.*}} : tensor<512x256xf32>)
module @square_big_b attributes {floors.max_workgroups = 2 : i64} {
  func.func @main(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>) -> tensor<512x512xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<512x512xf32>, %q = %b : tensor<512x512xf32>) -> tensor<512x512xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<512x512xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
      %r = linalg.matmul ins(%p, %q : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
      floors.yield %r : tensor<512x512xf32>
    }
    return %0 : tensor<512x512xf32>
  }
}

// -----

// A square one with a small B (64x512 f32, 128 KiB: attention's QK^T) keeps
// the rows, so a row-wise consumer finds its rows on the core that wrote them.
// GRID-LABEL: module @square_small_b
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 2 : i64, floors.kernel = "fusion_0"}
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[I:.*]]) = (0) to (512) step (256)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<256x64xf32>, tensor<64x512xf32>) outs(%{{.*}} : tensor<256x512xf32>)
module @square_small_b attributes {floors.max_workgroups = 2 : i64} {
  func.func @main(%a: tensor<512x64xf32>, %b: tensor<64x512xf32>) -> tensor<512x512xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<512x64xf32>, %q = %b : tensor<64x512xf32>) -> tensor<512x512xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<512x512xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
      %r = linalg.matmul ins(%p, %q : tensor<512x64xf32>, tensor<64x512xf32>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
      floors.yield %r : tensor<512x512xf32>
    }
    return %0 : tensor<512x512xf32>
  }
}

// -----

// A square bf16 dot (the multiply-accumulate generic, not linalg.matmul)
// whose B is 2 MiB as stored is split by columns too: each workgroup packs
// its half of B instead of all of it.
// GRID-LABEL: module @bf16_columns
// GRID:       floors.fusion gemm {{.*}} attributes {floors.grid = 2 : i64, floors.kernel = "fusion_0"}
// CHECK-LABEL: func.func @fusion_0
// CHECK:       scf.forall (%[[J:.*]]) = (0) to (1024) step (512)
// CHECK:         tensor.extract_slice %{{.*}}[0, %[[J]]] [1024, 512] [1, 1] : tensor<1024x1024xbf16> to tensor<1024x512xbf16>
// CHECK:       } {floors.workgroups}

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
module @bf16_columns attributes {floors.max_workgroups = 2 : i64} {
  func.func @main(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%p = %a : tensor<1024x1024xbf16>, %q = %b : tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
      %cst = arith.constant 0.000000e+00 : f32
      %e = tensor.empty() : tensor<1024x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
      %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %q : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<1024x1024xf32>) {
      ^bb0(%x: bf16, %y: bf16, %o: f32):
        %xe = arith.extf %x : bf16 to f32
        %ye = arith.extf %y : bf16 to f32
        %m = arith.mulf %xe, %ye : f32
        %s = arith.addf %o, %m : f32
        linalg.yield %s : f32
      } -> tensor<1024x1024xf32>
      floors.yield %r : tensor<1024x1024xf32>
    }
    return %0 : tensor<1024x1024xf32>
  }
}
