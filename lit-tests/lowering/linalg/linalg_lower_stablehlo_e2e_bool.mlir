// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: i1 (bool): add is or, multiply is and, max/min are or/and, logic ops, compare (false < true),
// select, conversions to and from numbers, any/all reductions.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// booleans
module {
  func.func public @compute(%arg0: tensor<8xi1>, %arg1: tensor<8xi1>, %arg2: tensor<3x4xi1>, %arg3: tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xui8>, tensor<8xi32>, tensor<8xf16>, tensor<8xi1>, tensor<3xi1>, tensor<4xi1>) {
    %v1 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %v2 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %v3 = "stablehlo.not"(%arg0) : (tensor<8xi1>) -> (tensor<8xi1>)
    %v4 = "stablehlo.add"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v5 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v6 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v7 = "stablehlo.minimum"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v8 = "stablehlo.and"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v9 = "stablehlo.or"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v10 = "stablehlo.xor"(%arg0, %arg1) : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v11 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v12 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v13 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v14 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v15 = "stablehlo.select"(%arg0, %arg1, %v3) : (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) -> (tensor<8xi1>)
    %v16 = "stablehlo.convert"(%arg0) : (tensor<8xi1>) -> (tensor<8xf32>)
    %v17 = "stablehlo.convert"(%arg0) : (tensor<8xi1>) -> (tensor<8xui8>)
    %v18 = "stablehlo.convert"(%arg0) : (tensor<8xi1>) -> (tensor<8xi32>)
    %v19 = "stablehlo.convert"(%arg0) : (tensor<8xi1>) -> (tensor<8xf16>)
    %v20 = "stablehlo.convert"(%arg3) : (tensor<8xi32>) -> (tensor<8xi1>)
    %v21 = "stablehlo.reduce"(%arg2, %v1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<i1>, %q: tensor<i1>):
      %s = "stablehlo.or"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%s) : (tensor<i1>) -> ()
    }) : (tensor<3x4xi1>, tensor<i1>) -> (tensor<3xi1>)
    %v22 = "stablehlo.reduce"(%arg2, %v2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%p: tensor<i1>, %q: tensor<i1>):
      %s = "stablehlo.and"(%p, %q) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%s) : (tensor<i1>) -> ()
    }) : (tensor<3x4xi1>, tensor<i1>) -> (tensor<4xi1>)
    return %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v3, %v11, %v12, %v13, %v14, %v15, %v16, %v17, %v18, %v19, %v20, %v21, %v22 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xui8>, tensor<8xi32>, tensor<8xf16>, tensor<8xi1>, tensor<3xi1>, tensor<4xi1>
  }
  func.func private @check0(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check1(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check2(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check3(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check4(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check5(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check6(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check7(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check8(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check9(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check10(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check11(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check12(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check13(%got: tensor<8xf32>, %want: tensor<8xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %want : tensor<8xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
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
  func.func private @check14(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xi1>
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
  func.func private @check15(%got: tensor<8xi32>, %want: tensor<8xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
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
  func.func private @check16(%got: tensor<8xf16>, %want: tensor<8xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<8xf16>) -> tensor<8xf32>
    %w = "stablehlo.convert"(%want) : (tensor<8xf16>) -> tensor<8xf32>
    %d = stablehlo.subtract %g, %w : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %w : tensor<8xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8xf32>
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
  func.func private @check17(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
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
  func.func private @check18(%got: tensor<3xi1>, %want: tensor<3xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
    %bad = stablehlo.not %ok : tensor<3xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<3xi1>) -> tensor<3xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check19(%got: tensor<4xi1>, %want: tensor<4xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
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
    %in0 = stablehlo.constant dense<[false, false, true, true, false, true, false, true]> : tensor<8xi1>
    %in1 = stablehlo.constant dense<[false, true, false, true, true, true, false, false]> : tensor<8xi1>
    %in2 = stablehlo.constant dense<[[true, true, true, true], [false, true, false, false], [false, false, false, false]]> : tensor<3x4xi1>
    %in3 = stablehlo.constant dense<"0x00000000FDFFFFFF07000000000000000100000000000000FFFFFF7F00000080"> : tensor<8xi32>
    %res:20 = call @compute(%in0, %in1, %in2, %in3) : (tensor<8xi1>, tensor<8xi1>, tensor<3x4xi1>, tensor<8xi32>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xf32>, tensor<8xui8>, tensor<8xi32>, tensor<8xf16>, tensor<8xi1>, tensor<3xi1>, tensor<4xi1>)
    %want0 = stablehlo.constant dense<[false, true, true, true, true, true, false, true]> : tensor<8xi1>
    %bad0 = call @check0(%res#0, %want0) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<[false, false, false, true, false, true, false, false]> : tensor<8xi1>
    %bad1 = call @check1(%res#1, %want1) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<[false, true, true, true, true, true, false, true]> : tensor<8xi1>
    %bad2 = call @check2(%res#2, %want2) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<[false, false, false, true, false, true, false, false]> : tensor<8xi1>
    %bad3 = call @check3(%res#3, %want3) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<[false, false, false, true, false, true, false, false]> : tensor<8xi1>
    %bad4 = call @check4(%res#4, %want4) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<[false, true, true, true, true, true, false, true]> : tensor<8xi1>
    %bad5 = call @check5(%res#5, %want5) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<[false, true, true, false, true, false, false, true]> : tensor<8xi1>
    %bad6 = call @check6(%res#6, %want6) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<[true, true, false, false, true, false, true, false]> : tensor<8xi1>
    %bad7 = call @check7(%res#7, %want7) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<[false, true, false, false, true, false, false, false]> : tensor<8xi1>
    %bad8 = call @check8(%res#8, %want8) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<[true, false, true, true, false, true, true, true]> : tensor<8xi1>
    %bad9 = call @check9(%res#9, %want9) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<[true, false, false, true, false, true, true, false]> : tensor<8xi1>
    %bad10 = call @check10(%res#10, %want10) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<[false, true, true, false, true, false, false, true]> : tensor<8xi1>
    %bad11 = call @check11(%res#11, %want11) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<[true, true, false, true, true, true, true, false]> : tensor<8xi1>
    %bad12 = call @check12(%res#12, %want12) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x00000000000000000000803F0000803F000000000000803F000000000000803F"> : tensor<8xf32>
    %bad13 = call @check13(%res#13, %want13) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<"0x0000010100010001"> : tensor<8xui8>
    %bad14 = call @check14(%res#14, %want14) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    %want15 = stablehlo.constant dense<"0x0000000000000000010000000100000000000000010000000000000001000000"> : tensor<8xi32>
    %bad15 = call @check15(%res#15, %want15) : (tensor<8xi32>, tensor<8xi32>) -> tensor<1xi32>
    %u15 = tensor.cast %bad15 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
    %want16 = stablehlo.constant dense<"0x00000000003C003C0000003C0000003C"> : tensor<8xf16>
    %bad16 = call @check16(%res#16, %want16) : (tensor<8xf16>, tensor<8xf16>) -> tensor<1xi32>
    %u16 = tensor.cast %bad16 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u16) : (tensor<*xi32>) -> ()
    %want17 = stablehlo.constant dense<[false, true, true, false, true, false, true, true]> : tensor<8xi1>
    %bad17 = call @check17(%res#17, %want17) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u17 = tensor.cast %bad17 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u17) : (tensor<*xi32>) -> ()
    %want18 = stablehlo.constant dense<[true, true, false]> : tensor<3xi1>
    %bad18 = call @check18(%res#18, %want18) : (tensor<3xi1>, tensor<3xi1>) -> tensor<1xi32>
    %u18 = tensor.cast %bad18 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u18) : (tensor<*xi32>) -> ()
    %want19 = stablehlo.constant dense<[false, false, false, false]> : tensor<4xi1>
    %bad19 = call @check19(%res#19, %want19) : (tensor<4xi1>, tensor<4xi1>) -> tensor<1xi32>
    %u19 = tensor.cast %bad19 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u19) : (tensor<*xi32>) -> ()
    return
  }
}
