// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// CHECK-DAG: #[[BIN:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK: linalg.generic {indexing_maps = [#[[BIN]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<16xf32>)
func.func @broadcast_in_dim(%a: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A size-1 operand dim broadcast to a larger one reads index 0.
// CHECK-DAG: #[[M:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @broadcast_expand
// CHECK: linalg.generic {indexing_maps = [#[[M]], #{{.*}}]
func.func @broadcast_expand(%a: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A broadcast of a float splat constant is a splat constant of the result
// type (linalg-fuse-elementwise-ops folds it into its consumers as a
// scalar: layernorm's `sum / 1024` per row, not a buffer of 1024s read back
// per vector); a big one stays a broadcast (an unfolded splat would be a
// global of that size), and so does a broadcast of a non-constant.
// CHECK-LABEL: func.func @broadcast_splat
// CHECK-NOT:   linalg.generic
// CHECK:       %[[C:.*]] = arith.constant dense<1.024000e+03> : tensor<4096x1xf32>
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[C]]
func.func @broadcast_splat() -> tensor<4096x1xf32> {
  %c = stablehlo.constant dense<1.024000e+03> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<4096x1xf32>
  return %0 : tensor<4096x1xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_splat_big
// CHECK:       linalg.generic
// CHECK-NOT:   dense<2.000000e+00> : tensor<1024x1024xf32>
func.func @broadcast_splat_big() -> tensor<1024x1024xf32> {
  %c = stablehlo.constant dense<2.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transpose
// CHECK: linalg.generic {indexing_maps = [#[[T]], #{{.*}}]
func.func @transpose(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<4x6xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
func.func @reshape(%a: tensor<4x6xf32>) -> tensor<2x3x4xf32> {
  %0 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %arg0[1, 0] [2, 3] [2, 2] : tensor<6x6xf32> to tensor<2x3xf32>
func.func @slice(%a: tensor<6x6xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.slice %a [1:5:2, 0:6:2] : (tensor<6x6xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A zero-size slice at the end of a dimension (`x[:, 6:6]`) reads nothing:
// an empty tensor, since extract_slice refuses an offset equal to the size.
// CHECK-LABEL: func.func @slice_zero_size_at_end
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x0xf32>
// CHECK: return %[[E]]
func.func @slice_zero_size_at_end(%a: tensor<6x6xf32>) -> tensor<6x0xf32> {
  %0 = stablehlo.slice %a [0:6, 6:6] : (tensor<6x6xf32>) -> tensor<6x0xf32>
  return %0 : tensor<6x0xf32>
}

// -----

// CHECK-LABEL: func.func @concatenate
// CHECK: %[[E:.*]] = tensor.empty() : tensor<7x6xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [4, 6] [1, 1]
// CHECK: tensor.insert_slice %arg1 into %[[A]][4, 0] [3, 6] [1, 1]
func.func @concatenate(%a: tensor<4x6xf32>, %b: tensor<3x6xf32>) -> tensor<7x6xf32> {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
  return %0 : tensor<7x6xf32>
}

// -----

// Zero-size operands insert nothing (`jnp.diff` of an empty array, a
// cumulative product's empty prefix): a zero-size result is just empty.
// CHECK-LABEL: func.func @concatenate_zero_size
// CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %arg1 into %[[E]][0, 0] [3, 4] [1, 1]
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[Z:.*]] = tensor.empty() : tensor<0x5xi1>
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[R]], %[[Z]]
func.func @concatenate_zero_size(%a: tensor<0x4xf32>, %b: tensor<3x4xf32>, %c: tensor<0x1xi1>, %d: tensor<0x4xi1>) -> (tensor<3x4xf32>, tensor<0x5xi1>) {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.concatenate %c, %d, dim = 1 : (tensor<0x1xi1>, tensor<0x4xi1>) -> tensor<0x5xi1>
  return %0, %1 : tensor<3x4xf32>, tensor<0x5xi1>
}

// -----

// An empty update changes nothing: the operand is the result.
// CHECK-LABEL: func.func @dynamic_update_slice_empty
// CHECK-NOT: tensor.insert_slice
// CHECK: return %arg0
func.func @dynamic_update_slice_empty(%a: tensor<4x6xf32>, %u: tensor<0x6xf32>, %i: tensor<i32>) -> tensor<4x6xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<4x6xf32>, tensor<0x6xf32>, tensor<i32>, tensor<i32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// pad: fill, strided insert for interior padding, slice for negative padding.
// CHECK-LABEL: func.func @pad
// CHECK: %[[V:.*]] = tensor.extract %arg1[] : tensor<f32>
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<9xf32>)
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[2] [4] [2] : tensor<4xf32> into tensor<9xf32>
// CHECK: tensor.extract_slice %{{.*}}[0] [8] [1] : tensor<9xf32> to tensor<8xf32>
func.func @pad(%a: tensor<4xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  %0 = stablehlo.pad %a, %v, low = [2], high = [-1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// dynamic_slice clamps the start indices into [0, dim - size].
// CHECK-LABEL: func.func @dynamic_slice
// CHECK: arith.index_cast
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: tensor.extract_slice %arg0[%{{.*}}, %{{.*}}] [4, 8] [1, 1]
func.func @dynamic_slice(%a: tensor<12x8xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<4x8xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK: tensor.insert_slice %arg1 into %arg0[%{{.*}}, %{{.*}}] [3, 4] [1, 1]
func.func @dynamic_update_slice(%a: tensor<12x8xf32>, %u: tensor<3x4xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<12x8xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %j : (tensor<12x8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}

// -----

// CHECK-LABEL: func.func @iota_constant
// CHECK: linalg.index 1 : index
// CHECK: arith.index_cast
// CHECK: arith.constant dense<1.000000e+00> : tensor<2xf32>
func.func @iota_constant() -> (tensor<2x3xi32>, tensor<2xf32>) {
  %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
  %1 = stablehlo.constant dense<1.0> : tensor<2xf32>
  return %0, %1 : tensor<2x3xi32>, tensor<2xf32>
}

// -----

// CHECK-DAG: #[[R:.*]] = affine_map<(d0) -> (-d0 + 3)>
// CHECK-LABEL: func.func @reverse
// CHECK: linalg.generic {indexing_maps = [#[[R]], #{{.*}}]
func.func @reverse(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reverse %a, dims = [0] : tensor<4xf32>
  return %0 : tensor<4xf32>
}
