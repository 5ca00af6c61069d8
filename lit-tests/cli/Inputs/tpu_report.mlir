// A 256x1024 @ 1024x256 matmul with a tanh epilogue, and a softmax over 64 rows of 4096.
func.func @main(%a: tensor<256x1024xf32>, %b: tensor<1024x256xf32>, %x: tensor<64x4096xf32>) -> (tensor<256x256xf32>, tensor<64x4096xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x256xf32>) -> tensor<256x256xf32>
  %t = stablehlo.tanh %d : tensor<256x256xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x4096xf32>, tensor<f32>) -> tensor<64xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<64xf32>) -> tensor<64x4096xf32>
  %s = stablehlo.subtract %x, %mb : tensor<64x4096xf32>
  %e = stablehlo.exponential %s : tensor<64x4096xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x4096xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<64xf32>) -> tensor<64x4096xf32>
  %y = stablehlo.divide %e, %sb : tensor<64x4096xf32>
  return %t, %y : tensor<256x256xf32>, tensor<64x4096xf32>
}
