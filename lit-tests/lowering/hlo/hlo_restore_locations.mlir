// RUN: %floors-opt %s --pass-pipeline='builtin.module(canonicalize,cse,floors-hlo-restore-locations)' -mlir-print-debuginfo -split-input-file | FileCheck %s

// Two equal constants: CSE keeps one and the folder gives it an unknown
// location; the pass gives it its first user's.
// CHECK-LABEL: func.func @merged
// CHECK: stablehlo.constant dense<3> : tensor<4xui32> loc(#[[USE:loc[0-9]+]])
// CHECK: stablehlo.add {{.*}} loc(#[[USE]])
// CHECK: #[[USE]] = loc("{{.*}}hlo_restore_locations.mlir":{{[0-9]+}}:{{[0-9]+}})
func.func @merged(%a: tensor<4xui32>) -> tensor<4xui32> {
  %c = stablehlo.constant dense<3> : tensor<4xui32>
  %d = stablehlo.constant dense<3> : tensor<4xui32>
  %0 = stablehlo.add %a, %c : tensor<4xui32>
  %1 = stablehlo.multiply %0, %d : tensor<4xui32>
  return %1 : tensor<4xui32>
}

// -----

// Known locations are left alone.
// CHECK-LABEL: func.func @kept
// CHECK: stablehlo.constant dense<1.000000e+00> : tensor<f32> loc(#[[C:loc[0-9]+]])
// CHECK: #[[C]] = loc("here.py":7:3)
func.func @kept() -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32> loc("here.py":7:3)
  return %c : tensor<f32>
}
