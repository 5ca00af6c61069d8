func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.custom_call @rms_norm(%0) {backend_config = "", mhlo.backend_config = {eps = 9.99999974E-6 : f32}} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
