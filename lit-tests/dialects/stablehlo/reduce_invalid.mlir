// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @reduce_dims(%x: tensor<16x32xf32>, %c: tensor<f32>) -> tensor<32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op dimensions[0] = 2 is out of range for input rank 2}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [2] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
// -----
func.func @reduce_result(%x: tensor<16x32xf32>, %c: tensor<f32>) -> tensor<16xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op result #0 shape [16] does not match the expected shape [32] (dimension 0)}}
  %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
// -----
func.func @reduce_init_type(%x: tensor<16x32xf32>, %c: tensor<i32>) -> tensor<32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op init value #0 element type 'i32' differs from input #0 element type 'f32'}}
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<16x32xf32>, tensor<i32>) -> tensor<32xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    stablehlo.return %a : tensor<f32>
  }
  return %0 : tensor<32xf32>
}
// -----
func.func @reduce_body_args(%x: tensor<16x32xf32>, %c: tensor<f32>) -> tensor<32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op body region must take 2 arguments (2 per input), got 1}}
  %0 = "stablehlo.reduce"(%x, %c) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
// -----
func.func @reduce_body_result(%x: tensor<16x32xf32>, %c: tensor<f32>) -> tensor<32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op body region result #0 has type 'tensor<f16>', expected 'tensor<f32>'}}
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %1 = stablehlo.convert %a : (tensor<f32>) -> tensor<f16>
    stablehlo.return %1 : tensor<f16>
  }
  return %0 : tensor<32xf32>
}
// -----
func.func @reduce_odd_operands(%x: tensor<16x32xf32>, %c: tensor<f32>) -> tensor<32xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op has 3 operands; expected the same number of inputs and init values}}
  %0 = "stablehlo.reduce"(%x, %c, %c) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<16x32xf32>, tensor<f32>, tensor<f32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}
// -----
func.func @reduce_applies_two_inputs(%x: tensor<16xf32>, %c: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce' the 'applies' form takes exactly one input}}
  %0:2 = stablehlo.reduce(%x init: %c), (%x init: %c) applies stablehlo.add across dimensions = [0] : (tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}
// -----
func.func @reduce_window_dims(%x: tensor<4x16xf32>, %c: tensor<f32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op window_dimensions has 1 elements, expected 2 (the input rank)}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
// -----
func.func @reduce_window_result(%x: tensor<4x16xf32>, %c: tensor<f32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op result #0 shape [4, 16] does not match the expected shape [4, 1] (dimension 1)}}
  %0 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 1, 16>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
// -----
func.func @select_and_scatter_select(%x: tensor<4x8xf32>, %src: tensor<2x4xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op select region must return one value of type 'tensor<i1>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %src, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
// -----
func.func @select_and_scatter_source(%x: tensor<4x8xf32>, %src: tensor<2x2xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op source shape [2, 2] does not match the expected shape [2, 4] (dimension 1)}}
  %0 = "stablehlo.select_and_scatter"(%x, %src, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Reduction bodies are functions: they cannot capture values from outside.
func.func @reduce_body_captures(%arg0: tensor<8xf32>, %c: tensor<f32>) -> tensor<f32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
   reducer(%a: tensor<f32>, %b: tensor<f32>)  {
    // expected-error @+1 {{using value defined outside the region}}
    %1 = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}
