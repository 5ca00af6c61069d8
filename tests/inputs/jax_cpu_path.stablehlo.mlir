// What JAX's CPU rules give floors: an ordered host callback (a token in and
// out of @main), an FFT, and a LAPACK call asking for column-major layouts.
module @jit_cpu_path {
  func.func public @main(%arg0: !stablehlo.token {jax.token = true}, %arg1: tensor<4x4xf32>) -> (!stablehlo.token {jax.token = true}, tensor<4x3xcomplex<f32>>, tensor<4x4xf32>) {
    stablehlo.custom_call @floors_python_callback(%arg1) {has_side_effect = true, mhlo.backend_config = {callback_id = 1 : ui64}} : (tensor<4x4xf32>) -> ()
    %0 = stablehlo.fft %arg1, type =  RFFT, length = [4] : (tensor<4x4xf32>) -> tensor<4x3xcomplex<f32>>
    %1:2 = stablehlo.custom_call @lapack_spotrf_ffi(%arg1) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)
    return %arg0, %0, %1#0 : !stablehlo.token, tensor<4x3xcomplex<f32>>, tensor<4x4xf32>
  }
}
