// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// while → scf.while; the condition's 0-d predicate is extracted; the bodies'
// ops are lowered in place.
// CHECK-LABEL: func.func @fori
// CHECK: %{{.*}}:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[X:.*]] = %arg0) : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
// CHECK: arith.cmpi slt
// CHECK: %[[P:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.condition(%[[P]]) %[[I]], %[[X]] : tensor<i32>, tensor<4xf32>
// CHECK: } do {
// CHECK: arith.addi
// CHECK: arith.mulf
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<i32>, tensor<4xf32>
// CHECK-NOT: stablehlo
func.func @fori(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %x = %arg0) : tensor<i32>, tensor<4xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %y = stablehlo.multiply %x, %x : tensor<4xf32>
    stablehlo.return %j, %y : tensor<i32>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}

// -----

// case → scf.index_switch: branch i for index i, the last branch for anything
// out of range (the default region).
// CHECK-LABEL: func.func @case
// CHECK: %[[S:.*]] = tensor.extract %arg0[] : tensor<i32>
// CHECK: %[[I:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK: scf.index_switch %[[I]] -> tensor<4xf32>
// CHECK: case 0 {
// CHECK: arith.negf
// CHECK: case 1 {
// CHECK: math.exp
// CHECK: default {
// CHECK: math.absf
func.func @case(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.case"(%i) ({
    %a = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    %b = stablehlo.exponential %x : tensor<4xf32>
    stablehlo.return %b : tensor<4xf32>
  }, {
    %c = stablehlo.abs %x : tensor<4xf32>
    stablehlo.return %c : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @if
// CHECK: %[[P:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: scf.if %[[P]] -> (tensor<4xf32>)
// CHECK: arith.negf
// CHECK: } else {
// CHECK: scf.yield %arg1
func.func @if(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.if"(%p) ({
    %a = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %a : tensor<4xf32>
  }, {
    stablehlo.return %x : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
