//===- FloorsDialect.h - the fusion container dialect -----------*- C++ -*-===//
#ifndef FLOORS_DIALECT_FLOORS_H
#define FLOORS_DIALECT_FLOORS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "floors/FloorsDialect.h.inc"
#include "floors/FloorsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "floors/FloorsAttrs.h.inc"

#define GET_OP_CLASSES
#include "floors/FloorsOps.h.inc"

#endif // FLOORS_DIALECT_FLOORS_H
