module {
func.func public @main(%a: tensor<2xf32>) -> tensor<2xf8E4M3FN> {
  %0 = call @helper(%a) : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}
func.func private @helper(%a: tensor<2xf32>) -> tensor<2xf8E4M3FN> {
  %0 = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}
}
