// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo{keep-sorts=true keep-scatters=true conv-as-dots=true windows-as-slices=true},floors-tpu-select-blocks,floors-tpu-emit-kernels,floors-tpu-check-legality)' | FileCheck %s

// x.at[i].add(u) as JAX writes it (negative indices wrapped in the fusion):
// the operand stays in HBM, aliased to the result; the updates are stored
// once in a VMEM scratch; per update on the scalar core, the wrapped index
// is recomputed from the indices in SMEM, bounds-checked, and the row is
// DMAed in, added to and DMAed back.
// CHECK-LABEL: func.func @scatter_add_rows
// CHECK: module @fusion_0 attributes {floors.input_output_aliases = array<i64: 1, 0>
// CHECK: func.func @fusion_0(%[[IDX:.*]]: memref<8xi32, #tpu.memory_space<smem>>, %{{.*}}: memref<64x128xf32, #tpu.memory_space<any>>, %[[U:.*]]: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[OUT:.*]]: memref<64x128xf32, #tpu.memory_space<any>>, %[[UBUF:.*]]: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[ROW:.*]]: memref<1x128xf32, #tpu.memory_space<vmem>>, %[[SEM:.*]]: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
// CHECK: tpu.vector_store %[[UBUF]]
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c8 step
// CHECK: memref.load %[[IDX]][%[[N]]]
// CHECK: %[[J:.*]] = arith.select
// CHECK: arith.cmpi sge, %[[J]]
// CHECK: arith.cmpi slt, %[[J]], %c64_i32
// CHECK: scf.if
// CHECK: %[[NEW:.*]] = vector.load %[[UBUF]][%[[N]], %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
// CHECK: %[[DST:.*]] = tpu.memref_slice %[[OUT]][%[[J]], %{{.*}}] : memref<64x128xf32, #tpu.memory_space<any>> -> memref<1x128xf32, #tpu.memory_space<any>>
// CHECK: tpu.enqueue_dma source(%[[DST]] : {{.*}}) target(%[[ROW]] : {{.*}})
// CHECK: tpu.wait_dma2
// CHECK: %[[OLD:.*]] = vector.load %[[ROW]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[NEW]] : vector<1x128xf32>
// CHECK: tpu.vector_store %[[ROW]][%{{.*}}], %[[SUM]]
// CHECK: tpu.enqueue_dma source(%[[ROW]] : {{.*}}) target(%[[DST]] : {{.*}})
// CHECK: tpu.wait_dma2
func.func @scatter_add_rows(%x: tensor<64x128xf32>, %i: tensor<8xi32>, %u: tensor<8x128xf32>) -> tensor<64x128xf32> {
  %c = stablehlo.constant dense<64> : tensor<8xi32>
  %z = stablehlo.constant dense<0> : tensor<8xi32>
  %neg = stablehlo.compare LT, %i, %z, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %w = stablehlo.add %i, %c : tensor<8xi32>
  %j = stablehlo.select %neg, %w, %i : tensor<8xi1>, tensor<8xi32>
  %j2 = stablehlo.reshape %j : (tensor<8xi32>) -> tensor<8x1xi32>
  %0 = "stablehlo.scatter"(%x, %j2, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<64x128xf32>, tensor<8x1xi32>, tensor<8x128xf32>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// A scatter into a computed array (segment_max's -inf): the operand is
// stored into the output's VMEM window, then each row is loaded, combined
// and stored there at its dynamic index.
// CHECK-LABEL: func.func @segment_max
// CHECK: func.func @fusion_0(%[[IDX:.*]]: memref<16xi32, #tpu.memory_space<smem>>, %{{.*}}: memref<16x128xf32, #tpu.memory_space<vmem>>, %[[OUT:.*]]: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[UBUF:.*]]: memref<16x128xf32, #tpu.memory_space<vmem>>,
// CHECK: %[[INIT:.*]] = arith.constant dense<0xFF800000> : vector<8x128xf32>
// CHECK: tpu.vector_store %[[OUT]][%{{.*}}, %{{.*}}], %[[INIT]]
// CHECK: scf.for %[[N:.*]] =
// CHECK: %[[J:.*]] = memref.load %[[IDX]][%[[N]]]
// CHECK: scf.if
// CHECK: %[[NEW:.*]] = vector.load %[[UBUF]][%[[N]], %{{.*}}]
// CHECK: %[[AT:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK: %[[OLD:.*]] = vector.load %[[OUT]][%[[AT]], %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<1x128xf32>
// CHECK: %[[M:.*]] = arith.maximumf %[[OLD]], %[[NEW]] : vector<1x128xf32>
// CHECK: tpu.vector_store %[[OUT]][%[[AT]], %{{.*}}], %[[M]]
func.func @segment_max(%i: tensor<16xi32>, %u: tensor<16x128xf32>) -> tensor<8x128xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<8x128xf32>
  %0 = "stablehlo.scatter"(%init, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x128xf32>, tensor<16xi32>, tensor<16x128xf32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}
