// RUN: %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-linalg-scalarize-extracts))' -split-input-file | FileCheck %s

// A fused scatter's index wrap (JAX's `select(i < 0, i + n, i)`, broadcast
// to [n, 1]) read by the scatter loop: the wrap is computed in the loop at
// the extracted point and the generic (and its tensor) is gone.
// CHECK-LABEL: func.func @scatter_indices
// CHECK-NOT:   linalg.generic
// CHECK:       scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[X:.*]] = tensor.extract %arg1[%[[I]]] : tensor<16xi32>
// CHECK:         %[[Z:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK:         %[[N:.*]] = tensor.extract %{{.*}}[] : tensor<i32>
// CHECK:         %[[LT:.*]] = arith.cmpi slt, %[[X]], %[[Z]] : i32
// CHECK:         %[[W:.*]] = arith.addi %[[X]], %[[N]] : i32
// CHECK:         %[[S:.*]] = arith.select %[[LT]], %[[W]], %[[X]] : i32
// CHECK:         arith.index_cast %[[S]] : i32 to index
#b = affine_map<(d0, d1) -> ()>
#p = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scatter_indices(%x: tensor<16xf32>, %idx: tensor<16xi32>, %upd: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant dense<0> : tensor<i32>
  %n = arith.constant dense<16> : tensor<i32>
  %e = tensor.empty() : tensor<16x1xi32>
  %w = linalg.generic {indexing_maps = [#p, #b, #b, #id], iterator_types = ["parallel", "parallel"]}
      ins(%idx, %zero, %n : tensor<16xi32>, tensor<i32>, tensor<i32>) outs(%e : tensor<16x1xi32>) {
  ^bb0(%i: i32, %z: i32, %m: i32, %out: i32):
    %lt = arith.cmpi slt, %i, %z : i32
    %wr = arith.addi %i, %m : i32
    %s = arith.select %lt, %wr, %i : i32
    linalg.yield %s : i32
  } -> tensor<16x1xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %x) -> (tensor<16xf32>) {
    %zi = arith.constant 0 : index
    %j32 = tensor.extract %w[%k, %zi] : tensor<16x1xi32>
    %j = arith.index_cast %j32 : i32 to index
    %old = tensor.extract %acc[%j] : tensor<16xf32>
    %u = tensor.extract %upd[%k] : tensor<16xf32>
    %sum = arith.addf %old, %u : f32
    %ins = tensor.insert %sum into %acc[%j] : tensor<16xf32>
    scf.yield %ins : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// linalg.index stands for the extracted index; a permuted input map reads
// the input at the permuted point.
// CHECK-LABEL: func.func @index_and_permutation
// CHECK-NOT:   linalg.generic
// CHECK:       %[[T:.*]] = tensor.extract %arg0[%arg3, %arg2] : tensor<4x3xi32>
// CHECK:       %[[D:.*]] = arith.index_cast %arg2 : index to i32
// CHECK:       %[[A:.*]] = arith.addi %[[T]], %[[D]] : i32
// CHECK:       return %[[A]] : i32
#t = affine_map<(d0, d1) -> (d1, d0)>
#i2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @index_and_permutation(%a: tensor<4x3xi32>, %out: tensor<3x4xi32>, %i: index, %j: index) -> i32 {
  %g = linalg.generic {indexing_maps = [#t, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x3xi32>) outs(%out : tensor<3x4xi32>) {
  ^bb0(%in: i32, %o: i32):
    %d = linalg.index 0 : index
    %d32 = arith.index_cast %d : index to i32
    %s = arith.addi %in, %d32 : i32
    linalg.yield %s : i32
  } -> tensor<3x4xi32>
  %v = tensor.extract %g[%i, %j] : tensor<3x4xi32>
  return %v : i32
}

// -----

// Not applied: another use besides extracts (the tensor is needed anyway),
// an expensive body (math), a reduction.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-3: linalg.generic
#e1 = affine_map<(d0) -> (d0)>
#e0 = affine_map<(d0) -> ()>
func.func @kept(%a: tensor<8xf32>, %o: tensor<8xf32>, %s: tensor<f32>, %i: index) -> (f32, f32, f32, tensor<8xf32>) {
  %g = linalg.generic {indexing_maps = [#e1, #e1], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) {
  ^bb0(%in: f32, %x: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %v = tensor.extract %g[%i] : tensor<8xf32>
  %h = linalg.generic {indexing_maps = [#e1, #e1], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>) {
  ^bb0(%in: f32, %x: f32):
    %n = math.exp %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %w = tensor.extract %h[%i] : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#e1, #e0], iterator_types = ["reduction"]} ins(%a : tensor<8xf32>) outs(%s : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %n = arith.addf %in, %acc : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %u = tensor.extract %r[] : tensor<f32>
  return %v, %w, %u, %g : f32, f32, f32, tensor<8xf32>
}
