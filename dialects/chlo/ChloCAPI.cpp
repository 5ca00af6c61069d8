//===- ChloCAPI.cpp - C API of the chlo dialect ----------------------------===//

#include "chlo/ChloCAPI.h"
#include "chlo/ChloDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace floors::chlo;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Chlo, chlo, ::floors::chlo::ChloDialect)

static_assert(static_cast<int>(ComparisonDirection::EQ) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_EQ &&
                  static_cast<int>(ComparisonDirection::NE) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_NE &&
                  static_cast<int>(ComparisonDirection::GE) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_GE &&
                  static_cast<int>(ComparisonDirection::GT) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_GT &&
                  static_cast<int>(ComparisonDirection::LE) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_LE &&
                  static_cast<int>(ComparisonDirection::LT) ==
                      FLOORS_CHLO_COMPARISON_DIRECTION_LT,
              "C and C++ comparison directions drifted");
static_assert(static_cast<int>(ComparisonType::NOTYPE) ==
                      FLOORS_CHLO_COMPARISON_TYPE_NOTYPE &&
                  static_cast<int>(ComparisonType::FLOAT) ==
                      FLOORS_CHLO_COMPARISON_TYPE_FLOAT &&
                  static_cast<int>(ComparisonType::TOTALORDER) ==
                      FLOORS_CHLO_COMPARISON_TYPE_TOTALORDER &&
                  static_cast<int>(ComparisonType::SIGNED) ==
                      FLOORS_CHLO_COMPARISON_TYPE_SIGNED &&
                  static_cast<int>(ComparisonType::UNSIGNED) ==
                      FLOORS_CHLO_COMPARISON_TYPE_UNSIGNED,
              "C and C++ comparison types drifted");

namespace {
template <typename OpTy> OpTy dynCastOp(MlirOperation op) {
  if (mlirOperationIsNull(op))
    return OpTy();
  return llvm::dyn_cast<OpTy>(unwrap(op));
}
} // namespace

int64_t floorsChloTopKGetK(MlirOperation op) {
  if (auto topK = dynCastOp<TopKOp>(op))
    return topK.getK();
  return -1;
}

int32_t floorsChloBroadcastCompareGetComparisonDirection(MlirOperation op) {
  if (auto cmp = dynCastOp<BroadcastCompareOp>(op))
    return static_cast<int32_t>(cmp.getComparisonDirection());
  return -1;
}

bool floorsChloBroadcastCompareHasCompareType(MlirOperation op) {
  if (auto cmp = dynCastOp<BroadcastCompareOp>(op))
    return cmp.getCompareType().has_value();
  return false;
}

int32_t floorsChloBroadcastCompareGetCompareType(MlirOperation op) {
  if (auto cmp = dynCastOp<BroadcastCompareOp>(op))
    return static_cast<int32_t>(
        cmp.getCompareType().value_or(ComparisonType::NOTYPE));
  return -1;
}

static DenseI64ArrayAttr broadcastDimensionsOf(Operation *op, bool &isBinary) {
  isBinary = true;
  return llvm::TypeSwitch<Operation *, DenseI64ArrayAttr>(op)
      .Case<BroadcastAddOp, BroadcastSubOp, BroadcastMulOp, BroadcastDivOp,
            BroadcastMaxOp, BroadcastMinOp, BroadcastPowOp, BroadcastRemOp,
            BroadcastAtan2Op, BroadcastAndOp, BroadcastOrOp, BroadcastXorOp,
            BroadcastShiftLeftOp, BroadcastShiftRightArithmeticOp,
            BroadcastShiftRightLogicalOp, BroadcastCompareOp>(
          [](auto typed) { return typed.getBroadcastDimensionsAttr(); })
      .Default([&](Operation *) {
        isBinary = false;
        return DenseI64ArrayAttr();
      });
}

bool floorsChloIsBroadcastBinaryOp(MlirOperation op) {
  if (mlirOperationIsNull(op))
    return false;
  bool isBinary;
  (void)broadcastDimensionsOf(unwrap(op), isBinary);
  return isBinary;
}

intptr_t floorsChloGetBroadcastDimensions(MlirOperation op, int64_t *out,
                                          intptr_t capacity) {
  if (mlirOperationIsNull(op))
    return -1;
  bool isBinary;
  DenseI64ArrayAttr dims = broadcastDimensionsOf(unwrap(op), isBinary);
  if (!isBinary || !dims)
    return -1;
  ArrayRef<int64_t> values = dims.asArrayRef();
  intptr_t n = static_cast<intptr_t>(values.size());
  if (out)
    for (intptr_t i = 0; i < n && i < capacity; ++i)
      out[i] = values[i];
  return n;
}

MlirAttribute floorsChloConstantGetValue(MlirOperation op) {
  if (auto c = dynCastOp<ConstantLikeOp>(op))
    return wrap(static_cast<Attribute>(c.getValue()));
  if (auto c = dynCastOp<ConstantOp>(op))
    return wrap(static_cast<Attribute>(c.getValue()));
  return MlirAttribute{nullptr};
}

MlirAttribute floorsChloComparisonDirectionAttrGet(MlirContext ctx,
                                                   int32_t value) {
  std::optional<ComparisonDirection> dir =
      symbolizeComparisonDirection(static_cast<uint32_t>(value));
  if (value < 0 || !dir)
    return MlirAttribute{nullptr};
  return wrap(ComparisonDirectionAttr::get(unwrap(ctx), *dir));
}

bool floorsChloAttributeIsAComparisonDirection(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) &&
         llvm::isa<ComparisonDirectionAttr>(unwrap(attr));
}

int32_t floorsChloComparisonDirectionAttrGetValue(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return -1;
  if (auto a = llvm::dyn_cast<ComparisonDirectionAttr>(unwrap(attr)))
    return static_cast<int32_t>(a.getValue());
  return -1;
}

MlirAttribute floorsChloComparisonTypeAttrGet(MlirContext ctx, int32_t value) {
  std::optional<ComparisonType> ty =
      symbolizeComparisonType(static_cast<uint32_t>(value));
  if (value < 0 || !ty)
    return MlirAttribute{nullptr};
  return wrap(ComparisonTypeAttr::get(unwrap(ctx), *ty));
}

bool floorsChloAttributeIsAComparisonType(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) &&
         llvm::isa<ComparisonTypeAttr>(unwrap(attr));
}

int32_t floorsChloComparisonTypeAttrGetValue(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return -1;
  if (auto a = llvm::dyn_cast<ComparisonTypeAttr>(unwrap(attr)))
    return static_cast<int32_t>(a.getValue());
  return -1;
}

// The names live in static storage inside the generated stringify
// functions (string literals), so .data() is NUL-terminated.
const char *floorsChloComparisonDirectionName(int32_t value) {
  if (value < 0 || !symbolizeComparisonDirection(static_cast<uint32_t>(value)))
    return nullptr;
  return stringifyComparisonDirection(static_cast<ComparisonDirection>(value))
      .data();
}

const char *floorsChloComparisonTypeName(int32_t value) {
  if (value < 0 || !symbolizeComparisonType(static_cast<uint32_t>(value)))
    return nullptr;
  return stringifyComparisonType(static_cast<ComparisonType>(value)).data();
}
