// RUN: %floors-opt %s -split-input-file | %floors-opt -split-input-file | FileCheck %s
// RUN: %floors-opt %s -split-input-file --mlir-print-op-generic | %floors-opt -split-input-file | FileCheck %s

// #floors.cpu_target: the target as data on the module (`floors.target`).

// CHECK: module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "x86-64-v3", features = "", vector_bits = 256>}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "x86-64-v3", features = "", vector_bits = 256>} {
}

// -----

// CHECK: module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "znver4", features = "+avx512f,-avx512vl", vector_bits = 512>}
module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu", cpu = "znver4", features = "+avx512f,-avx512vl", vector_bits = 512>} {
}

// -----

// Other floors.* attributes are not the verifier's business.
// CHECK: module attributes {floors.max_workgroups = 4 : i64, floors.target = #floors.cpu_target<triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-v2", features = "", vector_bits = 128>}
module attributes {floors.max_workgroups = 4 : i64, floors.target = #floors.cpu_target<triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-v2", features = "", vector_bits = 128>} {
}
