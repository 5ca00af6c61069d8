// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Complex numbers: real, imag, complex, and complex<f32>/complex<f64>
// elements where the spec allows them.

// CHECK-LABEL: func.func @parts(%arg0: tensor<20x20xcomplex<f64>>, %arg1: tensor<3x4xcomplex<f32>>) -> (tensor<20x20xf64>, tensor<3x4xf32>) {
// CHECK-NEXT: %0 = stablehlo.real %arg0 : (tensor<20x20xcomplex<f64>>) -> tensor<20x20xf64>
// CHECK-NEXT: %1 = stablehlo.imag %arg1 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
// CHECK-NEXT: return %0, %1 : tensor<20x20xf64>, tensor<3x4xf32>
func.func @parts(%arg0: tensor<20x20xcomplex<f64>>, %arg1: tensor<3x4xcomplex<f32>>) -> (tensor<20x20xf64>, tensor<3x4xf32>) {
  %0 = stablehlo.real %arg0 : (tensor<20x20xcomplex<f64>>) -> tensor<20x20xf64>
  %1 = stablehlo.imag %arg1 : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
  return %0, %1 : tensor<20x20xf64>, tensor<3x4xf32>
}

// real and imag of a float tensor: the value itself and zeros.
// CHECK-LABEL: func.func @parts_of_float(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %0 = stablehlo.real %arg0 : tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.imag %arg0 : tensor<4xf32>
// CHECK-NEXT: return %0, %1 : tensor<4xf32>, tensor<4xf32>
func.func @parts_of_float(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.real %arg0 : tensor<4xf32>
  %1 = stablehlo.imag %arg0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @complex(%arg0: tensor<3x2xf32>, %arg1: tensor<3x2xf32>) -> tensor<3x2xcomplex<f32>> {
// CHECK-NEXT: %0 = stablehlo.complex %arg0, %arg1 : tensor<3x2xcomplex<f32>>
// CHECK-NEXT: return %0 : tensor<3x2xcomplex<f32>>
func.func @complex(%arg0: tensor<3x2xf32>, %arg1: tensor<3x2xf32>) -> tensor<3x2xcomplex<f32>> {
  %0 = stablehlo.complex %arg0, %arg1 : tensor<3x2xcomplex<f32>>
  return %0 : tensor<3x2xcomplex<f32>>
}

// CHECK-LABEL: func.func @complex_math(%arg0: tensor<4xcomplex<f32>>, %arg1: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi1>) {
// CHECK-NEXT: %cst = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<4xcomplex<f32>>
// CHECK-NEXT: %0 = stablehlo.multiply %arg0, %arg1 : tensor<4xcomplex<f32>>
// CHECK-NEXT: %1 = stablehlo.add %0, %cst : tensor<4xcomplex<f32>>
// CHECK-NEXT: %2 = stablehlo.exponential %1 : tensor<4xcomplex<f32>>
// CHECK-NEXT: %3 = stablehlo.abs %2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// CHECK-NEXT: %4 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
// CHECK-NEXT: return %2, %3, %4 : tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi1>
func.func @complex_math(%arg0: tensor<4xcomplex<f32>>, %arg1: tensor<4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi1>) {
  %cst = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<4xcomplex<f32>>
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<4xcomplex<f32>>
  %1 = stablehlo.add %0, %cst : tensor<4xcomplex<f32>>
  %2 = stablehlo.exponential %1 : tensor<4xcomplex<f32>>
  %3 = stablehlo.abs %2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %4 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  return %2, %3, %4 : tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xi1>
}
