// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// A schedule that cannot fit an op is not chosen: here elementwise fusion
// made a "parallel" loop of extent 1 that the output does not index (from a
// vmapped scan in JAX's lax_control_flow_test.py::testScanVmapTuples); the
// op stays a linalg op (convert-linalg-to-loops makes it scalar loops) with
// a remark saying so; the other op of the kernel is still vectorized.
// REMARK:      remark: no elementwise schedule: it would tile 1 of this op's 2 loops; this op is computed by scalar loops
// CHECK-LABEL: func.func @unit_loop_not_indexed
// CHECK:       vector.transfer_write
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT:   floors.schedule
#id = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unit_loop_not_indexed(%a: tensor<7xf32>, %s: tensor<f32>, %b: tensor<7xf32>, %c: tensor<7xf32>) -> (tensor<7xf32>, tensor<1x7xf32>) {
  %x = tensor.extract %s[] : tensor<f32>
  %0 = tensor.empty() : tensor<7xf32>
  %1 = linalg.fill ins(%x : f32) outs(%0 : tensor<7xf32>) -> tensor<7xf32>
  %2:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]} ins(%c, %a : tensor<7xf32>, tensor<7xf32>) outs(%1, %0 : tensor<7xf32>, tensor<7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32, %out_1: f32):
    %5 = arith.addf %out, %in_0 : f32
    %6 = math.cos %5 : f32
    %7 = arith.mulf %in, %6 : f32
    linalg.yield %5, %7 : f32, f32
  } -> (tensor<7xf32>, tensor<7xf32>)
  %3 = tensor.empty() : tensor<1x7xf32>
  %4:2 = linalg.generic {indexing_maps = [#row, #row, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<7xf32>, tensor<7xf32>) outs(%1, %3 : tensor<7xf32>, tensor<1x7xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32, %out_1: f32):
    %5 = math.cos %in : f32
    %6 = arith.addf %out, %5 : f32
    %7 = arith.mulf %6, %in_0 : f32
    linalg.yield %6, %7 : f32, f32
  } -> (tensor<7xf32>, tensor<1x7xf32>)
  return %2#1, %4#1 : tensor<7xf32>, tensor<1x7xf32>
}

// -----

// A schedule the vectorizer refuses (here one pinned on the op of the test
// above) is not an error: the function goes back to what it was, each op is
// scheduled on its own, and the op that cannot be vectorized stays a linalg
// op with a remark saying so.
// REMARK:      remark: the elementwise schedule does not apply here (Attempted to vectorize, but failed); this op is computed by scalar loops
// CHECK-LABEL: func.func @pinned_refused
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT:   floors.cpu_schedule
#rowp = affine_map<(d0, d1) -> (d1)>
#id2p = affine_map<(d0, d1) -> (d0, d1)>
func.func @pinned_refused(%a: tensor<7xf32>, %s: tensor<f32>, %b: tensor<7xf32>) -> tensor<1x7xf32> {
  %x = tensor.extract %s[] : tensor<f32>
  %0 = tensor.empty() : tensor<7xf32>
  %1 = linalg.fill ins(%x : f32) outs(%0 : tensor<7xf32>) -> tensor<7xf32>
  %3 = tensor.empty() : tensor<1x7xf32>
  %4:2 = linalg.generic {indexing_maps = [#rowp, #rowp, #rowp, #id2p], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<7xf32>, tensor<7xf32>) outs(%1, %3 : tensor<7xf32>, tensor<1x7xf32>) attrs = {floors.cpu_schedule = #floors.cpu_schedule<kind = "elementwise", tile = [1, 8], inner = [], k = 0, peel = false, rows = []>} {
  ^bb0(%in: f32, %in_0: f32, %out: f32, %out_1: f32):
    %5 = math.cos %in : f32
    %6 = arith.addf %out, %5 : f32
    %7 = arith.mulf %6, %in_0 : f32
    linalg.yield %6, %7 : f32, f32
  } -> (tensor<7xf32>, tensor<1x7xf32>)
  return %4#1 : tensor<1x7xf32>
}

// -----

// A zero-size matmul computes nothing: no schedule (tiling a zero extent
// crashed the transform interpreter: nn_test.py's orthogonal initializer of
// shape 0x0 under `val @ val.T`).
// CHECK-LABEL: func.func @empty_matmul
// CHECK:       linalg.matmul
// CHECK-NOT:   vector.
func.func @empty_matmul(%a: tensor<0x0xf32>, %b: tensor<0x0xf32>) -> tensor<0x0xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<0x0xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<0x0xf32>) -> tensor<0x0xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<0x0xf32>, tensor<0x0xf32>) outs(%1 : tensor<0x0xf32>) -> tensor<0x0xf32>
  return %2 : tensor<0x0xf32>
}
