// Two dot + row-softmax layers: the first dot's result is dead once the
// first softmax has read it, so the second dot's result can take its memory.
module {
  func.func public @main(%x: tensor<64x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %1 = call @softmax(%0) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = stablehlo.dot_general %1, %w2, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %3 = call @softmax(%2) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %3 : tensor<64x64xf32>
  }
  func.func private @softmax(%s: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %m = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>
    %d = stablehlo.subtract %s, %mb : tensor<64x64xf32>
    %e = stablehlo.exponential %d : tensor<64x64xf32>
    %z = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    %zb = stablehlo.broadcast_in_dim %z, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>
    %r = stablehlo.divide %e, %zb : tensor<64x64xf32>
    return %r : tensor<64x64xf32>
  }
}
