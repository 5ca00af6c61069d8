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
