// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @compare_signed_float(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.compare' op compare_type SIGNED needs signed integer operands, but they have element type 'f32'}}
  %0 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @compare_unknown_direction(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+2 {{custom op 'stablehlo.compare' expected ::floors::stablehlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
  // expected-error @+1 {{custom op 'stablehlo.compare' failed to parse Stablehlo_ComparisonDirectionAttr parameter 'value' which is to be a `::floors::stablehlo::ComparisonDirection`}}
  %0 = stablehlo.compare LESS, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @compare_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xi1> {
  // expected-error @+1 {{'stablehlo.compare' op lhs element type 'f32' differs from rhs element type 'f16'}}
  %0 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @compare_result_shape(%a: tensor<4xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.compare' op result #0 has shape [2] but operand #0 has shape [4]; all operands and results must have the same shape}}
  %0 = stablehlo.compare EQ, %a, %a, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
// -----
func.func @select_pred_shape(%p: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select' op pred must be a scalar or have the shape of on_true [4], got [3]}}
  %0 = stablehlo.select %p, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @select_branches(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select' op on_true type 'tensor<4xf32>' and on_false type 'tensor<4xi32>' must match}}
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @clamp_min_shape(%lo: tensor<3xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.clamp' op min must be a scalar or have the operand's shape [4], got [3]}}
  %0 = stablehlo.clamp %lo, %x, %x : (tensor<3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
