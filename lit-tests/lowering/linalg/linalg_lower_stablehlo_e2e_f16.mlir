// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: f16 arithmetic (computed in f32, rounded to f16 after every op) with inf/NaN/subnormals,
// conversions (to f32/f64, saturating to i32/ui8, f32 and f64 → f16 rounded once to nearest even),
// bitcast to ui16, a sum rounded at every step, dot_general accumulating in f32 (f16 and f32 results).

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
// f16
module {
  func.func public @compute(%arg0: tensor<12xf16>, %arg1: tensor<12xf16>, %arg2: tensor<8xf32>, %arg3: tensor<6xf64>, %arg4: tensor<4x6xf16>, %arg5: tensor<6x3xf16>) -> (tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xi1>, tensor<12xf32>, tensor<12xf64>, tensor<12xi32>, tensor<12xui8>, tensor<8xf16>, tensor<6xf16>, tensor<12xui16>, tensor<4xf16>, tensor<4x3xf16>, tensor<4x3xf32>) {
    %v1 = "stablehlo.constant"() <{value = dense<0.0> : tensor<f16>}> : () -> tensor<f16>
    %v2 = "stablehlo.add"(%arg0, %arg1) : (tensor<12xf16>, tensor<12xf16>) -> (tensor<12xf16>)
    %v3 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<12xf16>, tensor<12xf16>) -> (tensor<12xf16>)
    %v4 = "stablehlo.divide"(%arg0, %arg1) : (tensor<12xf16>, tensor<12xf16>) -> (tensor<12xf16>)
    %v5 = "stablehlo.exponential"(%arg1) : (tensor<12xf16>) -> (tensor<12xf16>)
    %v6 = "stablehlo.tanh"(%arg0) : (tensor<12xf16>) -> (tensor<12xf16>)
    %v7 = "stablehlo.sqrt"(%arg1) : (tensor<12xf16>) -> (tensor<12xf16>)
    %v8 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<12xf16>, tensor<12xf16>) -> (tensor<12xf16>)
    %v9 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<12xf16>, tensor<12xf16>) -> (tensor<12xi1>)
    %v10 = "stablehlo.convert"(%arg0) : (tensor<12xf16>) -> (tensor<12xf32>)
    %v11 = "stablehlo.convert"(%arg0) : (tensor<12xf16>) -> (tensor<12xf64>)
    %v12 = "stablehlo.convert"(%arg0) : (tensor<12xf16>) -> (tensor<12xi32>)
    %v13 = "stablehlo.convert"(%arg0) : (tensor<12xf16>) -> (tensor<12xui8>)
    %v14 = "stablehlo.convert"(%arg2) : (tensor<8xf32>) -> (tensor<8xf16>)
    %v15 = "stablehlo.convert"(%arg3) : (tensor<6xf64>) -> (tensor<6xf16>)
    %v16 = "stablehlo.bitcast_convert"(%arg0) : (tensor<12xf16>) -> (tensor<12xui16>)
    %v17 = "stablehlo.reduce"(%arg4, %v1) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<f16>, %q: tensor<f16>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f16>, tensor<f16>) -> tensor<f16>
      "stablehlo.return"(%s) : (tensor<f16>) -> ()
    }) : (tensor<4x6xf16>, tensor<f16>) -> (tensor<4xf16>)
    %v18 = "stablehlo.dot_general"(%arg4, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x6xf16>, tensor<6x3xf16>) -> (tensor<4x3xf16>)
    %v19 = "stablehlo.dot_general"(%arg4, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x6xf16>, tensor<6x3xf16>) -> (tensor<4x3xf32>)
    return %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15, %v16, %v17, %v18, %v19 : tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xi1>, tensor<12xf32>, tensor<12xf64>, tensor<12xi32>, tensor<12xui8>, tensor<8xf16>, tensor<6xf16>, tensor<12xui16>, tensor<4xf16>, tensor<4x3xf16>, tensor<4x3xf32>
  }
  func.func private @check0(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check1(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check2(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check3(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check4(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check5(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check6(%got: tensor<12xf16>, %want: tensor<12xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<12xf16>) -> tensor<12xf32>
    %w = "stablehlo.convert"(%want) : (tensor<12xf16>) -> tensor<12xf32>
    %d = stablehlo.subtract %g, %w : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %w : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check7(%got: tensor<12xi1>, %want: tensor<12xi1>) -> tensor<1xi32> {
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
  func.func private @check8(%got: tensor<12xf32>, %want: tensor<12xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %want : tensor<12xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf32>
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
  func.func private @check9(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<12xf64>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<12xf64>
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
  func.func private @check10(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xi32>, tensor<12xi32>) -> tensor<12xi1>
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
  func.func private @check11(%got: tensor<12xui8>, %want: tensor<12xui8>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui8>, tensor<12xui8>) -> tensor<12xi1>
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
  func.func private @check12(%got: tensor<8xf16>, %want: tensor<8xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<8xf16>) -> tensor<8xf32>
    %w = "stablehlo.convert"(%want) : (tensor<8xf16>) -> tensor<8xf32>
    %d = stablehlo.subtract %g, %w : tensor<8xf32>
    %ad = stablehlo.abs %d : tensor<8xf32>
    %aw = stablehlo.abs %w : tensor<8xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<8xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<8xf32>
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
  func.func private @check13(%got: tensor<6xf16>, %want: tensor<6xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<6xf16>) -> tensor<6xf32>
    %w = "stablehlo.convert"(%want) : (tensor<6xf16>) -> tensor<6xf32>
    %d = stablehlo.subtract %g, %w : tensor<6xf32>
    %ad = stablehlo.abs %d : tensor<6xf32>
    %aw = stablehlo.abs %w : tensor<6xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<6xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<6xf32>
    %tol = stablehlo.add %rel, %at : tensor<6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
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
  func.func private @check14(%got: tensor<12xui16>, %want: tensor<12xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui16>, tensor<12xui16>) -> tensor<12xi1>
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
  func.func private @check15(%got: tensor<4xf16>, %want: tensor<4xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<4xf16>) -> tensor<4xf32>
    %w = "stablehlo.convert"(%want) : (tensor<4xf16>) -> tensor<4xf32>
    %d = stablehlo.subtract %g, %w : tensor<4xf32>
    %ad = stablehlo.abs %d : tensor<4xf32>
    %aw = stablehlo.abs %w : tensor<4xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<4xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4xf32>
    %tol = stablehlo.add %rel, %at : tensor<4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
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
  func.func private @check16(%got: tensor<4x3xf16>, %want: tensor<4x3xf16>) -> tensor<1xi32> {
    %g = "stablehlo.convert"(%got) : (tensor<4x3xf16>) -> tensor<4x3xf32>
    %w = "stablehlo.convert"(%want) : (tensor<4x3xf16>) -> tensor<4x3xf32>
    %d = stablehlo.subtract %g, %w : tensor<4x3xf32>
    %ad = stablehlo.abs %d : tensor<4x3xf32>
    %aw = stablehlo.abs %w : tensor<4x3xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<4x3xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<4x3xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x3xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x3xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %gn = "stablehlo.compare"(%g, %g) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %wn = "stablehlo.compare"(%w, %w) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %eq = "stablehlo.compare"(%g, %w) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
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
  func.func private @check17(%got: tensor<4x3xf32>, %want: tensor<4x3xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x3xf32>
    %ad = stablehlo.abs %d : tensor<4x3xf32>
    %aw = stablehlo.abs %want : tensor<4x3xf32>
    %rt = stablehlo.constant dense<1.000000e-03> : tensor<4x3xf32>
    %at = stablehlo.constant dense<1.000000e-04> : tensor<4x3xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x3xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x3xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xi1>
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
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x00000080003C00C1FF7B007C00FC007E0100662EB05C46F8"> : tensor<12xf16>
    %in1 = stablehlo.constant dense<"0x003E004000C200340040003C0047003C0042CD34003800BC"> : tensor<12xf16>
    %in2 = stablehlo.constant dense<"0x0000803F0010803F0018803F00EF7F4700F07F4777CC2B32000000B3DB0F4940"> : tensor<8xf32>
    %in3 = stablehlo.constant dense<"0x001000000002F03F000000000002F03F000000000006F03FE17A14AEFFFDEF4048AFBC9AF2D77A3E9A9999999999B9BF"> : tensor<6xf64>
    %in4 = stablehlo.constant dense<"0x15401DC1B1368BB83EB7E6B20AC06CB3ECBAA5423A33A4B580B458B938BC41B6B637A2B3A93B65B236262F3E5C380BB8"> : tensor<4x6xf16>
    %in5 = stablehlo.constant dense<"0x37B997B1A83E463991BE549DFDB8C2306FBEBD3388334D3E11351638F9BD8140AABF683C"> : tensor<6x3xf16>
    %res:18 = call @compute(%in0, %in1, %in2, %in3, %in4, %in5) : (tensor<12xf16>, tensor<12xf16>, tensor<8xf32>, tensor<6xf64>, tensor<4x6xf16>, tensor<6x3xf16>) -> (tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xf16>, tensor<12xi1>, tensor<12xf32>, tensor<12xf64>, tensor<12xi32>, tensor<12xui8>, tensor<8xf16>, tensor<6xf16>, tensor<12xui16>, tensor<4xf16>, tensor<4x3xf16>, tensor<4x3xf32>)
    %want0 = stablehlo.constant dense<"0x003E004000C080C0FF7B007C00FC007E00426636B25C46F8"> : tensor<12xf16>
    %bad0 = call @check0(%res#0, %want0) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x0000008000C200B9007C007C00FC007E0300AE27B0584678"> : tensor<12xf16>
    %bad1 = call @check1(%res#1, %want1) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x0000008055B500C9FF77007C00FC007E00005535B0604678"> : tensor<12xf16>
    %bad2 = call @check2(%res#2, %want2) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x7B4464475F2A233D6447704149647041054D663D983EE335"> : tensor<12xf16>
    %bad3 = call @check3(%res#3, %want3) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x00000080183AE5BB003C003C00BC007E0100612E003C00BC"> : tensor<12xf16>
    %bad4 = call @check4(%res#4, %want4) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0xE63CA83D00FE0038A83D003C4B41003CEE3E6238A83900FE"> : tensor<12xf16>
    %bad5 = call @check5(%res#5, %want5) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x003E0040003C0034FF7B007C0047007E0042CD34B05C00BC"> : tensor<12xf16>
    %bad6 = call @check6(%res#6, %want6) : (tensor<12xf16>, tensor<12xf16>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<[true, true, false, true, false, false, true, false, true, true, false, true]> : tensor<12xi1>
    %bad7 = call @check7(%res#7, %want7) : (tensor<12xi1>, tensor<12xi1>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<"0x00000000000000800000803F000020C000E07F470000807F000080FF0000C07F0000803300C0CC3D0000964300C008C7"> : tensor<12xf32>
    %bad8 = call @check8(%res#8, %want8) : (tensor<12xf32>, tensor<12xf32>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<"0x00000000000000000000000000000080000000000000F03F00000000000004C00000000000FCEF40000000000000F07F000000000000F0FF000000000000F87F000000000000703E000000000098B93F0000000000C07240000000000018E1C0"> : tensor<12xf64>
    %bad9 = call @check9(%res#9, %want9) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<"0x000000000000000001000000FEFFFFFFE0FF0000FFFFFF7F000000800000000000000000000000002C0100004077FFFF"> : tensor<12xi32>
    %bad10 = call @check10(%res#10, %want10) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0x00000100FFFF00000000FF00"> : tensor<12xui8>
    %bad11 = call @check11(%res#11, %want11) : (tensor<12xui8>, tensor<12xui8>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<"0x003C003C013CFF7B007C000000804842"> : tensor<8xf16>
    %bad12 = call @check12(%res#12, %want12) : (tensor<8xf16>, tensor<8xf16>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x013C003C023CFF7B020066AE"> : tensor<6xf16>
    %bad13 = call @check13(%res#13, %want13) : (tensor<6xf16>, tensor<6xf16>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<"0x00000080003C00C1FF7B007C00FC007E0100662EB05C46F8"> : tensor<12xui16>
    %bad14 = call @check14(%res#14, %want14) : (tensor<12xui16>, tensor<12xui16>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    %want15 = stablehlo.constant dense<"0x55BD042D4DC0BC40"> : tensor<4xf16>
    %bad15 = call @check15(%res#15, %want15) : (tensor<4xf16>, tensor<4xf16>) -> tensor<1xi32>
    %u15 = tensor.cast %bad15 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
    %want16 = stablehlo.constant dense<"0x0BC4E7439040233F5B40144105AD663EDCB573BD193F3E41"> : tensor<4x3xf16>
    %bad16 = call @check16(%res#16, %want16) : (tensor<4x3xf16>, tensor<4x3xf16>) -> tensor<1xi32>
    %u16 = tensor.cast %bad16 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u16) : (tensor<*xi32>) -> ()
    %want17 = stablehlo.constant dense<"0x285D81C0C7DA7C406DFA11402C5CE43F955D0B40A18D22408493A0BDA6CDCC3F4883BBBE2C6DAEBF912DE33F26B02740"> : tensor<4x3xf32>
    %bad17 = call @check17(%res#17, %want17) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<1xi32>
    %u17 = tensor.cast %bad17 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u17) : (tensor<*xi32>) -> ()
    return
  }
}
