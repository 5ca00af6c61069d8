// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: ui32 corner cases (divide/remainder by 0 → all ones/dividend, shifts >= 32, arithmetic shift of
// the top bit, power with a sign-bit exponent, unsigned max/min/clamp/compare with and without a type, wrap),
// conversions (uitofp, zero extension, truncation, float → unsigned saturating with NaN → 0), bitcasts.

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
// ui32 semantics
module {
  func.func public @compute(%arg0: tensor<12xui32>, %arg1: tensor<12xui32>, %arg2: tensor<12xf32>) -> (tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xi1>, tensor<12xi1>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xf32>, tensor<12xf64>, tensor<12xui64>, tensor<12xi64>, tensor<12xi16>, tensor<12xui8>, tensor<12xui32>, tensor<12xui8>, tensor<12xui64>, tensor<12xf32>, tensor<12xui32>, tensor<12xi32>) {
    %v1 = "stablehlo.constant"() <{value = dense<10> : tensor<ui32>}> : () -> tensor<ui32>
    %v2 = "stablehlo.constant"() <{value = dense<3000000000> : tensor<ui32>}> : () -> tensor<ui32>
    %v3 = "stablehlo.divide"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v4 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v5 = "stablehlo.shift_left"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v6 = "stablehlo.shift_right_logical"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v7 = "stablehlo.shift_right_arithmetic"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v8 = "stablehlo.power"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v9 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v10 = "stablehlo.minimum"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v11 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xi1>)
    %v12 = "stablehlo.compare"(%arg0, %arg1) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type UNSIGNED>}> : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xi1>)
    %v13 = "stablehlo.clamp"(%v1, %arg0, %v2) : (tensor<ui32>, tensor<12xui32>, tensor<ui32>) -> (tensor<12xui32>)
    %v14 = "stablehlo.not"(%arg0) : (tensor<12xui32>) -> (tensor<12xui32>)
    %v15 = "stablehlo.negate"(%arg0) : (tensor<12xui32>) -> (tensor<12xui32>)
    %v16 = "stablehlo.popcnt"(%arg0) : (tensor<12xui32>) -> (tensor<12xui32>)
    %v17 = "stablehlo.count_leading_zeros"(%arg0) : (tensor<12xui32>) -> (tensor<12xui32>)
    %v18 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<12xui32>, tensor<12xui32>) -> (tensor<12xui32>)
    %v19 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xf32>)
    %v20 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xf64>)
    %v21 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xui64>)
    %v22 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xi64>)
    %v23 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xi16>)
    %v24 = "stablehlo.convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xui8>)
    %v25 = "stablehlo.convert"(%arg2) : (tensor<12xf32>) -> (tensor<12xui32>)
    %v26 = "stablehlo.convert"(%arg2) : (tensor<12xf32>) -> (tensor<12xui8>)
    %v27 = "stablehlo.convert"(%arg2) : (tensor<12xf32>) -> (tensor<12xui64>)
    %v28 = "stablehlo.bitcast_convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xf32>)
    %v29 = "stablehlo.bitcast_convert"(%arg2) : (tensor<12xf32>) -> (tensor<12xui32>)
    %v30 = "stablehlo.bitcast_convert"(%arg0) : (tensor<12xui32>) -> (tensor<12xi32>)
    return %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12, %v13, %v14, %v15, %v16, %v17, %v18, %v19, %v20, %v21, %v22, %v23, %v24, %v25, %v26, %v27, %v28, %v29, %v30 : tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xi1>, tensor<12xi1>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xf32>, tensor<12xf64>, tensor<12xui64>, tensor<12xi64>, tensor<12xi16>, tensor<12xui8>, tensor<12xui32>, tensor<12xui8>, tensor<12xui64>, tensor<12xf32>, tensor<12xui32>, tensor<12xi32>
  }
  func.func private @check0(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check1(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check2(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check3(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check4(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check5(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check6(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check7(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check8(%got: tensor<12xi1>, %want: tensor<12xi1>) -> tensor<1xi32> {
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
  func.func private @check10(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check11(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check12(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check13(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check14(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check15(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check16(%got: tensor<12xf32>, %want: tensor<12xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %want : tensor<12xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<12xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<12xf32>
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
  func.func private @check17(%got: tensor<12xf64>, %want: tensor<12xf64>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf64>
    %ad = stablehlo.abs %d : tensor<12xf64>
    %aw = stablehlo.abs %want : tensor<12xf64>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<12xf64>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<12xf64>
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
  func.func private @check18(%got: tensor<12xui64>, %want: tensor<12xui64>) -> tensor<1xi32> {
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
  func.func private @check19(%got: tensor<12xi64>, %want: tensor<12xi64>) -> tensor<1xi32> {
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
  func.func private @check20(%got: tensor<12xi16>, %want: tensor<12xi16>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xi16>, tensor<12xi16>) -> tensor<12xi1>
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
  func.func private @check21(%got: tensor<12xui8>, %want: tensor<12xui8>) -> tensor<1xi32> {
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
  func.func private @check22(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check23(%got: tensor<12xui8>, %want: tensor<12xui8>) -> tensor<1xi32> {
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
  func.func private @check24(%got: tensor<12xui64>, %want: tensor<12xui64>) -> tensor<1xi32> {
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
  func.func private @check25(%got: tensor<12xf32>, %want: tensor<12xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<12xf32>
    %ad = stablehlo.abs %d : tensor<12xf32>
    %aw = stablehlo.abs %want : tensor<12xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<12xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<12xf32>
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
  func.func private @check26(%got: tensor<12xui32>, %want: tensor<12xui32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xui32>, tensor<12xui32>) -> tensor<12xi1>
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
  func.func private @check27(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x07000000FFFFFFFF0000008005000000000000007B0000000100000002000000005ED0B211000000EFBEADDE64000000"> : tensor<12xui32>
    %in1 = stablehlo.constant dense<"0x020000000200000001000000000000000000000003000000280000001F000000070000002000000004000000FFFFFFFF"> : tensor<12xui32>
    %in2 = stablehlo.constant dense<"0x0000C07F000080BF000000BF0000003F0000C03FFFFF7F4F0000804FEC78AD600000807F000080FF5ED0324F66E67F43"> : tensor<12xf32>
    %res:28 = call @compute(%in0, %in1, %in2) : (tensor<12xui32>, tensor<12xui32>, tensor<12xf32>) -> (tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xi1>, tensor<12xi1>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xui32>, tensor<12xf32>, tensor<12xf64>, tensor<12xui64>, tensor<12xi64>, tensor<12xi16>, tensor<12xui8>, tensor<12xui32>, tensor<12xui8>, tensor<12xui64>, tensor<12xf32>, tensor<12xui32>, tensor<12xi32>)
    %want0 = stablehlo.constant dense<"0x03000000FFFFFF7F00000080FFFFFFFFFFFFFFFF290000000000000000000000247B8B1900000000BB6FAB3700000000"> : tensor<12xui32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x010000000100000000000000050000000000000000000000010000000200000004000000110000000300000064000000"> : tensor<12xui32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x1C000000FCFFFFFF000000000500000000000000D8030000000000000000000000002F6800000000F0EEDBEA00000000"> : tensor<12xui32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x01000000FFFFFF3F0000004005000000000000000F0000000000000000000000BCA0650100000000EEDBEA0D00000000"> : tensor<12xui32>
    %bad3 = call @check3(%res#3, %want3) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x01000000FFFFFFFF000000C005000000000000000F0000000000000000000000BCA065FF00000000EEDBEAFD00000000"> : tensor<12xui32>
    %bad4 = call @check4(%res#4, %want4) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x310000000100000000000080010000000100000003651C0001000000000000800000000001F2AF87410A0DD400000000"> : tensor<12xui32>
    %bad5 = call @check5(%res#5, %want5) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x07000000FFFFFFFF0000008005000000000000007B000000280000001F000000005ED0B220000000EFBEADDEFFFFFFFF"> : tensor<12xui32>
    %bad6 = call @check6(%res#6, %want6) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<"0x020000000200000001000000000000000000000003000000010000000200000007000000110000000400000064000000"> : tensor<12xui32>
    %bad7 = call @check7(%res#7, %want7) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<[false, false, false, false, false, false, true, true, false, true, false, true]> : tensor<12xi1>
    %bad8 = call @check8(%res#8, %want8) : (tensor<12xi1>, tensor<12xi1>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<[true, true, true, true, true, true, false, false, true, false, true, false]> : tensor<12xi1>
    %bad9 = call @check9(%res#9, %want9) : (tensor<12xi1>, tensor<12xi1>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<"0x0A000000005ED0B2000000800A0000000A0000007B0000000A0000000A000000005ED0B211000000005ED0B264000000"> : tensor<12xui32>
    %bad10 = call @check10(%res#10, %want10) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0xF8FFFFFF00000000FFFFFF7FFAFFFFFFFFFFFFFF84FFFFFFFEFFFFFFFDFFFFFFFFA12F4DEEFFFFFF104152219BFFFFFF"> : tensor<12xui32>
    %bad11 = call @check11(%res#11, %want11) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    %want12 = stablehlo.constant dense<"0xF9FFFFFF0100000000000080FBFFFFFF0000000085FFFFFFFFFFFFFFFEFFFFFF00A22F4DEFFFFFFF114152219CFFFFFF"> : tensor<12xui32>
    %bad12 = call @check12(%res#12, %want12) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u12 = tensor.cast %bad12 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u12) : (tensor<*xi32>) -> ()
    %want13 = stablehlo.constant dense<"0x03000000200000000100000002000000000000000600000001000000010000000C000000020000001800000003000000"> : tensor<12xui32>
    %bad13 = call @check13(%res#13, %want13) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u13 = tensor.cast %bad13 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u13) : (tensor<*xi32>) -> ()
    %want14 = stablehlo.constant dense<"0x1D00000000000000000000001D00000020000000190000001F0000001E000000000000001B0000000000000019000000"> : tensor<12xui32>
    %bad14 = call @check14(%res#14, %want14) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u14 = tensor.cast %bad14 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u14) : (tensor<*xi32>) -> ()
    %want15 = stablehlo.constant dense<"0x0E000000FEFFFFFF00000080000000000000000071010000280000003E0000000092B2E320020000BCFBB67A9CFFFFFF"> : tensor<12xui32>
    %bad15 = call @check15(%res#15, %want15) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u15 = tensor.cast %bad15 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u15) : (tensor<*xi32>) -> ()
    %want16 = stablehlo.constant dense<"0x0000E0400000804F0000004F0000A040000000000000F6420000803F000000405ED0324F00008841BFAD5E4F0000C842"> : tensor<12xf32>
    %bad16 = call @check16(%res#16, %want16) : (tensor<12xf32>, tensor<12xf32>) -> tensor<1xi32>
    %u16 = tensor.cast %bad16 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u16) : (tensor<*xi32>) -> ()
    %want17 = stablehlo.constant dense<"0x0000000000001C400000E0FFFFFFEF41000000000000E041000000000000144000000000000000000000000000C05E40000000000000F03F0000000000000040000000C00B5AE64100000000000031400000E0DDB7D5EB410000000000005940"> : tensor<12xf64>
    %bad17 = call @check17(%res#17, %want17) : (tensor<12xf64>, tensor<12xf64>) -> tensor<1xi32>
    %u17 = tensor.cast %bad17 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u17) : (tensor<*xi32>) -> ()
    %want18 = stablehlo.constant dense<"0x0700000000000000FFFFFFFF000000000000008000000000050000000000000000000000000000007B0000000000000001000000000000000200000000000000005ED0B2000000001100000000000000EFBEADDE000000006400000000000000"> : tensor<12xui64>
    %bad18 = call @check18(%res#18, %want18) : (tensor<12xui64>, tensor<12xui64>) -> tensor<1xi32>
    %u18 = tensor.cast %bad18 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u18) : (tensor<*xi32>) -> ()
    %want19 = stablehlo.constant dense<"0x0700000000000000FFFFFFFF000000000000008000000000050000000000000000000000000000007B0000000000000001000000000000000200000000000000005ED0B2000000001100000000000000EFBEADDE000000006400000000000000"> : tensor<12xi64>
    %bad19 = call @check19(%res#19, %want19) : (tensor<12xi64>, tensor<12xi64>) -> tensor<1xi32>
    %u19 = tensor.cast %bad19 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u19) : (tensor<*xi32>) -> ()
    %want20 = stablehlo.constant dense<"0x0700FFFF0000050000007B0001000200005E1100EFBE6400"> : tensor<12xi16>
    %bad20 = call @check20(%res#20, %want20) : (tensor<12xi16>, tensor<12xi16>) -> tensor<1xi32>
    %u20 = tensor.cast %bad20 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u20) : (tensor<*xi32>) -> ()
    %want21 = stablehlo.constant dense<"0x07FF0005007B01020011EF64"> : tensor<12xui8>
    %bad21 = call @check21(%res#21, %want21) : (tensor<12xui8>, tensor<12xui8>) -> tensor<1xi32>
    %u21 = tensor.cast %bad21 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u21) : (tensor<*xi32>) -> ()
    %want22 = stablehlo.constant dense<"0x000000000000000000000000000000000100000000FFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000005ED0B2FF000000"> : tensor<12xui32>
    %bad22 = call @check22(%res#22, %want22) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u22 = tensor.cast %bad22 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u22) : (tensor<*xi32>) -> ()
    %want23 = stablehlo.constant dense<"0x0000000001FFFFFFFF00FFFF"> : tensor<12xui8>
    %bad23 = call @check23(%res#23, %want23) : (tensor<12xui8>, tensor<12xui8>) -> tensor<1xi32>
    %u23 = tensor.cast %bad23 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u23) : (tensor<*xi32>) -> ()
    %want24 = stablehlo.constant dense<"0x0000000000000000000000000000000000000000000000000000000000000000010000000000000000FFFFFF000000000000000001000000FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF0000000000000000005ED0B200000000FF00000000000000"> : tensor<12xui64>
    %bad24 = call @check24(%res#24, %want24) : (tensor<12xui64>, tensor<12xui64>) -> tensor<1xi32>
    %u24 = tensor.cast %bad24 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u24) : (tensor<*xi32>) -> ()
    %want25 = stablehlo.constant dense<"0x07000000FFFFFFFF0000008005000000000000007B0000000100000002000000005ED0B211000000EFBEADDE64000000"> : tensor<12xf32>
    %bad25 = call @check25(%res#25, %want25) : (tensor<12xf32>, tensor<12xf32>) -> tensor<1xi32>
    %u25 = tensor.cast %bad25 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u25) : (tensor<*xi32>) -> ()
    %want26 = stablehlo.constant dense<"0x0000C07F000080BF000000BF0000003F0000C03FFFFF7F4F0000804FEC78AD600000807F000080FF5ED0324F66E67F43"> : tensor<12xui32>
    %bad26 = call @check26(%res#26, %want26) : (tensor<12xui32>, tensor<12xui32>) -> tensor<1xi32>
    %u26 = tensor.cast %bad26 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u26) : (tensor<*xi32>) -> ()
    %want27 = stablehlo.constant dense<"0x07000000FFFFFFFF0000008005000000000000007B0000000100000002000000005ED0B211000000EFBEADDE64000000"> : tensor<12xi32>
    %bad27 = call @check27(%res#27, %want27) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u27 = tensor.cast %bad27 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u27) : (tensor<*xi32>) -> ()
    return
  }
}
