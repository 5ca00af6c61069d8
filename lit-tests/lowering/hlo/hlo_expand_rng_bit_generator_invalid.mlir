// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-hlo-expand-rng-bit-generator)'

// XLA's generators read and write 64-bit integer words (the op's verifier
// allows any 64-bit state).
func.func @f64_state(%s: tensor<2xf64>) -> tensor<4xui32> {
  // expected-error @+1 {{floors-hlo-expand-rng-bit-generator: rng_bit_generator: the state must be 64-bit integers (XLA's ui64), not tensor<2xf64>}}
  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xf64>) -> (tensor<2xf64>, tensor<4xui32>)
  return %1 : tensor<4xui32>
}
