// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo,floors-tpu-select-blocks,floors-tpu-emit-kernels,floors-tpu-check-legality)'

// Each case pins a plan (floors-tpu-select-blocks keeps a pinned plan) that
// breaks one of Mosaic's rules; the error names the operand, the
// dimension, the rule and a block that would fit.

// The lane dimension: columns of a column sum in blocks of 64 of 512,
// neither a multiple of 128 nor the whole (and too small for rank 1).
func.func @lanes(%a: tensor<8x512xf32>) -> tensor<512xf32> {
  // expected-error @+2 {{operand 0 (array [8, 512], block [8, 64]): dimension 1 (lanes): block 64 must be a multiple of 128 or equal the array's 512; 128 would fit}}
  // expected-error @+1 {{result 0 (array [512], block [64]): dimension 0 (rank 1): block 64 must equal the array's 512, be a multiple of 1024, or a power of two ≥ 128; 128 would fit}}
  %0 = floors.fusion reduction hero "stablehlo.reduce" (%x = %a : tensor<8x512xf32>) -> tensor<512xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [8], block = [64]>} {
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %1 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x512xf32>, tensor<f32>) -> tensor<512xf32>
    floors.yield %1 : tensor<512xf32>
  }
  return %0 : tensor<512xf32>
}

// -----

// The sublane dimension: 4 rows of 64 is neither a multiple of 8 nor the whole.
func.func @sublanes(%a: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+2 {{operand 0 (array [64, 128], block [4, 128]): dimension 0 (sublanes): block 4 must be a multiple of 8 or equal the array's 64; 8 would fit}}
  // expected-error @+1 {{result 0 (array [64, 128], block [4, 128]): dimension 0 (sublanes)}}
  %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<64x128xf32>) -> tensor<64x128xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [16], block = [4]>} {
    %1 = stablehlo.negate %x : tensor<64x128xf32>
    floors.yield %1 : tensor<64x128xf32>
  }
  return %0 : tensor<64x128xf32>
}

// -----

// Rank 1: a block of 100 of 4096 elements.
func.func @rank1(%a: tensor<4096xf32>) -> tensor<4096xf32> {
  // expected-error @+2 {{operand 0 (array [4096], block [100]): dimension 0 (rank 1): block 100 must equal the array's 4096, be a multiple of 1024, or a power of two ≥ 128; 128 would fit}}
  // expected-error @+1 {{result 0 (array [4096], block [100])}}
  %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<4096xf32>) -> tensor<4096xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [41], block = [100]>} {
    %1 = stablehlo.negate %x : tensor<4096xf32>
    floors.yield %1 : tensor<4096xf32>
  }
  return %0 : tensor<4096xf32>
}

// -----

// VMEM: a grid-less kernel of two 16 MiB arrays, over v5e's 16 MiB.
func.func @vmem(%a: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  // expected-error @+1 {{VMEM: the windows (double-buffered) and scratch need 33554432 bytes, over the v5e budget of 16777216 bytes; use smaller blocks}}
  %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<4096x1024xf32>) -> tensor<4096x1024xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "whole", grid = [], block = []>} {
    %1 = stablehlo.negate %x : tensor<4096x1024xf32>
    floors.yield %1 : tensor<4096x1024xf32>
  }
  return %0 : tensor<4096x1024xf32>
}

// -----

// A pinned plan whose axes do not fit its strategy is refused by the
// attribute's verifier, where it is written.
func.func @bad_plan(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{#floors.tpu_plan: a 'rows' plan has 1 grid and block axes}}
  %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<8x128xf32>) -> tensor<8x128xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [], block = []>} {
    %1 = stablehlo.negate %x : tensor<8x128xf32>
    floors.yield %1 : tensor<8x128xf32>
  }
  return %0 : tensor<8x128xf32>
}
