/*===- FloorsTpuImportCAPI.h - tpu attribute accessors for tpu_import -*- C -*-===*\
|*                                                                            *|
|* TEMPORARY FALLBACK for src/tpu_import.rs: typed accessors for the `tpu`    *|
|* dialect's attributes and semaphore types, until dialects/tpu/TpuCAPI.h     *|
|* provides them (then delete this file and its .cpp and call those). Reads   *|
|* the generated attribute classes; nothing is parsed back from text.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_CXX_FLOORSTPUIMPORTCAPI_H
#define FLOORS_CXX_FLOORSTPUIMPORTCAPI_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The enum keyword ("vmem", "parallel", "sum", "synchronous", ...) of a
 * #tpu.memory_space / #tpu.dimension_semantics / #tpu.reduction_kind /
 * #tpu.pipeline_mode attribute; an empty string for any other attribute. */
MlirStringRef floorsTpuImportMemorySpace(MlirAttribute attr);
MlirStringRef floorsTpuImportDimensionSemantics(MlirAttribute attr);
MlirStringRef floorsTpuImportReductionKind(MlirAttribute attr);
MlirStringRef floorsTpuImportPipelineMode(MlirAttribute attr);

/* #tpu.dot_dimension_numbers: whether `attr` is one, and its arrays
 * (which: 0 lhs_contracting, 1 rhs_contracting, 2 lhs_non_contracting,
 * 3 rhs_non_contracting, 4 output_dim_order, 5 lhs_batch, 6 rhs_batch):
 * the size, and element `i`. */
bool floorsTpuImportIsADotDimensionNumbers(MlirAttribute attr);
intptr_t floorsTpuImportDotDimensionNumbersSize(MlirAttribute attr, int which);
int64_t floorsTpuImportDotDimensionNumbersElem(MlirAttribute attr, int which, intptr_t i);

/* Not temporary: the keyword ("add", "maximumf", ...) of a #vector.kind
 * attribute (vector.multi_reduction / vector.reduction), which MLIR's C API
 * does not expose; empty for any other attribute. */
MlirStringRef floorsVectorCombiningKind(MlirAttribute attr);

/* 1 for !tpu.semaphore, 2 for !tpu.dma_semaphore, 0 otherwise. */
int floorsTpuImportSemaphoreKind(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_CXX_FLOORSTPUIMPORTCAPI_H */
