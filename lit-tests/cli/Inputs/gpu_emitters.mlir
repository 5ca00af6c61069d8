// One small fusion per GPU emitter kind (lit-tests/cli/gpu_fusion_report.mlir).
// floors-fuse forms no input_slices fusion from plain StableHLO (no sibling
// fusion yet), so that one is written out.
func.func @main(%l: tensor<1024xf32>, %r: tensor<512x256xf32>, %c: tensor<512x256xf32>, %t: tensor<128x64xf32>,
                %sa: tensor<16x4xf32>, %si: tensor<3x1xi32>, %su: tensor<3x4xf32>,
                %k0: tensor<4x8xf32>, %k1: tensor<4x16xf32>, %ma: tensor<100x32xf32>, %mb: tensor<32x16xf32>,
                %is: tensor<8x16xf32>)
    -> (tensor<1024xf32>, tensor<512xf32>, tensor<256xf32>, tensor<64x128xf32>, tensor<16x4xf32>, tensor<4x24xf32>,
        tensor<100x16xf32>, tensor<8x4xf32>, tensor<4x6xf32>) {
  %loop = stablehlo.exponential %l : tensor<1024xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %row = stablehlo.reduce(%r init: %z) applies stablehlo.add across dimensions = [1] : (tensor<512x256xf32>, tensor<f32>) -> tensor<512xf32>
  %col = stablehlo.reduce(%c init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<512x256xf32>, tensor<f32>) -> tensor<256xf32>
  %tr = stablehlo.transpose %t, dims = [1, 0] : (tensor<128x64xf32>) -> tensor<64x128xf32>
  %sc = "stablehlo.scatter"(%sa, %si, %su) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<16x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<16x4xf32>
  %e = stablehlo.exponential %k1 : tensor<4x16xf32>
  %cat = stablehlo.concatenate %k0, %e, dim = 1 : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<4x24xf32>
  %mm = stablehlo.dot_general %ma, %mb, contracting_dims = [1] x [0] : (tensor<100x32xf32>, tensor<32x16xf32>) -> tensor<100x16xf32>
  %sl:2 = floors.fusion input_slices (%x = %is : tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
    %n = stablehlo.negate %x : tensor<8x16xf32>
    %s0 = stablehlo.slice %n [0:8, 0:4] : (tensor<8x16xf32>) -> tensor<8x4xf32>
    %s1 = stablehlo.slice %n [2:6, 4:16:2] : (tensor<8x16xf32>) -> tensor<4x6xf32>
    floors.yield %s0, %s1 : tensor<8x4xf32>, tensor<4x6xf32>
  }
  return %loop, %row, %col, %tr, %sc, %cat, %mm, %sl#0, %sl#1 : tensor<1024xf32>, tensor<512xf32>, tensor<256xf32>, tensor<64x128xf32>, tensor<16x4xf32>, tensor<4x24xf32>, tensor<100x16xf32>, tensor<8x4xf32>, tensor<4x6xf32>
}
