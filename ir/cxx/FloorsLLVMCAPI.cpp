//===- FloorsLLVMCAPI.cpp - LLVM dialect array types ---------------------===//

#include "FloorsLLVMCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;

bool floorsTypeIsALLVMArray(MlirType type) {
  return !mlirTypeIsNull(type) && llvm::isa<LLVM::LLVMArrayType>(unwrap(type));
}

unsigned floorsLLVMArrayTypeGetNumElements(MlirType type) {
  if (auto a = llvm::dyn_cast_or_null<LLVM::LLVMArrayType>(unwrap(type)))
    return a.getNumElements();
  return 0;
}
