/* What LLVM's C API cannot say about a CPU target: whether a CPU name is one
 * LLVM knows for a triple (LLVM itself only warns and ignores a bad name),
 * and how wide its vector registers are. The target for the triple must be
 * initialized (LLVMInitialize<Arch>TargetInfo/Target/TargetMC) first. */
#ifndef FLOORS_TARGET_CAPI_H
#define FLOORS_TARGET_CAPI_H

#include "mlir-c/Support.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum FloorsCpuCheck {
  FLOORS_CPU_OK = 0,
  /* No LLVM target is registered for the triple. */
  FLOORS_CPU_UNKNOWN_TRIPLE = 1,
  /* The target does not know the CPU name. */
  FLOORS_CPU_UNKNOWN_CPU = 2,
} FloorsCpuCheck;

/* Checks `cpu` against the CPUs LLVM knows for `triple` and, when it is
 * valid, writes the widest vector register of (cpu, features) to
 * `*vectorBits`: 512 with +avx512f, 256 with +avx2 or +avx, else 128. */
FloorsCpuCheck floorsTargetCheckCpu(MlirStringRef triple, MlirStringRef cpu,
                                    MlirStringRef features,
                                    unsigned *vectorBits);

/* Whether (cpu, features) on `triple` has `feature` (an LLVM subtarget
 * feature name without the sign, e.g. "avx512bf16"); false for a triple or
 * CPU LLVM does not know. */
bool floorsTargetHasFeature(MlirStringRef triple, MlirStringRef cpu,
                            MlirStringRef features, MlirStringRef feature);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_TARGET_CAPI_H */
