// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<16x4xf32>) outs(%[[F]] : tensor<8x4xf32>)
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<4x16x32xf32>, tensor<4x32x8xf32>)
func.func @batch_matmul(%a: tensor<4x16x32xf32>, %b: tensor<4x32x8xf32>) -> tensor<4x16x8xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x32xf32>, tensor<4x32x8xf32>) -> tensor<4x16x8xf32>
  return %0 : tensor<4x16x8xf32>
}

// -----

// Non-canonical dimension numbers: a contraction generic (batch, lhs free,
// rhs free | contracting).
// CHECK-DAG: #[[L:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[R:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @dot_transposed
// CHECK: linalg.generic {indexing_maps = [#[[L]], #[[R]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @dot_transposed(%a: tensor<16x8xf32>, %b: tensor<4x16xf32>) -> tensor<8x4xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>}> : (tensor<16x8xf32>, tensor<4x16xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// bf16 operands with an f32 result: operands extended inside the generic.
// CHECK-LABEL: func.func @mixed
// CHECK: linalg.generic
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.mulf
func.func @mixed(%a: tensor<8x16xbf16>, %b: tensor<16x4xbf16>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// convolution, 2-D channels-last with an HWIO kernel: padding by tensor ops,
// then the named linalg.conv_2d_nhwc_hwcf (floors-cpu-pack-matmul makes it
// the direct convolution generic after elementwise fusion).
// CHECK-LABEL: func.func @conv2d_nhwc
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x10x10x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %arg1 : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
func.func @conv2d_nhwc(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// NCHW with an OIHW kernel: both transposed into NHWC/HWIO (named
// linalg.transpose, which elementwise fusion does not fold into the
// convolution), the named convolution, the result transposed back.
// CHECK-LABEL: func.func @conv2d_nchw
// CHECK: linalg.transpose ins(%arg0 : tensor<1x4x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x4xf32>) permutation = [0, 2, 3, 1]
// CHECK: linalg.transpose ins(%arg1 : tensor<8x4x3x3xf32>) outs(%{{.*}} : tensor<3x3x4x8xf32>) permutation = [2, 3, 1, 0]
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x6x6x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<1x6x6x8xf32>) outs(%{{.*}} : tensor<1x8x6x6xf32>)
func.func @conv2d_nchw(%arg0: tensor<1x4x8x8xf32>, %arg1: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// 1-D: the 2-D named convolution with a unit height.
// CHECK-LABEL: func.func @conv1d
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [2, 1, 16, 4]
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [1, 3, 4, 8]
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} {{.*}} -> tensor<2x1x6x8xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x1x6x8xf32> into tensor<2x6x8xf32>
func.func @conv1d(%x: tensor<2x16x4xf32>, %w: tensor<3x4x8xf32>) -> tensor<2x6x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x16x4xf32>, tensor<3x4x8xf32>) -> tensor<2x6x8xf32>
  return %0 : tensor<2x6x8xf32>
}

// -----

// 3-D: the direct form, a generic over (n, od, oh, ow, f | kd, kh, kw, c);
// the multiply-add is marked contract.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1 + d5, d2 * 2 + d6, d3 + d7, d8)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d5, d6, d7, d8, d4)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @conv3d
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[K]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]}
// CHECK: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK: arith.addf {{.*}} fastmath<contract> : f32
func.func @conv3d(%x: tensor<1x5x9x6x3xf32>, %w: tensor<2x3x2x3x4xf32>) -> tensor<1x4x4x5x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x9x6x3xf32>, tensor<2x3x2x3x4xf32>) -> tensor<1x4x4x5x4xf32>
  return %0 : tensor<1x4x4x5x4xf32>
}

// -----

// Feature groups: input [N, H, W, G, C/G], kernel [KH, KW, C/G, G, O/G],
// output [N, OH, OW, G, O/G] (collapsed back to [N, OH, OW, O]).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 + d5, d2 + d6, d3, d7)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d3, d4)>
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 2, 3]
// CHECK: tensor.expand_shape %arg1 {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 3, 2, 4]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[K]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<1x6x6x2x4xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x6x6x2x4xf32> into tensor<1x6x6x8xf32>
func.func @grouped(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x6xf32>, tensor<3x3x3x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Batch groups (the weight gradient of a grouped convolution): input
// [B, N/B, H, W, C], kernel [KH, KW, C, B, O/B], output [N/B, OH, OW, B, O/B].
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d0, d1 + d5, d2 + d6, d7)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d3, d4)>
// CHECK-LABEL: func.func @batch_groups
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 6, 6, 3]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[K]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<2x4x4x2x2xf32>)
func.func @batch_groups(%x: tensor<4x6x6x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
  return %0 : tensor<2x4x4x4xf32>
}

// -----

// bf16 accumulates in f32 (the direct form), truncated at the end.
// CHECK-LABEL: func.func @conv_bf16
// CHECK: linalg.generic
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK: } -> tensor<1x6x6x8xf32>
// CHECK: arith.truncf {{.*}} : f32 to bf16
func.func @conv_bf16(%x: tensor<1x8x8x4xbf16>, %w: tensor<3x3x4x8xbf16>) -> tensor<1x6x6x8xbf16> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xbf16>, tensor<3x3x4x8xbf16>) -> tensor<1x6x6x8xbf16>
  return %0 : tensor<1x6x6x8xbf16>
}

// -----

// window_reversal: the kernel read backwards by a tensor.generate (the
// convolution's maps stay increasing, so tiling slices them right).
// CHECK-LABEL: func.func @reversed
// CHECK: tensor.generate
// CHECK: arith.subi
// CHECK: tensor.extract %arg1
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @reversed(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Negative padding cuts the input.
// CHECK-LABEL: func.func @negative_padding
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 0, 0] [1, 7, 7, 2] [1, 1, 1, 1] : tensor<1x8x9x2xf32> to tensor<1x7x7x2xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @negative_padding(%x: tensor<1x8x9x2xf32>, %w: tensor<2x2x2x4xf32>) -> tensor<1x6x6x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[-1, 0], [0, -2]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x9x2xf32>, tensor<2x2x2x4xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// precision_config above DEFAULT is kept on the contraction as
// floors.precision (the TPU floor's tpu.matmul precision): HIGHEST on
// either operand is "highest", HIGH "high"; DEFAULT adds nothing.
// CHECK-LABEL: func.func @precision
// CHECK: linalg.matmul {floors.precision = "highest"}
// CHECK: linalg.generic {{.*}} attrs =  {floors.precision = "high"}
// CHECK: linalg.matmul ins(
func.func @precision(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<16x8xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.dot_general %c, %b, contracting_dims = [0] x [0], precision = [HIGH, DEFAULT] : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %2 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
