//===- StablehloCAPI.cpp - C API of the stablehlo dialect -----------------===//

#include "stablehlo/StablehloCAPI.h"
#include "stablehlo/StablehloDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace floors::stablehlo;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Stablehlo, stablehlo, ::floors::stablehlo::StablehloDialect)

namespace {
ArrayRef<int64_t> ref(intptr_t n, const int64_t *p) { return n > 0 && p ? ArrayRef<int64_t>(p, n) : ArrayRef<int64_t>(); }
} // namespace

// Size/Elem pair for list field `Field` of attribute class `Name`Attr, read via `Getter`.
// Elem returns 0 for an out-of-range position instead of reading past the end.
#define DEFINE_LIST_GETTER(Name, Field, Getter)                                  \
  intptr_t floorsStablehlo##Name##Get##Field##Size(MlirAttribute attr) {         \
    return cast<Name##Attr>(unwrap(attr)).Getter().size();                       \
  }                                                                              \
  int64_t floorsStablehlo##Name##Get##Field##Elem(MlirAttribute attr,            \
                                                  intptr_t pos) {                \
    ArrayRef<int64_t> values = cast<Name##Attr>(unwrap(attr)).Getter();          \
    return pos >= 0 && pos < (intptr_t)values.size() ? values[pos] : 0;          \
  }

#define DEFINE_SCALAR_GETTER(Name, Field, Getter)                                \
  int64_t floorsStablehlo##Name##Get##Field(MlirAttribute attr) {                \
    return cast<Name##Attr>(unwrap(attr)).Getter();                              \
  }

#define DEFINE_ISA(Name)                                                         \
  bool floorsStablehloAttrIsA##Name(MlirAttribute attr) {                        \
    return isa<Name##Attr>(unwrap(attr));                                        \
  }

extern "C" {

// dot
DEFINE_ISA(DotDimensionNumbers)
MlirAttribute floorsStablehloDotDimensionNumbersGet(MlirContext ctx, intptr_t nLb, const int64_t *lb,
                                                    intptr_t nRb, const int64_t *rb, intptr_t nLc,
                                                    const int64_t *lc, intptr_t nRc,
                                                    const int64_t *rc) {
  return wrap(DotDimensionNumbersAttr::get(unwrap(ctx), ref(nLb, lb), ref(nRb, rb), ref(nLc, lc),
                                           ref(nRc, rc)));
}
DEFINE_LIST_GETTER(DotDimensionNumbers, LhsBatchingDims, getLhsBatchingDimensions)
DEFINE_LIST_GETTER(DotDimensionNumbers, RhsBatchingDims, getRhsBatchingDimensions)
DEFINE_LIST_GETTER(DotDimensionNumbers, LhsContractingDims, getLhsContractingDimensions)
DEFINE_LIST_GETTER(DotDimensionNumbers, RhsContractingDims, getRhsContractingDimensions)

// conv
DEFINE_ISA(ConvDimensionNumbers)
MlirAttribute floorsStablehloConvDimensionNumbersGet(
    MlirContext ctx, int64_t ib, int64_t ifeat, intptr_t nIs, const int64_t *is, int64_t ki,
    int64_t ko, intptr_t nKs, const int64_t *ks, int64_t ob, int64_t of, intptr_t nOs,
    const int64_t *os) {
  return wrap(ConvDimensionNumbersAttr::get(unwrap(ctx), ib, ifeat, ref(nIs, is), ki, ko,
                                            ref(nKs, ks), ob, of, ref(nOs, os)));
}
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, InputBatchDim, getInputBatchDimension)
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, InputFeatureDim, getInputFeatureDimension)
DEFINE_LIST_GETTER(ConvDimensionNumbers, InputSpatialDims, getInputSpatialDimensions)
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, KernelInputFeatureDim, getKernelInputFeatureDimension)
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, KernelOutputFeatureDim, getKernelOutputFeatureDimension)
DEFINE_LIST_GETTER(ConvDimensionNumbers, KernelSpatialDims, getKernelSpatialDimensions)
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, OutputBatchDim, getOutputBatchDimension)
DEFINE_SCALAR_GETTER(ConvDimensionNumbers, OutputFeatureDim, getOutputFeatureDimension)
DEFINE_LIST_GETTER(ConvDimensionNumbers, OutputSpatialDims, getOutputSpatialDimensions)

// gather
DEFINE_ISA(GatherDimensionNumbers)
MlirAttribute floorsStablehloGatherDimensionNumbersGet(
    MlirContext ctx, intptr_t nOffset, const int64_t *offset, intptr_t nCollapsed,
    const int64_t *collapsed, intptr_t nOpBatch, const int64_t *opBatch, intptr_t nIdxBatch,
    const int64_t *idxBatch, intptr_t nMap, const int64_t *map, int64_t indexVectorDim) {
  return wrap(GatherDimensionNumbersAttr::get(unwrap(ctx), ref(nOffset, offset),
                                              ref(nCollapsed, collapsed), ref(nOpBatch, opBatch),
                                              ref(nIdxBatch, idxBatch), ref(nMap, map),
                                              indexVectorDim));
}
DEFINE_LIST_GETTER(GatherDimensionNumbers, OffsetDims, getOffsetDims)
DEFINE_LIST_GETTER(GatherDimensionNumbers, CollapsedSliceDims, getCollapsedSliceDims)
DEFINE_LIST_GETTER(GatherDimensionNumbers, OperandBatchingDims, getOperandBatchingDims)
DEFINE_LIST_GETTER(GatherDimensionNumbers, StartIndicesBatchingDims, getStartIndicesBatchingDims)
DEFINE_LIST_GETTER(GatherDimensionNumbers, StartIndexMap, getStartIndexMap)
DEFINE_SCALAR_GETTER(GatherDimensionNumbers, IndexVectorDim, getIndexVectorDim)

// scatter
DEFINE_ISA(ScatterDimensionNumbers)
MlirAttribute floorsStablehloScatterDimensionNumbersGet(
    MlirContext ctx, intptr_t nWindow, const int64_t *window, intptr_t nInserted,
    const int64_t *inserted, intptr_t nInBatch, const int64_t *inBatch, intptr_t nIdxBatch,
    const int64_t *idxBatch, intptr_t nToOperand, const int64_t *toOperand,
    int64_t indexVectorDim) {
  return wrap(ScatterDimensionNumbersAttr::get(
      unwrap(ctx), ref(nWindow, window), ref(nInserted, inserted), ref(nInBatch, inBatch),
      ref(nIdxBatch, idxBatch), ref(nToOperand, toOperand), indexVectorDim));
}
DEFINE_LIST_GETTER(ScatterDimensionNumbers, UpdateWindowDims, getUpdateWindowDims)
DEFINE_LIST_GETTER(ScatterDimensionNumbers, InsertedWindowDims, getInsertedWindowDims)
DEFINE_LIST_GETTER(ScatterDimensionNumbers, InputBatchingDims, getInputBatchingDims)
DEFINE_LIST_GETTER(ScatterDimensionNumbers, ScatterIndicesBatchingDims, getScatterIndicesBatchingDims)
DEFINE_LIST_GETTER(ScatterDimensionNumbers, ScatterDimsToOperandDims, getScatterDimsToOperandDims)
DEFINE_SCALAR_GETTER(ScatterDimensionNumbers, IndexVectorDim, getIndexVectorDim)

// output_operand_alias
DEFINE_ISA(OutputOperandAlias)
DEFINE_LIST_GETTER(OutputOperandAlias, OutputTupleIndices, getOutputTupleIndices)
DEFINE_SCALAR_GETTER(OutputOperandAlias, OperandIndex, getOperandIndex)
DEFINE_LIST_GETTER(OutputOperandAlias, OperandTupleIndices, getOperandTupleIndices)
MlirAttribute floorsStablehloOutputOperandAliasGet(MlirContext ctx, intptr_t nOutput, const int64_t *output,
                                                   int64_t operandIndex, intptr_t nOperand, const int64_t *operand) {
  return wrap(OutputOperandAliasAttr::get(unwrap(ctx), ref(nOutput, output), operandIndex, ref(nOperand, operand)));
}

// enums
#define DEFINE_ENUM(Name)                                                        \
  DEFINE_ISA(Name)                                                               \
  int32_t floorsStablehlo##Name##GetValue(MlirAttribute attr) {                  \
    return static_cast<int32_t>(cast<Name##Attr>(unwrap(attr)).getValue());      \
  }                                                                              \
  MlirAttribute floorsStablehlo##Name##Get(MlirContext ctx, int32_t value) {     \
    std::optional<Name> e = symbolize##Name(static_cast<uint32_t>(value));       \
    if (value < 0 || !e)                                                         \
      return MlirAttribute{nullptr};                                             \
    return wrap(Name##Attr::get(unwrap(ctx), *e));                               \
  }
DEFINE_ENUM(ComparisonDirection)
DEFINE_ENUM(ComparisonType)
DEFINE_ENUM(Precision)
DEFINE_ENUM(RngAlgorithm)
DEFINE_ENUM(Transpose)
DEFINE_ENUM(FftType)
DEFINE_ENUM(RngDistribution)

// channel_handle
DEFINE_ISA(ChannelHandle)
MlirAttribute floorsStablehloChannelHandleGet(MlirContext ctx, int64_t handle, int64_t type) {
  return wrap(ChannelHandleAttr::get(unwrap(ctx), handle, type));
}
DEFINE_SCALAR_GETTER(ChannelHandle, Handle, getHandle)
DEFINE_SCALAR_GETTER(ChannelHandle, Type, getType)

// type_extensions (bounds)
DEFINE_ISA(TypeExtensions)
MlirAttribute floorsStablehloTypeExtensionsGet(MlirContext ctx, intptr_t nBounds,
                                               const int64_t *bounds) {
  return wrap(TypeExtensionsAttr::get(unwrap(ctx), ref(nBounds, bounds)));
}
DEFINE_LIST_GETTER(TypeExtensions, Bounds, getBounds)

// token
bool floorsStablehloTypeIsAToken(MlirType type) { return isa<TokenType>(unwrap(type)); }
MlirType floorsStablehloTokenTypeGet(MlirContext ctx) { return wrap(TokenType::get(unwrap(ctx))); }

} // extern "C"
