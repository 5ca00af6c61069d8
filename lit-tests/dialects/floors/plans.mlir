// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s

// The GPU floor's plan for a fusion (floors-gpu-select-emitter writes it):
// a typed attribute that prints and parses back.
// CHECK-LABEL: func.func @planned
// CHECK: floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "row reduction of 8 rows x 16", block = [32, 8, 1], grid = [1, 1, 1]>
func.func @planned(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<8x16xf32>) -> tensor<8x16xf32> attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction", reason = "row reduction of 8 rows x 16", block = [32, 8, 1], grid = [1, 1, 1]>} {
    floors.yield %a : tensor<8x16xf32>
  }
  return %0 : tensor<8x16xf32>
}
