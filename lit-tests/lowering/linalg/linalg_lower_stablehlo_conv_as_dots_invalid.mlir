// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo{conv-as-dots=true})'

// 2,001 window positions and 2,000 output positions: too many dots to
// unroll, refused at the convolution.
func.func @too_many_positions(%x: tensor<1x4000x1xf32>, %w: tensor<2001x1x1xf32>) -> tensor<1x2000x1xf32> {
  // expected-error @+1 {{a convolution with 2001 window positions and 2000 output positions cannot be written as dots over positions (conv-as-dots unrolls at most 1024 of either)}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4000x1xf32>, tensor<2001x1x1xf32>) -> tensor<1x2000x1xf32>
  return %0 : tensor<1x2000x1xf32>
}

