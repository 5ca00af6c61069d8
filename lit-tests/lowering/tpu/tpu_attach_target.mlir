// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-attach-target{tpu=v5e})' | FileCheck %s --check-prefix=V5E
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-attach-target{tpu=v6e})' | FileCheck %s --check-prefix=V6E
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-attach-target)' | FileCheck %s --check-prefix=V5E
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-attach-target{tpu=v9x})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %floors-opt %s --pass-pipeline='builtin.module(floors-tpu-select-blocks)' 2>&1 | FileCheck %s --check-prefix=MISSING

// The generation's facts: scoped VMEM, VMEM per core, MXU side.
// V5E: module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>}
// V6E: module attributes {floors.target = #floors.tpu_target<chip = "v6e", vmem_limit_bytes = 33554432, vmem_bytes = 134217728, mxu = 256>}
// UNKNOWN: error: floors-tpu-attach-target: unknown TPU `v9x`: expected one of v4, v5e, v5p, v6e
// MISSING: error: floors-tpu-select-blocks: no #floors.tpu_target on the module: compile with --target tpu or run floors-tpu-attach-target
module {
}
