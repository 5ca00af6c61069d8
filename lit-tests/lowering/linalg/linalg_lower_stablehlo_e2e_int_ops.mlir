// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program int_ops.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program int_ops (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<8x16xi32>, %arg1: tensor<8x16xi32>) -> (tensor<8x16xi32> {jax.result_info = "result[0]"}, tensor<8x16xi32> {jax.result_info = "result[1]"}, tensor<8x16xi32> {jax.result_info = "result[2]"}, tensor<8x16xi1> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xi32>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<8x16xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %3 = stablehlo.multiply %arg0, %2 : tensor<8x16xi32>
    %4 = stablehlo.compare GT, %arg0, %arg1, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %5 = call @_where(%4, %0, %1) : (tensor<8x16xi1>, tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %6 = stablehlo.maximum %3, %arg1 : tensor<8x16xi32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %8 = stablehlo.and %arg0, %7 : tensor<8x16xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<8x16xi32>
    %10 = stablehlo.shift_right_arithmetic %arg1, %9 : tensor<8x16xi32>
    %11 = stablehlo.xor %8, %10 : tensor<8x16xi32>
    %12 = stablehlo.compare EQ, %arg0, %arg1, SIGNED : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    return %5, %6, %11, %12 : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi1>
  }
  func.func private @_where(%arg0: tensor<8x16xi1>, %arg1: tensor<8x16xi32>, %arg2: tensor<8x16xi32>) -> tensor<8x16xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x16xi1>, tensor<8x16xi32>
    return %0 : tensor<8x16xi32>
  }
  func.func private @check0(%got: tensor<8x16xi32>, %want: tensor<8x16xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check1(%got: tensor<8x16xi32>, %want: tensor<8x16xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check2(%got: tensor<8x16xi32>, %want: tensor<8x16xi32>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @check3(%got: tensor<8x16xi1>, %want: tensor<8x16xi1>) -> tensor<1xi32> {
    %ok = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xi1>, tensor<8x16xi1>) -> tensor<8x16xi1>
    %bad = stablehlo.not %ok : tensor<8x16xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<8x16xi1>) -> tensor<8x16xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0xE3FFFFFF1A000000220000000D000000F7FFFFFFEBFFFFFFF8FFFFFF31000000FCFFFFFF2E000000EDFFFFFFD9FFFFFF01000000DAFFFFFF0300000004000000FFFFFFFF0E000000DEFFFFFF1100000004000000F1FFFFFFD6FFFFFFEFFFFFFFDFFFFFFF12000000D9FFFFFFD7FFFFFFD0FFFFFFEEFFFFFFF7FFFFFF0E000000240000002500000007000000EFFFFFFF0A000000020000000C000000EDFFFFFF030000000F000000D1FFFFFFF8FFFFFFDBFFFFFF2B000000F9FFFFFF2A0000002C000000120000002A000000E8FFFFFF23000000FCFFFFFFDDFFFFFF25000000F2FFFFFFE7FFFFFF200000002000000011000000D5FFFFFF1A000000E8FFFFFFD2FFFFFFD6FFFFFFECFFFFFFDBFFFFFFD8FFFFFFD8FFFFFF300000001F0000001900000001000000EBFFFFFF20000000F9FFFFFF04000000FCFFFFFF2C0000002C000000F0FFFFFF1F000000F1FFFFFFF0FFFFFFF2FFFFFFF2FFFFFFE1FFFFFF270000000200000008000000E7FFFFFF110000002C000000DEFFFFFFFFFFFFFF280000002B000000DDFFFFFFDBFFFFFFE3FFFFFFDAFFFFFFFAFFFFFFD8FFFFFF02000000F1FFFFFFE8FFFFFF02000000D0FFFFFF0D0000000A0000001B0000000C000000F0FFFFFFF2FFFFFFDCFFFFFF0E000000FCFFFFFFE7FFFFFFCEFFFFFF1E000000D2FFFFFF1C000000160000002A000000D0FFFFFFD9FFFFFF08000000"> : tensor<8x16xi32>
    %in1 = stablehlo.constant dense<"0xE9FFFFFF0600000019000000D1FFFFFF050000000A000000E9FFFFFF1C0000000C000000F5FFFFFF1200000027000000D0FFFFFF27000000DBFFFFFFE1FFFFFF1E000000E4FFFFFF04000000E4FFFFFF05000000E7FFFFFFD6FFFFFFD9FFFFFFE2FFFFFF0E000000D6FFFFFF300000003000000009000000D6FFFFFF2800000000000000D1FFFFFFEEFFFFFF0300000026000000DEFFFFFFE4FFFFFF300000001D0000000D00000019000000E9FFFFFF10000000F6FFFFFF14000000EFFFFFFF070000001F000000D8FFFFFF2F000000DDFFFFFFF0FFFFFF2A000000D1FFFFFFCEFFFFFFE6FFFFFF22000000D7FFFFFF2000000003000000D4FFFFFF2D000000D3FFFFFF07000000DDFFFFFF0B00000022000000DFFFFFFF110000002C000000E4FFFFFFCEFFFFFF05000000F9FFFFFFF3FFFFFF20000000F9FFFFFFF3FFFFFF150000002A0000001A00000015000000EDFFFFFF2200000022000000D0FFFFFF05000000150000002C000000140000002A000000E2FFFFFFF4FFFFFF11000000310000000E000000D7FFFFFF17000000DAFFFFFFD2FFFFFFDAFFFFFF06000000FEFFFFFFE8FFFFFFDDFFFFFFD1FFFFFFE0FFFFFFFBFFFFFF12000000090000001E0000000F0000000F000000270000002A00000008000000FFFFFFFF2700000019000000E6FFFFFF1C000000EFFFFFFF1E00000013000000200000001C000000"> : tensor<8x16xi32>
    %res:4 = call @compute(%in0, %in1) : (tensor<8x16xi32>, tensor<8x16xi32>) -> (tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi1>)
    %want0 = stablehlo.constant dense<"0xFAFFFFFF200000003B000000DEFFFFFFF2FFFFFFE1FFFFFFE1FFFFFF4D000000F0FFFFFF23000000DBFFFFFFB2FFFFFFD1FFFFFFB3FFFFFFDEFFFFFFE5FFFFFFE1FFFFFFF2FFFFFFDAFFFFFFF5FFFFFFFFFFFFFFD8FFFFFF00000000C8FFFFFFFDFFFFFF20000000AFFFFFFFA7FFFFFFA0FFFFFFE5FFFFFFCDFFFFFFE6FFFFFF24000000F6FFFFFFF5FFFFFFECFFFFFFE4FFFFFFE0FFFFFFF0FFFFFFBDFFFFFFE6FFFFFF1C000000B8FFFFFFE1FFFFFFCBFFFFFF21000000E5FFFFFF1900000033000000F3FFFFFF02000000B9FFFFFF00000000ECFFFFFFB3FFFFFFF6FFFFFFC0FFFFFFCDFFFFFFFEFFFFFFF7FFFFFFF1FFFFFFD2FFFFFFEEFFFFFFBBFFFFFFFFFFFFFFCFFFFFFFC9FFFFFFD0FFFFFFB6FFFFFFF9FFFFFF41000000F3FFFFFFFDFFFFFFCFFFFFFFE6FFFFFF19000000ECFFFFFFE4FFFFFFF5FFFFFF1F00000041000000C6FFFFFF39000000DCFFFFFFDDFFFFFFD0FFFFFFD0FFFFFFB1FFFFFF2C000000EDFFFFFFDCFFFFFFD3FFFFFFE7FFFFFF0E000000EAFFFFFFEEFFFFFFF7FFFFFF39000000B4FFFFFFC4FFFFFFBDFFFFFFACFFFFFFD4FFFFFFD2FFFFFF00000000D9FFFFFFC5FFFFFFD3FFFFFFF0FFFFFF08000000F8FFFFFF24000000EEFFFFFFE1FFFFFFE3FFFFFFB5FFFFFFE4FFFFFFF4FFFFFFE8FFFFFFA7FFFFFF37000000ECFFFFFF000000000500000048000000BDFFFFFFB9FFFFFFECFFFFFF"> : tensor<8x16xi32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0xE9FFFFFF4E0000006600000027000000050000000A000000E9FFFFFF930000000C0000008A00000012000000270000000300000027000000090000000C0000001E0000002A00000004000000330000000C000000E7FFFFFFD6FFFFFFD9FFFFFFE2FFFFFF36000000D6FFFFFF300000003000000009000000E5FFFFFF2A0000006C0000006F0000001500000003000000260000000600000024000000300000001D0000002D00000019000000E9FFFFFF1000000081000000140000007E00000084000000360000007E0000002F00000069000000F4FFFFFF2A0000006F000000D6FFFFFFE6FFFFFF600000006000000033000000030000004E0000002D000000D3FFFFFF07000000DDFFFFFF0B00000022000000DFFFFFFF900000005D0000004B000000030000000500000060000000F3FFFFFF20000000F9FFFFFF84000000840000002A0000005D00000015000000EDFFFFFF2200000022000000D0FFFFFF75000000150000002C000000140000003300000084000000F4FFFFFF110000007800000081000000D7FFFFFF17000000DAFFFFFFD2FFFFFFEEFFFFFF0600000006000000E8FFFFFFDDFFFFFF06000000E0FFFFFF270000001E00000051000000240000000F0000000F000000270000002A00000008000000FFFFFFFF270000005A000000E6FFFFFF54000000420000007E00000013000000200000001C000000"> : tensor<8x16xi32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    %want2 = stablehlo.constant dense<"0xF7FFFFFF010000000E000000EDFFFFFF0500000006000000F4FFFFFF0F00000002000000FCFFFFFF0C00000012000000E9FFFFFF11000000EEFFFFFFF4FFFFFF08000000F4FFFFFF04000000F3FFFFFF06000000F2FFFFFFEDFFFFFFEBFFFFFFF6FFFFFF05000000EAFFFFFF1F0000001800000002000000ECFFFFFF1200000004000000EDFFFFFFF0FFFFFF0600000011000000EDFFFFFFF6FFFFFF1D0000000D000000010000000D000000F4FFFFFF0B000000F8FFFFFF0B000000F5FFFFFF070000000D000000EEFFFFFF17000000EDFFFFFFFCFFFFFF10000000EDFFFFFFE5FFFFFFF4FFFFFF11000000EBFFFFFF1100000004000000E8FFFFFF16000000EBFFFFFF05000000EAFFFFFF0600000011000000EFFFFFFF0800000011000000F3FFFFFFE6FFFFFF01000000FCFFFFFFF8FFFFFF14000000F8FFFFFFFDFFFFFF0E000000150000000A0000000B000000F6FFFFFF1300000013000000E9FFFFFF0500000008000000160000000D00000014000000F5FFFFFFFCFFFFFF0F0000001800000004000000EEFFFFFF08000000EEFFFFFFEBFFFFFFEFFFFFFF03000000FDFFFFFFF5FFFFFFEEFFFFFFEAFFFFFFF0FFFFFFF8FFFFFF0B000000070000000B0000000700000005000000170000001300000000000000F8FFFFFF150000000A000000F1FFFFFF0A000000F1FFFFFF0D00000009000000110000000E000000"> : tensor<8x16xi32>
    %bad2 = call @check2(%res#2, %want2) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<1xi32>
    %u2 = tensor.cast %bad2 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
    %want3 = stablehlo.constant dense<[[false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, true, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [false, false, false, false, false, false, false, false, false, false, true, false, false, false, false, false]]> : tensor<8x16xi1>
    %bad3 = call @check3(%res#3, %want3) : (tensor<8x16xi1>, tensor<8x16xi1>) -> tensor<1xi32>
    %u3 = tensor.cast %bad3 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
    return
  }
}
