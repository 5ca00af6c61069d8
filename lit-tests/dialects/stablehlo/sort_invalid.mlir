// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @sort_dimension(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'stablehlo.sort' op dimension = 2 is out of range [-2, 2) for input rank 2}}
  %0 = "stablehlo.sort"(%x) <{dimension = 2 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
// -----
func.func @sort_comparator_args(%x: tensor<16xf32>, %y: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  // expected-error @+1 {{'stablehlo.sort' op comparator must take 4 arguments (two per input), got 2}}
  %0:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}
// -----
func.func @sort_comparator_result(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'stablehlo.sort' op comparator must return one value of type 'tensor<i1>'}}
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
// -----
func.func @sort_shapes(%x: tensor<16xf32>, %y: tensor<8xi32>) -> (tensor<16xf32>, tensor<8xi32>) {
  // expected-error @+1 {{'stablehlo.sort' op input #1 has type 'tensor<8xi32>' but input #0 has shape-incompatible type 'tensor<16xf32>'}}
  %0:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<16xf32>, tensor<8xi32>) -> (tensor<16xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<8xi32>
}
