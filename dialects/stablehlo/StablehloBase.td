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
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Attribute and type registration live beside their parsers (StablehloDialect.cpp).
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
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
def HLO_Complex : Complex<AnyTypeOf<[F32, F64]>>;

//===----------------------------------------------------------------------===//
// Tensor kinds. StableHLO tensors are always ranked (dims may be `?`).
//===----------------------------------------------------------------------===//

def HLO_Tensor : RankedTensorOf<[HLO_Float, HLO_Pred, HLO_Int, HLO_Complex]>;
def HLO_FpTensor : RankedTensorOf<[HLO_Float]>;
def HLO_FpOrComplexTensor : RankedTensorOf<[HLO_Float, HLO_Complex]>;
def HLO_IntTensor : RankedTensorOf<[HLO_Int]>;
def HLO_PredTensor : RankedTensorOf<[HLO_Pred]>;
def HLO_PredOrIntTensor : RankedTensorOf<[HLO_Pred, HLO_Int]>;
def HLO_IntFpOrComplexTensor : RankedTensorOf<[HLO_Int, HLO_Float, HLO_Complex]>;
def HLO_SIntFpOrComplexTensor : RankedTensorOf<[HLO_SInt, HLO_Float, HLO_Complex]>;
def HLO_SIntOrFpTensor : RankedTensorOf<[HLO_SInt, HLO_Float]>;
def HLO_IntOrFpTensor : RankedTensorOf<[HLO_Int, HLO_Float]>;
def HLO_ScalarIntTensor : 0DTensorOf<[HLO_Int]>;
def HLO_ScalarI32Tensor : 0DTensorOf<[I32]>;
def HLO_ScalarPredTensor : 0DTensorOf<[HLO_Pred]>;

def HLO_Token : Type<CPred<"::llvm::isa<::floors::stablehlo::TokenType>($_self)">,
                     "token", "::floors::stablehlo::TokenType">;
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
