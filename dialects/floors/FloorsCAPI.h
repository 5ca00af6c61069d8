/* C API of the floors dialect: the handle and the few queries Rust needs. */
#ifndef FLOORS_DIALECT_FLOORS_CAPI_H
#define FLOORS_DIALECT_FLOORS_CAPI_H

#include "mlir-c/IR.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Floors, floors);

/* Fusion kinds, numbered as in FloorsOps.td. */
typedef enum FloorsFusionKind {
  FLOORS_FUSION_LOOP = 0,
  FLOORS_FUSION_REDUCTION = 1,
  FLOORS_FUSION_TRANSPOSE = 2,
  FLOORS_FUSION_CONCATENATE = 3,
  FLOORS_FUSION_INPUT_SLICES = 4,
  FLOORS_FUSION_SCATTER = 5,
  FLOORS_FUSION_GEMM = 6,
  FLOORS_FUSION_CONVOLUTION = 7,
  FLOORS_FUSION_CUSTOM = 8,
} FloorsFusionKind;

/* True if `op` is a floors.fusion. */
bool floorsOperationIsAFusion(MlirOperation op);
/* The kind of a floors.fusion (undefined for other ops). */
FloorsFusionKind floorsFusionGetKind(MlirOperation op);
/* Replaces the kind of a floors.fusion. */
void floorsFusionSetKind(MlirOperation op, FloorsFusionKind kind);
/* `#floors.kind<...>` attribute for a kind. */
MlirAttribute floorsFusionKindAttrGet(MlirContext ctx, FloorsFusionKind kind);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECT_FLOORS_CAPI_H */
