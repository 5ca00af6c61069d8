// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-linalg-lower-stablehlo,func.func(linalg-fuse-elementwise-ops),floors-cpu-pack-matmul,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize),canonicalize,cse)' | FileCheck %s

// Convolutions the packed matmul does not take (small, odd, grouped,
// depthwise, other element types) are direct convolutions: tiled to one
// vector of output features (or, depthwise, channels) × up to 8 output
// columns, the unit loops folded so the window sums become plain indices,
// vectorized; the accumulator is a loop-carried vector through the window
// and input-feature loops, whose body is vector multiply-adds (contract:
// FMAs in machine code), never a scalar loop nest.

// [b, 0, 1, f]x[0, 1, i, o]: 3 output columns × 16 features (two AVX2 vectors).
// CHECK-LABEL: func.func @nhwc_hwio
// CHECK-NOT:   linalg.conv_2d
// CHECK:       scf.for {{.*}} step %c3
// CHECK:         vector.transfer_read {{.*}} : tensor<3x16xf32>, vector<3x16xf32>
// CHECK:         scf.for {{.*}} -> (vector<3x16xf32>)
// CHECK:           scf.for {{.*}} -> (vector<3x16xf32>)
// CHECK:             scf.for {{.*}} -> (vector<3x16xf32>)
// CHECK:               vector.transfer_read {{.*}} : tensor<3x3x4x16xf32>, vector<16xf32>
// CHECK:               arith.mulf {{.*}} fastmath<contract> : vector<3x16xf32>
// CHECK-NEXT:          arith.addf {{.*}} fastmath<contract> : vector<3x16xf32>
// CHECK-NEXT:          scf.yield {{.*}} : vector<3x16xf32>
// CHECK-NOT:   arith.mulf {{.*}} : f32
// CHECK-NOT:   linalg.conv_2d
func.func @nhwc_hwio(%x: tensor<2x9x9x4xf32>, %w: tensor<3x3x4x16xf32>) -> tensor<2x9x9x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x4xf32>, tensor<3x3x4x16xf32>) -> tensor<2x9x9x16xf32>
  return %0 : tensor<2x9x9x16xf32>
}

// [b, f, 0, 1]x[o, i, 0, 1], strided: the operands transposed to NHWC/HWIO
// first, so the kernel vector is contiguous; the result transposed back.
// Its 13 output columns (a prime) are one tile of 8 and a peeled one of 5.
// CHECK-LABEL: func.func @nchw_oihw
// CHECK:       linalg.transpose ins(%arg0 : tensor<2x3x10x11xf32>)
// CHECK:       linalg.transpose ins(%arg1 : tensor<8x3x3x2xf32>)
// CHECK:       scf.for
// CHECK:         scf.for {{.*}} -> (vector<8x8xf32>)
// CHECK:           scf.for {{.*}} -> (vector<8x8xf32>)
// CHECK:             scf.for {{.*}} -> (vector<8x8xf32>)
// CHECK:               vector.transfer_read {{.*}} : tensor<3x2x3x8xf32>, vector<8xf32>
// CHECK:               arith.mulf {{.*}} fastmath<contract> : vector<8x8xf32>
// CHECK-NEXT:          arith.addf {{.*}} fastmath<contract> : vector<8x8xf32>
// CHECK-NEXT:          scf.yield {{.*}} : vector<8x8xf32>
// CHECK:         scf.for {{.*}} -> (vector<5x8xf32>)
// CHECK:               arith.mulf {{.*}} fastmath<contract> : vector<5x8xf32>
// CHECK-NOT:   arith.mulf {{.*}} : f32
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<2x8x5x13xf32>)
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    linalg.yield
func.func @nchw_oihw(%x: tensor<2x3x10x11xf32>, %w: tensor<8x3x3x2xf32>) -> tensor<2x8x5x13xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[1, 0], [2, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x10x11xf32>, tensor<8x3x3x2xf32>) -> tensor<2x8x5x13xf32>
  return %0 : tensor<2x8x5x13xf32>
}

// Depthwise: vectorized over the channels (the groups), 5 output columns,
// every input read a contiguous vector of channels.
// CHECK-LABEL: func.func @depthwise
// CHECK:       scf.for {{.*}} step %c5
// CHECK:         scf.for {{.*}} -> (vector<5x8xf32>)
// CHECK:           scf.for {{.*}} -> (vector<5x8xf32>)
// CHECK:             vector.transfer_read {{.*}} : tensor<2x12x12x8x1xf32>, vector<5x8xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<3x3x1x8x1xf32>, vector<8xf32>
// CHECK:             arith.mulf {{.*}} fastmath<contract> : vector<5x8xf32>
// CHECK-NEXT:        arith.addf {{.*}} fastmath<contract> : vector<5x8xf32>
// CHECK-NEXT:        scf.yield {{.*}} : vector<5x8xf32>
// CHECK-NOT:   arith.mulf {{.*}} : f32
func.func @depthwise(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x1x8xf32>) -> tensor<2x10x10x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64} : (tensor<2x10x10x8xf32>, tensor<3x3x1x8xf32>) -> tensor<2x10x10x8xf32>
  return %0 : tensor<2x10x10x8xf32>
}

// An integer named convolution: generalized by floors-cpu-pack-matmul
// (as every convolution), then vectorized the same way.
// CHECK-LABEL: func.func @nhwc_i32
// CHECK-NOT:   linalg.conv_2d
// CHECK:       scf.for {{.*}} -> (vector<4x8xi32>)
// CHECK:         arith.muli {{.*}} : vector<4x8xi32>
// CHECK-NEXT:    arith.addi {{.*}} : vector<4x8xi32>
// CHECK-NOT:   arith.muli {{.*}} : i32
func.func @nhwc_i32(%x: tensor<1x6x6x3xi32>, %w: tensor<3x3x3x8xi32>) -> tensor<1x4x4x8xi32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x3xi32>, tensor<3x3x3x8xi32>) -> tensor<1x4x4x8xi32>
  return %0 : tensor<1x4x4x8xi32>
}

// 19 output columns (a prime): no column tile divides them, so the column
// loop is tiled by 8 and peeled, the one remainder tile of 3 columns
// vectorized as well (not 19 tiles of one column).
// CHECK-LABEL: func.func @prime_columns
// CHECK:       scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:         scf.for {{.*}} -> (vector<8x8xf32>)
// CHECK:           arith.mulf {{.*}} fastmath<contract> : vector<8x8xf32>
// CHECK:       scf.for {{.*}} -> (vector<3x8xf32>)
// CHECK:         arith.mulf {{.*}} fastmath<contract> : vector<3x8xf32>
// CHECK-NOT:   arith.mulf {{.*}} : f32
func.func @prime_columns(%x: tensor<1x19x19x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x19x19x8xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x19x19x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x19x19x8xf32>
  return %0 : tensor<1x19x19x8xf32>
}
