// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo{keep-sorts=true},floors-tpu-select-blocks,floors-tpu-emit-kernels,floors-tpu-check-legality)' | FileCheck %s

// Rows sorted along the last dimension: the rows strategy (blocks of rows,
// here one block of all 16), each row whole in its block. A bitonic network on 16 lanes: the partner of
// each element comes from rolls by 15 (i + 1) and 1 (i - 1), ..., the
// original index (tpu.iota) rides along as the tie-break, and a compare
// on both orders decides which element each lane keeps.
// CHECK-LABEL: func.func @sort_rows
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [1], block = [16]>
// CHECK: func.func @fusion_0(%{{.*}}: i32, %{{.*}}: memref<16x16xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<16x16xf32, #tpu.memory_space<vmem>>)
// CHECK: %[[X:.*]] = vector.load
// CHECK: %[[POS:.*]] = tpu.iota {dimensions = array<i32: 1>} : vector<16x16xi32>
// CHECK: %[[UP:.*]] = tpu.dynamic_rotate %[[X]] by %c15_i32{{.*}} dim 1 : vector<16x16xf32>, i32 -> vector<16x16xf32>
// CHECK: %[[DOWN:.*]] = tpu.dynamic_rotate %[[X]] by %c1_i32{{.*}} dim 1 : vector<16x16xf32>, i32 -> vector<16x16xf32>
// CHECK: arith.select %{{.*}}, %[[UP]], %[[DOWN]] : vector<16x16xi1>, vector<16x16xf32>
// CHECK: arith.cmpf olt
// CHECK: tpu.dynamic_rotate %{{.*}} by %c8_i32{{.*}} dim 1
// CHECK-NOT: tpu.dynamic_rotate %{{.*}} by %c16_i32{{.*}}
// CHECK: tpu.vector_store
func.func @sort_rows(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<16x16xf32>) -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// A 1-D sort of 100 elements: the sort dimension cannot be split, so the
// kernel takes the array whole; padded to 128 with tpu.concatenate, sorted,
// sliced back. Two operands (keys and values) move together; TOTALORDER
// compares the floats' bits as integers.
// CHECK-LABEL: func.func @sort_pairs
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "whole"
// CHECK: tpu.concatenate %{{.*}}, %{{.*}} in 0 : vector<100xf32>, vector<28xf32> -> vector<128xf32>
// CHECK: tpu.concatenate %{{.*}}, %{{.*}} in 0 : vector<100xi32>, vector<28xi32> -> vector<128xi32>
// CHECK: arith.bitcast %{{.*}} : vector<128xf32> to vector<128xi32>
// CHECK: arith.shrsi
// CHECK: tpu.dynamic_rotate %{{.*}} by %c64_i32{{.*}} dim 0
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [100], strides = [1]} : vector<128xf32> to vector<100xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [100], strides = [1]} : vector<128xi32> to vector<100xi32>
func.func @sort_pairs(%k: tensor<100xf32>, %v: tensor<100xi32>) -> (tensor<100xf32>, tensor<100xi32>) {
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) : (tensor<100xf32>, tensor<100xi32>) -> (tensor<100xf32>, tensor<100xi32>)
  return %0#0, %0#1 : tensor<100xf32>, tensor<100xi32>
}
