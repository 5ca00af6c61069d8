//===- StablehloOps.td - stablehlo ops ------------------------*- tablegen -*-===//
//
// Entry file for mlir-tblgen (build.rs runs every generator on this file).
//
// Ops follow the StableHLO specification; their textual syntax is the one
// JAX prints. Ops that JAX prints in generic form (sort, gather, scatter,
// reduce_window, select_and_scatter, case, if, map, the batch norms,
// triangular_solve, the collectives, infeed/outfeed/send/recv,
// async_start/async_done, dynamic_gather, dynamic_conv) have no assembly
// format on purpose, so mlir-opt prints them the way JAX does.
//
// Custom directives (`custom<X>`) are implemented in
// StablehloAssemblyFormat.cpp; verifiers in StablehloVerifiers.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_OPS
#define FLOORS_STABLEHLO_OPS

include "StablehloBase.td"
include "StablehloEnums.td"
include "StablehloAttrs.td"
include "StablehloTypes.td"

include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Stablehlo_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stablehlo_Dialect, mnemonic, traits>;

// Elementwise shape/type rules, checked in C++ (StablehloTraits.h) so that the
// message names the offending operand.
class Stablehlo_NativeTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::floors::stablehlo::OpTrait";
}
// All operands and results: compatible shapes and the same element type.
def HLO_SameOperandsAndResultType : Stablehlo_NativeTrait<"SameOperandsAndResultType">;
// All operands and results: compatible shapes (element types may differ).
def HLO_SameOperandsAndResultShape : Stablehlo_NativeTrait<"SameOperandsAndResultShape">;

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//   %r = stablehlo.abs %x : tensor<8x16xf32>
//   %r = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
//===----------------------------------------------------------------------===//

class Stablehlo_UnaryOp<string mnemonic, Type operandType, Type resultType,
                        list<Trait> traits = [HLO_SameOperandsAndResultType]>
    : Stablehlo_Op<mnemonic, !listconcat(traits, [Pure, Elementwise])> {
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

class Stablehlo_SameTypeUnaryOp<string mnemonic, Type type>
    : Stablehlo_UnaryOp<mnemonic, type, type>;

// abs of a complex tensor returns its real element type, so it has its own
// verifier instead of the same-type trait.
def Stablehlo_AbsOp : Stablehlo_UnaryOp<"abs", HLO_SIntFpComplexOrQuantizedIntTensor,
    HLO_SIntFpOrQuantizedIntTensor, [HLO_SameOperandsAndResultShape]> {
  let hasVerifier = 1;
}
def Stablehlo_CbrtOp : Stablehlo_SameTypeUnaryOp<"cbrt", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_CeilOp : Stablehlo_SameTypeUnaryOp<"ceil", HLO_FpOrQuantizedIntTensor>;
def Stablehlo_ClzOp : Stablehlo_SameTypeUnaryOp<"count_leading_zeros", HLO_IntTensor>;
def Stablehlo_CosineOp : Stablehlo_SameTypeUnaryOp<"cosine", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_ExpOp : Stablehlo_SameTypeUnaryOp<"exponential", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_Expm1Op : Stablehlo_SameTypeUnaryOp<"exponential_minus_one", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_FloorOp : Stablehlo_SameTypeUnaryOp<"floor", HLO_FpOrQuantizedIntTensor>;
def Stablehlo_IsFiniteOp : Stablehlo_UnaryOp<"is_finite", HLO_FpOrQuantizedIntTensor, HLO_PredTensor,
    [HLO_SameOperandsAndResultShape]>;
def Stablehlo_LogOp : Stablehlo_SameTypeUnaryOp<"log", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_Log1pOp : Stablehlo_SameTypeUnaryOp<"log_plus_one", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_LogisticOp : Stablehlo_SameTypeUnaryOp<"logistic", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_NotOp : Stablehlo_SameTypeUnaryOp<"not", HLO_PredOrIntTensor>;
def Stablehlo_NegOp : Stablehlo_SameTypeUnaryOp<"negate", HLO_IntFpComplexOrQuantizedIntTensor>;
def Stablehlo_PopulationCountOp : Stablehlo_SameTypeUnaryOp<"popcnt", HLO_IntTensor>;
def Stablehlo_RoundOp : Stablehlo_SameTypeUnaryOp<"round_nearest_afz", HLO_FpOrQuantizedIntTensor>;
def Stablehlo_RoundNearestEvenOp : Stablehlo_SameTypeUnaryOp<"round_nearest_even", HLO_FpOrQuantizedIntTensor>;
def Stablehlo_RsqrtOp : Stablehlo_SameTypeUnaryOp<"rsqrt", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_SignOp : Stablehlo_SameTypeUnaryOp<"sign", HLO_SIntFpComplexOrQuantizedIntTensor>;
def Stablehlo_SineOp : Stablehlo_SameTypeUnaryOp<"sine", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_SqrtOp : Stablehlo_SameTypeUnaryOp<"sqrt", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_TanOp : Stablehlo_SameTypeUnaryOp<"tan", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_TanhOp : Stablehlo_SameTypeUnaryOp<"tanh", HLO_FpComplexOrQuantizedIntTensor>;

// convert: any element type to any element type, same shape.
def Stablehlo_ConvertOp : Stablehlo_UnaryOp<"convert", HLO_NonQuantizedTensor, HLO_NonQuantizedTensor,
    [HLO_SameOperandsAndResultShape]>;

// bitcast_convert: shapes differ when the bit widths differ (extra minor dim).
def Stablehlo_BitcastConvertOp : Stablehlo_Op<"bitcast_convert", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// reduce_precision: `format = e5m10`.
def Stablehlo_ReducePrecisionOp : Stablehlo_Op<"reduce_precision",
    [HLO_SameOperandsAndResultType, Pure, Elementwise]> {
  let arguments = (ins HLO_FpTensor:$operand, I32Attr:$exponent_bits,
                       I32Attr:$mantissa_bits);
  let results = (outs HLO_FpTensor:$output);
  let assemblyFormat = [{
    $operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits)
    attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//   %r = stablehlo.add %a, %b : tensor<8x16xf32>
//===----------------------------------------------------------------------===//

class Stablehlo_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Stablehlo_Op<mnemonic,
        !listconcat([HLO_SameOperandsAndResultType, Pure, Elementwise], traits)> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict
      `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def Stablehlo_AddOp : Stablehlo_BinaryOp<"add", HLO_Tensor, [Commutative]>;
def Stablehlo_Atan2Op : Stablehlo_BinaryOp<"atan2", HLO_FpComplexOrQuantizedIntTensor>;
def Stablehlo_DivOp : Stablehlo_BinaryOp<"divide", HLO_IntFpComplexOrQuantizedIntTensor>;
def Stablehlo_MaxOp : Stablehlo_BinaryOp<"maximum", HLO_Tensor, [Commutative]>;
def Stablehlo_MinOp : Stablehlo_BinaryOp<"minimum", HLO_Tensor, [Commutative]>;
def Stablehlo_MulOp : Stablehlo_BinaryOp<"multiply", HLO_Tensor, [Commutative]>;
def Stablehlo_PowOp : Stablehlo_BinaryOp<"power", HLO_IntFpComplexOrQuantizedIntTensor>;
def Stablehlo_RemOp : Stablehlo_BinaryOp<"remainder", HLO_IntFpComplexOrQuantizedIntTensor>;
def Stablehlo_ShiftLeftOp : Stablehlo_BinaryOp<"shift_left", HLO_IntTensor>;
def Stablehlo_ShiftRightArithmeticOp : Stablehlo_BinaryOp<"shift_right_arithmetic", HLO_IntTensor>;
def Stablehlo_ShiftRightLogicalOp : Stablehlo_BinaryOp<"shift_right_logical", HLO_IntTensor>;
def Stablehlo_SubtractOp : Stablehlo_BinaryOp<"subtract", HLO_IntFpComplexOrQuantizedIntTensor>;
def Stablehlo_AndOp : Stablehlo_BinaryOp<"and", HLO_PredOrIntTensor, [Commutative]>;
def Stablehlo_OrOp : Stablehlo_BinaryOp<"or", HLO_PredOrIntTensor, [Commutative]>;
def Stablehlo_XorOp : Stablehlo_BinaryOp<"xor", HLO_PredOrIntTensor, [Commutative]>;

//===----------------------------------------------------------------------===//
// compare / select / clamp
//===----------------------------------------------------------------------===//

//   %r = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
def Stablehlo_CompareOp : Stablehlo_Op<"compare",
    [HLO_SameOperandsAndResultShape, Pure, Elementwise]> {
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       Stablehlo_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<Stablehlo_ComparisonTypeAttr>:$compare_type);
  let results = (outs HLO_PredTensor:$result);
  let assemblyFormat = [{
    `` $comparison_direction `,` $lhs `,` $rhs (`,` `` $compare_type^)?
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.select %pred, %t, %f : tensor<i1>, tensor<f32>
// `pred` is either a scalar or has the shape of the other operands.
def Stablehlo_SelectOp : Stablehlo_Op<"select", [Pure]> {
  let arguments = (ins HLO_PredTensor:$pred, HLO_Tensor:$on_true,
                       HLO_Tensor:$on_false);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
      custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.clamp %min, %x, %max : tensor<8x16xf32>
// `min`/`max` are scalars or have the shape of `operand`.
def Stablehlo_ClampOp : Stablehlo_Op<"clamp", [Pure]> {
  let arguments = (ins HLO_Tensor:$min, HLO_Tensor:$operand, HLO_Tensor:$max);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:`
      custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants and iota
//===----------------------------------------------------------------------===//

//   %cst = stablehlo.constant dense<1.0> : tensor<f32>
// Results are named %cst (float/complex) or %c (int/bool) as in JAX's text.
def Stablehlo_ConstantOp : Stablehlo_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let arguments = (ins ElementsAttr:$value);
  let results = (outs HLO_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

//   %r = stablehlo.iota dim = 1 : tensor<8x16xi32>
def Stablehlo_IotaOp : Stablehlo_Op<"iota", [Pure]> {
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs RankedTensorOf<[HLO_Int, HLO_Float, HLO_Complex]>:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops: reshape, transpose, broadcast, concatenate, slice, pad, reverse
//===----------------------------------------------------------------------===//

//   %r = stablehlo.reshape %x : (tensor<4x6xf32>) -> tensor<24xf32>
def Stablehlo_ReshapeOp : Stablehlo_Op<"reshape", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//   %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
def Stablehlo_TransposeOp : Stablehlo_Op<"transpose", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($permutation)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
def Stablehlo_BroadcastInDimOp : Stablehlo_Op<"broadcast_in_dim", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($broadcast_dimensions)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Legacy broadcast: result shape = broadcast_sizes ++ shape(operand).
//   %r = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
def Stablehlo_BroadcastOp : Stablehlo_Op<"broadcast", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$broadcast_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `sizes` `=` custom<Dims>($broadcast_sizes)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<4x6xf32>, tensor<3x6xf32>) -> tensor<7x6xf32>
def Stablehlo_ConcatenateOp : Stablehlo_Op<"concatenate", [Pure]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.slice %x [2:10:2, 1:7] : (tensor<10x9xf32>) -> tensor<4x6xf32>
def Stablehlo_SliceOp : Stablehlo_Op<"slice", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_slice %x, %i, %j, sizes = [4, 8] : (...) -> tensor<4x8xf32>
def Stablehlo_DynamicSliceOp : Stablehlo_Op<"dynamic_slice", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, Variadic<HLO_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `` custom<IndexOperands>($start_indices)
      `sizes` `=` custom<Dims>($slice_sizes)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_update_slice %x, %upd, %i, %j : (...) -> tensor<12x8xf32>
def Stablehlo_DynamicUpdateSliceOp : Stablehlo_Op<"dynamic_update_slice", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$update,
                       Variadic<HLO_ScalarIntTensor>:$start_indices);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//   %r = stablehlo.pad %x, %v, low = [1, 0], high = [2, 3], interior = [0, 0] : (...) -> ...
def Stablehlo_PadOp : Stablehlo_Op<"pad", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,`
      `low` `=` custom<Dims>($edge_padding_low) `,`
      `high` `=` custom<Dims>($edge_padding_high) `,`
      `interior` `=` custom<Dims>($interior_padding)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.reverse %x, dims = [1] : tensor<4x6xf32>
def Stablehlo_ReverseOp : Stablehlo_Op<"reverse", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` custom<Dims>($dimensions) attr-dict
      `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Contractions: dot_general, dot (legacy), convolution
//===----------------------------------------------------------------------===//

//   %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
//          contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT],
//          algorithm = <lhs_precision_type = f32, ...> : (...) -> ...
def Stablehlo_DotGeneralOp : Stablehlo_Op<"dot_general", [Pure]> {
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       Stablehlo_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config,
                       OptionalAttr<Stablehlo_DotAlgorithm>:$algorithm);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) ``
      custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Legacy dot: vector/matrix products, contracting lhs's last and rhs's first dim.
//   %r = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (...) -> ...
def Stablehlo_DotOp : Stablehlo_Op<"dot", [Pure]> {
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `` custom<PrecisionConfig>($precision_config)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
//          window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1],
//                    rhs_dilate = [1, 1], reverse = [false, false]}
//          {batch_group_count = 1 : i64, feature_group_count = 1 : i64, ...} : (...) -> ...
def Stablehlo_ConvolutionOp : Stablehlo_Op<"convolution", [Pure]> {
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    `(` operands `)`
      `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,`
      `window` `=` `{` custom<WindowAttributes>($window_strides, $padding,
                                                $lhs_dilation, $rhs_dilation,
                                                $window_reversal) `}`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions: reduce, reduce_window, select_and_scatter
//===----------------------------------------------------------------------===//

// Pretty forms (C++ parser/printer):
//   stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : ...
//   stablehlo.reduce(%x init: %c), (%y init: %d) across dimensions = [1] : ...
//     reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) { ... }
// Computation bodies (reduce, reduce_window, select_and_scatter, scatter,
// sort) are functions in the spec: isolated from above, so canonicalize and
// CSE cannot hoist their constants out and make them capture values.
def Stablehlo_ReduceOp : Stablehlo_Op<"reduce",
    [RecursiveMemoryEffects, SameVariadicOperandSize, IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

// Generic form only (JAX prints it so).
def Stablehlo_ReduceWindowOp : Stablehlo_Op<"reduce_window",
    [RecursiveMemoryEffects, SameVariadicOperandSize, IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

// Generic form only.
def Stablehlo_SelectAndScatterOp : Stablehlo_Op<"select_and_scatter",
    [RecursiveMemoryEffects, IsolatedFromAbove]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$source,
                       HLO_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Indexing: gather, scatter (generic form only)
//===----------------------------------------------------------------------===//

def Stablehlo_GatherOp : Stablehlo_Op<"gather", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def Stablehlo_ScatterOp : Stablehlo_Op<"scatter",
    [RecursiveMemoryEffects, SameVariadicOperandSize, IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       HLO_IntTensor:$scatter_indices,
                       Variadic<HLO_Tensor>:$updates,
                       Stablehlo_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// sort (generic form only)
//===----------------------------------------------------------------------===//

def Stablehlo_SortOp : Stablehlo_Op<"sort", [RecursiveMemoryEffects, IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow: while, if, case, return, optimization_barrier
//===----------------------------------------------------------------------===//

//   %r:2 = stablehlo.while(%iterArg = %a, %iterArg_0 = %b) : tensor<i32>, tensor<f32>
//     cond { ... stablehlo.return %p : tensor<i1> } do { ... }
// Both regions' arguments print as %iterArg (getAsmBlockArgumentNames).
def Stablehlo_WhileOp : Stablehlo_Op<"while", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$operand);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

// Generic form: "stablehlo.if"(%p) ({ true branch }, { false branch })
def Stablehlo_IfOp : Stablehlo_Op<"if", [RecursiveMemoryEffects]> {
  let arguments = (ins HLO_ScalarPredTensor:$pred);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region SizedRegion<1>:$true_branch, SizedRegion<1>:$false_branch);
  let hasVerifier = 1;
}

// Generic form: "stablehlo.case"(%i) ({ branch 0 }, { branch 1 }, ...)
// An out-of-range index runs the last branch.
def Stablehlo_CaseOp : Stablehlo_Op<"case", [RecursiveMemoryEffects]> {
  let arguments = (ins HLO_ScalarI32Tensor:$index);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

//   stablehlo.return %a, %b : tensor<f32>, tensor<i32>
def Stablehlo_ReturnOp : Stablehlo_Op<"return", [Pure, Terminator]> {
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
  let hasVerifier = 1;
}

//   %r:2 = stablehlo.optimization_barrier %a, %b : tensor<f32>, tensor<i32>
// Not Pure: it exists to stop code motion across it.
def Stablehlo_OptimizationBarrierOp : Stablehlo_Op<"optimization_barrier"> {
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$operand);
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>:$result);
  let assemblyFormat = [{
    attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result)))?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

//   %t = stablehlo.tuple %a, %b : tuple<tensor<f32>, tensor<i32>>
def Stablehlo_TupleOp : Stablehlo_Op<"tuple", [Pure]> {
  let arguments = (ins Variadic<HLO_TensorOrTokenOrTuple>:$val);
  let results = (outs HLO_Tuple:$result);
  let assemblyFormat = [{
    $val attr-dict `:` custom<TupleOpType>(type($val), type($result))
  }];
  let hasVerifier = 1;
}

//   %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<f32>
def Stablehlo_GetTupleElementOp : Stablehlo_Op<"get_tuple_element", [Pure]> {
  let arguments = (ins HLO_Tuple:$operand, I32Attr:$index);
  let results = (outs HLO_TensorOrTokenOrTuple);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Miscellaneous: custom_call, composite, rng_bit_generator, batch_norm_inference
//===----------------------------------------------------------------------===//

//   %r = stablehlo.custom_call @target(%a, %b) {backend_config = "...", api_version = 2 : i32}
//          : (tensor<...>, tensor<...>) -> tensor<...>
// Opaque to floors' verifiers except for its attributes; no traits (unknown effects).
def Stablehlo_CustomCallOp : Stablehlo_Op<"custom_call"> {
  let arguments = (ins
    Variadic<HLO_TensorOrTokenOrTuple>:$inputs,
    StrAttr:$call_target_name,
    DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect,
    OptionalAttr<AnyAttrOf<[StrAttr, DictionaryAttr]>>:$backend_config,
    DefaultValuedOptionalAttr<Stablehlo_CustomCallApiVersionAttr,
        "::floors::stablehlo::CustomCallApiVersion::API_VERSION_ORIGINAL">:$api_version,
    DefaultValuedOptionalAttr<HLO_FlatSymbolRefArrayAttr, "{}">:$called_computations,
    OptionalAttr<TypedArrayAttrBase<IndexElementsAttr, "layouts">>:$operand_layouts,
    OptionalAttr<TypedArrayAttrBase<IndexElementsAttr, "layouts">>:$result_layouts,
    DefaultValuedOptionalAttr<
        TypedArrayAttrBase<Stablehlo_OutputOperandAlias, "output operand aliases">,
        "{}">:$output_operand_aliases
  );
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let assemblyFormat = [{
    custom<CustomCallTarget>($call_target_name) `(` $inputs `)`
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.composite "my.op" %a {composite_attributes = {...},
//          decomposition = @my.op.impl, version = 1 : i32} : (...) -> ...
def Stablehlo_CompositeOp : Stablehlo_Op<"composite",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let arguments = (ins
    Variadic<HLO_TensorOrTokenOrTuple>:$inputs,
    StrAttr:$name,
    DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$composite_attributes,
    FlatSymbolRefAttr:$decomposition,
    DefaultValuedOptionalAttr<I32Attr, "0">:$version
  );
  let results = (outs Variadic<HLO_TensorOrTokenOrTuple>);
  let assemblyFormat = "$name $inputs attr-dict `:` functional-type(operands, results)";
}

//   %s, %r = stablehlo.rng_bit_generator %state, algorithm = DEFAULT
//              : (tensor<2xui64>) -> (tensor<2xui64>, tensor<10x12xui32>)
def Stablehlo_RngBitGeneratorOp : Stablehlo_Op<"rng_bit_generator", [Pure]> {
  let arguments = (ins Stablehlo_RngAlgorithmAttr:$rng_algorithm,
                       HLO_IntOrFpTensor:$initial_state);
  let results = (outs HLO_IntOrFpTensor:$output_state, HLO_IntOrFpTensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` `` $rng_algorithm attr-dict
      `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

// Generic form only.
def Stablehlo_BatchNormInferenceOp : Stablehlo_Op<"batch_norm_inference", [Pure]> {
  let arguments = (ins RankedTensorOf<[HLO_Float]>:$operand,
                       HLO_FpTensor:$scale, HLO_FpTensor:$offset,
                       HLO_FpTensor:$mean, HLO_FpTensor:$variance,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Complex numbers: real, imag, complex
//===----------------------------------------------------------------------===//

//   %r = stablehlo.real %x : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
// The result has the operand's element type, or its real part's when complex.
def Stablehlo_RealOp : Stablehlo_UnaryOp<"real", HLO_FpOrComplexTensor, HLO_FpTensor,
    [HLO_SameOperandsAndResultShape]> {
  let hasVerifier = 1;
}
def Stablehlo_ImagOp : Stablehlo_UnaryOp<"imag", HLO_FpOrComplexTensor, HLO_FpTensor,
    [HLO_SameOperandsAndResultShape]> {
  let hasVerifier = 1;
}

//   %r = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
// Only the result type is printed when the operands have its real counterpart.
def Stablehlo_ComplexOp : Stablehlo_Op<"complex",
    [HLO_SameOperandsAndResultShape, Pure, Elementwise]> {
  let arguments = (ins HLO_Fp32Or64Tensor:$lhs, HLO_Fp32Or64Tensor:$rhs);
  let results = (outs HLO_ComplexTensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tokens and host communication: create_token, after_all, infeed, outfeed,
// send, recv. infeed/outfeed/send/recv print in generic form (as JAX prints
// them); they have no traits, so nothing moves or drops them.
//===----------------------------------------------------------------------===//

//   %t = stablehlo.create_token : !stablehlo.token
def Stablehlo_CreateTokenOp : Stablehlo_Op<"create_token", [Pure]> {
  let results = (outs HLO_Token:$output);
  let assemblyFormat = "attr-dict `:` type(results)";
}

//   %t = stablehlo.after_all %a, %b : !stablehlo.token
def Stablehlo_AfterAllOp : Stablehlo_Op<"after_all", [Pure]> {
  let arguments = (ins Variadic<HLO_Token>:$inputs);
  let results = (outs HLO_Token:$result);
  let assemblyFormat = [{
    $inputs attr-dict
      `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), type($result))
  }];
}

//   %r:2 = "stablehlo.infeed"(%t) <{infeed_config = ""}> : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
def Stablehlo_InfeedOp : Stablehlo_Op<"infeed"> {
  let arguments = (ins HLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config,
                       OptionalAttr<ArrayAttr>:$layout);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

//   %t1 = "stablehlo.outfeed"(%x, %t) <{outfeed_config = ""}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
def Stablehlo_OutfeedOp : Stablehlo_Op<"outfeed"> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, HLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs HLO_Token);
}

//   %t1 = "stablehlo.send"(%x, %t) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>,
//           is_host_transfer = true}> : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
def Stablehlo_SendOp : Stablehlo_Op<"send"> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, HLO_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs HLO_Token);
}

//   %r:2 = "stablehlo.recv"(%t) <{channel_handle = ..., is_host_transfer = true}>
//            : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
def Stablehlo_RecvOp : Stablehlo_Op<"recv"> {
  let arguments = (ins HLO_Token:$token,
                       Stablehlo_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives and process ids. All but the ids print in generic form, e.g.
//   %r = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
//          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
//     ^bb0(%a: tensor<f32>, %b: tensor<f32>): ... stablehlo.return %s : tensor<f32>
//   }) : (tensor<8xf32>) -> tensor<8xf32>
// replica_groups is a 2-d i64 tensor, one row per group (-1 pads short rows).
//===----------------------------------------------------------------------===//

//   %r = stablehlo.replica_id : tensor<ui32>
def Stablehlo_ReplicaIdOp : Stablehlo_Op<"replica_id", [Pure]> {
  let results = (outs HLO_ScalarUI32Tensor);
  let assemblyFormat = "attr-dict `:` type(results)";
}

//   %r = stablehlo.partition_id : tensor<ui32>
def Stablehlo_PartitionIdOp : Stablehlo_Op<"partition_id", [Pure]> {
  let results = (outs HLO_ScalarUI32Tensor);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def Stablehlo_AllGatherOp : Stablehlo_Op<"all_gather"> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

// The computation is a function of the spec (like reduce's body): isolated.
// Collectives have no effect traits: every process must run them, so nothing
// may drop or merge them.
def Stablehlo_AllReduceOp : Stablehlo_Op<"all_reduce", [IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let regions = (region SizedRegion<1>:$computation);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_ReduceScatterOp : Stablehlo_Op<"reduce_scatter", [IsolatedFromAbove]> {
  let arguments = (ins HLO_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let regions = (region SizedRegion<1>:$computation);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def Stablehlo_AllToAllOp : Stablehlo_Op<"all_to_all"> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$split_dimension,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$concat_dimension,
                       ConfinedAttr<I64Attr, [IntPositive]>:$split_count,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_CollectiveBroadcastOp : Stablehlo_Op<"collective_broadcast"> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$has_dynamic_root);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_CollectiveReduceOp : Stablehlo_Op<"collective_reduce", [IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids,
                       UnitAttr:$has_dynamic_root);
  let regions = (region SizedRegion<1>:$computation);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

def Stablehlo_CollectivePermuteOp : Stablehlo_Op<"collective_permute"> {
  let arguments = (ins HLO_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<Stablehlo_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

// Generic form: "stablehlo.async_start"(%x) ({ ... stablehlo.return %r }) : (...) -> !stablehlo.future<...>
def Stablehlo_AsyncStartOp : Stablehlo_Op<"async_start", [IsolatedFromAbove]> {
  let arguments = (ins Variadic<HLO_Tensor>:$operands);
  let regions = (region SizedRegion<1>:$body);
  let results = (outs HLO_Future);
  let hasVerifier = 1;
}

def Stablehlo_AsyncDoneOp : Stablehlo_Op<"async_done"> {
  let arguments = (ins HLO_Future:$operand);
  let results = (outs Variadic<HLO_Tensor>);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// map, batch norm (generic form only)
//===----------------------------------------------------------------------===//

//   %r = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0>}> ({ ^bb0(%x: tensor<f32>, %y: tensor<f32>): ... })
//          : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
def Stablehlo_MapOp : Stablehlo_Op<"map",
    [RecursiveMemoryEffects, IsolatedFromAbove, HLO_SameOperandsAndResultShape]> {
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, DenseI64ArrayAttr:$dimensions);
  let regions = (region SizedRegion<1>:$computation);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def Stablehlo_BatchNormGradOp : Stablehlo_Op<"batch_norm_grad", [Pure]> {
  let arguments = (ins HLO_FpTensor:$operand, HLO_FpTensor:$scale, HLO_FpTensor:$mean,
                       HLO_FpTensor:$variance, HLO_FpTensor:$grad_output,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$grad_operand, HLO_FpTensor:$grad_scale,
                      HLO_FpTensor:$grad_offset);
  let hasVerifier = 1;
}

def Stablehlo_BatchNormTrainingOp : Stablehlo_Op<"batch_norm_training", [Pure]> {
  let arguments = (ins HLO_FpTensor:$operand, HLO_FpTensor:$scale, HLO_FpTensor:$offset,
                       F32Attr:$epsilon, I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$output, HLO_FpTensor:$batch_mean,
                      HLO_FpTensor:$batch_var);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra and FFT: cholesky, triangular_solve, fft
//===----------------------------------------------------------------------===//

//   %r = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
def Stablehlo_CholeskyOp : Stablehlo_Op<"cholesky", [Pure]> {
  let arguments = (ins HLO_FpComplexOrQuantizedIntTensor:$a,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$lower);
  let results = (outs HLO_FpComplexOrQuantizedIntTensor:$result);
  let assemblyFormat = [{
    $a (`,` `lower` `=` $lower^)? attr-dict
      `:` custom<SameOperandsAndResultType>(type($a), type($result))
  }];
  let hasVerifier = 1;
}

// Generic form: "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true,
//   transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (...) -> ...
def Stablehlo_TriangularSolveOp : Stablehlo_Op<"triangular_solve", [Pure]> {
  let arguments = (ins HLO_FpOrComplexTensor:$a, HLO_FpOrComplexTensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower, BoolAttr:$unit_diagonal,
                       Stablehlo_TransposeAttr:$transpose_a);
  let results = (outs HLO_FpOrComplexTensor);
  let hasVerifier = 1;
}

//   %r = stablehlo.fft %x, type =  FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
def Stablehlo_FftOp : Stablehlo_Op<"fft", [Pure]> {
  let arguments = (ins HLO_FpOrComplexTensor:$operand, Stablehlo_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs HLO_FpOrComplexTensor);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// rng (the legacy one; rng_bit_generator is above)
//===----------------------------------------------------------------------===//

//   %r = stablehlo.rng %a, %b, %shape, distribution =  UNIFORM
//          : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
def Stablehlo_RngOp : Stablehlo_Op<"rng"> {
  let arguments = (ins HLO_ScalarPredIntOrFpTensor:$a, HLO_ScalarPredIntOrFpTensor:$b,
                       HLO_StaticDimensionTensor:$shape,
                       Stablehlo_RngDistributionAttr:$rng_distribution);
  let results = (outs HLO_PredIntOrFpTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Dynamic shapes: sizes and shapes given as values
//===----------------------------------------------------------------------===//

//   %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
def Stablehlo_GetDimensionSizeOp : Stablehlo_Op<"get_dimension_size", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs HLO_ScalarI32Tensor);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<1x?x4xf32>
def Stablehlo_DynamicBroadcastInDimOp : Stablehlo_Op<"dynamic_broadcast_in_dim", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand,
                       HLO_StaticDimensionTensor:$output_dimensions,
                       DenseI64ArrayAttr:$broadcast_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_expanding_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$known_nonexpanding_dimensions);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $operand `,` $output_dimensions `,` `dims` `=` custom<Dims>($broadcast_dimensions)
      attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
def Stablehlo_DynamicIotaOp : Stablehlo_Op<"dynamic_iota", [Pure]> {
  let arguments = (ins HLO_StaticDimensionTensor:$output_shape,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $output_shape `,` `dim` `=` $iota_dimension attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_reshape %x, %shape : (tensor<?x5xf32>, tensor<1xi32>) -> tensor<?xf32>
def Stablehlo_DynamicReshapeOp : Stablehlo_Op<"dynamic_reshape", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_StaticDimensionTensor:$output_shape);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//   %r = stablehlo.dynamic_pad %x, %v, %lo, %hi, %in : (tensor<?x5xf32>, tensor<f32>, tensor<2xi32>, ...) -> ...
def Stablehlo_DynamicPadOp : Stablehlo_Op<"dynamic_pad", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_ScalarTensor:$padding_value,
                       HLO_StaticDimensionTensor:$edge_padding_low,
                       HLO_StaticDimensionTensor:$edge_padding_high,
                       HLO_StaticDimensionTensor:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//   %r = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x5xf32>, tensor<2xi32>, ...) -> ...
def Stablehlo_RealDynamicSliceOp : Stablehlo_Op<"real_dynamic_slice", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_DimensionTensor:$start_indices,
                       HLO_DimensionTensor:$limit_indices, HLO_DimensionTensor:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

// Generic form: gather with slice_sizes as an operand.
def Stablehlo_DynamicGatherOp : Stablehlo_Op<"dynamic_gather", [Pure]> {
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       HLO_Static1DIntTensor:$slice_sizes,
                       Stablehlo_GatherDimensionNumbers:$dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

// Generic form: convolution with the padding as an operand.
def Stablehlo_DynamicConvOp : Stablehlo_Op<"dynamic_conv", [Pure]> {
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs, HLO_Static2DIntTensor:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       Stablehlo_ConvDimensionNumbers:$dimension_numbers,
                       ConfinedAttr<I64Attr, [IntPositive]>:$feature_group_count,
                       ConfinedAttr<I64Attr, [IntPositive]>:$batch_group_count,
                       OptionalAttr<Stablehlo_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

//   %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-30>>
def Stablehlo_UniformQuantizeOp : Stablehlo_UnaryOp<"uniform_quantize",
    HLO_FpOrAnyQuantizedTensor, HLO_AnyQuantizedTensor, [HLO_SameOperandsAndResultShape]>;

//   %x = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<4xf32>
def Stablehlo_UniformDequantizeOp : Stablehlo_UnaryOp<"uniform_dequantize",
    HLO_AnyQuantizedTensor, HLO_FpTensor, [HLO_SameOperandsAndResultShape]> {
  let hasVerifier = 1;
}

#endif // FLOORS_STABLEHLO_OPS
