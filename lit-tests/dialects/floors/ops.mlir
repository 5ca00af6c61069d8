// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @loop
// CHECK: %[[R:.*]] = floors.fusion loop hero "arith.addf" (%[[A:.*]] = %arg0 : tensor<8xf32>, %[[B:.*]] = %arg1 : tensor<8xf32>) -> tensor<8xf32> {
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : tensor<8xf32>
// CHECK-NEXT: floors.yield %[[S]] : tensor<8xf32>
// CHECK: return %[[R]]
// GENERIC-LABEL: "func.func"
// GENERIC: "floors.fusion"(%{{.*}}, %{{.*}}) <{hero = "arith.addf", kind = #floors.kind<loop>}>
func.func @loop(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %0 = floors.fusion loop hero "arith.addf" (%a = %arg0 : tensor<8xf32>, %b = %arg1 : tensor<8xf32>) -> tensor<8xf32> {
    %1 = arith.addf %a, %b : tensor<8xf32>
    floors.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// Several results, no hero, extra attributes, every kind keyword.
// CHECK-LABEL: func.func @multi
// CHECK: floors.fusion reduction (%{{.*}} = %arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {note = "x"}
// CHECK: floors.fusion transpose
// CHECK: floors.fusion concatenate
// CHECK: floors.fusion input_slices
// CHECK: floors.fusion scatter
// CHECK: floors.fusion gemm
// CHECK: floors.fusion convolution
// CHECK: floors.fusion custom () -> ()
func.func @multi(%arg0: tensor<4xf32>) {
  %0:2 = floors.fusion reduction (%x = %arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {note = "x"} {
    floors.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  %1 = floors.fusion transpose (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  %2 = floors.fusion concatenate (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  %3 = floors.fusion input_slices (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  %4 = floors.fusion scatter (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  %5 = floors.fusion gemm (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  %6 = floors.fusion convolution (%x = %arg0 : tensor<4xf32>) -> tensor<4xf32> { floors.yield %x : tensor<4xf32> }
  floors.fusion custom () -> () { floors.yield }
  return
}

// A lowered body computes on signless integers where the operands and
// results are unsigned: the body argument's type follows `as`.
// CHECK-LABEL: func.func @storage_types
// CHECK: %[[R:.*]] = floors.fusion loop (%[[A:.*]] = %arg0 : tensor<4xui32> as tensor<4xi32>, %[[B:.*]] = %arg1 : tensor<4xf32>) -> tensor<4xui32> {
// CHECK-NEXT: floors.yield %[[A]] : tensor<4xi32>
// GENERIC-LABEL: "func.func"
// GENERIC: ^bb0(%{{.*}}: tensor<4xi32>, %{{.*}}: tensor<4xf32>):
func.func @storage_types(%arg0: tensor<4xui32>, %arg1: tensor<4xf32>) -> tensor<4xui32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xui32> as tensor<4xi32>, %b = %arg1 : tensor<4xf32>) -> tensor<4xui32> {
    floors.yield %a : tensor<4xi32>
  }
  return %0 : tensor<4xui32>
}

// Isolated from above: the canonicalizer may drop an unused fusion (its body
// is pure), but never reaches into it from outside.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: floors.fusion
// RUN: %floors-opt %s --canonicalize | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func.func @dead
// CANON-NOT: floors.fusion
// CANON: return
func.func @dead(%arg0: tensor<4xf32>) {
  return
}
