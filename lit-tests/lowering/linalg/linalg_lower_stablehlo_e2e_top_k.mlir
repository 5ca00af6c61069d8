// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: chlo.top_k on the known values of hlo_legalize_chlo.rs —
// ties go to the lower index, NaN is the greatest, +0.0 beats -0.0 — and a
// row in ascending order, where every element replaces the root.
// EXEC: [3, 3, 2]
// EXEC: [1, 3, 2]
// EXEC: [nan, inf, 1]
// EXEC: [0, 2, 1]
// EXEC: [0, -0]
// EXEC: [1, 0]
// EXEC: [9, 8, 7]
// EXEC: [9, 8, 7]
module {
  func.func private @printMemrefF32(tensor<*xf32>)
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @show(%v: tensor<?xf32>, %i: tensor<?xi32>) {
    %uv = tensor.cast %v : tensor<?xf32> to tensor<*xf32>
    %ui = tensor.cast %i : tensor<?xi32> to tensor<*xi32>
    call @printMemrefF32(%uv) : (tensor<*xf32>) -> ()
    call @printMemrefI32(%ui) : (tensor<*xi32>) -> ()
    return
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1.0, 3.0, 2.0, 3.0]> : tensor<4xf32>
    %av, %ai = chlo.top_k(%a, k = 3) : tensor<4xf32> -> (tensor<3xf32>, tensor<3xi32>)
    %av_ = tensor.cast %av : tensor<3xf32> to tensor<?xf32>
    %ai_ = tensor.cast %ai : tensor<3xi32> to tensor<?xi32>
    call @show(%av_, %ai_) : (tensor<?xf32>, tensor<?xi32>) -> ()
    %b = stablehlo.constant dense<[0x7FC00000, 1.0, 0x7F800000, -1.0]> : tensor<4xf32>
    %bv, %bi = chlo.top_k(%b, k = 3) : tensor<4xf32> -> (tensor<3xf32>, tensor<3xi32>)
    %bv_ = tensor.cast %bv : tensor<3xf32> to tensor<?xf32>
    %bi_ = tensor.cast %bi : tensor<3xi32> to tensor<?xi32>
    call @show(%bv_, %bi_) : (tensor<?xf32>, tensor<?xi32>) -> ()
    %c = stablehlo.constant dense<[-0.0, 0.0]> : tensor<2xf32>
    %cv, %ci = chlo.top_k(%c, k = 2) : tensor<2xf32> -> (tensor<2xf32>, tensor<2xi32>)
    %cv_ = tensor.cast %cv : tensor<2xf32> to tensor<?xf32>
    %ci_ = tensor.cast %ci : tensor<2xi32> to tensor<?xi32>
    call @show(%cv_, %ci_) : (tensor<?xf32>, tensor<?xi32>) -> ()
    %d = stablehlo.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
    %dv, %di = chlo.top_k(%d, k = 3) : tensor<10xf32> -> (tensor<3xf32>, tensor<3xi32>)
    %dv_ = tensor.cast %dv : tensor<3xf32> to tensor<?xf32>
    %di_ = tensor.cast %di : tensor<3xi32> to tensor<?xi32>
    call @show(%dv_, %di_) : (tensor<?xf32>, tensor<?xi32>) -> ()
    return
  }
}
