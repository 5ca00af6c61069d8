// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// reduce (compact `applies` form and `reducer` form), reduce_window,
// select_and_scatter.

// CHECK-LABEL: @reduce_compact(
// CHECK: %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.maximum across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
// CHECK: %1 = stablehlo.reduce(%arg2 init: %arg3) applies stablehlo.and across dimensions = [1] : (tensor<5x1xi1>, tensor<i1>) -> tensor<5xi1>
// CHECK: return %0, %1 : tensor<32xf32>, tensor<5xi1>
func.func @reduce_compact(%x: tensor<16x32xf32>, %init: tensor<f32>, %b: tensor<5x1xi1>, %t: tensor<i1>) -> (tensor<32xf32>, tensor<5xi1>) {
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<16x32xf32>, tensor<f32>) -> tensor<32xf32>
  %1 = stablehlo.reduce(%b init: %t) applies stablehlo.and across dimensions = [1] : (tensor<5x1xi1>, tensor<i1>) -> tensor<5xi1>
  return %0, %1 : tensor<32xf32>, tensor<5xi1>
}

// argmax: two inputs need the `reducer` form.
// CHECK-LABEL: @reduce_variadic(
// CHECK: %0:2 = stablehlo.reduce(%arg0 init: %arg2), (%arg1 init: %arg3) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
// CHECK: reducer(%arg4: tensor<f32>, %arg6: tensor<f32>) (%arg5: tensor<i32>, %arg7: tensor<i32>)  {
// CHECK: %1 = stablehlo.compare GT, %arg4, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: %2 = stablehlo.select %1, %arg4, %arg6 : tensor<i1>, tensor<f32>
// CHECK: %3 = stablehlo.select %1, %arg5, %arg7 : tensor<i1>, tensor<i32>
// CHECK: stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
// CHECK: return %0#1 : tensor<8xi32>
func.func @reduce_variadic(%x: tensor<8x16xf32>, %i: tensor<8x16xi32>, %c0: tensor<f32>, %c1: tensor<i32>) -> tensor<8xi32> {
  %0:2 = stablehlo.reduce(%x init: %c0), (%i init: %c1) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>
    %3 = stablehlo.select %1, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
  }
  return %0#1 : tensor<8xi32>
}

// A one-input body that is not a single binary op keeps the `reducer` form.
// CHECK-LABEL: @reduce_long_body(
// CHECK: %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK: reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
// CHECK: %1 = stablehlo.abs %arg3 : tensor<f32>
// CHECK: %2 = stablehlo.add %arg2, %1 : tensor<f32>
// CHECK: stablehlo.return %2 : tensor<f32>
// CHECK: return %0 : tensor<4xf32>
func.func @reduce_long_body(%x: tensor<4x8xf32>, %c: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%x init: %c) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %1 = stablehlo.abs %b : tensor<f32>
    %2 = stablehlo.add %a, %1 : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: @reduce_generic(
// CHECK: %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK: return %0 : tensor<8xf32>
func.func @reduce_generic(%x: tensor<8x16xf32>, %c: tensor<f32>) -> tensor<8xf32> {
  %0 = "stablehlo.reduce"(%x, %c) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%1) : (tensor<f32>) -> ()
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// JAX prints reduce_window generically (cumsum).
// CHECK-LABEL: @reduce_window(
// CHECK: %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{base_dilations = array<i64: 1, 1>, padding = dense<{{\[\[}}0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
// CHECK: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK: %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
// CHECK: stablehlo.return %2 : tensor<f32>
// CHECK: }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
// CHECK: %1 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 2, 4>, window_strides = array<i64: 2, 2>}> ({
// CHECK: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
// CHECK: %2 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
// CHECK: stablehlo.return %2 : tensor<f32>
// CHECK: }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<2x7xf32>
// CHECK: return %0, %1 : tensor<4x16xf32>, tensor<2x7xf32>
func.func @reduce_window(%x: tensor<4x16xf32>, %c: tensor<f32>) -> (tensor<4x16xf32>, tensor<2x7xf32>) {
  %0 = "stablehlo.reduce_window"(%x, %c) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %1 = "stablehlo.reduce_window"(%x, %c) <{window_dimensions = array<i64: 2, 4>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<2x7xf32>
  return %0, %1 : tensor<4x16xf32>, tensor<2x7xf32>
}

// max-pool gradient.
// CHECK-LABEL: @select_and_scatter(
// CHECK: %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %arg2) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %1 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: stablehlo.return %1 : tensor<i1>
// CHECK: }, {
// CHECK: ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
// CHECK: %1 = stablehlo.add %arg3, %arg4 : tensor<f32>
// CHECK: stablehlo.return %1 : tensor<f32>
// CHECK: }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK: return %0 : tensor<4x8xf32>
func.func @select_and_scatter(%x: tensor<4x8xf32>, %src: tensor<2x4xf32>, %c: tensor<f32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %src, %c) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<2x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
