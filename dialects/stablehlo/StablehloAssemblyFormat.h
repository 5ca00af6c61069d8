//===- StablehloAssemblyFormat.h - custom<...> directives -------*- C++ -*-===//
//
// Parsers and printers for the `custom<X>` directives in StablehloOps.td and
// the shared pieces of the attribute syntax. Each pair reads exactly what the
// other writes, in JAX's spelling.
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_STABLEHLO_ASSEMBLYFORMAT_H
#define FLOORS_STABLEHLO_ASSEMBLYFORMAT_H

#include "stablehlo/StablehloDialect.h"

namespace floors::stablehlo {

using mlir::ArrayAttr;
using mlir::DenseBoolArrayAttr;
using mlir::DenseI64ArrayAttr;
using mlir::DenseIntElementsAttr;
using mlir::IntegerAttr;
using mlir::OpAsmParser;
using mlir::OpAsmPrinter;
using mlir::Operation;
using mlir::ParseResult;
using mlir::StringAttr;
using mlir::Type;
using mlir::TypeRange;

// `[1, 2, 3]` as a list of integers (shared with the attribute parsers).
ParseResult parseIntList(mlir::AsmParser &p, llvm::SmallVectorImpl<int64_t> &out);
void printIntList(mlir::AsmPrinter &p, llvm::ArrayRef<int64_t> values);

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (no surrounding `<>`).
ParseResult parseConvDimsCompact(mlir::AsmParser &p, ConvDimensionNumbersAttr &attr);
// Returns false (and prints nothing) when the numbers cannot be written compactly.
bool printConvDimsCompact(mlir::AsmPrinter &p, ConvDimensionNumbersAttr attr);

// custom<Dims>: `[1, 2]` <-> DenseI64ArrayAttr.
ParseResult parseDims(OpAsmParser &p, DenseI64ArrayAttr &attr);
void printDims(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr attr);

// custom<SameOperandsAndResultType>: one type when all agree, else `(a, b) -> r`.
ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &r);
ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &b, Type &r);
ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &b, Type &c, Type &r);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op, Type a, Type r);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op, Type a, Type b, Type r);
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *op, Type a, Type b, Type c, Type r);

// custom<VariadicSameOperandsAndResultType>: one type when all agree (or no
// operands), else the functional type (after_all).
ParseResult parseVariadicSameOperandsAndResultType(
    OpAsmParser &p, llvm::SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    llvm::SmallVectorImpl<Type> &operandTypes, Type &result);
void printVariadicSameOperandsAndResultType(OpAsmPrinter &p, Operation *op,
                                            mlir::OperandRange operands, TypeRange operandTypes,
                                            Type result);

// custom<ComplexOpType>: the complex result type alone when both operands have
// its real counterpart, else the functional type.
ParseResult parseComplexOpType(OpAsmParser &p, Type &lhs, Type &rhs, Type &result);
void printComplexOpType(OpAsmPrinter &p, Operation *op, Type lhs, Type rhs, Type result);

// custom<SelectOpType>: `pred_type, result_type` or the functional type.
ParseResult parseSelectOpType(OpAsmParser &p, Type &pred, Type &onTrue, Type &onFalse, Type &result);
void printSelectOpType(OpAsmPrinter &p, Operation *op, Type pred, Type onTrue, Type onFalse, Type result);

// custom<PairwiseOpType>: `t0, t1, ...` where result i has operand i's type.
ParseResult parsePairwiseOpType(OpAsmParser &p, llvm::SmallVectorImpl<Type> &operands,
                                llvm::SmallVectorImpl<Type> &results);
void printPairwiseOpType(OpAsmPrinter &p, Operation *op, TypeRange operands, TypeRange results);

// custom<TupleOpType>: the result tuple type only.
ParseResult parseTupleOpType(OpAsmParser &p, llvm::SmallVectorImpl<Type> &operands, Type &result);
void printTupleOpType(OpAsmPrinter &p, Operation *op, TypeRange operands, Type result);

// custom<VariadicOperandWithAttribute>: `%a, %b,` (each operand followed by a comma).
ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &p, llvm::SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands);
void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *op, mlir::OperandRange operands);

// custom<SliceRanges>: `[start:limit:stride, ...]`, stride omitted when 1.
ParseResult parseSliceRanges(OpAsmParser &p, DenseI64ArrayAttr &start, DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides);
void printSliceRanges(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides);

// custom<ExponentMantissa>: `e5m10`.
ParseResult parseExponentMantissa(OpAsmParser &p, IntegerAttr &exponent, IntegerAttr &mantissa);
void printExponentMantissa(OpAsmPrinter &p, Operation *op, IntegerAttr exponent, IntegerAttr mantissa);

// custom<CustomCallTarget>: `@name`.
ParseResult parseCustomCallTarget(OpAsmParser &p, StringAttr &target);
void printCustomCallTarget(OpAsmPrinter &p, Operation *op, StringAttr target);

// custom<DotDimensionNumbers>: `batching_dims = [0] x [0], contracting_dims = [2] x [1]`.
ParseResult parseDotDimensionNumbers(OpAsmParser &p, DotDimensionNumbersAttr &attr);
void printDotDimensionNumbers(OpAsmPrinter &p, Operation *op, DotDimensionNumbersAttr attr);

// custom<PrecisionConfig>: `, precision = [DEFAULT, HIGHEST]` or nothing.
ParseResult parsePrecisionConfig(OpAsmParser &p, ArrayAttr &attr);
// custom<IndexOperands>: dynamic_slice's start indices, each ` %i,`.
ParseResult parseIndexOperands(OpAsmParser &p, llvm::SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands);
void printIndexOperands(OpAsmPrinter &p, Operation *op, mlir::OperandRange operands);
void printPrecisionConfig(OpAsmPrinter &p, Operation *op, ArrayAttr attr);
// custom<PrecisionConfigAndAlgorithm>: dot_general's optional
// `, precision = [...]` and `, algorithm = <...>`, in that order.
ParseResult parsePrecisionConfigAndAlgorithm(OpAsmParser &p, ArrayAttr &precision, DotAlgorithmAttr &algorithm);
void printPrecisionConfigAndAlgorithm(OpAsmPrinter &p, Operation *op, ArrayAttr precision, DotAlgorithmAttr algorithm);

// custom<ConvolutionDimensions>: compact conv layout.
ParseResult parseConvolutionDimensions(OpAsmParser &p, ConvDimensionNumbersAttr &attr);
void printConvolutionDimensions(OpAsmPrinter &p, Operation *op, ConvDimensionNumbersAttr attr);

// custom<WindowAttributes>: `stride = [..], pad = [[lo, hi], ..], lhs_dilate = [..],
// rhs_dilate = [..], reverse = [false, ..]` (each optional).
ParseResult parseWindowAttributes(OpAsmParser &p, DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding, DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation, DenseBoolArrayAttr &reversal);
void printWindowAttributes(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding, DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation, DenseBoolArrayAttr reversal);

} // namespace floors::stablehlo

#endif // FLOORS_STABLEHLO_ASSEMBLYFORMAT_H
