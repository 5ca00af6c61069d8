// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// custom_call, tuple, get_tuple_element, rng_bit_generator, composite,
// batch_norm_inference, reduce_precision, bitcast_convert, convert.

// CHECK-LABEL: @custom_call(
// CHECK: %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %1 = stablehlo.custom_call @tpu_custom_call(%arg0, %0) {api_version = 2 : i32, backend_config = "{\22custom_call_config\22: {}}", has_side_effect = true, operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK: %2 = stablehlo.custom_call @ffi_target(%arg0) {api_version = 4 : i32, backend_config = {alpha = 1.000000e+00 : f32}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK: %3 = stablehlo.custom_call @effect(%arg1) {has_side_effect = true} : (!stablehlo.token) -> !stablehlo.token
// CHECK: return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, !stablehlo.token
func.func @custom_call(%x: tensor<8xf32>, %t: !stablehlo.token) -> (tensor<8xf32>, tensor<8xf32>, !stablehlo.token) {
  %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @tpu_custom_call(%x, %0) {backend_config = "{\22custom_call_config\22: {}}", has_side_effect = true, api_version = 2 : i32, operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @ffi_target(%x) {api_version = 4 : i32, backend_config = {alpha = 1.0 : f32}} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.custom_call @effect(%t) {has_side_effect = true} : (!stablehlo.token) -> !stablehlo.token
  return %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, !stablehlo.token
}

// CHECK-LABEL: @tuples(
// CHECK: %0 = stablehlo.tuple %arg0, %arg1 : tuple<tensor<f32>, tensor<2xi32>>
// CHECK: %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>
// CHECK: return %1 : tensor<2xi32>
func.func @tuples(%a: tensor<f32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.tuple %a, %b : tuple<tensor<f32>, tensor<2xi32>>
  %1 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>
  return %1 : tensor<2xi32>
}

// CHECK-LABEL: @rng(
// CHECK: %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
// CHECK: return %output_state, %output : tensor<2xui64>, tensor<10x12xui32>
func.func @rng(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>) {
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<10x12xui32>
}

// CHECK-LABEL: @my.square.impl(
// CHECK: %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
// CHECK: return %0 : tensor<4xf32>
func.func private @my.square.impl(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: @composite(
// CHECK: %0 = stablehlo.composite "my.square" %arg0 {composite_attributes = {power = 2 : i64}, decomposition = @my.square.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %1 = stablehlo.composite "my.square" %0 {decomposition = @my.square.impl} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %1 : tensor<4xf32>
func.func @composite(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.composite "my.square" %x {composite_attributes = {power = 2 : i64}, decomposition = @my.square.impl, version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = stablehlo.composite "my.square" %0 {decomposition = @my.square.impl} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// CHECK-LABEL: @batch_norm_inference(
// CHECK: %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 9.99999974E-6 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK: return %0 : tensor<2x3x4xf32>
func.func @batch_norm_inference(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) <{epsilon = 1.000000e-05 : f32, feature_index = 1 : i64}> : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: @conversions(
// CHECK: %0 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<4xf32>
// CHECK: %1 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %2 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4x2xf16>
// CHECK: %3 = stablehlo.bitcast_convert %arg1 : (tensor<4x2xf16>) -> tensor<4xf32>
// CHECK: %4 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
// CHECK: %5 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK: %6 = stablehlo.convert %arg0 : tensor<4xf32>
// CHECK: return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4x2xf16>, tensor<4xf32>, tensor<f32>, tensor<4xbf16>
func.func @conversions(%x: tensor<4xf32>, %h: tensor<4x2xf16>, %i: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4x2xf16>, tensor<4xf32>, tensor<f32>, tensor<4xbf16>) {
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  %1 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
  %2 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xf16>
  %3 = stablehlo.bitcast_convert %h : (tensor<4x2xf16>) -> tensor<4xf32>
  %4 = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
  %5 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  %6 = stablehlo.convert %x : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4x2xf16>, tensor<4xf32>, tensor<f32>, tensor<4xbf16>
}
