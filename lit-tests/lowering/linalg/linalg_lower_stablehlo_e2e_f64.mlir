// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: f64 kept in f64 (a sum of 1e8-sized values f32 could not hold, a dot, math functions),
// conversions (to f32, to bf16 rounded once, saturating to i64/ui64, ui64 → f64), bitcast to ui64.

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
// f64
module {
  func.func public @compute(%arg0: tensor<4x50xf64>, %arg1: tensor<12xf64>, %arg2: tensor<12xf64>, %arg3: tensor<6xui64>, %arg4: tensor<50x3xf64>) -> (tensor<4xf64>, tensor<4x3xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xi1>, tensor<12xf32>, tensor<12xbf16>, tensor<12xi64>, tensor<12xui64>, tensor<6xf64>, tensor<12xui64>) {
    %v1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f64>}> : () -> tensor<f64>
    %v2 = "stablehlo.reduce"(%arg0, %v1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<f64>, %q: tensor<f64>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%s) : (tensor<f64>) -> ()
    }) : (tensor<4x50xf64>, tensor<f64>) -> (tensor<4xf64>)
    %v3 = "stablehlo.dot_general"(%arg0, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x50xf64>, tensor<50x3xf64>) -> (tensor<4x3xf64>)
    %v4 = "stablehlo.add"(%arg1, %arg2) : (tensor<12xf64>, tensor<12xf64>) -> (tensor<12xf64>)
    %v5 = "stablehlo.multiply"(%arg1, %arg2) : (tensor<12xf64>, tensor<12xf64>) -> (tensor<12xf64>)
    %v6 = "stablehlo.divide"(%arg1, %arg2) : (tensor<12xf64>, tensor<12xf64>) -> (tensor<12xf64>)
    %v7 = "stablehlo.sqrt"(%arg2) : (tensor<12xf64>) -> (tensor<12xf64>)
    %v8 = "stablehlo.exponential"(%arg2) : (tensor<12xf64>) -> (tensor<12xf64>)
    %v9 = "stablehlo.log"(%arg2) : (tensor<12xf64>) -> (tensor<12xf64>)
    %v10 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<12xf64>, tensor<12xf64>) -> (tensor<12xf64>)
    %v11 = "stablehlo.compare"(%arg1, %arg2) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<12xf64>, tensor<12xf64>) -> (tensor<12xi1>)
    %v12 = "stablehlo.convert"(%arg1) : (tensor<12xf64>) -> (tensor<12xf32>)
    %v13 = "stablehlo.convert"(%arg1) : (tensor<12xf64>) -> (tensor<12xbf16>)
    %v14 = "stablehlo.convert"(%arg1) : (tensor<12xf64>) -> (tensor<12xi64>)
    %v15 = "stablehlo.convert"(%arg1) : (tensor<12xf64>) -> (tensor<12xui64>)
    %v16 = "stablehlo.convert"(%arg3) : (tensor<6xui64>) -> (tensor<6xf64>)
    %v17 = "stablehlo.bitcast_convert"(%arg1) : (tensor<12xf64>) -> (tensor<12xui64>)
    return %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15, %v16, %v17 : tensor<4xf64>, tensor<4x3xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xi1>, tensor<12xf32>, tensor<12xbf16>, tensor<12xi64>, tensor<12xui64>, tensor<6xf64>, tensor<12xui64>
  }
  func.func private @check0(%got: tensor<4xf64>, %want: tensor<4xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4xf64>
    %ad = stablehlo.abs %d : tensor<4xf64>
    %aw = stablehlo.abs %want : tensor<4xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<4xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<4xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<4xf64>
    %tol = stablehlo.add %rel, %at : tensor<4xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
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
  func.func private @check1(%got: tensor<4x3xf64>, %want: tensor<4x3xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x3xf64>
    %ad = stablehlo.abs %d : tensor<4x3xf64>
    %aw = stablehlo.abs %want : tensor<4x3xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<4x3xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<4x3xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x3xf64>
    %tol = stablehlo.add %rel, %at : tensor<4x3xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<4x3xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x3xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x3xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x3xi1>
    %bad = stablehlo.not %ok : tensor<4x3xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x3xi1>) -> tensor<4x3xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x3xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check3(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check4(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check5(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check6(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check7(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check8(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf64>
    %tol = stablehlo.add %rel, %at : tensor<12xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check9(%got: tensor<12xi1>, %want: tensor<12xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xi1>, tensor<12xi1>) -> tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check10(%got: tensor<12xf32>, %want: tensor<12xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %want : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf32>
    %tol = stablehlo.add %rel, %at : tensor<12xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check11(%got: tensor<12xbf16>, %want: tensor<12xbf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xbf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xbf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<12xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<12xf32>
    %tol = stablehlo.add %rel, %at : tensor<12xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %bn = stablehlo.and %gn, %wn : tensor<12xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<12xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check12(%got: tensor<12xi64>, %want: tensor<12xi64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xi64>, tensor<12xi64>) -> tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check13(%got: tensor<12xui64>, %want: tensor<12xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui64>, tensor<12xui64>) -> tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check14(%got: tensor<6xf64>, %want: tensor<6xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<6xf64>
    %ad = stablehlo.abs %d : tensor<6xf64>
    %aw = stablehlo.abs %want : tensor<6xf64>
    %rt = stablehlo.constant dense<1.000000e-13> : tensor<6xf64>
    %at = stablehlo.constant dense<1.000000e-300> : tensor<6xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<6xf64>
    %tol = stablehlo.add %rel, %at : tensor<6xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
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
  func.func private @check15(%got: tensor<12xui64>, %want: tensor<12xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui64>, tensor<12xui64>) -> tensor<12xi1>
    %bad = stablehlo.not %ok : tensor<12xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<12xi1>) -> tensor<12xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<12xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x7DD2CAFC83D797413CDBB3FA83D797417EAD01FF83D797413289AE0184D79741C84F8B0484D79741E056700084D79741D216CAFD83D797418A62DCFC83D7974136B7FE0284D7974191048A0684D79741B350170184D797414A1211FB83D7974187BC2AFC83D79741676B660684D797416AC0CF0084D797413E4B12F983D797418C4BAAFF83D797414ADB58FB83D79741E79B7BFD83D7974134480CFE83D797412E9125FD83D79741D9A8360284D797416466BFFF83D79741226CA4FD83D797411978A30184D7974197C5510384D79741488B6DF983D79741BD1BF9FE83D79741F7B613FC83D7974166B04EFF83D797419DA2D7FA83D79741DD2F150084D797417B34D9FF83D79741AF5BC8FE83D797415BECCEFB83D79741154D6AFE83D79741AD7AA2FB83D79741294494FA83D797413B2EE60084D79741920690FB83D797411A62AE0484D7974128C9DD0284D79741573C02F883D79741F3A8160184D7974199D797FB83D79741C0D9210084D79741DDAD2C0084D7974110D90BF883D79741B0F910FF83D797412E12FAFE83D79741AB16D90384D79741CF3246FB83D7974141C1F30284D79741E2A69AFB83D7974115C2ACFE83D79741005BA3FC83D797413780CB0584D79741A8D9450284D797411618BA0984D797418752910284D79741C645610384D79741F9DB5C0384D797416DD492FD83D79741764AB8FF83D7974157CC660584D7974199EE69FE83D79741AA54C10084D797416644EAFF83D7974173D66F0284D797415D558AFE83D797413FFB63FF83D79741D632F80084D79741E67E690084D7974196448AFC83D797412648950384D79741F15ACEFA83D79741C40E32FB83D7974179BADEFA83D79741FB2DDE0384D79741AEBC8EFE83D79741A4A81DFC83D79741CFB674FB83D79741003DAF0184D79741D9D7C7FB83D797415464E9FA83D7974199BA740284D79741409236FB83D79741C6D2B5FE83D797418113F9FF83D7974101FA37FE83D79741989BC8FF83D7974171E75A0584D797414DB3EEFD83D797412F78F6FA83D79741222CA7F883D79741CB512EFF83D79741F04997FE83D79741FE730F0184D79741119D24FE83D79741CCDF15FE83D79741685F1DFD83D7974118C4EBFD83D797417812A40084D79741D1847AFE83D797413BDA660084D79741D1D09A0784D79741F39DEA0184D797418115B2F983D797416122EF0684D797416728640184D7974128FE3BFC83D7974171D1A00384D797415014120084D7974127048AFD83D79741704977FD83D79741D1B906FC83D797411A46310084D79741E277460484D797418B25B3FE83D7974185ECAE0184D797415CA9800784D797415A4224FB83D79741EFB3070184D797416635C6FE83D797415E52C3FB83D797415088E5FB83D797411759F0FF83D79741B146BC0184D79741EBA6DFFD83D7974128B2370084D79741AA8AE30284D79741C0AD2F0184D79741AE84790384D797411778D80184D79741C3B7F30184D7974129794E0784D79741C5207E0284D797411594840084D7974182FBD60284D797413ED152FC83D79741B730A6FE83D7974116422C0384D79741F3EC850284D79741BA85310684D7974171B90A0084D797418B9326FA83D7974119FBC90784D797414B1F5F0484D7974156DAC3FB83D79741ECD7800584D79741332E210084D797417589BEF883D79741BE8E51FE83D79741EAE1F6FD83D797414D075D0684D79741F2EBD4FC83D79741BC4BFCFE83D79741D198E4FE83D7974190EE7BFE83D79741F8FC57FC83D797415258E00084D79741E1A54E0484D79741FFF37E0284D79741AC3D4AFC83D79741B39666FB83D7974134D4790084D7974140762CFD83D79741DBB57AFD83D7974125FE47F983D79741AC4DCD0784D79741369EAA0384D7974109B81AFC83D79741DF01A20384D79741F1B45E0584D79741ED1871F683D797416BE1CDFD83D7974126B772FE83D7974105D0970284D79741919E83FF83D79741CF0914FF83D797414A3AC4FF83D7974137CE690784D79741ECD1A30884D79741E693E6FD83D79741B2864BFC83D79741A72CC50A84D79741D3BD14FC83D797411AD6B4FD83D79741A075250084D797411AD8EE0184D797417FBB1D0484D79741555C900184D7974103AE82FC83D797411789060284D7974165EAFF0084D797410DF7810784D79741E5A3F0FF83D7974193F0A6FA83D797414DE6D1FB83D79741ECF4CC0584D79741"> : tensor<4x50xf64>
    %in1 = stablehlo.constant dense<"0x9A9999999999B93F00000000000004C09C7500883CE4377E59F3F8C21F6EA581000000000000F87F000000000000F07F000000000000E043020000000000E0C380DBD9905605EA4300000000000000800000000000000840A0C2EBFE4B48B439"> : tensor<12xf64>
    %in2 = stablehlo.constant dense<"0x333333333333D33F0000000000001040000000205FA002420000000000000040000000000000F03F000000000000F0BF000000000000F03F000000000000004000000000000008400000000000001440000000000000F87F000000000000F03F"> : tensor<12xf64>
    %in3 = stablehlo.constant dense<"0x000000000000000001000000000000000100000000002000FFFFFFFFFFFFFFFFD20A1FEB8CA954AB0000000000000080"> : tensor<6xui64>
    %in4 = stablehlo.constant dense<"0x346CBE3DC148E1BF82E38646F2D500C032F87B8C1795E2BF5D1DB202A9AAEF3EBBCA4C517305F33F1B621DF1423BF0BFB23631457855E53F5878EA181773E93FE68EEE966361E6BFE0A3B480F002C8BF26A8130DAB4FFC3FAE298E031B87FB3FB8FB01AF6F60EB3F6B7388F19B3ED53F4D252C268436F23F0CFB809AB601C2BF4B5240E70458B8BF80A8C1FC1188EBBFB51B51B3A1C9763FFA34BBA10AFFB4BFD502B4CC65300640CB5C24B915AFC8BF346BA43E4555F43FD29FFFBFC120F53FFE0B10BB88DEC7BF98698FD4D9B5F23F2E3250461D6A01C0003E74E2254DB83FE5965A75AF6EEB3FE5EEF2FCD32E03C0290D2F19F78BF2BFDD990C73ADE5F03F3093E04BDD72D0BFF38827CB3892F1BF41558ECEFDE8D7BF7F7FEA26E25CE1BFD964CE21AC2EE73FD94D195C770CDD3F8D813CD842EFD1BFEB0C6DBE7C4AE5BF3BF4F34C9795ABBFC6C5A0B3D633F53FF243BE9E7156D63FFED093073E72E43F4E550FDA8849C3BF8E4C288447ABF4BF4E6E3DF13ABFE6BF129F0F11EED6E43FBAFC01D95E6CBA3F4BD3AD9641ECECBFCC137219CCE2F9BF14BD4426A655BC3F50899544E0BAD5BF9FE34C4C166FD6BF0EB13D46B515D5BF27EF645A802BD23FD67243453BD8D23F17D337D0C1C9EE3F35AF9C2CA1B5ED3FB6277FD54050F53F159CB2E5B9CDE93F2EB5DA1D9A7AD5BF05F59BAA23C9ABBFF0645F5938A1DF3FD0E4F61BD4DBD3BFA2990EA30095E13F46C900362F75F23F425A1BACCEA3E9BF72EEFB397E53FCBF23F83AF03519F33F456E4668A72F923FCF9A3D566CADE63F8CF7556B1F51F5BFB770376856BAFB3F6926AE2DC6A2E73F9E0270D23223C0BFDA10D0D6F886D6BF3253B4C94728BD3F222479DB7357C5BF7ABF8E1D0FD6D1BF82C1F7A9E1E9F1BF9BEF93AB7734F43FB05CC1B98643A4BF6B57B435521BB33FE184509C57C9B73F1B55110DA1DD02C0B64F60C357DEE03FA09896D7DF10D5BF5AC51F1BB882D2BF91C15D369EDDB13F4C632129851EEFBF03149FC0F9FCEA3FEE3836E38544E6BF0D48F84BC4EAECBF757565A50E97EBBF6190E3200252C43FA4468DEA6CDDE73F0B9B4115AD0AE3BFE793FE80B929F8BFB262B63DF6FFF03F5E7A8318950AF1BF6AA8D172061EF33F9944D94FABCCABBFE4F37FE0E158E6BF2E7C350F357BE4BFF9D5C823378FDD3FCCDFAFD6BB75EC3F5249405BA45DC9BFB6CF7755494DEE3FCC1E6BA121B200406B14300DD9A9CABF415149292264F2BFC6445DE6D2DEF0BF9C3D0349D03EF6BF737505AE2378E4BF42AD04133329E7BF49B15B8C9F33F5BFDD275BF844F7E03F2B0849B405E404C08F32401AFE21F5BF111EC6563C1F0040275B1FB8D69AF03F1F8FD29FB5BAE03FF9D30080BB43DD3F282E8737C255FC3F28A653C3E023E13F5D508F8C17DCB33FCE96B66BBCAEF3BF12683A1BD4DBB2BF6F3C7A4BFA7BE7BF2D79DEE3FC98E6BFBA65869B0BDBE6BF133E722FF4DBA6BFFD7DFB68FB19D5BF6E49752623E0EB3F102B19080A38F5BF4D22540C33B1C5BF86E1627280C0FD3F50CD4E0E5AEAA33F65C18927872DF33F1D1248C79730F23FA92D0B4EFD10F53FF12BB517AC9EE73F91FCE1934E16F6BF154AED52E11CD1BF2D4D0D0E6B57D8BF1992E57F1CC8F8BF53690A8A3CB0DDBFAE9E94B65300F4BF1557E74519A6FABF"> : tensor<50x3xf64>
    %res:16 = call @compute(%in0, %in1, %in2, %in3, %in4) : (tensor<4x50xf64>, tensor<12xf64>, tensor<12xf64>, tensor<6xui64>, tensor<50x3xf64>) -> (tensor<4xf64>, tensor<4x3xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xi1>, tensor<12xf32>, tensor<12xbf16>, tensor<12xi64>, tensor<12xui64>, tensor<6xf64>, tensor<12xui64>)
    %want0 = stablehlo.constant dense<"0x7C56FC1E5FA0F24124409D1F5FA0F241BB1A8B205FA0F24163870B205FA0F241"> : tensor<4xf64>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4xf64>, tensor<4xf64>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0xA882C8BBCF8CAA41B98C2B592DCD50C111E10C01BBA4C4C1F19F6EB4CF8CAA4192AA9FCE2ECD50C1FFEDFC05BBA4C4C1BF26D6C8CF8CAA414B6D9DA12FCD50C143A2E20CBBA4C4C14962C6C8CF8CAA41FEA752E932CD50C1A76B5A01BBA4C4C1"> : tensor<4x3xf64>
    %bad1 = call @check1(%res#1, %want1) : (tensor<4x3xf64>, tensor<4x3xf64>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x9A9999999999D93F000000000000F83F9C7500883CE4377E0000000000000040000000000000F87F000000000000F07F000000000000E043020000000000E0C380DBD9905605EA430000000000001440000000000000F87F000000000000F03F"> : tensor<12xf64>
    %bad2 = call @check2(%res#2, %want2) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0xB81E85EB51B89E3F00000000000024C0000000000000F07F59F3F8C21F6EB581000000000000F87F000000000000F0FF000000000000E043020000000000F0C3A064A3EC008403440000000000000080000000000000F87FA0C2EBFE4B48B439"> : tensor<12xf64>
    %bad3 = call @check3(%res#3, %want3) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x565555555555D53F000000000000E4BF5F067A9ECE85247C59F3F8C21F6E9581000000000000F87F000000000000F0FF000000000000E043020000000000D0C3003D9160E458D1430000000000000080000000000000F87FA0C2EBFE4B48B439"> : tensor<12xf64>
    %bad4 = call @check4(%res#4, %want4) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x7284F874F186E13F000000000000004000000000006AF840CD3B7F669EA0F63F000000000000F03F000000000000F8FF000000000000F03FCD3B7F669EA0F63FAA4C58E87AB6FB3FA8F4979B77E30140000000000000F87F000000000000F03F"> : tensor<12xf64>
    %bad5 = call @check5(%res#5, %want5) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x961A8C8C0599F53F583A272E904C4B40000000000000F07FAEDDD4B8648E1D406957148B0ABF054038EF2C36568BD73F6957148B0ABF0540AEDDD4B8648E1D4006B16FBFE51534408F337099388D6240000000000000F87F6957148B0ABF0540"> : tensor<12xf64>
    %bad6 = call @check6(%res#6, %want6) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<"0x21A7BDFC7843F3BFEF39FAFE422EF63F5BAAA22A9E063740EF39FAFE422EE63F0000000000000000000000000000F8FF0000000000000000EF39FAFE422EE63F0B03AD7AEA93F13F338DEDF741C0F93F000000000000F87F0000000000000000"> : tensor<12xf64>
    %bad7 = call @check7(%res#7, %want7) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<"0x333333333333D33F00000000000010409C7500883CE4377E0000000000000040000000000000F87F000000000000F07F000000000000E043000000000000004080DBD9905605EA430000000000001440000000000000F87F000000000000F03F"> : tensor<12xf64>
    %bad8 = call @check8(%res#8, %want8) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<[false, false, true, false, false, true, true, false, true, false, false, false]> : tensor<12xi1>
    %bad9 = call @check9(%res#9, %want9) : (tensor<12xi1>, tensor<12xi1>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<"0xCDCCCC3D000020C00000807F000000800000C07F0000807F0000005F000000DFB52A505F00000080000040406042A20D"> : tensor<12xf32>
    %bad10 = call @check10(%res#10, %want10) : (tensor<12xf32>, tensor<12xf32>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0xCD3D20C0807F0080C07F807F005F00DF505F00804040A20D"> : tensor<12xbf16>
    %bad11 = call @check11(%res#11, %want11) : (tensor<12xbf16>, tensor<12xbf16>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<"0x0000000000000000FEFFFFFFFFFFFFFFFFFFFFFFFFFFFF7F00000000000000000000000000000000FFFFFFFFFFFFFF7FFFFFFFFFFFFFFF7F0000000000000080FFFFFFFFFFFFFF7F000000000000000003000000000000000000000000000000"> : tensor<12xi64>
    %bad12 = call @check12(%res#12, %want12) : (tensor<12xi64>, tensor<12xi64>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x00000000000000000000000000000000FFFFFFFFFFFFFFFF00000000000000000000000000000000FFFFFFFFFFFFFFFF000000000000008000000000000000000000DCCE86B42AD0000000000000000003000000000000000000000000000000"> : tensor<12xui64>
    %bad13 = call @check13(%res#13, %want13) : (tensor<12xui64>, tensor<12xui64>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<"0x0000000000000000000000000000F03F0000000000004043000000000000F043E1639D31956AE543000000000000E043"> : tensor<6xf64>
    %bad14 = call @check14(%res#14, %want14) : (tensor<6xf64>, tensor<6xf64>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    %want15 = stablehlo.constant dense<"0x9A9999999999B93F00000000000004C09C7500883CE4377E59F3F8C21F6EA581000000000000F87F000000000000F07F000000000000E043020000000000E0C380DBD9905605EA4300000000000000800000000000000840A0C2EBFE4B48B439"> : tensor<12xui64>
    %bad15 = call @check15(%res#15, %want15) : (tensor<12xui64>, tensor<12xui64>) -> tensor<1xi32>
    %u15 = tensor.cast %bad15 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
    return
  }
}
