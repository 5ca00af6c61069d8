// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-fuse,floors-tpu-attach-target{tpu=v5e},floors-linalg-lower-stablehlo,floors-tpu-select-blocks,floors-tpu-emit-kernels)' | FileCheck %s

// Rows: a broadcast bias row is one whole window in every step (index map
// (0)), the activations blocks of rows (index map (i, 0)).
// CHECK-LABEL: func.func @bias_add
// CHECK: floors.fusion {{.*}}floors.kernel = "fusion_0"
// CHECK: module @floors_tpu_kernels attributes {floors.kernels = ["fusion_0"]}
// CHECK: module @fusion_0 attributes {stable_mosaic.version = 11 : i64}
// CHECK: func.func @fusion_0(%{{.*}}: i32, %{{.*}}: memref<16xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<8x16xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<8x16xf32, #tpu.memory_space<vmem>>)
// CHECK-SAME: dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 1>
// CHECK-SAME: window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 16>}, {transform_indices = @transform_1, window_bounds = array<i64: 8, 16>}, {transform_indices = @transform_2, window_bounds = array<i64: 8, 16>}]
// CHECK: %[[B:.*]] = vector.load {{.*}} : memref<16xf32, #tpu.memory_space<vmem>>, vector<16xf32>
// CHECK: %[[X:.*]] = vector.load {{.*}} : memref<8x16xf32, #tpu.memory_space<vmem>>, vector<8x16xf32>
// CHECK: %[[R:.*]] = vector.shape_cast %[[B]] : vector<16xf32> to vector<1x16xf32>
// CHECK: %[[BB:.*]] = vector.broadcast %[[R]] : vector<1x16xf32> to vector<8x16xf32>
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[BB]] : vector<8x16xf32>
// CHECK: tpu.vector_store %{{.*}}[%{{.*}}, %{{.*}}], %[[S]] {strides = array<i32>}
// CHECK: func.func @transform_0(%{{.*}}: i32) -> i32
// CHECK: return %c0_i32 : i32
// CHECK: func.func @transform_1(%[[I:.*]]: i32) -> (i32, i32)
// CHECK: return %[[I]], %c0_i32 : i32, i32
func.func @bias_add(%x: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.add %x, %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// Matmul: grid (i, j, k), parallel/parallel/arbitrary, a VMEM accumulator
// zeroed at k = 0, tpu.matmul every step, stored at the last k.
// CHECK-LABEL: func.func @matmul
// CHECK: func.func @fusion_0(%[[I:.*]]: i32, %[[J:.*]]: i32, %[[K:.*]]: i32, %{{.*}}: memref<512x512xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<512x512xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<512x512xf32, #tpu.memory_space<vmem>>, %[[ACC:.*]]: memref<512x512xf32, #tpu.memory_space<vmem>>)
// CHECK-SAME: dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2, 2, 2>
// CHECK-SAME: scratch_operands = 1 : i64
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK: tpu.vector_store %[[ACC]]
// CHECK: tpu.matmul %{{.*}}, %{{.*}}, %{{.*}} {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<512x512xf32>, vector<512x512xf32>, vector<512x512xf32> -> vector<512x512xf32>
// CHECK: arith.addf
// CHECK: tpu.vector_store %[[ACC]]
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : i32
// CHECK: scf.if %[[LAST]] {
// CHECK: vector.load %[[ACC]]
// CHECK: tpu.vector_store
// CHECK: func.func @transform_0(%[[TI:.*]]: i32, %[[TJ:.*]]: i32, %[[TK:.*]]: i32) -> (i32, i32)
// CHECK: return %[[TI]], %[[TK]] : i32, i32
// CHECK: func.func @transform_1(%[[TI:.*]]: i32, %[[TJ:.*]]: i32, %[[TK:.*]]: i32) -> (i32, i32)
// CHECK: return %[[TK]], %[[TJ]] : i32, i32
func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// A row reduction: vector.multi_reduction over the lane dimension.
// CHECK-LABEL: func.func @row_max
// CHECK: vector.multi_reduction <maximumf>, %{{.*}}, %{{.*}} [1] : vector<8x128xf32> to vector<8xf32>
func.func @row_max(%a: tensor<8x128xf32>) -> tensor<8xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<8x128xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Argmax (a reduce of pairs): its combiner keeps one side on ties its
// comparison does not order (JAX's argmax keeps the left NaN), so the
// reduced dimension is folded in order, one element after the other, the
// accumulator always the earlier run (a halving tree would pair element i
// with i + 8 and then mix later elements into the accumulator side); then
// one application with the initial values.
// CHECK-LABEL: func.func @argmax
// CHECK: tpu.iota {dimensions = array<i32: 1>} : vector<8x16xi32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [8, 1], strides = [1, 1]} : vector<8x16xf32> to vector<8x1xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 1], sizes = [8, 1], strides = [1, 1]} : vector<8x16xf32> to vector<8x1xf32>
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 15], sizes = [8, 1], strides = [1, 1]} : vector<8x16xf32> to vector<8x1xf32>
// CHECK-NOT: sizes = [8, 8]
// CHECK: vector.shape_cast %{{.*}} : vector<8x1xi32> to vector<8xi32>
func.func @argmax(%a: tensor<8x16xf32>) -> tensor<8xi32> {
  %i = stablehlo.iota dim = 1 : tensor<8x16xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>) {
      %gt = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
      %j = stablehlo.select %gt, %xi, %yi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
    }
  return %0#1 : tensor<8xi32>
}

// -----

// A longer argmax (2048 > 1024 elements): viewed as 64 contiguous runs of
// 32 (the divisor nearest the square root), every run folded in order at
// once (31 applications on vector<8x64x1>), then the 64 run results in
// order (63 applications on vector<8x1>).
// CHECK-LABEL: func.func @argmax_long
// CHECK: vector.shape_cast %{{.*}} : vector<8x2048xf32> to vector<8x64x32xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 0, 31], sizes = [8, 64, 1], strides = [1, 1, 1]}
// CHECK: vector.shape_cast %{{.*}} : vector<8x64x1xf32> to vector<8x64xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 63], sizes = [8, 1], strides = [1, 1]} : vector<8x64xf32> to vector<8x1xf32>
func.func @argmax_long(%a: tensor<8x2048xf32>) -> tensor<8xi32> {
  %i = stablehlo.iota dim = 1 : tensor<8x2048xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<8x2048xf32>, tensor<8x2048xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    reducer(%x: tensor<f32>, %y: tensor<f32>) (%xi: tensor<i32>, %yi: tensor<i32>) {
      %gt = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
      %j = stablehlo.select %gt, %xi, %yi : tensor<i1>, tensor<i32>
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
    }
  return %0#1 : tensor<8xi32>
}

// -----

// A transpose: the input's window follows the output's rows through the
// indexing map, and the block is transposed in registers.
// CHECK-LABEL: func.func @transpose
// CHECK: vector.transpose %{{.*}}, [1, 0] : vector<16x8xf32> to vector<8x16xf32>
func.func @transpose(%a: tensor<16x8xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A matmul whose contracting (200) and output (192) dimensions are neither
// within one MXU tile nor multiples of it: zero-padded to 256, multiplied,
// and the [8, 192] result sliced back (floors-tpu-check-legality's MXU rule
// holds for floors' own kernels).
// CHECK-LABEL: func.func @unaligned_matmul
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 0], strides = [1, 1]} : vector<8x200xf32> into vector<8x256xf32>
// CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 0], strides = [1, 1]} : vector<200x192xf32> into vector<256x256xf32>
// CHECK: tpu.matmul %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : vector<8x256xf32>, vector<256x256xf32>, vector<8x256xf32> -> vector<8x256xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 0], sizes = [8, 192], strides = [1, 1]} : vector<8x256xf32> to vector<8x192xf32>
func.func @unaligned_matmul(%a: tensor<8x200xf32>, %b: tensor<200x192xf32>) -> tensor<8x192xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x200xf32>, tensor<200x192xf32>) -> tensor<8x192xf32>
  return %0 : tensor<8x192xf32>
}

// -----

// dynamic_slice of an input: the input stays in HBM (`any`) and the slice
// at the computed (clamped) offsets is DMAed into a VMEM scratch and loaded,
// as XLA:TPU and Pallas users do: O(slice), not O(array).
// CHECK-LABEL: func.func @dynamic_slice
// CHECK: func.func @fusion_0(%[[SRC:.*]]: memref<16x256xf32, #tpu.memory_space<any>>, %{{.*}}: memref<i32, #tpu.memory_space<smem>>, %{{.*}}: memref<i32, #tpu.memory_space<smem>>, %[[OUT:.*]]: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[BUF:.*]]: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[SEM:.*]]: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) attributes {{.*}}scratch_operands = 2
// CHECK: %[[SL:.*]] = tpu.memref_slice %[[SRC]][%{{.*}}, %{{.*}}] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x128xf32, #tpu.memory_space<any>>
// CHECK: tpu.enqueue_dma source(%[[SL]] : {{.*}}) target(%[[BUF]] : {{.*}}) target_semaphore(%[[SEM]] : {{.*}})
// CHECK: tpu.wait_dma2 semaphore(%[[SEM]] : {{.*}}) src(%[[SL]] : {{.*}}) dst(%[[BUF]] : {{.*}})
// CHECK: vector.load %[[BUF]][%{{.*}}, %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
func.func @dynamic_slice(%a: tensor<16x256xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<8x128xf32> {
  %0 = stablehlo.dynamic_slice %a, %i, %j, sizes = [8, 128] : (tensor<16x256xf32>, tensor<i32>, tensor<i32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// dynamic_update_slice of an input in place: the input aliased to the result
// in HBM (floors.input_output_aliases, the hand-off's output_operand_aliases),
// the update stored into a VMEM scratch and DMAed to its offsets.
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK: module @fusion_0 attributes {floors.input_output_aliases = array<i64: 0, 0>
// CHECK: func.func @fusion_0(%[[DST:.*]]: memref<16x256xf32, #tpu.memory_space<any>>, %{{.*}}: memref<8x256xf32, #tpu.memory_space<vmem>>, %{{.*}}: memref<i32, #tpu.memory_space<smem>>, %[[OUT:.*]]: memref<16x256xf32, #tpu.memory_space<any>>, %[[BUF:.*]]: memref<8x256xf32, #tpu.memory_space<vmem>>, %[[SEM:.*]]: memref<!tpu.dma_semaphore
// CHECK: tpu.vector_store %[[BUF]]
// CHECK: %[[SL:.*]] = tpu.memref_slice %[[OUT]][%{{.*}}, %{{.*}}] : memref<16x256xf32, #tpu.memory_space<any>> -> memref<8x256xf32, #tpu.memory_space<any>>
// CHECK: tpu.enqueue_dma source(%[[BUF]] : {{.*}}) target(%[[SL]] : {{.*}}) target_semaphore(%[[SEM]] : {{.*}})
// CHECK: tpu.wait_dma2
func.func @dynamic_update_slice(%a: tensor<16x256xf32>, %u: tensor<8x256xf32>, %i: tensor<i32>) -> tensor<16x256xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %a, %u, %i, %c : (tensor<16x256xf32>, tensor<8x256xf32>, tensor<i32>, tensor<i32>) -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

// A slice at computed offsets of a value computed in the kernel: the block
// rotated back by each offset (tpu.dynamic_rotate by (n - o) mod n, as
// `pltpu.roll`) and sliced at 0.
// CHECK-LABEL: func.func @dynamic_slice_of_a_value
// CHECK: func.func @fusion_0(
// CHECK: math.exp
// CHECK: %[[R0:.*]] = arith.remsi %{{.*}}, %c16_i32 : i32
// CHECK: %[[V0:.*]] = tpu.dynamic_rotate %{{.*}} by %[[R0]] dim 0 : vector<16x256xf32>, i32 -> vector<16x256xf32>
// CHECK: %[[R1:.*]] = arith.remsi %{{.*}}, %c256_i32 : i32
// CHECK: %[[V1:.*]] = tpu.dynamic_rotate %[[V0]] by %[[R1]] dim 1
// CHECK: vector.extract_strided_slice %[[V1]] {offsets = [0, 0], sizes = [8, 256], strides = [1, 1]} : vector<16x256xf32> to vector<8x256xf32>
func.func @dynamic_slice_of_a_value(%a: tensor<16x256xf32>, %i: tensor<i32>) -> tensor<8x256xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %x = stablehlo.exponential %a : tensor<16x256xf32>
  %s = stablehlo.dynamic_slice %x, %i, %c, sizes = [8, 256] : (tensor<16x256xf32>, tensor<i32>, tensor<i32>) -> tensor<8x256xf32>
  return %s : tensor<8x256xf32>
}

// -----

// A bf16 dot with an f32 result lowers to a generic that widens in its
// body; it runs on the MXU with the bf16 operands (not as a broadcast,
// multiply and reduce on the vector unit).
// CHECK-LABEL: func.func @bf16_dot_f32
// CHECK: func.func @fusion_0(
// CHECK-NOT: vector.multi_reduction
// CHECK: tpu.matmul %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : vector<64x256xbf16>, vector<256x128xbf16>, vector<64x128xf32> -> vector<64x128xf32>
func.func @bf16_dot_f32(%a: tensor<64x256xbf16>, %b: tensor<256x128xbf16>) -> tensor<64x128xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x256xbf16>, tensor<256x128xbf16>) -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// q·kᵀ (the right operand stored transposed): the block turned on the XLU,
// then the MXU.
// CHECK-LABEL: func.func @q_kt
// CHECK: func.func @fusion_0(
// CHECK-NOT: vector.multi_reduction
// CHECK: %[[T:.*]] = vector.transpose %{{.*}}, [1, 0] : vector<96x128xf32> to vector<128x96xf32>
// CHECK: tpu.matmul %{{.*}}, %[[T]], %{{.*}} {{.*}} : vector<64x128xf32>, vector<128x96xf32>, vector<64x96xf32> -> vector<64x96xf32>
func.func @q_kt(%q: tensor<64x128xf32>, %k: tensor<96x128xf32>) -> tensor<64x96xf32> {
  %0 = stablehlo.dot_general %q, %k, contracting_dims = [1] x [1] : (tensor<64x128xf32>, tensor<96x128xf32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// A gather of whole rows (x[idx]): the source stays in HBM, the indices go
// to SMEM, and each row index is computed on the scalar core (the clamp of
// the gather's lowering) and its row DMAed into a VMEM scratch, as Pallas
// users write a gather.
// CHECK-LABEL: func.func @gather_rows
// CHECK: func.func @fusion_{{.*}}(%[[SRC:.*]]: memref<10x128xf32, #tpu.memory_space<any>>, %[[IDX:.*]]: memref<8x1xi32, #tpu.memory_space<smem>>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c8 step
// CHECK: memref.load %[[IDX]][%[[I]], %{{.*}}] : memref<8x1xi32, #tpu.memory_space<smem>>
// CHECK: arith.minsi
// CHECK: %[[ROW:.*]] = tpu.memref_slice %[[SRC]][%{{.*}}, %{{.*}}] : memref<10x128xf32, #tpu.memory_space<any>> -> memref<1x128xf32, #tpu.memory_space<any>>
// CHECK: tpu.enqueue_dma source(%[[ROW]] : {{.*}})
// CHECK: tpu.wait_dma2
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
func.func @gather_rows(%x: tensor<10x128xf32>, %i: tensor<8x1xi32>) -> tensor<8x128xf32> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<10x128xf32>, tensor<8x1xi32>) -> tensor<8x128xf32>
  return %0 : tensor<8x128xf32>
}

// -----

// x[idx] as JAX writes it: the wrap of negative indices (idx < 0 ? idx + n :
// idx) fused with the gather. The wrap is computed per row on the scalar
// core from the indices in SMEM, not as vectors.
// CHECK-LABEL: func.func @gather_wrapped
// CHECK: func.func @fusion_0(%[[IDX:.*]]: memref<16xi32, #tpu.memory_space<smem>>, %[[SRC:.*]]: memref<40x128xf32, #tpu.memory_space<any>>
// CHECK-NOT: vector.load %[[IDX]]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c16 step
// CHECK: %[[V:.*]] = memref.load %[[IDX]][%[[I]]] : memref<16xi32, #tpu.memory_space<smem>>
// CHECK: arith.cmpi slt, %[[V]], %{{.*}} : i32
// CHECK: arith.addi %{{.*}}, %c40_i32 : i32
// CHECK: arith.select
// CHECK: tpu.memref_slice %[[SRC]]
// CHECK: tpu.enqueue_dma
func.func @gather_wrapped(%x: tensor<40x128xf32>, %i: tensor<16xi32>) -> tensor<16x128xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<16xi32>
  %c40 = stablehlo.constant dense<40> : tensor<16xi32>
  %neg = stablehlo.compare LT, %i, %c0, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
  %up = stablehlo.add %i, %c40 : tensor<16xi32>
  %w = stablehlo.select %neg, %up, %i : tensor<16xi1>, tensor<16xi32>
  %r = stablehlo.reshape %w : (tensor<16xi32>) -> tensor<16x1xi32>
  %0 = "stablehlo.gather"(%x, %r) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<40x128xf32>, tensor<16x1xi32>) -> tensor<16x128xf32>
  return %0 : tensor<16x128xf32>
}

// -----

// A reversal longer than 512 (too many slices to pick one by one): padded
// to 1024 with tpu.concatenate, then 10 butterfly steps — step k swaps each
// element with its partner k away (i xor k: a roll by 1024 − k or by k,
// chosen by bit k of the position) — and the reversed 600 sliced from 424.
// CHECK-LABEL: func.func @long_reverse
// CHECK: %[[P:.*]] = tpu.concatenate %{{.*}}, %{{.*}} in 0 : vector<600xf32>, vector<424xf32> -> vector<1024xf32>
// CHECK: %[[POS:.*]] = tpu.iota {dimensions = array<i32: 0>} : vector<1024xi32>
// CHECK: %[[AHEAD:.*]] = tpu.dynamic_rotate %[[P]] by %c1023_i32 dim 0
// CHECK: %[[BEHIND:.*]] = tpu.dynamic_rotate %[[P]] by %c1_i32{{.*}} dim 0
// CHECK: arith.select %{{.*}}, %[[AHEAD]], %[[BEHIND]] : vector<1024xi1>, vector<1024xf32>
// CHECK: tpu.dynamic_rotate %{{.*}} by %c512_i32{{.*}} dim 0
// CHECK: %[[R:.*]] = arith.select
// CHECK: vector.extract_strided_slice %[[R]] {offsets = [424], sizes = [600], strides = [1]} : vector<1024xf32> to vector<600xf32>
func.func @long_reverse(%x: tensor<600xf32>) -> tensor<600xf32> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<600xf32>
  return %0 : tensor<600xf32>
}

// -----

// Precision as JAX asks: an f32 dot at HIGHEST (or HIGH) runs full f32
// passes on the MXU (`#tpu.contract_precision<fp32>`, what Pallas writes for
// HIGHEST); at DEFAULT the matmul keeps Mosaic's default.
// CHECK-LABEL: func.func @dot_highest
// CHECK: tpu.matmul {{.*}} precision = #tpu.contract_precision<fp32>
func.func @dot_highest(%a: tensor<16x32xf32>, %b: tensor<32x128xf32>) -> tensor<16x128xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  return %0 : tensor<16x128xf32>
}

// -----

// CHECK-LABEL: func.func @dot_default
// CHECK: tpu.matmul
// CHECK-NOT: contract_precision
// CHECK: return
func.func @dot_default(%a: tensor<16x32xf32>, %b: tensor<32x128xf32>) -> tensor<16x128xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  return %0 : tensor<16x128xf32>
}
