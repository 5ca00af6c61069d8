// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: float corner cases (sign of NaN/±0, round half even/away, NaN-propagating max/min,
// float->int saturation and NaN->0, float->bool, is_finite, fmod remainder, TOTALORDER vs FLOAT compare, ...).

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
// float semantics
module {
  func.func public @compute(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
    %v1 = "stablehlo.sign"(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>)
    %v2 = "stablehlo.round_nearest_even"(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>)
    %v3 = "stablehlo.round_nearest_afz"(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>)
    %v4 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>)
    %v5 = "stablehlo.minimum"(%arg0, %arg1) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>)
    %v6 = "stablehlo.convert"(%arg0) : (tensor<16xf32>) -> (tensor<16xi32>)
    %v7 = "stablehlo.convert"(%arg0) : (tensor<16xf32>) -> (tensor<16xi1>)
    %v8 = "stablehlo.is_finite"(%arg0) : (tensor<16xf32>) -> (tensor<16xi1>)
    %v9 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>)
    %v10 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type TOTALORDER>}> : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xi1>)
    %v11 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xi1>)
    %v12 = "stablehlo.logistic"(%arg1) : (tensor<16xf32>) -> (tensor<16xf32>)
    %v13 = "stablehlo.tanh"(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>)
    %v14 = "stablehlo.atan2"(%arg0, %arg1) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>)
    %v15 = "stablehlo.cbrt"(%arg0) : (tensor<16xf32>) -> (tensor<16xf32>)
    return %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  func.func private @check0(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check3(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check4(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check5(%got: tensor<16xi32>, %want: tensor<16xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check6(%got: tensor<16xi1>, %want: tensor<16xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check7(%got: tensor<16xi1>, %want: tensor<16xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check8(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check9(%got: tensor<16xi1>, %want: tensor<16xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check10(%got: tensor<16xi1>, %want: tensor<16xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check11(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check12(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check13(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check14(%got: tensor<16xf32>, %want: tensor<16xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<16xf32>
    %ad = stablehlo.abs %d : tensor<16xf32>
    %aw = stablehlo.abs %want : tensor<16xf32>
    %rt = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %at = stablehlo.constant dense<1.000000e-06> : tensor<16xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<16xf32>
    %tol = stablehlo.add %rel, %at : tensor<16xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %bn = stablehlo.and %gn, %wn : tensor<16xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<16xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<16xi1>
    %bad = stablehlo.not %ok : tensor<16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<16xi1>) -> tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x0000C07F000000800000000000002040000020C00000003F0000C03F0000C0BF0000807F000080FF5ED0324F5ED032CF6F12833A0000E8C00000C8429A99993E"> : tensor<16xf32>
    %in1 = stablehlo.constant dense<"0x0000803F0000C07F000080BF0000004000004040000000BF000000000000C03F000000400000803F0000803F00000040000040C00000003F0000C03F00000040"> : tensor<16xf32>
    %res:15 = call @compute(%in0, %in1) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
    %want0 = stablehlo.constant dense<"0x0000C07F00000080000000000000803F000080BF0000803F0000803F000080BF0000803F000080BF0000803F000080BF0000803F000080BF0000803F0000803F"> : tensor<16xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x0000C07F000000800000000000000040000000C00000000000000040000000C00000807F000080FF5ED0324F5ED032CF000000000000E0C00000C84200000000"> : tensor<16xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x0000C07F000000000000000000004040000040C00000803F00000040000000C00000807F000080FF5ED0324F5ED032CF000000000000E0C00000C84200000000"> : tensor<16xf32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x0000C07F0000C07F0000000000002040000040400000003F0000C03F0000C03F0000807F0000803F5ED0324F000000406F12833A0000003F0000C84200000040"> : tensor<16xf32>
    %bad3 = call @check3(%res#3, %want3) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x0000C07F0000C07F000080BF00000040000020C0000000BF000000000000C0BF00000040000080FF0000803F5ED032CF000040C00000E8C00000C03F9A99993E"> : tensor<16xf32>
    %bad4 = call @check4(%res#4, %want4) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x00000000000000000000000002000000FEFFFFFF0000000001000000FFFFFFFFFFFFFF7F00000080FFFFFF7F0000008000000000F9FFFFFF6400000000000000"> : tensor<16xi32>
    %bad5 = call @check5(%res#5, %want5) : (tensor<16xi32>, tensor<16xi32>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<[true, false, false, true, true, true, true, true, true, true, true, true, true, true, true, true]> : tensor<16xi1>
    %bad6 = call @check6(%res#6, %want6) : (tensor<16xi1>, tensor<16xi1>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<[false, true, true, true, true, true, true, true, false, false, true, true, true, true, true, true]> : tensor<16xi1>
    %bad7 = call @check7(%res#7, %want7) : (tensor<16xi1>, tensor<16xi1>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<"0x0000C07F0000C07F000000000000003F000020C0000000000000C0FF000000800000C0FF0000C0FF00000000000000806F12833A000080BE0000803F9A99993E"> : tensor<16xf32>
    %bad8 = call @check8(%res#8, %want8) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<[false, true, false, false, true, false, false, true, false, true, false, true, false, true, false, true]> : tensor<16xi1>
    %bad9 = call @check9(%res#9, %want9) : (tensor<16xi1>, tensor<16xi1>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<[true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]> : tensor<16xi1>
    %bad10 = call @check10(%res#10, %want10) : (tensor<16xi1>, tensor<16xi1>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0xA8263B3F0000C07FB0B2893EEA7B613FE6DB733F034DC13E0000003F904C513FEA7B613FA8263B3FA8263B3FEA7B613FA241423D7F591F3F904C513FEA7B613F"> : tensor<16xf32>
    %bad11 = call @check11(%res#11, %want11) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<"0x0000C07F0000008000000000C1927C3FC1927CBFA09AEC3ECBB7673FCBB767BF0000803F000080BF0000803F000080BF6C12833AEFFF7FBF0000803FEE26953E"> : tensor<16xf32>
    %bad12 = call @check12(%res#12, %want12) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x0000C07F0000C07FDB0F4940E363653F5EDA31BFE4CB1640DB0FC93FDB0F49BFDB0FC93FDB0FC9BFDB0FC93FDB0FC9BF650A4940913FC0BF5F24C73F9C76183E"> : tensor<16xf32>
    %bad13 = call @check13(%res#13, %want13) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<"0x0000C07F000000800000000005B9AD3F05B9ADBFF52F4B3FFF85923FFF8592BF0000807F000080FFFC47B444FC47B4C4CDCCCC3D71BCF7BFE5879440F55F2B3F"> : tensor<16xf32>
    %bad14 = call @check14(%res#14, %want14) : (tensor<16xf32>, tensor<16xf32>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    return
  }
}
