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

/* `#floors.cpu_target<triple = ..., cpu = ..., features = ..., vector_bits = N>`.
 * Returns a null attribute (and emits an error diagnostic) if the values do
 * not verify: empty triple or cpu, cpu "host", vector_bits not 128/256/512. */
MlirAttribute floorsCpuTargetAttrGet(MlirContext ctx, MlirStringRef triple,
                                     MlirStringRef cpu, MlirStringRef features,
                                     unsigned vectorBits);
/* True if `attr` is a #floors.cpu_target. */
bool floorsAttributeIsACpuTarget(MlirAttribute attr);
/* Parameters of a #floors.cpu_target (undefined for other attributes); the
 * strings live as long as the context. */
MlirStringRef floorsCpuTargetAttrGetTriple(MlirAttribute attr);
MlirStringRef floorsCpuTargetAttrGetCpu(MlirAttribute attr);
MlirStringRef floorsCpuTargetAttrGetFeatures(MlirAttribute attr);
unsigned floorsCpuTargetAttrGetVectorBits(MlirAttribute attr);

/* `#floors.tpu_target<chip = ..., vmem_limit_bytes = N, vmem_bytes = N, mxu = N>`;
 * null (and an error diagnostic) if it does not verify. */
MlirAttribute floorsTpuTargetAttrGet(MlirContext ctx, MlirStringRef chip,
                                     uint64_t vmemLimitBytes,
                                     uint64_t vmemBytes, unsigned mxu);
bool floorsAttributeIsATpuTarget(MlirAttribute attr);
MlirStringRef floorsTpuTargetAttrGetChip(MlirAttribute attr);
uint64_t floorsTpuTargetAttrGetVmemLimitBytes(MlirAttribute attr);
uint64_t floorsTpuTargetAttrGetVmemBytes(MlirAttribute attr);
unsigned floorsTpuTargetAttrGetMxu(MlirAttribute attr);

/* `#floors.gpu_emitter<kind = ..., reason = ..., block = [x, y, z],
 * grid = [x, y, z]>`; null (and an error diagnostic) if it does
 * not verify (unknown kind, a dimension below 1). */
MlirAttribute floorsGpuEmitterAttrGet(MlirContext ctx, MlirStringRef kind,
                                      MlirStringRef reason,
                                      const int64_t *block,
                                      const int64_t *grid);
bool floorsAttributeIsAGpuEmitter(MlirAttribute attr);
MlirStringRef floorsGpuEmitterAttrGetKind(MlirAttribute attr);
MlirStringRef floorsGpuEmitterAttrGetReason(MlirAttribute attr);
/* Writes the three block (or grid) dimensions to `out`. */
void floorsGpuEmitterAttrGetBlock(MlirAttribute attr, int64_t *out);
void floorsGpuEmitterAttrGetGrid(MlirAttribute attr, int64_t *out);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECT_FLOORS_CAPI_H */
