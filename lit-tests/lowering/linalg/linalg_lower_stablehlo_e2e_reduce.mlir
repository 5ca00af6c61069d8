// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: reduce over several dims (sum, max), reduce_window (max pool with stride and padding,
// sum with window dilation).

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// reduce
module {
  func.func public @compute(%arg0: tensor<4x6x5xf32>) -> (tensor<6xf32>, tensor<4x5xf32>, tensor<4x3x3xf32>, tensor<4x2x5xf32>) {
    %v1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %v2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %v3 = "stablehlo.reduce"(%arg0, %v1) <{dimensions = array<i64: 0, 2>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x6x5xf32>, tensor<f32>) -> (tensor<6xf32>)
    %v4 = "stablehlo.reduce"(%arg0, %v2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x6x5xf32>, tensor<f32>) -> (tensor<4x5xf32>)
    %v5 = "stablehlo.reduce_window"(%arg0, %v2) <{window_dimensions = array<i64: 1, 2, 2>, window_strides = array<i64: 1, 2, 2>, padding = dense<[[0, 0], [0, 1], [1, 0]]> : tensor<3x2xi64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x6x5xf32>, tensor<f32>) -> (tensor<4x3x3xf32>)
    %v6 = "stablehlo.reduce_window"(%arg0, %v1) <{window_dimensions = array<i64: 1, 3, 1>, window_dilations = array<i64: 1, 2, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x6x5xf32>, tensor<f32>) -> (tensor<4x2x5xf32>)
    return %v3, %v4, %v5, %v6 : tensor<6xf32>, tensor<4x5xf32>, tensor<4x3x3xf32>, tensor<4x2x5xf32>
  }
  func.func private @check0(%got: tensor<6xf32>, %want: tensor<6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<6xf32>
    %ad = stablehlo.abs %d : tensor<6xf32>
    %aw = stablehlo.abs %want : tensor<6xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<6xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<6xf32>
    %tol = stablehlo.add %rel, %at : tensor<6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<6xi1>
    %bad = stablehlo.not %ok : tensor<6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<6xi1>) -> tensor<6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<4x5xf32>, %want: tensor<4x5xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x5xf32>
    %ad = stablehlo.abs %d : tensor<4x5xf32>
    %aw = stablehlo.abs %want : tensor<4x5xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<4x5xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<4x5xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x5xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x5xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x5xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x5xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x5xi1>
    %bad = stablehlo.not %ok : tensor<4x5xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x5xi1>) -> tensor<4x5xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x5xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<4x3x3xf32>, %want: tensor<4x3x3xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x3x3xf32>
    %ad = stablehlo.abs %d : tensor<4x3x3xf32>
    %aw = stablehlo.abs %want : tensor<4x3x3xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<4x3x3xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<4x3x3xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x3x3xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x3x3xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<4x3x3xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x3x3xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x3x3xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x3x3xi1>
    %bad = stablehlo.not %ok : tensor<4x3x3xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x3x3xi1>) -> tensor<4x3x3xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x3x3xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check3(%got: tensor<4x2x5xf32>, %want: tensor<4x2x5xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x2x5xf32>
    %ad = stablehlo.abs %d : tensor<4x2x5xf32>
    %aw = stablehlo.abs %want : tensor<4x2x5xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<4x2x5xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<4x2x5xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x2x5xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x2x5xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x2x5xf32>, tensor<4x2x5xf32>) -> tensor<4x2x5xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x2x5xf32>, tensor<4x2x5xf32>) -> tensor<4x2x5xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x2x5xf32>, tensor<4x2x5xf32>) -> tensor<4x2x5xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x2x5xf32>, tensor<4x2x5xf32>) -> tensor<4x2x5xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x2x5xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x2x5xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x2x5xi1>
    %bad = stablehlo.not %ok : tensor<4x2x5xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x2x5xi1>) -> tensor<4x2x5xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x2x5xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x586E51BE717C85BFA3F51C3F3B234DBE35ADDFBE5914053F2B02F4BE19CAB13FEBF1B33EC6DBF2BEADDDF8BF7564A7BF451D8B3F35464FBDC5F590BE1256D23FDA2DA4BFABED15BF03F7F1BE331A163F71DD29BFF4081DBF8975CDBFA4B63A3F265F4E3FA7E7F3BE9642273E6E75A5BF7E91F1BEB260B03FFFFC0A3EFFDC1340778549BF858D143FAE3248BE70D9103F454DECBBAEAA0FBF221C5EBFF239444016679EBDF81001C0B00A26BF03942D3F8D0000BF1A23AE3F964E803FA9FE1BBE4AC6F1BE529D80BF023133BFF48FBCBFA8299A3F159CCB3F22C9A0BF634197BF995EE2BF27BF76BF39CE46C0323692BF5301A63FFDFBB0BE08C65A3F275AFABE8C5DE13FCDFF4B3ECE95C3BEEA5A23402D21A6BE0C519CBF7FC14E3E7D111FBD537D883F33F06BBFEE014E3FB94D5A3F8EED2ABF7029273E29AC54BFB82116407E4234BF60F9E7BE616D88BFCF36B1BEAF8BC0BBD48D443FDA481CBF873B3EBE864FB5BFA2D053BF275F30407547853F680B48BFD52FABBFCCBF79BF08B1B1BCBA3E0E3D6B8E3EBF79AEA4BF8010B63F5143E73E61C7BFBE03F561BE4F8F07BF2BE83BC01CE0EC3D990789BFF65780BF3DE823BF20783B3FF4D395BF8996B7BF58CD233F521E413FAE7C75BF4BF90F3FD95095BEF8429A3E2567A1BF9238553F"> : tensor<4x6x5xf32>
    %res:4 = call @compute(%in0) : (tensor<4x6x5xf32>) -> (tensor<6xf32>, tensor<4x5xf32>, tensor<4x3x3xf32>, tensor<4x2x5xf32>)
    %want0 = stablehlo.constant dense<"0x37AD914098F36E4094ECF1C068B91E3FFA35D7C06CD92FC1"> : tensor<6xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<6xf32>, tensor<6xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x1256D23F9642273E19CAB13FA4B63A3FB260B03F1A23AE3FFFDC1340A8299A3F159CCB3FF23944405301A63F7D111FBDEA5A23402D21A6BEB8211640275F30407547853F58CD233F521E413F8010B63F"> : tensor<4x5xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x5914053F19CAB13FEBF1B33E1256D23F451D8B3F331A163FA7E7F3BE9642273EB260B03F70D9103FFFDC1340F23944401A23AE3F964E803F03942D3F023133BFA8299A3F159CCB3F5301A63FEA5A23408C5DE13FB94D5A3F537D883FB8211640D48D443F873B3EBEAF8BC0BB275F30407547853F8010B63F5143E73E03F561BE20783B3F4BF90F3F58CD233F9238553F"> : tensor<4x3x3xf32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<4x3x3xf32>, tensor<4x3x3xf32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x18FD33C0B0B23DC0D028C23DE4F2F43E486DB03D54E6D73F1246CCBFAA88FABE4BCB17BFDAB6BE3FA53E24BFE6F796BF60F36CBE6C563640BECFF9BFDE9C3E3FA1F845BFC0B4D6BF06478EC0C0406B3F88704B3FC66B56BFECE55A3F57DCE0BFFCCE2340C0EDE83FA780D4BFC9E92140F39624C04C28983E975D0240D88144BFA076B9BE53688EBFA5DB9BC0C607283FD9E9A9BF6E0EB9BFDE044CC06C343F40"> : tensor<4x2x5xf32>
    %bad3 = call @check3(%res#3, %want3) : (tensor<4x2x5xf32>, tensor<4x2x5xf32>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    return
  }
}
