// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: case with index 7 (out of range → last branch) and if on index > 0.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// case/if
module {
  func.func public @compute(%arg0: tensor<i32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %v1 = "stablehlo.case"(%arg0) ({
      %k = "stablehlo.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
      %r = "stablehlo.multiply"(%arg1, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%r) : (tensor<4xf32>) -> ()
    }, {
      %k = "stablehlo.constant"() <{value = dense<2.0> : tensor<4xf32>}> : () -> tensor<4xf32>
      %r = "stablehlo.multiply"(%arg1, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%r) : (tensor<4xf32>) -> ()
    }, {
      %k = "stablehlo.constant"() <{value = dense<3.0> : tensor<4xf32>}> : () -> tensor<4xf32>
      %r = "stablehlo.multiply"(%arg1, %k) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%r) : (tensor<4xf32>) -> ()
    }) : (tensor<i32>) -> (tensor<4xf32>)
    %v2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %v3 = "stablehlo.compare"(%arg0, %v2) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<i32>, tensor<i32>) -> (tensor<i1>)
    %v4 = "stablehlo.if"(%v3) ({
      "stablehlo.return"(%v1) : (tensor<4xf32>) -> ()
    }, {
      %n = "stablehlo.negate"(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
      "stablehlo.return"(%n) : (tensor<4xf32>) -> ()
    }) : (tensor<i1>) -> (tensor<4xf32>)
    return %v1, %v4 : tensor<4xf32>, tensor<4xf32>
  }
  func.func private @check0(%got: tensor<4xf32>, %want: tensor<4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4xf32>
    %ad = stablehlo.abs %d : tensor<4xf32>
    %aw = stablehlo.abs %want : tensor<4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4xf32>
    %tol = stablehlo.add %rel, %at : tensor<4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4xi1>
    %bad = stablehlo.not %ok : tensor<4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4xi1>) -> tensor<4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<4xf32>, %want: tensor<4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4xf32>
    %ad = stablehlo.abs %d : tensor<4xf32>
    %aw = stablehlo.abs %want : tensor<4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4xf32>
    %tol = stablehlo.add %rel, %at : tensor<4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4xi1>
    %bad = stablehlo.not %ok : tensor<4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4xi1>) -> tensor<4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x07000000"> : tensor<i32>
    %in1 = stablehlo.constant dense<"0x0000803F000000C0000040400000003F"> : tensor<4xf32>
    %res:2 = call @compute(%in0, %in1) : (tensor<i32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %want0 = stablehlo.constant dense<"0x000040400000C0C0000010410000C03F"> : tensor<4xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x000040400000C0C0000010410000C03F"> : tensor<4xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    return
  }
}
