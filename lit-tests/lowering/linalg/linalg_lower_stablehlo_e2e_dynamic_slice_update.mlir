// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program dynamic_slice_update.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program dynamic_slice_update (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<12x8xf32>, %arg1: tensor<i32>, %arg2: tensor<3x4xf32>) -> (tensor<4x8xf32> {jax.result_info = "result[0]"}, tensor<12x8xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<12> : tensor<i32>
    %1 = stablehlo.add %arg1, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg1 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.add %c_3, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_5 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [4, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<12> : tensor<i32>
    %8 = stablehlo.add %arg1, %c_7 : tensor<i32>
    %9 = stablehlo.select %7, %8, %arg1 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<2> : tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %c_8, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<2> : tensor<i32>
    %c_11 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.add %c_10, %c_11 : tensor<i32>
    %c_12 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.select %10, %11, %c_12 : tensor<i1>, tensor<i32>
    %13 = stablehlo.dynamic_update_slice %arg0, %arg2, %9, %12 : (tensor<12x8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %15 = stablehlo.multiply %6, %14 : tensor<4x8xf32>
    return %15, %13 : tensor<4x8xf32>, tensor<12x8xf32>
  }
  func.func private @check0(%got: tensor<4x8xf32>, %want: tensor<4x8xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x8xf32>
    %ad = stablehlo.abs %d : tensor<4x8xf32>
    %aw = stablehlo.abs %want : tensor<4x8xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<4x8xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<4x8xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x8xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x8xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x8xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x8xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x8xi1>
    %bad = stablehlo.not %ok : tensor<4x8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x8xi1>) -> tensor<4x8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<12x8xf32>, %want: tensor<12x8xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12x8xf32>
    %ad = stablehlo.abs %d : tensor<12x8xf32>
    %aw = stablehlo.abs %want : tensor<12x8xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<12x8xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<12x8xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<12x8xf32>
    %tol = stablehlo.add %rel, %at : tensor<12x8xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12x8xf32>, tensor<12x8xf32>) -> tensor<12x8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12x8xf32>, tensor<12x8xf32>) -> tensor<12x8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12x8xf32>, tensor<12x8xf32>) -> tensor<12x8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12x8xf32>, tensor<12x8xf32>) -> tensor<12x8xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12x8xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12x8xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12x8xi1>
    %bad = stablehlo.not %ok : tensor<12x8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12x8xi1>) -> tensor<12x8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12x8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0xA3A5CE3E9EFCCEBF313747BE88F89D3E7344743F32BCCA3E72399E3F801C6BBF3CA8CABF15D9FA3FA532ECBF7607B9BF2D9D8A3F2FFAEBBD22CC943E55D24B3F29885D3F09C4B1BF684C75BF56236BBF0F44B23CA56CC93F422F67BF6172C43DE977153EB8E1C63E9354553E48C3F73E2D29BE3FCF465D3C26DA653F0FB2E33E0674E23E6C1AD5BE83B797BFD1D5C53F0234963E6CB2963E3018EC3DE8EA09C047575CBEC31D32BF946F933F8F1791BDB1F2143FA0BCEB3E8615143FA93689BF45177D3C1A8902C0F91523BC7D8129BE56AC603E91308D3EF6A9AE3C038C6A3D7F69E2BFA39AF43FFD7C32C05EC3D73FA4D9BABFA8B2CCBFC49BF1BD7039B73B350C313FE794B33E52611DBCF9BCFBBF8D56ADBFCE4B0E40A60A27BFC6A5CFBD060BB73E4840BCBE40BC84BD74FFA7BF1A0F00BF42D4613D9FC7E53F7C6609BFBAC1633ED8A510BF73848BBE9F6AE53EDAB1E5BCE8C5D43F5DC0293F36B8CEBF06A3AE3F8AF3723E34A8C93D5831D1BFC5C37EBE64081D3F246F3E3FC64A0A3F"> : tensor<12x8xf32>
    %in1 = stablehlo.constant dense<"0x05000000"> : tensor<i32>
    %in2 = stablehlo.constant dense<"0x0F967B3E727AC4BD343A4E3F61EEFC3F2310003F757FCD3F051520BFCAACA03ED29DF6BFFFF5F93FF369BDBE06F5B4BF"> : tensor<3x4xf32>
    %res:2 = call @compute(%in0, %in1, %in2) : (tensor<12x8xf32>, tensor<i32>, tensor<3x4xf32>) -> (tensor<4x8xf32>, tensor<12x8xf32>)
    %want0 = stablehlo.constant dense<"0x4757DCBEC31DB2BF946F13408F1711BEB1F2943FA0BC6B3F8615943FA93609C04517FD3C1A8982C0F915A3BC7D81A9BE56ACE03E91300D3FF6A92E3D038CEA3D7F6962C0A39A7440FD7CB2C05EC35740A4D93AC0A8B24CC0C49B71BE7039373C350CB13FE794333F52619DBCF9BC7BC08D562DC0CE4B8E40A60AA7BFC6A54FBE"> : tensor<4x8xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0xA3A5CE3E9EFCCEBF313747BE88F89D3E7344743F32BCCA3E72399E3F801C6BBF3CA8CABF15D9FA3FA532ECBF7607B9BF2D9D8A3F2FFAEBBD22CC943E55D24B3F29885D3F09C4B1BF684C75BF56236BBF0F44B23CA56CC93F422F67BF6172C43DE977153EB8E1C63E9354553E48C3F73E2D29BE3FCF465D3C26DA653F0FB2E33E0674E23E6C1AD5BE83B797BFD1D5C53F0234963E6CB2963E3018EC3DE8EA09C047575CBEC31D32BF0F967B3E727AC4BD343A4E3F61EEFC3F8615143FA93689BF45177D3C1A8902C02310003F757FCD3F051520BFCAACA03EF6A9AE3C038C6A3D7F69E2BFA39AF43FD29DF6BFFFF5F93FF369BDBE06F5B4BFC49BF1BD7039B73B350C313FE794B33E52611DBCF9BCFBBF8D56ADBFCE4B0E40A60A27BFC6A5CFBD060BB73E4840BCBE40BC84BD74FFA7BF1A0F00BF42D4613D9FC7E53F7C6609BFBAC1633ED8A510BF73848BBE9F6AE53EDAB1E5BCE8C5D43F5DC0293F36B8CEBF06A3AE3F8AF3723E34A8C93D5831D1BFC5C37EBE64081D3F246F3E3FC64A0A3F"> : tensor<12x8xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<12x8xf32>, tensor<12x8xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    return
  }
}
