// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-tile-and-vectorize))'

// A schedule that does not give one size per loop of its op is a located
// error, not a guess.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @wrong_rank(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tensor.empty() : tensor<8x16xf32>
  // expected-error @+1 {{floors-cpu-tile-and-vectorize: floors.cpu_schedule gives 3 loop sizes; this op has 2 loops}}
  %1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) attrs = {floors.cpu_schedule = #floors.cpu_schedule<kind = "elementwise", tile = [1, 8, 8], inner = [], k = 0, peel = false, rows = []>} {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.negf %in : f32
    linalg.yield %2 : f32
  } -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// The dialect verifies the schedule itself.
#id2b = affine_map<(d0, d1) -> (d0, d1)>
func.func @bad_matmul(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tensor.empty() : tensor<8x16xf32>
  // expected-error @+1 {{#floors.cpu_schedule: a 'matmul' schedule has as many inner sizes as tile sizes}}
  %1 = linalg.generic {indexing_maps = [#id2b, #id2b], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) attrs = {floors.cpu_schedule = #floors.cpu_schedule<kind = "matmul", tile = [8, 16], inner = [8], k = 1, peel = false, rows = []>} {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.negf %in : f32
    linalg.yield %2 : f32
  } -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// A peeled convolution names in k a loop tiled by more than one.
#id2c = affine_map<(d0, d1) -> (d0, d1)>
func.func @bad_conv_peel(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = tensor.empty() : tensor<8x16xf32>
  // expected-error @+1 {{#floors.cpu_schedule: a peeled 'conv' schedule names in k a loop of its 2 tiled by more than 1}}
  %1 = linalg.generic {indexing_maps = [#id2c, #id2c], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%0 : tensor<8x16xf32>) attrs = {floors.cpu_schedule = #floors.cpu_schedule<kind = "conv", tile = [1, 8], inner = [], k = 0, peel = true, rows = []>} {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.negf %in : f32
    linalg.yield %2 : f32
  } -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
