// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo{keep-sorts=true conv-as-dots=true windows-as-slices=true},floors-tpu-select-blocks,floors-tpu-emit-kernels,floors-tpu-check-legality)' | FileCheck %s

// Windowed ops on the TPU floor: convolutions, interior padding, pooling.

// A 3×3 convolution as shifted matmuls on the MXU, as a Pallas author
// writes it: the input padded in VMEM, then per kernel position the shifted
// window reshaped to [N·H·W, C] and one tpu.matmul with that position's
// [C, O] slice of the kernel, accumulated; reshaped to NHWC at the end.
// CHECK-LABEL: func.func @conv3x3
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "whole"
// CHECK: func.func @fusion_0(%{{.*}}: memref<1x8x8x4xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<3x3x4x8xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<1x8x8x8xf32, #tpu.memory_space<vmem>>)
// CHECK: %[[PAD:.*]] = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 1, 1, 0], strides = [1, 1, 1, 1]} : vector<1x8x8x4xf32> into vector<1x10x10x4xf32>
// CHECK: %[[X:.*]] = vector.extract_strided_slice %[[PAD]] {offsets = [0, 0, 0, 0], sizes = [1, 8, 8, 4], strides = [1, 1, 1, 1]}
// CHECK: %[[W:.*]] = vector.extract_strided_slice %{{.*}} {offsets = [0, 0, 0, 0], sizes = [1, 1, 4, 8], strides = [1, 1, 1, 1]}
// CHECK: %[[X2:.*]] = vector.shape_cast %[[X]] : vector<1x8x8x4xf32> to vector<64x4xf32>
// CHECK: %[[W2:.*]] = vector.shape_cast %[[W]] : vector<1x1x4x8xf32> to vector<4x8xf32>
// CHECK: %[[ACC:.*]] = tpu.matmul %[[X2]], %[[W2]], %{{.*}} {{.*}} : vector<64x4xf32>, vector<4x8xf32>, vector<64x8xf32> -> vector<64x8xf32>
// CHECK: vector.extract_strided_slice %[[PAD]] {offsets = [0, 0, 1, 0]
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: tpu.matmul
// CHECK: %[[LAST:.*]] = tpu.matmul
// CHECK-NOT: tpu.matmul
// CHECK: vector.shape_cast %{{.*}} : vector<64x8xf32> to vector<1x8x8x8xf32>
// CHECK: tpu.vector_store
func.func @conv3x3(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Interior padding (a strided insert; also the input dilation of a
// transposed convolution): Mosaic's vectors have no strided insert, so the
// source is spread over the region it lands in slice by slice — first along
// dim 1 onto the region's rows that receive it (picked: 0, 3, 6, 9), then
// along dim 0 onto the region — and the region inserted with unit strides.
// CHECK-LABEL: func.func @interior_pad
// CHECK: %[[REGION:.*]] = vector.extract_strided_slice %[[DEST:.*]] {offsets = [1, 0], sizes = [5, 10], strides = [1, 1]} : vector<6x11xf32> to vector<5x10xf32>
// CHECK: vector.extract_strided_slice %[[REGION]] {offsets = [0, 9], sizes = [5, 1], strides = [1, 1]}
// CHECK: %[[ROWS:.*]] = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 3], strides = [1, 1]} : vector<5x1xf32> into vector<5x4xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [2, 0], sizes = [1, 4], strides = [1, 1]} : vector<3x4xf32> to vector<1x4xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [4, 0], strides = [1, 1]} : vector<1x4xf32> into vector<5x4xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 9], strides = [1, 1]} : vector<5x1xf32> into vector<5x10xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %[[DEST]] {offsets = [1, 0], strides = [1, 1]} : vector<5x10xf32> into vector<6x11xf32>
func.func @interior_pad(%x: tensor<3x4xf32>, %p: tensor<f32>) -> tensor<6x11xf32> {
  %0 = stablehlo.pad %x, %p, low = [1, 0], high = [0, 1], interior = [1, 2] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x11xf32>
  return %0 : tensor<6x11xf32>
}

// -----

// Max pooling 2×2/2 as a fold over the 4 window positions: each position's
// strided slice (Mosaic's vectors have no strided slice: picked row by row,
// then column by column) combined into the accumulator with one vector max.
// CHECK-LABEL: func.func @max_pool
// CHECK: func.func @fusion_0
// CHECK: vector.extract_strided_slice %[[IN:.*]] {offsets = [0, 0, 0, 0], sizes = [2, 7, 7, 128], strides = [1, 1, 1, 1]}
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 6, 0, 0], sizes = [2, 1, 7, 128], strides = [1, 1, 1, 1]}
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<2x4x4x128xf32>
// CHECK: vector.extract_strided_slice %[[IN]] {offsets = [0, 0, 1, 0], sizes = [2, 7, 7, 128], strides = [1, 1, 1, 1]}
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<2x4x4x128xf32>
// CHECK: vector.extract_strided_slice %[[IN]] {offsets = [0, 1, 0, 0]
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<2x4x4x128xf32>
// CHECK: vector.extract_strided_slice %[[IN]] {offsets = [0, 1, 1, 0]
// CHECK: %[[Y:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<2x4x4x128xf32>
// CHECK-NOT: arith.maximumf
// CHECK: tpu.vector_store %{{.*}}[%{{.*}}], %[[Y]]
func.func @max_pool(%x: tensor<2x8x8x128xf32>) -> tensor<2x4x4x128xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x8x8x128xf32>, tensor<f32>) -> tensor<2x4x4x128xf32>
  return %0 : tensor<2x4x4x128xf32>
}
