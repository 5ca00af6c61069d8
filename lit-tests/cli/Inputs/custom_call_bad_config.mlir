func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "Sharding", api_version = 4 : i32, backend_config = "not a dictionary"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
