// REQUIRES: floors-cli
// RUN: %floors compile --target gpu --fusion-report %S/Inputs/gpu_emitters.mlir | FileCheck %s
// RUN: %floors compile --target gpu --gpu-gemm emitter --fusion-report %S/Inputs/gpu_emitters.mlir | FileCheck %s --check-prefix=EMITTER

// The GPU fusion report names each emitter kind's choice (XLA's order) and,
// per launch, the code that generated it, on one small fusion per kind.
// CHECK-DAG: emitter loop — no reduction, transpose, slice, scatter or concatenate hero; codegen loop(grid-stride, 4 per thread, v4)
// CHECK-DAG: emitter reduction — reduction hero reduces the minor dimension: row reduction of 512 rows x 256 (plan: a warp per row); codegen loop(grid-stride, 4 per thread, v4); row-reduction(warp)
// CHECK-DAG: emitter reduction — reduction hero keeps the minor dimension: column reduction of 256 columns x 512 {{.*}}; codegen loop(grid-stride, 4 per thread, v4); column-reduction(shared)
// CHECK-DAG: emitter transpose — transpose hero moves the minor dimension {{.*}}; codegen transpose(shared 32x33)
// CHECK-DAG: emitter scatter — single scatter root: combiner stablehlo.add as atomics, one thread per update; codegen {{.*}}scatter(atomic)
// CHECK-DAG: emitter concatenate — concatenate hero with 2 operands (at most 4); codegen concatenate(largest operand 4x16, 2 operands)
// CHECK-DAG: launch {{.*}}: concatenate(largest operand 4x16, 2 operands); grid [1, 1, 1] block [64, 1, 1]
// CHECK-DAG: emitter input_slices — several roots, all slices of the same input; codegen input-slices(2 slices of 8x16)
// CHECK-DAG: launch {{.*}}: input-slices(2 slices of 8x16); grid [1, 1, 1] block [128, 1, 1]
// CHECK-DAG: fusion {{[0-9]+}} (library call): emitter cublas — stamped by floors-gpu-rewrite-gemm
// CHECK-DAG: library call gemm: F32 1x100x16x32

// With --gpu-gemm emitter the dot is floors' tiled GEMM.
// EMITTER: emitter gemm — dot hero (stablehlo.dot_general): floors' GEMM emitter {{.*}}; codegen gemm(simt 64x64x16, 4x4 per thread)
