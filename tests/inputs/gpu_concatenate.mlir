// A concatenate fusion for the GPU floor's concatenate emitter (tests/gpu_floor.rs):
// four operands along dimension 0, computed by fused producers (negate,
// broadcast, reverse) or read as is; the largest is 4x8.
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<3x8xf32>) -> tensor<12x8xf32> {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
  %cr = stablehlo.reverse %c, dims = [0] : tensor<3x8xf32>
  %n = stablehlo.negate %a : tensor<4x8xf32>
  %0 = stablehlo.concatenate %n, %bb, %cr, %a, dim = 0 : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<3x8xf32>, tensor<4x8xf32>) -> tensor<12x8xf32>
  return %0 : tensor<12x8xf32>
}
