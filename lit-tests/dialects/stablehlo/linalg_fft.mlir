// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// The space pair in `type =  FFT` is JAX's (the enum prints its own space):
// RUN: %floors-opt %s | FileCheck %s --check-prefix=EXACT --strict-whitespace
// cholesky, triangular_solve (jnp.linalg.solve), fft (jnp.fft.*).

// CHECK-LABEL: func.func @cholesky(%arg0: tensor<3x3xf32>, %arg1: tensor<2x4x4xcomplex<f64>>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x4x4xcomplex<f64>>) {
// CHECK-NEXT: %0 = stablehlo.cholesky %arg0, lower = true : tensor<3x3xf32>
// CHECK-NEXT: %1 = stablehlo.cholesky %arg0 : tensor<3x3xf32>
// CHECK-NEXT: %2 = stablehlo.cholesky %arg1, lower = true : tensor<2x4x4xcomplex<f64>>
// CHECK-NEXT: return %0, %1, %2 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x4x4xcomplex<f64>>
func.func @cholesky(%arg0: tensor<3x3xf32>, %arg1: tensor<2x4x4xcomplex<f64>>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x4x4xcomplex<f64>>) {
  %0 = stablehlo.cholesky %arg0, lower = true : tensor<3x3xf32>
  %1 = stablehlo.cholesky %arg0 : tensor<3x3xf32>
  %2 = stablehlo.cholesky %arg1, lower = true : tensor<2x4x4xcomplex<f64>>
  return %0, %1, %2 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x4x4xcomplex<f64>>
}

// `lower = false` is the default: it prints as nothing.
// CHECK-LABEL: func.func @cholesky_upper(%arg0: tensor<3x3xf32>) -> tensor<3x3xf32> {
// CHECK-NEXT: %0 = stablehlo.cholesky %arg0 : tensor<3x3xf32>
// CHECK-NEXT: return %0 : tensor<3x3xf32>
func.func @cholesky_upper(%arg0: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.cholesky"(%arg0) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// CHECK-LABEL: func.func @triangular_solve(%arg0: tensor<3x3xf32>, %arg1: tensor<3x1xf32>, %arg2: tensor<2x4x4xcomplex<f32>>, %arg3: tensor<2x1x4xcomplex<f32>>) -> (tensor<3x1xf32>, tensor<2x1x4xcomplex<f32>>) {
// CHECK-NEXT: %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %1 = "stablehlo.triangular_solve"(%arg0, %0) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: %2 = "stablehlo.triangular_solve"(%arg2, %arg3) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<2x4x4xcomplex<f32>>, tensor<2x1x4xcomplex<f32>>) -> tensor<2x1x4xcomplex<f32>>
// CHECK-NEXT: return %1, %2 : tensor<3x1xf32>, tensor<2x1x4xcomplex<f32>>
func.func @triangular_solve(%arg0: tensor<3x3xf32>, %arg1: tensor<3x1xf32>, %arg2: tensor<2x4x4xcomplex<f32>>, %arg3: tensor<2x1x4xcomplex<f32>>) -> (tensor<3x1xf32>, tensor<2x1x4xcomplex<f32>>) {
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %1 = "stablehlo.triangular_solve"(%arg0, %0) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %2 = "stablehlo.triangular_solve"(%arg2, %arg3) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<2x4x4xcomplex<f32>>, tensor<2x1x4xcomplex<f32>>) -> tensor<2x1x4xcomplex<f32>>
  return %1, %2 : tensor<3x1xf32>, tensor<2x1x4xcomplex<f32>>
}

// Attributes in a plain dictionary (older printers) read the same.
// CHECK-LABEL: func.func @triangular_solve_dict(%arg0: tensor<3x3xf32>, %arg1: tensor<3x1xf32>) -> tensor<3x1xf32> {
// CHECK-NEXT: %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK-NEXT: return %0 : tensor<3x1xf32>
func.func @triangular_solve_dict(%arg0: tensor<3x3xf32>, %arg1: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %0 = "stablehlo.triangular_solve"(%arg0, %arg1) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// EXACT-LABEL: func.func @fft(
// EXACT: stablehlo.fft %arg0, type =  FFT, length = [8] :
// EXACT: stablehlo.fft %0, type =  IFFT, length = [8] :
// EXACT: stablehlo.fft %arg1, type =  RFFT, length = [4, 16] :
// EXACT: stablehlo.fft %2, type =  IRFFT, length = [4, 16] :
// CHECK-LABEL: func.func @fft(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<3x4x16xf64>) -> (tensor<8xcomplex<f32>>, tensor<3x4x16xf64>) {
// CHECK-NEXT: %0 = stablehlo.fft %arg0, type =  FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %1 = stablehlo.fft %0, type =  IFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
// CHECK-NEXT: %2 = stablehlo.fft %arg1, type =  RFFT, length = [4, 16] : (tensor<3x4x16xf64>) -> tensor<3x4x9xcomplex<f64>>
// CHECK-NEXT: %3 = stablehlo.fft %2, type =  IRFFT, length = [4, 16] : (tensor<3x4x9xcomplex<f64>>) -> tensor<3x4x16xf64>
// CHECK-NEXT: return %1, %3 : tensor<8xcomplex<f32>>, tensor<3x4x16xf64>
func.func @fft(%arg0: tensor<8xcomplex<f32>>, %arg1: tensor<3x4x16xf64>) -> (tensor<8xcomplex<f32>>, tensor<3x4x16xf64>) {
  %0 = stablehlo.fft %arg0, type =  FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  %1 = stablehlo.fft %0, type =  IFFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  %2 = stablehlo.fft %arg1, type =  RFFT, length = [4, 16] : (tensor<3x4x16xf64>) -> tensor<3x4x9xcomplex<f64>>
  %3 = stablehlo.fft %2, type =  IRFFT, length = [4, 16] : (tensor<3x4x9xcomplex<f64>>) -> tensor<3x4x16xf64>
  return %1, %3 : tensor<8xcomplex<f32>>, tensor<3x4x16xf64>
}

// The enums on their own.
// CHECK-LABEL: func.func @enum_attrs() attributes {f = [#stablehlo<fft_type FFT>, #stablehlo<fft_type IFFT>, #stablehlo<fft_type RFFT>, #stablehlo<fft_type IRFFT>], t = [#stablehlo<transpose NO_TRANSPOSE>, #stablehlo<transpose TRANSPOSE>, #stablehlo<transpose ADJOINT>, #stablehlo<transpose TRANSPOSE_INVALID>]} {
// CHECK-NEXT: return
func.func @enum_attrs() attributes {f = [#stablehlo<fft_type FFT>, #stablehlo<fft_type IFFT>, #stablehlo<fft_type RFFT>, #stablehlo<fft_type IRFFT>], t = [#stablehlo<transpose NO_TRANSPOSE>, #stablehlo<transpose TRANSPOSE>, #stablehlo<transpose ADJOINT>, #stablehlo<transpose TRANSPOSE_INVALID>]} {
  return
}
