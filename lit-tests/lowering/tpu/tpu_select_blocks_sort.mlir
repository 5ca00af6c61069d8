// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo{keep-sorts=true},floors-tpu-select-blocks)'

// A comparator op the TPU floor has no vector form for is refused at that op.
func.func @sort_with_an_exp(%x: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{'stablehlo.exponential' in a sort comparator has no TPU lowering}}
    %e = stablehlo.exponential %a : tensor<f32>
    %lt = stablehlo.compare LT, %e, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<8x128xf32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// Mosaic has no 64-bit vectors: a sort of f64 is refused at the sort.
func.func @sort_f64(%x: tensor<64xf64>) -> tensor<64xf64> {
  // expected-error @+1 {{a sort of 64-bit elements has no TPU lowering (Mosaic has no 64-bit vectors)}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<64xf64>) -> tensor<64xf64>
  return %0 : tensor<64xf64>
}

// -----

// Unsigned integers would lose their signedness in the comparator: refused
// at the sort when it is kept for the floor.
func.func @sort_u8(%x: tensor<64xui8>) -> tensor<64xui8> {
  // expected-error @+1 {{a sort of unsigned integers inside a fusion cannot be kept for the floor (keep-sorts) yet}}
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %lt = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<64xui8>) -> tensor<64xui8>
  return %0 : tensor<64xui8>
}
