module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x64xbf16>, %arg1: tensor<64x64xbf16>, %arg2: tensor<3x25xbf16>, %arg3: tensor<3x25xbf16>) -> (tensor<128x64xf32> {jax.result_info = "result[0]"}, tensor<3x25xbf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x64xbf16>, tensor<64x64xbf16>) -> tensor<128x64xf32>
    %1 = stablehlo.compare GT, %arg2, %arg3, FLOAT : (tensor<3x25xbf16>, tensor<3x25xbf16>) -> tensor<3x25xi1>
    %2 = call @_where(%1, %arg2, %arg3) : (tensor<3x25xi1>, tensor<3x25xbf16>, tensor<3x25xbf16>) -> tensor<3x25xbf16>
    return %0, %2 : tensor<128x64xf32>, tensor<3x25xbf16>
  }
  func.func private @_where(%arg0: tensor<3x25xi1>, %arg1: tensor<3x25xbf16>, %arg2: tensor<3x25xbf16>) -> tensor<3x25xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x25xi1>, tensor<3x25xbf16>
    return %0 : tensor<3x25xbf16>
  }
}

