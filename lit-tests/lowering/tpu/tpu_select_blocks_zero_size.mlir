// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-hlo-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo,floors-tpu-select-blocks)'

// Zero-size values have no legal block. floors-fuse's cleanup removes them
// before any floor sees them (floors-hlo-eliminate-zero-sized); fused
// without that cleanup, as here, the refusal names the rule, not a VMEM
// budget.
func.func @zero_rows(%a: tensor<0x128xf32>) -> tensor<0x128xf32> {
  // expected-error @+1 {{floors-tpu-select-blocks: no block of the 0 rows is legal for every window (the rows are zero-size)}}
  %0 = stablehlo.negate %a : tensor<0x128xf32>
  return %0 : tensor<0x128xf32>
}

// -----

func.func @zero_columns(%a: tensor<8x0xf32>) -> tensor<8x0xf32> {
  // expected-error @+1 {{floors-tpu-select-blocks: no block of the 8 rows is legal for every window (dimension 1: block 0 is outside 1..=0)}}
  %0 = stablehlo.negate %a : tensor<8x0xf32>
  return %0 : tensor<8x0xf32>
}
