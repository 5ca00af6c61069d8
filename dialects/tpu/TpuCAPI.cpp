//===- TpuCAPI.cpp - C API of the tpu dialect -----------------------------===//

#include "tpu/TpuCAPI.h"
#include "tpu/TpuDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tpu, tpu, ::floors::tpu::TpuDialect)

int32_t floorsTpuWireVersion(void) { return floors::tpu::kSerdeWireVersion; }

bool floorsTpuSerde(MlirOperation module, bool serialize) {
  if (mlirOperationIsNull(module))
    return false;
  auto mod = llvm::dyn_cast<ModuleOp>(unwrap(module));
  if (!mod) {
    unwrap(module)->emitError("tpu serde runs on a builtin.module");
    return false;
  }
  return succeeded(floors::tpu::runSerde(mod, serialize));
}

void floorsTpuRegisterPasses(void) { floors::tpu::registerSerdePass(); }
