module @jit_mm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<96x200xf16>, %arg1: tensor<200x72xf16>) -> (tensor<96x72xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<96x200xf16>, tensor<200x72xf16>) -> tensor<96x72xf16>
    return %0 : tensor<96x72xf16>
  }
}
