// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: gather of 2-D windows with clamped start indices; scatter-add whose out-of-bounds
// update windows are skipped (XLA).

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// gather/scatter
module {
  func.func public @compute(%arg0: tensor<5x6xf32>, %arg1: tensor<4x2xi32>, %arg2: tensor<4x2x2xf32>) -> (tensor<4x2x3xf32>, tensor<5x6xf32>) {
    %v1 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3>}> : (tensor<5x6xf32>, tensor<4x2xi32>) -> (tensor<4x2x3xf32>)
    %v2 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = false}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<5x6xf32>, tensor<4x2xi32>, tensor<4x2x2xf32>) -> (tensor<5x6xf32>)
    return %v1, %v2 : tensor<4x2x3xf32>, tensor<5x6xf32>
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
  func.func private @check1(%got: tensor<5x6xf32>, %want: tensor<5x6xf32>) -> tensor<1xi32> {
    %d = stablehlo.subtract %got, %want : tensor<5x6xf32>
    %ad = stablehlo.abs %d : tensor<5x6xf32>
    %aw = stablehlo.abs %want : tensor<5x6xf32>
    %rt = stablehlo.constant dense<0.000000e+00> : tensor<5x6xf32>
    %at = stablehlo.constant dense<0.000000e+00> : tensor<5x6xf32>
    %rel = stablehlo.multiply %aw, %rt : tensor<5x6xf32>
    %tol = stablehlo.add %rel, %at : tensor<5x6xf32>
    %le = "stablehlo.compare"(%ad, %tol) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x6xi1>
    %gn = "stablehlo.compare"(%got, %got) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x6xi1>
    %wn = "stablehlo.compare"(%want, %want) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x6xi1>
    %eq = "stablehlo.compare"(%got, %want) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x6xi1>
    %bn = stablehlo.and %gn, %wn : tensor<5x6xi1>
    %ok0 = stablehlo.or %le, %bn : tensor<5x6xi1>
    %ok = stablehlo.or %ok0, %eq : tensor<5x6xi1>
    %bad = stablehlo.not %ok : tensor<5x6xi1>
    %c = "stablehlo.convert"(%bad) : (tensor<5x6xi1>) -> tensor<5x6xi32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %n = "stablehlo.reduce"(%c, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<5x6xi32>, tensor<i32>) -> tensor<i32>
    %r = "stablehlo.reshape"(%n) : (tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func @main() {
    %in0 = stablehlo.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E841"> : tensor<5x6xf32>
    %in1 = stablehlo.constant dense<"0x000000000100000004000000050000000200000000000000FDFFFFFF09000000"> : tensor<4x2xi32>
    %in2 = stablehlo.constant dense<"0x0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"> : tensor<4x2x2xf32>
    %res:2 = call @compute(%in0, %in1, %in2) : (tensor<5x6xf32>, tensor<4x2xi32>, tensor<4x2x2xf32>) -> (tensor<4x2x3xf32>, tensor<5x6xf32>)
    %want0 = stablehlo.constant dense<"0x0000803F00000040000040400000E04000000041000010410000A8410000B0410000B8410000D8410000E0410000E84100004041000050410000604100009041000098410000A04100004040000080400000A040000010410000204100003041"> : tensor<4x2x3xf32>
    %bad0 = call @check0(%res#0, %want0) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    %want1 = stablehlo.constant dense<"0x00000000000000400000404000004040000080400000A0400000C0400000004100001041000010410000204100003041000050410000604100006041000070410000804100008841000098410000A0410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E841"> : tensor<5x6xf32>
    %bad1 = call @check1(%res#1, %want1) : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<1xi32>
    %u1 = tensor.cast %bad1 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
    return
  }
}
