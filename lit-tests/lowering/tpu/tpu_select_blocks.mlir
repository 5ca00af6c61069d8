// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo,floors-tpu-select-blocks)' | FileCheck %s

// An elementwise fusion over 1024 rows of 1024 f32: blocks of 256 rows
// (1 MiB windows), a grid of 4.
// CHECK-LABEL: func.func @elementwise
// CHECK: floors.fusion loop {{.*}}floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [4], block = [256]>
func.func @elementwise(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.add %a, %b : tensor<1024x1024xf32>
  %1 = stablehlo.exponential %0 : tensor<1024x1024xf32>
  return %1 : tensor<1024x1024xf32>
}

// -----

// A matmul: M, N, K blocks of at most 512 in multiples of the MXU (128).
// CHECK-LABEL: func.func @matmul
// CHECK: floors.fusion gemm {{.*}}floors.tpu_plan = #floors.tpu_plan<strategy = "matmul", grid = [2, 2, 2], block = [512, 512, 512]>
func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// A column reduction tiles the columns: the lane dimension, by 128s.
// CHECK-LABEL: func.func @col_sum
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [4], block = [1024]>
func.func @col_sum(%a: tensor<256x4096xf32>) -> tensor<4096xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<256x4096xf32>, tensor<f32>) -> tensor<4096xf32>
  return %0 : tensor<4096xf32>
}

// -----

// A reshape cannot be tiled along a grid: the whole arrays, no grid.
// CHECK-LABEL: func.func @reshape
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "whole", grid = [], block = []>
func.func @reshape(%a: tensor<8x128xf32>) -> tensor<1024xf32> {
  %0 = stablehlo.exponential %a : tensor<8x128xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x128xf32>) -> tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// -----

// What the TPU floor cannot lower is an error at the op, naming it.
func.func @sort(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{floors-tpu-select-blocks: cannot put this fusion on the TPU floor yet: 'scf.for' has no TPU lowering}}
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Too big for VMEM even at the smallest legal block: 8 rows of 1M f32.
func.func @too_big(%a: tensor<8x1048576xf32>) -> tensor<8x1048576xf32> {
  // expected-error @+1 {{the smallest legal block (8 of 8 rows) needs 134217728 bytes of VMEM (windows double-buffered), over the v5e budget of 16777216 bytes}}
  %0 = stablehlo.exponential %a : tensor<8x1048576xf32>
  return %0 : tensor<8x1048576xf32>
}

// -----

// Zero-size values never reach the TPU floor: floors-fuse's cleanup
// (floors-hlo-eliminate-zero-sized) makes them empty constants, so there is
// no fusion and no plan. (tpu_select_blocks_zero_size.mlir: the refusal when
// one gets here anyway.)
// CHECK-LABEL: func.func @zero_rows
// CHECK-NOT: floors.fusion
// CHECK: arith.constant dense<> : tensor<0x128xf32>
func.func @zero_rows(%a: tensor<0x128xf32>) -> tensor<0x128xf32> {
  %0 = stablehlo.negate %a : tensor<0x128xf32>
  return %0 : tensor<0x128xf32>
}

// -----

// 1009 rows (a prime) of 4096 f32: no divisor of the rows fits (the whole
// array is 16 MiB), so blocks of 64 rows (1 MiB windows) on a grid of
// ⌈1009/64⌉ = 16, the last block partial, as Pallas' pl.cdiv grids.
// CHECK-LABEL: func.func @prime_rows
// CHECK: floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [16], block = [64]>
func.func @prime_rows(%x: tensor<1009x4096xf32>) -> tensor<1009x4096xf32> {
  %0 = stablehlo.tanh %x : tensor<1009x4096xf32>
  return %0 : tensor<1009x4096xf32>
}
