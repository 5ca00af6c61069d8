// RUN: %floors-opt %s -verify-diagnostics -split-input-file --pass-pipeline='builtin.module(floors-gpu-rewrite-gemm{mode=fast})'
// RUN: %floors-opt %s -verify-diagnostics -split-input-file --pass-pipeline='builtin.module(floors-gpu-rewrite-gemm)'

// A mode the pass does not know is an error naming the choices (first RUN);
// so is a bad floors.gpu_gemm_mode on the module (second RUN).
// expected-error @+1 {{unknown gemm mode `fast`: expected auto, library or emitter}}
module attributes {floors.gpu_gemm_mode = "fast"} {
  func.func @f() {
    return
  }
}
