// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program fori_loop.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program fori_loop (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<8x16xf32>
    cond {
      %c_3 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg_1, %iterArg_2) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<i32>, tensor<8x16xf32>
    }
    return %0#2 : tensor<8x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<8x16xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %5 = stablehlo.add %2, %4 : tensor<8x16xf32>
    return %0, %5 : tensor<i32>, tensor<8x16xf32>
  }
  func.func private @check0(%got: tensor<8x16xf32>, %want: tensor<8x16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8x16xf32>
    %ad = stablehlo.abs %d : tensor<8x16xf32>
    %aw = stablehlo.abs %want : tensor<8x16xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<8x16xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<8x16xf32>
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
    %in0 = stablehlo.constant dense<"0x78C53440D30DB1BFD6BA42BFB27BACBF785957BE8074E9BDBC5E8ABF128A9EBF522ECABE31BCC83D7A106F3FFDB458BF6E09023EB247453FEB536C3E7A1E2F3F1E7A763FA8BB0C3FC8971BBFBDCF2F3FD7BE28BF9A0509BF7E2EB5BF0658CC3D53CD713F8DAC65BFD1BD89BF09A532C0E6D922BFD9960EBF5DEA07C0795014C0B024DCBF50DF21C082E0C1BE9FCE583FD1F6FE3F0318863F8179D53FE90761BF3246863E39C9E9BEF6D365BEB575753F584BB83F15DA60BFDCE3F53E84D5AA3E71FC7EBE32D6E73EE42334C0FD5A6B3F05B05ABFC9EF0FC0858494BF0E137B3D3CCCDF3F45C88EBFA482D7BEE88383BE0E0D14BF01E3F13E889D833F02F6E53CF6D7FEBEE7D18DBF3356D4BFD8A229BD2D5A493FA81A493FB6AECE3FB5BEAC3E6B4C05BF1D46FABF72533FBFE4F888BD57E6183D1F2298BF978B33BF121258BF8066AA3F7D78BDBECF6CC8BF2C56B13F9331983FAABFD13D284FAB3F02C85ABF69EFCD3DC8FB23BE2B3FEF3EB69B973FAB1BE6BCAF27F5BEC02A27BF0C6D08BE7EC22B40D75FE6BF57AB3ABEEC57873EE8C0E5BF639CC7BCDA0491BF5E246A3F90470C3FDF855ABE4E59E9BD5263183FB51E05BD5509373F75B91E3FE3AAA73F681E5F3F8555C9BFD0E5F5BE6F801C404801F5BE18AC2D3F5DF019BF524CDE3E2C8946BEE9289E3EF3B34FBFA3EB09C08469BABD4CA1AC3F9ED7A2BF368A20BF"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0x16D3C640E49DC240453DC34008A7C2402ACAC340D2E2C34042EBC240ECC2C240E99AC3401819C44010EFC4404B27C3408220C44048C5C440153BC4401EAFC4407AF6C440BC8CC4406864C340D0AFC4404157C340FA76C340A395C2408B19C440CDF1C440541AC34084ECC2406C35C140265DC3406971C34056E0C140BEAEC140B647C2408378C140109FC340CED8C440EEFDC540300CC540F3AAC540F81EC3402343C4401C8BC3408BC6C34076F5C4409770C540261FC340F27AC4406B55C44041C0C340EB73C440702FC1405BEBC4405025C34041C0C140F7D6C240B10FC44098BFC54070E2C2403F94C3403EBEC340F36BC340F278C4403B07C5403007C4409480C3405CE4C2405457C24066F5C3405AC9C4401AC9C4405E9DC5406056C440B47AC340740BC240AC40C340E1EEC3408E09C440BCCFC240744CC340EE27C340CD54C54044A1C340266FC240AC62C5406330C540381AC4409E56C5403825C340BE19C44001D7C340A077C440382FC540CFF8C3406C85C340D558C340E5DDC3400AAFC6404033C24055D1C340AC43C4407E34C240C3F9C340F6DDC24024EAC440488CC4405EC9C340D5E2C3406398C440AEF7C3400AB7C440BA9EC440564FC5401EDFC440556DC2400D85C3400272C6408085C340ACADC4401066C340266FC4405ECEC340144FC4404C30C34052D8C140B3E8C3404259C54051BAC240765FC340"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
