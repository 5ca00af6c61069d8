// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// compare (directions x types), select (scalar and shaped predicate), clamp.

// CHECK-LABEL: @compare(
// CHECK: %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %1 = stablehlo.compare NE, %arg0, %arg1, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %2 = stablehlo.compare GE, %arg2, %arg2, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK: %3 = stablehlo.compare GT, %arg3, %arg3, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
// CHECK: %4 = stablehlo.compare LE, %arg4, %arg4, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK: %5 = stablehlo.compare LT, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %6 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>, %u: tensor<4xui32>, %p: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare NE, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare GE, %i, %i, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %3 = stablehlo.compare GT, %u, %u, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %4 = stablehlo.compare LE, %p, %p, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %5 = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: @select(
// CHECK: %0 = stablehlo.select %arg0, %arg2, %arg3 : tensor<i1>, tensor<8x16xf32>
// CHECK: %1 = stablehlo.select %arg1, %arg2, %arg3 : tensor<8x16xi1>, tensor<8x16xf32>
// CHECK: %2 = stablehlo.select %arg1, %arg4, %arg3 : (tensor<8x16xi1>, tensor<?x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
func.func @select(%p: tensor<i1>, %ps: tensor<8x16xi1>, %a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %d: tensor<?x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<8x16xf32>
  %1 = stablehlo.select %ps, %a, %b : tensor<8x16xi1>, tensor<8x16xf32>
  %2 = stablehlo.select %ps, %d, %b : (tensor<8x16xi1>, tensor<?x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: @clamp(
// CHECK: %0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
// CHECK: %1 = stablehlo.clamp %arg3, %arg1, %arg3 : tensor<8x16xf32>
// CHECK: return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
func.func @clamp(%lo: tensor<f32>, %x: tensor<8x16xf32>, %hi: tensor<f32>, %los: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %1 = stablehlo.clamp %los, %x, %los : tensor<8x16xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
}
