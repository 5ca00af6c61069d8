// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=znver4},floors-cpu-attach-target{cpu=x86-64-v3})' | FileCheck %s --check-prefix=V3
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v4})' | FileCheck %s --check-prefix=V4
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v2})' | FileCheck %s --check-prefix=V2
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=skylake-avx512})' | FileCheck %s --check-prefix=SKX
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=host})' 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=pentium-9000})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target)' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize))' 2>&1 | FileCheck %s --check-prefix=MISSING
// REQUIRES: x86_64

// The named CPU with its default features, for the host's triple; a second
// attach replaces the first.
// V3: module attributes {floors.target = #floors.cpu_target<triple = "{{.*}}", cpu = "x86-64-v3", features = "", vector_bits = 256>}
// V4: module attributes {floors.target = #floors.cpu_target<triple = "{{.*}}", cpu = "x86-64-v4", features = "", vector_bits = 512>}
// V2: module attributes {floors.target = #floors.cpu_target<triple = "{{.*}}", cpu = "x86-64-v2", features = "", vector_bits = 128>}
// SKX: module attributes {floors.target = #floors.cpu_target<triple = "{{.*}}", cpu = "skylake-avx512", features = "", vector_bits = 512>}
// HOST: error: floors-cpu-attach-target: refuses cpu=host: only the driver probes the machine
// UNKNOWN: error: floors-cpu-attach-target: unknown CPU `pentium-9000` for {{.*}}: expected host or an LLVM CPU name, e.g. x86-64, x86-64-v2, x86-64-v3, x86-64-v4
// NONE: error: floors-cpu-attach-target: needs a CPU: floors-cpu-attach-target{cpu=NAME}
// MISSING: error: floors-cpu-select-schedule: no floors.target on the module: compile with --cpu or run floors-cpu-attach-target
module {
  func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
    return %x : tensor<16xf32>
  }
}
