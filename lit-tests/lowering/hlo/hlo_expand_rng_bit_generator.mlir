// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-expand-rng-bit-generator)' | FileCheck %s

// DEFAULT is Philox (XLA:CPU's choice): with a two-word state the 128-bit
// counter is state[1] (low) and the key state[0] (high), one counter per
// block of four words; ten rounds multiply by 0xD2511F53 and 0xCD9E8D57
// (3528531795, 3449720151) in 64 bits; the blocks' words are interleaved
// into the output and the counter's low word advances by the blocks used (2).
// CHECK-LABEL: func.func @philox
// CHECK-NOT:   rng_bit_generator
// CHECK:       stablehlo.iota dim = 0 : tensor<2xui64>
// CHECK:       stablehlo.compare  LT, {{.*}}, UNSIGNED
// CHECK:       stablehlo.constant dense<3528531795> : tensor<2xui64>
// CHECK:       stablehlo.constant dense<3449720151> : tensor<2xui64>
// CHECK:       stablehlo.concatenate {{.*}} dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x4xui32>
// CHECK:       stablehlo.slice {{.*}} [0:6] : (tensor<8xui32>) -> tensor<6xui32>
// CHECK:       stablehlo.constant dense<2> : tensor<ui64>
// CHECK:       %[[OUT:.*]] = stablehlo.reshape {{.*}} : (tensor<6xui32>) -> tensor<2x3xui32>
// CHECK:       %[[STATE:.*]] = stablehlo.concatenate {{.*}} dim = 0 : (tensor<1xui64>, tensor<1xui64>) -> tensor<2xui64>
// CHECK:       return %[[STATE]], %[[OUT]]
func.func @philox(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>) {
  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  return %0, %1 : tensor<2xui64>, tensor<2x3xui32>
}

// -----

// THREE_FRY on 32-bit results splits the shape along its first even
// dimension (here 6: halves of 3, counters state[1] + 0 … 14) and joins the
// two halves of each block there; 8-bit results are the low bits.
// CHECK-LABEL: func.func @threefry
// CHECK:       stablehlo.iota dim = 0 : tensor<15xui64>
// CHECK:       stablehlo.constant dense<466688986> : tensor<ui32>
// CHECK:       stablehlo.concatenate {{.*}} dim = 2 : (tensor<5x3x1xui32>, tensor<5x3x1xui32>) -> tensor<5x3x2xui32>
// CHECK:       stablehlo.reshape {{.*}} : (tensor<5x3x2xui32>) -> tensor<5x6xui32>
// CHECK:       stablehlo.constant dense<15> : tensor<ui64>
// CHECK:       stablehlo.convert {{.*}} : (tensor<5x6xui32>) -> tensor<5x6xui8>
// CHECK-NOT:   rng_bit_generator
func.func @threefry(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<5x6xui8>) {
  %0, %1 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x6xui8>)
  return %0, %1 : tensor<2xui64>, tensor<5x6xui8>
}
