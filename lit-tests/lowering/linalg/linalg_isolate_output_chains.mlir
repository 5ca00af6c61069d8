// RUN: %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-linalg-isolate-output-chains))' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-linalg-isolate-output-chains),eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' -split-input-file | FileCheck %s --check-prefix=BUF

// Two reductions whose accumulators CSE merged into one fill, each written to
// its own output: each gets its own fill (and empty), so each accumulates in
// place in its own output. Without the pass, the second sum was computed in
// the first output's buffer and copied out after the first sum overwrote it.
// CHECK-LABEL: func.func @two_sums
// CHECK-DAG:   %[[E1:.*]] = tensor.empty() : tensor<f32>
// CHECK-DAG:   %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] : tensor<f32>)
// CHECK-DAG:   %[[E2:.*]] = tensor.empty() : tensor<f32>
// CHECK-DAG:   %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<f32>)
// CHECK:       linalg.generic {{.*}} outs(%[[F2]] : tensor<f32>)
// CHECK:       linalg.generic {{.*}} outs(%[[F1]] : tensor<f32>)
// BUF-LABEL:   func.func @two_sums
// BUF-SAME:    %[[O1:[a-z0-9]+]]: memref<f32>, %[[O2:[a-z0-9]+]]: memref<f32>)
// BUF-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%[[O1]] : memref<f32>)
// BUF-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%[[O2]] : memref<f32>)
// BUF:         linalg.generic {{.*}} outs(%[[O1]] : memref<f32>)
// BUF:         linalg.generic {{.*}} outs(%[[O2]] : memref<f32>)
// BUF-NOT:     memref.alloc
#id = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @two_sums(%a: tensor<3xf32> {bufferization.writable = false}, %b: tensor<3xf32> {bufferization.writable = false}, %o1: memref<f32>, %o2: memref<f32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<f32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
  %2 = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction"]} ins(%a : tensor<3xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %3 = linalg.generic {indexing_maps = [#id, #id, #sc], iterator_types = ["reduction"]} ins(%a, %b : tensor<3xf32>, tensor<3xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  bufferization.materialize_in_destination %2 in restrict writable %o1 : (tensor<f32>, memref<f32>) -> ()
  bufferization.materialize_in_destination %3 in restrict writable %o2 : (tensor<f32>, memref<f32>) -> ()
  return
}

// -----

// The shared value is computed (not a fill): the chain that reaches an
// output takes a copy of it, the other use keeps the original.
// CHECK-LABEL: func.func @shared_computed_init
// BUF-LABEL:   func.func @shared_computed_init
// CHECK:       %[[V:.*]] = linalg.generic
// CHECK:       %[[C:.*]] = bufferization.alloc_tensor() copy(%[[V]]) : tensor<4xf32>
// CHECK:       linalg.generic {{.*}} outs(%[[C]] : tensor<4xf32>)
// CHECK:       linalg.generic {{.*}} outs(%[[V]] : tensor<4xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @shared_computed_init(%a: tensor<4xf32> {bufferization.writable = false}, %o1: memref<4xf32>, %o2: memref<4xf32>) {
  %0 = tensor.empty() : tensor<4xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%v : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%v : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  bufferization.materialize_in_destination %2 in restrict writable %o1 : (tensor<4xf32>, memref<4xf32>) -> ()
  bufferization.materialize_in_destination %3 in restrict writable %o2 : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A chain no other op shares is left alone: the fill becomes the output.
// CHECK-LABEL: func.func @exclusive_chain
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT:   bufferization.alloc_tensor
#id = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @exclusive_chain(%a: tensor<3xf32> {bufferization.writable = false}, %o1: memref<f32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<f32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
  %2 = linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction"]} ins(%a : tensor<3xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  bufferization.materialize_in_destination %2 in restrict writable %o1 : (tensor<f32>, memref<f32>) -> ()
  return
}

// -----

// An update of a read-only kernel input (a dynamic_update_slice not done in
// place) first copies the input into a fresh tensor, which
// eliminate-empty-tensors makes the output: one copy, straight into it.
// CHECK-LABEL: func.func @update_input
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK: %[[C:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [16, 8] [1, 1] : tensor<16x8xf32> into tensor<16x8xf32>
// CHECK: %[[U:.*]] = tensor.insert_slice %arg1 into %[[C]]
// CHECK: bufferization.materialize_in_destination %[[U]] in restrict writable %arg2
// BUF-LABEL: func.func @update_input
// BUF: %[[ALL:.*]] = memref.subview %arg2[0, 0] [16, 8] [1, 1]
// BUF-NEXT: memref.copy %arg0, %[[ALL]]
// BUF-NEXT: %[[ROW:.*]] = memref.subview %arg2[3, 0] [1, 8] [1, 1]
// BUF-NEXT: memref.copy %arg1, %[[ROW]]
// BUF-NOT: memref.alloc
func.func @update_input(%x: tensor<16x8xf32> {bufferization.writable = false}, %u: tensor<1x8xf32> {bufferization.writable = false}, %out: memref<16x8xf32>) {
  %r = tensor.insert_slice %u into %x[3, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<16x8xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<16x8xf32>, memref<16x8xf32>) -> ()
  return
}
