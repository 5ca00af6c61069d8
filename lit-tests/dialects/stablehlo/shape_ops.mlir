// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// reshape, transpose, broadcast_in_dim, broadcast, concatenate, slice,
// dynamic_slice, dynamic_update_slice, pad, reverse, iota, constant.

// CHECK-LABEL: @constants(
// CHECK: %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
// CHECK: %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK: %c_0 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
// CHECK: %cst_1 = stablehlo.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK: %cst_2 = stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>
// CHECK: %c_3 = stablehlo.constant {my.tag = 1 : i32} dense<1> : tensor<i32>
// CHECK: return %cst, %c, %c_0, %cst_1, %cst_2 : tensor<f32>, tensor<i32>, tensor<2xi1>, tensor<2x2xf32>, tensor<2xcomplex<f32>>
func.func @constants() -> (tensor<f32>, tensor<i32>, tensor<2xi1>, tensor<2x2xf32>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.constant dense<0> : tensor<i32>
  %2 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %3 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %4 = stablehlo.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  %5 = stablehlo.constant {my.tag = 1 : i32} dense<1> : tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<i32>, tensor<2xi1>, tensor<2x2xf32>, tensor<2xcomplex<f32>>
}

// CHECK-LABEL: @iota(
// CHECK: %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
// CHECK: %1 = stablehlo.iota dim = 0 : tensor<4xf32>
// CHECK: return %0, %1 : tensor<8x16xi32>, tensor<4xf32>
func.func @iota() -> (tensor<8x16xi32>, tensor<4xf32>) {
  %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %1 = stablehlo.iota dim = 0 : tensor<4xf32>
  return %0, %1 : tensor<8x16xi32>, tensor<4xf32>
}

// CHECK-LABEL: @reshape_transpose(
// CHECK: %0 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<24xf32>
// CHECK: %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
// CHECK: return %0, %1 : tensor<24xf32>, tensor<6x4xf32>
func.func @reshape_transpose(%x: tensor<4x6xf32>) -> (tensor<24xf32>, tensor<6x4xf32>) {
  %0 = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
  %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %0, %1 : tensor<24xf32>, tensor<6x4xf32>
}

// CHECK-LABEL: @broadcasts(
// CHECK: %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
// CHECK: %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
// CHECK: %2 = stablehlo.broadcast %arg1, sizes = [2, 3] : (tensor<16xf32>) -> tensor<2x3x16xf32>
// CHECK: return %0, %1, %2 : tensor<8x16xf32>, tensor<1x16xf32>, tensor<2x3x16xf32>
func.func @broadcasts(%s: tensor<f32>, %v: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<1x16xf32>, tensor<2x3x16xf32>) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
  %1 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
  %2 = stablehlo.broadcast %v, sizes = [2, 3] : (tensor<16xf32>) -> tensor<2x3x16xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<1x16xf32>, tensor<2x3x16xf32>
}

// CHECK-LABEL: @concat_slice(
// CHECK: %0 = stablehlo.concatenate %arg0, %arg1,  dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
// CHECK: %1 = stablehlo.slice %arg2 [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
// CHECK: %2 = stablehlo.slice %arg2 [0:10, 0:9] : (tensor<10x9xf32>) -> tensor<10x9xf32>
// CHECK: %3 = stablehlo.concatenate %arg0,  dim = 1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
// CHECK: return %0, %1, %2 : tensor<7x6xf32>, tensor<4x6xf32>, tensor<10x9xf32>
func.func @concat_slice(%a: tensor<4x6xf32>, %b: tensor<3x6xf32>, %x: tensor<10x9xf32>) -> (tensor<7x6xf32>, tensor<4x6xf32>, tensor<10x9xf32>) {
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
  %1 = stablehlo.slice %x [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
  %2 = stablehlo.slice %x [0:10, 0:9:1] : (tensor<10x9xf32>) -> tensor<10x9xf32>
  %3 = stablehlo.concatenate %a, dim = 1 : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0, %1, %2 : tensor<7x6xf32>, tensor<4x6xf32>, tensor<10x9xf32>
}

// CHECK-LABEL: @dynamic_slices(
// CHECK: %0 = stablehlo.dynamic_slice %arg0, %arg2, %arg3,  sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK: %1 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : (tensor<12x8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
// CHECK: %2 = stablehlo.dynamic_slice %arg4,  sizes = [] : (tensor<f32>) -> tensor<f32>
// CHECK: return %0, %1, %2 : tensor<4x8xf32>, tensor<12x8xf32>, tensor<f32>
func.func @dynamic_slices(%x: tensor<12x8xf32>, %u: tensor<3x4xf32>, %i: tensor<i32>, %j: tensor<i32>, %s: tensor<f32>, %i64: tensor<i64>) -> (tensor<4x8xf32>, tensor<12x8xf32>, tensor<f32>) {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
  %1 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<12x8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
  %2 = stablehlo.dynamic_slice %s, sizes = [] : (tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<12x8xf32>, tensor<f32>
}

// CHECK-LABEL: @pad_reverse(
// CHECK: %0 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<10x9xf32>
// CHECK: %1 = stablehlo.reverse %arg0, dims = [1] : tensor<7x6xf32>
// CHECK: %2 = stablehlo.pad %arg0, %arg1, low = [0, -1], high = [0, -1], interior = [1, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<13x4xf32>
// CHECK: return %0, %1, %2 : tensor<10x9xf32>, tensor<7x6xf32>, tensor<13x4xf32>
func.func @pad_reverse(%x: tensor<7x6xf32>, %v: tensor<f32>) -> (tensor<10x9xf32>, tensor<7x6xf32>, tensor<13x4xf32>) {
  %0 = stablehlo.pad %x, %v, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<10x9xf32>
  %1 = stablehlo.reverse %x, dims = [1] : tensor<7x6xf32>
  %2 = stablehlo.pad %x, %v, low = [0, -1], high = [0, -1], interior = [1, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<13x4xf32>
  return %0, %1, %2 : tensor<10x9xf32>, tensor<7x6xf32>, tensor<13x4xf32>
}
