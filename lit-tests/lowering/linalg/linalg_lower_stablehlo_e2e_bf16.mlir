// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: bf16 arithmetic (computed in f32, rounded to bf16 after every op) and convert.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// bf16
module {
  func.func public @compute(%arg0: tensor<8xbf16>, %arg1: tensor<8xbf16>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xf32>) {
    %v1 = "stablehlo.add"(%arg0, %arg1) : (tensor<8xbf16>, tensor<8xbf16>) -> (tensor<8xbf16>)
    %v2 = "stablehlo.multiply"(%v1, %arg1) : (tensor<8xbf16>, tensor<8xbf16>) -> (tensor<8xbf16>)
    %v3 = "stablehlo.exponential"(%arg0) : (tensor<8xbf16>) -> (tensor<8xbf16>)
    %v4 = "stablehlo.convert"(%v2) : (tensor<8xbf16>) -> (tensor<8xf32>)
    return %v2, %v3, %v4 : tensor<8xbf16>, tensor<8xbf16>, tensor<8xf32>
  }
  func.func private @check0(%got: tensor<8xbf16>, %want: tensor<8xbf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<8xbf16>) -> tensor<8xf32>
    %w = "stablehlo.convert"(%want) : (tensor<8xbf16>) -> tensor<8xf32>
    %d = stablehlo.subtract %g, %w : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %w : tensor<8xf32>
    %rt = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %at = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf32>
    %tol = stablehlo.add %rel, %at : tensor<8xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %bn = stablehlo.and %gn, %wn : tensor<8xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<8xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<8xi1>
    %bad = stablehlo.not %ok : tensor<8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8xi1>) -> tensor<8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<8xbf16>, %want: tensor<8xbf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<8xbf16>) -> tensor<8xf32>
    %w = "stablehlo.convert"(%want) : (tensor<8xbf16>) -> tensor<8xf32>
    %d = stablehlo.subtract %g, %w : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %w : tensor<8xf32>
    %rt = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %at = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf32>
    %tol = stablehlo.add %rel, %at : tensor<8xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %bn = stablehlo.and %gn, %wn : tensor<8xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<8xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<8xi1>
    %bad = stablehlo.not %ok : tensor<8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8xi1>) -> tensor<8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<8xf32>, %want: tensor<8xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %want : tensor<8xf32>
    %rt = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %at = stablehlo.constant dense<1.000000e-02> : tensor<8xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf32>
    %tol = stablehlo.add %rel, %at : tensor<8xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %bn = stablehlo.and %gn, %wn : tensor<8xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<8xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<8xi1>
    %bad = stablehlo.not %ok : tensor<8xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8xi1>) -> tensor<8xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x00C0B7BF5BBF92BE923E5B3FB73F0040"> : tensor<8xbf16>
    %in1 = stablehlo.constant dense<"0x003F5B3F9B3FC93FF73F124029404040"> : tensor<8xbf16>
    %res:3 = call @compute(%in0, %in1) : (tensor<8xbf16>, tensor<8xbf16>) -> (tensor<8xbf16>, tensor<8xbf16>, tensor<8xf32>)
    %want0 = stablehlo.constant dense<"0x40BFFCBEDC3E01408940E5402C417041"> : tensor<8xbf16>
    %bad0 = call @check0(%res#0, %want0) : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x0B3E753EDA3E403FAA3F17408640EC40"> : tensor<8xbf16>
    %bad1 = call @check1(%res#1, %want1) : (tensor<8xbf16>, tensor<8xbf16>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x000040BF0000FCBE0000DC3E00000140000089400000E54000002C4100007041"> : tensor<8xf32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    return
  }
}
