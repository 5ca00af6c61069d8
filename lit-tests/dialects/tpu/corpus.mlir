// Every Pallas kernel of the corpus parses and prints back as jaxlib printed
// it (the files are jaxlib's output), and print | parse | print is stable.
// RUN: %floors-opt %corpus/mosaic/matmul.mosaic.mlir | head -n -1 > %t.matmul
// RUN: diff %t.matmul %corpus/mosaic/matmul.mosaic.mlir
// RUN: %floors-opt %t.matmul | head -n -1 | diff - %t.matmul
// RUN: %floors-opt %corpus/mosaic/dma.mosaic.mlir | head -n -1 > %t.dma
// RUN: diff %t.dma %corpus/mosaic/dma.mosaic.mlir
// RUN: %floors-opt %t.dma | head -n -1 | diff - %t.dma
// RUN: %floors-opt %corpus/mosaic/add.mosaic.mlir | head -n -1 | diff - %corpus/mosaic/add.mosaic.mlir
// RUN: %floors-opt %corpus/mosaic/softmax.mosaic.mlir | head -n -1 | diff - %corpus/mosaic/softmax.mosaic.mlir
// RUN: %floors-opt %corpus/mosaic/gather_rows.mosaic.mlir | head -n -1 | diff - %corpus/mosaic/gather_rows.mosaic.mlir
// RUN: %floors-opt %corpus/mosaic/matmul.mosaic.mlir | FileCheck %s --check-prefix=MATMUL
// RUN: %floors-opt %corpus/mosaic/dma.mosaic.mlir | FileCheck %s --check-prefix=DMA

// MATMUL: module attributes {stable_mosaic.version = 11 : i64}
// MATMUL: func.func @matmul_kernel(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: memref<128x128xf32, #tpu.memory_space<vmem>>
// MATMUL-SAME: dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<arbitrary>]
// MATMUL-SAME: tpu.core_type = #tpu.core_type<tc>
// MATMUL: tpu.vector_store %arg6[%c0_10, %c0_11], %12 {strides = array<i32>} : memref<128x128xf32, #tpu.memory_space<vmem>>, vector<128x128xf32>,
// MATMUL: %6 = tpu.matmul %4, %5, %cst {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>

// DMA: %arg4: memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
// DMA: %0 = tpu.memref_slice %arg4[%c0_i32_0] : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
// DMA: %1 = tpu.memref_squeeze %0 : memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
// DMA: tpu.enqueue_dma source(%4 : memref<128x128xf32, #tpu.memory_space<any>>) target(%3 : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%1 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
// DMA: tpu.wait_dma2 semaphore(%32 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%35 : memref<128x128xf32, #tpu.memory_space<any>>) dst(%34 : memref<128x128xf32, #tpu.memory_space<vmem>>)
