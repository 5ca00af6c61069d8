//===- FloorsCAPI.cpp - C API of the floors dialect ----------------------===//
#include "floors/FloorsCAPI.h"
#include "floors/FloorsDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

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
