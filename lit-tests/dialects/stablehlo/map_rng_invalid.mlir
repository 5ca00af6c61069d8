// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @map_dimensions(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.map' op dimensions must be [0, ..., 1], but dimensions[0] = 1}}
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 1, 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// -----
func.func @map_arguments(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.map' op computation region must take 2 arguments, got 1}}
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @map_shape(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.map' op result #0 has shape [3] but operand #0 has shape [2]; all operands and results must have the same shape}}
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @rng_normal_int(%a: tensor<i32>, %s: tensor<1xi64>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.rng' op NORMAL needs a floating-point result, got 'i32'}}
  %0 = stablehlo.rng %a, %a, %s, distribution =  NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @rng_shape(%a: tensor<f32>, %s: tensor<2xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.rng' op shape has 2 elements, expected 1 (result rank)}}
  %0 = stablehlo.rng %a, %a, %s, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
