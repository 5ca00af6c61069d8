/*===- StablehloCAPI.h - C API of the stablehlo dialect -----------*- C -*-===*\
|*                                                                            *|
|* Plain-C access to the dialect for Rust (run through bindgen). Structured   *|
|* attributes are read as plain data: lists as (Size, Elem) pairs, enums as   *|
|* int32 values whose numbering is listed beside each enum below.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_STABLEHLO_CAPI_H
#define FLOORS_STABLEHLO_CAPI_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Stablehlo, stablehlo);

/* Declares `intptr_t floorsStablehlo<Attr>Get<Field>Size(MlirAttribute)` and
 * `int64_t floorsStablehlo<Attr>Get<Field>Elem(MlirAttribute, intptr_t)`. */
#define FLOORS_STABLEHLO_DECLARE_LIST_GETTER(Attr, Field)                        \
  MLIR_CAPI_EXPORTED intptr_t floorsStablehlo##Attr##Get##Field##Size(           \
      MlirAttribute attr);                                                     \
  MLIR_CAPI_EXPORTED int64_t floorsStablehlo##Attr##Get##Field##Elem(            \
      MlirAttribute attr, intptr_t pos);

/*===------------------------------------------------------------------===*
 * #stablehlo.dot<...>
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsADotDimensionNumbers(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloDotDimensionNumbersGet(
    MlirContext ctx, intptr_t nLhsBatching, const int64_t *lhsBatching,
    intptr_t nRhsBatching, const int64_t *rhsBatching, intptr_t nLhsContracting,
    const int64_t *lhsContracting, intptr_t nRhsContracting,
    const int64_t *rhsContracting);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(DotDimensionNumbers, LhsBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(DotDimensionNumbers, RhsBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(DotDimensionNumbers, LhsContractingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(DotDimensionNumbers, RhsContractingDims)

/*===------------------------------------------------------------------===*
 * #stablehlo.conv<...>
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAConvDimensionNumbers(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloConvDimensionNumbersGet(
    MlirContext ctx, int64_t inputBatchDim, int64_t inputFeatureDim,
    intptr_t nInputSpatial, const int64_t *inputSpatialDims,
    int64_t kernelInputFeatureDim, int64_t kernelOutputFeatureDim,
    intptr_t nKernelSpatial, const int64_t *kernelSpatialDims,
    int64_t outputBatchDim, int64_t outputFeatureDim, intptr_t nOutputSpatial,
    const int64_t *outputSpatialDims);
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetInputBatchDim(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetInputFeatureDim(MlirAttribute attr);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ConvDimensionNumbers, InputSpatialDims)
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetKernelInputFeatureDim(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetKernelOutputFeatureDim(MlirAttribute attr);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ConvDimensionNumbers, KernelSpatialDims)
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetOutputBatchDim(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t floorsStablehloConvDimensionNumbersGetOutputFeatureDim(MlirAttribute attr);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ConvDimensionNumbers, OutputSpatialDims)

/*===------------------------------------------------------------------===*
 * #stablehlo.gather<...>
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAGatherDimensionNumbers(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloGatherDimensionNumbersGet(
    MlirContext ctx, intptr_t nOffsetDims, const int64_t *offsetDims,
    intptr_t nCollapsedSliceDims, const int64_t *collapsedSliceDims,
    intptr_t nOperandBatchingDims, const int64_t *operandBatchingDims,
    intptr_t nStartIndicesBatchingDims, const int64_t *startIndicesBatchingDims,
    intptr_t nStartIndexMap, const int64_t *startIndexMap, int64_t indexVectorDim);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(GatherDimensionNumbers, OffsetDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(GatherDimensionNumbers, CollapsedSliceDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(GatherDimensionNumbers, OperandBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(GatherDimensionNumbers, StartIndicesBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(GatherDimensionNumbers, StartIndexMap)
MLIR_CAPI_EXPORTED int64_t floorsStablehloGatherDimensionNumbersGetIndexVectorDim(MlirAttribute attr);

/*===------------------------------------------------------------------===*
 * #stablehlo.scatter<...>
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAScatterDimensionNumbers(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloScatterDimensionNumbersGet(
    MlirContext ctx, intptr_t nUpdateWindowDims, const int64_t *updateWindowDims,
    intptr_t nInsertedWindowDims, const int64_t *insertedWindowDims,
    intptr_t nInputBatchingDims, const int64_t *inputBatchingDims,
    intptr_t nScatterIndicesBatchingDims, const int64_t *scatterIndicesBatchingDims,
    intptr_t nScatterDimsToOperandDims, const int64_t *scatterDimsToOperandDims,
    int64_t indexVectorDim);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ScatterDimensionNumbers, UpdateWindowDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ScatterDimensionNumbers, InsertedWindowDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ScatterDimensionNumbers, InputBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ScatterDimensionNumbers, ScatterIndicesBatchingDims)
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(ScatterDimensionNumbers, ScatterDimsToOperandDims)
MLIR_CAPI_EXPORTED int64_t floorsStablehloScatterDimensionNumbersGetIndexVectorDim(MlirAttribute attr);

/*===------------------------------------------------------------------===*
 * #stablehlo.output_operand_alias<...> (custom_call)
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAOutputOperandAlias(MlirAttribute attr);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(OutputOperandAlias, OutputTupleIndices)
MLIR_CAPI_EXPORTED int64_t floorsStablehloOutputOperandAliasGetOperandIndex(MlirAttribute attr);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(OutputOperandAlias, OperandTupleIndices)
/* Builds #stablehlo.output_operand_alias<output_tuple_indices = output[0..nOutput],
 * operand_index = operandIndex, operand_tuple_indices = operand[0..nOperand]>. */
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloOutputOperandAliasGet(MlirContext ctx, intptr_t nOutput, const int64_t *output,
                                                                      int64_t operandIndex, intptr_t nOperand, const int64_t *operand);

/*===------------------------------------------------------------------===*
 * Enum attributes, read and built as int32:
 *   comparison_direction: EQ=0 NE=1 GE=2 GT=3 LE=4 LT=5
 *   comparison_type:      NOTYPE=0 FLOAT=1 TOTALORDER=2 SIGNED=3 UNSIGNED=4
 *   precision:            DEFAULT=0 HIGH=1 HIGHEST=2
 *   rng_algorithm:        DEFAULT=0 THREE_FRY=1 PHILOX=2
 *   transpose:            TRANSPOSE_INVALID=0 NO_TRANSPOSE=1 TRANSPOSE=2 ADJOINT=3
 *   fft_type:             FFT=0 IFFT=1 RFFT=2 IRFFT=3
 *   rng_distribution:     UNIFORM=1 NORMAL=2
 * A Get with an out-of-range value returns a null attribute.
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAComparisonDirection(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloComparisonDirectionGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloComparisonDirectionGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAComparisonType(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloComparisonTypeGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloComparisonTypeGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAPrecision(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloPrecisionGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloPrecisionGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsARngAlgorithm(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloRngAlgorithmGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloRngAlgorithmGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsATranspose(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloTransposeGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloTransposeGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAFftType(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloFftTypeGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloFftTypeGet(MlirContext ctx, int32_t value);
MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsARngDistribution(MlirAttribute attr);
MLIR_CAPI_EXPORTED int32_t floorsStablehloRngDistributionGetValue(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloRngDistributionGet(MlirContext ctx, int32_t value);

/*===------------------------------------------------------------------===*
 * #stablehlo.channel_handle<handle = N, type = N> (collectives, send, recv)
 *===------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsAChannelHandle(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloChannelHandleGet(MlirContext ctx, int64_t handle,
                                                                int64_t type);
MLIR_CAPI_EXPORTED int64_t floorsStablehloChannelHandleGetHandle(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t floorsStablehloChannelHandleGetType(MlirAttribute attr);

/*===------------------------------------------------------------------===*
 * #stablehlo.bounds<8, ?> (a tensor type's encoding; ? is INT64_MIN)
 *===------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool floorsStablehloAttrIsATypeExtensions(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute floorsStablehloTypeExtensionsGet(MlirContext ctx, intptr_t nBounds,
                                                                 const int64_t *bounds);
FLOORS_STABLEHLO_DECLARE_LIST_GETTER(TypeExtensions, Bounds)

/*===------------------------------------------------------------------===*
 * !stablehlo.token
 *===------------------------------------------------------------------===*/
MLIR_CAPI_EXPORTED bool floorsStablehloTypeIsAToken(MlirType type);
MLIR_CAPI_EXPORTED MlirType floorsStablehloTokenTypeGet(MlirContext ctx);

#undef FLOORS_STABLEHLO_DECLARE_LIST_GETTER

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_STABLEHLO_CAPI_H */
