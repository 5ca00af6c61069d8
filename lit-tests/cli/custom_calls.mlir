// REQUIRES: floors-cli
// Custom calls on the CPU floor are XLA FFI calls: the host program keeps
// each `stablehlo.custom_call` (with its attributes) through fusion and the
// CPU lowering, and it becomes a custom-call thunk whose typed attributes are
// encoded once, sorted by name; an output-operand alias becomes a copy into
// the result's buffer, updated in place; calls with side effects are ordered.
// The built-in targets (Sharding, SPMD*) are FFI handlers too.

// RUN: %floors compile %s --emit thunks | FileCheck %s
// RUN: %floors compile %s --emit llvm | FileCheck %s --check-prefix=HOST

// CHECK: // 5 thunks
// CHECK-NEXT: #0 kernel @fusion_0 {{.*}} Write(a[[SUM:[0-9]+]][0+16]) -> [1]
// CHECK-NEXT: #1 custom_call @Sharding {arr = array<i32: 1, 2>, dims = array<i64: 1, 2>, eps = 1e-5 : f32, flag = true, n = -3 : i64, name = "x", nested = {k = 7 : ui8}} (handler: built-in, has_side_effect) Read(a[[SUM]][0+16]) Write({{.*}}) -> [2]
// The spec's form: api_version = 4, a dictionary backend_config. Ordered after #1
// by its side effect alone (no buffer in common).
// CHECK-NEXT: #2 custom_call @SPMDFullToShardShape {scale = 2.5 : f64} (handler: built-in, has_side_effect) Read(a1[0+16]) Write({{.*}}){{$}}
// The alias: %a is copied into the result's buffer, which the call updates in place.
// CHECK-NEXT: #3 copy Read(a0[0+16]) Write(a[[OUT:[0-9]+]][0+16]) -> [4]
// CHECK-NEXT: #4 custom_call @SPMDShardToFullShape {k = 1 : i32} (handler: built-in) Write(a[[OUT]][0+16]){{$}}

// HOST: stablehlo.custom_call @Sharding(%{{.*}}) {backend_config = "", has_side_effect = true, mhlo.backend_config = {arr = dense<[1, 2]> : tensor<2xi32>, dims = array<i64: 1, 2>, eps = 9.99999974E-6 : f32, flag = true, n = -3 : i64, name = "x", nested = {k = 7 : ui8}}
// HOST: stablehlo.custom_call @SPMDFullToShardShape(%arg1) {api_version = 4 : i32, backend_config = {scale = 2.500000e+00 : f64}, has_side_effect = true}
// HOST: stablehlo.custom_call @SPMDShardToFullShape(%arg0) {api_version = 4 : i32, backend_config = "{k = 1 : i32}", output_operand_aliases

func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // As JAX prints jax.ffi.ffi_call: the typed attributes in mhlo.backend_config.
  %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", has_side_effect = true, mhlo.backend_config = {name = "x", eps = 9.99999974E-6 : f32, dims = array<i64: 1, 2>, flag = true, nested = {k = 7 : ui8}, n = -3 : i64, arr = dense<[1, 2]> : tensor<2xi32>}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>]} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.custom_call"(%b) {call_target_name = "SPMDFullToShardShape", api_version = 4 : i32, backend_config = {scale = 2.5 : f64}, has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  // api_version = 4 with the dictionary in a string, as XLA reads it.
  %3 = "stablehlo.custom_call"(%a) {call_target_name = "SPMDShardToFullShape", api_version = 4 : i32, backend_config = "{k = 1 : i32}", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Errors name the call's location.
// RUN: not %floors compile %S/Inputs/custom_call_bad_attr.mlir --emit thunks 2>&1 | FileCheck %s --check-prefix=ATTR
// ATTR: custom_call_bad_attr.mlir:2:8: error: custom_call 'Sharding': attribute `half`: 1.000000e+00 : bf16: only f32 and f64 floats are FFI scalars

// A column-major operand layout is honoured: a transpose kernel puts the
// operand in its physical order before the call (floors-hlo-custom-call-layouts).
// RUN: %floors compile %S/Inputs/custom_call_layout.mlir --emit thunks 2>&1 | FileCheck %s --check-prefix=LAYOUT
// LAYOUT: #0 kernel @fusion_0 grid [1, 1, 1] Read(a0[0+24]) Write([[T:a[0-9]+]][0+24])
// LAYOUT-NEXT: #1 custom_call @Sharding (handler: built-in) Read([[T]][0+24]) Write(a1[0+24])

// RUN: not %floors compile %S/Inputs/custom_call_bad_config.mlir --emit thunks 2>&1 | FileCheck %s --check-prefix=CONFIG
// CONFIG: custom_call_bad_config.mlir:2:8: error: custom_call 'Sharding': backend_config of a typed FFI call (api_version = 4) is not a dictionary: "not a dictionary" (expected attribute value)
// CONFIG-NOT: error

// A target without a handler: an error at the call when the thunks are built ...
// RUN: not %floors compile %S/Inputs/custom_call_no_handler.mlir --emit thunks 2>&1 | FileCheck %s --check-prefix=NOHANDLER
// NOHANDLER: custom_call_no_handler.mlir:3:8: error: no handler is registered for custom_call target 'rms_norm' (registered: SPMDFullToShardShape, SPMDShardToFullShape, Sharding, dce_sink, floors.fft); load one with --ffi-lib
// ... but an artifact needs none until it runs.
// RUN: %floors compile %S/Inputs/custom_call_no_handler.mlir -o %t.floors
// A handler library that is not there.
// RUN: not %floors compile %S/Inputs/custom_call_no_handler.mlir --emit thunks --ffi-lib %t.missing.so:rms=rms_norm 2>&1 | FileCheck %s --check-prefix=NOLIB
// NOLIB: error: FFI library {{.*}}missing.so: no such file
