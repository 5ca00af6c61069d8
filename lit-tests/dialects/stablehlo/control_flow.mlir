// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// while, case, if, optimization_barrier.

// CHECK-LABEL: @while_loop(
// CHECK: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8x16xf32>
// CHECK: cond {
// CHECK: %c_1 = stablehlo.constant dense<5> : tensor<i32>
// CHECK: %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.return %1 : tensor<i1>
// CHECK: %c_1 = stablehlo.constant dense<1> : tensor<i32>
// CHECK: %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
// CHECK: %2 = stablehlo.add %iterArg_0, %iterArg_0 : tensor<8x16xf32>
// CHECK: stablehlo.return %1, %2 : tensor<i32>, tensor<8x16xf32>
// CHECK: return %0#1 : tensor<8x16xf32>
func.func @while_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c, %acc = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %c5 = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %i, %c1 : tensor<i32>
    %2 = stablehlo.add %acc, %acc : tensor<8x16xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8x16xf32>
  }
  return %0#1 : tensor<8x16xf32>
}

// CHECK-LABEL: @while_generic(
// CHECK: %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>
// CHECK: cond {
// CHECK: %1 = stablehlo.compare LT, %iterArg, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: stablehlo.return %1 : tensor<i1>
// CHECK: stablehlo.return %iterArg : tensor<i32>
// CHECK: return %0 : tensor<i32>
func.func @while_generic(%x: tensor<i32>) -> tensor<i32> {
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %a, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: @case(
// CHECK: %0 = "stablehlo.case"(%arg0) ({
// CHECK: %1 = stablehlo.negate %arg1 : tensor<8x16xf32>
// CHECK: stablehlo.return %1 : tensor<8x16xf32>
// CHECK: }, {
// CHECK: %1 = stablehlo.abs %arg1 : tensor<8x16xf32>
// CHECK: stablehlo.return %1 : tensor<8x16xf32>
// CHECK: }) : (tensor<i32>) -> tensor<8x16xf32>
// CHECK: return %0 : tensor<8x16xf32>
func.func @case(%i: tensor<i32>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.case"(%i) ({
    %1 = stablehlo.negate %x : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }, {
    %1 = stablehlo.abs %x : tensor<8x16xf32>
    stablehlo.return %1 : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// CHECK-LABEL: @if(
// CHECK: %0 = "stablehlo.if"(%arg0) ({
// CHECK: stablehlo.return %arg1 : tensor<4xf32>
// CHECK: }, {
// CHECK: %1 = stablehlo.negate %arg1 : tensor<4xf32>
// CHECK: stablehlo.return %1 : tensor<4xf32>
// CHECK: }) : (tensor<i1>) -> tensor<4xf32>
// CHECK: return %0 : tensor<4xf32>
func.func @if(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    %1 = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: @optimization_barrier(
// CHECK: %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<4xf32>, tensor<i32>
// CHECK: return %0#0, %0#1 : tensor<4xf32>, tensor<i32>
func.func @optimization_barrier(%x: tensor<4xf32>, %i: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %0:2 = stablehlo.optimization_barrier %x, %i : tensor<4xf32>, tensor<i32>
  return %0#0, %0#1 : tensor<4xf32>, tensor<i32>
}
