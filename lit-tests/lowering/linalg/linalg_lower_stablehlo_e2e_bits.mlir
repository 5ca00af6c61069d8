// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: bitcast_convert between widths (the narrow side's minor
// dimension, least significant piece first) and reduce_precision to f16's
// format (round to nearest even, overflow to inf, underflow and f16
// subnormals to ±0, NaN kept), printed as bits.

// EXEC:      sizes = [2, 4]
// EXEC-NEXT: [1,   2,   3,   4],
// EXEC-NEXT: [255,   255,   255,   255]
// EXEC:      sizes = [2]
// EXEC-NEXT: [67305985,  -1]
// EXEC:      sizes = [9]
// EXEC-NEXT: [1065353216,  1065369600,  2139095040,  0,  -2147483648,  2143289344,  1199562752,  947912704,  0]
module {
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %w = stablehlo.constant dense<[67305985, 4294967295]> : tensor<2xui32>
    %n = stablehlo.bitcast_convert %w : (tensor<2xui32>) -> tensor<2x4xui8>
    %n32 = stablehlo.convert %n : (tensor<2x4xui8>) -> tensor<2x4xi32>
    %p0 = tensor.cast %n32 : tensor<2x4xi32> to tensor<*xi32>
    call @printMemrefI32(%p0) : (tensor<*xi32>) -> ()
    %back = stablehlo.bitcast_convert %n : (tensor<2x4xui8>) -> tensor<2xi32>
    %p1 = tensor.cast %back : tensor<2xi32> to tensor<*xi32>
    call @printMemrefI32(%p1) : (tensor<*xi32>) -> ()
    // 1 + 2^-11 (a tie: to even, 1), 1 + 3·2^-11 (up: 1 + 2^-9), 70000,
    // ±1e-8, NaN, 65504 (f16's largest), 2^-14 (its smallest normal), 2^-15.
    %x = stablehlo.constant dense<[1.00048828125, 1.00146484375, 70000.0, 1.0e-8, -1.0e-8, 0x7FC00000, 65504.0, 6.103515625e-05, 3.0517578125e-05]> : tensor<9xf32>
    %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<9xf32>
    %rb = stablehlo.bitcast_convert %r : (tensor<9xf32>) -> tensor<9xi32>
    %p2 = tensor.cast %rb : tensor<9xi32> to tensor<*xi32>
    call @printMemrefI32(%p2) : (tensor<*xi32>) -> ()
    return
  }
}
