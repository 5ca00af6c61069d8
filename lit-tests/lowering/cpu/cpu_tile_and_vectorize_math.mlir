// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' | FileCheck %s

// Vectorized f32 powf is floors' own form: widened to f64 lanes, log2 by its
// atanh series (one divide), 2^t by a polynomial and an exponent built in the
// integer bits, rounded once to f32, then C99's special cases as selects. No
// math.powf is left for LLVM to scalarize into libm calls.
// CHECK-LABEL: func.func @pow
// CHECK:       scf.for
// CHECK:         arith.extf {{.*}} : vector<1x{{[0-9]+}}xf32> to vector<1x{{[0-9]+}}xf64>
// CHECK:         arith.divf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         math.roundeven {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         arith.shli {{.*}} : vector<1x{{[0-9]+}}xi64>
// CHECK:         arith.truncf {{.*}} : vector<1x{{[0-9]+}}xf64> to vector<1x{{[0-9]+}}xf32>
// CHECK:         arith.select
// CHECK-NOT:     math.powf
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @pow(%a: tensor<64x512xf32>, %b: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<64x512xf32>, tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = math.powf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// -----

// Vectorized f32 sin: a vector whose lanes are all below 2^28 (and not NaN)
// takes the f64 reduction by pi/2 in three parts and the Taylor series; a
// vector with any other lane keeps the libm call, marked so that it stays.
// CHECK-LABEL: func.func @sin
// CHECK:       scf.for
// CHECK:         %[[RARE:.+]] = arith.cmpf uge
// CHECK:         %[[FLAT:.+]] = vector.shape_cast %[[RARE]] : vector<1x{{[0-9]+}}xi1> to vector<{{[0-9]+}}xi1>
// CHECK:         %[[ANY:.+]] = vector.reduction <or>, %[[FLAT]]
// CHECK:         scf.if %[[ANY]] -> (vector<1x{{[0-9]+}}xf32>)
// CHECK:           math.sin {{.*}} {floors.libm}
// CHECK:         } else {
// CHECK:           math.roundeven {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:           math.fma
// CHECK:           arith.truncf
// CHECK-NOT:       math.sin
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @sin(%a: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.sin %x : f32
    linalg.yield %s : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// -----

// cos: the same branch, with the quadrant shifted by one.
// CHECK-LABEL: func.func @cos
// CHECK:         scf.if
// CHECK:           math.cos {{.*}} {floors.libm}
// CHECK:         } else {
// CHECK:           arith.addi {{.*}} : vector<1x{{[0-9]+}}xi64>
// CHECK-NOT:       math.cos
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @cos(%a: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.cos %x : f32
    linalg.yield %s : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// -----

// Integer math convert-math-to-llvm takes on 1-D vectors only (ctlz, cttz,
// absi) is computed on the flattened tile: an n-D one would be left
// unconverted and fail the final conversion to LLVM.
// CHECK-LABEL: func.func @ctlz
// CHECK:       scf.for
// CHECK:         %[[FLAT:.*]] = vector.shape_cast {{.*}} : vector<1x{{[0-9]+}}xi32> to vector<{{[0-9]+}}xi32>
// CHECK:         %[[Z:.*]] = math.ctlz %[[FLAT]] : vector<{{[0-9]+}}xi32>
// CHECK:         vector.shape_cast %[[Z]] : vector<{{[0-9]+}}xi32> to vector<1x{{[0-9]+}}xi32>
// CHECK:         math.cttz {{.*}} : vector<{{[0-9]+}}xi32>
// CHECK-NOT:     math.ctlz {{.*}} : vector<1x
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @ctlz(%a: tensor<64x512xi32>, %out: memref<64x512xi32>) {
  %0 = tensor.empty() : tensor<64x512xi32>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xi32>) outs(%0 : tensor<64x512xi32>) {
  ^bb0(%x: i32, %o: i32):
    %z = math.ctlz %x : i32
    %t = math.cttz %x : i32
    %s = arith.addi %z, %t : i32
    linalg.yield %s : i32
  } -> tensor<64x512xi32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xi32>, memref<64x512xi32>) -> ()
  return
}

// -----

// f64 exp is floors' own form (upstream approximates f32 only): a rounded
// k = x·log2 e, the Taylor series of e^r, 2^k in the exponent bits; no
// math.exp is left for LLVM to scalarize into libm calls.
// CHECK-LABEL: func.func @exp_f64
// CHECK:       scf.for
// CHECK:         math.roundeven {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         math.fma {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         arith.shli {{.*}} : vector<1x{{[0-9]+}}xi64>
// CHECK-NOT:     math.exp
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @exp_f64(%a: tensor<64x512xf64>, %out: memref<64x512xf64>) {
  %0 = tensor.empty() : tensor<64x512xf64>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf64>) outs(%0 : tensor<64x512xf64>) {
  ^bb0(%x: f64, %o: f64):
    %e = math.exp %x : f64
    linalg.yield %e : f64
  } -> tensor<64x512xf64>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf64>, memref<64x512xf64>) -> ()
  return
}

// -----

// f64 log, log1p, expm1 and tanh are floors' own forms too: the exponent
// and mantissa split in the integer bits and the atanh series (log, log1p),
// expm1 by k·ln 2 and its Taylor series (expm1, tanh); none is left as a
// math op for LLVM to scalarize into libm calls.
// CHECK-LABEL: func.func @log_family_f64
// CHECK:       scf.for
// CHECK:         arith.shrui {{.*}} : vector<1x{{[0-9]+}}xi64>
// CHECK:         arith.divf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         math.fma {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         math.copysign {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK-NOT:     math.log
// CHECK-NOT:     math.expm1
// CHECK-NOT:     math.tanh
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @log_family_f64(%a: tensor<64x512xf64>, %out: memref<64x512xf64>) {
  %0 = tensor.empty() : tensor<64x512xf64>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf64>) outs(%0 : tensor<64x512xf64>) {
  ^bb0(%x: f64, %o: f64):
    %l = math.log %x : f64
    %p = math.log1p %l : f64
    %e = math.expm1 %p : f64
    %t = math.tanh %e : f64
    linalg.yield %t : f64
  } -> tensor<64x512xf64>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf64>, memref<64x512xf64>) -> ()
  return
}

// -----

// A scalar f64 expm1 (what the elementwise schedule leaves, e.g. in a
// reduction's body) is floors' form as well: LLVM's own lowering of it is
// exp(x) − 1, which cancels near 0.
// CHECK-LABEL: func.func @expm1_f64_scalar
// CHECK:         math.roundeven {{.*}} : f64
// CHECK-NOT:     math.expm1
#map = affine_map<(d0) -> (d0)>
#sum = affine_map<(d0) -> ()>
func.func @expm1_f64_scalar(%a: tensor<7xf64>, %out: memref<f64>) {
  %z = arith.constant 0.0 : f64
  %0 = tensor.empty() : tensor<f64>
  %i = linalg.fill ins(%z : f64) outs(%0 : tensor<f64>) -> tensor<f64>
  %1 = linalg.generic {indexing_maps = [#map, #sum], iterator_types = ["reduction"]} ins(%a : tensor<7xf64>) outs(%i : tensor<f64>) {
  ^bb0(%x: f64, %acc: f64):
    %e = math.expm1 %x : f64
    %s = arith.addf %acc, %e : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<f64>, memref<f64>) -> ()
  return
}

// -----

// tan (f32 lanes in f64, and f64 lanes as they are) shares sin/cos's
// reduction and branch: sin r / cos r, or −cos r / sin r in odd quadrants.
// CHECK-LABEL: func.func @tan
// CHECK:         scf.if {{.*}} -> (vector<1x{{[0-9]+}}xf32>)
// CHECK:           math.tan {{.*}} {floors.libm} : vector<1x{{[0-9]+}}xf32>
// CHECK:         } else {
// CHECK:           arith.divf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:           arith.truncf
// CHECK:         scf.if {{.*}} -> (vector<1x{{[0-9]+}}xf64>)
// CHECK:           math.tan {{.*}} {floors.libm} : vector<1x{{[0-9]+}}xf64>
// CHECK:         } else {
// CHECK:           arith.divf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK-NOT:       math.tan
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @tan(%a: tensor<64x512xf32>, %out: memref<64x512xf64>) {
  %0 = tensor.empty() : tensor<64x512xf64>
  %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x512xf32>) outs(%0 : tensor<64x512xf64>) {
  ^bb0(%x: f32, %o: f64):
    %t = math.tan %x : f32
    %w = arith.extf %t : f32 to f64
    %u = math.tan %w : f64
    linalg.yield %u : f64
  } -> tensor<64x512xf64>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf64>, memref<64x512xf64>) -> ()
  return
}

// -----

// atan2 and cbrt are floors' own forms (f32 lanes in f64): atan2 by the
// ratio of the smaller to the larger magnitude and the Taylor series of atan,
// cbrt by the exponent split in three and Halley's iteration; neither is
// left for LLVM to scalarize into libm calls.
// CHECK-LABEL: func.func @atan2_cbrt
// CHECK:       scf.for
// CHECK:         arith.minimumf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         arith.maximumf {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         math.copysign {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:         arith.truncf
// CHECK:         arith.shrui {{.*}} : vector<1x{{[0-9]+}}xi64>
// CHECK:         math.floor {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK-NOT:     math.atan2
// CHECK-NOT:     math.cbrt
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @atan2_cbrt(%a: tensor<64x512xf32>, %b: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<64x512xf32>, tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%y: f32, %x: f32, %o: f32):
    %t = math.atan2 %y, %x : f32
    %c = math.cbrt %t : f32
    linalg.yield %c : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}

// -----

// f32 remainder (arith.remf, fmod) is floors' exact form on f64 lanes:
// x − trunc(x/y)·y by fma, x's sign; a vector with a quotient of 2^29 or
// more, an infinite y, an inf or a NaN keeps fmodf (marked floors.libm).
// CHECK-LABEL: func.func @remf
// CHECK:         scf.if {{.*}} -> (vector<1x{{[0-9]+}}xf32>)
// CHECK:           arith.remf {{.*}} {floors.libm} : vector<1x{{[0-9]+}}xf32>
// CHECK:         } else {
// CHECK:           math.trunc {{.*}} : vector<1x{{[0-9]+}}xf64>
// CHECK:           math.fma
// CHECK:           math.copysign
// CHECK:           arith.truncf
// CHECK-NOT:       arith.remf
// CHECK:         vector.transfer_write
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @remf(%a: tensor<64x512xf32>, %b: tensor<64x512xf32>, %out: memref<64x512xf32>) {
  %0 = tensor.empty() : tensor<64x512xf32>
  %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<64x512xf32>, tensor<64x512xf32>) outs(%0 : tensor<64x512xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.remf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<64x512xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<64x512xf32>, memref<64x512xf32>) -> ()
  return
}
