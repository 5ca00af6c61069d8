// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: select_and_scatter (max-pool gradient with stride and padding), batch_norm_inference,
// legacy broadcast.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// select_and_scatter
module {
  func.func public @compute(%arg0: tensor<4x6xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<6xf32>, %arg3: tensor<6xf32>, %arg4: tensor<6xf32>, %arg5: tensor<6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x3x6xf32>) {
    %v1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %v2 = "stablehlo.select_and_scatter"(%arg0, %arg1, %v1) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 0], [0, 1]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> (tensor<4x6xf32>)
    %v3 = "stablehlo.batch_norm_inference"(%arg0, %arg2, %arg3, %arg4, %arg5) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<4x6xf32>)
    %v4 = "stablehlo.broadcast"(%arg2) <{broadcast_sizes = array<i64: 2, 3>}> : (tensor<6xf32>) -> (tensor<2x3x6xf32>)
    return %v2, %v3, %v4 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x3x6xf32>
  }
  func.func private @check0(%got: tensor<4x6xf32>, %want: tensor<4x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x6xf32>
    %ad = stablehlo.abs %d : tensor<4x6xf32>
    %aw = stablehlo.abs %want : tensor<4x6xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<4x6xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<4x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x6xi1>
    %bad = stablehlo.not %ok : tensor<4x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x6xi1>) -> tensor<4x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<4x6xf32>, %want: tensor<4x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x6xf32>
    %ad = stablehlo.abs %d : tensor<4x6xf32>
    %aw = stablehlo.abs %want : tensor<4x6xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<4x6xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<4x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x6xi1>
    %bad = stablehlo.not %ok : tensor<4x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x6xi1>) -> tensor<4x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<2x3x6xf32>, %want: tensor<2x3x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<2x3x6xf32>
    %ad = stablehlo.abs %d : tensor<2x3x6xf32>
    %aw = stablehlo.abs %want : tensor<2x3x6xf32>
    %rt = stablehlo.constant dense<1.000000e-05> : tensor<2x3x6xf32>
    %at = stablehlo.constant dense<1.000000e-05> : tensor<2x3x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<2x3x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<2x3x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x3x6xf32>, tensor<2x3x6xf32>) -> tensor<2x3x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x3x6xf32>, tensor<2x3x6xf32>) -> tensor<2x3x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x3x6xf32>, tensor<2x3x6xf32>) -> tensor<2x3x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x3x6xf32>, tensor<2x3x6xf32>) -> tensor<2x3x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<2x3x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<2x3x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<2x3x6xi1>
    %bad = stablehlo.not %ok : tensor<2x3x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x3x6xi1>) -> tensor<2x3x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x3x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0xB1C918BFDDA12BBFB7E130BF7B33B9BF6C1F413FA8AECABE37B1EF3E77D9063F980EB03FBC4DE8BF848ADE3F8A68A23F74B4123FC68C1840E9E5513E714C523FB3083DBFA032913F92DA2B3EB503E7BEEF7B0740B40E9CBE1A2F113CC2034ABE"> : tensor<4x6xf32>
    %in1 = stablehlo.constant dense<"0xA67341BF7801083F69083D3F5170B53EB71317C00C06813F"> : tensor<2x3xf32>
    %in2 = stablehlo.constant dense<"0x7152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E40"> : tensor<6xf32>
    %in3 = stablehlo.constant dense<"0x0BD59ABF08D3DDBFE4BB93BFC5DCB53FC91334BE377EBEBE"> : tensor<6xf32>
    %in4 = stablehlo.constant dense<"0x18997EBDB0BB18BF1AB530BFB32624BF933C353F4C9E823F"> : tensor<6xf32>
    %in5 = stablehlo.constant dense<"0x5BFFBE3FEB0E043F70F95E3F8095553F4AD4673FBD41AF3F"> : tensor<6xf32>
    %res:3 = call @compute(%in0, %in1, %in2, %in3, %in4, %in5) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<2x3x6xf32>)
    %want0 = stablehlo.constant dense<"0x0000000000000000000000000000000000000000000000000000000000000000A67341BF00000000F084A23F00000000000000005170B53E0000000000000000000000000C06813F0000000000000000B71317C0000000000000000000000000"> : tensor<4x6xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x693787BF43D6CDBF4DCA93BF0AB56C3F822968BE394557C0B249AEBFC78C68C0E0B2383E23B1323FD807A7BF02301C3E1523B2BFB0CDD8C0EE6713BFDA941440364EB43F30A106BE0E45A3BFA050FDBF02CF283F9661D03F2C0A173FFD6C3CC0"> : tensor<4x6xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x7152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E407152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E407152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E407152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E407152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E407152B3BE7CB09BBF9F701A3FE616103F708385BF633C1E40"> : tensor<2x3x6xf32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<2x3x6xf32>, tensor<2x3x6xf32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    return
  }
}
