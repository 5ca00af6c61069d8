// RUN: %floors-opt %s %linalg-e2e-pipeline | %run-main | FileCheck %s --check-prefix=EXEC

// End to end: corpus program gather_rows.

// EXEC: sizes = [1]
// EXEC-NEXT: [0]
// corpus program gather_rows (inputs and XLA's outputs from the corpus)
module {
  func.func public @compute(%arg0: tensor<10x6xf32>, %arg1: tensor<5xi32>) -> (tensor<5x6xf32> {jax.result_info = "result"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<10x6xf32>, tensor<5xi32>) -> tensor<5x6xf32>
    return %0 : tensor<5x6xf32>
  }
  func.func private @_take(%arg0: tensor<10x6xf32>, %arg1: tensor<5xi32>) -> tensor<5x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<5x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<5x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<5x1xi1>, tensor<i1>) -> tensor<5xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<5x1xi32>) -> tensor<5x6xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<5xi1>) -> tensor<5x6xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<5x6xi1>, tensor<5x6xf32>
    return %16 : tensor<5x6xf32>
  }
  func.func private @_where(%arg0: tensor<5xi1>, %arg1: tensor<5xi32>, %arg2: tensor<5xi32>) -> tensor<5xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5xi1>, tensor<5xi32>
    return %0 : tensor<5xi32>
  }
  func.func private @check0(%got: tensor<5x6xf32>, %want: tensor<5x6xf32>) -> tensor<1xi32> {
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
    %in0 = stablehlo.constant dense<"0xA498BCBF51D14D3F815DB33FCE64313FF44088BF7702173F4E7D58BF49E882BED919943C1773CC3EFAFA9FBFBB8CB03F9D66CA3FEB689FBF52F969BF6A14FD3D6A09A83F8C145A40320DB33E7DE103BF903C16BD16F31DBE932A2F3F0224953E5E5CF7BEA8AF0E3F600ADCBEF4811E3FD08AA63E2D4C9ABF6106D9BD5E17123FF9F5F0BF67AB85BE46EC07BF411AD1BF45D3753E5705D93EFA5B153F46079E3F3307D93E3736923F26A8DB3F7E91893FA3B2383ECD8AC73FECF6093F0C9B38BE0F0F8E3F711651BF15130BBD9AC45EBD122E4EBE15B9D5BE769FE9BE295CA53F5261DF3FCEEEB5BF866AC9BFDA94AC3E"> : tensor<10x6xf32>
    %in1 = stablehlo.constant dense<"0x0300000000000000090000000300000005000000"> : tensor<5xi32>
    %res = call @compute(%in0, %in1) : (tensor<10x6xf32>, tensor<5xi32>) -> (tensor<5x6xf32>)
    %want0 = stablehlo.constant dense<"0x320DB33E7DE103BF903C16BD16F31DBE932A2F3F0224953EA498BCBF51D14D3F815DB33FCE64313FF44088BF7702173F769FE9BE295CA53F5261DF3FCEEEB5BF866AC9BFDA94AC3E320DB33E7DE103BF903C16BD16F31DBE932A2F3F0224953E6106D9BD5E17123FF9F5F0BF67AB85BE46EC07BF411AD1BF"> : tensor<5x6xf32>
    %bad0 = call @check0(%res, %want0) : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<1xi32>
    %u0 = tensor.cast %bad0 : tensor<1xi32> to tensor<*xi32>
    call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
    return
  }
}
