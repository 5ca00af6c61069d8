// RUN: %floors compile --target gpu --emit ptx %s | FileCheck %s
// REQUIRES: floors-cli

// Math ops that convert-gpu-to-nvvm leaves (no libdevice function): popcnt,
// count_leading_zeros and the floor and round-to-even inside f32 pow
// (floors' scalar form, computed in f64) go through convert-math-to-llvm to
// LLVM intrinsics NVPTX selects, instead of failing the translation to LLVM IR.
// CHECK: popc.b32
// CHECK: clz.b32
// CHECK-DAG: cvt.rmi.f32.f32
// CHECK-DAG: cvt.rni.f64.f64
func.func @main(%a: tensor<7x33xi32>, %b: tensor<4xui8>, %x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<7x33xi32>, tensor<4xui8>, tensor<8xf32>) {
  %0 = stablehlo.popcnt %a : tensor<7x33xi32>
  %1 = stablehlo.count_leading_zeros %b : tensor<4xui8>
  %2 = stablehlo.power %x, %y : tensor<8xf32>
  return %0, %1, %2 : tensor<7x33xi32>, tensor<4xui8>, tensor<8xf32>
}
