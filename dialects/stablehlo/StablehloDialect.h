//===- StablehloDialect.h - the stablehlo dialect ---------------*- C++ -*-===//
//
// Public C++ header: the dialect, its enums, attributes, types and ops.
// Generated .inc files come from mlir-tblgen on StablehloOps.td (build.rs).
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_DIALECT_H
#define FLOORS_STABLEHLO_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo/StablehloDialect.h.inc"
#include "stablehlo/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo/StablehloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo/StablehloTypes.h.inc"

#include "stablehlo/StablehloTraits.h"

#define GET_OP_CLASSES
#include "stablehlo/StablehloOps.h.inc"

#endif // FLOORS_STABLEHLO_DIALECT_H
