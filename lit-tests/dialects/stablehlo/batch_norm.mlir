// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// batch_norm_training and batch_norm_grad (batch_norm_inference: misc.mlir),
// generic form as JAX prints them.

// CHECK-LABEL: func.func @training(%arg0: tensor<2x2x2xf64>, %arg1: tensor<2xf64>, %arg2: tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) {
// CHECK-NEXT: %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
// CHECK-NEXT: return %output, %batch_mean, %batch_var : tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
func.func @training(%arg0: tensor<2x2x2xf64>, %arg1: tensor<2xf64>, %arg2: tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) {
  %output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) <{epsilon = 9.99999974E-6 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  return %output, %batch_mean, %batch_var : tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>
}

// CHECK-LABEL: func.func @grad(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
// CHECK-NEXT: %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT: return %grad_operand, %grad_scale, %grad_offset : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
func.func @grad(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %grad_operand, %grad_scale, %grad_offset = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %grad_operand, %grad_scale, %grad_offset : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}
