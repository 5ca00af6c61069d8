// jnp.linalg.solve's triangular solves: parsed and verified, not compiled yet.
func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
