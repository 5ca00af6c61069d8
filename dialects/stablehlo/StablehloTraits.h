//===- StablehloTraits.h - op traits of the stablehlo dialect ---*- C++ -*-===//
//
// Elementwise shape/type traits. They differ from MLIR's SameOperands* traits
// in their messages, which name the operand that breaks the rule.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_TRAITS_H
#define FLOORS_STABLEHLO_TRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace floors::stablehlo::OpTrait {

mlir::LogicalResult verifySameOperandsAndResultType(mlir::Operation *op);
mlir::LogicalResult verifySameOperandsAndResultShape(mlir::Operation *op);

/// Every operand and result has a compatible shape and the same element type.
template <typename ConcreteType>
class SameOperandsAndResultType
    : public mlir::OpTrait::TraitBase<ConcreteType, SameOperandsAndResultType> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifySameOperandsAndResultType(op);
  }
};

/// Every operand and result has a compatible shape.
template <typename ConcreteType>
class SameOperandsAndResultShape
    : public mlir::OpTrait::TraitBase<ConcreteType, SameOperandsAndResultShape> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifySameOperandsAndResultShape(op);
  }
};

} // namespace floors::stablehlo::OpTrait

#endif // FLOORS_STABLEHLO_TRAITS_H
