// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program relu.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program relu (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = call @relu(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @relu(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  func.func private @check0(%got: tensor<8x16xf32>, %want: tensor<8x16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8x16xf32>
    %ad = stablehlo.abs %d : tensor<8x16xf32>
    %aw = stablehlo.abs %want : tensor<8x16xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
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
    %in0 = stablehlo.constant dense<"0x2011133FACD7B53D0B7352BE7240A7BFA656F0BEB1270FBF8E300CBFC16E90BF402E393F4E0889BF8CA6803FF830C8BEB391AEBFCE3359BD5F4D1A3F166B9D3E6CCD40BF250304BFDB8E6E3D3E688FBE2F25E43E0737DA3F762D2B40BB2214BF04B87E3F2146463FA33997BF6C035BBF1E2B643EBF4F193F0C415A3FBB59C73FA459F33F799135C00446763F8AE9AABF0FF7973FA118943EC37A2F3F34845D3F5BFD873FDD87243E2F18443F9E9BADBF816342BFABE5733F41C4963EEE158F3E3B71CCBC5007C73FFAD99D3FABE1F9BD17DF6B3E49ADD6BEE2DD00C07DF225BF7A5B373F1AC4853F7EECBC3FC53ED43E00BC7EBFDEF406BF54953F3F508741BF2595FF3EFD007D3E7CF44F3FF003093FFF08B2BF422FA13FDCE0A5BE6F9AA83F3F7E1F3FE7C2C6BE3EACA4BB1C6A543FD070F7BC25A819BFD71EE53E449000BC1D3726BDB1EF1B3FDADBD63EC683DFBEE3D9ACBE9F28ACBFEB33E83F39D10840DA5CEF3FF3066DBFBB0AD5BE46CF333FD51AD73B535F873E0293183E5CF4403F3617C63EAD98953F47482FBF836E0BC08EA3473F177BE23FA3434FBF0477E23FD3E74BBF5A02F53FAB0704BEF250923FD817A63F2840703EF141FF3C91D7A3BF966D943F7BA0743F50B15BBEE148F83F73369DBF6F51D43FD0409ABDFFBDBE3FC65B673F9CD5E3BDB9FF82BED0A9D73F544FB23F11D776BEB942853F6165B5BE"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0x2011133FACD7B53D000000000000000000000000000000000000000000000000402E393F000000008CA6803F0000000000000000000000005F4D1A3F166B9D3E0000000000000000DB8E6E3D000000002F25E43E0737DA3F762D2B400000000004B87E3F2146463F00000000000000001E2B643EBF4F193F0C415A3FBB59C73FA459F33F000000000446763F000000000FF7973FA118943EC37A2F3F34845D3F5BFD873FDD87243E2F18443F0000000000000000ABE5733F41C4963EEE158F3E000000005007C73FFAD99D3F0000000017DF6B3E0000000000000000000000007A5B373F1AC4853F7EECBC3FC53ED43E000000000000000054953F3F000000002595FF3EFD007D3E7CF44F3FF003093F00000000422FA13F000000006F9AA83F3F7E1F3F00000000000000001C6A543F0000000000000000D71EE53E0000000000000000B1EF1B3FDADBD63E000000000000000000000000EB33E83F39D10840DA5CEF3F000000000000000046CF333FD51AD73B535F873E0293183E5CF4403F3617C63EAD98953F00000000000000008EA3473F177BE23F000000000477E23F000000005A02F53F00000000F250923FD817A63F2840703EF141FF3C00000000966D943F7BA0743F00000000E148F83F000000006F51D43F00000000FFBDBE3FC65B673F0000000000000000D0A9D73F544FB23F00000000B942853F00000000"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
