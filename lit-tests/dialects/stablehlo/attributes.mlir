// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Enum and struct attributes in every spelling the spec allows: comparison
// types, rng algorithms, custom_call api_version 1-4, output_operand_aliases,
// result_accuracy.

// CHECK-LABEL: func.func @compare_types(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<4xui8>, %arg3: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
// CHECK-NEXT: %0 = stablehlo.compare LT, %arg0, %arg0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %1 = stablehlo.compare LE, %arg0, %arg0, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %2 = stablehlo.compare GE, %arg1, %arg1, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %3 = stablehlo.compare GT, %arg2, %arg2, UNSIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
// CHECK-NEXT: %4 = stablehlo.compare NE, %arg3, %arg3, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: %5 = stablehlo.compare EQ, %arg1, %arg1, NOTYPE : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
func.func @compare_types(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<4xui8>, %arg3: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare LT, %arg0, %arg0, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare LE, %arg0, %arg0, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare GE, %arg1, %arg1, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = stablehlo.compare GT, %arg2, %arg2, UNSIGNED : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %4 = stablehlo.compare NE, %arg3, %arg3, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %5 = stablehlo.compare EQ, %arg1, %arg1, NOTYPE : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @rng_algorithms(%arg0: tensor<2xui64>, %arg1: tensor<3xui64>) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xui32>) {
// CHECK-NEXT: %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// CHECK-NEXT: %output_state_0, %output_1 = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
// CHECK-NEXT: %output_state_2, %output_3 = stablehlo.rng_bit_generator %arg1, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
// CHECK-NEXT: return %output, %output_1, %output_3 : tensor<4xui32>, tensor<4xui32>, tensor<4xui32>
func.func @rng_algorithms(%arg0: tensor<2xui64>, %arg1: tensor<3xui64>) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xui32>) {
  %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %output_state_0, %output_1 = stablehlo.rng_bit_generator %arg0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %output_state_2, %output_3 = stablehlo.rng_bit_generator %arg1, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  return %output, %output_1, %output_3 : tensor<4xui32>, tensor<4xui32>, tensor<4xui32>
}

// CHECK-LABEL: func.func @enum_attrs() attributes {a = [#stablehlo<rng_algorithm DEFAULT>, #stablehlo<rng_algorithm THREE_FRY>, #stablehlo<rng_algorithm PHILOX>], c = [#stablehlo<comparison_type NOTYPE>, #stablehlo<comparison_type FLOAT>, #stablehlo<comparison_type TOTALORDER>, #stablehlo<comparison_type SIGNED>, #stablehlo<comparison_type UNSIGNED>], h = #stablehlo.channel_handle<handle = 5, type = 2>} {
// CHECK-NEXT: return
func.func @enum_attrs() attributes {a = [#stablehlo<rng_algorithm DEFAULT>, #stablehlo<rng_algorithm THREE_FRY>, #stablehlo<rng_algorithm PHILOX>], c = [#stablehlo<comparison_type NOTYPE>, #stablehlo<comparison_type FLOAT>, #stablehlo<comparison_type TOTALORDER>, #stablehlo<comparison_type SIGNED>, #stablehlo<comparison_type UNSIGNED>], h = #stablehlo.channel_handle<handle = 5, type = 2>} {
  return
}

// api_version = 1 (API_VERSION_ORIGINAL) is the default: the pretty form
// elides it, as JAX's does; 2-4 print.
// CHECK-LABEL: func.func @custom_call_api_versions(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
// CHECK-NEXT: %0 = stablehlo.custom_call @original(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %1 = stablehlo.custom_call @status_returning(%arg0) {api_version = 2 : i32, backend_config = "cfg"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %2 = stablehlo.custom_call @status_returning_unified(%arg0) {api_version = 3 : i32, backend_config = "cfg"} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %3 = stablehlo.custom_call @typed_ffi(%arg0) {api_version = 4 : i32, backend_config = {alpha = 2.000000e+00 : f32, name = "x"}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %4 = stablehlo.custom_call @jax_ffi(%arg0) {backend_config = "", mhlo.backend_config = {eps = 9.99999974E-6 : f32}} : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
func.func @custom_call_api_versions(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.custom_call @original(%arg0) {api_version = 1 : i32} : (tensor<8xf32>) -> tensor<8xf32>
  %1 = stablehlo.custom_call @status_returning(%arg0) {api_version = 2 : i32, backend_config = "cfg"} : (tensor<8xf32>) -> tensor<8xf32>
  %2 = stablehlo.custom_call @status_returning_unified(%arg0) {api_version = 3 : i32, backend_config = "cfg"} : (tensor<8xf32>) -> tensor<8xf32>
  %3 = stablehlo.custom_call @typed_ffi(%arg0) {api_version = 4 : i32, backend_config = {alpha = 2.000000e+00 : f32, name = "x"}} : (tensor<8xf32>) -> tensor<8xf32>
  %4 = stablehlo.custom_call @jax_ffi(%arg0) {backend_config = "", mhlo.backend_config = {eps = 9.99999974E-6 : f32}} : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @output_operand_aliases(%arg0: tuple<tensor<8xf32>, tensor<2xi32>>, %arg1: tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>> {
// CHECK-NEXT: %0 = stablehlo.custom_call @update(%arg0, %arg1) {has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [0]>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tuple<tensor<8xf32>, tensor<2xi32>>, tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
// CHECK-NEXT: return %0 : tuple<tensor<8xf32>, tensor<8xf32>>
func.func @output_operand_aliases(%arg0: tuple<tensor<8xf32>, tensor<2xi32>>, %arg1: tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>> {
  %0 = stablehlo.custom_call @update(%arg0, %arg1) {has_side_effect = true, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [0]>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>]} : (tuple<tensor<8xf32>, tensor<2xi32>>, tensor<8xf32>) -> tuple<tensor<8xf32>, tensor<8xf32>>
  return %0 : tuple<tensor<8xf32>, tensor<8xf32>>
}

// The mode prints qualified, as JAX prints it; the short `mode = <...>` reads too.
// CHECK-LABEL: func.func @result_accuracy(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %0 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-04, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.tanh %arg0 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.log %arg0 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.sine %arg0 {result_accuracy = #stablehlo.result_accuracy<ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
func.func @result_accuracy(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-04, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  %1 = stablehlo.tanh %arg0 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
  %2 = stablehlo.log %arg0 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<4xf32>
  %3 = stablehlo.sine %arg0 {result_accuracy = #stablehlo.result_accuracy<ulps = 1, mode = <TOLERANCE>>} : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
