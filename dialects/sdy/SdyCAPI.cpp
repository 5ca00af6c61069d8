//===- SdyCAPI.cpp - C API of floors' sdy dialect -------------------------===//

#include "sdy/SdyCAPI.h"
#include "sdy/SdyDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Sdy, sdy, ::floors::sdy::SdyDialect)
