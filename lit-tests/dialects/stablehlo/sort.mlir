// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// sort (JAX prints it generically).

// CHECK-LABEL: @sort_rows(
// CHECK: %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
// CHECK: ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
// CHECK: %1 = stablehlo.compare LT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: stablehlo.return %1 : tensor<i1>
// CHECK: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: return %0 : tensor<8x16xf32>
func.func @sort_rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Key/value sort; the default dimension -1 is the last one.
// CHECK-LABEL: @sort_pairs(
// CHECK: %0:2 = "stablehlo.sort"(%arg0, %arg1) ({
// CHECK: ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
// CHECK: %1 = stablehlo.compare GT, %arg2, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
// CHECK: stablehlo.return %1 : tensor<i1>
// CHECK: }) : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
// CHECK: return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
func.func @sort_pairs(%k: tensor<16xf32>, %v: tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>) {
  %0:2 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<16xf32>, tensor<16xi32>) -> (tensor<16xf32>, tensor<16xi32>)
  return %0#0, %0#1 : tensor<16xf32>, tensor<16xi32>
}
