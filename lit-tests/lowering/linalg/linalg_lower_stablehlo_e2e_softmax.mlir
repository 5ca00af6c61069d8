// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program softmax.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program softmax (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x16xf32>
    %6 = stablehlo.exponential %5 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %10 = stablehlo.divide %6, %9 : tensor<8x16xf32>
    return %10 : tensor<8x16xf32>
  }
  func.func private @check0(%got: tensor<8x16xf32>, %want: tensor<8x16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8x16xf32>
    %ad = stablehlo.abs %d : tensor<8x16xf32>
    %aw = stablehlo.abs %want : tensor<8x16xf32>
    %rt = stablehlo.constant dense<1.000000e-04> : tensor<8x16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<8x16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<8x16xf32>
    %tol = stablehlo.add %rel, %at : tensor<8x16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<8x16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<8x16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0xA91B5F3FD66F02C0C4C206C0BD5C7FBF11FE863F9DEE1EBF7D02E23B6510AD3ECC2DC53FC9034C3E556FF93E6435A9BED4D69F3F513D1F3F0992C2BFF57E0D40E3B68B3F395E923FD8F6C13E6857B33F78C0953F419B2A3F50004CBF0B37D9BEF3F1BA3F0CB2053F5C6D02406B2CD83F4DC75ABE209C293F977EB33FE4939EBE6CC7113EFDE3143FFCB0D13F9F60433F3CC57ABF2D0B174068E29B3F459CCBBE50C801C0AB9C2CC0A6FAAFBE907CDB3E078E8F3FA09CBFBD939E9EBE44F39C3FED9141BE09BF05401364BA3FCB518ABFDE61373F15137A3F7FCDC13E31FA06BE4E54C9BF4015893F94E91EBFD52DDD3CC36DA73F8F3EC7BD253D433F5E45103F7D35663EFF309D3FFC34B4BF2677FABE2E25303F0C9412BF3815973FEA1383BE3EA8A2BEB355F33E5069023F94D0BCBF85CF853F54E6303E108FF53FB0878A3F58E0063E1306A9BF00EF313EFFCC763F2C199C3EFAAE23BFF7E8563E9847AB3C826497BF667581BF1F0C743EF27D93BF2C87FC3DF9E6763FA4E35FBFD606E83EDAADCBBE800A813F526636BF7A961A3F3CCF63BF8CE5223F3219533D04DBDDBE09DA00BECD27813FD51FA23E878C003F0737EB3F5507003F5B2469BF0101E53E08AB8F3FAAE6023F93F9B23EC0ADBDBE3231FBBE5A3B50BE5CA5103F761840BF525C3D3F128B0BBE716A1D3F5F41533FC9B7B13F0E9BAA3E7098303FC59D95BF"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0xA12E9A3D1B71863B4F517B3B5D4A3E3C402AB93D17AB8A3C06E3013DDFDE343DCC7E163ED36E1D3D31F7513D3A62B93C84D5E03D1947703D88AEE13BD51C933E40F9883D3548903DE552063D10ADBA3DAB25943D3315333DE4CE253CC7AD703CEE19C63D84091B3DA473303E1FEBF83D7B8C943C1463323D3FE6BA3D0DF1863CD8DA033DA5934C3D191F133EFA4F753DF5C02B3C8C67973EB142C13D9DAB993C9CD3703B18A9F63A0231A23C4E912F3D5E83AF3DF649D03CF2C8A73C63E0C23DE1C1C83C820D753E180B023E6C9F243C9E38783DC10BA13D0F10313D6094D43C8F3FC93B04F0B03DCA5E823C282BF93C6746E03D240CDC3C70FE813D990D553DE6332A3DC914E83DAF08053C8CB0A63C073F873DC35A993C0B44DD3DAF76D23CEDDFC53C98A45A3D6F3D623D7BC3F83BCB55C13D9591213D0F70673EB498C83D2D97863D59027C3CD75E8C3D51B11A3E5309A03D61FEF83C2788913D72F2703DF19C903CCDA4AB3C7CBB953D7916953C9B76853D04C11A3EE0CFC43C999EB93DF669D13CC891D53D29E0983C9E8C8E3DF606803C7940933D341B243D271CCA3C226F093DB2C2D53DCDEC553D53C3803DDBC3743E6780803DA3C67A3CA5C6733D8388F83D4CE5863D7D7E653D5768DF3CC71DC63C8705043D1A568E3D46CB983C4A80A93D642E0D3DD09D953DCCA2B83D2823223EF2C5613DA441A13D1516493C"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
