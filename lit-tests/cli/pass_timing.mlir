// REQUIRES: floors-cli
// `floors compile --pass-timing` prints MLIR's pass timing report to stderr:
// one for the pipeline up to the kernels (the floors passes by name), and
// one per kernel part lowered on its own thread; the artifact is still written.
// RUN: %floors compile %s --pass-timing -o %t.floors 2>&1 >/dev/null | FileCheck %s
// RUN: test -s %t.floors
// CHECK: Execution time report
// CHECK-DAG: FloorsHloAnnotateTripCounts
// CHECK-DAG: FloorsHloFuse
// CHECK-DAG: FloorsLinalgOutlineKernels
// CHECK: Execution time report
// CHECK: FloorsCpuTileAndVectorize
module @timed {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32>
    %1 = stablehlo.tanh %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
