// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @cholesky_not_square(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'stablehlo.cholesky' op a must be square in its last two dimensions, got 3x4}}
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
// -----
func.func @triangular_solve_result(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'stablehlo.triangular_solve' op result type 'tensor<3x3xf32>' must match b's type 'tensor<3x1xf32>'}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
// -----
func.func @triangular_solve_invalid_transpose(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'stablehlo.triangular_solve' op transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
// -----
func.func @triangular_solve_enum(%a: tensor<3x3xf32>, %b: tensor<3x1xf32>) -> tensor<3x1xf32> {
  // expected-error @+2 {{expected ::floors::stablehlo::Transpose to be one of: TRANSPOSE_INVALID, NO_TRANSPOSE, TRANSPOSE, ADJOINT}}
  // expected-error @+1 {{failed to parse Stablehlo_TransposeAttr parameter 'value' which is to be a `::floors::stablehlo::Transpose`}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose CONJUGATE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}
// -----
func.func @fft_operand(%x: tensor<8xf32>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.fft' op FFT needs a complex operand, got 'f32'}}
  %0 = stablehlo.fft %x, type =  FFT, length = [8] : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
// -----
func.func @fft_result(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.fft' op IRFFT gives a floating-point result, got 'complex<f32>'}}
  %0 = stablehlo.fft %x, type =  IRFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
// -----
func.func @fft_length(%x: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.fft' op fft_length must have 1 to 3 elements, got 4}}
  %0 = stablehlo.fft %x, type =  FFT, length = [1, 1, 1, 8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}
