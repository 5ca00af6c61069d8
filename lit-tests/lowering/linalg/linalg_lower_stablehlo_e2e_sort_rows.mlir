// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program sort_rows.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program sort_rows (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = call @sort(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @sort(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
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
    %in0 = stablehlo.constant dense<"0xA35EF9BDC7C341BEE5A9A73F4355813F56450ABFFDD89ABF006A153FE6468E3D7EEA3ABF0B7C7CBEE378223FDDD015BF825B9FBF7ED8F23FC862303F3B6F8BBFECA282BFC2AF17C0362741BFEC7F80BF89AAE4BEE0861DBF24F002401AEE5D3F2CFAE93C5DA0EDBE0442F23EF77A5C3F6A4A1F3ED1F762BEA6989F3EF7ECD3BF6F8AF93C9F414B3F632896BE7E1E563E16A99DBDDEB1403EB36072BF59EAAD3DF528BB3E153F803F737C15BF95DEB13EB084A03E2A8B9BBFA1429B3F8CDC82BF003E7A3FEF70963F64A1933F446F423F2F5B193FCF47EC3EF2D0A43F4DA8A6BF67FF15C0245E4E3E44DCADBDDFC68ABE1E55973D45F989BEA2DAAD3EDAFF533F48ABD73E7F7EDC3E583AC9BF9965E8BE3AA960BF49CEAF3C3A15C33ED2743FBDC722763D69FB76BF8E0715BF72ACB0BE59ECCC3EDF3086BF72F6AF3FE5AE0ABFE54B0DBF5FE4BDBEDB5A8A3F162053BE4B2C0F3F8AE515C04A47C7BE5498BFBFA3E4BABE08FD0F3FE995CF3E7C4CCEBEC798F1BDCD29F5BF0AA3C5BFDD75B83FF088913E0DAB813E7439663E28ADF73E033DE43FA449293FBF7F1BBF1F6093BFF2CD7F3F9A652E3FD6F73BBFAACA6DBF06A91240B6F74ABFF118AE3F79A61D40D0480E4029D05B3DA40F50BF91EABC3F6271FE3F089EF63E24CD783F42A45EBF27A6D6BE8BBC123E38DC4C3E846D92BFA1194B3F7D148EBFF36BB13FC370BA3D"> : tensor<8x16xf32>
    %res = call @compute(%in0) : (tensor<8x16xf32>) -> (tensor<8x16xf32>)
    %want0 = stablehlo.constant dense<"0x825B9FBFFDD89ABF3B6F8BBF7EEA3ABFDDD015BF56450ABF0B7C7CBEC7C341BEA35EF9BDE6468E3D006A153FE378223FC862303F4355813FE5A9A73F7ED8F23FC2AF17C0F7ECD3BFECA282BFEC7F80BF362741BFE0861DBF5DA0EDBE89AAE4BED1F762BE2CFAE93C6A4A1F3EA6989F3E0442F23EF77A5C3F1AEE5D3F24F002402A8B9BBF8CDC82BFB36072BF737C15BF632896BE16A99DBD6F8AF93C59EAAD3DDEB1403E7E1E563EB084A03E95DEB13EF528BB3E9F414B3F153F803FA1429B3F67FF15C04DA8A6BFDFC68ABE45F989BE44DCADBD1E55973D245E4E3EA2DAAD3ECF47EC3E2F5B193F446F423FDAFF533F003E7A3F64A1933FEF70963FF2D0A43F583AC9BFDF3086BF69FB76BF3AA960BF8E0715BFE5AE0ABF9965E8BE72ACB0BED2743FBD49CEAF3CC722763D3A15C33E59ECCC3E48ABD73E7F7EDC3E72F6AF3F8AE515C0CD29F5BF0AA3C5BF5498BFBFE54B0DBF7C4CCEBE4A47C7BE5FE4BDBEA3E4BABE162053BEC798F1BDE995CF3E4B2C0F3F08FD0F3FDB5A8A3FDD75B83F1F6093BFAACA6DBFB6F74ABFD6F73BBFBF7F1BBF7439663E0DAB813EF088913E28ADF73EA449293F9A652E3FF2CD7F3FF118AE3F033DE43F06A9124079A61D40846D92BF7D148EBF42A45EBFA40F50BF27A6D6BE29D05B3DC370BA3D8BBC123E38DC4C3E089EF63EA1194B3F24CD783FF36BB13F91EABC3F6271FE3FD0480E40"> : tensor<8x16xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
