//===- ChloOps.td - chlo ops ---------------------------------*- tablegen -*-===//
//
// Entry ODS file of the chlo dialect (build.rs runs mlir-tblgen on this file
// only). Textual forms follow what JAX prints, e.g.
//   %0 = chlo.square %arg0 : tensor<8x16xf32> -> tensor<8x16xf32>
//   %values, %indices = chlo.top_k(%arg0, k = 3)
//       : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
//   %1 = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 1>}
//       : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
//
// Verifiers live in ChloOps.cpp (verify* helpers declared in ChloDialect.h).
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_CHLO_OPS_TD
#define FLOORS_CHLO_OPS_TD

include "ChloBase.td"

class Chlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Chlo_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Unary elementwise ops: `chlo.op %x : T -> T`
//===----------------------------------------------------------------------===//

// `sameElementType` = 1: result element type equals the operand's.
// `sameElementType` = 0: result element type is i1 (the is_inf family).
class Chlo_UnaryElementwiseOp<string mnemonic, Type operandType,
                              Type resultType, bit sameElementType = 1,
                              list<Trait> traits = []>
    : Chlo_Op<mnemonic, traits # [Pure]> {
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  let assemblyFormat =
      "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::floors::chlo::verifyUnaryElementwiseOp(
          getOperation(), /*sameElementType=*/}] # sameElementType # [{);
    }
  }];
}

class Chlo_UnaryFpOp<string mnemonic>
    : Chlo_UnaryElementwiseOp<mnemonic, Chlo_FpTensor, Chlo_FpTensor>;
class Chlo_UnaryFpOrComplexOp<string mnemonic>
    : Chlo_UnaryElementwiseOp<mnemonic, Chlo_FpOrComplexTensor,
                              Chlo_FpOrComplexTensor>;
class Chlo_UnaryPredicateOp<string mnemonic>
    : Chlo_UnaryElementwiseOp<mnemonic, Chlo_FpTensor, Chlo_PredTensor,
                              /*sameElementType=*/0>;

def Chlo_SquareOp : Chlo_UnaryElementwiseOp<"square",
    Chlo_IntFpOrComplexTensor, Chlo_IntFpOrComplexTensor> {
  let summary = "x * x, elementwise";
}
def Chlo_ErfOp : Chlo_UnaryFpOp<"erf"> {
  let summary = "Gauss error function, elementwise";
}
def Chlo_ErfcOp : Chlo_UnaryFpOp<"erfc"> {
  let summary = "complementary error function 1 - erf(x), elementwise";
}
def Chlo_ErfInvOp : Chlo_UnaryFpOp<"erf_inv"> {
  let summary = "inverse error function, elementwise";
}
def Chlo_LgammaOp : Chlo_UnaryFpOp<"lgamma"> {
  let summary = "log |Gamma(x)|, elementwise";
}
def Chlo_DigammaOp : Chlo_UnaryFpOp<"digamma"> {
  let summary = "digamma (psi) function, elementwise";
}
def Chlo_BesselI1eOp : Chlo_UnaryFpOp<"bessel_i1e"> {
  let summary = "exponentially scaled modified Bessel function of order 1";
}
def Chlo_TanOp : Chlo_UnaryFpOrComplexOp<"tan"> {
  let summary = "tangent, elementwise";
}
def Chlo_SinhOp : Chlo_UnaryFpOrComplexOp<"sinh"> {
  let summary = "hyperbolic sine, elementwise";
}
def Chlo_CoshOp : Chlo_UnaryFpOrComplexOp<"cosh"> {
  let summary = "hyperbolic cosine, elementwise";
}
def Chlo_AsinOp : Chlo_UnaryFpOrComplexOp<"asin"> {
  let summary = "arcsine, elementwise";
}
def Chlo_AcosOp : Chlo_UnaryFpOrComplexOp<"acos"> {
  let summary = "arccosine, elementwise";
}
def Chlo_AtanOp : Chlo_UnaryFpOrComplexOp<"atan"> {
  let summary = "arctangent, elementwise";
}
def Chlo_AsinhOp : Chlo_UnaryFpOrComplexOp<"asinh"> {
  let summary = "inverse hyperbolic sine, elementwise";
}
def Chlo_AcoshOp : Chlo_UnaryFpOrComplexOp<"acosh"> {
  let summary = "inverse hyperbolic cosine, elementwise";
}
def Chlo_AtanhOp : Chlo_UnaryFpOrComplexOp<"atanh"> {
  let summary = "inverse hyperbolic tangent, elementwise";
}
def Chlo_IsInfOp : Chlo_UnaryPredicateOp<"is_inf"> {
  let summary = "true where x is +inf or -inf";
}
def Chlo_IsNegInfOp : Chlo_UnaryPredicateOp<"is_neg_inf"> {
  let summary = "true where x is -inf";
}
def Chlo_IsPosInfOp : Chlo_UnaryPredicateOp<"is_pos_inf"> {
  let summary = "true where x is +inf";
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops without broadcasting:
//   `chlo.op %a, %b : T, T -> T`
//===----------------------------------------------------------------------===//

def Chlo_PolygammaOp : Chlo_Op<"polygamma", [Pure]> {
  let summary = "polygamma function psi^(n)(x), elementwise";
  let arguments = (ins Chlo_FpTensor:$n, Chlo_FpTensor:$x);
  let results = (outs Chlo_FpTensor:$result);
  let assemblyFormat =
      "$n `,` $x attr-dict `:` type($n) `,` type($x) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::floors::chlo::verifyBinaryElementwiseOp(getOperation(), "n",
                                                       "x");
    }
  }];
}

def Chlo_ZetaOp : Chlo_Op<"zeta", [Pure]> {
  let summary = "Hurwitz zeta function zeta(x, q), elementwise";
  let arguments = (ins Chlo_FpTensor:$x, Chlo_FpTensor:$q);
  let results = (outs Chlo_FpTensor:$result);
  let assemblyFormat =
      "$x `,` $q attr-dict `:` type($x) `,` type($q) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::floors::chlo::verifyBinaryElementwiseOp(getOperation(), "x",
                                                       "q");
    }
  }];
}

def Chlo_NextAfterOp : Chlo_Op<"next_after", [Pure]> {
  let summary = "next representable value after x in the direction of y";
  let arguments = (ins Chlo_FpTensor:$x, Chlo_FpTensor:$y);
  let results = (outs Chlo_FpTensor:$result);
  let assemblyFormat =
      "$x `,` $y attr-dict `:` type($x) `,` type($y) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::floors::chlo::verifyBinaryElementwiseOp(getOperation(), "x",
                                                       "y");
    }
  }];
}

//===----------------------------------------------------------------------===//
// Broadcasting binary ops:
//   `chlo.broadcast_op %a, %b {broadcast_dimensions = array<i64: ...>}
//        : (T1, T2) -> T3`
// Without broadcast_dimensions: numpy-style (right-aligned) broadcasting.
// With it: the lower-rank operand's dim i maps to dim broadcast_dimensions[i]
// of the higher-rank operand (strictly increasing, in range).
//===----------------------------------------------------------------------===//

class Chlo_BroadcastBinaryOp<string mnemonic, Type operandType,
                             list<Trait> traits = []>
    : Chlo_Op<mnemonic, traits # [Pure]> {
  let arguments = (ins operandType:$lhs, operandType:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$broadcast_dimensions);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::floors::chlo::verifyBroadcastBinaryOp(
          getOperation(), getBroadcastDimensionsAttr(),
          /*predicateResult=*/false);
    }
  }];
}

def Chlo_BroadcastAddOp
    : Chlo_BroadcastBinaryOp<"broadcast_add", Chlo_Tensor, [Commutative]> {
  let summary = "lhs + rhs with implicit broadcasting";
}
def Chlo_BroadcastSubOp
    : Chlo_BroadcastBinaryOp<"broadcast_subtract", Chlo_IntFpOrComplexTensor> {
  let summary = "lhs - rhs with implicit broadcasting";
}
def Chlo_BroadcastMulOp
    : Chlo_BroadcastBinaryOp<"broadcast_multiply", Chlo_Tensor,
                             [Commutative]> {
  let summary = "lhs * rhs with implicit broadcasting";
}
def Chlo_BroadcastDivOp
    : Chlo_BroadcastBinaryOp<"broadcast_divide", Chlo_IntFpOrComplexTensor> {
  let summary = "lhs / rhs with implicit broadcasting";
}
def Chlo_BroadcastMaxOp
    : Chlo_BroadcastBinaryOp<"broadcast_maximum", Chlo_Tensor,
                             [Commutative]> {
  let summary = "max(lhs, rhs) with implicit broadcasting";
}
def Chlo_BroadcastMinOp
    : Chlo_BroadcastBinaryOp<"broadcast_minimum", Chlo_Tensor,
                             [Commutative]> {
  let summary = "min(lhs, rhs) with implicit broadcasting";
}
def Chlo_BroadcastPowOp
    : Chlo_BroadcastBinaryOp<"broadcast_power", Chlo_IntFpOrComplexTensor> {
  let summary = "lhs ^ rhs with implicit broadcasting";
}
def Chlo_BroadcastRemOp
    : Chlo_BroadcastBinaryOp<"broadcast_remainder", Chlo_IntFpOrComplexTensor> {
  let summary = "remainder (sign of lhs) with implicit broadcasting";
}
def Chlo_BroadcastAtan2Op
    : Chlo_BroadcastBinaryOp<"broadcast_atan2", Chlo_FpOrComplexTensor> {
  let summary = "atan2(lhs, rhs) with implicit broadcasting";
}
def Chlo_BroadcastAndOp
    : Chlo_BroadcastBinaryOp<"broadcast_and", Chlo_PredOrIntTensor,
                             [Commutative]> {
  let summary = "bitwise/logical and with implicit broadcasting";
}
def Chlo_BroadcastOrOp
    : Chlo_BroadcastBinaryOp<"broadcast_or", Chlo_PredOrIntTensor,
                             [Commutative]> {
  let summary = "bitwise/logical or with implicit broadcasting";
}
def Chlo_BroadcastXorOp
    : Chlo_BroadcastBinaryOp<"broadcast_xor", Chlo_PredOrIntTensor,
                             [Commutative]> {
  let summary = "bitwise/logical xor with implicit broadcasting";
}
def Chlo_BroadcastShiftLeftOp
    : Chlo_BroadcastBinaryOp<"broadcast_shift_left", Chlo_IntTensor> {
  let summary = "lhs << rhs with implicit broadcasting";
}
def Chlo_BroadcastShiftRightArithmeticOp
    : Chlo_BroadcastBinaryOp<"broadcast_shift_right_arithmetic",
                             Chlo_IntTensor> {
  let summary = "arithmetic lhs >> rhs with implicit broadcasting";
}
def Chlo_BroadcastShiftRightLogicalOp
    : Chlo_BroadcastBinaryOp<"broadcast_shift_right_logical",
                             Chlo_IntTensor> {
  let summary = "logical lhs >> rhs with implicit broadcasting";
}

def Chlo_BroadcastCompareOp : Chlo_Op<"broadcast_compare", [Pure]> {
  let summary = "elementwise comparison with implicit broadcasting";
  let arguments = (ins Chlo_Tensor:$lhs, Chlo_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$broadcast_dimensions,
                       Chlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Chlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs Chlo_PredTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Chlo_BroadcastSelectOp : Chlo_Op<"broadcast_select", [Pure]> {
  let summary = "pred ? on_true : on_false with implicit broadcasting";
  let arguments = (ins Chlo_PredTensor:$pred, Chlo_Tensor:$on_true,
                       Chlo_Tensor:$on_false);
  let results = (outs Chlo_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:`
    `(` type($pred) `,` type($on_true) `,` type($on_false) `)` `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// top_k
//===----------------------------------------------------------------------===//

def Chlo_TopKOp : Chlo_Op<"top_k", [Pure]> {
  let summary = "the k largest entries (and their indices) of the last dim";
  let description = [{
    Sorted descending along the last dimension; ties keep the lower index
    first. `values` has the operand's shape with the last dimension replaced
    by k; `indices` the same shape with i32 elements.
  }];
  let arguments = (ins Chlo_IntOrFpTensor:$operand, I64Attr:$k);
  let results = (outs Chlo_IntOrFpTensor:$values, Chlo_I32Tensor:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:`
    type($operand) `->` `(` type($values) `,` type($indices) `)`
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Chlo_ConstantOp
    : Chlo_Op<"constant", [ConstantLike, Pure,
                           AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (`chlo.constant dense<...> : tensor<...>`)";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Chlo_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
}

// No pretty form (JAX prints it generically):
//   %0 = "chlo.constant_like"(%arg0) <{value = 1.0 : f32}>
//            : (tensor<?xf32>) -> tensor<?xf32>
def Chlo_ConstantLikeOp : Chlo_Op<"constant_like", [Pure]> {
  let summary = "a splat constant with the shape of the operand";
  let arguments = (ins TypedAttrInterface:$value, Chlo_Tensor:$operand);
  let results = (outs Chlo_Tensor:$result);
  let hasVerifier = 1;
}

#endif // FLOORS_CHLO_OPS_TD
