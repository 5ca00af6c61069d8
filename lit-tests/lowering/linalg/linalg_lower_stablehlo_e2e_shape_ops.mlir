// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program shape_ops.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program shape_ops (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<4x6xf32>, %arg1: tensor<3x6xf32>) -> (tensor<24xf32> {jax.result_info = "result[0]"}, tensor<7x6xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = call @_pad(%0, %c) : (tensor<7x6xf32>, tensor<i32>) -> tensor<10x9xf32>
    %2 = stablehlo.slice %1 [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
    %3 = call @_flip(%2) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %4 = stablehlo.iota dim = 0 : tensor<6xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<4x6xf32>
    %7 = stablehlo.add %3, %6 : tensor<4x6xf32>
    %8 = stablehlo.reshape %7 : (tensor<4x6xf32>) -> tensor<24xf32>
    %cst = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %9 = call @clip(%0, %cst, %cst_0) : (tensor<7x6xf32>, tensor<f32>, tensor<f32>) -> tensor<7x6xf32>
    return %8, %9 : tensor<24xf32>, tensor<7x6xf32>
  }
  func.func private @_pad(%arg0: tensor<7x6xf32>, %arg1: tensor<i32>) -> tensor<10x9xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [2, 3], interior = [0, 0] : (tensor<7x6xf32>, tensor<f32>) -> tensor<10x9xf32>
    return %1 : tensor<10x9xf32>
  }
  func.func private @_flip(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<4x6xf32>
    return %0 : tensor<4x6xf32>
  }
  func.func private @clip(%arg0: tensor<7x6xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<7x6xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<7x6xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<7x6xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<7x6xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<7x6xf32>
    return %5 : tensor<7x6xf32>
  }
  func.func private @check0(%got: tensor<24xf32>, %want: tensor<24xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<24xf32>
    %ad = stablehlo.abs %d : tensor<24xf32>
    %aw = stablehlo.abs %want : tensor<24xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<24xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<24xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<24xf32>
    %tol = stablehlo.add %rel, %at : tensor<24xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %bn = stablehlo.and %gn, %wn : tensor<24xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<24xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<24xi1>
    %bad = stablehlo.not %ok : tensor<24xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<24xi1>) -> tensor<24xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<24xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<7x6xf32>, %want: tensor<7x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<7x6xf32>
    %ad = stablehlo.abs %d : tensor<7x6xf32>
    %aw = stablehlo.abs %want : tensor<7x6xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<7x6xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<7x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<7x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<7x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<7x6xf32>, tensor<7x6xf32>) -> tensor<7x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<7x6xf32>, tensor<7x6xf32>) -> tensor<7x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<7x6xf32>, tensor<7x6xf32>) -> tensor<7x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<7x6xf32>, tensor<7x6xf32>) -> tensor<7x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<7x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<7x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<7x6xi1>
    %bad = stablehlo.not %ok : tensor<7x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<7x6xi1>) -> tensor<7x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<7x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0xFE7DA1BF75FAC83FA505B5BFD366EC3F7E6B213F5569363EAF3A28BFC1090DBF0C79183F098560BF2FB78CBF36FF0C3F523F4D3F5CC7B23F74D48A3E6581A9BE8098CC3E554924BF035C75BF4C735FBF7597E8BFC9BE973E1782F5BF26B506BF"> : tensor<4x6xf32>
    %in1 = stablehlo.constant dense<"0x8397E23FAB90783FC67BCB3F814A87BF08DFC7BF89C0113ECB6105C02C967FBD1960E2BE6A00DF3ED466823FDC6327BF41B45C3D0E28CC3EC39212C02170213F99848BBFFBF418BF"> : tensor<3x6xf32>
    %res:2 = call @compute(%in0, %in1) : (tensor<4x6xf32>, tensor<3x6xf32>) -> (tensor<24xf32>, tensor<7x6xf32>)
    %want0 = stablehlo.constant dense<"0x000000009B7FC63FA291663FBEDE0740220F9340C85E8E4000000000B495F23E90DEA73DD9F7524046B40B4096118440000000004838B13E6A3341400DE05B40FDB36340D4009E40000000000000803F0000004000004040000080400000A040"> : tensor<24xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<24xf32>, tensor<24xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x000000BF0000003F000000BF0000003F0000003F5569363E000000BF000000BF0000003F000000BF000000BF0000003F0000003F0000003F74D48A3E6581A9BE8098CC3E000000BF000000BF000000BF000000BFC9BE973E000000BF000000BF0000003F0000003F0000003F000000BF000000BF89C0113E000000BF2C967FBD1960E2BE6A00DF3E0000003F000000BF41B45C3D0E28CC3E000000BF0000003F000000BF000000BF"> : tensor<7x6xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<7x6xf32>, tensor<7x6xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    return
  }
}
