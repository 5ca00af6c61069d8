func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @Sharding(%a) {mhlo.backend_config = {half = 1.0 : bf16}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
