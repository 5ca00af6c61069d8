// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-hlo-fft-to-call)' -split-input-file | FileCheck %s

// Each stablehlo.fft becomes a call of the runtime's built-in FFT with its
// type and lengths, same operand and result.
// CHECK-LABEL: func.func @rfft2
// CHECK-NOT: stablehlo.fft
// CHECK: %[[C:.*]] = stablehlo.custom_call @floors.fft(%arg0) {mhlo.backend_config = {fft_length = array<i64: 6, 8>, fft_type = "RFFT"}} : (tensor<3x6x8xf32>) -> tensor<3x6x5xcomplex<f32>>
// CHECK: return %[[C]]
func.func @rfft2(%x: tensor<3x6x8xf32>) -> tensor<3x6x5xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = RFFT, length = [6, 8] : (tensor<3x6x8xf32>) -> tensor<3x6x5xcomplex<f32>>
  return %0 : tensor<3x6x5xcomplex<f32>>
}

// -----

// Inside a loop body too.
// CHECK-LABEL: func.func @in_loop
// CHECK: stablehlo.while
// CHECK: stablehlo.custom_call @floors.fft(%{{.*}}) {mhlo.backend_config = {fft_length = array<i64: 7>, fft_type = "IFFT"}} : (tensor<7xcomplex<f64>>) -> tensor<7xcomplex<f64>>
func.func @in_loop(%x: tensor<7xcomplex<f64>>) -> tensor<7xcomplex<f64>> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<7xcomplex<f64>>
  cond {
    %c2 = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %c1 : tensor<i32>
    %f = stablehlo.fft %v, type = IFFT, length = [7] : (tensor<7xcomplex<f64>>) -> tensor<7xcomplex<f64>>
    stablehlo.return %j, %f : tensor<i32>, tensor<7xcomplex<f64>>
  }
  return %0#1 : tensor<7xcomplex<f64>>
}
