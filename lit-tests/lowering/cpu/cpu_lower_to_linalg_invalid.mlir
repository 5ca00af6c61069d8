// RUN: not %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-cpu-lower-to-linalg)' 2>&1 | FileCheck %s

// An op the CPU floor cannot lower yet: a located diagnostic naming it, no crash.
// CHECK: cpu_lower_to_linalg_invalid.mlir:[[@LINE+2]]:8: error: floors-cpu-lower-to-linalg: cannot lower 'stablehlo.custom_call' to linalg yet
func.func @custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Unsigned element types are not supported yet.
// CHECK: cpu_lower_to_linalg_invalid.mlir:[[@LINE+2]]:8: error: floors-cpu-lower-to-linalg: cannot lower 'stablehlo.add' on element type ui32 to linalg yet
func.func @unsigned(%a: tensor<4xui32>) -> tensor<4xui32> {
  %0 = stablehlo.add %a, %a : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// An op in a reduce body that has no scalar form.
// CHECK: error: floors-cpu-lower-to-linalg: cannot lower 'stablehlo.dot_general' in the body of 'stablehlo.reduce' to scalar code yet
func.func @reduce_body(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %d = stablehlo.dot_general %x, %y, contracting_dims = [] x [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %d : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// reduce_precision is not lowered yet.
// CHECK: error: floors-cpu-lower-to-linalg: cannot lower 'stablehlo.reduce_precision' to linalg yet
func.func @rp(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.reduce_precision"(%a) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
