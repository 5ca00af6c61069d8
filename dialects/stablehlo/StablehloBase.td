//===- StablehloBase.td - stablehlo dialect and type constraints -*- tablegen -*-===//
//
// The dialect definition and the type constraints the ops share. Facts come
// from the StableHLO specification (element types, tensor kinds).
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_BASE
#define FLOORS_STABLEHLO_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def Stablehlo_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::floors::stablehlo";
  let summary = "StableHLO: the portable op set JAX lowers to";
  let description = [{
    The ops of the StableHLO specification, with the textual syntax JAX prints
    (`jax.jit(f).lower(...).as_text()`). Ops live in `func.func`; regions end
    in `stablehlo.return`.
  }];
  // Attributes are parsed and printed by hand (StablehloDialect.cpp): a
  // tensor's bounds print as `#stablehlo.bounds<...>`, which is no mnemonic.
  let useDefaultAttributePrinterParser = 0;
  let useDefaultTypePrinterParser = 1;
  // Attribute and type registration live beside their parsers (StablehloDialect.cpp).
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

//===----------------------------------------------------------------------===//
// Element types (spec: "Types")
//===----------------------------------------------------------------------===//

// Booleans are i1; integers are signless (signed) or unsigned of width 2..64.
def HLO_Pred : TypeAlias<I1, "bool">;
def HLO_SInt : SignlessIntOfWidths<[2, 4, 8, 16, 32, 64]>;
def HLO_UInt : UnsignedIntOfWidths<[2, 4, 8, 16, 32, 64]>;
def HLO_Int : AnyTypeOf<[HLO_SInt, HLO_UInt], "integer">;
def HLO_Float : AnyTypeOf<[AnyFloat], "floating-point">;
def HLO_Float32Or64 : AnyTypeOf<[F32, F64]>;
def HLO_Complex : Complex<HLO_Float32Or64>;

// Uniform quantized integers (`!quant.uniform<i8:f32, 0.1:-30>`): storage of
// 2..32 bits. Per-tensor ones flow through ops like any element type;
// per-axis ones only through uniform_quantize / uniform_dequantize.
def HLO_QuantizedInt : Type<
    CPred<"::floors::stablehlo::isQuantizedInt($_self, /*perAxis=*/false)">,
    "per-tensor integer quantized">;
def HLO_PerAxisQuantizedInt : Type<
    CPred<"::floors::stablehlo::isQuantizedInt($_self, /*perAxis=*/true)">,
    "per-axis integer quantized">;

//===----------------------------------------------------------------------===//
// Tensor kinds. StableHLO tensors are always ranked (dims may be `?`).
//===----------------------------------------------------------------------===//

def HLO_Tensor : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex, HLO_QuantizedInt]>;
def HLO_FpTensor : RankedTensorOf<[HLO_Float]>;
def HLO_FpOrComplexTensor : RankedTensorOf<[HLO_Float, HLO_Complex]>;
def HLO_IntTensor : RankedTensorOf<[HLO_Int]>;
def HLO_PredTensor : RankedTensorOf<[HLO_Pred]>;
def HLO_PredOrIntTensor : RankedTensorOf<[HLO_Pred, HLO_Int]>;
def HLO_IntOrFpTensor : RankedTensorOf<[HLO_Int, HLO_Float]>;
def HLO_ScalarIntTensor : 0DTensorOf<[HLO_Int]>;
def HLO_ScalarI32Tensor : 0DTensorOf<[I32]>;
def HLO_ScalarPredTensor : 0DTensorOf<[HLO_Pred]>;
def HLO_ScalarTensor : 0DTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex, HLO_QuantizedInt]>;
def HLO_Fp32Or64Tensor : RankedTensorOf<[HLO_Float32Or64]>;
def HLO_ComplexTensor : RankedTensorOf<[HLO_Complex]>;
def HLO_ScalarUI32Tensor : 0DTensorOf<[UI32]>;
def HLO_NonQuantizedTensor : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex]>;
def HLO_AnyQuantizedTensor : RankedTensorOf<[HLO_QuantizedInt, HLO_PerAxisQuantizedInt]>;
def HLO_FpOrAnyQuantizedTensor : RankedTensorOf<[HLO_Float, HLO_QuantizedInt, HLO_PerAxisQuantizedInt]>;
def HLO_FpOrQuantizedIntTensor : RankedTensorOf<[HLO_Float, HLO_QuantizedInt]>;
def HLO_FpComplexOrQuantizedIntTensor : RankedTensorOf<[HLO_Float, HLO_Complex, HLO_QuantizedInt]>;
def HLO_IntFpComplexOrQuantizedIntTensor
    : RankedTensorOf<[HLO_Int, HLO_Float, HLO_Complex, HLO_QuantizedInt]>;
def HLO_SIntFpComplexOrQuantizedIntTensor
    : RankedTensorOf<[HLO_SInt, HLO_Float, HLO_Complex, HLO_QuantizedInt]>;
def HLO_SIntFpOrQuantizedIntTensor : RankedTensorOf<[HLO_SInt, HLO_Float, HLO_QuantizedInt]>;
def HLO_PredIntOrFpTensor : RankedTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>;
def HLO_ScalarPredIntOrFpTensor : 0DTensorOf<[HLO_Pred, HLO_Int, HLO_Float]>;

// Shapes and sizes passed as values (dynamic-shape ops): 1-d tensors of
// integers or index; "static" ones have a static length.
def HLO_DimensionValue : AnyTypeOf<[Index, HLO_Int]>;
def HLO_DimensionTensor : 1DTensorOf<[HLO_DimensionValue]>;
def HLO_StaticDimensionTensor : RankedTensorOf<[HLO_DimensionValue],
    [HasStaticShapePred, HasAnyRankOfPred<[1]>], "statically shaped 1-dimensional tensor">;
def HLO_Static1DIntTensor : RankedTensorOf<[HLO_Int],
    [HasStaticShapePred, HasAnyRankOfPred<[1]>], "statically shaped 1-dimensional integer tensor">;
def HLO_Static2DIntTensor : RankedTensorOf<[HLO_Int],
    [HasStaticShapePred, HasAnyRankOfPred<[2]>], "statically shaped 2-dimensional integer tensor">;

def HLO_Token : Type<CPred<"::llvm::isa<::floors::stablehlo::TokenType>($_self)">,
                     "token", "::floors::stablehlo::TokenType">;
def HLO_Future : Type<CPred<"::llvm::isa<::floors::stablehlo::FutureType>($_self)">,
                      "future", "::floors::stablehlo::FutureType">;
def HLO_Tuple : NestedTupleOf<[HLO_Tensor, HLO_Token]>;
// What may flow through control flow, custom calls and region terminators.
def HLO_TensorOrTokenOrTuple : AnyTypeOf<[HLO_Tensor, HLO_Token, HLO_Tuple]>;
def HLO_TensorOrToken : AnyTypeOf<[HLO_Tensor, HLO_Token]>;

//===----------------------------------------------------------------------===//
// Attribute constraints
//===----------------------------------------------------------------------===//

def HLO_FlatSymbolRefArrayAttr :
    TypedArrayAttrBase<FlatSymbolRefAttr, "flat symbol ref array attribute"> {
  let constBuilderCall = "::mlir::ArrayAttr::get($_builder.getContext(), $0)";
}

#endif // FLOORS_STABLEHLO_BASE
