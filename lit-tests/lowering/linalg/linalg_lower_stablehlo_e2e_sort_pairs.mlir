// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: stable sort of (key, value) pairs, descending keys.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// sort pairs
module {
  func.func public @compute(%arg0: tensor<2x6xi32>, %arg1: tensor<2x6xf32>) -> (tensor<2x6xi32>, tensor<2x6xf32>) {
    %v1:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
      %s = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%s) : (tensor<i1>) -> ()
    }) : (tensor<2x6xi32>, tensor<2x6xf32>) -> (tensor<2x6xi32>, tensor<2x6xf32>)
    return %v1#0, %v1#1 : tensor<2x6xi32>, tensor<2x6xf32>
  }
  func.func private @check0(%got: tensor<2x6xi32>, %want: tensor<2x6xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x6xi32>, tensor<2x6xi32>) -> tensor<2x6xi1>
    %bad = stablehlo.not %ok : tensor<2x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x6xi1>) -> tensor<2x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<2x6xf32>, %want: tensor<2x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<2x6xf32>
    %ad = stablehlo.abs %d : tensor<2x6xf32>
    %aw = stablehlo.abs %want : tensor<2x6xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<2x6xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<2x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<2x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<2x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<2x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<2x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<2x6xi1>
    %bad = stablehlo.not %ok : tensor<2x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x6xi1>) -> tensor<2x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x030000000100000002000000030000000000000002000000050000000500000001000000000000000900000001000000"> : tensor<2x6xi32>
    %in1 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E04000000041000010410000204100003041"> : tensor<2x6xf32>
    %res:2 = call @compute(%in0, %in1) : (tensor<2x6xi32>, tensor<2x6xf32>) -> (tensor<2x6xi32>, tensor<2x6xf32>)
    %want0 = stablehlo.constant dense<"0x030000000300000002000000020000000100000000000000090000000500000005000000010000000100000000000000"> : tensor<2x6xi32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<2x6xi32>, tensor<2x6xi32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x0000000000004040000000400000A0400000803F00008040000020410000C0400000E040000000410000304100001041"> : tensor<2x6xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    return
  }
}
