// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: ui8/ui16/ui64 arithmetic (wrap, divide/remainder incl. by 0, unsigned compare/max, logical
// shift by >= width), conversions to f32/f64/i64 (values above the signed range), a ui8 dot accumulating
// in ui32 (zero extension), a wrapping ui8 sum, an unsigned ui64 max, ui16 iota.

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
// ui8/ui16/ui64
module {
  func.func public @compute(%arg0: tensor<8xui8>, %arg1: tensor<8xui8>, %arg2: tensor<8xui16>, %arg3: tensor<8xui16>, %arg4: tensor<8xui64>, %arg5: tensor<8xui64>, %arg6: tensor<3x5xui8>, %arg7: tensor<5x2xui8>) -> (tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xi1>, tensor<8xui8>, tensor<8xui8>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xi1>, tensor<8xui16>, tensor<8xui16>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xi1>, tensor<8xui64>, tensor<8xui64>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<3x2xui32>, tensor<3x2xui32>, tensor<3xui8>, tensor<2xui64>, tensor<4x3xui16>) {
    %v1 = "stablehlo.add"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v2 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v3 = "stablehlo.divide"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v4 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v5 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xi1>)
    %v6 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v7 = "stablehlo.shift_right_logical"(%arg0, %arg1) : (tensor<8xui8>, tensor<8xui8>) -> (tensor<8xui8>)
    %v8 = "stablehlo.convert"(%arg0) : (tensor<8xui8>) -> (tensor<8xf32>)
    %v9 = "stablehlo.convert"(%arg0) : (tensor<8xui8>) -> (tensor<8xf64>)
    %v10 = "stablehlo.convert"(%arg0) : (tensor<8xui8>) -> (tensor<8xi64>)
    %v11 = "stablehlo.add"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v12 = "stablehlo.multiply"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v13 = "stablehlo.divide"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v14 = "stablehlo.remainder"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v15 = "stablehlo.compare"(%arg2, %arg3) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xi1>)
    %v16 = "stablehlo.maximum"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v17 = "stablehlo.shift_right_logical"(%arg2, %arg3) : (tensor<8xui16>, tensor<8xui16>) -> (tensor<8xui16>)
    %v18 = "stablehlo.convert"(%arg2) : (tensor<8xui16>) -> (tensor<8xf32>)
    %v19 = "stablehlo.convert"(%arg2) : (tensor<8xui16>) -> (tensor<8xf64>)
    %v20 = "stablehlo.convert"(%arg2) : (tensor<8xui16>) -> (tensor<8xi64>)
    %v21 = "stablehlo.add"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v22 = "stablehlo.multiply"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v23 = "stablehlo.divide"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v24 = "stablehlo.remainder"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v25 = "stablehlo.compare"(%arg4, %arg5) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xi1>)
    %v26 = "stablehlo.maximum"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v27 = "stablehlo.shift_right_logical"(%arg4, %arg5) : (tensor<8xui64>, tensor<8xui64>) -> (tensor<8xui64>)
    %v28 = "stablehlo.convert"(%arg4) : (tensor<8xui64>) -> (tensor<8xf32>)
    %v29 = "stablehlo.convert"(%arg4) : (tensor<8xui64>) -> (tensor<8xf64>)
    %v30 = "stablehlo.convert"(%arg4) : (tensor<8xui64>) -> (tensor<8xi64>)
    %v31 = "stablehlo.constant"() <{value = dense<0> : tensor<ui8>}> : () -> tensor<ui8>
    %v32 = "stablehlo.constant"() <{value = dense<0> : tensor<ui64>}> : () -> tensor<ui64>
    %v33 = "stablehlo.convert"(%arg6) : (tensor<3x5xui8>) -> (tensor<3x5xui32>)
    %v34 = "stablehlo.convert"(%arg7) : (tensor<5x2xui8>) -> (tensor<5x2xui32>)
    %v35 = "stablehlo.dot_general"(%arg6, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x5xui8>, tensor<5x2xui8>) -> (tensor<3x2xui32>)
    %v36 = "stablehlo.dot_general"(%v33, %v34) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x5xui32>, tensor<5x2xui32>) -> (tensor<3x2xui32>)
    %v37 = "stablehlo.reduce"(%arg6, %v31) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<ui8>, %q: tensor<ui8>):
      %s = "stablehlo.add"(%p, %q) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
      "stablehlo.return"(%s) : (tensor<ui8>) -> ()
    }) : (tensor<3x5xui8>, tensor<ui8>) -> (tensor<3xui8>)
    %v38 = "stablehlo.reshape"(%arg4) : (tensor<8xui64>) -> (tensor<2x4xui64>)
    %v39 = "stablehlo.reduce"(%v38, %v32) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<ui64>, %q: tensor<ui64>):
      %s = "stablehlo.maximum"(%p, %q) : (tensor<ui64>, tensor<ui64>) -> tensor<ui64>
      "stablehlo.return"(%s) : (tensor<ui64>) -> ()
    }) : (tensor<2x4xui64>, tensor<ui64>) -> (tensor<2xui64>)
    %v40 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> (tensor<4x3xui16>)
    return %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15, %v16, %v17, %v18, %v19, %v20, %v21, %v22, %v23, %v24, %v25, %v26, %v27, %v28, %v29, %v30, %v35, %v36, %v37, %v39, %v40 : tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xi1>, tensor<8xui8>, tensor<8xui8>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xi1>, tensor<8xui16>, tensor<8xui16>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xi1>, tensor<8xui64>, tensor<8xui64>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<3x2xui32>, tensor<3x2xui32>, tensor<3xui8>, tensor<2xui64>, tensor<4x3xui16>
  }
  func.func private @check0(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check1(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check2(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check3(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check5(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check6(%got: tensor<8xui8>, %want: tensor<8xui8>) -> tensor<1xi32> {
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
  func.func private @check7(%got: tensor<8xf32>, %want: tensor<8xf32>) -> tensor<1xi32> {
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
  func.func private @check8(%got: tensor<8xf64>, %want: tensor<8xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8xf64>
    %ad = stablehlo.abs %d : tensor<8xf64>
    %aw = stablehlo.abs %want : tensor<8xf64>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf64>
    %tol = stablehlo.add %rel, %at : tensor<8xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
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
  func.func private @check9(%got: tensor<8xi64>, %want: tensor<8xi64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
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
  func.func private @check10(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check11(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check12(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check13(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check14(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
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
  func.func private @check15(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check16(%got: tensor<8xui16>, %want: tensor<8xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui16>, tensor<8xui16>) -> tensor<8xi1>
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
  func.func private @check17(%got: tensor<8xf32>, %want: tensor<8xf32>) -> tensor<1xi32> {
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
  func.func private @check18(%got: tensor<8xf64>, %want: tensor<8xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8xf64>
    %ad = stablehlo.abs %d : tensor<8xf64>
    %aw = stablehlo.abs %want : tensor<8xf64>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf64>
    %tol = stablehlo.add %rel, %at : tensor<8xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
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
  func.func private @check19(%got: tensor<8xi64>, %want: tensor<8xi64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
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
  func.func private @check20(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check21(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check22(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check23(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check24(%got: tensor<8xi1>, %want: tensor<8xi1>) -> tensor<1xi32> {
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
  func.func private @check25(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check26(%got: tensor<8xui64>, %want: tensor<8xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xui64>, tensor<8xui64>) -> tensor<8xi1>
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
  func.func private @check27(%got: tensor<8xf32>, %want: tensor<8xf32>) -> tensor<1xi32> {
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
  func.func private @check28(%got: tensor<8xf64>, %want: tensor<8xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<8xf64>
    %ad = stablehlo.abs %d : tensor<8xf64>
    %aw = stablehlo.abs %want : tensor<8xf64>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<8xf64>
    %rel = stablehlo.multiply %aw, %rt : tensor<8xf64>
    %tol = stablehlo.add %rel, %at : tensor<8xf64>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf64>, tensor<8xf64>) -> tensor<8xi1>
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
  func.func private @check29(%got: tensor<8xi64>, %want: tensor<8xi64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi1>
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
  func.func private @check30(%got: tensor<3x2xui32>, %want: tensor<3x2xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3x2xui32>, tensor<3x2xui32>) -> tensor<3x2xi1>
    %bad = stablehlo.not %ok : tensor<3x2xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<3x2xi1>) -> tensor<3x2xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<3x2xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check31(%got: tensor<3x2xui32>, %want: tensor<3x2xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3x2xui32>, tensor<3x2xui32>) -> tensor<3x2xi1>
    %bad = stablehlo.not %ok : tensor<3x2xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<3x2xi1>) -> tensor<3x2xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<3x2xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check32(%got: tensor<3xui8>, %want: tensor<3xui8>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
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
  func.func private @check33(%got: tensor<2xui64>, %want: tensor<2xui64>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
    %bad = stablehlo.not %ok : tensor<2xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2xi1>) -> tensor<2xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check34(%got: tensor<4x3xui16>, %want: tensor<4x3xui16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x3xui16>, tensor<4x3xui16>) -> tensor<4x3xi1>
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
    %in0 = stablehlo.constant dense<"0x00010264C8FF1180"> : tensor<8xui8>
    %in1 = stablehlo.constant dense<"0x0003FF0709020880"> : tensor<8xui8>
    %in2 = stablehlo.constant dense<"0x00000100FFFF409C2C01E8FD11000080"> : tensor<8xui16>
    %in3 = stablehlo.constant dense<"0x0000FFFF020003001000070028000080"> : tensor<8xui16>
    %in4 = stablehlo.constant dense<"0x00000000000000000100000000000000FFFFFFFFFFFFFFFF0000000000000080D20A1FEB8CA954AB050000000000000001000000000020004D00000000000000"> : tensor<8xui64>
    %in5 = stablehlo.constant dense<"0x0000000000000000FFFFFFFFFFFFFFFF0200000000000000030000000000000007CA9A3B00000000400000000000000001000000000000000000000000000080"> : tensor<8xui64>
    %in6 = stablehlo.constant dense<"0xF1A0AFE594C6D5390E4C48DFE9017F"> : tensor<3x5xui8>
    %in7 = stablehlo.constant dense<"0xD221CC1E77D14D5747B8"> : tensor<5x2xui8>
    %res:35 = call @compute(%in0, %in1, %in2, %in3, %in4, %in5, %in6, %in7) : (tensor<8xui8>, tensor<8xui8>, tensor<8xui16>, tensor<8xui16>, tensor<8xui64>, tensor<8xui64>, tensor<3x5xui8>, tensor<5x2xui8>) -> (tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xui8>, tensor<8xi1>, tensor<8xui8>, tensor<8xui8>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xui16>, tensor<8xi1>, tensor<8xui16>, tensor<8xui16>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xui64>, tensor<8xi1>, tensor<8xui64>, tensor<8xui64>, tensor<8xf32>, tensor<8xf64>, tensor<8xi64>, tensor<3x2xui32>, tensor<3x2xui32>, tensor<3xui8>, tensor<2xui64>, tensor<4x3xui16>)
    %want0 = stablehlo.constant dense<"0x0004016BD1011900"> : tensor<8xui8>
    %bad0 = call @check0(%res#0, %want0) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x0003FEBC08FE8800"> : tensor<8xui8>
    %bad1 = call @check1(%res#1, %want1) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0xFF00000E167F0201"> : tensor<8xui8>
    %bad2 = call @check2(%res#2, %want2) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x0001020202010100"> : tensor<8xui8>
    %bad3 = call @check3(%res#3, %want3) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<[false, false, false, true, true, true, true, false]> : tensor<8xi1>
    %bad4 = call @check4(%res#4, %want4) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x0003FF64C8FF1180"> : tensor<8xui8>
    %bad5 = call @check5(%res#5, %want5) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x00000000003F0000"> : tensor<8xui8>
    %bad6 = call @check6(%res#6, %want6) : (tensor<8xui8>, tensor<8xui8>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<"0x000000000000803F000000400000C8420000484300007F430000884100000043"> : tensor<8xf32>
    %bad7 = call @check7(%res#7, %want7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<"0x0000000000000000000000000000F03F0000000000000040000000000000594000000000000069400000000000E06F4000000000000031400000000000006040"> : tensor<8xf64>
    %bad8 = call @check8(%res#8, %want8) : (tensor<8xf64>, tensor<8xf64>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<"0x0000000000000000010000000000000002000000000000006400000000000000C800000000000000FF0000000000000011000000000000008000000000000000"> : tensor<8xi64>
    %bad9 = call @check9(%res#9, %want9) : (tensor<8xi64>, tensor<8xi64>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<"0x000000000100439C3C01EFFD39000000"> : tensor<8xui16>
    %bad10 = call @check10(%res#10, %want10) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0x0000FFFFFEFFC0D4C01258F1A8020000"> : tensor<8xui16>
    %bad11 = call @check11(%res#11, %want11) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<"0xFFFF0000FF7F15341200452400000100"> : tensor<8xui16>
    %bad12 = call @check12(%res#12, %want12) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x00000100010001000C00050011000000"> : tensor<8xui16>
    %bad13 = call @check13(%res#13, %want13) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<[false, false, true, true, true, true, false, false]> : tensor<8xi1>
    %bad14 = call @check14(%res#14, %want14) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    %want15 = stablehlo.constant dense<"0x0000FFFFFFFF409C2C01E8FD28000080"> : tensor<8xui16>
    %bad15 = call @check15(%res#15, %want15) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u15 = tensor.cast %bad15 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
    %want16 = stablehlo.constant dense<"0x00000000FF3F88130000FB0100000000"> : tensor<8xui16>
    %bad16 = call @check16(%res#16, %want16) : (tensor<8xui16>, tensor<8xui16>) -> tensor<1xi32>
    %u16 = tensor.cast %bad16 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u16) : (tensor<*xi32>) -> ()
    %want17 = stablehlo.constant dense<"0x000000000000803F00FF7F4700401C470000964300E87D470000884100000047"> : tensor<8xf32>
    %bad17 = call @check17(%res#17, %want17) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xi32>
    %u17 = tensor.cast %bad17 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u17) : (tensor<*xi32>) -> ()
    %want18 = stablehlo.constant dense<"0x0000000000000000000000000000F03F00000000E0FFEF40000000000088E3400000000000C072400000000000BDEF400000000000003140000000000000E040"> : tensor<8xf64>
    %bad18 = call @check18(%res#18, %want18) : (tensor<8xf64>, tensor<8xf64>) -> tensor<1xi32>
    %u18 = tensor.cast %bad18 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u18) : (tensor<*xi32>) -> ()
    %want19 = stablehlo.constant dense<"0x00000000000000000100000000000000FFFF000000000000409C0000000000002C01000000000000E8FD00000000000011000000000000000080000000000000"> : tensor<8xi64>
    %bad19 = call @check19(%res#19, %want19) : (tensor<8xi64>, tensor<8xi64>) -> tensor<1xi32>
    %u19 = tensor.cast %bad19 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u19) : (tensor<*xi32>) -> ()
    %want20 = stablehlo.constant dense<"0x0000000000000000000000000000000001000000000000000300000000000080D9D4B9268DA954AB450000000000000002000000000020004D00000000000080"> : tensor<8xui64>
    %bad20 = call @check20(%res#20, %want20) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u20 = tensor.cast %bad20 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u20) : (tensor<*xi32>) -> ()
    %want21 = stablehlo.constant dense<"0x0000000000000000FFFFFFFFFFFFFFFFFEFFFFFFFFFFFFFF0000000000000080BEFFB6D48B6C0FF6400100000000000001000000000020000000000000000080"> : tensor<8xui64>
    %bad21 = call @check21(%res#21, %want21) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u21 = tensor.cast %bad21 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u21) : (tensor<*xi32>) -> ()
    %want22 = stablehlo.constant dense<"0xFFFFFFFFFFFFFFFF0000000000000000FFFFFFFFFFFFFF7FAAAAAAAAAAAAAA2ADE1BDCDF02000000000000000000000001000000000020000000000000000000"> : tensor<8xui64>
    %bad22 = call @check22(%res#22, %want22) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u22 = tensor.cast %bad22 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u22) : (tensor<*xi32>) -> ()
    %want23 = stablehlo.constant dense<"0x0000000000000000010000000000000001000000000000000200000000000000C01B913000000000050000000000000000000000000000004D00000000000000"> : tensor<8xui64>
    %bad23 = call @check23(%res#23, %want23) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u23 = tensor.cast %bad23 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u23) : (tensor<*xi32>) -> ()
    %want24 = stablehlo.constant dense<[false, false, true, true, true, false, true, false]> : tensor<8xi1>
    %bad24 = call @check24(%res#24, %want24) : (tensor<8xi1>, tensor<8xi1>) -> tensor<1xi32>
    %u24 = tensor.cast %bad24 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u24) : (tensor<*xi32>) -> ()
    %want25 = stablehlo.constant dense<"0x0000000000000000FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF0000000000000080D20A1FEB8CA954AB400000000000000001000000000020000000000000000080"> : tensor<8xui64>
    %bad25 = call @check25(%res#25, %want25) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u25 = tensor.cast %bad25 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u25) : (tensor<*xi32>) -> ()
    %want26 = stablehlo.constant dense<"0x00000000000000000000000000000000FFFFFFFFFFFFFF3F00000000000000100000000000000000000000000000000000000000000010000000000000000000"> : tensor<8xui64>
    %bad26 = call @check26(%res#26, %want26) : (tensor<8xui64>, tensor<8xui64>) -> tensor<1xi32>
    %u26 = tensor.cast %bad26 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u26) : (tensor<*xi32>) -> ()
    %want27 = stablehlo.constant dense<"0x000000000000803F0000805F0000005FAA542B5F0000A0400000005A00009A42"> : tensor<8xf32>
    %bad27 = call @check27(%res#27, %want27) : (tensor<8xf32>, tensor<8xf32>) -> tensor<1xi32>
    %u27 = tensor.cast %bad27 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u27) : (tensor<*xi32>) -> ()
    %want28 = stablehlo.constant dense<"0x0000000000000000000000000000F03F000000000000F043000000000000E043E1639D31956AE543000000000000144000000000000040430000000000405340"> : tensor<8xf64>
    %bad28 = call @check28(%res#28, %want28) : (tensor<8xf64>, tensor<8xf64>) -> tensor<1xi32>
    %u28 = tensor.cast %bad28 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u28) : (tensor<*xi32>) -> ()
    %want29 = stablehlo.constant dense<"0x00000000000000000100000000000000FFFFFFFFFFFFFFFF0000000000000080D20A1FEB8CA954AB050000000000000001000000000020004D00000000000000"> : tensor<8xi64>
    %bad29 = call @check29(%res#29, %want29) : (tensor<8xi64>, tensor<8xi64>) -> tensor<1xi32>
    %u29 = tensor.cast %bad29 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u29) : (tensor<*xi32>) -> ()
    %want30 = stablehlo.constant dense<"0x78040200E3780100F17F0100679C0000997C0100423D0100"> : tensor<3x2xui32>
    %bad30 = call @check30(%res#30, %want30) : (tensor<3x2xui32>, tensor<3x2xui32>) -> tensor<1xi32>
    %u30 = tensor.cast %bad30 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u30) : (tensor<*xi32>) -> ()
    %want31 = stablehlo.constant dense<"0x78040200E3780100F17F0100679C0000997C0100423D0100"> : tensor<3x2xui32>
    %bad31 = call @check31(%res#31, %want31) : (tensor<3x2xui32>, tensor<3x2xui32>) -> tensor<1xi32>
    %u31 = tensor.cast %bad31 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u31) : (tensor<*xi32>) -> ()
    %want32 = stablehlo.constant dense<"0xB92E90"> : tensor<3xui8>
    %bad32 = call @check32(%res#32, %want32) : (tensor<3xui8>, tensor<3xui8>) -> tensor<1xi32>
    %u32 = tensor.cast %bad32 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u32) : (tensor<*xi32>) -> ()
    %want33 = stablehlo.constant dense<"0xFFFFFFFFFFFFFFFFD20A1FEB8CA954AB"> : tensor<2xui64>
    %bad33 = call @check33(%res#33, %want33) : (tensor<2xui64>, tensor<2xui64>) -> tensor<1xi32>
    %u33 = tensor.cast %bad33 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u33) : (tensor<*xi32>) -> ()
    %want34 = stablehlo.constant dense<"0x000001000200000001000200000001000200000001000200"> : tensor<4x3xui16>
    %bad34 = call @check34(%res#34, %want34) : (tensor<4x3xui16>, tensor<4x3xui16>) -> tensor<1xi32>
    %u34 = tensor.cast %bad34 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u34) : (tensor<*xi32>) -> ()
    return
  }
}
