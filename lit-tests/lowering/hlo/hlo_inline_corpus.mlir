// JAX's argmax program calls a private helper; after inlining, @main holds
// the reduce and the helper is gone.
// RUN: %floors-opt %corpus/public/argmax.stablehlo.mlir --pass-pipeline='builtin.module(floors-hlo-inline)' | FileCheck %s

// CHECK-LABEL: module @jit_argmax
// CHECK: func.func public @main(%arg0: tensor<8x16xf32>)
// CHECK-NOT: call
// CHECK: stablehlo.iota dim = 1 : tensor<8x16xi32>
// CHECK: stablehlo.reduce(%arg0 init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1]
// CHECK: return %{{.*}}#1 : tensor<8xi32>
// CHECK-NOT: func.func private @argmax
