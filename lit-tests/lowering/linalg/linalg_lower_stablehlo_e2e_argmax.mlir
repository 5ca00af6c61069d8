// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program argmax.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program argmax (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8xi32> {jax.result_info = "result"}) {
    %0 = call @argmax(%arg0) : (tensor<8x16xf32>) -> tensor<8xi32>
    return %0 : tensor<8xi32>
  }
  func.func private @argmax(%arg0: tensor<8x16xf32>) -> tensor<8xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<8x16xf32>, tensor<8x16xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<8xi32>
  }
  func.func private @check0(%got: tensor<8xi32>, %want: tensor<8xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %bad = stablehlo.not %ok : tensor<8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8xi1>) -> tensor<8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x8A93C93E5825A5BF5BC3F23DED937EBEB702503F769ABF3EBEE0094088FEB4BDD83E4D3F6387883DC98C6C3FAE4778BFA02E92BC17F17A3D4B87323FA975083DB41D92BEA88B223FCDD5E03E4DCADE3F06DDA43F1AC11ABFC0C8473E912FC43CFF808FBE041EF0BE9026CD3E638D94395A3F883F217146BFCADAA33F8D4AED3F446D93BE8EF9083FC1B1B4BE2858203E065420BF7C33733F0E27273FDCE6AE3E4BD69DBD7A8C5ABF79CDE83F23BC40407E0900404C0BCE3B88C0283F611CA43F891D96BE8941083F7B7F123FD931BC3EF5E7853EAB2CAFBF493647BE6C28ECBDFD4CD8BF7827843FB35A0F3D23E39C3F9972C73CF92C453EA9A4B73E7501ADBFE30D2D3F2EB99DBE8F48603F49FC89BF2F2A5CBFBEE12A3F639B723FD10CFC3D4760D23EE0EE3ABF9D49553FCC299EBF84B2E6BE915C4ABF274AC73E9D5FE53E18E30C3F312797BF55DEA33FF60297BFB9C061BF48690EBF1C5FACBF5BD8493E39F1CDBF06741D3F004E83BFB4FC7A3D47A4963F1631CEBDE3E4B1BFE18F56BE7A3DC13EFB3F83BF9C73863FC1D96EBFEED9043F5C4EB13F36ED94BDFDB3633E7989143ECCB104BFAAB8973F64F1E8BF037EB83F7350993F12CDF4BF9B505A3F4FF7BEBF18768D3F526828BDFD8C8CBF306C0C3FED5BD2BE9F0C0FBD499D90BF9D24D2BDDB8F82BE5555A33F174F553E97026F3E6BBA433EF7B5363F6E9E063F"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8xi32>)
    %want0 = stablehlo.constant dense<"0x060000000F0000000B0000000B00000006000000020000000C0000000A000000"> : tensor<8xi32>
    %bad0 = call @check0(%res, %want0) : (tensor<8xi32>, tensor<8xi32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
