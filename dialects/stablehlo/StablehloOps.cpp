//===- StablehloOps.cpp - op definitions ----------------------------------===//
//
// The generated op classes plus the small interface methods. Custom syntax is
// in StablehloAssemblyFormat.cpp, verifiers in StablehloVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloDialect.h"
#include "stablehlo/StablehloAssemblyFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

#define GET_OP_CLASSES
#include "stablehlo/StablehloOps.cpp.inc"

namespace floors::stablehlo {

// JAX's text names constants %cst (floating point, complex) and %c (integers,
// booleans); keeping the names makes our output diff cleanly against JAX's.
void ConstantOp::getAsmResultNames(function_ref<void(Value, StringRef)> setNameFn) {
  Value result = getOperation()->getResult(0);
  setNameFn(result, isa<IntegerType>(getElementTypeOrSelf(result.getType())) ? "c" : "cst");
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

// The decomposition must name a function whose signature is the op's.
LogicalResult CompositeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *callee = symbolTable.lookupNearestSymbolFrom(*this, getDecompositionAttr());
  if (!callee)
    return emitOpError() << "decomposition " << getDecompositionAttr()
                         << " does not name a symbol in scope";
  auto fn = dyn_cast<FunctionOpInterface>(callee);
  if (!fn)
    return emitOpError() << "decomposition " << getDecompositionAttr()
                         << " must name a function";
  if (TypeRange(fn.getArgumentTypes()) != getOperandTypes() ||
      TypeRange(fn.getResultTypes()) != getResultTypes()) {
    auto diag = emitOpError() << "decomposition " << getDecompositionAttr()
                              << " has type " << fn.getFunctionType()
                              << " but the composite has type ";
    diag << FunctionType::get(getContext(), getOperandTypes(), getResultTypes());
    return diag;
  }
  return success();
}

} // namespace floors::stablehlo
