// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-inline)' | FileCheck %s

// Nested private helpers are inlined into the public entry point and deleted.
// CHECK-LABEL: module @nested
// CHECK: func.func public @main(%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[M]], %[[X]]
// CHECK-NEXT: %[[M2:.*]] = arith.mulf %[[A]], %[[A]]
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[M2]], %[[A]]
// CHECK-NEXT: return %[[A2]]
// CHECK-NOT: func.func private
// CHECK-NOT: call
module @nested {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @helper(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = call @helper(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @helper(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @inner(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = arith.addf %0, %arg0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @inner(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = arith.mulf %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// Calls inside regions are inlined too; several results are forwarded.
// CHECK-LABEL: module @in_region
// CHECK: scf.if
// CHECK-NEXT: %[[N:.*]] = arith.negf
// CHECK-NEXT: scf.yield %[[N]] : f32
// CHECK-NOT: call
module @in_region {
  func.func public @main(%c: i1, %x: f32) -> f32 {
    %r = scf.if %c -> f32 {
      %a, %b = func.call @two(%x) : (f32) -> (f32, f32)
      scf.yield %a : f32
    } else {
      scf.yield %x : f32
    }
    return %r : f32
  }
  func.func private @two(%x: f32) -> (f32, f32) {
    %n = arith.negf %x : f32
    return %n, %n : f32, f32
  }
}

// -----

// Public callees are left alone (they are entry points of their own); an
// unused private helper is deleted; a multi-block helper is kept and called.
// CHECK-LABEL: module @keep
// CHECK: func.func public @main
// CHECK: call @pub
// CHECK: call @multi
// CHECK: func.func public @pub
// CHECK-NOT: @unused
// CHECK: func.func private @multi
module @keep {
  func.func public @main(%x: f32) -> f32 {
    %0 = call @pub(%x) : (f32) -> f32
    %1 = call @multi(%0) : (f32) -> f32
    return %1 : f32
  }
  func.func public @pub(%x: f32) -> f32 {
    return %x : f32
  }
  func.func private @unused(%x: f32) -> f32 {
    return %x : f32
  }
  func.func private @multi(%x: f32) -> f32 {
    cf.br ^bb1(%x : f32)
  ^bb1(%y: f32):
    return %y : f32
  }
}

// -----

// A private helper referenced from an attribute is not deleted.
// CHECK-LABEL: module @attr_ref
// CHECK: func.func private @kept
module @attr_ref attributes {floors.keep = [@kept]} {
  func.func public @main(%x: f32) -> f32 {
    return %x : f32
  }
  func.func private @kept(%x: f32) -> f32 {
    return %x : f32
  }
}

// -----

// A stablehlo.composite is its decomposition (the spec: a call of it), so
// it is inlined like a call, with its composite attributes dropped; the
// decomposition is deleted once nothing refers to it.
// CHECK-LABEL: module @composite
// CHECK: func.func public @main(%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[T:.*]] = stablehlo.tanh %[[X]]
// CHECK-NEXT: %[[M:.*]] = stablehlo.multiply %[[X]], %[[T]]
// CHECK-NEXT: return %[[M]]
// CHECK-NOT: composite
// CHECK-NOT: func.func private
module @composite {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.composite "my.act" %arg0 {composite_attributes = {approximate = false}, decomposition = @my.act} : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @my.act(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
