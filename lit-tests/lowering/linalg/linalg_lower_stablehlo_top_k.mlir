// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// chlo.top_k: per row, a heap of the k best (key, index) pairs, worst at the
// root, started full of sentinels (least key, index i32::MAX). Floats are
// compared by their total-order key: the bits with the magnitude flipped when
// the sign is set. An element replaces the root when the root is worse (a
// smaller key, or an equal key at a larger index) and sifts down ⌊log2 k⌋
// levels; the heap is then drained worst first into positions k-1 ... 0 and
// the values are read back at the indices.
// CHECK-LABEL: func.func @top_k
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args(%[[VO:.*]] = %{{.*}}, %[[IO:.*]] = %{{.*}}) -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK-DAG: %[[LEAST:.*]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[FAR:.*]] = arith.constant 2147483647 : i32
// CHECK: %[[KEYS:.*]] = linalg.fill ins(%[[LEAST]] : i32) outs(%{{.*}} : tensor<3xi32>)
// CHECK: %[[IDXS:.*]] = linalg.fill ins(%[[FAR]] : i32) outs(%{{.*}} : tensor<3xi32>)
// CHECK: %[[HEAP:.*]]:4 = scf.for %[[J:.*]] = %{{.*}} to %c16 step %{{.*}} iter_args(%{{.*}} = %[[KEYS]], %{{.*}} = %[[IDXS]], %[[RK:.*]] = %[[LEAST]], %[[RI:.*]] = %[[FAR]])
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[R]], %[[J]]] : tensor<2x16xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: %[[SIGN:.*]] = arith.shrsi %[[BITS]]
// CHECK: %[[MASK:.*]] = arith.shrui %[[SIGN]]
// CHECK: %[[KEY:.*]] = arith.xori %[[BITS]], %[[MASK]] : i32
// CHECK: %[[JJ:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK: %[[LESS:.*]] = arith.cmpi slt, %[[RK]], %[[KEY]] : i32
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[RK]], %[[KEY]] : i32
// CHECK: %[[LATER:.*]] = arith.cmpi sgt, %[[RI]], %[[JJ]] : i32
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LATER]] : i1
// CHECK: %[[BETTER:.*]] = arith.ori %[[LESS]], %[[TIE]] : i1
// CHECK: scf.if %[[BETTER]] -> (tensor<3xi32>, tensor<3xi32>, i32, i32)
// CHECK: tensor.insert %[[KEY]] into
// CHECK: tensor.insert %[[JJ]] into
// CHECK: } else {
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c3{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[HEAP]]#0, %[[HI:.*]] = %[[HEAP]]#1, %[[V:.*]] = %[[VO]], %[[I:.*]] = %[[IO]])
// CHECK: %[[ROOT:.*]] = tensor.extract %[[HI]][%{{.*}}] : tensor<3xi32>
// CHECK: %[[P:.*]] = arith.subi %{{.*}}, %[[T]] : index
// CHECK: %[[SRC:.*]] = arith.index_cast %[[ROOT]] : i32 to index
// CHECK: %[[VAL:.*]] = tensor.extract %arg0[%[[R]], %[[SRC]]] : tensor<2x16xf32>
// CHECK: tensor.insert %[[VAL]] into %[[V]][%[[R]], %[[P]]] : tensor<2x3xf32>
// CHECK: tensor.insert %[[ROOT]] into %[[I]][%[[R]], %[[P]]] : tensor<2x3xi32>
func.func @top_k(%x: tensor<2x16xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %values, %indices = chlo.top_k(%x, k = 3) : tensor<2x16xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %values, %indices : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Unsigned keys: the sign bit flipped, then compared signed; k = 1: no
// sift-down levels (the new element becomes the root).
// CHECK-LABEL: func.func @top_k_u8
// CHECK: arith.constant -128 : i8
// CHECK: %[[X:.*]] = tensor.extract %arg0
// CHECK: arith.xori %[[X]], %{{.*}} : i8
// CHECK-NOT: scf.for {{.*}} -> (index, i1
// CHECK: return
func.func @top_k_u8(%x: tensor<5xui8>) -> (tensor<1xui8>, tensor<1xi32>) {
  %values, %indices = chlo.top_k(%x, k = 1) : tensor<5xui8> -> (tensor<1xui8>, tensor<1xi32>)
  return %values, %indices : tensor<1xui8>, tensor<1xi32>
}

// -----

// k = 0: empty results, no loops.
// CHECK-LABEL: func.func @top_k_zero
// CHECK-NOT: scf.for
// CHECK: return
func.func @top_k_zero(%x: tensor<4x5xi32>) -> (tensor<4x0xi32>, tensor<4x0xi32>) {
  %values, %indices = chlo.top_k(%x, k = 0) : tensor<4x5xi32> -> (tensor<4x0xi32>, tensor<4x0xi32>)
  return %values, %indices : tensor<4x0xi32>, tensor<4x0xi32>
}
