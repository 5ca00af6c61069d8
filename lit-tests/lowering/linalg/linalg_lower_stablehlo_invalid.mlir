// RUN: not %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' 2>&1 | FileCheck %s

// An op the CPU floor cannot lower yet: a located diagnostic naming it, no crash.
// CHECK: linalg_lower_stablehlo_invalid.mlir:[[@LINE+2]]:8: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.convert' on element type f8E4M3FN to linalg yet
func.func @f8(%a: tensor<2xf32>) -> tensor<2xf8E4M3FN> {
  %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// -----

// A custom call inside a fusion: custom calls are runtime thunks, so only
// host-level ones are allowed (a host-level one is left for the runtime).
// CHECK: linalg_lower_stablehlo_invalid.mlir:[[@LINE+3]]:10: error: floors-linalg-lower-stablehlo: a 'stablehlo.custom_call' inside a fusion cannot be lowered
func.func @custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = floors.fusion custom hero "stablehlo.custom_call" (%x = %a : tensor<4xf32>) -> tensor<4xf32> {
    %1 = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
    floors.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// 8-bit floats are not supported yet.
// CHECK: linalg_lower_stablehlo_invalid.mlir:[[@LINE+2]]:8: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.add' on element type f8E4M3FN to linalg yet
func.func @f8(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = stablehlo.add %a, %a : tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// A bitcast_convert between widths is lowered for the element types floors
// has; from f8 it is a located error.
// CHECK: linalg_lower_stablehlo_invalid.mlir:[[@LINE+2]]:8: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.bitcast_convert' on element type f8E4M3FN to linalg yet
func.func @bitcast_widths(%a: tensor<4x4xf8E4M3FN>) -> tensor<4xui32> {
  %0 = stablehlo.bitcast_convert %a : (tensor<4x4xf8E4M3FN>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// An op in a reduce body that has no scalar form.
// CHECK: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.dot_general' in the body of 'stablehlo.reduce' to scalar code yet
func.func @reduce_body(%a: tensor<4xf32>, %i: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.reduce(%a init: %i) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %d = stablehlo.dot_general %x, %y, contracting_dims = [] x [] : (tensor<f32>, tensor<f32>) -> tensor<f32>
    stablehlo.return %d : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// reduce_precision works on the bits of f16, bf16, f32 and f64; on f8 it is
// a located error.
// CHECK: linalg_lower_stablehlo_invalid.mlir:[[@LINE+2]]:8: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.reduce_precision' on element type f8E4M3FN to linalg yet
func.func @rp(%a: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %0 = "stablehlo.reduce_precision"(%a) <{exponent_bits = 2 : i32, mantissa_bits = 1 : i32}> : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}
