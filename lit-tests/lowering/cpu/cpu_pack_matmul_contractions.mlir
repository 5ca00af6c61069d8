// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v4},floors-cpu-pack-matmul)' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v4},floors-cpu-pack-matmul,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file | FileCheck %s --check-prefix=SCHED

// Contractions the shared lowering writes for dot_generals that are not a
// plain matmul become one.

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// `q @ k.T` (contracting [1] x [1]): no transpose copy of B (one copy of
// it in all, the packing's, straight from %arg1); the packing
// copy reads B's N×K layout, viewed [N/NR, NR, K], into [N/NR, K, NR].
// CHECK-LABEL: func.func @a_bt
// CHECK:       %[[BE:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2]] output_shape [16, 32, 64] : tensor<512x64xf32> into tensor<16x32x64xf32>
// CHECK:       linalg.generic {indexing_maps = [#[[TMAP:.*]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[BE]] : tensor<16x32x64xf32>) outs(%{{.*}} : tensor<16x64x32xf32>)
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// The packing copy: 16x16 tiles read as 16 rows of K and transposed in
// registers (shuffles), not moved one element at a time.
// SCHED-LABEL: func.func @a_bt
// SCHED:       vector.transfer_read %{{.*}} : tensor<16x32x64xf32>, vector<1x16x16xf32>
// SCHED-COUNT-64: vector.shuffle %{{.*}}, %{{.*}} [{{.*}}] : vector<16xf32>, vector<16xf32>
// SCHED-NOT:   vector.transpose
// SCHED:       vector.fma
func.func @a_bt(%q: tensor<512x64xf32>, %k: tensor<512x64xf32>) -> tensor<512x512xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<512x512xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %2 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<512x64xf32>, tensor<512x64xf32>) outs(%1 : tensor<512x512xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<512x512xf32>
  return %2 : tensor<512x512xf32>
}

// -----

#at = affine_map<(d0, d1, d2) -> (d2, d0)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// `x.T @ y` (contracting [0] x [0]): A is transposed into M×K, then packed
// as usual.
// CHECK-LABEL: func.func @at_b
// CHECK:       linalg.generic {indexing_maps = [#[[T:.*]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<256x128xf32>) outs(%{{.*}} : tensor<128x256xf32>)
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
func.func @at_b(%x: tensor<256x128xf32>, %y: tensor<256x96xf32>) -> tensor<128x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<128x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<128x96xf32>) -> tensor<128x96xf32>
  %2 = linalg.generic {indexing_maps = [#at, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %y : tensor<256x128xf32>, tensor<256x96xf32>) outs(%1 : tensor<128x96xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<128x96xf32>
  return %2 : tensor<128x96xf32>
}

// -----

#a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// Multi-head `bhqd,bhkd->bhqk` on bf16 accumulating in f32: the two batch
// dims collapse into one, the operands are widened, B keeps its N×K layout
// through the packing, and the result is expanded back.
// CHECK-LABEL: func.func @heads_bf16
// CHECK-DAG:   tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3]] : tensor<2x3x128x64xbf16> into tensor<6x128x64xbf16>
// CHECK-DAG:   tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<2x3x96x64xbf16> into tensor<6x96x64xbf16>
// CHECK:       arith.extf %{{.*}} : bf16 to f32
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [6, 3, 32, 64] : tensor<6x96x64xf32> into tensor<6x3x32x64xf32>
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [2, 3, 128, 96] : tensor<6x128x96xf32> into tensor<2x3x128x96xf32>
func.func @heads_bf16(%q: tensor<2x3x128x64xbf16>, %k: tensor<2x3x96x64xbf16>) -> tensor<2x3x128x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x3x128x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3x128x96xf32>) -> tensor<2x3x128x96xf32>
  %2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x3x128x64xbf16>, tensor<2x3x96x64xbf16>) outs(%1 : tensor<2x3x128x96xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xe = arith.extf %x : bf16 to f32
    %ye = arith.extf %y : bf16 to f32
    %m = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x128x96xf32>
  return %2 : tensor<2x3x128x96xf32>
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// Batch dims in the middle (`qbd,kbd->bqk`): both operands are transposed
// batch-first; an f64 contraction is left alone.
// CHECK-LABEL: func.func @batch_in_the_middle
// CHECK:       linalg.generic {{.*}} ins(%arg0 : tensor<64x4x32xf32>) outs(%{{.*}} : tensor<4x64x32xf32>)
// CHECK:       linalg.generic {{.*}} ins(%arg1 : tensor<128x4x32xf32>) outs(%{{.*}} : tensor<4x128x32xf32>)
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK:       linalg.generic {{.*}} ins(%arg2, %arg3 : tensor<64x4x32xf64>, tensor<128x4x32xf64>)
func.func @batch_in_the_middle(%q: tensor<64x4x32xf32>, %k: tensor<128x4x32xf32>, %q64: tensor<64x4x32xf64>, %k64: tensor<128x4x32xf64>) -> (tensor<4x64x128xf32>, tensor<4x64x128xf64>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x64x128xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
  %2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<64x4x32xf32>, tensor<128x4x32xf32>) outs(%1 : tensor<4x64x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x64x128xf32>
  %cst64 = arith.constant 0.000000e+00 : f64
  %3 = tensor.empty() : tensor<4x64x128xf64>
  %4 = linalg.fill ins(%cst64 : f64) outs(%3 : tensor<4x64x128xf64>) -> tensor<4x64x128xf64>
  %5 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q64, %k64 : tensor<64x4x32xf64>, tensor<128x4x32xf64>) outs(%4 : tensor<4x64x128xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  } -> tensor<4x64x128xf64>
  return %2, %5 : tensor<4x64x128xf32>, tensor<4x64x128xf64>
}
