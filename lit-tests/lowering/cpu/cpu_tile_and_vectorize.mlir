// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' | FileCheck %s

// Loops the schedule has already unrolled into vectors of 4+ registers are
// marked for LLVM to leave rolled (see @row_sum_of_squares).
// CHECK:       #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:       #[[$ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>

// The matmul is tiled for the caches, then for the registers; the register
// tile becomes broadcast-FMAs on a loop-carried accumulator (hoisted out of
// the K loop). The output's zero fill is fused into the cache tiles: each C
// tile is zeroed, one vector row per step, just before its K loop (no fill
// of the whole output before the matmul).
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for {{.*}} step %c64
// CHECK:         scf.for {{.*}} step %c128
// CHECK:           %[[ZEROED:.*]] = scf.for {{.*}} step %c1 iter_args
// CHECK:             vector.transfer_write %{{.*}} : vector<1x128xf32>, tensor<64x128xf32>
// CHECK:           scf.for {{.*}} step %c128 iter_args(%{{.*}} = %[[ZEROED]])
// CHECK:             scf.for {{.*}} step %c8
// CHECK:               vector.transfer_read {{.*}} : tensor<64x128xf32>, vector<8x
// CHECK:               scf.for {{.*}} step %c1 iter_args({{.*}}) -> ({{.*}}vector<8x
// CHECK:                 vector.broadcast
// CHECK:                 vector.fma
// CHECK-NOT:             linalg.matmul
// CHECK:               vector.transfer_write
func.func @matmul(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %out: memref<256x256xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x256xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// An elementwise op: outer dimension by 1, inner dimension vectorized (the
// vectorized tanh becomes a polynomial, no math.tanh left).
// CHECK-LABEL: func.func @elementwise
// CHECK:       scf.for {{.*}} step %c1
// CHECK:         scf.for
// CHECK:           vector.transfer_read {{.*}} vector<1x
// CHECK:           vector.transfer_read {{.*}} vector<1x
// CHECK:           arith.mulf {{.*}} : vector<1x
// CHECK-NOT:       math.tanh
// CHECK:           vector.transfer_write
// CHECK-NOT:   linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%a: tensor<64x512xf32>, %b: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<64x512xf32>, tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %t = math.tanh %m : f32
    linalg.yield %t : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// Every element type is vectorized, the vector sized by the widest element
// the fusion touches: on x86-64-v3 an f32 tile is 4 registers (32 lanes), so
// an i8 fusion takes 128 lanes and an f16 -> f64 one 16.
// CHECK-LABEL: func.func @elementwise_i8
// CHECK:       scf.for {{.*}} step %c128
// CHECK:         vector.transfer_read {{.*}} vector<1x128xi8>
// CHECK:         arith.maxsi {{.*}} : vector<1x128xi8>
// CHECK:         vector.transfer_write {{.*}} : vector<1x128xi8>
func.func @elementwise_i8(%a: tensor<64x512xi8>, %out: memref<64x512xi8>) {
  %0 = tensor.empty() : tensor<64x512xi8>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xi8>) outs(%0 : tensor<64x512xi8>) {
  ^bb0(%x: i8, %o: i8):
    %z = arith.constant 0 : i8
    %n = arith.subi %z, %x : i8
    %m = arith.maxsi %x, %n : i8
    linalg.yield %m : i8
  } -> tensor<64x512xi8>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xi8>, memref<64x512xi8>) -> ()
  return
}

// CHECK-LABEL: func.func @elementwise_f16_to_f64
// CHECK:       scf.for {{.*}} step %c16
// CHECK:         vector.transfer_read {{.*}} vector<1x16xf16>
// CHECK:         arith.extf {{.*}} : vector<1x16xf16> to vector<1x16xf64>
// CHECK:         arith.mulf {{.*}} : vector<1x16xf64>
// CHECK:         vector.transfer_write {{.*}} : vector<1x16xf64>
func.func @elementwise_f16_to_f64(%a: tensor<64x512xf16>, %out: memref<64x512xf64>) {
  %0 = tensor.empty() : tensor<64x512xf64>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf16>) outs(%0 : tensor<64x512xf64>) {
  ^bb0(%x: f16, %o: f64):
    %e = arith.extf %x : f16 to f64
    %m = arith.mulf %e, %e : f64
    linalg.yield %m : f64
  } -> tensor<64x512xf64>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf64>, memref<64x512xf64>) -> ()
  return
}

// What the schedule does not match (a reduction) stays a linalg op.
// CHECK-LABEL: func.func @reduction
// CHECK:       linalg.reduce
// CHECK-NOT:   floors.schedule
func.func @reduction(%a: tensor<64x512xf32>, %out: memref<64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %2 = linalg.reduce ins(%a : tensor<64x512xf32>) outs(%1 : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}

// A row reduction (innermost dim reduced): one row at a time, the row read
// in vectors into a loop-carried vector of partial sums, reduced once at the
// end of the row. The row loop's body is already four registers wide, so it
// is marked for LLVM not to unroll it again (the outer row loop is not).
// CHECK-LABEL: func.func @row_sum_of_squares
// CHECK:       scf.for {{.*}} step %c1
// CHECK:         scf.for {{.*}} step %c32 iter_args({{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<1x32xf32>, vector<1x32xf32>)
// CHECK:           %[[X:.*]] = vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK:           %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : vector<1x32xf32>
// CHECK:           arith.addf %[[ACC]], %[[SQ]] : vector<1x32xf32>
// CHECK:         } {loop_annotation = #[[$ROLLED]]}
// CHECK:         vector.reduction <add>, %{{.*}}, %{{.*}} : vector<32xf32> into f32
// CHECK-NOT:     loop_annotation
// CHECK:       return
// CHECK-NOT:   linalg.generic

// A column reduction (innermost dim parallel): reduced dim by 1, columns in
// vectors; elementwise on the accumulator.
// CHECK-LABEL: func.func @column_max
// CHECK:       scf.for {{.*}} step %c1
// CHECK:         scf.for {{.*}} step %c32
// CHECK:           arith.maximumf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NOT:   linalg.generic

// Softmax in one kernel: the division (the output) is tiled by one row and
// every producer fused into the row loop (max, exp, sum: exp fused once,
// not per consumer), so the intermediates are one row, each vectorized.
// CHECK-LABEL: func.func @softmax
// CHECK:       scf.for {{.*}} step %c1 iter_args({{.*}}) -> (tensor<64x512xf32>)
// CHECK:         vector.reduction <maximumf>
// CHECK:         tensor.empty() : tensor<1x512xf32>
// CHECK:         scf.for
// CHECK:           arith.subf {{.*}} : vector<1x32xf32>
// CHECK-NOT:       math.exp
// CHECK:         vector.reduction <add>
// CHECK:         scf.for
// CHECK:           arith.divf {{.*}} : vector<1x32xf32>
// CHECK-NOT:   tensor<64x512xf32>, vector
// CHECK-NOT:   linalg.generic
#rid = affine_map<(d0, d1) -> (d0, d1)>
#rrow = affine_map<(d0, d1) -> (d0)>
#rcol = affine_map<(d0, d1) -> (d1)>
func.func @row_sum_of_squares(%a: tensor<64x512xf32>, %out: memref<64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %2 = linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<64x512xf32>) outs(%1 : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<64xf32>, memref<64xf32>) -> ()
  return
}
func.func @column_max(%a: tensor<64x512xf32>, %out: memref<512xf32>) {
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<512xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<512xf32>) -> tensor<512xf32>
  %2 = linalg.generic {indexing_maps = [#rid, #rcol], iterator_types = ["reduction", "parallel"]} ins(%a : tensor<64x512xf32>) outs(%1 : tensor<512xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<512xf32>, memref<512xf32>) -> ()
  return
}
func.func @softmax(%a: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.fill ins(%ninf : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<64x512xf32>) outs(%1 : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %2 = tensor.empty() : tensor<64x512xf32>
  %exp = linalg.generic {indexing_maps = [#rid, #rrow, #rid], iterator_types = ["parallel", "parallel"]} ins(%a, %max : tensor<64x512xf32>, tensor<64xf32>) outs(%2 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<64x512xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<64x512xf32>) outs(%3 : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %div = linalg.generic {indexing_maps = [#rid, #rrow, #rid], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<64x512xf32>, tensor<64xf32>) outs(%2 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %q = arith.divf %x, %s : f32
    linalg.yield %q : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %div in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// A layernorm-like kernel: the row mean is a kept-dims `64x1` tensor read
// at `(d0, 0)` (a unit dimension, read as a broadcast) and divided by a
// constant fill of that shape (a producer whose body is only its yield).
// Both are vectorized, and the row fusion takes the fill: one row loop.
// CHECK-LABEL: func.func @centered_rows
// CHECK:       scf.for {{.*}} step %c1 iter_args({{.*}}) -> (tensor<64x512xf32>)
// CHECK:         vector.reduction <add>
// CHECK:         scf.for
// CHECK:           arith.divf {{.*}} : vector<1x32xf32>
// CHECK:           arith.subf {{.*}} : vector<1x32xf32>
// CHECK-NOT:   tensor<64x512xf32>, vector
#cunit = affine_map<(d0, d1) -> (d0, 0)>
#cnone = affine_map<(d0, d1) -> ()>
func.func @centered_rows(%a: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %n = arith.constant dense<5.120000e+02> : tensor<f32>
  %0 = tensor.empty() : tensor<64x1xf32>
  %count = linalg.generic {indexing_maps = [#cnone, #rid], iterator_types = ["parallel", "parallel"]} ins(%n : tensor<f32>) outs(%0 : tensor<64x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<64x1xf32>
  %1 = tensor.empty() : tensor<64xf32>
  %2 = linalg.fill ins(%zero : f32) outs(%1 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#rid, #rrow], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<64x512xf32>) outs(%2 : tensor<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  %3 = tensor.empty() : tensor<64x512xf32>
  %c = linalg.generic {indexing_maps = [#rid, #rrow, #cunit, #rid], iterator_types = ["parallel", "parallel"]} ins(%a, %sum, %count : tensor<64x512xf32>, tensor<64xf32>, tensor<64x1xf32>) outs(%3 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %s: f32, %k: f32, %o: f32):
    %mean = arith.divf %s, %k : f32
    %d = arith.subf %x, %mean : f32
    linalg.yield %d : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %c in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// An inner dim no vector width divides (100 with 8 lanes): tiles of 4L = 32,
// the tile loop peeled into full tiles and one static remainder of 4, both
// vectorized (no scalar tail, no masks).
// CHECK-LABEL: func.func @peeled_tail
// CHECK:       scf.for {{.*}} step %c1
// CHECK:         scf.for {{.*}} = %c0 to %c96 step %c32
// CHECK:           vector.transfer_write {{.*}} : vector<1x32xf32>, tensor<8x100xf32>
// CHECK:         vector.transfer_read %{{.*}}[%{{.*}}, %c96]{{.*}} : tensor<8x100xf32>, vector<1x4xf32>
// CHECK:         vector.transfer_write {{.*}} : vector<1x4xf32>, tensor<8x100xf32>
// CHECK-NOT:   linalg.generic
func.func @peeled_tail(%a: tensor<8x100xf32>, %out: memref<8x100xf32>) {
  %0 = tensor.empty() : tensor<8x100xf32>
  %1 = linalg.generic {indexing_maps = [#rid, #rid], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x100xf32>) outs(%0 : tensor<8x100xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    %s = arith.addf %e, %x : f32
    linalg.yield %s : f32
  } -> tensor<8x100xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<8x100xf32>, memref<8x100xf32>) -> ()
  return
}

// A copy that walks the innermost dim contiguously on both sides (a packed
// matmul's B panels: [K, N1, NR] -> [N1, K, NR]) is tiled like an
// elementwise op; each tile's read/write pair folds into a slice copy of one
// contiguous run (a memcpy of the vector's bytes after bufferization, not
// the scalar loop LLVM would not vectorize). A copy that transposes the
// innermost dim stays a linalg op.
// CHECK-LABEL: func.func @panel_copy
// CHECK:       %[[T:.*]] = tensor.extract_slice %{{.*}} [1, 1, 32] [1, 1, 1] : tensor<64x4x32xf32> to tensor<1x1x32xf32>
// CHECK:       tensor.insert_slice %[[T]] into %{{.*}} [1, 1, 32] [1, 1, 1]
// CHECK-NOT:   linalg.generic
#pk = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
#pid = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @panel_copy(%b: tensor<64x4x32xf32>, %out: memref<4x64x32xf32>) {
  %0 = tensor.empty() : tensor<4x64x32xf32>
  %1 = linalg.generic {indexing_maps = [#pk, #pid], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<64x4x32xf32>) outs(%0 : tensor<4x64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x64x32xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<4x64x32xf32>, memref<4x64x32xf32>) -> ()
  return
}

// CHECK-LABEL: func.func @transposing_copy
// CHECK:       linalg.generic
// CHECK-NOT:   vector.transfer_read
#tr = affine_map<(d0, d1) -> (d1, d0)>
#tid = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposing_copy(%a: tensor<64x32xf32>, %out: memref<32x64xf32>) {
  %0 = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #tid], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x32xf32>) outs(%0 : tensor<32x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<32x64xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<32x64xf32>, memref<32x64xf32>) -> ()
  return
}

// A gather (an element read of a tensor from outside the op at a computed,
// clamped index) is an elementwise schedule: the index arithmetic runs on
// vectors and the reads become one vector gather per tile, not a scalar loop.
// CHECK-LABEL: func.func @gather_rows
// CHECK:       scf.for {{.*}} step %c32
// CHECK:         vector.transfer_read {{.*}} : tensor<1024xi32>, vector<32xi32>
// CHECK:         arith.minsi {{.*}} : vector<32xindex>
// CHECK:         vector.gather {{.*}} : tensor<4096xf32>, vector<32xindex>, vector<32xi1>, vector<32xf32> into vector<32xf32>
// CHECK-NOT:   tensor.extract
#gather_id = affine_map<(d0) -> (d0)>
func.func @gather_rows(%idx: tensor<1024xi32>, %x: tensor<4096xf32>) -> tensor<1024xf32> {
  %c0 = arith.constant 0 : index
  %cmax = arith.constant 4095 : index
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#gather_id, #gather_id], iterator_types = ["parallel"]} ins(%idx : tensor<1024xi32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%in: i32, %out: f32):
    %i = arith.index_cast %in : i32 to index
    %a = arith.minsi %i, %cmax : index
    %b = arith.maxsi %a, %c0 : index
    %v = tensor.extract %x[%b] : tensor<4096xf32>
    linalg.yield %v : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
