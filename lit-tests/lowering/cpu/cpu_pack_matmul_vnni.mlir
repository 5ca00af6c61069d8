// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=znver4},floors-cpu-pack-matmul)' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=znver4},floors-cpu-pack-matmul,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file | FileCheck %s --check-prefix=SCHED
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v4},floors-cpu-pack-matmul)' -split-input-file | FileCheck %s --check-prefix=NOBF16

// bf16 x bf16 -> f32 on a target with AVX-512 BF16 (znver4) stays bf16:
// A viewed [M/8, 8, K/2, 2], B packed [N/32, K/2, 32, 2] (each column's K
// pairs adjacent), the contraction over (m1, n1, m0, n0, k2, p).
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @bf16_matmul
// CHECK:       tensor.expand_shape %arg0 {{\[\[}}0, 1], [2, 3]] output_shape [32, 8, 64, 2] : tensor<256x128xbf16> into tensor<32x8x64x2xbf16>
// CHECK:       %[[BE:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2, 3]] output_shape [64, 2, 3, 32] : tensor<128x96xbf16> into tensor<64x2x3x32xbf16>
// CHECK:       %[[BP:.*]] = linalg.generic {{.*}} ins(%[[BE]] : tensor<64x2x3x32xbf16>) outs(%{{.*}} : tensor<3x64x32x2xbf16>)
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}}, %[[BP]] : tensor<32x8x64x2xbf16>, tensor<3x64x32x2xbf16>) outs(%{{.*}} : tensor<32x8x3x32xf32>)
// CHECK:       arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT:   linalg.matmul
// The packing interleaves two rows of B per tile into one 64-lane write;
// the register tile reads B as 2 K pairs x 64 bf16 and is 32 vdpbf16ps
// (8 rows x 2 column halves x 2 K pairs), each on one broadcast A pair.
// SCHED-LABEL: func.func @bf16_matmul
// SCHED:       vector.interleave %{{.*}}, %{{.*}} : vector<32xbf16> -> vector<64xbf16>
// SCHED:       vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<64xbf16>, tensor<3x64x64xbf16>
// SCHED:       vector.transfer_read %{{.*}} : tensor<3x64x64xbf16>, vector<2x64xbf16>
// SCHED:       vector.broadcast %{{.*}} : i32 to vector<16xi32>
// SCHED-COUNT-32: x86vector.avx512.dot %{{.*}}, %{{.*}}, %{{.*}} : vector<32xbf16> -> vector<16xf32>
// SCHED-NOT:   vector.contract
// Without AVX-512 BF16 the operands are widened to f32 and packed as f32.
// NOBF16-LABEL: func.func @bf16_matmul
// NOBF16:       arith.extf %{{.*}} : bf16 to f32
// NOBF16:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<32x8x128xf32>, tensor<3x128x32xf32>)
func.func @bf16_matmul(%arg0: tensor<256x128xbf16>, %arg1: tensor<128x96xbf16>) -> tensor<256x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x96xf32>) -> tensor<256x96xf32>
  %2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<256x128xbf16>, tensor<128x96xbf16>) outs(%1 : tensor<256x96xf32>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: f32):
    %3 = arith.extf %in : bf16 to f32
    %4 = arith.extf %in_0 : bf16 to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.addf %out, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<256x96xf32>
  return %2 : tensor<256x96xf32>
}

// -----

// `A·Bᵀ` in bf16: B stored N×K is packed from [N/32, 32, K/2, 2].
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @bf16_a_bt
// CHECK:       %[[BE:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2, 3]] output_shape [2, 32, 64, 2] : tensor<64x128xbf16> into tensor<2x32x64x2xbf16>
// CHECK:       linalg.generic {{.*}} ins(%[[BE]] : tensor<2x32x64x2xbf16>) outs(%{{.*}} : tensor<2x64x32x2xbf16>)
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// Its packing: 16 rows of 32 bf16 from B viewed [N/32, 32, K], a 16x16
// transpose of the pairs as i32 (shuffles), 16 rows of 32 bf16 written.
// SCHED-LABEL: func.func @bf16_a_bt
// SCHED:       vector.transfer_read %{{.*}} : tensor<2x32x128xbf16>, vector<16x32xbf16>
// SCHED:       vector.bitcast %{{.*}} : vector<16x32xbf16> to vector<16x16xi32>
// SCHED:       vector.shuffle
// SCHED:       vector.bitcast %{{.*}} : vector<16x16xi32> to vector<16x32xbf16>
// SCHED:       vector.transfer_write %{{.*}} {in_bounds = [true, true]} : vector<16x32xbf16>, tensor<2x64x64xbf16>
// SCHED-COUNT-32: x86vector.avx512.dot
func.func @bf16_a_bt(%arg0: tensor<512x128xbf16>, %arg1: tensor<64x128xbf16>) -> tensor<512x64xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<512x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512x64xf32>) -> tensor<512x64xf32>
  %2 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<512x128xbf16>, tensor<64x128xbf16>) outs(%1 : tensor<512x64xf32>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: f32):
    %3 = arith.extf %in : bf16 to f32
    %4 = arith.extf %in_0 : bf16 to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.addf %out, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<512x64xf32>
  return %2 : tensor<512x64xf32>
}

// -----

// An odd K has no pairs: widened to f32 even with AVX-512 BF16.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @bf16_odd_k
// CHECK:       arith.extf %{{.*}} : bf16 to f32
// CHECK:       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<32x8x129xf32>, tensor<3x129x32xf32>)
func.func @bf16_odd_k(%arg0: tensor<256x129xbf16>, %arg1: tensor<129x96xbf16>) -> tensor<256x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x96xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x96xf32>) -> tensor<256x96xf32>
  %2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<256x129xbf16>, tensor<129x96xbf16>) outs(%1 : tensor<256x96xf32>) {
  ^bb0(%in: bf16, %in_0: bf16, %out: f32):
    %3 = arith.extf %in : bf16 to f32
    %4 = arith.extf %in_0 : bf16 to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.addf %out, %5 : f32
    linalg.yield %6 : f32
  } -> tensor<256x96xf32>
  return %2 : tensor<256x96xf32>
}
