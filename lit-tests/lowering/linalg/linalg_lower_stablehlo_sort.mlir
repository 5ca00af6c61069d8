// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// sort: per row, a stable bottom-up merge sort: the row copied into a 1-D
// tensor, ⌈log2 16⌉ = 4 passes run two per iteration between it and a scratch
// buffer, each pass merging runs of width w from one into the other; the merge
// step reads both heads, calls the comparator as comparator(right, left) and
// takes the right head only when it is strictly less (stable).
// CHECK-LABEL: func.func @sort_rows
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%[[X:.*]] = %arg0) -> (tensor<8x16xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[R]], 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
// CHECK: %[[SCRATCH:.*]] = bufferization.alloc_tensor() : tensor<16xf32>
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[P:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[TWO]] step %{{.*}} iter_args(%[[A:.*]] = %[[ROW]], %[[B:.*]] = %[[SCRATCH]])
// CHECK: %[[W:.*]] = arith.shli
// CHECK: %[[W2:.*]] = arith.addi %[[W]], %[[W]] : index
// CHECK: %[[PASS1:.*]] = scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %[[W2]] iter_args(%{{.*}} = %[[B]])
// CHECK: scf.for %[[K:.*]] = %[[S]] to %{{.*}} step %{{.*}} iter_args(%[[I:.*]] = %[[S]], %[[J:.*]] = %{{.*}}, %[[D:.*]] = %{{.*}}) -> (index, index, tensor<16xf32>)
// CHECK: %[[IC:.*]] = arith.minsi %[[I]]
// CHECK: %[[JC:.*]] = arith.minsi %[[J]]
// CHECK: %[[RIGHT:.*]] = tensor.extract %[[A]][%[[JC]]]
// CHECK: %[[LEFT:.*]] = tensor.extract %[[A]][%[[IC]]]
// CHECK: %[[LESS:.*]] = arith.cmpf olt, %[[RIGHT]], %[[LEFT]] : f32
// CHECK: %[[DONE:.*]] = arith.cmpi sge, %[[I]]
// CHECK: %[[OPEN:.*]] = arith.cmpi slt, %[[J]]
// CHECK: %[[PREFER:.*]] = arith.ori %[[DONE]], %[[LESS]]
// CHECK: %[[TAKE:.*]] = arith.andi %[[OPEN]], %[[PREFER]]
// CHECK: %[[PICK:.*]] = arith.select %[[TAKE]], %[[RIGHT]], %[[LEFT]] : f32
// CHECK: tensor.insert %[[PICK]] into %[[D]][%[[K]]]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[A]])
// CHECK: tensor.extract %[[PASS1]]
// CHECK: scf.yield %{{.*}}, %[[PASS1]] : tensor<16xf32>, tensor<16xf32>
// CHECK: tensor.insert_slice %[[P]]#0 into %[[X]][%[[R]], 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<8x16xf32>
func.func @sort_rows(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
