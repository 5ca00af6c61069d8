// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(floors-gpu-resolve-libdevice))' | FileCheck %s

// libdevice calls with a native NVPTX instruction become LLVM intrinsics;
// their declarations go.
// CHECK-LABEL: gpu.module @k
// CHECK-NOT: __nv_
// CHECK: llvm.intr.floor
// CHECK: llvm.intr.sqrt
// CHECK: llvm.fdiv
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @__nv_floorf(f32) -> f32
    llvm.func @__nv_rsqrtf(f32) -> f32
    llvm.func @kernel(%x: f32) -> f32 {
      %0 = llvm.call @__nv_floorf(%x) : (f32) -> f32
      %1 = llvm.call @__nv_rsqrtf(%0) : (f32) -> f32
      llvm.return %1 : f32
    }
  }
}

// -----

// Anything else would be an unresolved extern in the PTX: an error naming it.
module attributes {gpu.container_module} {
  gpu.module @k {
    llvm.func @__nv_tanf(f32) -> f32
    llvm.func @kernel(%x: f32) -> f32 {
      // expected-error @+1 {{@__nv_tanf (libdevice) has no GPU lowering: floors does not link libdevice}}
      %0 = llvm.call @__nv_tanf(%x) : (f32) -> f32
      llvm.return %0 : f32
    }
  }
}
