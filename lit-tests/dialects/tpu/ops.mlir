// RUN: %floors-opt %s | FileCheck %s
// RUN: %floors-opt %s | %floors-opt | FileCheck %s
// RUN: %floors-opt %s --mlir-print-op-generic | %floors-opt | FileCheck %s

// One use of every tpu op floors defines, in the printed form of jaxlib
// 0.10.2 (python/tests/test_tpu_oracle.py checks the same text against
// jaxlib's own dialect). Ops that jaxlib only accepts on a SparseCore
// subcore live in @sc_ops. Not here: tpu.relayout (jaxlib requires vector
// layout attributes floors does not define).

// CHECK-LABEL: func.func @vector_ops(
// CHECK: %0 = tpu.all_reduce %arg0 {dim = 0 : i64, kind = #tpu.reduction_kind<sum>} : vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %1 = tpu.reduce_index %arg0 {axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>} : vector<8x128xf32> -> vector<8xi32>
// CHECK: %output_mask, %sorted_keys, %sorted_values = tpu.sort %arg0, %arg1 masked %arg2 {descending = true} : (vector<8x128xf32>, vector<8x128xi32>, vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xi32>)
// CHECK: tpu.store %arg5[%arg4, %arg4], %arg0 sublanes [true, true, true, true, true, true, true, false] sublane_stride 2 : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
// CHECK: %2 = tpu.load %arg5[%arg4, %arg4] sublanes [true, true, true, true, true, true, true, true] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
// CHECK: tpu.vector_store %arg5[%arg4, %arg4], %arg0 masked %arg2 {add = true, strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK: %3 = tpu.vector_load %arg5[%arg4, %arg4] {strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
// CHECK: %4 = tpu.vector_load %arg5[%arg4, %arg4] masked %arg2 {strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
// CHECK: %5 = tpu.strided_load %arg5[%arg4, %arg4] {strides = array<i32: 2, 1>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
// CHECK: tpu.strided_store %arg5[%arg4, %arg4], %arg0 {strides = array<i32: 2, 1>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
// CHECK: %6 = tpu.shuffled_load %arg5[%arg4, %arg4] {sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
// CHECK: tpu.shuffled_store %arg5[%arg4, %arg4], %arg0 {sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
// CHECK: %7 = tpu.vector_load_idx %arg6[%arg1, %arg1] masked %arg2 : memref<16x128xi32, #tpu.memory_space<vmem>>[vector<8x128xi32>, vector<8x128xi32>], vector<8x128xi32>, vector<8x128xi1>
// CHECK: %8 = tpu.dynamic_rotate %arg0 by %arg3 dim 1 {stride = 1 : si32, stride_dimension = 0 : si32} : vector<8x128xf32>, i32 -> vector<8x128xf32>
// CHECK: %out_mask, %counts = tpu.scan_count mask(%arg2 : vector<8x128xi1>) value(%arg1 : vector<8x128xi32>) : vector<8x128xi1>, vector<8x128xi32>
// CHECK: %9 = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
// CHECK: %10 = tpu.reshape %arg0 : vector<8x128xf32> -> vector<1024xf32>
// CHECK: %11 = tpu.repeat %arg0, 1 x 2 : vector<8x128xf32> -> vector<8x256xf32>
// CHECK: %12 = tpu.broadcast_in_sublanes %arg0, 0 : vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %13 = tpu.concatenate %arg0, %arg0 in 0 : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xf32>
// CHECK: %14 = tpu.bitcast %arg1 : vector<8x128xi32> -> vector<8x128xf32>
// CHECK: %15 = tpu.bitcast_vreg %arg1 : vector<8x128xi32> -> vector<8x128xf32>
// CHECK: %16 = tpu.weird %arg0 : vector<8x128xf32> -> vector<8x128xi1>
// CHECK: %17 = tpu.reciprocal %arg0 {approx = true} : vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %18 = tpu.gather %arg0{{\[\[}}0, 1, 2, 3, 4, 5, 6, 7{{\]\]}} in 0 : vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %19 = tpu.dynamic_gather %arg0[%arg1] in [1] : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xf32>
// CHECK: %20 = tpu.transpose %arg0, [1, 0] : vector<8x128xf32> -> vector<128x8xf32>
// CHECK: %21 = tpu.sublane_shuffle %arg0, %arg0, [0, 1, 2, 3, 8, 9, 10, 11] : vector<8x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %22 = tpu.create_mask[%arg4, %arg4] [%arg4, %arg4] : vector<8x128xi1>
// CHECK: %23 = tpu.create_subelement_mask 0, 4 : vector<8x128x2xi1>
// CHECK: %24 = tpu.mask_cast %arg2 : vector<8x128xi1> -> vector<8x128xi1>
// CHECK: %25 = tpu.assume_multiple %arg4, 8 : index
// CHECK: %26 = tpu.assume_layout %arg0 : vector<8x128xf32> -> vector<8x128xf32>
// CHECK: %27 = tpu.roll_vectors %arg0, %arg0 : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xf32>
// CHECK: %28:2 = tpu.unroll_vectors %13 : vector<16x128xf32> -> vector<8x128xf32>, vector<8x128xf32>
// CHECK: %29 = tpu.stochastic_convert %arg0, %arg1 : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xbf16>
// CHECK: %30 = tpu.stochastic_convert_elementwise %arg0, %arg1 {dst_type = bf16} : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xi32>
// CHECK: %31 = tpu.all_reduce %arg2 {dim = 1 : i64, kind = #tpu.reduction_kind<find_first_set>} : vector<8x128xi1> -> vector<8x128xi32>
// CHECK-LABEL: func.func @convert_ops(
// CHECK: %0 = tpu.fptosi %arg0 {rounding_mode = #tpu.rounding_mode<towards_zero>} : vector<8x128xf32> -> vector<8x128xi32>
// CHECK: %1 = tpu.fptoui %arg0 {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xf32> -> vector<8x128xi32>
// CHECK: %2 = tpu.sitofp %arg2 {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xi32> -> vector<8x128xf32>
// CHECK: %3 = tpu.uitofp %arg2 {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xi32> -> vector<8x128xf32>
// CHECK: %4 = tpu.extf %arg4 : f32 -> f64
// CHECK: %5 = tpu.truncf %arg0 {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xf32> -> vector<8x128xbf16>
// CHECK: %6 = tpu.unpack_subelements %arg1, 0 {pack_format = #tpu.pack_format<compressed>} : vector<16x128xbf16> -> vector<8x128xf32>
// CHECK: %7 = tpu.pack_subelements %arg0, %arg0 {pack_format = #tpu.pack_format<interleaved>, positions = array<i32: 0, 1>} : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xbf16>
// CHECK: %8 = tpu.pack_elementwise %arg2, %arg2 {target_type = i16} : vector<8x128xi32>, vector<8x128xi32> -> vector<8x128xi32>
// CHECK: %9 = tpu.unpack_elementwise %arg2, 1 {source_type = i16} : vector<8x128xi32> -> vector<8x128xi32>
// CHECK-LABEL: func.func @matmul_ops(
// CHECK: %0 = tpu.matmul %arg0, %arg1, %arg2 {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, precision = #tpu.contract_precision<fp32>, transpose_lhs_hint = false} : vector<128x256xbf16>, vector<256x128xbf16>, vector<128x128xf32> -> vector<128x128xf32>
// CHECK: %1 = tpu.matmul %arg3, %arg4, %arg5 {dimension_numbers = #tpu.dot_dimension_numbers<[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]>, transpose_lhs_hint = true} : vector<4x8x128xf32>, vector<4x128x64xf32>, vector<4x8x64xf32> -> vector<4x8x64xf32>
// CHECK: %2 = tpu.matmul %arg0, %arg1, %arg2 {transpose_lhs_hint = false, transpose_rhs = true} : vector<128x256xbf16>, vector<256x128xbf16>, vector<128x128xf32> -> vector<128x128xf32>
// CHECK: tpu.matmul_push_rhs %arg1 {mxu_index = 0 : i32, staging_register = 1 : i32, transpose = true} : vector<256x128xbf16>
// CHECK: tpu.matmul_acc_lhs 0, %arg0 {load_staged_rhs = 1 : i32, mxu_index = 0 : i32} : vector<128x256xbf16>
// CHECK: %3 = tpu.matmul_pop 0 {mxu_index = 0 : i32} : vector<128x128xf32>
// CHECK-LABEL: func.func @memref_ops(
// CHECK: %0 = tpu.memref_slice %arg0[%arg2, %arg2, %arg2] : memref<2x16x128xf32, #tpu.memory_space<vmem>> -> memref<1x16x128xf32, #tpu.memory_space<vmem>>
// CHECK: %1 = tpu.memref_squeeze %0 : memref<1x16x128xf32, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK: %2 = tpu.memref_slice %arg1[%arg2, %arg2] <%arg2> : memref<1024x128xf32, #tpu.memory_space<any>> -> memref<?x128xf32, #tpu.memory_space<any>>
// CHECK: %3 = tpu.memref_reshape %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<2x8x128xf32, #tpu.memory_space<vmem>>
// CHECK: %4 = tpu.memref_bitcast %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<32x128xbf16, #tpu.memory_space<vmem>>
// CHECK: %5 = tpu.reinterpret_cast %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<2048xf32, #tpu.memory_space<vmem>>
// CHECK: %6 = tpu.reinterpret_cast %1 %arg2<%arg2> : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<?xf32, #tpu.memory_space<vmem>>
// CHECK: %7 = tpu.erase_memref_layout %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK: %8 = tpu.internal_scratch : memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK: tpu.log_buffer "buf" {shape = array<i64: 16, 128>} : %1 : memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK-LABEL: func.func @sync_ops(
// CHECK: %0 = tpu.device_id : i32
// CHECK: %1 = tpu.sem_read %arg3 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>> -> i32
// CHECK: tpu.sem_signal %arg3, %arg4 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK: tpu.sem_signal %arg3, %arg4 device_id %0 core_id %c0_i32 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK: tpu.sem_wait %arg3, %arg4 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK: %2 = tpu.sem_barrier : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK: %3 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
// CHECK: tpu.enqueue_dma source(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) target(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
// CHECK: tpu.enqueue_dma source(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) target(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>) source_semaphore(%3 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) target_semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) device_id(%0) core_id(%c0_i32)
// CHECK: tpu.enqueue_dma source(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) target(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {priority = 1 : i32}
// CHECK: tpu.wait_dma2 semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) dst(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>)
// CHECK: tpu.wait_dma2 semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) dst(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>) device_id(%0) core_id(%c0_i32)
// CHECK: tpu.wait_dma source(%arg0 : memref<128x128xf32, #tpu.memory_space<any>>) target(%arg1 : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%arg2 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
// CHECK: tpu.barrier barrier_id(%arg5)
// CHECK: %4 = tpu.iteration_bound 0 : i32
// CHECK: tpu.delay %arg4
// CHECK: "tpu.trace_start"() <{level = 10 : i32, message = "step"}> : () -> ()
// CHECK: "tpu.trace_stop"() : () -> ()
// CHECK: %5 = "tpu.trace"() <{level = 10 : i32, message = "region"}> ({
// CHECK: tpu.yield %c1_i32 : i32
// CHECK: %6 = "tpu.region"() ({
// CHECK: tpu.yield %c2_i32 : i32
// CHECK: tpu.trace_value %arg4, "value" : i32
// CHECK: tpu.log "msg" {formatted = true} : [%arg4, %arg4] : i32, i32
// CHECK: tpu.log "plain"
// CHECK: "tpu.prng_set_seed_32"(%arg4) : (i32) -> ()
// CHECK: %7 = "tpu.prng_random_bits"() : () -> vector<8x128xi32>
// CHECK-LABEL: func.func @sc_ops(
// CHECK: %0 = tpu.scan <sum>, %arg0 masked %arg1 : vector<16xf32>, vector<16xi1> -> vector<16xf32>
// CHECK: %1 = tpu.fetch_and_add_sync %arg2[%arg3], %arg3, %arg3 : memref<8xi32, #tpu.memory_space<smem>>, i32 -> i32
// CHECK: %2 = tpu.core_id : i32
// CHECK: %3 = tpu.subcore_id : i32
// CHECK: %4 = tpu.iota {dimensions = array<i32: 0>} : vector<16xi32>
// CHECK: tpu.vector_store_idx %arg4[%4], %4 {add = true} : memref<64xi32, #tpu.memory_space<vmem>>[vector<16xi32>], vector<16xi32>,

module {
  func.func @vector_ops(%v: vector<8x128xf32>, %vi: vector<8x128xi32>, %m: vector<8x128xi1>, %i32: i32, %idx: index, %ref: memref<16x128xf32, #tpu.memory_space<vmem>>, %iref: memref<16x128xi32, #tpu.memory_space<vmem>>) attributes {tpu.core_type = #tpu.core_type<tc>} {
    %0 = tpu.all_reduce %v {dim = 0 : i64, kind = #tpu.reduction_kind<sum>} : vector<8x128xf32> -> vector<8x128xf32>
    %1 = tpu.reduce_index %v {axis = 1 : i32, kind = #tpu.reduction_kind<arg_max>} : vector<8x128xf32> -> vector<8xi32>
    %3:3 = tpu.sort %v, %vi masked %m {descending = true} : (vector<8x128xf32>, vector<8x128xi32>, vector<8x128xi1>) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xi32>)
    tpu.store %ref[%idx, %idx], %v sublanes [true, true, true, true, true, true, true, false] sublane_stride 2 : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
    %4 = tpu.load %ref[%idx, %idx] sublanes [true, true, true, true, true, true, true, true] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %ref[%idx, %idx], %v masked %m {add = true, strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
    %5 = tpu.vector_load %ref[%idx, %idx] {strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
    %6 = tpu.vector_load %ref[%idx, %idx] masked %m {strides = array<i32>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x128xi1>
    %7 = tpu.strided_load %ref[%idx, %idx] {strides = array<i32: 2, 1>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.strided_store %ref[%idx, %idx], %v {strides = array<i32: 2, 1>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %8 = tpu.shuffled_load %ref[%idx, %idx] {sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.shuffled_store %ref[%idx, %idx], %v {sublane_mask = array<i1: true, true, true, true, true, true, true, true>, sublane_offsets = array<i32: 0, 1, 2, 3, 4, 5, 6, 7>} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %9 = tpu.vector_load_idx %iref[%vi, %vi] masked %m : memref<16x128xi32, #tpu.memory_space<vmem>>[vector<8x128xi32>, vector<8x128xi32>], vector<8x128xi32>, vector<8x128xi1>
    %10 = tpu.dynamic_rotate %v by %i32 dim 1 {stride = 1 : si32, stride_dimension = 0 : si32} : vector<8x128xf32>, i32 -> vector<8x128xf32>
    %11:2 = tpu.scan_count mask(%m : vector<8x128xi1>) value(%vi : vector<8x128xi32>) : vector<8x128xi1>, vector<8x128xi32>
    %12 = tpu.iota {dimensions = array<i32: 0>} : vector<8x128xi32>
    %13 = tpu.reshape %v : vector<8x128xf32> -> vector<1024xf32>
    %14 = tpu.repeat %v, 1 x 2 : vector<8x128xf32> -> vector<8x256xf32>
    %15 = tpu.broadcast_in_sublanes %v, 0 : vector<8x128xf32> -> vector<8x128xf32>
    %16 = tpu.concatenate %v, %v in 0 : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xf32>
    %17 = tpu.bitcast %vi : vector<8x128xi32> -> vector<8x128xf32>
    %18 = tpu.bitcast_vreg %vi : vector<8x128xi32> -> vector<8x128xf32>
    %19 = tpu.weird %v : vector<8x128xf32> -> vector<8x128xi1>
    %20 = tpu.reciprocal %v {approx = true} : vector<8x128xf32> -> vector<8x128xf32>
    %21 = tpu.gather %v[[0, 1, 2, 3, 4, 5, 6, 7]] in 0 : vector<8x128xf32> -> vector<8x128xf32>
    %22 = tpu.dynamic_gather %v[%vi] in [1] : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xf32>
    %23 = tpu.transpose %v, [1, 0] : vector<8x128xf32> -> vector<128x8xf32>
    %25 = tpu.sublane_shuffle %v, %v, [0, 1, 2, 3, 8, 9, 10, 11] : vector<8x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
    %26 = tpu.create_mask [%idx, %idx] [%idx, %idx] : vector<8x128xi1>
    %27 = tpu.create_subelement_mask 0, 4 : vector<8x128x2xi1>
    %28 = tpu.mask_cast %m : vector<8x128xi1> -> vector<8x128xi1>
    %29 = tpu.assume_multiple %idx, 8 : index
    %30 = tpu.assume_layout %v : vector<8x128xf32> -> vector<8x128xf32>
    %31 = tpu.roll_vectors %v, %v : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xf32>
    %32:2 = tpu.unroll_vectors %16 : vector<16x128xf32> -> vector<8x128xf32>, vector<8x128xf32>
    %33 = tpu.stochastic_convert %v, %vi : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xbf16>
    %34 = tpu.stochastic_convert_elementwise %v, %vi {dst_type = bf16} : vector<8x128xf32>, vector<8x128xi32> -> vector<8x128xi32>
    %35 = tpu.all_reduce %m {dim = 1 : i64, kind = #tpu.reduction_kind<find_first_set>} : vector<8x128xi1> -> vector<8x128xi32>
    return
  }
  func.func @convert_ops(%f: vector<8x128xf32>, %h: vector<16x128xbf16>, %i: vector<8x128xi32>, %b: vector<8x128xi8>, %s: f32) {
    %0 = tpu.fptosi %f {rounding_mode = #tpu.rounding_mode<towards_zero>} : vector<8x128xf32> -> vector<8x128xi32>
    %1 = tpu.fptoui %f {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xf32> -> vector<8x128xi32>
    %2 = tpu.sitofp %i {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xi32> -> vector<8x128xf32>
    %3 = tpu.uitofp %i {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xi32> -> vector<8x128xf32>
    %4 = tpu.extf %s : f32 -> f64
    %5 = tpu.truncf %f {rounding_mode = #tpu.rounding_mode<to_nearest_even>} : vector<8x128xf32> -> vector<8x128xbf16>
    %6 = tpu.unpack_subelements %h, 0 {pack_format = #tpu.pack_format<compressed>} : vector<16x128xbf16> -> vector<8x128xf32>
    %7 = tpu.pack_subelements %f, %f {pack_format = #tpu.pack_format<interleaved>, positions = array<i32: 0, 1>} : vector<8x128xf32>, vector<8x128xf32> -> vector<16x128xbf16>
    %8 = tpu.pack_elementwise %i, %i {target_type = i16} : vector<8x128xi32>, vector<8x128xi32> -> vector<8x128xi32>
    %9 = tpu.unpack_elementwise %i, 1 {source_type = i16} : vector<8x128xi32> -> vector<8x128xi32>
    return
  }
  func.func @matmul_ops(%a: vector<128x256xbf16>, %b: vector<256x128xbf16>, %c: vector<128x128xf32>, %ba: vector<4x8x128xf32>, %bb: vector<4x128x64xf32>, %bc: vector<4x8x64xf32>) {
    %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, precision = #tpu.contract_precision<fp32>, transpose_lhs_hint = false} : vector<128x256xbf16>, vector<256x128xbf16>, vector<128x128xf32> -> vector<128x128xf32>
    %1 = tpu.matmul %ba, %bb, %bc {dimension_numbers = #tpu.dot_dimension_numbers<[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]>, transpose_lhs_hint = true} : vector<4x8x128xf32>, vector<4x128x64xf32>, vector<4x8x64xf32> -> vector<4x8x64xf32>
    %2 = tpu.matmul %a, %b, %c {transpose_rhs = true, transpose_lhs_hint = false} : vector<128x256xbf16>, vector<256x128xbf16>, vector<128x128xf32> -> vector<128x128xf32>
    tpu.matmul_push_rhs %b {mxu_index = 0 : i32, staging_register = 1 : i32, transpose = true} : vector<256x128xbf16>
    tpu.matmul_acc_lhs 0, %a {mxu_index = 0 : i32, load_staged_rhs = 1 : i32} : vector<128x256xbf16>
    %3 = tpu.matmul_pop 0 {mxu_index = 0 : i32} : vector<128x128xf32>
    return
  }
  func.func @memref_ops(%r: memref<2x16x128xf32, #tpu.memory_space<vmem>>, %any: memref<1024x128xf32, #tpu.memory_space<any>>, %i: i32, %sm: memref<8xi32, #tpu.memory_space<smem>>) {
    %0 = tpu.memref_slice %r[%i, %i, %i] : memref<2x16x128xf32, #tpu.memory_space<vmem>> -> memref<1x16x128xf32, #tpu.memory_space<vmem>>
    %1 = tpu.memref_squeeze %0 : memref<1x16x128xf32, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
    %2 = tpu.memref_slice %any[%i, %i] <%i> : memref<1024x128xf32, #tpu.memory_space<any>> -> memref<?x128xf32, #tpu.memory_space<any>>
    %3 = tpu.memref_reshape %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<2x8x128xf32, #tpu.memory_space<vmem>>
    %4 = tpu.memref_bitcast %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<32x128xbf16, #tpu.memory_space<vmem>>
    %5 = tpu.reinterpret_cast %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<2048xf32, #tpu.memory_space<vmem>>
    %6 = tpu.reinterpret_cast %1 %i <%i> : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<?xf32, #tpu.memory_space<vmem>>
    %7 = tpu.erase_memref_layout %1 : memref<16x128xf32, #tpu.memory_space<vmem>> -> memref<16x128xf32, #tpu.memory_space<vmem>>
    %8 = tpu.internal_scratch : memref<8x128xf32, #tpu.memory_space<vmem>>
    tpu.log_buffer "buf" {shape = array<i64: 16, 128>} : %1 : memref<16x128xf32, #tpu.memory_space<vmem>>
    return
  }
  func.func @sync_ops(%src: memref<128x128xf32, #tpu.memory_space<any>>, %dst: memref<128x128xf32, #tpu.memory_space<vmem>>, %dsem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %sem: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %i: i32, %idx: index) {
    %0 = tpu.device_id : i32
    %1 = arith.constant 0 : i32
    %2 = tpu.sem_read %sem : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>> -> i32
    tpu.sem_signal %sem, %i : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    tpu.sem_signal %sem, %i device_id %0 core_id %1 : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    tpu.sem_wait %sem, %i : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    %3 = tpu.sem_barrier : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
    %4 = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
    tpu.enqueue_dma source(%src : memref<128x128xf32, #tpu.memory_space<any>>) target(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
    tpu.enqueue_dma source(%src : memref<128x128xf32, #tpu.memory_space<any>>) target(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) source_semaphore(%4 : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) target_semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) device_id(%0) core_id(%1)
    tpu.enqueue_dma source(%src : memref<128x128xf32, #tpu.memory_space<any>>) target(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {priority = 1 : i32}
    tpu.wait_dma2 semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%src : memref<128x128xf32, #tpu.memory_space<any>>) dst(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>)
    tpu.wait_dma2 semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%src : memref<128x128xf32, #tpu.memory_space<any>>) dst(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) device_id(%0) core_id(%1)
    tpu.wait_dma source(%src : memref<128x128xf32, #tpu.memory_space<any>>) target(%dst : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%dsem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {wait_target = true}
    tpu.barrier barrier_id(%idx)
    %5 = tpu.iteration_bound 0 : i32
    tpu.delay %i
    "tpu.trace_start"() <{level = 10 : i32, message = "step"}> : () -> ()
    "tpu.trace_stop"() : () -> ()
    %6 = "tpu.trace"() <{level = 10 : i32, message = "region"}> ({
      %c = arith.constant 1 : i32
      tpu.yield %c : i32
    }) : () -> i32
    %7 = "tpu.region"() ({
      %c = arith.constant 2 : i32
      tpu.yield %c : i32
    }) : () -> i32
    tpu.trace_value %i, "value" : i32
    tpu.log "msg" {formatted = true} : [%i, %i] : i32, i32
    tpu.log "plain"
    "tpu.prng_set_seed_32"(%i) : (i32) -> ()
    %8 = "tpu.prng_random_bits"() : () -> vector<8x128xi32>
    return
  }
  func.func @sc_ops(%v: vector<16xf32>, %m: vector<16xi1>, %sm: memref<8xi32, #tpu.memory_space<smem>>, %i: i32, %vm: memref<64xi32, #tpu.memory_space<vmem>>) attributes {tpu.core_type = #tpu.core_type<sc_vector_subcore>} {
    %0 = tpu.scan <sum>, %v masked %m : vector<16xf32>, vector<16xi1> -> vector<16xf32>
    %1 = tpu.fetch_and_add_sync %sm[%i], %i, %i : memref<8xi32, #tpu.memory_space<smem>>, i32 -> i32
    %2 = tpu.core_id : i32
    %3 = tpu.subcore_id : i32
    %4 = tpu.iota {dimensions = array<i32: 0>} : vector<16xi32>
    tpu.vector_store_idx %vm[%4], %4 {add = true} : memref<64xi32, #tpu.memory_space<vmem>>[vector<16xi32>], vector<16xi32>,
    return
  }
}
