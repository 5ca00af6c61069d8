// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-inline)' 2>&1 | FileCheck %s

// Recursion cannot be flattened; the pass fails at the call, it does not loop.
// CHECK: hlo_inline_recursive.mlir:[[@LINE+7]]:10: error: floors-hlo-inline: calls nest deeper than 256 levels; is '@rec' recursive?
module @recursive {
  func.func public @main(%x: f32) -> f32 {
    %0 = call @rec(%x) : (f32) -> f32
    return %0 : f32
  }
  func.func private @rec(%x: f32) -> f32 {
    %0 = call @rec(%x) : (f32) -> f32
    return %0 : f32
  }
}
