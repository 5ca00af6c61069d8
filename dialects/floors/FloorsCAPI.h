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
/* True if `attr` is a #floors.kind (false for a null attribute). */
bool floorsAttributeIsAFusionKind(MlirAttribute attr);
/* The kind of a #floors.kind (undefined for other attributes). */
FloorsFusionKind floorsFusionKindAttrGetValue(MlirAttribute attr);

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

/* The numbers of a #floors.gpu_target, in the attribute's order (after its
 * chip). */
typedef struct FloorsGpuTargetFields {
  unsigned smCount;
  unsigned warpSize;
  unsigned maxThreadsPerBlock;
  unsigned maxThreadsPerSm;
  uint64_t sharedMemoryPerBlock;
  uint64_t sharedMemoryPerBlockOptin;
  uint64_t sharedMemoryPerSm;
  unsigned registersPerBlock;
  unsigned registersPerThread;
  uint64_t l2CacheBytes;
  unsigned clockKhz;
  uint64_t memoryBandwidth;
} FloorsGpuTargetFields;

/* `#floors.gpu_target<chip = ..., sm_count = N, ...>`; null (and an error
 * diagnostic) if it does not verify, null without one for a null context
 * or null `fields`. */
MlirAttribute floorsGpuTargetAttrGet(MlirContext ctx, MlirStringRef chip,
                                     const FloorsGpuTargetFields *fields);
/* True if `attr` is a #floors.gpu_target (false for a null attribute). */
bool floorsAttributeIsAGpuTarget(MlirAttribute attr);
/* The chip of a #floors.gpu_target (undefined for other attributes); the
 * string lives as long as the context. */
MlirStringRef floorsGpuTargetAttrGetChip(MlirAttribute attr);
/* Writes the numbers of a #floors.gpu_target to `out` (undefined for other
 * attributes). */
void floorsGpuTargetAttrGetFields(MlirAttribute attr,
                                  FloorsGpuTargetFields *out);

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

/* `#floors.tpu_plan<strategy, grid, block>`; null (and an error diagnostic)
 * if it does not verify. */
MlirAttribute floorsTpuPlanAttrGet(MlirContext ctx, MlirStringRef strategy,
                                   intptr_t numAxes, const int64_t *grid,
                                   const int64_t *block);
bool floorsAttributeIsATpuPlan(MlirAttribute attr);
MlirStringRef floorsTpuPlanAttrGetStrategy(MlirAttribute attr);
intptr_t floorsTpuPlanAttrGetNumAxes(MlirAttribute attr);
/* Writes the grid (or block) sizes, NumAxes of them, to `out`. */
void floorsTpuPlanAttrGetGrid(MlirAttribute attr, int64_t *out);
void floorsTpuPlanAttrGetBlock(MlirAttribute attr, int64_t *out);

/* `#floors.library_call<call, batch, m, n, k, transpose_lhs, transpose_rhs,
 * lhs_batch_stride, rhs_batch_stride>`; null (and an error diagnostic) if
 * it does not verify. */
MlirAttribute floorsLibraryCallAttrGet(MlirContext ctx, MlirStringRef call,
                                       uint64_t batch, uint64_t m, uint64_t n,
                                       uint64_t k, bool transposeLhs,
                                       bool transposeRhs,
                                       uint64_t lhsBatchStride,
                                       uint64_t rhsBatchStride);
bool floorsAttributeIsALibraryCall(MlirAttribute attr);
MlirStringRef floorsLibraryCallAttrGetCall(MlirAttribute attr);
/* batch, m, n, k, lhs_batch_stride, rhs_batch_stride in that order. */
void floorsLibraryCallAttrGetSizes(MlirAttribute attr, uint64_t *out);
bool floorsLibraryCallAttrGetTransposeLhs(MlirAttribute attr);
bool floorsLibraryCallAttrGetTransposeRhs(MlirAttribute attr);

/* `#floors.launch_arg<kind, index>` (kind: in, out, tmp). */
MlirAttribute floorsLaunchArgAttrGet(MlirContext ctx, MlirStringRef kind,
                                     uint64_t index);
bool floorsAttributeIsALaunchArg(MlirAttribute attr);
MlirStringRef floorsLaunchArgAttrGetKind(MlirAttribute attr);
uint64_t floorsLaunchArgAttrGetIndex(MlirAttribute attr);

/* `#floors.gpu_launch<module, entry, grid, block, args>`; `args` are
 * `#floors.launch_arg`s. */
MlirAttribute floorsGpuLaunchAttrGet(MlirContext ctx, MlirStringRef module,
                                     MlirStringRef entry, const int64_t *grid,
                                     const int64_t *block, intptr_t numArgs,
                                     const MlirAttribute *args);
bool floorsAttributeIsAGpuLaunch(MlirAttribute attr);
MlirStringRef floorsGpuLaunchAttrGetModule(MlirAttribute attr);
MlirStringRef floorsGpuLaunchAttrGetEntry(MlirAttribute attr);
void floorsGpuLaunchAttrGetGrid(MlirAttribute attr, int64_t *out);
void floorsGpuLaunchAttrGetBlock(MlirAttribute attr, int64_t *out);
intptr_t floorsGpuLaunchAttrGetNumArgs(MlirAttribute attr);
MlirAttribute floorsGpuLaunchAttrGetArg(MlirAttribute attr, intptr_t pos);

/* `#floors.gpu_kernel<fusion, temps, launches>`; `launches` are
 * `#floors.gpu_launch`es. */
MlirAttribute floorsGpuKernelAttrGet(MlirContext ctx, MlirStringRef fusion,
                                     intptr_t numTemps, const int64_t *temps,
                                     intptr_t numLaunches,
                                     const MlirAttribute *launches);
bool floorsAttributeIsAGpuKernel(MlirAttribute attr);
MlirStringRef floorsGpuKernelAttrGetFusion(MlirAttribute attr);
intptr_t floorsGpuKernelAttrGetNumTemps(MlirAttribute attr);
void floorsGpuKernelAttrGetTemps(MlirAttribute attr, int64_t *out);
intptr_t floorsGpuKernelAttrGetNumLaunches(MlirAttribute attr);
MlirAttribute floorsGpuKernelAttrGetLaunch(MlirAttribute attr, intptr_t pos);

/* `#floors.cpu_schedule<kind, tile, inner, k, peel, rows>`; null (and an
 * error diagnostic) if it does not verify. */
MlirAttribute floorsCpuScheduleAttrGet(MlirContext ctx, MlirStringRef kind,
                                       intptr_t numTile, const int64_t *tile,
                                       intptr_t numInner, const int64_t *inner,
                                       uint64_t k, bool peel, intptr_t numRows,
                                       const int64_t *rows);
bool floorsAttributeIsACpuSchedule(MlirAttribute attr);
MlirStringRef floorsCpuScheduleAttrGetKind(MlirAttribute attr);
/* The sizes of `tile` (0), `inner` (1) or `rows` (2): how many, and all of
 * them written to `out`. */
intptr_t floorsCpuScheduleAttrGetNumSizes(MlirAttribute attr, int which);
void floorsCpuScheduleAttrGetSizes(MlirAttribute attr, int which, int64_t *out);
uint64_t floorsCpuScheduleAttrGetK(MlirAttribute attr);
bool floorsCpuScheduleAttrGetPeel(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_DIALECT_FLOORS_CAPI_H */
