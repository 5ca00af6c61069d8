// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(floors-hlo-legalize-chlo))' -verify-diagnostics
// RUN: not %floors-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(floors-hlo-legalize-chlo))' 2>&1 | FileCheck %s

// What floors-hlo-legalize-chlo does not expand is reported at the op, never
// skipped or miscompiled: complex special functions (the floors stablehlo
// dialect has no real/imag/complex yet), f64 where APPROXIMATIONS.md gives
// only an f32-accurate recipe, float formats the recipes do not cover, and
// dynamic shapes. Every unsupported op in a function gets its own error.

// CHECK: hlo_legalize_chlo_invalid.mlir:[[# @LINE + 3]]:8: error: floors-hlo-legalize-chlo: chlo.acos: complex element type complex<f32> is not supported yet
func.func @complex_acos(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.acos: complex element type complex<f32> is not supported yet}}
  %0 = chlo.acos %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_square(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.square: complex element type complex<f32> is not supported yet}}
  %0 = chlo.square %x : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// Two unsupported ops: both are reported, in order.
func.func @complex_two(%x: tensor<4xcomplex<f64>>) -> (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.asinh: complex element type complex<f64> is not supported yet}}
  %0 = chlo.asinh %x : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.sinh: complex element type complex<f64> is not supported yet}}
  %1 = chlo.sinh %x : tensor<4xcomplex<f64>> -> tensor<4xcomplex<f64>>
  return %0, %1 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
}

// -----

// CHECK: hlo_legalize_chlo_invalid.mlir:[[# @LINE + 3]]:8: error: floors-hlo-legalize-chlo: chlo.zeta on f64 is not supported yet: the Euler–Maclaurin recipe (N = 9, M = 6) is only f32-accurate
func.func @zeta_f64(%x: tensor<4xf64>, %q: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.zeta on f64 is not supported yet}}
  %0 = chlo.zeta %x, %q : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @polygamma_f64(%n: tensor<4xf64>, %x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.polygamma on f64 is not supported yet}}
  %0 = chlo.polygamma %n, %x : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @bessel_i1e_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.bessel_i1e on f64 is not supported yet: the Chebyshev coefficients are fitted for f32}}
  %0 = chlo.bessel_i1e %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @next_after_f8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.next_after: element type f8E4M3FN is not supported yet (f16, bf16, f32, f64 are)}}
  %0 = chlo.next_after %x, %x : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @lgamma_f80(%x: tensor<4xf80>) -> tensor<4xf80> {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.lgamma: element type f80 is not supported yet}}
  %0 = chlo.lgamma %x : tensor<4xf80> -> tensor<4xf80>
  return %0 : tensor<4xf80>
}

// -----

func.func @dynamic(%x: tensor<?xf32>, %y: tensor<?x4xf32>, %z: tensor<4xf32>) -> (tensor<?xf32>, tensor<?x4xf32>) {
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.erf: dynamic shape tensor<?xf32> is not supported yet}}
  %0 = chlo.erf %x : tensor<?xf32> -> tensor<?xf32>
  // expected-error @+1 {{floors-hlo-legalize-chlo: chlo.broadcast_add: dynamic shape tensor<?x4xf32> is not supported yet}}
  %1 = chlo.broadcast_add %y, %z : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?xf32>, tensor<?x4xf32>
}

