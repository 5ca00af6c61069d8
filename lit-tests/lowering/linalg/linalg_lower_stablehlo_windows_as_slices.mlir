// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo{windows-as-slices=true})' | FileCheck %s

// Max pooling 3×3/2 with SAME padding: the input padded with the init
// value, then per window position (row-major) its slice at that offset,
// strided by the window stride, combined into the accumulators (init
// first): body(acc, x) — the order the direct form folds a window in.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[PAD:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [1, 6, 6, 2] [1, 1, 1, 1] : tensor<1x6x6x2xf32> into tensor<1x7x7x2xf32>
// CHECK: %[[ACC0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3x3x2xf32>)
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[PAD]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[ACC1:.*]] = linalg.generic {{.*}} ins(%[[S0]] : tensor<1x3x3x2xf32>) outs(%[[ACC0]] : tensor<1x3x3x2xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[A:.*]]: f32):
// CHECK: arith.maximumf %[[A]], %[[X]] : f32
// CHECK: tensor.extract_slice %[[PAD]][0, 0, 1, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: outs(%[[ACC1]] : tensor<1x3x3x2xf32>)
// CHECK: tensor.extract_slice %[[PAD]][0, 2, 2, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[LAST:.*]] = linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return %[[LAST]]
func.func @max_pool(%x: tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x6x6x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

// A cumulative sum (JAX's cumsum: window 5 over 5 with padding (4, 0)) as a
// doubling scan: steps 1, 2, 4 each add the partial sums k to the left into
// the elements from k on, then the init value once, on the left.
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[L1:.*]] = tensor.extract_slice %arg0[0, 0] [2, 4] [1, 1]
// CHECK: %[[R1:.*]] = tensor.extract_slice %arg0[0, 1] [2, 4] [1, 1]
// CHECK: %[[S1:.*]] = linalg.generic {{.*}} ins(%[[L1]], %[[R1]] : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK: %[[Y1:.*]] = tensor.insert_slice %[[S1]] into %arg0[0, 1] [2, 4] [1, 1]
// CHECK: tensor.extract_slice %[[Y1]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.extract_slice %[[Y1]][0, 2] [2, 3] [1, 1]
// CHECK: %[[Y2:.*]] = tensor.insert_slice %{{.*}} into %[[Y1]][0, 2] [2, 3] [1, 1]
// CHECK: tensor.extract_slice %[[Y2]][0, 0] [2, 1] [1, 1]
// CHECK: tensor.extract_slice %[[Y2]][0, 4] [2, 1] [1, 1]
// CHECK: %[[Y4:.*]] = tensor.insert_slice %{{.*}} into %[[Y2]][0, 4] [2, 1] [1, 1]
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.generic {{.*}} ins(%[[INIT]], %[[Y4]] : tensor<2x5xf32>, tensor<2x5xf32>)
func.func @cumsum(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [4, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 5>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Max pooling's gradient (select_and_scatter, window 3×3/2, padded by one
// at the end): the select fold keeps per source element the best value,
// whether an in-bounds element was seen (the padded in-bounds mask) and
// the selected window position (taken when nothing is selected yet or
// select(best, x) is false); the scatter fold adds the source into the
// padded result's strided slice at each position where it was selected
// and puts the slice back; the padding is cut off.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK: %[[X:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<5x5xf32>
// CHECK: %[[MASK:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [4, 4] [1, 1] : tensor<4x4xi1> into tensor<5x5xi1>
// CHECK: %[[V0:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 2] [2, 2]
// CHECK: %[[M0:.*]] = tensor.extract_slice %[[MASK]][0, 0] [2, 2] [2, 2]
// CHECK: linalg.generic {{.*}} ins(%[[V0]], %[[M0]] : tensor<2x2xf32>, tensor<2x2xi1>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xi1>, tensor<2x2xi32>)
// CHECK: arith.cmpf oge
// CHECK: tensor.extract_slice %[[X]][2, 2] [2, 2] [2, 2]
// CHECK: %[[SEL:.*]]:3 = linalg.generic
// CHECK: %[[R0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<5x5xf32>)
// CHECK: %[[C0:.*]] = tensor.extract_slice %[[R0]][0, 0] [2, 2] [2, 2]
// CHECK: %[[N0:.*]] = linalg.generic {{.*}} ins(%[[C0]], %arg1, %[[SEL]]#1, %[[SEL]]#2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xi1>, tensor<2x2xi32>)
// CHECK: arith.addf
// CHECK: arith.cmpi eq
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[N0]] into %[[R0]][0, 0] [2, 2] [2, 2]
// CHECK: tensor.extract_slice %[[R1]][0, 1] [2, 2] [2, 2]
// CHECK: %[[RN:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[2, 2] [2, 2] [2, 2]
// CHECK: %[[OUT:.*]] = tensor.extract_slice %[[RN]][0, 0] [4, 4] [1, 1] : tensor<5x5xf32> to tensor<4x4xf32>
// CHECK: return %[[OUT]]
func.func @max_pool_grad(%x: tensor<4x4xf32>, %g: tensor<2x2xf32>) -> tensor<4x4xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %g, %zero) <{padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
