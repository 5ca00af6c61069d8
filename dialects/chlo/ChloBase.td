//===- ChloBase.td - chlo dialect, enums, type constraints -*- tablegen -*-===//
//
// The `chlo` ("client HLO") dialect as JAX prints it: ops that have no single
// StableHLO equivalent (erf, lgamma, top_k, ...) and the implicitly
// broadcasting binary ops (broadcast_add, ...). Written from the CHLO spec
// and the textual form JAX emits.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_CHLO_BASE_TD
#define FLOORS_CHLO_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Chlo_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::floors::chlo";
  let summary = "Client HLO: JAX's higher-level ops above StableHLO";
  let description = [{
    Ops that JAX emits next to StableHLO: special functions (erf, lgamma,
    digamma, ...), top_k, and binary ops with implicit (numpy-style or
    broadcast_dimensions-driven) broadcasting. The floors HLO cleanup
    legalizes every op here to StableHLO; see APPROXIMATIONS.md.
  }];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

//===----------------------------------------------------------------------===//
// Enums: #chlo<comparison_direction EQ>, #chlo<comparison_type FLOAT>
//===----------------------------------------------------------------------===//

def Chlo_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "which comparison operation to perform", [
      I32EnumAttrCase<"EQ", 0>,
      I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>,
      I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>,
      I32EnumAttrCase<"LT", 5>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::chlo";
}

def Chlo_ComparisonType : I32EnumAttr<"ComparisonType",
    "which comparison type to use", [
      I32EnumAttrCase<"NOTYPE", 0>,
      I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>,
      I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::floors::chlo";
}

def Chlo_ComparisonDirectionAttr
    : EnumAttr<Chlo_Dialect, Chlo_ComparisonDirection, "comparison_direction"> {
  let assemblyFormat = "$value";
}

def Chlo_ComparisonTypeAttr
    : EnumAttr<Chlo_Dialect, Chlo_ComparisonType, "comparison_type"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// Type constraints (StableHLO element types; ranked tensors only)
//===----------------------------------------------------------------------===//

def Chlo_Pred : TypeAlias<I1, "pred (i1)">;
def Chlo_SInt : SignlessIntOfWidths<[2, 4, 8, 16, 32, 64]>;
def Chlo_UInt : UnsignedIntOfWidths<[2, 4, 8, 16, 32, 64]>;
def Chlo_Int : AnyTypeOf<[Chlo_SInt, Chlo_UInt], "integer">;
def Chlo_Float : AnyTypeOf<[AnyFloat], "floating-point">;
def Chlo_Complex : AnyTypeOf<[Complex<F32>, Complex<F64>], "complex">;

def Chlo_FpTensor : RankedTensorOf<[Chlo_Float]>;
def Chlo_FpOrComplexTensor : RankedTensorOf<[Chlo_Float, Chlo_Complex]>;
def Chlo_IntFpOrComplexTensor
    : RankedTensorOf<[Chlo_Int, Chlo_Float, Chlo_Complex]>;
def Chlo_IntOrFpTensor : RankedTensorOf<[Chlo_Int, Chlo_Float]>;
def Chlo_IntTensor : RankedTensorOf<[Chlo_Int]>;
def Chlo_PredOrIntTensor : RankedTensorOf<[Chlo_Pred, Chlo_Int]>;
def Chlo_PredTensor : RankedTensorOf<[Chlo_Pred]>;
def Chlo_I32Tensor : RankedTensorOf<[I32]>;
def Chlo_Tensor
    : RankedTensorOf<[Chlo_Pred, Chlo_Int, Chlo_Float, Chlo_Complex]>;

#endif // FLOORS_CHLO_BASE_TD
