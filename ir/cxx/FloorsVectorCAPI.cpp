//===- FloorsVectorCAPI.cpp - the vector dialect's combining kind --------===//

#include "FloorsVectorCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

static MlirStringRef kindKeyword(llvm::StringRef s) { return MlirStringRef{s.data(), s.size()}; }

MlirStringRef floorsVectorCombiningKind(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return kindKeyword("");
  if (auto a = llvm::dyn_cast<vector::CombiningKindAttr>(unwrap(attr)))
    return kindKeyword(vector::stringifyCombiningKind(a.getValue()));
  return kindKeyword("");
}
