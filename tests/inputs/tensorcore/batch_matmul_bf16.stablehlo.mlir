module @jit_bmm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x40x48xbf16>, %arg1: tensor<3x48x130xbf16>) -> (tensor<3x40x130xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x40x48xbf16>, tensor<3x48x130xbf16>) -> tensor<3x40x130xbf16>
    return %0 : tensor<3x40x130xbf16>
  }
}
