// RUN: %floors-opt %s -split-input-file -verify-diagnostics

// One case per tpu verifier rule floors checks.

func.func @matmul_contracting(%a: vector<128x64xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op contracting dims differ in size: lhs dim 1 is 64, rhs dim 0 is 128}}
  %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<128x64xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
  return
}
// -----
func.func @matmul_rank(%a: vector<4x128x128xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op lhs dimension numbers name 2 dims, but lhs has rank 3}}
  %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[2], [0], [1], [1], [0, 1, 1, 1], [], []>, transpose_lhs_hint = false} : vector<4x128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
  return
}
// -----
func.func @matmul_acc(%a: vector<128x128xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op acc type 'vector<128x128xf32>' must equal the result type 'vector<128x64xf32>'}}
  %0 = tpu.matmul %a, %b, %c {transpose_lhs_hint = false} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x64xf32>
  return
}
// -----
func.func @matmul_dim_twice(%a: vector<128x128xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op dim 1 of lhs appears twice in the dimension numbers}}
  %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [1], [1], [0, 1, 1, 1], [], []>, transpose_lhs_hint = false} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
  return
}
// -----
func.func @matmul_order(%a: vector<128x128xf32>, %b: vector<128x128xf32>, %c: vector<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op output_dim_order must be (0, lhs batch dims), (0, lhs non-contracting dims), (1, rhs non-contracting dims)}}
  %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [1, 1, 0, 0], [], []>, transpose_lhs_hint = false} : vector<128x128xf32>, vector<128x128xf32>, vector<128x128xf32> -> vector<128x128xf32>
  return
}
// -----
func.func @store_indices(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %i: index) {
  // expected-error @+1 {{'tpu.vector_store' op expects 2 indices, got 1}}
  tpu.vector_store %m[%i], %v {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}
// -----
func.func @store_fits(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<16x128xf32>, %i: index) {
  // expected-error @+1 {{'tpu.vector_store' op stored vector shape [16, 128] does not fit in memref shape [8, 128] (dim 0)}}
  tpu.vector_store %m[%i, %i], %v {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<16x128xf32>,
  return
}
// -----
func.func @store_element(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xi32>, %i: index) {
  // expected-error @+1 {{'tpu.vector_store' op value element type 'i32' must match the memref element type 'f32'}}
  tpu.vector_store %m[%i, %i], %v {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xi32>,
  return
}
// -----
func.func @store_mask(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %k: vector<8x1xi1>, %i: index) {
  // expected-error @+1 {{'tpu.vector_store' op mask shape [8, 1] must equal the value shape [8, 128]}}
  tpu.vector_store %m[%i, %i], %v masked %k {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>, vector<8x1xi1>
  return
}
// -----
func.func @load_indices(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  // expected-error @+1 {{'tpu.vector_load' op expects 2 indices, got 3}}
  %0 = tpu.vector_load %m[%i, %i, %i] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  return
}
// -----
func.func @load_smem(%m: memref<8x128xf32, #tpu.memory_space<smem>>, %i: index) {
  // expected-error @+1 {{'tpu.vector_load' op expects the base memref in VMEM}}
  %0 = tpu.vector_load %m[%i, %i] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<smem>>, vector<8x128xf32>,
  return
}
// -----
func.func @strided_store(%m: memref<8x128xf32, #tpu.memory_space<vmem>>, %v: vector<8x128xf32>, %i: index) {
  // expected-error @+1 {{'tpu.strided_store' op stride 0 is 0, must be at least 1}}
  tpu.strided_store %m[%i, %i], %v {strides = array<i32: 0, 1>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}
// -----
func.func @slice_offsets(%m: memref<2x128x128xf32, #tpu.memory_space<vmem>>, %i: i32) {
  // expected-error @+1 {{'tpu.memref_slice' op needs one offset per dimension: memref rank 3, 2 offsets, result rank 3}}
  %0 = tpu.memref_slice %m[%i, %i] : memref<2x128x128xf32, #tpu.memory_space<vmem>> -> memref<1x128x128xf32, #tpu.memory_space<vmem>>
  return
}
// -----
func.func @slice_bigger(%m: memref<2x128x128xf32, #tpu.memory_space<vmem>>, %i: i32) {
  // expected-error @+1 {{'tpu.memref_slice' op result dim 1 (256) exceeds the source's (128)}}
  %0 = tpu.memref_slice %m[%i, %i, %i] : memref<2x128x128xf32, #tpu.memory_space<vmem>> -> memref<1x256x128xf32, #tpu.memory_space<vmem>>
  return
}
// -----
func.func @slice_dynamic(%m: memref<1024x128xf32, #tpu.memory_space<any>>, %i: i32) {
  // expected-error @+1 {{'tpu.memref_slice' op needs one dynamic size per dynamic result dim (1), got 0}}
  %0 = tpu.memref_slice %m[%i, %i] : memref<1024x128xf32, #tpu.memory_space<any>> -> memref<?x128xf32, #tpu.memory_space<any>>
  return
}
// -----
func.func @slice_space(%m: memref<2x128xf32, #tpu.memory_space<vmem>>, %i: i32) {
  // expected-error @+1 {{'tpu.memref_slice' op result memory space must be the source's}}
  %0 = tpu.memref_slice %m[%i, %i] : memref<2x128xf32, #tpu.memory_space<vmem>> -> memref<1x128xf32, #tpu.memory_space<smem>>
  return
}
// -----
func.func @squeeze_non_unit(%m: memref<2x128x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error @+1 {{'tpu.memref_squeeze' op can only drop unit dims: [2, 128, 128] -> [128, 128] drops dim 0 of size 2}}
  %0 = tpu.memref_squeeze %m : memref<2x128x128xf32, #tpu.memory_space<vmem>> -> memref<128x128xf32, #tpu.memory_space<vmem>>
  return
}
// -----
func.func @squeeze_element(%m: memref<1x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error @+1 {{'tpu.memref_squeeze' op element types differ}}
  %0 = tpu.memref_squeeze %m : memref<1x128xf32, #tpu.memory_space<vmem>> -> memref<128xi32, #tpu.memory_space<vmem>>
  return
}
// -----
func.func @dma_shape(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<64x128xf32, #tpu.memory_space<vmem>>, %sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.enqueue_dma' op source shape [128, 128] differs from target shape [64, 128]}}
  tpu.enqueue_dma source(%s : memref<128x128xf32, #tpu.memory_space<any>>) target(%t : memref<64x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
  return
}
// -----
func.func @dma_no_semaphore(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<128x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error @+1 {{'tpu.enqueue_dma' op needs a target_semaphore}}
  tpu.enqueue_dma source(%s : memref<128x128xf32, #tpu.memory_space<any>>) target(%t : memref<128x128xf32, #tpu.memory_space<vmem>>)
  return
}
// -----
func.func @dma_semaphore_rank(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<128x128xf32, #tpu.memory_space<vmem>>, %sem: memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.enqueue_dma' op target_semaphore must be a rank-0 memref, got 'memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>'}}
  tpu.enqueue_dma source(%s : memref<128x128xf32, #tpu.memory_space<any>>) target(%t : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
  return
}
// -----
func.func @dma_remote_without_source_semaphore(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<128x128xf32, #tpu.memory_space<vmem>>, %sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %d: i32) {
  // expected-error @+1 {{'tpu.enqueue_dma' op a remote DMA (device_id/core_id) needs a source_semaphore}}
  tpu.enqueue_dma source(%s : memref<128x128xf32, #tpu.memory_space<any>>) target(%t : memref<128x128xf32, #tpu.memory_space<vmem>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) device_id(%d)
  return
}
// -----
func.func @wait_semaphore_rank(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<128x128xf32, #tpu.memory_space<vmem>>, %sem: memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.wait_dma2' op semaphore must be a rank-0 memref}}
  tpu.wait_dma2 semaphore(%sem : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%s : memref<128x128xf32, #tpu.memory_space<any>>) dst(%t : memref<128x128xf32, #tpu.memory_space<vmem>>)
  return
}
// -----
func.func @wait_shapes(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<8x128xf32, #tpu.memory_space<vmem>>, %sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.wait_dma2' op src 'memref<128x128xf32, #tpu.memory_space<any>>' and dst 'memref<8x128xf32, #tpu.memory_space<vmem>>' must have the same shape and element type}}
  tpu.wait_dma2 semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%s : memref<128x128xf32, #tpu.memory_space<any>>) dst(%t : memref<8x128xf32, #tpu.memory_space<vmem>>)
  return
}
// -----
func.func @wait_semaphore_type(%s: memref<128x128xf32, #tpu.memory_space<any>>, %t: memref<128x128xf32, #tpu.memory_space<vmem>>, %sem: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.wait_dma2' op operand #0 must be memref of DMA semaphore values, but got 'memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>'}}
  tpu.wait_dma2 semaphore(%sem : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) src(%s : memref<128x128xf32, #tpu.memory_space<any>>) dst(%t : memref<128x128xf32, #tpu.memory_space<vmem>>)
  return
}
// -----
func.func @sem_wait_rank(%sem: memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  // expected-error @+1 {{'tpu.sem_wait' op semaphore must be a rank-0 memref}}
  tpu.sem_wait %sem, %n : memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  return
}
// -----
func.func @sem_signal_rank(%sem: memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  // expected-error @+1 {{'tpu.sem_signal' op semaphore must be a rank-0 memref}}
  tpu.sem_signal %sem, %n : memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  return
}
// -----
func.func @sem_read_rank(%sem: memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) {
  // expected-error @+1 {{'tpu.sem_read' op semaphore must be a rank-0 memref}}
  %0 = tpu.sem_read %sem : memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>> -> i32
  return
}
// -----
func.func @sem_wait_dma_semaphore(%sem: memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>, %n: i32) {
  // expected-error @+1 {{'tpu.sem_wait' op operand #0 must be memref of semaphore values, but got 'memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>'}}
  tpu.sem_wait %sem, %n : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
  return
}
// -----
func.func @barrier_rank() {
  // expected-error @+1 {{'tpu.sem_barrier' op barrier semaphore must be a rank-0 memref}}
  %0 = tpu.sem_barrier : memref<2x!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
  return
}
// -----
func.func @iota_range() {
  // expected-error @+1 {{'tpu.iota' op dimension 2 out of range for rank 2}}
  %0 = tpu.iota {dimensions = array<i32: 2>} : vector<8x128xi32>
  return
}
// -----
func.func @iota_repeat() {
  // expected-error @+1 {{'tpu.iota' op dimension 0 repeats}}
  %0 = tpu.iota {dimensions = array<i32: 0, 0>} : vector<8x128xi32>
  return
}
// -----
func.func @concatenate_dims(%a: vector<8x128xf32>, %b: vector<8x256xf32>) {
  // expected-error @+1 {{'tpu.concatenate' op sources differ in dim 1 (not the concatenated one)}}
  %0 = tpu.concatenate %a, %b in 0 : vector<8x128xf32>, vector<8x256xf32> -> vector<16x128xf32>
  return
}
// -----
func.func @repeat_shape(%a: vector<8x128xf32>) {
  // expected-error @+1 {{'tpu.repeat' op result dim 1 is 128, expected 256}}
  %0 = tpu.repeat %a, 1 x 2 : vector<8x128xf32> -> vector<8x128xf32>
  return
}
// -----
func.func @all_reduce_dim(%a: vector<8x128xf32>) {
  // expected-error @+1 {{'tpu.all_reduce' op dim 2 out of range for rank 2}}
  %0 = tpu.all_reduce %a {dim = 2 : i64, kind = #tpu.reduction_kind<sum>} : vector<8x128xf32> -> vector<8x128xf32>
  return
}
// -----
func.func @transpose_perm(%a: vector<8x128xf32>) {
  // expected-error @+1 {{'tpu.transpose' op result shape should be [128, 8]}}
  %0 = tpu.transpose %a, [1, 0] : vector<8x128xf32> -> vector<8x128xf32>
  return
}
// -----
func.func @bitcast_shape(%a: vector<8x128xi32>) {
  // expected-error @+1 {{'tpu.bitcast' op result shape [8, 128] does not match: the second-minor dim scales by 32/16}}
  %0 = tpu.bitcast %a : vector<8x128xi32> -> vector<8x128xbf16>
  return
}
// -----
func.func @core_id_on_tc() attributes {tpu.core_type = #tpu.core_type<tc>} {
  // expected-error @+1 {{'tpu.core_id' op is not available on the TensorCore}}
  %0 = tpu.core_id : i32
  return
}
