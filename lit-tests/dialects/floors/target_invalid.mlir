// RUN: %floors-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{#floors.cpu_target cannot name the CPU 'host'}}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "host", features = "", vector_bits = 256>} {
}

// -----

// expected-error @+1 {{#floors.cpu_target needs a CPU name}}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "", features = "", vector_bits = 256>} {
}

// -----

// expected-error @+1 {{#floors.cpu_target needs a target triple}}
module attributes {floors.target = #floors.cpu_target<triple = "", cpu = "x86-64-v3", features = "", vector_bits = 256>} {
}

// -----

// expected-error @+1 {{#floors.cpu_target vector_bits must be 128, 256 or 512, got 384}}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "x86-64-v3", features = "", vector_bits = 384>} {
}

// -----

// expected-error @+1 {{'floors.target' must be a #floors.cpu_target, a #floors.tpu_target or a #floors.gpu_target, got "x86-64-v3"}}
module attributes {floors.target = "x86-64-v3"} {
}

// -----

module {
  // expected-error @+1 {{'floors.target' must be on a builtin.module}}
  func.func @f() attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "x86-64-v3", features = "", vector_bits = 256>} {
    return
  }
}

// -----

// A missing parameter is a syntax error.
// expected-error @+1 {{expected ','}}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "x86-64-v3", features = "">} {
}

// -----

// expected-error @+1 {{#floors.tpu_target mxu must be 128 or 256, got 100}}
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 100>} {
}

// -----

// expected-error @+1 {{#floors.tpu_target needs 0 < vmem_limit_bytes <= vmem_bytes, got 268435456 and 134217728}}
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 268435456, vmem_bytes = 134217728, mxu = 128>} {
}

// -----

// expected-error @+1 {{#floors.tpu_target needs a chip (v5e, v5p, v6e)}}
module attributes {floors.target = #floors.tpu_target<chip = "", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} {
}
