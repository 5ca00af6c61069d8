// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo{windows-as-slices=true})'

// A 33×33 window (1,089 positions) is more than the fold unrolls: refused
// at the op.
func.func @too_many_positions(%x: tensor<40x40xf32>) -> tensor<8x8xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{a reduce_window over 1089 window positions cannot be written as slices (windows-as-slices folds at most 1024)}}
  %0 = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 33, 33>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<40x40xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}


// An option value that is not a boolean is an error naming the option.
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo{windows-as-slices=yes})' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// BADVALUE: error: floors-linalg-lower-stablehlo: option `windows-as-slices=yes`: expected true or false, not `yes`
