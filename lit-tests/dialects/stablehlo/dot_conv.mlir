// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// dot_general, dot (legacy) and convolution.

// CHECK-LABEL: @dot_general(
// CHECK: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
// CHECK: %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGH, HIGHEST] : (tensor<4x16x32xf32>, tensor<4x32x8xf32>) -> tensor<4x16x8xf32>
// CHECK: %2 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0] : (tensor<8x32xbf16>, tensor<32x4xbf16>) -> tensor<8x4xf32>
// CHECK: %3 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [] x [] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x32x32x16xf32>
// CHECK: return %0, %1, %2, %3 : tensor<64x16xf32>, tensor<4x16x8xf32>, tensor<8x4xf32>, tensor<64x32x32x16xf32>
func.func @dot_general(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<4x16x32xf32>, %d: tensor<4x32x8xf32>, %h: tensor<8x32xbf16>, %w: tensor<32x4xbf16>) -> (tensor<64x16xf32>, tensor<4x16x8xf32>, tensor<8x4xf32>, tensor<64x32x32x16xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %1 = stablehlo.dot_general %c, %d, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGH, HIGHEST] : (tensor<4x16x32xf32>, tensor<4x32x8xf32>) -> tensor<4x16x8xf32>
  %2 = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<8x32xbf16>, tensor<32x4xbf16>) -> tensor<8x4xf32>
  %3 = stablehlo.dot_general %a, %b, contracting_dims = [] x [] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x32x32x16xf32>
  return %0, %1, %2, %3 : tensor<64x16xf32>, tensor<4x16x8xf32>, tensor<8x4xf32>, tensor<64x32x32x16xf32>
}

// CHECK-LABEL: @dot_general_generic(
// CHECK: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
// CHECK: return %0 : tensor<64x16xf32>
func.func @dot_general_generic(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// CHECK-LABEL: @dot(
// CHECK: %0 = stablehlo.dot %arg0, %arg1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
// CHECK: %1 = stablehlo.dot %arg1, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
// CHECK: %2 = stablehlo.dot %arg0, %arg2 : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
// CHECK: return %0, %1, %2 : tensor<4xf32>, tensor<f32>, tensor<4x3xf32>
func.func @dot(%m: tensor<4x8xf32>, %v: tensor<8xf32>, %n: tensor<8x3xf32>) -> (tensor<4xf32>, tensor<f32>, tensor<4x3xf32>) {
  %0 = stablehlo.dot %m, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  %1 = stablehlo.dot %v, %v, precision = [DEFAULT, DEFAULT] : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  %2 = stablehlo.dot %m, %n : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<f32>, tensor<4x3xf32>
}

// CHECK-LABEL: @convolution(
// CHECK: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
// CHECK: %2 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x4x4xf32>
// CHECK: return %0, %1, %2 : tensor<1x8x8x8xf32>, tensor<1x6x6x8xf32>, tensor<2x8x4x4xf32>
func.func @convolution(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>, %xn: tensor<2x4x9x9xf32>, %wg: tensor<8x2x3x3xf32>) -> (tensor<1x8x8x8xf32>, tensor<1x6x6x8xf32>, tensor<2x8x4x4xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x6x6x8xf32>
  // NCHW with two feature groups, stride 2.
  %2 = stablehlo.convolution(%xn, %wg) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<2x8x4x4xf32>
  return %0, %1, %2 : tensor<1x8x8x8xf32>, tensor<1x6x6x8xf32>, tensor<2x8x4x4xf32>
}

// CHECK-LABEL: @convolution_generic(
// CHECK: %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: %1 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[\[}}1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
// CHECK: return %0 : tensor<1x8x8x8xf32>
func.func @convolution_generic(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = "stablehlo.convolution"(%x, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>}> : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// dot_general's `algorithm` (JAX's DotAlgorithmPreset), after `precision` or
// alone, in the pretty and the generic form; both print pretty.
// CHECK-LABEL: func.func @dot_algorithm
// CHECK: %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 6, allow_imprecise_accumulation = false> : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
// CHECK: %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true> : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
func.func @dot_algorithm(%a: tensor<8x4xf32>, %b: tensor<4x2xf32>) -> (tensor<8x2xf32>, tensor<8x2xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 6, allow_imprecise_accumulation = false> : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  %1 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>}> : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return %0, %1 : tensor<8x2xf32>, tensor<8x2xf32>
}
