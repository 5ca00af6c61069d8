// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Dynamic shapes (JAX's shape polymorphism): get_dimension_size and the ops
// that take shapes, sizes or padding as values; bounded dynamism.

// CHECK-LABEL: func.func @dims(%arg0: tensor<?x20x20xbf16>) -> tensor<i32> {
// CHECK-NEXT: %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x20x20xbf16>) -> tensor<i32>
// CHECK-NEXT: return %0 : tensor<i32>
func.func @dims(%arg0: tensor<?x20x20xbf16>) -> tensor<i32> {
  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x20x20xbf16>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @broadcast_iota_reshape(%arg0: tensor<?x4xf32>, %arg1: tensor<3xi32>, %arg2: tensor<1xi32>) -> (tensor<1x?x4xf32>, tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>) {
// CHECK-NEXT: %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
// CHECK-NEXT: %1 = stablehlo.dynamic_broadcast_in_dim %0, %arg1, dims = [0, 1, 2] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1, 2>} : (tensor<1x?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
// CHECK-NEXT: %2 = stablehlo.dynamic_iota %arg2, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
// CHECK-NEXT: %3 = stablehlo.dynamic_reshape %arg0, %arg2 : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<1x?x4xf32>, tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>
func.func @broadcast_iota_reshape(%arg0: tensor<?x4xf32>, %arg1: tensor<3xi32>, %arg2: tensor<1xi32>) -> (tensor<1x?x4xf32>, tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
  %1 = stablehlo.dynamic_broadcast_in_dim %0, %arg1, dims = [0, 1, 2] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 1, 2>} : (tensor<1x?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  %2 = stablehlo.dynamic_iota %arg2, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  %3 = stablehlo.dynamic_reshape %arg0, %arg2 : (tensor<?x4xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %0, %1, %2, %3 : tensor<1x?x4xf32>, tensor<2x?x4xf32>, tensor<?xf32>, tensor<?xf32>
}

// CHECK-LABEL: func.func @pad_slice(%arg0: tensor<?x5xf32>, %arg1: tensor<f32>, %arg2: tensor<2xi32>, %arg3: tensor<2xindex>) -> (tensor<?x5xf32>, tensor<?x?xf32>) {
// CHECK-NEXT: %0 = stablehlo.dynamic_pad %arg0, %arg1, %arg2, %arg2, %arg2 : (tensor<?x5xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x5xf32>
// CHECK-NEXT: %1 = stablehlo.real_dynamic_slice %0, %arg3, %arg3, %arg3 : (tensor<?x5xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
// CHECK-NEXT: return %0, %1 : tensor<?x5xf32>, tensor<?x?xf32>
func.func @pad_slice(%arg0: tensor<?x5xf32>, %arg1: tensor<f32>, %arg2: tensor<2xi32>, %arg3: tensor<2xindex>) -> (tensor<?x5xf32>, tensor<?x?xf32>) {
  %0 = stablehlo.dynamic_pad %arg0, %arg1, %arg2, %arg2, %arg2 : (tensor<?x5xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x5xf32>
  %1 = stablehlo.real_dynamic_slice %0, %arg3, %arg3, %arg3 : (tensor<?x5xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x5xf32>, tensor<?x?xf32>
}

// CHECK-LABEL: func.func @gather_conv(%arg0: tensor<?x4xf32>, %arg1: tensor<1xi64>, %arg2: tensor<2xi32>, %arg3: tensor<1x?x16xf32>, %arg4: tensor<4x16x16xf32>, %arg5: tensor<1x2xi32>) -> (tensor<?x2xf32>, tensor<1x?x16xf32>) {
// CHECK-NEXT: %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<?x4xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<?x2xf32>
// CHECK-NEXT: %1 = "stablehlo.dynamic_conv"(%arg3, %arg4, %arg5) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 2>}> : (tensor<1x?x16xf32>, tensor<4x16x16xf32>, tensor<1x2xi32>) -> tensor<1x?x16xf32>
// CHECK-NEXT: return %0, %1 : tensor<?x2xf32>, tensor<1x?x16xf32>
func.func @gather_conv(%arg0: tensor<?x4xf32>, %arg1: tensor<1xi64>, %arg2: tensor<2xi32>, %arg3: tensor<1x?x16xf32>, %arg4: tensor<4x16x16xf32>, %arg5: tensor<1x2xi32>) -> (tensor<?x2xf32>, tensor<1x?x16xf32>) {
  %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %arg2) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true}> : (tensor<?x4xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<?x2xf32>
  %1 = "stablehlo.dynamic_conv"(%arg3, %arg4, %arg5) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 2>}> : (tensor<1x?x16xf32>, tensor<4x16x16xf32>, tensor<1x2xi32>) -> tensor<1x?x16xf32>
  return %0, %1 : tensor<?x2xf32>, tensor<1x?x16xf32>
}

// Bounded dynamism: the bounds print as JAX prints them, #stablehlo.bounds<...>,
// also when written as #stablehlo.type_extensions<bounds = [...]>.
// CHECK-LABEL: func.func @bounded(%arg0: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %arg1: tensor<?xi32, #stablehlo.bounds<16>>) -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?xi32, #stablehlo.bounds<16>>) {
// CHECK-NEXT: %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
// CHECK-NEXT: %1 = stablehlo.negate %arg1 : tensor<?xi32, #stablehlo.bounds<16>>
// CHECK-NEXT: return %0, %1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?xi32, #stablehlo.bounds<16>>
func.func @bounded(%arg0: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %arg1: tensor<?xi32, #stablehlo.type_extensions<bounds = [16]>>) -> (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?xi32, #stablehlo.bounds<16>>) {
  %0 = stablehlo.add %arg0, %arg0 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  %1 = stablehlo.negate %arg1 : tensor<?xi32, #stablehlo.bounds<16>>
  return %0, %1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<?xi32, #stablehlo.bounds<16>>
}
