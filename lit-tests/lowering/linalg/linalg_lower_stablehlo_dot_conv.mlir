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
// im2col + a packed matmul after elementwise fusion).
// CHECK-LABEL: func.func @conv2d_nhwc
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x8x8x4xf32> into tensor<1x10x10x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %arg1 : tensor<1x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%{{.*}} : tensor<1x8x8x8xf32>)
func.func @conv2d_nhwc(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Any other layout (here NCHW, and a 1-D convolution) is a generic over
// (output dims | input feature, window dims).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d1)>
// CHECK-LABEL: func.func @conv2d_nchw
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[K]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-NOT: linalg.conv_2d
func.func @conv2d_nchw(%arg0: tensor<1x4x8x8xf32>, %arg1: tensor<3x3x4x8xf32>) -> tensor<1x8x6x6xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}
