// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// gather: a generic over the result; each start index component is an input
// read at the result's batch position (an affine map, so the ops computing
// the indices fuse into it), the operand is read with tensor.extract.
// CHECK: #[[IDX:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @gather_rows
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.*}}], {{.*}} ins(%arg1 : tensor<5x1xi32>) outs(%{{.*}} : tensor<5x6xf32>)
// CHECK: ^bb0(%[[START:.*]]: i32, %{{.*}}: f32)
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: arith.index_cast %[[START]] : i32 to index
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<10x6xf32>
func.func @gather_rows(%arg0: tensor<10x6xf32>, %arg1: tensor<5x1xi32>) -> tensor<5x6xf32> {
  %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// -----

// scatter: scf.for over the updates carrying the operand, bounds check, update
// computation as scalar code.
// CHECK-LABEL: func.func @scatter_add
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %arg0) -> (tensor<8xf32>)
// CHECK: tensor.extract %arg1[%[[I]], %{{.*}}] : tensor<3x1xi32>
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK: scf.if
// CHECK: arith.addf
// CHECK: tensor.insert
// CHECK: scf.yield
func.func @scatter_add(%arg0: tensor<8xf32>, %arg1: tensor<3x1xi32>, %arg2: tensor<3xf32>) -> tensor<8xf32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
