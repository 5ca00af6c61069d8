// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-fuse)' | FileCheck %s

// An elementwise chain is one loop fusion; the root is the hero.
// CHECK-LABEL: func.func @chain
// CHECK: %[[F:.*]] = floors.fusion loop hero "stablehlo.tanh" (%[[A:.*]] = %arg0 : tensor<8x16xf32>, %[[B:.*]] = %arg1 : tensor<8x16xf32>) -> tensor<8x16xf32> {
// CHECK-NEXT: stablehlo.multiply %[[A]], %[[B]]
// CHECK-NEXT: stablehlo.exponential
// CHECK-NEXT: stablehlo.tanh
// CHECK-NEXT: floors.yield
// CHECK: return %[[F]]
func.func @chain(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.exponential %0 : tensor<8x16xf32>
  %2 = stablehlo.tanh %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

// Constants and broadcasts of them are duplicated into each fusion that uses
// them, not materialised; the originals disappear.
// CHECK-LABEL: func.func @dup_cheap
// CHECK-NOT: stablehlo.constant
// CHECK: floors.fusion loop hero "stablehlo.maximum"
// CHECK: stablehlo.constant dense<0.000000e+00>
// CHECK: stablehlo.broadcast_in_dim
// CHECK: floors.fusion loop hero "stablehlo.minimum"
// CHECK: stablehlo.constant dense<0.000000e+00>
// CHECK: stablehlo.broadcast_in_dim
func.func @dup_cheap(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.maximum %arg0, %0 : tensor<8xf32>
  %2 = stablehlo.minimum %arg0, %0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// An expensive op with consumers in two fusions is never duplicated: it is
// computed once, in the first consumer's fusion, which also writes it out
// for the later one (producer-consumer multi-output fusion).
// CHECK-LABEL: func.func @no_dup_expensive_shape
// CHECK: %[[E:.*]]:2 = floors.fusion loop hero "stablehlo.exponential"
// CHECK-COUNT-1: stablehlo.exponential
// CHECK: stablehlo.add
// CHECK: floors.yield
// CHECK-NOT: stablehlo.exponential
// CHECK: floors.fusion loop hero "stablehlo.multiply" ({{.*}} = %[[E]]#0
// CHECK-NOT: stablehlo.exponential
func.func @no_dup_expensive_shape(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = stablehlo.exponential %arg0 : tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  %2 = stablehlo.multiply %0, %arg0 : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Reduction input fusion: elementwise producers join the reduction.
// CHECK-LABEL: func.func @reduce_input
// CHECK: floors.fusion reduction hero "stablehlo.reduce" (%{{.*}} = %arg0 : tensor<8x16xf32>) -> tensor<8xf32>
// CHECK: stablehlo.exponential
// CHECK: stablehlo.reduce
// CHECK-NEXT: floors.yield
// CHECK-NOT: floors.fusion
func.func @reduce_input(%arg0: tensor<8x16xf32>) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.exponential %arg0 : tensor<8x16xf32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Elementwise epilogue after a reduction (mean = sum / n) joins it.
// CHECK-LABEL: func.func @reduce_epilogue
// CHECK: floors.fusion reduction hero "stablehlo.reduce"
// CHECK: stablehlo.reduce
// CHECK: stablehlo.divide
// CHECK-NEXT: floors.yield
// CHECK-NOT: floors.fusion
func.func @reduce_epilogue(%arg0: tensor<8x16xf32>) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %n = stablehlo.constant dense<1.600000e+01> : tensor<8xf32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.divide %0, %n : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Softmax: max, exp, sum and divide run row by row: one fusion, two reductions.
// CHECK-LABEL: func.func @softmax
// CHECK: floors.fusion reduction hero "stablehlo.reduce"
// CHECK-COUNT-2: stablehlo.reduce
// CHECK: stablehlo.divide
// CHECK-NEXT: floors.yield
// CHECK-NOT: floors.fusion
func.func @softmax(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.subtract %arg0, %1 : tensor<4x8xf32>
  %3 = stablehlo.exponential %2 : tensor<4x8xf32>
  %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %6 = stablehlo.divide %3, %5 : tensor<4x8xf32>
  return %6 : tensor<4x8xf32>
}

// -----

// Reductions over different dimensions do not share a fusion.
// CHECK-LABEL: func.func @reduce_other_dims
// CHECK: floors.fusion reduction
// CHECK: floors.fusion reduction
func.func @reduce_other_dims(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.subtract %arg0, %1 : tensor<4x8xf32>
  %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %5 = stablehlo.multiply %2, %4 : tensor<4x8xf32>
  return %5 : tensor<4x8xf32>
}

// -----

// A dot takes its bias add and activation (output fusion) but not the
// producers of its operands.
// CHECK-LABEL: func.func @gemm_epilogue
// CHECK: %[[X:.*]] = floors.fusion loop hero "stablehlo.exponential"
// CHECK: floors.fusion gemm hero "stablehlo.dot_general" ({{.*}} = %[[X]] : tensor<4x8xf32>
// CHECK: stablehlo.dot_general
// CHECK: stablehlo.add
// CHECK: stablehlo.maximum
// CHECK-NEXT: floors.yield
func.func @gemm_epilogue(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>) -> tensor<4x16xf32> {
  %x = stablehlo.exponential %arg0 : tensor<4x8xf32>
  %0 = stablehlo.dot_general %x, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<4x16xf32>
  %3 = stablehlo.maximum %2, %cst : tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// -----

// A reduction of a dot's result is not an epilogue: two fusions.
// CHECK-LABEL: func.func @gemm_then_reduce
// CHECK: floors.fusion gemm
// CHECK: floors.fusion reduction
func.func @gemm_then_reduce(%arg0: tensor<4x8xf32>, %arg1: tensor<8x16xf32>) -> tensor<4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Convolution with a bias epilogue.
// CHECK-LABEL: func.func @conv_bias
// CHECK: floors.fusion convolution hero "stablehlo.convolution"
// CHECK: stablehlo.convolution
// CHECK: stablehlo.add
// CHECK-NEXT: floors.yield
func.func @conv_bias(%arg0: tensor<1x8x8x4xf32>, %arg1: tensor<3x3x4x4xf32>, %arg2: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = stablehlo.broadcast_in_dim %arg2, dims = [3] : (tensor<4xf32>) -> tensor<1x8x8x4xf32>
  %2 = stablehlo.add %0, %1 : tensor<1x8x8x4xf32>
  return %2 : tensor<1x8x8x4xf32>
}

// -----

// scatter and sort are fusions of their own: nothing fuses into them.
// CHECK-LABEL: func.func @scatter_sort
// CHECK: floors.fusion scatter hero "stablehlo.scatter"
// CHECK: "stablehlo.scatter"
// CHECK: floors.yield
// CHECK: floors.fusion loop hero "stablehlo.sort"
// CHECK-NEXT: "stablehlo.sort"
func.func @scatter_sort(%arg0: tensor<10x6xf32>, %arg1: tensor<4x1xi32>, %arg2: tensor<4x6xf32>) -> tensor<10x6xf32> {
  %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<10x6xf32>, tensor<4x1xi32>, tensor<4x6xf32>) -> tensor<10x6xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<10x6xf32>) -> tensor<10x6xf32>
  return %1 : tensor<10x6xf32>
}

// -----

// while stays an op; its body is fused recursively.
// CHECK-LABEL: func.func @while_body
// CHECK: stablehlo.while
// CHECK: cond {
// CHECK: floors.fusion loop hero "stablehlo.compare"
// CHECK: } do {
// CHECK: floors.fusion loop hero "stablehlo.add"
// CHECK: floors.fusion loop hero "stablehlo.tanh"
func.func @while_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<8xf32>
  cond {
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    %2 = stablehlo.tanh %iterArg_0 : tensor<8xf32>
    stablehlo.return %1, %2 : tensor<i32>, tensor<8xf32>
  }
  return %0#1 : tensor<8xf32>
}

// -----

// Kinds from the hero: a transpose of the minor dimension, a concatenate root.
// CHECK-LABEL: func.func @kinds
// CHECK: floors.fusion transpose hero "stablehlo.transpose"
// CHECK: floors.fusion concatenate hero "stablehlo.concatenate"
func.func @kinds(%arg0: tensor<4x6xf32>, %arg1: tensor<3x6xf32>) -> (tensor<6x4xf32>, tensor<7x6xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<4x6xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %2 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
  return %1, %2 : tensor<6x4xf32>, tensor<7x6xf32>
}

// -----

// An expensive value under an expanding broadcast is not recomputed in a loop
// fusion: the transpose breaks the row-wise form, so exp stays outside.
// CHECK-LABEL: func.func @no_recompute
// CHECK: %[[E:.*]] = floors.fusion loop hero "stablehlo.exponential"
// CHECK: floors.fusion transpose hero "stablehlo.transpose" ({{.*}} = %[[E]]
// CHECK-NOT: stablehlo.exponential
// CHECK: stablehlo.broadcast_in_dim
// CHECK: stablehlo.add
func.func @no_recompute(%arg0: tensor<8x16xf32>, %arg1: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %0 = stablehlo.exponential %arg0 : tensor<8x16xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<16x8xf32>) -> tensor<4x16x8xf32>
  %3 = stablehlo.add %2, %arg1 : tensor<4x16x8xf32>
  return %3 : tensor<4x16x8xf32>
}

// -----

// Ops of other dialects and custom calls are left alone.
// CHECK-LABEL: func.func @opaque
// CHECK: stablehlo.custom_call
// CHECK-NOT: floors.fusion
func.func @opaque(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Sibling reductions over the same input and rows merge into one fusion with
// two results, so the input is read once.
// CHECK-LABEL: func.func @siblings
// CHECK: %[[F:.*]]:2 = floors.fusion reduction hero "stablehlo.reduce" (%{{.*}} = %arg0 : tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-COUNT-2: stablehlo.reduce
// CHECK: floors.yield
// CHECK-NOT: floors.fusion
// CHECK: return %[[F]]#{{.}}, %[[F]]#{{.}}
func.func @siblings(%arg0: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// Siblings over different rows stay apart.
// CHECK-LABEL: func.func @not_siblings
// CHECK: floors.fusion reduction
// CHECK: floors.fusion reduction
func.func @not_siblings(%arg0: tensor<8x16xf32>) -> (tensor<16xf32>, tensor<8xf32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
  %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %0, %1 : tensor<16xf32>, tensor<8xf32>
}

// -----

// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-fuse-singletons)' | FileCheck %s --check-prefix=ONE
// With fusion switched off every compute op is a kernel of its own.
// ONE-LABEL: func.func @singletons
// ONE: floors.fusion loop hero "stablehlo.multiply"
// ONE: floors.fusion loop hero "stablehlo.exponential"
// ONE: floors.fusion reduction hero "stablehlo.reduce"
func.func @singletons(%arg0: tensor<8x16xf32>) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<8x16xf32>
  %1 = stablehlo.exponential %0 : tensor<8x16xf32>
  %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// A chain whose values are reused a few ops later is one fusion (the
// size limit's split is in tests/fusion.rs: a 1,000-op chain).
// CHECK-LABEL: func.func @reused_chain
// CHECK-COUNT-1: floors.fusion
// CHECK-NOT: floors.fusion
func.func @reused_chain(%a: tensor<16xf32>) -> tensor<16xf32> {
  %v0 = stablehlo.add %a, %a : tensor<16xf32>
  %v1 = stablehlo.multiply %v0, %v0 : tensor<16xf32>
  %v2 = stablehlo.add %v1, %v0 : tensor<16xf32>
  %v3 = stablehlo.multiply %v2, %v0 : tensor<16xf32>
  %v4 = stablehlo.add %v3, %v1 : tensor<16xf32>
  return %v4 : tensor<16xf32>
}


// -----

// An iota read outside every fusion (a result: `jnp.arange`; a while
// loop's initial value) is a fusion of its own; one that only fusions read
// is cloned into them, and a constant result stays a host constant.
// CHECK-LABEL: func.func @lone_iota
// CHECK:       %[[I:.*]] = floors.fusion loop hero "stablehlo.iota" () -> tensor<10xi32> {
// CHECK-NEXT:    stablehlo.iota dim = 0 : tensor<10xi32>
// CHECK:       %[[W:.*]] = floors.fusion loop hero "stablehlo.iota" () -> tensor<4xf32> {
// CHECK:       stablehlo.while(%{{.*}} = %[[W]])
// CHECK:       %[[C:.*]] = stablehlo.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK:       return %[[I]], %{{.*}}, %[[C]] :
func.func @lone_iota(%x: tensor<4xf32>) -> (tensor<10xi32>, tensor<4xf32>, tensor<3xf32>) {
  %0 = stablehlo.iota dim = 0 : tensor<10xi32>
  %1 = stablehlo.iota dim = 0 : tensor<4xf32>
  %2 = stablehlo.while(%v = %1) : tensor<4xf32>
   cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %w = stablehlo.add %v, %x : tensor<4xf32>
    stablehlo.return %w : tensor<4xf32>
  }
  %3 = stablehlo.constant dense<1.0> : tensor<3xf32>
  return %0, %2, %3 : tensor<10xi32>, tensor<4xf32>, tensor<3xf32>
}

// -----

// A dynamic_update_slice takes the elementwise ops computing its update
// (XLA's in-place DUS fusion: the product is written straight into the
// result's window), but not those computing the updated operand, nor a
// producer whose value is also read outside.
// CHECK-LABEL: func.func @update_in_place
// CHECK:       %[[X:.*]] = floors.fusion loop hero "stablehlo.add"
// CHECK:       floors.fusion loop hero "stablehlo.dynamic_update_slice" ({{.*}}%[[X]] : tensor<8x16xf32>{{.*}}) -> tensor<8x16xf32> {
// CHECK-NOT:     stablehlo.add
// CHECK:         stablehlo.multiply
// CHECK-NEXT:    stablehlo.dynamic_update_slice
// CHECK:       %[[U:.*]] = floors.fusion loop hero "stablehlo.exponential"
// CHECK:       floors.fusion loop hero "stablehlo.dynamic_update_slice" ({{.*}}%[[U]] : tensor<2x16xf32>{{.*}}) -> tensor<8x16xf32> {
// CHECK-NOT:     stablehlo.exponential
// CHECK:         stablehlo.dynamic_update_slice
func.func @update_in_place(%x: tensor<8x16xf32>, %u: tensor<2x16xf32>, %i: tensor<i32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<2x16xf32>) {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %two = stablehlo.constant dense<2.0> : tensor<2x16xf32>
  %x2 = stablehlo.add %x, %x : tensor<8x16xf32>
  %u2 = stablehlo.multiply %u, %two : tensor<2x16xf32>
  %0 = stablehlo.dynamic_update_slice %x2, %u2, %i, %z : (tensor<8x16xf32>, tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %e = stablehlo.exponential %u : tensor<2x16xf32>
  %1 = stablehlo.dynamic_update_slice %x, %e, %i, %z : (tensor<8x16xf32>, tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0, %1, %e : tensor<8x16xf32>, tensor<8x16xf32>, tensor<2x16xf32>
}

// -----

// A scatter takes the cheap ops computing its indices and updates (JAX's
// wrap of negative indices), never its scattered-into operand's producers
// nor an expensive op (an index is read once per window element).
// CHECK-LABEL: func.func @scatter_takes_its_index_wrap
// CHECK:       %[[X:.*]] = floors.fusion loop hero "stablehlo.add"
// CHECK:       %[[E:.*]] = floors.fusion loop hero "stablehlo.exponential"
// CHECK:       floors.fusion scatter hero "stablehlo.scatter" ({{.*}}%[[X]] : tensor<16xf32>{{.*}}%[[E]] : tensor<16xf32>{{.*}}) -> tensor<16xf32> {
// CHECK:         stablehlo.compare
// CHECK:         stablehlo.select
// CHECK:         stablehlo.broadcast_in_dim
// CHECK-NOT:     stablehlo.exponential
// CHECK:         stablehlo.scatter
func.func @scatter_takes_its_index_wrap(%x: tensor<16xf32>, %idx: tensor<16xi32>, %u: tensor<16xf32>) -> tensor<16xf32> {
  %x2 = stablehlo.add %x, %x : tensor<16xf32>
  %z = stablehlo.constant dense<0> : tensor<16xi32>
  %n = stablehlo.constant dense<16> : tensor<16xi32>
  %lt = stablehlo.compare LT, %idx, %z, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
  %w = stablehlo.add %idx, %n : tensor<16xi32>
  %s = stablehlo.select %lt, %w, %idx : tensor<16xi1>, tensor<16xi32>
  %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
  %e = stablehlo.exponential %u : tensor<16xf32>
  %0 = "stablehlo.scatter"(%x2, %b, %e) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %r = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<16xf32>, tensor<16x1xi32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}
