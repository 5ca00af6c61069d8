// floors-tpu-serde: normal form -> jaxlib's wire form (version 11) -> normal form.
// RUN: %floors-opt %corpus/mosaic/dma.mosaic.mlir --allow-unregistered-dialect --pass-pipeline='builtin.module(floors-tpu-serde)' --mlir-print-op-generic > %t.wire
// RUN: %floors-opt %corpus/mosaic/dma.mosaic.serialized.mlir --allow-unregistered-dialect --mlir-print-op-generic | diff - %t.wire
// RUN: %floors-opt %t.wire --allow-unregistered-dialect --pass-pipeline='builtin.module(floors-tpu-serde{serialize=false})' | head -n -1 | diff - %corpus/mosaic/dma.mosaic.mlir
// RUN: %floors-opt %corpus/mosaic/matmul.mosaic.mlir --allow-unregistered-dialect --pass-pipeline='builtin.module(floors-tpu-serde)' --mlir-print-op-generic > %t.mwire
// RUN: %floors-opt %corpus/mosaic/matmul.mosaic.serialized.mlir --allow-unregistered-dialect --mlir-print-op-generic | diff - %t.mwire
// RUN: %floors-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(floors-tpu-serde)' | FileCheck %s
// RUN: %floors-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(floors-tpu-serde,floors-tpu-serde{serialize=false})' | FileCheck %s --check-prefix=BACK
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-serde)' 2>&1 | FileCheck %s --check-prefix=NOUNREG

// Version-11 downgrades: matmul loses transpose_lhs_hint, enqueue_dma and
// sem_signal lose the subcore_id segment; every default-valued attribute is
// spelled out.
// CHECK: module attributes {stable_mosaic.version = 11 : i64}
// CHECK: "stable_mosaic.func.func"()
// CHECK: "stable_mosaic.tpu.matmul"(%arg0, %arg1, %arg2) {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs = false, transpose_rhs = false}
// CHECK: "stable_mosaic.tpu.vector_store"(%{{.*}}, %arg3, %{{.*}}, %{{.*}}) {add = false, operandSegmentSizes = array<i32: 1, 1, 2, 0>, strides = array<i32>}
// CHECK: "stable_mosaic.tpu.enqueue_dma"(%arg4, %arg5, %arg6) {operandSegmentSizes = array<i32: 1, 0, 1, 1, 0, 0>, priority = 0 : i32, strict_ordering = false}
// CHECK: "stable_mosaic.tpu.sem_signal"(%arg7, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0>}
// CHECK: "stable_mosaic.tpu.iota"() {dimensions = array<i32: 0>}
// CHECK: "stable_mosaic.func.return"()

// BACK: module attributes {stable_mosaic.version = 11 : i64}
// BACK: tpu.matmul %arg0, %arg1, %arg2 {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false}
// BACK: tpu.vector_store %arg3[%c0, %c0], %0 {strides = array<i32>}
// BACK: tpu.enqueue_dma source(%arg4 : memref<128x128xf32, #tpu.memory_space<any>>) target(%arg5
// BACK: tpu.sem_signal %arg7, %c1_i32 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// BACK: tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>

// NOUNREG: error: serializing needs a context that allows unregistered dialects

module {
  func.func @k(%a: vector<128x128xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>, %out: memref<128x128xf32, #tpu.memory_space<vmem>>, %src: memref<128x128xf32, #tpu.memory_space<any>>, %dst: memref<128x128xf32, #tpu.memory_space<vmem>>, %sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %csem: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {
    %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
    %c0 = arith.constant 0 : index
    tpu.vector_store %out[%c0, %c0], %0 {strides = array<i32>} : memref<128x128xf32, #tpu.memory_space<vmem>>, vector<128x128xf32>,
    tpu.enqueue_dma source(%src : memref<128x128xf32, #tpu.memory_space<any>>) target(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    %c1_i32 = arith.constant 1 : i32
    tpu.sem_signal %csem, %c1_i32 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    %1 = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
    return
  }
}
