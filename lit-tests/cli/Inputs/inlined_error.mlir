module {
func.func public @main(%a: tensor<2xui64>) -> tensor<2xui64> {
  %0 = call @helper(%a) : (tensor<2xui64>) -> tensor<2xui64>
  return %0 : tensor<2xui64>
}
func.func private @helper(%a: tensor<2xui64>) -> tensor<2xui64> {
  %0, %1 = stablehlo.rng_bit_generator %a, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2xui64>)
  return %1 : tensor<2xui64>
}
}
