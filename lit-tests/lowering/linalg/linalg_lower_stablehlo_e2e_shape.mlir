// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: transpose, strided slice, pad (negative edge + interior), reverse, reshape, concatenate,
// iota (float), broadcast_in_dim.

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
// shape ops
module {
  func.func public @compute(%arg0: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x2x2xf32>, tensor<3x5x7xf32>, tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x6x4xf32>, tensor<3x4xf32>, tensor<4x6x4xf32>) {
    %v1 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>)
    %v2 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0, 1, 0>, limit_indices = array<i64: 2, 3, 4>, strides = array<i64: 1, 1, 2>}> : (tensor<2x3x4xf32>) -> (tensor<2x2x2xf32>)
    %v3 = "stablehlo.constant"() <{value = dense<-1.0> : tensor<f32>}> : () -> tensor<f32>
    %v4 = "stablehlo.pad"(%arg0, %v3) <{edge_padding_low = array<i64: 1, -1, 0>, edge_padding_high = array<i64: 0, 1, 0>, interior_padding = array<i64: 0, 1, 1>}> : (tensor<2x3x4xf32>, tensor<f32>) -> (tensor<3x5x7xf32>)
    %v5 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0, 2>}> : (tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>)
    %v6 = "stablehlo.reshape"(%arg0) : (tensor<2x3x4xf32>) -> (tensor<6x4xf32>)
    %v7 = "stablehlo.concatenate"(%arg0, %arg0) <{dimension = 1 : i64}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> (tensor<2x6x4xf32>)
    %v8 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> (tensor<3x4xf32>)
    %v9 = "stablehlo.broadcast_in_dim"(%v6) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<6x4xf32>) -> (tensor<4x6x4xf32>)
    return %v1, %v2, %v4, %v5, %v6, %v7, %v8, %v9 : tensor<4x2x3xf32>, tensor<2x2x2xf32>, tensor<3x5x7xf32>, tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x6x4xf32>, tensor<3x4xf32>, tensor<4x6x4xf32>
  }
  func.func private @check0(%got: tensor<4x2x3xf32>, %want: tensor<4x2x3xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x2x3xf32>
    %ad = stablehlo.abs %d : tensor<4x2x3xf32>
    %aw = stablehlo.abs %want : tensor<4x2x3xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<4x2x3xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<4x2x3xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x2x3xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x2x3xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x2x3xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x2x3xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x2x3xi1>
    %bad = stablehlo.not %ok : tensor<4x2x3xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x2x3xi1>) -> tensor<4x2x3xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x2x3xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<2x2x2xf32>, %want: tensor<2x2x2xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<2x2x2xf32>
    %ad = stablehlo.abs %d : tensor<2x2x2xf32>
    %aw = stablehlo.abs %want : tensor<2x2x2xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<2x2x2xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<2x2x2xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<2x2x2xf32>
    %tol = stablehlo.add %rel, %at : tensor<2x2x2xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xi1>
    %bn = stablehlo.and %gn, %wn : tensor<2x2x2xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<2x2x2xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<2x2x2xi1>
    %bad = stablehlo.not %ok : tensor<2x2x2xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x2x2xi1>) -> tensor<2x2x2xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x2x2xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<3x5x7xf32>, %want: tensor<3x5x7xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<3x5x7xf32>
    %ad = stablehlo.abs %d : tensor<3x5x7xf32>
    %aw = stablehlo.abs %want : tensor<3x5x7xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<3x5x7xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<3x5x7xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<3x5x7xf32>
    %tol = stablehlo.add %rel, %at : tensor<3x5x7xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<3x5x7xi1>
    %bn = stablehlo.and %gn, %wn : tensor<3x5x7xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<3x5x7xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<3x5x7xi1>
    %bad = stablehlo.not %ok : tensor<3x5x7xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<3x5x7xi1>) -> tensor<3x5x7xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<3x5x7xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check3(%got: tensor<2x3x4xf32>, %want: tensor<2x3x4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<2x3x4xf32>
    %ad = stablehlo.abs %d : tensor<2x3x4xf32>
    %aw = stablehlo.abs %want : tensor<2x3x4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<2x3x4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<2x3x4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<2x3x4xf32>
    %tol = stablehlo.add %rel, %at : tensor<2x3x4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<2x3x4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<2x3x4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<2x3x4xi1>
    %bad = stablehlo.not %ok : tensor<2x3x4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x3x4xi1>) -> tensor<2x3x4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check4(%got: tensor<6x4xf32>, %want: tensor<6x4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<6x4xf32>
    %ad = stablehlo.abs %d : tensor<6x4xf32>
    %aw = stablehlo.abs %want : tensor<6x4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<6x4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<6x4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<6x4xf32>
    %tol = stablehlo.add %rel, %at : tensor<6x4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<6x4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<6x4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<6x4xi1>
    %bad = stablehlo.not %ok : tensor<6x4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<6x4xi1>) -> tensor<6x4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<6x4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check5(%got: tensor<2x6x4xf32>, %want: tensor<2x6x4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<2x6x4xf32>
    %ad = stablehlo.abs %d : tensor<2x6x4xf32>
    %aw = stablehlo.abs %want : tensor<2x6x4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<2x6x4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<2x6x4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<2x6x4xf32>
    %tol = stablehlo.add %rel, %at : tensor<2x6x4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<2x6x4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<2x6x4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<2x6x4xi1>
    %bad = stablehlo.not %ok : tensor<2x6x4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<2x6x4xi1>) -> tensor<2x6x4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<2x6x4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check6(%got: tensor<3x4xf32>, %want: tensor<3x4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<3x4xf32>
    %ad = stablehlo.abs %d : tensor<3x4xf32>
    %aw = stablehlo.abs %want : tensor<3x4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<3x4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<3x4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<3x4xf32>
    %tol = stablehlo.add %rel, %at : tensor<3x4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<3x4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<3x4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<3x4xi1>
    %bad = stablehlo.not %ok : tensor<3x4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<3x4xi1>) -> tensor<3x4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<3x4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check7(%got: tensor<4x6x4xf32>, %want: tensor<4x6x4xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<4x6x4xf32>
    %ad = stablehlo.abs %d : tensor<4x6x4xf32>
    %aw = stablehlo.abs %want : tensor<4x6x4xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<4x6x4xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<4x6x4xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<4x6x4xf32>
    %tol = stablehlo.add %rel, %at : tensor<4x6x4xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x6x4xf32>, tensor<4x6x4xf32>) -> tensor<4x6x4xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6x4xf32>, tensor<4x6x4xf32>) -> tensor<4x6x4xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<4x6x4xf32>, tensor<4x6x4xf32>) -> tensor<4x6x4xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x6x4xf32>, tensor<4x6x4xf32>) -> tensor<4x6x4xi1>
    %bn = stablehlo.and %gn, %wn : tensor<4x6x4xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<4x6x4xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<4x6x4xi1>
    %bad = stablehlo.not %ok : tensor<4x6x4xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<4x6x4xi1>) -> tensor<4x6x4xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4x6x4xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841"> : tensor<2x3x4xf32>
    %res:8 = call @compute(%in0) : (tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x2x2xf32>, tensor<3x5x7xf32>, tensor<2x3x4xf32>, tensor<6x4xf32>, tensor<2x6x4xf32>, tensor<3x4xf32>, tensor<4x6x4xf32>)
    %want0 = stablehlo.constant dense<"0x00000000000080400000004100004041000080410000A0410000803F0000A0400000104100005041000088410000A841000000400000C0400000204100006041000090410000B041000040400000E0400000304100007041000098410000B841"> : tensor<4x2x3xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x000080400000C040000000410000204100008041000090410000A0410000B041"> : tensor<2x2x2xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF00008040000080BF0000A040000080BF0000C040000080BF0000E040000080BF000080BF000080BF000080BF000080BF000080BF000080BF00000041000080BF00001041000080BF00002041000080BF00003041000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF000080BF00008041000080BF00008841000080BF00009041000080BF00009841000080BF000080BF000080BF000080BF000080BF000080BF000080BF0000A041000080BF0000A841000080BF0000B041000080BF0000B841000080BF000080BF000080BF000080BF000080BF000080BF000080BF"> : tensor<3x5x7xf32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<3x5x7xf32>, tensor<3x5x7xf32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x00007041000060410000504100004041000098410000904100008841000080410000B8410000B0410000A8410000A04100004040000000400000803F000000000000E0400000C0400000A0400000804000003041000020410000104100000041"> : tensor<2x3x4xf32>
    %bad3 = call @check3(%res#3, %want3) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841"> : tensor<6x4xf32>
    %bad4 = call @check4(%res#4, %want4) : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E04000000041000010410000204100003041000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B84100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841"> : tensor<2x6x4xf32>
    %bad5 = call @check5(%res#5, %want5) : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x000000000000803F0000004000004040000000000000803F0000004000004040000000000000803F0000004000004040"> : tensor<3x4xf32>
    %bad6 = call @check6(%res#6, %want6) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B841"> : tensor<4x6x4xf32>
    %bad7 = call @check7(%res#7, %want7) : (tensor<4x6x4xf32>, tensor<4x6x4xf32>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    return
  }
}
