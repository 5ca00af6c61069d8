// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// sort: per row, a stable bubble sort on tensors in scf.for loops; the
// comparator is called as comparator(x[j+1], x[j]) and swaps when true.
// CHECK-LABEL: func.func @sort_rows
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%{{.*}} = %arg0) -> (tensor<8x16xf32>)
// CHECK: scf.for
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args(%[[T:.*]] = %{{.*}}) -> (tensor<8x16xf32>)
// CHECK: %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK: %[[HI:.*]] = tensor.extract %[[T]][%[[R]], %[[J1]]]
// CHECK: %[[LO:.*]] = tensor.extract %[[T]][%[[R]], %[[J]]]
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[HI]], %[[LO]] : f32
// CHECK: arith.select %[[C]], %[[HI]], %[[LO]]
// CHECK: arith.select %[[C]], %[[LO]], %[[HI]]
// CHECK: tensor.insert
// CHECK: tensor.insert
func.func @sort_rows(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
