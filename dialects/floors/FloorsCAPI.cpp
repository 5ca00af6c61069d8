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
