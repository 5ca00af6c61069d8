// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Elementwise unary and binary ops: one type when all agree, else functional.

// CHECK-LABEL: @unary_float(
// CHECK: %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
// CHECK: %1 = stablehlo.cbrt %0 : tensor<8x16xf32>
// CHECK: %2 = stablehlo.ceil %1 : tensor<8x16xf32>
// CHECK: %3 = stablehlo.cosine %2 : tensor<8x16xf32>
// CHECK: %4 = stablehlo.exponential %3 : tensor<8x16xf32>
// CHECK: %5 = stablehlo.exponential_minus_one %4 : tensor<8x16xf32>
// CHECK: %6 = stablehlo.floor %5 : tensor<8x16xf32>
// CHECK: %7 = stablehlo.log %6 : tensor<8x16xf32>
// CHECK: %8 = stablehlo.log_plus_one %7 : tensor<8x16xf32>
// CHECK: %9 = stablehlo.logistic %8 : tensor<8x16xf32>
// CHECK: %10 = stablehlo.negate %9 : tensor<8x16xf32>
// CHECK: %11 = stablehlo.round_nearest_afz %10 : tensor<8x16xf32>
// CHECK: %12 = stablehlo.round_nearest_even %11 : tensor<8x16xf32>
// CHECK: %13 = stablehlo.rsqrt %12 : tensor<8x16xf32>
// CHECK: %14 = stablehlo.sign %13 : tensor<8x16xf32>
// CHECK: %15 = stablehlo.sine %14 : tensor<8x16xf32>
// CHECK: %16 = stablehlo.sqrt %15 : tensor<8x16xf32>
// CHECK: %17 = stablehlo.tan %16 : tensor<8x16xf32>
// CHECK: %18 = stablehlo.tanh %17 : tensor<8x16xf32>
// CHECK: return %18 : tensor<8x16xf32>
func.func @unary_float(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %x : tensor<8x16xf32>
  %1 = stablehlo.cbrt %0 : tensor<8x16xf32>
  %2 = stablehlo.ceil %1 : tensor<8x16xf32>
  %3 = stablehlo.cosine %2 : tensor<8x16xf32>
  %4 = stablehlo.exponential %3 : tensor<8x16xf32>
  %5 = stablehlo.exponential_minus_one %4 : tensor<8x16xf32>
  %6 = stablehlo.floor %5 : tensor<8x16xf32>
  %7 = stablehlo.log %6 : tensor<8x16xf32>
  %8 = stablehlo.log_plus_one %7 : tensor<8x16xf32>
  %9 = stablehlo.logistic %8 : tensor<8x16xf32>
  %10 = stablehlo.negate %9 : tensor<8x16xf32>
  %11 = stablehlo.round_nearest_afz %10 : tensor<8x16xf32>
  %12 = stablehlo.round_nearest_even %11 : tensor<8x16xf32>
  %13 = stablehlo.rsqrt %12 : tensor<8x16xf32>
  %14 = stablehlo.sign %13 : tensor<8x16xf32>
  %15 = stablehlo.sine %14 : tensor<8x16xf32>
  %16 = stablehlo.sqrt %15 : tensor<8x16xf32>
  %17 = stablehlo.tan %16 : tensor<8x16xf32>
  %18 = stablehlo.tanh %17 : tensor<8x16xf32>
  return %18 : tensor<8x16xf32>
}

// CHECK-LABEL: @unary_other_types(
// CHECK: %0 = stablehlo.is_finite %arg0 : (tensor<4xf32>) -> tensor<4xi1>
// CHECK: %1 = stablehlo.abs %arg1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK: %2 = stablehlo.count_leading_zeros %arg2 : tensor<4xi32>
// CHECK: %3 = stablehlo.popcnt %2 : tensor<4xi32>
// CHECK: %4 = stablehlo.not %3 : tensor<4xi32>
// CHECK: %5 = stablehlo.not %arg3 : tensor<4xi1>
// CHECK: %6 = stablehlo.exponential %arg1 : tensor<4xcomplex<f32>>
// CHECK: %7 = stablehlo.sqrt %arg4 : tensor<?xbf16>
// CHECK: return %0, %1, %4, %5, %7 : tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<?xbf16>
func.func @unary_other_types(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>, %i: tensor<4xi32>, %b: tensor<4xi1>, %d: tensor<?xbf16>) -> (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<?xbf16>) {
  %0 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.abs %c : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %2 = stablehlo.count_leading_zeros %i : tensor<4xi32>
  %3 = stablehlo.popcnt %2 : tensor<4xi32>
  %4 = stablehlo.not %3 : tensor<4xi32>
  %5 = stablehlo.not %b : tensor<4xi1>
  %6 = stablehlo.exponential %c : tensor<4xcomplex<f32>>
  %7 = stablehlo.sqrt %d : tensor<?xbf16>
  return %0, %1, %4, %5, %7 : tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<?xbf16>
}

// CHECK-LABEL: @binary_float(
// CHECK: %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
// CHECK: %1 = stablehlo.subtract %0, %arg1 : tensor<8x16xf32>
// CHECK: %2 = stablehlo.multiply %1, %arg1 : tensor<8x16xf32>
// CHECK: %3 = stablehlo.divide %2, %arg1 : tensor<8x16xf32>
// CHECK: %4 = stablehlo.remainder %3, %arg1 : tensor<8x16xf32>
// CHECK: %5 = stablehlo.power %4, %arg1 : tensor<8x16xf32>
// CHECK: %6 = stablehlo.maximum %5, %arg1 : tensor<8x16xf32>
// CHECK: %7 = stablehlo.minimum %6, %arg1 : tensor<8x16xf32>
// CHECK: %8 = stablehlo.atan2 %7, %arg1 : tensor<8x16xf32>
// CHECK: return %8 : tensor<8x16xf32>
func.func @binary_float(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32>
  %1 = stablehlo.subtract %0, %b : tensor<8x16xf32>
  %2 = stablehlo.multiply %1, %b : tensor<8x16xf32>
  %3 = stablehlo.divide %2, %b : tensor<8x16xf32>
  %4 = stablehlo.remainder %3, %b : tensor<8x16xf32>
  %5 = stablehlo.power %4, %b : tensor<8x16xf32>
  %6 = stablehlo.maximum %5, %b : tensor<8x16xf32>
  %7 = stablehlo.minimum %6, %b : tensor<8x16xf32>
  %8 = stablehlo.atan2 %7, %b : tensor<8x16xf32>
  return %8 : tensor<8x16xf32>
}

// CHECK-LABEL: @binary_int(
// CHECK: %0 = stablehlo.and %arg0, %arg1 : tensor<8x16xi32>
// CHECK: %1 = stablehlo.or %0, %arg1 : tensor<8x16xi32>
// CHECK: %2 = stablehlo.xor %1, %arg1 : tensor<8x16xi32>
// CHECK: %3 = stablehlo.shift_left %2, %arg1 : tensor<8x16xi32>
// CHECK: %4 = stablehlo.shift_right_logical %3, %arg1 : tensor<8x16xi32>
// CHECK: %5 = stablehlo.shift_right_arithmetic %4, %arg1 : tensor<8x16xi32>
// CHECK: %6 = stablehlo.and %arg2, %arg2 : tensor<i1>
// CHECK: %7 = stablehlo.add %arg3, %arg3 : tensor<3xui8>
// CHECK: return %5, %6, %7 : tensor<8x16xi32>, tensor<i1>, tensor<3xui8>
func.func @binary_int(%a: tensor<8x16xi32>, %b: tensor<8x16xi32>, %p: tensor<i1>, %u: tensor<3xui8>) -> (tensor<8x16xi32>, tensor<i1>, tensor<3xui8>) {
  %0 = stablehlo.and %a, %b : tensor<8x16xi32>
  %1 = stablehlo.or %0, %b : tensor<8x16xi32>
  %2 = stablehlo.xor %1, %b : tensor<8x16xi32>
  %3 = stablehlo.shift_left %2, %b : tensor<8x16xi32>
  %4 = stablehlo.shift_right_logical %3, %b : tensor<8x16xi32>
  %5 = stablehlo.shift_right_arithmetic %4, %b : tensor<8x16xi32>
  %6 = stablehlo.and %p, %p : tensor<i1>
  %7 = stablehlo.add %u, %u : tensor<3xui8>
  return %5, %6, %7 : tensor<8x16xi32>, tensor<i1>, tensor<3xui8>
}

// A dynamic dimension makes the types differ, so the functional type prints.
// CHECK-LABEL: @binary_dynamic(
// CHECK: %0 = stablehlo.add %arg0, %arg1 : (tensor<?x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: return %0 : tensor<8x16xf32>
func.func @binary_dynamic(%a: tensor<?x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : (tensor<?x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// The generic form parses too.
// CHECK-LABEL: @generic_form(
// CHECK: %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
// CHECK: %1 = stablehlo.tanh %0 : tensor<4xf32>
// CHECK: return %1 : tensor<4xf32>
func.func @generic_form(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.tanh"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// An accuracy request (`lax.exp(x, accuracy=...)`), in JAX's spelling: zero
// tolerances elided, the mode qualified or not.
// CHECK-LABEL: @result_accuracy(
// CHECK: stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-04, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
// CHECK: stablehlo.tanh %{{.*}} {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
func.func @result_accuracy(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.exponential %a {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-04, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>
  %1 = stablehlo.tanh %0 {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<4xf32>
  return %1 : tensor<4xf32>
}
