// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s
// Uniform quantization: uniform_quantize / uniform_dequantize, per-tensor and
// per-axis, and per-tensor quantized tensors through ordinary ops.

// CHECK-LABEL: func.func @per_tensor(%arg0: tensor<20x20xf32>) -> tensor<20x20xf32> {
// CHECK-NEXT: %0 = stablehlo.uniform_quantize %arg0 : (tensor<20x20xf32>) -> tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
// CHECK-NEXT: %1 = stablehlo.abs %0 : tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
// CHECK-NEXT: %2 = stablehlo.add %1, %1 : tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>) -> tensor<20x20x!quant.uniform<i16:f32, 1.000000e-02>>
// CHECK-NEXT: %4 = stablehlo.uniform_dequantize %3 : (tensor<20x20x!quant.uniform<i16:f32, 1.000000e-02>>) -> tensor<20x20xf32>
// CHECK-NEXT: return %4 : tensor<20x20xf32>
func.func @per_tensor(%arg0: tensor<20x20xf32>) -> tensor<20x20xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<20x20xf32>) -> tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
  %1 = stablehlo.abs %0 : tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
  %2 = stablehlo.add %1, %1 : tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>
  %3 = stablehlo.uniform_quantize %2 : (tensor<20x20x!quant.uniform<i8:f32, 0.0039215482917486456:-128>>) -> tensor<20x20x!quant.uniform<i16:f32, 1.000000e-02>>
  %4 = stablehlo.uniform_dequantize %3 : (tensor<20x20x!quant.uniform<i16:f32, 1.000000e-02>>) -> tensor<20x20xf32>
  return %4 : tensor<20x20xf32>
}

// CHECK-LABEL: func.func @per_axis(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20}>>
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %0 : (tensor<2x3x!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20}>>) -> tensor<2x3xf32>
// CHECK-NEXT: return %1 : tensor<2x3xf32>
func.func @per_axis(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20}>>
  %1 = stablehlo.uniform_dequantize %0 : (tensor<2x3x!quant.uniform<i8:f32:0, {1.000000e-01:-30,5.000000e-01:-20}>>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
