// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-cpu-pack-matmul)' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-cpu-pack-matmul,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file | FileCheck %s --check-prefix=SCHED
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-cpu-pack-matmul,canonicalize,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},cse,canonicalize)' -split-input-file | FileCheck %s --check-prefix=BUF

// A matmul whose result is the kernel output: B is packed into
// K-contiguous panels, A is only viewed as [M/MR, MR, K] (its register rows
// are broadcast straight from it), C is accumulated in place through a 4-D
// view [M/MR, MR, N/NR, NR] (the zero fill becomes a fill of that view), and
// the result is written into an expanded view of the output: no copy of C.
// CHECK-LABEL: func.func @matmul_to_output
// CHECK:       %[[AE:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] {{.*}} into tensor<64x{{[0-9]+}}x256xf32>
// CHECK-NOT:   linalg.generic {{.*}} ins(%[[AE]] :
// CHECK:       tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] {{.*}} into tensor<256x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:       linalg.generic {{.*}} outs(%{{.*}} : tensor<{{[0-9]+}}x256x{{[0-9]+}}xf32>)
// CHECK:       %[[C:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<64x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf32>)
// CHECK:       %[[U:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} outs(%[[C]] :
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:       %[[V:.*]] = memref.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]]
// CHECK:       bufferization.materialize_in_destination %[[U]] in restrict writable %[[V]]
// CHECK-NOT:   linalg.matmul
// SCHED-LABEL: func.func @matmul_to_output
// SCHED:       scf.for
// SCHED:         vector.fma
// SCHED-NOT:   linalg.matmul
func.func @matmul_to_output(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %out: memref<256x256xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x256xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// -----

// An accumulator that is not a fill is viewed as 4-D (no copy); a result
// used by an epilogue is collapsed back for it.
// CHECK-LABEL: func.func @batch_matmul_accumulate
// CHECK-COUNT-1: linalg.generic
// CHECK:       %[[C:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4]] {{.*}} into tensor<2x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK:       linalg.generic {{.*}} outs(%[[C]] :
// CHECK:       tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4]] {{.*}} into tensor<2x128x64xf32>
// CHECK:       math.tanh
// CHECK-NOT:   linalg.batch_matmul
// SCHED-LABEL: func.func @batch_matmul_accumulate
// SCHED:         vector.fma
func.func @batch_matmul_accumulate(%a: tensor<2x128x64xf32>, %b: tensor<2x64x64xf32>, %c: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x128x64xf32>, tensor<2x64x64xf32>) outs(%c : tensor<2x128x64xf32>) -> tensor<2x128x64xf32>
  %1 = tensor.empty() : tensor<2x128x64xf32>
  %2 = linalg.map { math.tanh } ins(%0 : tensor<2x128x64xf32>) outs(%1 : tensor<2x128x64xf32>)
  return %2 : tensor<2x128x64xf32>
}

// -----

// Too small to pay for the copies, or not f32: left alone. An M that does
// not split into register rows (255) is split: the 252 whole rows packed
// in C's own slice, the last 3 (below the size threshold, packed anyway)
// padded with a zero row; both written into C by insert_slice.
// CHECK-LABEL: func.func @left_alone
// CHECK:       linalg.matmul ins(%{{.*}} : tensor<8x8xf32>
// CHECK:       linalg.matmul ins(%{{.*}} : tensor<256x256xi32>
// CHECK:       tensor.extract_slice %{{.*}}[0, 0] [252, 256] [1, 1] : tensor<255x256xf32> to tensor<252x256xf32>
// CHECK:       tensor.expand_shape %{{.*}} into tensor<63x4x16x16xf32>
// CHECK:       %[[W:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [252, 256] [1, 1] : tensor<252x256xf32> into tensor<255x256xf32>
// CHECK:       tensor.extract_slice %{{.*}}[252, 0] [3, 256] [1, 1] : tensor<255x256xf32> to tensor<3x256xf32>
// CHECK:       tensor.pad %{{.*}} low[0, 0] high[1, 0]
// CHECK:       tensor.pad %{{.*}} low[0, 0] high[1, 0]
// CHECK:       tensor.extract_slice %{{.*}}[0, 0] [3, 256] [1, 1] : tensor<4x256xf32> to tensor<3x256xf32>
// CHECK:       tensor.insert_slice %{{.*}} into %[[W]][252, 0] [3, 256] [1, 1] : tensor<3x256xf32> into tensor<255x256xf32>
// CHECK-NOT:   linalg.matmul
func.func @left_alone(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>,
                      %ia: tensor<256x256xi32>, %ib: tensor<256x256xi32>, %ic: tensor<256x256xi32>,
                      %oa: tensor<255x256xf32>, %ob: tensor<256x256xf32>, %oc: tensor<255x256xf32>) -> (tensor<8x8xf32>, tensor<256x256xi32>, tensor<255x256xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%ia, %ib : tensor<256x256xi32>, tensor<256x256xi32>) outs(%ic : tensor<256x256xi32>) -> tensor<256x256xi32>
  %2 = linalg.matmul ins(%oa, %ob : tensor<255x256xf32>, tensor<256x256xf32>) outs(%oc : tensor<255x256xf32>) -> tensor<255x256xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<256x256xi32>, tensor<255x256xf32>
}

// -----

// A channels-last convolution becomes the direct convolution generic
// (multiply-adds under fastmath<contract>), not im2col + a matmul: the
// direct form measured as fast or faster on every shape tried.
// CHECK-LABEL: func.func @conv
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK:         arith.mulf {{.*}} fastmath<contract>
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:   linalg.matmul
func.func @conv(%x: tensor<1x18x20x16xf32>, %w: tensor<3x3x16x32xf32>, %out: memref<1x8x16x32xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<1x8x16x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<1x18x20x16xf32>, tensor<3x3x16x32xf32>) outs(%1 : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<1x8x16x32xf32>, memref<1x8x16x32xf32>) -> ()
  return
}

// -----

// A bf16 x bf16 dot accumulating in f32 (the shared lowering's contraction
// generic with extf operands): widened by extf copies into an f32
// linalg.matmul, then packed and scheduled like any f32 matmul.
// CHECK-LABEL: func.func @bf16_mac_widened
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>)
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:       linalg.generic {{.*}} ins(%{{.*}} : tensor<256x256xbf16>) outs(%{{.*}} : tensor<256x256xf32>)
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-NOT:   bf16 to f32
// SCHED-LABEL: func.func @bf16_mac_widened
// SCHED:         vector.fma
// SCHED-NOT:   linalg.matmul
func.func @bf16_mac_widened(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %out: memref<256x256xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<256x256xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%1 : tensor<256x256xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %ex = arith.extf %x : bf16 to f32
    %ey = arith.extf %y : bf16 to f32
    %m = arith.mulf %ex, %ey : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<256x256xf32>, memref<256x256xf32>) -> ()
  return
}

// -----

// A small f16 dot (below the packing threshold): widened into an f32
// linalg.matmul, which the matmul schedule vectorizes unpacked.
// CHECK-LABEL: func.func @f16_mac_unpacked
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:       linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x100xf32>, tensor<100x64xf32>)
// SCHED-LABEL: func.func @f16_mac_unpacked
// SCHED:         vector.fma
// SCHED-NOT:   linalg.matmul
func.func @f16_mac_unpacked(%a: tensor<32x100xf16>, %b: tensor<100x64xf16>, %out: memref<32x64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<32x64xf32>) -> tensor<32x64xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<32x100xf16>, tensor<100x64xf16>) outs(%1 : tensor<32x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %ex = arith.extf %x : f16 to f32
    %ey = arith.extf %y : f16 to f32
    %m = arith.mulf %ex, %ey : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<32x64xf32>, memref<32x64xf32>) -> ()
  return
}

// -----

// M and N that the register tile does not divide (101 x 1000, x86-64-v3:
// 4x16 tiles): split into the whole tiles (100 x 992, packed exactly into
// C's own slices) and the remainders (the last 8 columns, then the last
// row), which alone are zero-padded up to a full tile; every tile is a full
// vector tile and no padded copy of all of A, B or C is made.
// CHECK-LABEL: func.func @edge_tiles_padded
// CHECK-DAG:   tensor.expand_shape %{{.*}} into tensor<25x4x62x16xf32>
// CHECK-DAG:   } : tensor<256x8xf32> to tensor<256x16xf32>
// CHECK-DAG:   } : tensor<1x256xf32> to tensor<4x256xf32>
// CHECK-NOT:   tensor<104x256xf32>
// CHECK-NOT:   tensor<256x1008xf32>
// CHECK-NOT:   linalg.matmul
// SCHED-LABEL: func.func @edge_tiles_padded
// SCHED:         vector.fma
// SCHED-NOT:   linalg.matmul
func.func @edge_tiles_padded(%a: tensor<101x256xf32>, %b: tensor<256x1000xf32>, %out: memref<101x1000xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<101x1000xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<101x1000xf32>) -> tensor<101x1000xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<101x256xf32>, tensor<256x1000xf32>) outs(%1 : tensor<101x1000xf32>) -> tensor<101x1000xf32>
  bufferization.materialize_in_destination %2 in restrict writable %out : (tensor<101x1000xf32>, memref<101x1000xf32>) -> ()
  return
}

// -----

// A workgroup's chunk of the output (the body of the forall that
// floors-linalg-distribute-workgroups makes): the zero fill goes into the
// expanded chunk of the shared output itself, so the chunk's result is
// inserted back where it was computed and bufferization writes the output in
// place, with no temporary C and no copy.
// CHECK-LABEL: func.func @workgroup_chunk
// CHECK:       scf.forall {{.*}} shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][0, %{{.*}}] [64, 128] [1, 1]
// CHECK:         %[[VIEW:.*]] = tensor.expand_shape %[[SLICE]] {{\[\[}}0, 1], [2, 3]]
// CHECK:         %[[C:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[VIEW]] :
// CHECK:         %[[U:.*]] = linalg.generic {{.*}} outs(%[[C]] :
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[U]]
// CHECK:         tensor.parallel_insert_slice %[[R]] into %[[OUT]][0, %{{.*}}] [64, 128] [1, 1]
// BUF-LABEL:   func.func @workgroup_chunk
// BUF-NOT:     memref.copy
// BUF:         memref.alloc() {{.*}} : memref<{{[0-9]+}}x64x{{[0-9]+}}xf32>
// BUF-NOT:     memref.alloc
// BUF-NOT:     memref.copy
// BUF:         return
func.func @workgroup_chunk(%a: tensor<64x64xf32>, %b: tensor<64x256xf32>, %out: memref<64x256xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x256xf32>
  %1 = scf.forall (%j) = (0) to (256) step (128) shared_outs(%o = %0) -> (tensor<64x256xf32>) {
    %bs = tensor.extract_slice %b[0, %j] [64, 128] [1, 1] : tensor<64x256xf32> to tensor<64x128xf32>
    %os = tensor.extract_slice %o[0, %j] [64, 128] [1, 1] : tensor<64x256xf32> to tensor<64x128xf32>
    %f = linalg.fill ins(%cst : f32) outs(%os : tensor<64x128xf32>) -> tensor<64x128xf32>
    %m = linalg.matmul ins(%a, %bs : tensor<64x64xf32>, tensor<64x128xf32>) outs(%f : tensor<64x128xf32>) -> tensor<64x128xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0, %j] [64, 128] [1, 1] : tensor<64x128xf32> into tensor<64x256xf32>
    }
  }
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}
