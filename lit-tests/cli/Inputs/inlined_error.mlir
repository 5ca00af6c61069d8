module {
func.func public @main(%a: tensor<4xf32>) -> tensor<4x2xi16> {
  %0 = call @helper(%a) : (tensor<4xf32>) -> tensor<4x2xi16>
  return %0 : tensor<4x2xi16>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4x2xi16> {
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2xi16>
  return %0 : tensor<4x2xi16>
}
}
