/*===- TpuCAPI.h - C API of the tpu (Mosaic) dialect ---------------*- C -*-===*\
|*                                                                            *|
|* Plain C (bindgen reads it): the dialect handle, the wire-form conversion   *|
|* and the registration of the floors-tpu-serde pass.                         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_DIALECTS_TPU_TPUCAPI_H
#define FLOORS_DIALECTS_TPU_TPUCAPI_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__tpu__() */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Tpu, tpu);

/* The wire version floors writes (jaxlib 0.10.2's: 11). */
int32_t floorsTpuWireVersion(void);

/* Converts `module` (a builtin.module) in place between normal form and the
 * wire form (serialize = true: normal -> wire). Serializing needs a context
 * that allows unregistered dialects. Returns false, after emitting error
 * diagnostics, when the module cannot be converted; it may then be partly
 * converted. */
bool floorsTpuSerde(MlirOperation module, bool serialize);

/* Registers the pass `floors-tpu-serde` (options serialize, target-version)
 * in MLIR's registry; idempotent. */
void floorsTpuRegisterPasses(void);

/* Typed accessors (for src/tpu_import.rs): the keyword of a
 * #tpu.memory_space / dimension_semantics / reduction_kind / pipeline_mode
 * attribute ("" for any other attribute). */
MlirStringRef floorsTpuMemorySpaceName(MlirAttribute attr);
MlirStringRef floorsTpuDimensionSemanticsName(MlirAttribute attr);
MlirStringRef floorsTpuReductionKindName(MlirAttribute attr);
MlirStringRef floorsTpuPipelineModeName(MlirAttribute attr);

/* #tpu.element_window<[pad_low], [pad_high]>: its two lists (0 low, 1 high);
 * sizes 0 and elements 0 for any other attribute. */
bool floorsTpuAttributeIsAElementWindow(MlirAttribute attr);
intptr_t floorsTpuElementWindowSize(MlirAttribute attr, int which);
int64_t floorsTpuElementWindowElem(MlirAttribute attr, int which, intptr_t i);

/* #tpu.dot_dimension_numbers: its seven lists by index (0 lhs contracting,
 * 1 rhs contracting, 2 lhs non-contracting, 3 rhs non-contracting, 4 output
 * dim order, 5 lhs batch, 6 rhs batch). */
bool floorsTpuAttributeIsADotDimensionNumbers(MlirAttribute attr);
intptr_t floorsTpuDotDimensionNumbersSize(MlirAttribute attr, int which);
int64_t floorsTpuDotDimensionNumbersElem(MlirAttribute attr, int which, intptr_t i);
/* Builds a #tpu.dot_dimension_numbers from its seven lists, numbered as
 * above: list `which` is `lists[which][0 .. sizes[which]]`. Null if a size
 * is negative, a non-empty list has a null pointer, or the output dim
 * order is not (operand, dim) pairs with operand 0 or 1. */
MlirAttribute floorsTpuDotDimensionNumbersGet(MlirContext ctx,
                                              const int64_t *const *lists,
                                              const intptr_t *sizes);

/* #tpu.contract_precision<fp32> (fp32 = true) or <bf16>; and the keyword
 * of one ("" for any other attribute). */
MlirAttribute floorsTpuContractPrecisionGet(MlirContext ctx, bool fp32);
MlirStringRef floorsTpuContractPrecisionName(MlirAttribute attr);

/* 1 for !tpu.semaphore, 2 for !tpu.dma_semaphore, 0 otherwise. */
int floorsTpuSemaphoreKind(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECTS_TPU_TPUCAPI_H */
