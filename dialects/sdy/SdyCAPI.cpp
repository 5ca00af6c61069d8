//===- SdyCAPI.cpp - C API of floors' sdy dialect -------------------------===//

#include "sdy/SdyCAPI.h"
#include "sdy/SdyDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Sdy, sdy, ::floors::sdy::SdyDialect)

bool floorsSdyAttributeIsAVerbatim(MlirAttribute attr) {
  return llvm::isa<::floors::sdy::VerbatimAttr>(unwrap(attr));
}

MlirStringRef floorsSdyVerbatimGetSpec(MlirAttribute attr) {
  return wrap(llvm::cast<::floors::sdy::VerbatimAttr>(unwrap(attr)).getSpec());
}
