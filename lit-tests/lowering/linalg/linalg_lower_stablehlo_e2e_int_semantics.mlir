// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: integer corner cases (divide/remainder by 0 and INT_MIN/-1, shifts >= 32 and negative,
// power with negative exponent, sign, not, popcnt, clz), expected values per XLA.

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
// integer semantics
module {
  func.func public @compute(%arg0: tensor<12xi32>, %arg1: tensor<12xi32>) -> (tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>) {
    %v1 = "stablehlo.divide"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v2 = "stablehlo.remainder"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v3 = "stablehlo.shift_left"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v4 = "stablehlo.shift_right_arithmetic"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v5 = "stablehlo.shift_right_logical"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v6 = "stablehlo.power"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v7 = "stablehlo.sign"(%arg0) : (tensor<12xi32>) -> (tensor<12xi32>)
    %v8 = "stablehlo.not"(%arg0) : (tensor<12xi32>) -> (tensor<12xi32>)
    %v9 = "stablehlo.popcnt"(%arg0) : (tensor<12xi32>) -> (tensor<12xi32>)
    %v10 = "stablehlo.count_leading_zeros"(%arg0) : (tensor<12xi32>) -> (tensor<12xi32>)
    %v11 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>)
    %v12 = "stablehlo.abs"(%arg0) : (tensor<12xi32>) -> (tensor<12xi32>)
    return %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, %v11, %v12 : tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>
  }
  func.func private @check0(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check1(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check2(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check3(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check4(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check5(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check6(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check7(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check8(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check9(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
  func.func private @check11(%got: tensor<12xi32>, %want: tensor<12xi32>) -> tensor<1xi32> {
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
    %in0 = stablehlo.constant dense<"0x07000000F9FFFFFF07000000F9FFFFFF050000000000008000000080000000007B000000FFFFFFFF0100000002000000"> : tensor<12xi32>
    %in1 = stablehlo.constant dense<"0x0200000002000000FEFFFFFFFEFFFFFF00000000FFFFFFFF00000000000000000300000003000000FBFFFFFF28000000"> : tensor<12xi32>
    %res:12 = call @compute(%in0, %in1) : (tensor<12xi32>, tensor<12xi32>) -> (tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>, tensor<12xi32>)
    %want0 = stablehlo.constant dense<"0x03000000FDFFFFFFFDFFFFFF03000000FFFFFFFF00000080FFFFFFFFFFFFFFFF29000000000000000000000000000000"> : tensor<12xi32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x01000000FFFFFFFF01000000FFFFFFFF0500000000000000000000800000000000000000FFFFFFFF0100000002000000"> : tensor<12xi32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0x1C000000E4FFFFFF000000000000000005000000000000000000008000000000D8030000F8FFFFFF0000000000000000"> : tensor<12xi32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<"0x01000000FEFFFFFF00000000FFFFFFFF05000000FFFFFFFF00000080000000000F000000FFFFFFFF0000000000000000"> : tensor<12xi32>
    %bad3 = call @check3(%res#3, %want3) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    %want4 = stablehlo.constant dense<"0x01000000FEFFFF3F0000000000000000050000000000000000000080000000000F000000FFFFFF1F0000000000000000"> : tensor<12xi32>
    %bad4 = call @check4(%res#4, %want4) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u4 = tensor.cast %bad4 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
    %want5 = stablehlo.constant dense<"0x310000003100000000000000000000000100000000000000010000000100000003651C00FFFFFFFF0100000000000000"> : tensor<12xi32>
    %bad5 = call @check5(%res#5, %want5) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u5 = tensor.cast %bad5 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
    %want6 = stablehlo.constant dense<"0x01000000FFFFFFFF01000000FFFFFFFF01000000FFFFFFFFFFFFFFFF0000000001000000FFFFFFFF0100000001000000"> : tensor<12xi32>
    %bad6 = call @check6(%res#6, %want6) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u6 = tensor.cast %bad6 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
    %want7 = stablehlo.constant dense<"0xF8FFFFFF06000000F8FFFFFF06000000FAFFFFFFFFFFFF7FFFFFFF7FFFFFFFFF84FFFFFF00000000FEFFFFFFFDFFFFFF"> : tensor<12xi32>
    %bad7 = call @check7(%res#7, %want7) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u7 = tensor.cast %bad7 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u7) : (tensor<*xi32>) -> ()
    %want8 = stablehlo.constant dense<"0x030000001E000000030000001E0000000200000001000000010000000000000006000000200000000100000001000000"> : tensor<12xi32>
    %bad8 = call @check8(%res#8, %want8) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u8 = tensor.cast %bad8 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u8) : (tensor<*xi32>) -> ()
    %want9 = stablehlo.constant dense<"0x1D000000000000001D000000000000001D00000000000000000000002000000019000000000000001F0000001E000000"> : tensor<12xi32>
    %bad9 = call @check9(%res#9, %want9) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u9 = tensor.cast %bad9 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u9) : (tensor<*xi32>) -> ()
    %want10 = stablehlo.constant dense<"0x070000000200000007000000FEFFFFFF05000000FFFFFFFF00000000000000007B000000030000000100000028000000"> : tensor<12xi32>
    %bad10 = call @check10(%res#10, %want10) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u10 = tensor.cast %bad10 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u10) : (tensor<*xi32>) -> ()
    %want11 = stablehlo.constant dense<"0x07000000070000000700000007000000050000000000008000000080000000007B000000010000000100000002000000"> : tensor<12xi32>
    %bad11 = call @check11(%res#11, %want11) : (tensor<12xi32>, tensor<12xi32>) -> tensor<1xi32>
    %u11 = tensor.cast %bad11 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u11) : (tensor<*xi32>) -> ()
    return
  }
}
