// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file | FileCheck %s

// A reduction to a scalar has no parallel loop to tile: the op itself is
// split into a vector of partial sums and reduced once.
// CHECK-LABEL: func.func @sum_to_scalar
// CHECK:       scf.for {{.*}} iter_args({{.*}}) -> (tensor<32xf32>, vector<32xf32>)
// CHECK:       arith.addf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK:       vector.reduction <add>, %{{.*}}, %{{.*}} : vector<32xf32> into f32
#id1 = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @sum_to_scalar(%arg0: tensor<64xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<f32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
  %2 = linalg.generic {indexing_maps = [#id1, #sc], iterator_types = ["reduction"]} ins(%arg0 : tensor<64xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = arith.addf %out, %in : f32
    linalg.yield %3 : f32
  } -> tensor<f32>
  return %2 : tensor<f32>
}

// -----

// A column reduction whose body widens its accumulator (an f16 product
// computed in f32) is no combiner the vectorizer knows: it stays a loop
// nest instead of failing the schedule ("Attempted to vectorize, but failed").
// CHECK-LABEL: func.func @f16_product_columns
// CHECK-NOT:   vector.
// CHECK:       linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:       arith.truncf %{{.*}} : f32 to f16
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1)>
func.func @f16_product_columns(%arg0: tensor<2x64xf16>) -> tensor<64xf16> {
  %cst = arith.constant 1.000000e+00 : f16
  %0 = tensor.empty() : tensor<64xf16>
  %1 = linalg.fill ins(%cst : f16) outs(%0 : tensor<64xf16>) -> tensor<64xf16>
  %2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<2x64xf16>) outs(%1 : tensor<64xf16>) {
  ^bb0(%in: f16, %out: f16):
    %3 = arith.extf %out : f16 to f32
    %4 = arith.extf %in : f16 to f32
    %5 = arith.mulf %3, %4 : f32
    %6 = arith.truncf %5 : f32 to f16
    linalg.yield %6 : f16
  } -> tensor<64xf16>
  return %2 : tensor<64xf16>
}

// -----

// A bf16 row max accumulated in f32 (the shared lowering's form of a half
// max/min): rows by 1, the row split into vectors of bf16 widened in
// registers and combined into f32 partial maxima.
#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bf16_row_max
// CHECK:       vector.transfer_read %{{.*}} : tensor<8x64xbf16>, vector<1x32xbf16>
// CHECK:       arith.extf %{{.*}} : vector<1x32xbf16> to vector<1x32xf32>
// CHECK:       arith.maximumf %{{.*}}, %{{.*}} : vector<1x32xf32>
// CHECK:       vector.reduction <maximumf>, %{{.*}}, %{{.*}} : vector<32xf32> into f32
func.func @bf16_row_max(%arg0: tensor<8x64xbf16>) -> tensor<8xf32> {
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %2 = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<8x64xbf16>) outs(%1 : tensor<8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %e = arith.extf %in : bf16 to f32
    %m = arith.maximumf %out, %e : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
