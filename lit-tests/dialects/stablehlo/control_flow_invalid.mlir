// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @while_cond_type(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.while' op cond returns ('tensor<i32>') but the op expects ('tensor<i1>')}}
  %0 = stablehlo.while(%i = %x) : tensor<i32>
  cond {
    stablehlo.return %i : tensor<i32>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  return %0 : tensor<i32>
}
// -----
func.func @while_body_type(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.while' op body returns ('tensor<f32>') but the op expects ('tensor<i32>')}}
  %0 = stablehlo.while(%i = %x) : tensor<i32>
  cond {
    %1 = stablehlo.compare LT, %i, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }
  return %0 : tensor<i32>
}
// -----
func.func @while_type_count(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{custom op 'stablehlo.while' expected 1 types, got 2}}
  %0 = stablehlo.while(%i = %x) : tensor<i32>, tensor<i32>
  cond {
    %1 = stablehlo.compare LT, %i, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i32>
  }
  return %0 : tensor<i32>
}
// -----
func.func @case_branch_type(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op branch #1 returns ('tensor<4xf16>') but the op expects ('tensor<4xf32>')}}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %1 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf16>
    stablehlo.return %1 : tensor<4xf16>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @case_index_type(%i: tensor<i64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.case' op operand #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @case_no_branch(%i: tensor<i32>) -> () {
  // expected-error @+1 {{'stablehlo.case' op needs at least one branch}}
  "stablehlo.case"(%i) : (tensor<i32>) -> ()
  return
}
// -----
func.func @if_branch_args(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.if' op true_branch arguments ('tensor<4xf32>') must match ()}}
  %0 = "stablehlo.if"(%p) ({
  ^bb0(%a: tensor<4xf32>):
    stablehlo.return %a : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @if_pred(%p: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.if' op operand #0 must be 0D tensor of bool values, but got 'tensor<2xi1>'}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<2xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @return_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.return' op must terminate a region of a stablehlo op (use func.return in func.func)}}
  stablehlo.return %x : tensor<4xf32>
}
// -----
func.func @optimization_barrier_types(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op result types must match the operand types}}
  %0 = "stablehlo.optimization_barrier"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
