// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s

// Round trip of every chlo op, pretty and generic. Forms are those JAX prints.

// CHECK-LABEL: func.func @corpus_lines
// CHECK-NEXT: %0 = chlo.square %arg0 : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %1 = chlo.erfc %0 : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
// CHECK-NEXT: %2 = chlo.square %arg1 : tensor<4096x1024xf32> -> tensor<4096x1024xf32>
// CHECK-NEXT: return %1, %values, %indices, %2
func.func @corpus_lines(%arg0: tensor<8x16xf32>, %arg1: tensor<4096x1024xf32>) -> (tensor<8x16xf32>, tensor<8x3xf32>, tensor<8x3xi32>, tensor<4096x1024xf32>) {
  %0 = chlo.square %arg0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %1 = chlo.erfc %0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
  %2 = chlo.square %arg1 : tensor<4096x1024xf32> -> tensor<4096x1024xf32>
  return %1, %values, %indices, %2 : tensor<8x16xf32>, tensor<8x3xf32>, tensor<8x3xi32>, tensor<4096x1024xf32>
}

// CHECK-LABEL: func.func @corpus_generic
// CHECK-NEXT: %0 = chlo.square %arg0 : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: %1 = chlo.erfc %0 : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NEXT: return %1
func.func @corpus_generic(%arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "chlo.square"(%arg1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "chlo.erfc"(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @erf
// CHECK-NEXT: %0 = chlo.erf %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.erf %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.erf %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.erf %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @erf(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.erf %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.erf %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.erf %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.erf %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @erfc
// CHECK-NEXT: %0 = chlo.erfc %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.erfc %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.erfc %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.erfc %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @erfc(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.erfc %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.erfc %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.erfc %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.erfc %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @erf_inv
// CHECK-NEXT: %0 = chlo.erf_inv %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.erf_inv %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.erf_inv %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.erf_inv %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @erf_inv(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.erf_inv %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.erf_inv %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.erf_inv %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.erf_inv %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @lgamma
// CHECK-NEXT: %0 = chlo.lgamma %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.lgamma %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.lgamma %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.lgamma %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @lgamma(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.lgamma %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.lgamma %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.lgamma %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.lgamma %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @digamma
// CHECK-NEXT: %0 = chlo.digamma %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.digamma %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.digamma %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.digamma %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @digamma(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.digamma %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.digamma %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.digamma %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.digamma %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @bessel_i1e
// CHECK-NEXT: %0 = chlo.bessel_i1e %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.bessel_i1e %arg1 : tensor<2xbf16> -> tensor<2xbf16>
// CHECK-NEXT: %2 = chlo.bessel_i1e %arg2 : tensor<f16> -> tensor<f16>
// CHECK-NEXT: %3 = chlo.bessel_i1e %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
// CHECK-NEXT: return
func.func @bessel_i1e(%arg0: tensor<4x?xf32>, %arg1: tensor<2xbf16>, %arg2: tensor<f16>, %arg3: tensor<3x2xf64>) -> (tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>) {
  %0 = chlo.bessel_i1e %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.bessel_i1e %arg1 : tensor<2xbf16> -> tensor<2xbf16>
  %2 = chlo.bessel_i1e %arg2 : tensor<f16> -> tensor<f16>
  %3 = chlo.bessel_i1e %arg3 : tensor<3x2xf64> -> tensor<3x2xf64>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xbf16>, tensor<f16>, tensor<3x2xf64>
}

// CHECK-LABEL: func.func @tan
// CHECK-NEXT: %0 = chlo.tan %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.tan %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.tan %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.tan %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @tan(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.tan %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.tan %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.tan %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.tan %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @sinh
// CHECK-NEXT: %0 = chlo.sinh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.sinh %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.sinh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.sinh %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @sinh(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.sinh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.sinh %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.sinh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.sinh %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @cosh
// CHECK-NEXT: %0 = chlo.cosh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.cosh %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.cosh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.cosh %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @cosh(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.cosh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.cosh %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.cosh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.cosh %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @asin
// CHECK-NEXT: %0 = chlo.asin %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.asin %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.asin %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.asin %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @asin(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.asin %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.asin %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.asin %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.asin %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @acos
// CHECK-NEXT: %0 = chlo.acos %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.acos %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.acos %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.acos %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @acos(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.acos %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.acos %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.acos %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.acos %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @atan
// CHECK-NEXT: %0 = chlo.atan %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.atan %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.atan %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.atan %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @atan(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.atan %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.atan %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.atan %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.atan %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @asinh
// CHECK-NEXT: %0 = chlo.asinh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.asinh %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.asinh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.asinh %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @asinh(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.asinh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.asinh %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.asinh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.asinh %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @acosh
// CHECK-NEXT: %0 = chlo.acosh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.acosh %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.acosh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.acosh %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @acosh(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.acosh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.acosh %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.acosh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.acosh %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @atanh
// CHECK-NEXT: %0 = chlo.atanh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK-NEXT: %1 = chlo.atanh %arg1 : tensor<2xf64> -> tensor<2xf64>
// CHECK-NEXT: %2 = chlo.atanh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
// CHECK-NEXT: %3 = chlo.atanh %arg3 : tensor<bf16> -> tensor<bf16>
// CHECK-NEXT: return
func.func @atanh(%arg0: tensor<4x?xf32>, %arg1: tensor<2xf64>, %arg2: tensor<3xcomplex<f32>>, %arg3: tensor<bf16>) -> (tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>) {
  %0 = chlo.atanh %arg0 : tensor<4x?xf32> -> tensor<4x?xf32>
  %1 = chlo.atanh %arg1 : tensor<2xf64> -> tensor<2xf64>
  %2 = chlo.atanh %arg2 : tensor<3xcomplex<f32>> -> tensor<3xcomplex<f32>>
  %3 = chlo.atanh %arg3 : tensor<bf16> -> tensor<bf16>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<2xf64>, tensor<3xcomplex<f32>>, tensor<bf16>
}

// CHECK-LABEL: func.func @square
// CHECK-NEXT: %0 = chlo.square %arg0 : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %1 = chlo.square %arg1 : tensor<2x2xcomplex<f64>> -> tensor<2x2xcomplex<f64>>
// CHECK-NEXT: %2 = chlo.square %arg2 : tensor<f32> -> tensor<f32>
// CHECK-NEXT: %3 = chlo.square %arg3 : tensor<3xui8> -> tensor<3xui8>
// CHECK-NEXT: return
func.func @square(%arg0: tensor<4xi32>, %arg1: tensor<2x2xcomplex<f64>>, %arg2: tensor<f32>, %arg3: tensor<3xui8>) -> (tensor<4xi32>, tensor<2x2xcomplex<f64>>, tensor<f32>, tensor<3xui8>) {
  %0 = chlo.square %arg0 : tensor<4xi32> -> tensor<4xi32>
  %1 = chlo.square %arg1 : tensor<2x2xcomplex<f64>> -> tensor<2x2xcomplex<f64>>
  %2 = chlo.square %arg2 : tensor<f32> -> tensor<f32>
  %3 = chlo.square %arg3 : tensor<3xui8> -> tensor<3xui8>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<2x2xcomplex<f64>>, tensor<f32>, tensor<3xui8>
}

// CHECK-LABEL: func.func @is_inf
// CHECK-NEXT: %0 = chlo.is_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
// CHECK-NEXT: %1 = chlo.is_inf %arg1 : tensor<bf16> -> tensor<i1>
// CHECK-NEXT: return
func.func @is_inf(%arg0: tensor<4x?xf32>, %arg1: tensor<bf16>) -> (tensor<4x?xi1>, tensor<i1>) {
  %0 = chlo.is_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
  %1 = chlo.is_inf %arg1 : tensor<bf16> -> tensor<i1>
  return %0, %1 : tensor<4x?xi1>, tensor<i1>
}

// CHECK-LABEL: func.func @is_neg_inf
// CHECK-NEXT: %0 = chlo.is_neg_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
// CHECK-NEXT: %1 = chlo.is_neg_inf %arg1 : tensor<bf16> -> tensor<i1>
// CHECK-NEXT: return
func.func @is_neg_inf(%arg0: tensor<4x?xf32>, %arg1: tensor<bf16>) -> (tensor<4x?xi1>, tensor<i1>) {
  %0 = chlo.is_neg_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
  %1 = chlo.is_neg_inf %arg1 : tensor<bf16> -> tensor<i1>
  return %0, %1 : tensor<4x?xi1>, tensor<i1>
}

// CHECK-LABEL: func.func @is_pos_inf
// CHECK-NEXT: %0 = chlo.is_pos_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
// CHECK-NEXT: %1 = chlo.is_pos_inf %arg1 : tensor<bf16> -> tensor<i1>
// CHECK-NEXT: return
func.func @is_pos_inf(%arg0: tensor<4x?xf32>, %arg1: tensor<bf16>) -> (tensor<4x?xi1>, tensor<i1>) {
  %0 = chlo.is_pos_inf %arg0 : tensor<4x?xf32> -> tensor<4x?xi1>
  %1 = chlo.is_pos_inf %arg1 : tensor<bf16> -> tensor<i1>
  return %0, %1 : tensor<4x?xi1>, tensor<i1>
}

// CHECK-LABEL: func.func @unary_refine
// CHECK-NEXT: %0 = chlo.erf %arg0 : tensor<?x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return
func.func @unary_refine(%arg0: tensor<?x4xf32>) -> tensor<2x4xf32> {
  %0 = chlo.erf %arg0 : tensor<?x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @polygamma
// CHECK-NEXT: %0 = chlo.polygamma %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.polygamma %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
// CHECK-NEXT: return
func.func @polygamma(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<f64>) -> (tensor<2x3xf32>, tensor<f64>) {
  %0 = chlo.polygamma %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = chlo.polygamma %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
  return %0, %1 : tensor<2x3xf32>, tensor<f64>
}

// CHECK-LABEL: func.func @zeta
// CHECK-NEXT: %0 = chlo.zeta %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.zeta %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
// CHECK-NEXT: return
func.func @zeta(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<f64>) -> (tensor<2x3xf32>, tensor<f64>) {
  %0 = chlo.zeta %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = chlo.zeta %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
  return %0, %1 : tensor<2x3xf32>, tensor<f64>
}

// CHECK-LABEL: func.func @next_after
// CHECK-NEXT: %0 = chlo.next_after %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.next_after %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
// CHECK-NEXT: return
func.func @next_after(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<f64>) -> (tensor<2x3xf32>, tensor<f64>) {
  %0 = chlo.next_after %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = chlo.next_after %arg2, %arg2 : tensor<f64>, tensor<f64> -> tensor<f64>
  return %0, %1 : tensor<2x3xf32>, tensor<f64>
}

// CHECK-LABEL: func.func @broadcast_add
// CHECK-NEXT: %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_add %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_add %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_add %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_add(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_add %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_add %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_add %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_subtract
// CHECK-NEXT: %0 = chlo.broadcast_subtract %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_subtract %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_subtract %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_subtract %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_subtract(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_subtract %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_subtract %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_subtract %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_subtract %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_multiply
// CHECK-NEXT: %0 = chlo.broadcast_multiply %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_multiply %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_multiply %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_multiply %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_multiply(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_multiply %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_multiply %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_multiply %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_multiply %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_divide
// CHECK-NEXT: %0 = chlo.broadcast_divide %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_divide %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_divide %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_divide %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_divide(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_divide %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_divide %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_divide %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_divide %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_maximum
// CHECK-NEXT: %0 = chlo.broadcast_maximum %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_maximum %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_maximum %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_maximum %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_maximum(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_maximum %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_maximum %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_maximum %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_maximum %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_minimum
// CHECK-NEXT: %0 = chlo.broadcast_minimum %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_minimum %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_minimum %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_minimum %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_minimum(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_minimum %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_minimum %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_minimum %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_minimum %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_power
// CHECK-NEXT: %0 = chlo.broadcast_power %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_power %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_power %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_power %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_power(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_power %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_power %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_power %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_power %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_remainder
// CHECK-NEXT: %0 = chlo.broadcast_remainder %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_remainder %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_remainder %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_remainder %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_remainder(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_remainder %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_remainder %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_remainder %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_remainder %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_atan2
// CHECK-NEXT: %0 = chlo.broadcast_atan2 %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_atan2 %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = chlo.broadcast_atan2 %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = chlo.broadcast_atan2 %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return
func.func @broadcast_atan2(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>, %arg3: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) {
  %0 = chlo.broadcast_atan2 %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_atan2 %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = chlo.broadcast_atan2 %arg2, %arg0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_atan2 %arg3, %arg1 : (tensor<?x1xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @broadcast_and
// CHECK-NEXT: %0 = chlo.broadcast_and %arg0, %arg1 : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %1 = chlo.broadcast_and %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %2 = chlo.broadcast_and %arg2, %arg0 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %3 = chlo.broadcast_and %arg3, %arg1 : (tensor<?x1xi32>, tensor<3xi32>) -> tensor<?x3xi32>
// CHECK-NEXT: return
func.func @broadcast_and(%arg0: tensor<2x3xi32>, %arg1: tensor<3xi32>, %arg2: tensor<i32>, %arg3: tensor<?x1xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<?x3xi32>) {
  %0 = chlo.broadcast_and %arg0, %arg1 : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = chlo.broadcast_and %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = chlo.broadcast_and %arg2, %arg0 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = chlo.broadcast_and %arg3, %arg1 : (tensor<?x1xi32>, tensor<3xi32>) -> tensor<?x3xi32>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<?x3xi32>
}

// CHECK-LABEL: func.func @broadcast_or
// CHECK-NEXT: %0 = chlo.broadcast_or %arg0, %arg1 : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %1 = chlo.broadcast_or %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %2 = chlo.broadcast_or %arg2, %arg0 : (tensor<i1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK-NEXT: %3 = chlo.broadcast_or %arg3, %arg1 : (tensor<?x1xi1>, tensor<3xi1>) -> tensor<?x3xi1>
// CHECK-NEXT: return
func.func @broadcast_or(%arg0: tensor<2x3xi1>, %arg1: tensor<3xi1>, %arg2: tensor<i1>, %arg3: tensor<?x1xi1>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<?x3xi1>) {
  %0 = chlo.broadcast_or %arg0, %arg1 : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %1 = chlo.broadcast_or %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %2 = chlo.broadcast_or %arg2, %arg0 : (tensor<i1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %3 = chlo.broadcast_or %arg3, %arg1 : (tensor<?x1xi1>, tensor<3xi1>) -> tensor<?x3xi1>
  return %0, %1, %2, %3 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<?x3xi1>
}

// CHECK-LABEL: func.func @broadcast_xor
// CHECK-NEXT: %0 = chlo.broadcast_xor %arg0, %arg1 : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %1 = chlo.broadcast_xor %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %2 = chlo.broadcast_xor %arg2, %arg0 : (tensor<ui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
// CHECK-NEXT: %3 = chlo.broadcast_xor %arg3, %arg1 : (tensor<?x1xui8>, tensor<3xui8>) -> tensor<?x3xui8>
// CHECK-NEXT: return
func.func @broadcast_xor(%arg0: tensor<2x3xui8>, %arg1: tensor<3xui8>, %arg2: tensor<ui8>, %arg3: tensor<?x1xui8>) -> (tensor<2x3xui8>, tensor<2x3xui8>, tensor<2x3xui8>, tensor<?x3xui8>) {
  %0 = chlo.broadcast_xor %arg0, %arg1 : (tensor<2x3xui8>, tensor<3xui8>) -> tensor<2x3xui8>
  %1 = chlo.broadcast_xor %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
  %2 = chlo.broadcast_xor %arg2, %arg0 : (tensor<ui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
  %3 = chlo.broadcast_xor %arg3, %arg1 : (tensor<?x1xui8>, tensor<3xui8>) -> tensor<?x3xui8>
  return %0, %1, %2, %3 : tensor<2x3xui8>, tensor<2x3xui8>, tensor<2x3xui8>, tensor<?x3xui8>
}

// CHECK-LABEL: func.func @broadcast_shift_left
// CHECK-NEXT: %0 = chlo.broadcast_shift_left %arg0, %arg1 : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %1 = chlo.broadcast_shift_left %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %2 = chlo.broadcast_shift_left %arg2, %arg0 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %3 = chlo.broadcast_shift_left %arg3, %arg1 : (tensor<?x1xi32>, tensor<3xi32>) -> tensor<?x3xi32>
// CHECK-NEXT: return
func.func @broadcast_shift_left(%arg0: tensor<2x3xi32>, %arg1: tensor<3xi32>, %arg2: tensor<i32>, %arg3: tensor<?x1xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<?x3xi32>) {
  %0 = chlo.broadcast_shift_left %arg0, %arg1 : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = chlo.broadcast_shift_left %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = chlo.broadcast_shift_left %arg2, %arg0 : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %3 = chlo.broadcast_shift_left %arg3, %arg1 : (tensor<?x1xi32>, tensor<3xi32>) -> tensor<?x3xi32>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<?x3xi32>
}

// CHECK-LABEL: func.func @broadcast_shift_right_arithmetic
// CHECK-NEXT: %0 = chlo.broadcast_shift_right_arithmetic %arg0, %arg1 : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %1 = chlo.broadcast_shift_right_arithmetic %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %2 = chlo.broadcast_shift_right_arithmetic %arg2, %arg0 : (tensor<i64>, tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %3 = chlo.broadcast_shift_right_arithmetic %arg3, %arg1 : (tensor<?x1xi64>, tensor<3xi64>) -> tensor<?x3xi64>
// CHECK-NEXT: return
func.func @broadcast_shift_right_arithmetic(%arg0: tensor<2x3xi64>, %arg1: tensor<3xi64>, %arg2: tensor<i64>, %arg3: tensor<?x1xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<?x3xi64>) {
  %0 = chlo.broadcast_shift_right_arithmetic %arg0, %arg1 : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  %1 = chlo.broadcast_shift_right_arithmetic %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %2 = chlo.broadcast_shift_right_arithmetic %arg2, %arg0 : (tensor<i64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %3 = chlo.broadcast_shift_right_arithmetic %arg3, %arg1 : (tensor<?x1xi64>, tensor<3xi64>) -> tensor<?x3xi64>
  return %0, %1, %2, %3 : tensor<2x3xi64>, tensor<2x3xi64>, tensor<2x3xi64>, tensor<?x3xi64>
}

// CHECK-LABEL: func.func @broadcast_shift_right_logical
// CHECK-NEXT: %0 = chlo.broadcast_shift_right_logical %arg0, %arg1 : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %1 = chlo.broadcast_shift_right_logical %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %2 = chlo.broadcast_shift_right_logical %arg2, %arg0 : (tensor<i8>, tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-NEXT: %3 = chlo.broadcast_shift_right_logical %arg3, %arg1 : (tensor<?x1xi8>, tensor<3xi8>) -> tensor<?x3xi8>
// CHECK-NEXT: return
func.func @broadcast_shift_right_logical(%arg0: tensor<2x3xi8>, %arg1: tensor<3xi8>, %arg2: tensor<i8>, %arg3: tensor<?x1xi8>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<?x3xi8>) {
  %0 = chlo.broadcast_shift_right_logical %arg0, %arg1 : (tensor<2x3xi8>, tensor<3xi8>) -> tensor<2x3xi8>
  %1 = chlo.broadcast_shift_right_logical %arg1, %arg0 {broadcast_dimensions = array<i64: 1>} : (tensor<3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %2 = chlo.broadcast_shift_right_logical %arg2, %arg0 : (tensor<i8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %3 = chlo.broadcast_shift_right_logical %arg3, %arg1 : (tensor<?x1xi8>, tensor<3xi8>) -> tensor<?x3xi8>
  return %0, %1, %2, %3 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<?x3xi8>
}

// CHECK-LABEL: func.func @broadcast_dimensions
// CHECK-NEXT: %0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x1xf32>, tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
// CHECK-NEXT: %1 = chlo.broadcast_add %arg1, %arg1 {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<4x5x6xf32>, tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
// CHECK-NEXT: %2 = chlo.broadcast_add %arg1, %arg2 {broadcast_dimensions = array<i64>} : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x5x6xf32>
// CHECK-NEXT: return
func.func @broadcast_dimensions(%arg0: tensor<4x1xf32>, %arg1: tensor<4x5x6xf32>, %arg2: tensor<f32>) -> (tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>) {
  %0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x1xf32>, tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
  %1 = chlo.broadcast_add %arg1, %arg1 {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<4x5x6xf32>, tensor<4x5x6xf32>) -> tensor<4x5x6xf32>
  %2 = chlo.broadcast_add %arg1, %arg2 {broadcast_dimensions = array<i64>} : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x5x6xf32>
  return %0, %1, %2 : tensor<4x5x6xf32>, tensor<4x5x6xf32>, tensor<4x5x6xf32>
}

// CHECK-LABEL: func.func @broadcast_compare
// CHECK-NEXT: %0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %1 = chlo.broadcast_compare %arg0, %arg1 {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %2 = chlo.broadcast_compare %arg0, %arg1 {compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %3 = chlo.broadcast_compare %arg2, %arg3 {broadcast_dimensions = array<i64: 0>, compare_type = #chlo<comparison_type SIGNED>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi1>
// CHECK-NEXT: %4 = chlo.broadcast_compare %arg4, %arg4 {compare_type = #chlo<comparison_type UNSIGNED>, comparison_direction = #chlo<comparison_direction LE>} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
// CHECK-NEXT: %5 = chlo.broadcast_compare %arg5, %arg5 {compare_type = #chlo<comparison_type NOTYPE>, comparison_direction = #chlo<comparison_direction LT>} : (tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: return
func.func @broadcast_compare(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<2x3xi32>, %arg3: tensor<2xi32>, %arg4: tensor<4xui32>, %arg5: tensor<i1>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<i1>) {
  %0 = chlo.broadcast_compare %arg0, %arg1 {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = chlo.broadcast_compare %arg0, %arg1 {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = chlo.broadcast_compare %arg0, %arg1 {compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction GE>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %3 = chlo.broadcast_compare %arg2, %arg3 {broadcast_dimensions = array<i64: 0>, compare_type = #chlo<comparison_type SIGNED>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi1>
  %4 = chlo.broadcast_compare %arg4, %arg4 {compare_type = #chlo<comparison_type UNSIGNED>, comparison_direction = #chlo<comparison_direction LE>} : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %5 = chlo.broadcast_compare %arg5, %arg5 {compare_type = #chlo<comparison_type NOTYPE>, comparison_direction = #chlo<comparison_direction LT>} : (tensor<i1>, tensor<i1>) -> tensor<i1>
  return %0, %1, %2, %3, %4, %5 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<4xi1>, tensor<i1>
}

// CHECK-LABEL: func.func @broadcast_select
// CHECK-NEXT: %0 = chlo.broadcast_select %arg0, %arg1, %arg2 : (tensor<i1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = chlo.broadcast_select %arg3, %arg1, %arg1 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return
func.func @broadcast_select(%arg0: tensor<i1>, %arg1: tensor<2x3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<2x1xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_select %arg0, %arg1, %arg2 : (tensor<i1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_select %arg3, %arg1, %arg1 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @top_k
// CHECK-NEXT: %values, %indices = chlo.top_k(%arg0, k = 16) : tensor<8x16xf32> -> (tensor<8x16xf32>, tensor<8x16xi32>)
// CHECK-NEXT: %values_0, %indices_1 = chlo.top_k(%arg1, k = 2) : tensor<5xi32> -> (tensor<2xi32>, tensor<2xi32>)
// CHECK-NEXT: %values_2, %indices_3 = chlo.top_k(%arg2, k = 4) : tensor<3x?xbf16> -> (tensor<3x4xbf16>, tensor<3x4xi32>)
// CHECK-NEXT: return
func.func @top_k(%arg0: tensor<8x16xf32>, %arg1: tensor<5xi32>, %arg2: tensor<3x?xbf16>) -> (tensor<8x16xf32>, tensor<2xi32>, tensor<3x4xbf16>) {
  %values, %indices = chlo.top_k(%arg0, k = 16) : tensor<8x16xf32> -> (tensor<8x16xf32>, tensor<8x16xi32>)
  %values_0, %indices_1 = chlo.top_k(%arg1, k = 2) : tensor<5xi32> -> (tensor<2xi32>, tensor<2xi32>)
  %values_2, %indices_3 = chlo.top_k(%arg2, k = 4) : tensor<3x?xbf16> -> (tensor<3x4xbf16>, tensor<3x4xi32>)
  return %values, %indices_1, %values_2 : tensor<8x16xf32>, tensor<2xi32>, tensor<3x4xbf16>
}

// CHECK-LABEL: func.func @constants
// CHECK-NEXT: %0 = chlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %1 = chlo.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-NEXT: %2 = "chlo.constant_like"(%arg0) <{value = 3.200000e+00 : f32}> : (tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT: %3 = "chlo.constant_like"(%arg0) <{value = 1 : i32}> : (tensor<2x?xf32>) -> tensor<2x?xi32>
// CHECK-NEXT: return
func.func @constants(%arg0: tensor<2x?xf32>) -> (tensor<f32>, tensor<3xi32>, tensor<2x?xf32>, tensor<2x?xi32>) {
  %0 = chlo.constant dense<1.000000e+00> : tensor<f32>
  %1 = chlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %2 = "chlo.constant_like"(%arg0) <{value = 3.200000e+00 : f32}> : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %3 = "chlo.constant_like"(%arg0) <{value = 1 : i32}> : (tensor<2x?xf32>) -> tensor<2x?xi32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<3xi32>, tensor<2x?xf32>, tensor<2x?xi32>
}

// CHECK-LABEL: func.func @constant_like_attr_dict
// CHECK-NEXT: %0 = "chlo.constant_like"(%arg0) <{value = 1.000000e+00 : f32}> : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: return
func.func @constant_like_attr_dict(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "chlo.constant_like"(%arg0) {value = 1.000000e+00 : f32} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
