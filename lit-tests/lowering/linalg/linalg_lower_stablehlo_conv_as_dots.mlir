// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo{conv-as-dots=true})' | FileCheck %s

// Window positions (9 < 64 output positions): per kernel position, the
// padded input's shifted slice as [N·H·W, C] times the kernel's slice as
// [C, O], accumulated in one [64, 8] accumulator; expanded to NHWC at the end.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @window_positions
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK: %[[ACC0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x8xf32>)
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK: %[[W0:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1]
// CHECK: %[[XC:.*]] = tensor.collapse_shape %[[X0]] {{\[}}[0, 1, 2], [3]] : tensor<1x8x8x4xf32> into tensor<64x4xf32>
// CHECK: %[[WC:.*]] = tensor.collapse_shape %[[W0]] {{\[}}[0, 1, 2], [3]] : tensor<1x1x4x8xf32> into tensor<4x8xf32>
// CHECK: %[[ACC1:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[XC]], %[[WC]] : tensor<64x4xf32>, tensor<4x8xf32>) outs(%[[ACC0]] : tensor<64x8xf32>)
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg1[0, 1, 0, 0] [1, 1, 4, 8]
// CHECK: outs(%[[ACC1]] : tensor<64x8xf32>)
// CHECK: tensor.extract_slice %[[PAD]][0, 2, 2, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK: %[[LAST:.*]] = linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: tensor.expand_shape %[[LAST]] {{\[}}[0, 1, 2], [3]] output_shape [1, 8, 8, 8] : tensor<64x8xf32> into tensor<1x8x8x8xf32>
func.func @window_positions(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Strided and rhs-dilated, with a reversed window: each position's input
// slice is strided by the window stride; the kernel is read backwards
// (position (0, 0) pairs with kernel element (1, 2)).
// CHECK-LABEL: func.func @strided_reversed
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [2, 3, 2, 3] [1, 2, 3, 1]
// CHECK: tensor.extract_slice %arg1[1, 2, 0, 0] [1, 1, 3, 5] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg0[0, 0, 2, 0] [2, 3, 2, 3] [1, 2, 3, 1]
// CHECK: tensor.extract_slice %arg1[1, 1, 0, 0] [1, 1, 3, 5] [1, 1, 1, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [2, 3, 2, 5] : tensor<12x5xf32> into tensor<2x3x2x5xf32>
func.func @strided_reversed(%x: tensor<2x7x8x3xf32>, %w: tensor<2x3x3x5xf32>) -> tensor<2x3x2x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [true, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x8x3xf32>, tensor<2x3x3x5xf32>) -> tensor<2x3x2x5xf32>
  return %0 : tensor<2x3x2x5xf32>
}

// -----

// Output positions (4 < 25 window positions, the form of a kernel
// gradient): per output position, the input's window as [N, K·C] times the
// whole kernel as [K·C, O], inserted at that position.
// CHECK-LABEL: func.func @output_positions
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 5, 5, 2] [1, 1, 1, 1]
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x5x5x2xf32> into tensor<1x50xf32>
// CHECK: %[[K:.*]] = tensor.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : tensor<5x5x2x3xf32> into tensor<50x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[K]] : tensor<1x50xf32>, tensor<50x3xf32>) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 1, 3]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 0] [1, 1, 1, 3] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg0[0, 0, 1, 0] [1, 5, 5, 2]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 0] [1, 1, 1, 3]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 0, 0] [1, 1, 1, 3]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 1, 1, 0] [1, 1, 1, 3]
func.func @output_positions(%x: tensor<1x6x6x2xf32>, %w: tensor<5x5x2x3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x2xf32>, tensor<5x5x2x3xf32>) -> tensor<1x2x2x3xf32>
  return %0 : tensor<1x2x2x3xf32>
}

// -----

// Feature groups: per position a contraction per group, loops (m, group, o |
// c), input features split [G, Cg], output features [G, O/G]; bf16
// operands accumulate in f32 and are truncated at the end.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @grouped_bf16
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 4, 4, 2, 3] : tensor<1x4x4x6xbf16> into tensor<1x4x4x2x3xbf16>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3], [4]] : tensor<1x4x4x2x3xbf16> into tensor<16x2x3xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<16x2x3xbf16>, tensor<3x2x2xbf16>) outs(%{{.*}} : tensor<16x2x2xf32>)
// CHECK: arith.extf
// CHECK: arith.truncf
func.func @grouped_bf16(%x: tensor<1x4x4x6xbf16>, %w: tensor<3x3x3x4xbf16>) -> tensor<1x4x4x4xbf16> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x4x6xbf16>, tensor<3x3x3x4xbf16>) -> tensor<1x4x4x4xbf16>
  return %0 : tensor<1x4x4x4xbf16>
}
