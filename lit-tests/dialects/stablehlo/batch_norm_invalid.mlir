// RUN: %floors-opt %s -split-input-file -verify-diagnostics
func.func @training_feature_index(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op feature_index = 2 is out of range for operand rank 2}}
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) <{epsilon = 1.000000e-03 : f32, feature_index = 2 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>
}
// -----
func.func @training_scale(%x: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op scale must be a 1-d tensor of 3 elements (the operand's feature dimension), got 'tensor<2xf32>'}}
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>
}
// -----
func.func @grad_output(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %g: tensor<3x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_grad' op grad_output type 'tensor<3x2xf32>' must match operand type 'tensor<2x3xf32>'}}
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %g) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3xf32>
}
