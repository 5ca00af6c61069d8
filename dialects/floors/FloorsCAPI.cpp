//===- FloorsCAPI.cpp - C API of the floors dialect ----------------------===//
#include "floors/FloorsCAPI.h"
#include "floors/FloorsDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"

using namespace floors::fusion;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Floors, floors, FloorsDialect)

bool floorsOperationIsAFusion(MlirOperation op) {
  return llvm::isa<FusionOp>(unwrap(op));
}

FloorsFusionKind floorsFusionGetKind(MlirOperation op) {
  return static_cast<FloorsFusionKind>(
      llvm::cast<FusionOp>(unwrap(op)).getKind());
}

void floorsFusionSetKind(MlirOperation op, FloorsFusionKind kind) {
  llvm::cast<FusionOp>(unwrap(op)).setKind(static_cast<FusionKind>(kind));
}

MlirAttribute floorsFusionKindAttrGet(MlirContext ctx, FloorsFusionKind kind) {
  return wrap(FusionKindAttr::get(unwrap(ctx), static_cast<FusionKind>(kind)));
}

bool floorsAttributeIsAFusionKind(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && llvm::isa<FusionKindAttr>(unwrap(attr));
}

FloorsFusionKind floorsFusionKindAttrGetValue(MlirAttribute attr) {
  return static_cast<FloorsFusionKind>(
      llvm::cast<FusionKindAttr>(unwrap(attr)).getValue());
}

MlirAttribute floorsCpuTargetAttrGet(MlirContext ctx, MlirStringRef triple,
                                     MlirStringRef cpu, MlirStringRef features,
                                     unsigned vectorBits) {
  mlir::MLIRContext *context = unwrap(ctx);
  return wrap(CpuTargetAttr::getChecked(
      [context] { return mlir::emitError(mlir::UnknownLoc::get(context)); },
      context, unwrap(triple), unwrap(cpu), unwrap(features), vectorBits));
}

bool floorsAttributeIsACpuTarget(MlirAttribute attr) {
  return llvm::isa<CpuTargetAttr>(unwrap(attr));
}

MlirStringRef floorsCpuTargetAttrGetTriple(MlirAttribute attr) {
  return wrap(llvm::cast<CpuTargetAttr>(unwrap(attr)).getTriple());
}

MlirStringRef floorsCpuTargetAttrGetCpu(MlirAttribute attr) {
  return wrap(llvm::cast<CpuTargetAttr>(unwrap(attr)).getCpu());
}

MlirStringRef floorsCpuTargetAttrGetFeatures(MlirAttribute attr) {
  return wrap(llvm::cast<CpuTargetAttr>(unwrap(attr)).getFeatures());
}

unsigned floorsCpuTargetAttrGetVectorBits(MlirAttribute attr) {
  return llvm::cast<CpuTargetAttr>(unwrap(attr)).getVectorBits();
}

MlirAttribute floorsTpuTargetAttrGet(MlirContext ctx, MlirStringRef chip,
                                     uint64_t vmemLimitBytes,
                                     uint64_t vmemBytes, unsigned mxu) {
  mlir::MLIRContext *context = unwrap(ctx);
  return wrap(TpuTargetAttr::getChecked(
      [context] { return mlir::emitError(mlir::UnknownLoc::get(context)); },
      context, unwrap(chip), vmemLimitBytes, vmemBytes, mxu));
}

bool floorsAttributeIsATpuTarget(MlirAttribute attr) {
  return llvm::isa<TpuTargetAttr>(unwrap(attr));
}

MlirStringRef floorsTpuTargetAttrGetChip(MlirAttribute attr) {
  return wrap(llvm::cast<TpuTargetAttr>(unwrap(attr)).getChip());
}

uint64_t floorsTpuTargetAttrGetVmemLimitBytes(MlirAttribute attr) {
  return llvm::cast<TpuTargetAttr>(unwrap(attr)).getVmemLimitBytes();
}

uint64_t floorsTpuTargetAttrGetVmemBytes(MlirAttribute attr) {
  return llvm::cast<TpuTargetAttr>(unwrap(attr)).getVmemBytes();
}

unsigned floorsTpuTargetAttrGetMxu(MlirAttribute attr) {
  return llvm::cast<TpuTargetAttr>(unwrap(attr)).getMxu();
}

MlirAttribute floorsGpuTargetAttrGet(MlirContext ctx, MlirStringRef chip,
                                     const FloorsGpuTargetFields *fields) {
  if (mlirContextIsNull(ctx) || !fields)
    return {nullptr};
  mlir::MLIRContext *context = unwrap(ctx);
  const FloorsGpuTargetFields &f = *fields;
  return wrap(GpuTargetAttr::getChecked(
      [context] { return mlir::emitError(mlir::UnknownLoc::get(context)); },
      context, unwrap(chip), f.smCount, f.warpSize, f.maxThreadsPerBlock,
      f.maxThreadsPerSm, f.sharedMemoryPerBlock, f.sharedMemoryPerBlockOptin,
      f.sharedMemoryPerSm, f.registersPerBlock, f.registersPerThread,
      f.l2CacheBytes, f.clockKhz, f.memoryBandwidth));
}

bool floorsAttributeIsAGpuTarget(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && llvm::isa<GpuTargetAttr>(unwrap(attr));
}

MlirStringRef floorsGpuTargetAttrGetChip(MlirAttribute attr) {
  return wrap(llvm::cast<GpuTargetAttr>(unwrap(attr)).getChip());
}

void floorsGpuTargetAttrGetFields(MlirAttribute attr,
                                  FloorsGpuTargetFields *out) {
  auto a = llvm::cast<GpuTargetAttr>(unwrap(attr));
  *out = FloorsGpuTargetFields{a.getSmCount(),
                               a.getWarpSize(),
                               a.getMaxThreadsPerBlock(),
                               a.getMaxThreadsPerSm(),
                               a.getSharedMemoryPerBlock(),
                               a.getSharedMemoryPerBlockOptin(),
                               a.getSharedMemoryPerSm(),
                               a.getRegistersPerBlock(),
                               a.getRegistersPerThread(),
                               a.getL2CacheBytes(),
                               a.getClockKhz(),
                               a.getMemoryBandwidth()};
}

MlirAttribute floorsGpuEmitterAttrGet(MlirContext ctx, MlirStringRef kind,
                                      MlirStringRef reason,
                                      const int64_t *block,
                                      const int64_t *grid) {
  mlir::MLIRContext *context = unwrap(ctx);
  return wrap(GpuEmitterAttr::getChecked(
      [context] { return mlir::emitError(mlir::UnknownLoc::get(context)); },
      context, unwrap(kind), unwrap(reason),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(block, 3)),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(grid, 3))));
}

bool floorsAttributeIsAGpuEmitter(MlirAttribute attr) {
  return llvm::isa<GpuEmitterAttr>(unwrap(attr));
}

MlirStringRef floorsGpuEmitterAttrGetKind(MlirAttribute attr) {
  return wrap(llvm::cast<GpuEmitterAttr>(unwrap(attr)).getKind());
}

MlirStringRef floorsGpuEmitterAttrGetReason(MlirAttribute attr) {
  return wrap(llvm::cast<GpuEmitterAttr>(unwrap(attr)).getReason());
}

void floorsGpuEmitterAttrGetBlock(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<GpuEmitterAttr>(unwrap(attr)).getBlock().asArrayRef(),
             out);
}

void floorsGpuEmitterAttrGetGrid(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<GpuEmitterAttr>(unwrap(attr)).getGrid().asArrayRef(),
             out);
}

// The attributes' builders verify what they build: a value that does not
// verify is an error diagnostic at an unknown location and a null result.
template <typename Attr, typename... Args>
static MlirAttribute getChecked(MlirContext ctx, Args &&...args) {
  mlir::MLIRContext *context = unwrap(ctx);
  return wrap(Attr::getChecked(
      [context] { return mlir::emitError(mlir::UnknownLoc::get(context)); },
      context, std::forward<Args>(args)...));
}

static llvm::SmallVector<mlir::Attribute>
unwrapAll(const MlirAttribute *attrs, intptr_t n) {
  llvm::SmallVector<mlir::Attribute> out;
  for (intptr_t i = 0; i < n; ++i)
    out.push_back(unwrap(attrs[i]));
  return out;
}

MlirAttribute floorsTpuPlanAttrGet(MlirContext ctx, MlirStringRef strategy,
                                   intptr_t numAxes, const int64_t *grid,
                                   const int64_t *block) {
  mlir::MLIRContext *context = unwrap(ctx);
  return getChecked<TpuPlanAttr>(
      ctx, unwrap(strategy),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(grid, numAxes)),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(block, numAxes)));
}

bool floorsAttributeIsATpuPlan(MlirAttribute attr) {
  return llvm::isa<TpuPlanAttr>(unwrap(attr));
}

MlirStringRef floorsTpuPlanAttrGetStrategy(MlirAttribute attr) {
  return wrap(llvm::cast<TpuPlanAttr>(unwrap(attr)).getStrategy());
}

intptr_t floorsTpuPlanAttrGetNumAxes(MlirAttribute attr) {
  return llvm::cast<TpuPlanAttr>(unwrap(attr)).getGrid().size();
}

void floorsTpuPlanAttrGetGrid(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<TpuPlanAttr>(unwrap(attr)).getGrid().asArrayRef(), out);
}

void floorsTpuPlanAttrGetBlock(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<TpuPlanAttr>(unwrap(attr)).getBlock().asArrayRef(),
             out);
}

MlirAttribute floorsLibraryCallAttrGet(MlirContext ctx, MlirStringRef call,
                                       uint64_t batch, uint64_t m, uint64_t n,
                                       uint64_t k, bool transposeLhs,
                                       bool transposeRhs,
                                       uint64_t lhsBatchStride,
                                       uint64_t rhsBatchStride) {
  mlir::MLIRContext *context = unwrap(ctx);
  return getChecked<LibraryCallAttr>(
      ctx, unwrap(call), batch, m, n, k,
      mlir::BoolAttr::get(context, transposeLhs),
      mlir::BoolAttr::get(context, transposeRhs), lhsBatchStride,
      rhsBatchStride);
}

bool floorsAttributeIsALibraryCall(MlirAttribute attr) {
  return llvm::isa<LibraryCallAttr>(unwrap(attr));
}

MlirStringRef floorsLibraryCallAttrGetCall(MlirAttribute attr) {
  return wrap(llvm::cast<LibraryCallAttr>(unwrap(attr)).getCall());
}

void floorsLibraryCallAttrGetSizes(MlirAttribute attr, uint64_t *out) {
  auto a = llvm::cast<LibraryCallAttr>(unwrap(attr));
  uint64_t sizes[] = {a.getBatch(), a.getM(), a.getN(), a.getK(),
                      a.getLhsBatchStride(), a.getRhsBatchStride()};
  llvm::copy(sizes, out);
}

bool floorsLibraryCallAttrGetTransposeLhs(MlirAttribute attr) {
  return llvm::cast<LibraryCallAttr>(unwrap(attr)).getTransposeLhs().getValue();
}

bool floorsLibraryCallAttrGetTransposeRhs(MlirAttribute attr) {
  return llvm::cast<LibraryCallAttr>(unwrap(attr)).getTransposeRhs().getValue();
}

MlirAttribute floorsLaunchArgAttrGet(MlirContext ctx, MlirStringRef kind,
                                     uint64_t index) {
  return getChecked<LaunchArgAttr>(ctx, unwrap(kind), index);
}

bool floorsAttributeIsALaunchArg(MlirAttribute attr) {
  return llvm::isa<LaunchArgAttr>(unwrap(attr));
}

MlirStringRef floorsLaunchArgAttrGetKind(MlirAttribute attr) {
  return wrap(llvm::cast<LaunchArgAttr>(unwrap(attr)).getKind());
}

uint64_t floorsLaunchArgAttrGetIndex(MlirAttribute attr) {
  return llvm::cast<LaunchArgAttr>(unwrap(attr)).getIndex();
}

MlirAttribute floorsGpuLaunchAttrGet(MlirContext ctx, MlirStringRef module,
                                     MlirStringRef entry, const int64_t *grid,
                                     const int64_t *block, intptr_t numArgs,
                                     const MlirAttribute *args) {
  mlir::MLIRContext *context = unwrap(ctx);
  return getChecked<GpuLaunchAttr>(
      ctx, unwrap(module), unwrap(entry),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(grid, 3)),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(block, 3)),
      mlir::ArrayAttr::get(context, unwrapAll(args, numArgs)));
}

bool floorsAttributeIsAGpuLaunch(MlirAttribute attr) {
  return llvm::isa<GpuLaunchAttr>(unwrap(attr));
}

MlirStringRef floorsGpuLaunchAttrGetModule(MlirAttribute attr) {
  return wrap(llvm::cast<GpuLaunchAttr>(unwrap(attr)).getModule());
}

MlirStringRef floorsGpuLaunchAttrGetEntry(MlirAttribute attr) {
  return wrap(llvm::cast<GpuLaunchAttr>(unwrap(attr)).getEntry());
}

void floorsGpuLaunchAttrGetGrid(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<GpuLaunchAttr>(unwrap(attr)).getGrid().asArrayRef(),
             out);
}

void floorsGpuLaunchAttrGetBlock(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<GpuLaunchAttr>(unwrap(attr)).getBlock().asArrayRef(),
             out);
}

intptr_t floorsGpuLaunchAttrGetNumArgs(MlirAttribute attr) {
  return llvm::cast<GpuLaunchAttr>(unwrap(attr)).getArgs().size();
}

MlirAttribute floorsGpuLaunchAttrGetArg(MlirAttribute attr, intptr_t pos) {
  return wrap(llvm::cast<GpuLaunchAttr>(unwrap(attr)).getArgs()[pos]);
}

MlirAttribute floorsGpuKernelAttrGet(MlirContext ctx, MlirStringRef fusion,
                                     intptr_t numTemps, const int64_t *temps,
                                     intptr_t numLaunches,
                                     const MlirAttribute *launches) {
  mlir::MLIRContext *context = unwrap(ctx);
  return getChecked<GpuKernelAttr>(
      ctx, unwrap(fusion),
      mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(temps, numTemps)),
      mlir::ArrayAttr::get(context, unwrapAll(launches, numLaunches)));
}

bool floorsAttributeIsAGpuKernel(MlirAttribute attr) {
  return llvm::isa<GpuKernelAttr>(unwrap(attr));
}

MlirStringRef floorsGpuKernelAttrGetFusion(MlirAttribute attr) {
  return wrap(llvm::cast<GpuKernelAttr>(unwrap(attr)).getFusion());
}

intptr_t floorsGpuKernelAttrGetNumTemps(MlirAttribute attr) {
  return llvm::cast<GpuKernelAttr>(unwrap(attr)).getTemps().size();
}

void floorsGpuKernelAttrGetTemps(MlirAttribute attr, int64_t *out) {
  llvm::copy(llvm::cast<GpuKernelAttr>(unwrap(attr)).getTemps().asArrayRef(),
             out);
}

intptr_t floorsGpuKernelAttrGetNumLaunches(MlirAttribute attr) {
  return llvm::cast<GpuKernelAttr>(unwrap(attr)).getLaunches().size();
}

MlirAttribute floorsGpuKernelAttrGetLaunch(MlirAttribute attr, intptr_t pos) {
  return wrap(llvm::cast<GpuKernelAttr>(unwrap(attr)).getLaunches()[pos]);
}

MlirAttribute floorsCpuScheduleAttrGet(MlirContext ctx, MlirStringRef kind,
                                       intptr_t numTile, const int64_t *tile,
                                       intptr_t numInner, const int64_t *inner,
                                       uint64_t k, bool peel, intptr_t numRows,
                                       const int64_t *rows) {
  mlir::MLIRContext *context = unwrap(ctx);
  auto sizes = [&](const int64_t *p, intptr_t n) {
    return mlir::DenseI64ArrayAttr::get(context, llvm::ArrayRef(p, n));
  };
  return getChecked<CpuScheduleAttr>(
      ctx, unwrap(kind), sizes(tile, numTile), sizes(inner, numInner), k,
      mlir::BoolAttr::get(context, peel), sizes(rows, numRows));
}

bool floorsAttributeIsACpuSchedule(MlirAttribute attr) {
  return llvm::isa<CpuScheduleAttr>(unwrap(attr));
}

MlirStringRef floorsCpuScheduleAttrGetKind(MlirAttribute attr) {
  return wrap(llvm::cast<CpuScheduleAttr>(unwrap(attr)).getKind());
}

static mlir::DenseI64ArrayAttr scheduleSizes(MlirAttribute attr, int which) {
  auto s = llvm::cast<CpuScheduleAttr>(unwrap(attr));
  return which == 0 ? s.getTile() : which == 1 ? s.getInner() : s.getRows();
}

intptr_t floorsCpuScheduleAttrGetNumSizes(MlirAttribute attr, int which) {
  return scheduleSizes(attr, which).size();
}

void floorsCpuScheduleAttrGetSizes(MlirAttribute attr, int which,
                                   int64_t *out) {
  llvm::copy(scheduleSizes(attr, which).asArrayRef(), out);
}

uint64_t floorsCpuScheduleAttrGetK(MlirAttribute attr) {
  return llvm::cast<CpuScheduleAttr>(unwrap(attr)).getK();
}

bool floorsCpuScheduleAttrGetPeel(MlirAttribute attr) {
  return llvm::cast<CpuScheduleAttr>(unwrap(attr)).getPeel().getValue();
}
