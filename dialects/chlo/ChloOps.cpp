//===- ChloOps.cpp - chlo dialect: registration and verifiers -----------===//
//
// Everything ODS cannot express: the broadcasting rules of broadcast_*, the
// top_k shape rules, constant_like. Debian's MLIR has no assertions, so every
// invalid op must be rejected here (or by the ODS constraints) before any
// code looks at it.
//
//===----------------------------------------------------------------------===//

#include "chlo/ChloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <string>

using namespace mlir;
using namespace floors::chlo;

#include "chlo/ChloDialect.cpp.inc"
#include "chlo/ChloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "chlo/ChloAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "chlo/ChloTypes.cpp.inc"

void ChloDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "chlo/ChloOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "chlo/ChloAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// `tensor<2x?xf32>`-style rendering of a shape for messages.
std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(shape[i]) ? std::string("?")
                                         : std::to_string(shape[i]);
  }
  return s + "]";
}

/// Broadcasts two dimension sizes. Returns false if both are static,
/// different, and neither is 1.
bool broadcastDim(int64_t a, int64_t b, int64_t &out) {
  if (a == b) {
    out = a;
    return true;
  }
  if (a == 1) {
    out = b;
    return true;
  }
  if (b == 1) {
    out = a;
    return true;
  }
  if (ShapedType::isDynamic(a)) {
    out = b; // a must be b (or 1) at run time.
    return true;
  }
  if (ShapedType::isDynamic(b)) {
    out = a;
    return true;
  }
  return false;
}

/// numpy-style broadcast of several shapes (right-aligned). Emits an error
/// naming the two operands that clash.
LogicalResult numpyBroadcast(Operation *op, ArrayRef<RankedTensorType> types,
                             ArrayRef<StringRef> names,
                             SmallVectorImpl<int64_t> &out) {
  int64_t rank = 0;
  for (RankedTensorType t : types)
    rank = std::max(rank, t.getRank());
  out.assign(rank, 1);
  // Which operand fixed each output dim (for messages); -1 = none yet.
  SmallVector<int, 4> owner(rank, -1);
  for (size_t k = 0; k < types.size(); ++k) {
    ArrayRef<int64_t> shape = types[k].getShape();
    int64_t offset = rank - static_cast<int64_t>(shape.size());
    for (size_t i = 0; i < shape.size(); ++i) {
      int64_t d = offset + static_cast<int64_t>(i);
      int64_t merged;
      if (owner[d] < 0) {
        out[d] = shape[i];
        owner[d] = static_cast<int>(k);
        continue;
      }
      if (!broadcastDim(out[d], shape[i], merged)) {
        return op->emitOpError()
               << "operands are not broadcast-compatible: "
               << names[owner[d]] << " has size " << out[d] << " and "
               << names[k] << " has size " << shape[i]
               << " at result dimension " << d
               << " (numpy-style, right-aligned; sizes must be equal or 1)";
      }
      if (merged != out[d] && !ShapedType::isDynamic(merged))
        owner[d] = static_cast<int>(k);
      out[d] = merged;
    }
  }
  return success();
}

/// Checks `result` against the broadcast shape `expected`.
LogicalResult checkResultShape(Operation *op, RankedTensorType result,
                               ArrayRef<int64_t> expected) {
  if (result.getRank() != static_cast<int64_t>(expected.size()))
    return op->emitOpError()
           << "result rank " << result.getRank()
           << " does not match the broadcast rank " << expected.size()
           << " (broadcast shape " << shapeString(expected) << ")";
  for (size_t i = 0; i < expected.size(); ++i) {
    int64_t r = result.getDimSize(i);
    if (!ShapedType::isDynamic(r) && !ShapedType::isDynamic(expected[i]) &&
        r != expected[i])
      return op->emitOpError()
             << "result dimension " << i << " has size " << r
             << " but the broadcast shape " << shapeString(expected)
             << " has size " << expected[i];
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared verifiers
//===----------------------------------------------------------------------===//

LogicalResult floors::chlo::verifyUnaryElementwiseOp(Operation *op,
                                                     bool sameElementType) {
  auto operandTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (failed(verifyCompatibleShape(operandTy.getShape(), resultTy.getShape())))
    return op->emitOpError()
           << "result shape " << shapeString(resultTy.getShape())
           << " does not match operand shape "
           << shapeString(operandTy.getShape());
  if (sameElementType &&
      operandTy.getElementType() != resultTy.getElementType())
    return op->emitOpError()
           << "result element type " << resultTy.getElementType()
           << " must equal the operand element type "
           << operandTy.getElementType();
  return success();
}

LogicalResult floors::chlo::verifyBinaryElementwiseOp(Operation *op,
                                                      StringRef lhsName,
                                                      StringRef rhsName) {
  auto lhsTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhsTy = cast<RankedTensorType>(op->getOperand(1).getType());
  auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());
  if (lhsTy.getElementType() != rhsTy.getElementType())
    return op->emitOpError()
           << "operand '" << lhsName << "' (" << lhsTy.getElementType()
           << ") and operand '" << rhsName << "' ("
           << rhsTy.getElementType() << ") must have the same element type";
  if (resultTy.getElementType() != lhsTy.getElementType())
    return op->emitOpError()
           << "result element type " << resultTy.getElementType()
           << " must equal the operand element type "
           << lhsTy.getElementType();
  if (failed(verifyCompatibleShape(lhsTy.getShape(), rhsTy.getShape())))
    return op->emitOpError()
           << "operand '" << lhsName << "' shape "
           << shapeString(lhsTy.getShape()) << " and operand '" << rhsName
           << "' shape " << shapeString(rhsTy.getShape())
           << " must match (this op does not broadcast)";
  if (failed(verifyCompatibleShape(lhsTy.getShape(), resultTy.getShape())))
    return op->emitOpError()
           << "result shape " << shapeString(resultTy.getShape())
           << " does not match operand shape "
           << shapeString(lhsTy.getShape());
  return success();
}

LogicalResult
floors::chlo::verifyBroadcastBinaryOp(Operation *op,
                                      DenseI64ArrayAttr broadcastDimensions,
                                      bool predicateResult) {
  auto lhsTy = cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhsTy = cast<RankedTensorType>(op->getOperand(1).getType());
  auto resultTy = cast<RankedTensorType>(op->getResult(0).getType());

  if (lhsTy.getElementType() != rhsTy.getElementType())
    return op->emitOpError()
           << "lhs element type " << lhsTy.getElementType()
           << " and rhs element type " << rhsTy.getElementType()
           << " must be equal";
  if (!predicateResult &&
      resultTy.getElementType() != lhsTy.getElementType())
    return op->emitOpError()
           << "result element type " << resultTy.getElementType()
           << " must equal the operand element type "
           << lhsTy.getElementType();

  SmallVector<int64_t> shape;
  if (!broadcastDimensions) {
    RankedTensorType types[] = {lhsTy, rhsTy};
    StringRef names[] = {"lhs", "rhs"};
    if (failed(numpyBroadcast(op, types, names, shape)))
      return failure();
    return checkResultShape(op, resultTy, shape);
  }

  // Explicit broadcast_dimensions: the lower-rank operand (rhs when the
  // ranks are equal) maps its dim i to dim broadcast_dimensions[i] of the
  // higher-rank operand.
  bool lhsIsLower = lhsTy.getRank() < rhsTy.getRank();
  RankedTensorType lower = lhsIsLower ? lhsTy : rhsTy;
  RankedTensorType higher = lhsIsLower ? rhsTy : lhsTy;
  StringRef lowerName = lhsIsLower ? "lhs" : "rhs";
  StringRef higherName = lhsIsLower ? "rhs" : "lhs";
  ArrayRef<int64_t> dims = broadcastDimensions.asArrayRef();
  if (static_cast<int64_t>(dims.size()) != lower.getRank())
    return op->emitOpError()
           << "broadcast_dimensions has " << dims.size()
           << " entries but must have one per dimension of the lower-rank "
              "operand ("
           << lowerName << ", rank " << lower.getRank() << ")";
  shape.assign(higher.getShape().begin(), higher.getShape().end());
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = dims[i];
    if (d < 0 || d >= higher.getRank())
      return op->emitOpError()
             << "broadcast_dimensions[" << i << "] = " << d
             << " is out of range for the higher-rank operand ("
             << higherName << ", rank " << higher.getRank() << ")";
    if (i > 0 && d <= dims[i - 1])
      return op->emitOpError()
             << "broadcast_dimensions must be strictly increasing, but "
                "broadcast_dimensions["
             << i << "] = " << d << " follows " << dims[i - 1];
    int64_t merged;
    if (!broadcastDim(higher.getDimSize(d), lower.getDimSize(i), merged))
      return op->emitOpError()
             << "operands are not broadcast-compatible: " << lowerName
             << " dimension " << i << " (size " << lower.getDimSize(i)
             << ") maps to " << higherName << " dimension " << d << " (size "
             << higher.getDimSize(d)
             << ") via broadcast_dimensions; sizes must be equal or 1";
    shape[d] = merged;
  }
  return checkResultShape(op, resultTy, shape);
}

//===----------------------------------------------------------------------===//
// broadcast_compare
//===----------------------------------------------------------------------===//

LogicalResult BroadcastCompareOp::verify() {
  if (failed(verifyBroadcastBinaryOp(getOperation(),
                                     getBroadcastDimensionsAttr(),
                                     /*predicateResult=*/true)))
    return failure();
  std::optional<ComparisonType> ct = getCompareType();
  if (!ct || *ct == ComparisonType::NOTYPE)
    return success();
  Type elt = getLhs().getType().getElementType();
  bool ok = false;
  const char *expected = "";
  if (isa<FloatType>(elt)) {
    ok = *ct == ComparisonType::FLOAT || *ct == ComparisonType::TOTALORDER;
    expected = "FLOAT or TOTALORDER";
  } else if (isa<ComplexType>(elt)) {
    ok = *ct == ComparisonType::FLOAT;
    expected = "FLOAT";
  } else if (elt.isInteger(1) || elt.isUnsignedInteger()) {
    ok = *ct == ComparisonType::UNSIGNED;
    expected = "UNSIGNED";
  } else {
    ok = *ct == ComparisonType::SIGNED;
    expected = "SIGNED";
  }
  if (!ok)
    return emitOpError() << "compare_type " << stringifyComparisonType(*ct)
                         << " does not fit operand element type " << elt
                         << " (expected " << expected << " or NOTYPE)";
  return success();
}

//===----------------------------------------------------------------------===//
// broadcast_select
//===----------------------------------------------------------------------===//

LogicalResult BroadcastSelectOp::verify() {
  auto predTy = getPred().getType();
  auto trueTy = getOnTrue().getType();
  auto falseTy = getOnFalse().getType();
  auto resultTy = getResult().getType();
  if (trueTy.getElementType() != falseTy.getElementType())
    return emitOpError() << "on_true element type "
                         << trueTy.getElementType()
                         << " and on_false element type "
                         << falseTy.getElementType() << " must be equal";
  if (resultTy.getElementType() != trueTy.getElementType())
    return emitOpError() << "result element type "
                         << resultTy.getElementType()
                         << " must equal the on_true/on_false element type "
                         << trueTy.getElementType();
  RankedTensorType types[] = {predTy, trueTy, falseTy};
  StringRef names[] = {"pred", "on_true", "on_false"};
  SmallVector<int64_t> shape;
  if (failed(numpyBroadcast(getOperation(), types, names, shape)))
    return failure();
  return checkResultShape(getOperation(), resultTy, shape);
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::verify() {
  auto operandTy = getOperand().getType();
  auto valuesTy = getValues().getType();
  auto indicesTy = getIndices().getType();
  int64_t k = getK();
  if (operandTy.getRank() < 1)
    return emitOpError() << "operand must have rank >= 1 (top_k works on the "
                            "last dimension), but it is a rank-0 tensor";
  if (k < 0)
    return emitOpError() << "attribute 'k' = " << k << " must be >= 0";
  int64_t last = operandTy.getDimSize(operandTy.getRank() - 1);
  if (!ShapedType::isDynamic(last) && k > last)
    return emitOpError() << "attribute 'k' = " << k
                         << " is larger than the operand's last dimension ("
                         << last << ")";
  SmallVector<int64_t> expected(operandTy.getShape().begin(),
                                operandTy.getShape().end());
  expected.back() = k;
  auto checkResult = [&](RankedTensorType t,
                         StringRef name) -> LogicalResult {
    if (t.getRank() != operandTy.getRank())
      return emitOpError() << "result '" << name << "' must have rank "
                           << operandTy.getRank() << " like the operand, got "
                           << t.getRank();
    if (failed(verifyCompatibleShape(t.getShape(), expected)))
      return emitOpError() << "result '" << name << "' shape "
                           << shapeString(t.getShape())
                           << " must be the operand shape with the last "
                              "dimension replaced by k: "
                           << shapeString(expected);
    return success();
  };
  if (failed(checkResult(valuesTy, "values")) ||
      failed(checkResult(indicesTy, "indices")))
    return failure();
  if (valuesTy.getElementType() != operandTy.getElementType())
    return emitOpError() << "result 'values' element type "
                         << valuesTy.getElementType()
                         << " must equal the operand element type "
                         << operandTy.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// constant_like
//===----------------------------------------------------------------------===//

LogicalResult ConstantLikeOp::verify() {
  TypedAttr value = getValue();
  Type valueTy = value.getType();
  if (isa<ShapedType>(valueTy))
    return emitOpError() << "attribute 'value' must be a scalar (it is "
                            "splatted to the operand's shape), got a value "
                            "of type "
                         << valueTy;
  auto operandTy = getOperand().getType();
  auto resultTy = getResult().getType();
  if (resultTy.getElementType() != valueTy)
    return emitOpError() << "result element type "
                         << resultTy.getElementType()
                         << " must equal the type of attribute 'value' ("
                         << valueTy << ")";
  if (failed(verifyCompatibleShape(operandTy.getShape(), resultTy.getShape())))
    return emitOpError() << "result shape " << shapeString(resultTy.getShape())
                         << " does not match operand shape "
                         << shapeString(operandTy.getShape());
  return success();
}

#define GET_OP_CLASSES
#include "chlo/ChloOps.cpp.inc"
