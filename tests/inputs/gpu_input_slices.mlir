// An input_slices fusion for the GPU floor's input-slices emitter
// (tests/gpu_floor.rs): two slices (one strided) of an elementwise value.
// floors-fuse forms no such fusion from plain StableHLO yet, so it is
// written out.
func.func @main(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
  %0:2 = floors.fusion input_slices (%x = %a : tensor<8x16xf32>, %y = %b : tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
    %e = stablehlo.add %x, %y : tensor<8x16xf32>
    %t = stablehlo.tanh %e : tensor<8x16xf32>
    %s0 = stablehlo.slice %t [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
    %s1 = stablehlo.slice %t [2:6, 4:16:2] : (tensor<8x16xf32>) -> tensor<4x6xf32>
    floors.yield %s0, %s1 : tensor<8x4xf32>, tensor<4x6xf32>
  }
  return %0#0, %0#1 : tensor<8x4xf32>, tensor<4x6xf32>
}
