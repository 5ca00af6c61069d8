// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-tile-and-vectorize)' | FileCheck %s

// The matmul is tiled for the caches, then for the registers; the register
// tile becomes broadcast-FMAs on a loop-carried accumulator (hoisted out of
// the K loop).
// CHECK-LABEL: func.func @matmul
// CHECK:       scf.for {{.*}} step %c64
// CHECK:         scf.for {{.*}} step %c128
// CHECK:           scf.for {{.*}} step %c128
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
