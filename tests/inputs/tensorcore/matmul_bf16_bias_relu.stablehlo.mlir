module @jit_mm_bias_relu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x64xbf16>, %arg1: tensor<64x128xbf16>, %arg2: tensor<128xf32>) -> (tensor<128x128xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x64xbf16>, tensor<64x128xbf16>) -> tensor<128x128xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<128x128xf32>
    %3 = stablehlo.add %0, %2 : tensor<128x128xf32>
    %4 = call @relu(%3) : (tensor<128x128xf32>) -> tensor<128x128xf32>
    return %4 : tensor<128x128xf32>
  }
  func.func private @relu(%arg0: tensor<128x128xf32>) -> tensor<128x128xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<128x128xf32>
    return %1 : tensor<128x128xf32>
  }
}
