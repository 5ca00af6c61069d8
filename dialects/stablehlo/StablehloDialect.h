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
#include "mlir/IR/TensorEncoding.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "stablehlo/StablehloDialect.h.inc"

namespace floors::stablehlo {
/// A uniform quantized integer (`!quant.uniform<i8:f32, 0.1:-30>`) with 2..32
/// storage bits: per-tensor when `perAxis` is false, per-axis when true.
bool isQuantizedInt(mlir::Type type, bool perAxis);
} // namespace floors::stablehlo
#include "stablehlo/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo/StablehloAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo/StablehloTypes.h.inc"

#include "stablehlo/StablehloTraits.h"

#define GET_OP_CLASSES
#include "stablehlo/StablehloOps.h.inc"

#endif // FLOORS_STABLEHLO_DIALECT_H
