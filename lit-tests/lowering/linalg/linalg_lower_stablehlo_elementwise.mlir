// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// A binary op becomes a linalg.generic with identity maps into a tensor.empty.
// CHECK-LABEL: func.func @add
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: stablehlo
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Inside a floors.fusion body too; the fusion stays, its body is lowered.
// CHECK-LABEL: func.func @in_fusion
// CHECK: floors.fusion
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: floors.yield
// CHECK-NOT: stablehlo
func.func @in_fusion(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xf32>) -> tensor<4xf32> {
    %1 = stablehlo.exponential %a : tensor<4xf32>
    floors.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Integer divide guards against x/0 (→ -1) and INT_MIN/-1 (→ INT_MIN).
// CHECK-LABEL: func.func @idiv
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: arith.divsi
// CHECK: arith.select
// CHECK: arith.select
func.func @idiv(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = stablehlo.divide %a, %b : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Shifts: an amount >= the bit width gives 0 (logical) or the sign fill.
// CHECK-LABEL: func.func @shifts
// CHECK: arith.cmpi uge
// CHECK: arith.shli
// CHECK: arith.cmpi uge
// CHECK: arith.shrsi
func.func @shifts(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = stablehlo.shift_left %a, %b : tensor<4xi32>
  %1 = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// maximum propagates NaN (arith.maximumf); round_nearest_even is math.roundeven.
// CHECK-LABEL: func.func @fmax_round
// CHECK: arith.maximumf
// CHECK: math.roundeven
func.func @fmax_round(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.maximum %a, %b : tensor<4xf32>
  %1 = stablehlo.round_nearest_even %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// float sign: NaN and ±0 pass through, otherwise copysign(1, x).
// CHECK-LABEL: func.func @sign
// CHECK: math.copysign
// CHECK: arith.cmpf ueq
// CHECK: arith.select
func.func @sign(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.sign %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// compare: FLOAT → cmpf, SIGNED → cmpi s*, TOTALORDER → integer keys.
// CHECK-LABEL: func.func @compares
// CHECK: arith.cmpf olt
// CHECK: arith.cmpi slt
// CHECK: arith.bitcast {{.*}} : f32 to i32
// CHECK: arith.cmpi slt
func.func @compares(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xi32>, %d: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %c, %d, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// convert float → int: NaN → 0, saturating; bool → int is zext; int → bool is != 0.
// CHECK-LABEL: func.func @converts
// CHECK: arith.cmpf uno
// CHECK: arith.fptosi
// CHECK: arith.extui {{.*}} : i1 to i32
// CHECK: arith.cmpi ne
func.func @converts(%a: tensor<4xf32>, %b: tensor<4xi1>, %c: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>) {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi32>
  %1 = stablehlo.convert %b : (tensor<4xi1>) -> tensor<4xi32>
  %2 = stablehlo.convert %c : (tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>
}

// -----

// bf16 arithmetic goes through f32.
// CHECK-LABEL: func.func @bf16
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: arith.mulf {{.*}} : f32
// CHECK: arith.truncf {{.*}} : f32 to bf16
func.func @bf16(%a: tensor<4xbf16>, %b: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = stablehlo.multiply %a, %b : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// select with a scalar predicate and clamp with scalar bounds broadcast through
// their indexing maps.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @scalar_operands
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #{{.*}}, #{{.*}}, #{{.*}}]
// CHECK: arith.select
// CHECK: linalg.generic {indexing_maps = [#[[SCALAR]], #{{.*}}, #[[SCALAR]], #{{.*}}]
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @scalar_operands(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4xf32>
  %1 = stablehlo.clamp %lo, %a, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
