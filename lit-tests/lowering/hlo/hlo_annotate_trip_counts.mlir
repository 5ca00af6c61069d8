// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-annotate-trip-counts)' -split-input-file | FileCheck %s

// lax.fori_loop(0, 1000, ...) as JAX emits it (after cleanup): counted from
// a constant by 1 up to a constant limit: 1000 iterations.
// CHECK-LABEL: func.func @fori
// CHECK: stablehlo.while
// CHECK: attributes {floors.known_trip_count = 1000 : i64}
func.func @fori(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<1000> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %c = %x) : tensor<i32>, tensor<16xf32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.add %c, %c : tensor<16xf32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<16xf32>
  }
  return %0#1 : tensor<16xf32>
}

// -----

// The counter second, the limit first (GT), the constant 1 first in the add,
// a start of -5 and a limit in the condition block: 12 iterations.
// CHECK-LABEL: func.func @gt_form
// CHECK: attributes {floors.known_trip_count = 12 : i64}
func.func @gt_form(%x: tensor<f32>) -> tensor<f32> {
  %s = stablehlo.constant dense<-5> : tensor<i64>
  %c1 = stablehlo.constant dense<1> : tensor<i64>
  %0:2 = stablehlo.while(%c = %x, %i = %s) : tensor<f32>, tensor<i64>
  cond {
    %n = stablehlo.constant dense<7> : tensor<i64>
    %p = stablehlo.compare GT, %n, %i, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %c1, %i : tensor<i64>
    stablehlo.return %c, %j : tensor<f32>, tensor<i64>
  }
  return %0#0 : tensor<f32>
}

// -----

// A limit below the start: the loop never runs (0), the constants read
// unsigned (4000000000 does not fit an i32's signed range).
// CHECK-LABEL: func.func @unsigned_and_empty
// CHECK: floors.known_trip_count = 0 : i64
// CHECK: floors.known_trip_count = 4000000000 : i64
func.func @unsigned_and_empty(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %c9 = stablehlo.constant dense<9> : tensor<i32>
  %c3 = stablehlo.constant dense<3> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c9, %c = %x) : tensor<i32>, tensor<f32>
  cond {
    %p = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %c : tensor<i32>, tensor<f32>
  }
  %u0 = stablehlo.constant dense<0> : tensor<ui32>
  %u1 = stablehlo.constant dense<1> : tensor<ui32>
  %un = stablehlo.constant dense<4000000000> : tensor<ui32>
  %1:2 = stablehlo.while(%i = %u0, %c = %x) : tensor<ui32>, tensor<f32>
  cond {
    %p = stablehlo.compare LT, %i, %un, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %u1 : tensor<ui32>
    stablehlo.return %j, %c : tensor<ui32>, tensor<f32>
  }
  return %0#1, %1#1 : tensor<f32>, tensor<f32>
}

// -----

// Not counted loops, left alone: LE (one more trip than the difference,
// and i + 1 may wrap), a step of 2, a limit that is a loop value, a
// condition that computes more than the compare, a start that is not a
// constant.
// CHECK-LABEL: func.func @not_counted
// CHECK-NOT: floors.known_trip_count
func.func @not_counted(%x: tensor<f32>, %start: tensor<i32>) -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %n = stablehlo.constant dense<10> : tensor<i32>
  %le = stablehlo.while(%i = %c0) : tensor<i32>
  cond {
    %p = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %step2 = stablehlo.while(%i = %le) : tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c2 : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %var:2 = stablehlo.while(%i = %c0, %m = %n) : tensor<i32>, tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %m, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j, %m : tensor<i32>, tensor<i32>
  }
  %more = stablehlo.while(%i = %c0) : tensor<i32>
  cond {
    %k = stablehlo.multiply %i, %c2 : tensor<i32>
    %p = stablehlo.compare LT, %k, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %dyn = stablehlo.while(%i = %start) : tensor<i32>
  cond {
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %j = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %j : tensor<i32>
  }
  %r0 = stablehlo.add %step2, %var#0 : tensor<i32>
  %r1 = stablehlo.add %r0, %more : tensor<i32>
  %r2 = stablehlo.add %r1, %dyn : tensor<i32>
  return %r2 : tensor<i32>
}
