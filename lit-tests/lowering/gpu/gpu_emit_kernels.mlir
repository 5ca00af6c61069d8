// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(func.func(linalg-fuse-elementwise-ops),eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,func.func(convert-linalg-to-parallel-loops),canonicalize,floors-gpu-emit-kernels,canonicalize,cse))' | FileCheck %s

// Grid-stride: one launch per loop nest, 256 threads, a linear index
// stepping by grid × block; exp as a polynomial (no math.exp left). The
// nest is contiguous along its innermost dimension, a multiple of 4 long,
// over aligned buffers: each thread takes 4 consecutive points (XLA's
// unrolled loop emitter), 16-byte vector loads and stores, the scalar body
// once per lane; 1024 threads for the 64x64 points.
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4)"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c4, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}})
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step %c1024
// CHECK: %[[V:.*]] = vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK: vector.extract %[[V]][0]
// CHECK: vector.extract %[[V]][1]
// CHECK: vector.extract %[[V]][2]
// CHECK: vector.extract %[[V]][3]
// CHECK: %[[R:.*]] = vector.from_elements
// CHECK: vector.store %[[R]], %arg1[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
// CHECK-NOT: math.exp
// CHECK: gpu.terminator
func.func @elementwise(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.exponential %a : tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// Serial code (the clamped dynamic start index, read from memory) → one
// block: the copies spread over the block's threads (side effects of serial
// ops would run on thread 0), a barrier after each step.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "single-block(serial
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c256, {{.*}})
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16 step
// CHECK: gpu.barrier
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4 step
// CHECK: gpu.barrier
func.func @dynamic_update(%a: tensor<16xf32>, %u: tensor<4xf32>, %i: tensor<i32>) -> tensor<16xf32> {
  %0 = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<16xf32>, tensor<4xf32>, tensor<i32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// Row reduction, a warp per row: 8 rows per 32x8 block, lanes stride over
// the row, a butterfly of gpu.shuffle xor 16..1 combining with the fusion's
// own combiner (addf), lane 0 folds the init (read from the output, which an
// earlier launch filled) once and stores.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); row-reduction(warp)"
// CHECK: gpu.launch
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c2, {{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}})
// CHECK: scf.for
// CHECK: memref.load %arg0
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK-NEXT: arith.addf
// CHECK: gpu.shuffle xor %{{.*}}, %c8_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK: scf.if
// CHECK: memref.load %arg1
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @row_sum(%a: tensor<16x32xf32>) -> tensor<16xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// A row shorter than a warp (5): lanes past the end read element 4 (in
// bounds) and carry a "has value" flag, shuffled along; a step combines only
// when both sides have a value.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); row-reduction(warp)"
// CHECK: arith.minui %{{.*}}, %c4
// CHECK: %[[HAS:.*]] = arith.cmpi ult, %{{.*}}, %c5
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: arith.maximumf
// CHECK: arith.extui %[[HAS]] : i1 to i32
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32, %c32_i32 : i32
// CHECK: arith.select
func.func @short_rows(%a: tensor<4x5xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A row longer than 1024: a block of 256 per row, warp totals through
// workgroup memory, a barrier, a butterfly over the 8 partials, a barrier
// before the next row.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); row-reduction(block)"
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c256, {{.*}} = %c1, {{.*}}) {{.*}} workgroup(%[[SMEM:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} iter_args
// CHECK: gpu.shuffle xor %{{.*}}, %c16_i32
// CHECK: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[SMEM]]
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK: gpu.barrier
func.func @long_rows(%a: tensor<4x2048xf32>) -> tensor<4xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x2048xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Column reduction: 32x8 tiles, partials in registers then workgroup memory
// [8][32], a barrier, row 0 of the block combines the 8 partials of its
// column, folds the init and stores.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); column-reduction(shared)"
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}}) {{.*}} workgroup(%[[SMEM:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} iter_args
// CHECK: arith.maximumf
// CHECK: memref.store %{{.*}}, %[[SMEM]]
// CHECK: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-8: memref.load %[[SMEM]]
// CHECK: memref.store
// CHECK: gpu.barrier
func.func @col_max(%a: tensor<64x40xf32>) -> tensor<40xf32> {
  %z = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<64x40xf32>, tensor<f32>) -> tensor<40xf32>
  return %0 : tensor<40xf32>
}

// -----

// Transpose: 32x32 tiles through workgroup memory padded to 32x33, reads
// coalesced along the input's minor dimension, a barrier, writes coalesced
// along the output's.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "transpose(shared 32x33)"
// CHECK: gpu.launch {{.*}} threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}}) {{.*}} workgroup(%[[TILE:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.load %arg0[%{{.*}}, %{{.*}}]
// CHECK: memref.store %{{.*}}, %[[TILE]][%{{.*}}, %[[TX]]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[TILE]][%[[TX]], %{{.*}}]
// CHECK: math.absf
// CHECK: memref.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}]
// CHECK: gpu.barrier
func.func @transpose(%a: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x96xf32>) -> tensor<96x64xf32>
  %1 = stablehlo.abs %0 : tensor<96x64xf32>
  return %1 : tensor<96x64xf32>
}

// -----

// Scatter with an add combiner: one thread per update element, the
// load-add-store of the destination a memref.atomic_rmw.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); scatter(atomic); loop(grid-stride, 4 per thread, v4)"
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: scf.if
// CHECK: memref.atomic_rmw addf
// CHECK-NOT: memref.store %{{.*}}, %alloc
// CHECK: gpu.terminator
func.func @scatter_add(%a: tensor<16x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// Fallbacks are reported: a scatter that overwrites (no atomic combiner)
// stays serial in one block, and says why.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "single-block(serial 'scf.for': reduction emitter not applicable: {{.*}}scatter emitter not applicable: the stored value is not combined with the destination element (an overwrite: its result depends on the order))"
// CHECK-NOT: memref.atomic_rmw
func.func @scatter_set(%a: tensor<16x4xf32>, %i: tensor<3x1xi32>, %u: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    stablehlo.return %y : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}

// -----

// A matmul's nest is a reduction over k but not XLA's row reduction (the
// rhs is not contiguous along k): the generic grid-stride code, and the
// recorded strategy says why (and why the nest is not vectorized: the
// serial k loop reads memory).
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); loop(grid-stride) [reduction emitter not applicable: a load of memref<32x16xf32> is not contiguous along the dimension threads stride over] [scalar: 'scf.for' in the body accesses memory]"
// CHECK-NOT: gpu.shuffle
func.func @matmul(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A full reduction (a bare scf.for nest into a rank-0 buffer): one row, a
// block of 256 for it; the fill (a lone store) is a launch of one thread.
// CHECK-LABEL: module @floors_kernels
// CHECK: floors.gpu_codegen = "loop(one thread); row-reduction(block)"
// CHECK: gpu.shuffle xor
// CHECK: gpu.barrier
func.func @full(%a: tensor<5000xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<5000xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Vector widths follow the widest element: 2 f64s, 8 f16s per thread
// (16 bytes); a broadcast along the outer dimension is still contiguous
// along the inner one (a vector load of b per thread).
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "loop(grid-stride, 2 per thread, v2)"
// CHECK-DAG: vector.load %{{.*}} {alignment = 16 : i64} : memref<8x16xf64>, vector<2xf64>
// CHECK-DAG: vector.load %{{.*}} {alignment = 16 : i64} : memref<16xf64>, vector<2xf64>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<8x16xf64>, vector<2xf64>
// CHECK: func.func @fusion_1({{.*}}floors.gpu_codegen = "loop(grid-stride, 8 per thread, v8)"
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}})
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16 step %c32
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<128xf16>, vector<8xf16>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<128xf16>, vector<8xf16>
func.func @widths(%a: tensor<8x16xf64>, %b: tensor<16xf64>, %h: tensor<128xf16>) -> (tensor<8x16xf64>, tensor<128xf16>) {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf64>) -> tensor<8x16xf64>
  %0 = stablehlo.multiply %a, %bb : tensor<8x16xf64>
  %1 = stablehlo.negate %h : tensor<128xf16>
  return %0, %1 : tensor<8x16xf64>, tensor<128xf16>
}

// -----

// Not vectorized, one point per thread, the reason recorded: an innermost
// extent that is not a multiple of 4; a reversed innermost dimension (the
// index is computed, the lanes would not be consecutive); a broadcast
// along the innermost dimension next to a contiguous access is fine.
// CHECK-LABEL: module @floors_kernels
// CHECK: func.func @fusion_0({{.*}}floors.gpu_codegen = "loop(grid-stride) [scalar: innermost extent 6 is not a multiple of 4]"
// CHECK-NOT: vector.load
// CHECK: memref.load
// CHECK: func.func @fusion_1({{.*}}floors.gpu_codegen = "loop(grid-stride) [scalar: an access indexes the innermost dimension by a computed value or another dimension by it (transposed, reversed, gathered)]"
// CHECK-NOT: vector.load
// CHECK: func.func @fusion_2({{.*}}floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4)"
// CHECK-DAG: memref.load %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK-DAG: vector.load %{{.*}} : memref<8x16xf32>, vector<4xf32>
func.func @fallbacks(%a: tensor<8x6xf32>, %r: tensor<8x16xf32>, %c: tensor<8xf32>) -> (tensor<8x6xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.exponential %a : tensor<8x6xf32>
  %1 = stablehlo.reverse %r, dims = [1] : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  %cb = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.add %r, %cb : tensor<8x16xf32>
  return %0, %2, %3 : tensor<8x6xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// f32 and f64 fmod in a kernel: floors' exact forms (no call to
// libdevice's fmodf/fmod left for floors-gpu-resolve-libdevice to refuse):
// f32's fast quotient path and loop of exact steps for huge quotients,
// f64's long division on the significands (normalized by their leading
// zeros).
// CHECK-LABEL: func.func @fmod(
// CHECK:       arith.remf
// CHECK:       gpu.launch
// CHECK-NOT:   arith.remf
// CHECK:       math.trunc
// CHECK:       scf.while
// CHECK:       math.copysign
// CHECK:       gpu.launch
// CHECK-NOT:   arith.remf
// CHECK:       math.ctlz
// CHECK:       scf.while
func.func @fmod(%x: tensor<64xf32>, %y: tensor<64xf32>, %a: tensor<64xf64>, %b: tensor<64xf64>) -> (tensor<64xf32>, tensor<64xf64>) {
  %0 = stablehlo.remainder %x, %y : tensor<64xf32>
  %1 = stablehlo.remainder %a, %b : tensor<64xf64>
  return %0, %1 : tensor<64xf32>, tensor<64xf64>
}
