//===- StablehloAttrs.td - stablehlo structured attributes ---*- tablegen -*-===//
//
// Dimension-number attributes. Their textual forms are JAX's:
//   #stablehlo.dot<lhs_batching_dimensions = [0], ...>   (empty lists elided)
//   #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
//   #stablehlo.gather<offset_dims = [1], ..., index_vector_dim = 1>
//   #stablehlo.scatter<update_window_dims = [1], ..., index_vector_dim = 1>
// Parsers/printers are hand-written (StablehloAttrs.cpp) because the list
// syntax `[1, 2]` and the conv layout strings are not ODS formats.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_ATTRS
#define FLOORS_STABLEHLO_ATTRS

include "StablehloBase.td"
include "mlir/IR/TensorEncoding.td"

class Stablehlo_Attr<string name, string attrMnemonic>
    : AttrDef<Stablehlo_Dialect, name> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_DotDimensionNumbers : Stablehlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "dimension numbers of stablehlo.dot_general";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    ArrayRefParameter<"int64_t">:$rhsContractingDimensions
  );
}

// `#stablehlo.dot_algorithm<lhs_precision_type = bf16, ..., allow_imprecise_accumulation = false>`,
// printed as `algorithm = <...>` in a dot_general (JAX's DotAlgorithmPreset).
def Stablehlo_DotAlgorithm : AttrDef<Stablehlo_Dialect, "DotAlgorithm"> {
  let mnemonic = "dot_algorithm";
  let summary = "how a stablehlo.dot_general computes: operand precision, components, accumulation";
  let parameters = (ins
    "::mlir::Type":$lhs_precision_type,
    "::mlir::Type":$rhs_precision_type,
    "::mlir::Type":$accumulation_type,
    "int64_t":$lhs_component_count,
    "int64_t":$rhs_component_count,
    "int64_t":$num_primitive_operations,
    "bool":$allow_imprecise_accumulation
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

// `#stablehlo.result_accuracy<atol = 1.0e-05, rtol = 0.0001, ulps = 2,
// mode = #stablehlo.result_accuracy_mode<TOLERANCE>>` on exp, tanh, log, ...
// (JAX prints zero tolerances elided). floors' math meets its documented
// bounds whatever is asked; the attribute is kept, not acted on.
class Stablehlo_ToleranceParameter
    : DefaultValuedParameter<"::llvm::APFloat", "::llvm::APFloat(0.0)"> {
  let comparator = "$_lhs.bitwiseIsEqual($_rhs)";
}
def Stablehlo_ResultAccuracy : AttrDef<Stablehlo_Dialect, "ResultAccuracy"> {
  let mnemonic = "result_accuracy";
  let summary = "the accuracy asked of a transcendental op's result";
  let parameters = (ins
    Stablehlo_ToleranceParameter<>:$atol,
    Stablehlo_ToleranceParameter<>:$rtol,
    DefaultValuedParameter<"int64_t", "0">:$ulps,
    "::floors::stablehlo::ResultAccuracyModeAttr":$mode
  );
  // Hand-written (StablehloDialect.cpp): `mode` prints as the whole
  // `#stablehlo.result_accuracy_mode<...>`, as upstream (and so JAX) prints it.
  let hasCustomAssemblyFormat = 1;
}

def Stablehlo_ConvDimensionNumbers : Stablehlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "dimension numbers of stablehlo.convolution";
  let parameters = (ins
    "int64_t":$inputBatchDimension,
    "int64_t":$inputFeatureDimension,
    ArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension,
    "int64_t":$kernelOutputFeatureDimension,
    ArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension,
    "int64_t":$outputFeatureDimension,
    ArrayRefParameter<"int64_t">:$outputSpatialDimensions
  );
}

def Stablehlo_GatherDimensionNumbers : Stablehlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "dimension numbers of stablehlo.gather";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$offsetDims,
    ArrayRefParameter<"int64_t">:$collapsedSliceDims,
    ArrayRefParameter<"int64_t">:$operandBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim
  );
}

def Stablehlo_ScatterDimensionNumbers : Stablehlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "dimension numbers of stablehlo.scatter";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$updateWindowDims,
    ArrayRefParameter<"int64_t">:$insertedWindowDims,
    ArrayRefParameter<"int64_t">:$inputBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim
  );
}

def Stablehlo_OutputOperandAlias : Stablehlo_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "an output of a custom_call that aliases an operand";
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$outputTupleIndices,
    "int64_t":$operandIndex,
    ArrayRefParameter<"int64_t">:$operandTupleIndices
  );
}

// `#stablehlo.channel_handle<handle = 1, type = 1>` on collectives, send and
// recv: the channel's id and kind (0 invalid, 1 device-to-device, 2
// device-to-host, 3 host-to-device). A non-positive handle means no channel.
def Stablehlo_ChannelHandle : AttrDef<Stablehlo_Dialect, "ChannelHandle"> {
  let mnemonic = "channel_handle";
  let summary = "the channel of a collective or point-to-point op";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

// The encoding of a tensor type with bounded dynamism:
// `tensor<?x4xf32, #stablehlo.bounds<8, ?>>` (printed so, as JAX does), also
// read as `#stablehlo.type_extensions<bounds = [8, ?]>`. One bound per
// dimension, `?` for none; only dynamic dimensions may have one.
def Stablehlo_TypeExtensions : AttrDef<Stablehlo_Dialect, "TypeExtensions",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let mnemonic = "type_extensions";
  let summary = "bounds of a tensor type's dynamic dimensions";
  let parameters = (ins ArrayRefParameter<"int64_t">:$bounds);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// `<8, ?>` after the `bounds` keyword (the dialect's spelling).
    static ::mlir::Attribute parseBounds(::mlir::AsmParser &parser);
    void printBounds(::mlir::AsmPrinter &printer) const;
  }];
}

#endif // FLOORS_STABLEHLO_ATTRS
