//===- StablehloAssemblyFormat.cpp - custom syntax ------------------------===//
//
// The `custom<X>` directives of StablehloOps.td, and the hand-written
// parsers/printers of constant, reduce and while. Everything here reads and
// writes the syntax JAX prints.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloAssemblyFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace floors::stablehlo {

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

ParseResult parseDims(OpAsmParser &p, DenseI64ArrayAttr &attr) {
  SmallVector<int64_t> values;
  if (parseIntList(p, values))
    return failure();
  attr = DenseI64ArrayAttr::get(p.getContext(), values);
  return success();
}

void printDims(OpAsmPrinter &p, Operation *, DenseI64ArrayAttr attr) {
  printIntList(p, attr ? attr.asArrayRef() : ArrayRef<int64_t>());
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static ParseResult parseSameTypes(OpAsmParser &p, ArrayRef<Type *> operands, Type &result) {
  SMLoc loc = p.getCurrentLocation();
  Type type;
  if (p.parseType(type))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != operands.size() || fn.getNumResults() != 1)
      return p.emitError(loc) << "expected a function type with " << operands.size()
                              << " input(s) and 1 result, got " << type;
    for (auto [i, operand] : llvm::enumerate(operands))
      *operand = fn.getInput(i);
    result = fn.getResult(0);
    return success();
  }
  for (Type *operand : operands)
    *operand = type;
  result = type;
  return success();
}

static void printSameTypes(OpAsmPrinter &p, ArrayRef<Type> operands, Type result) {
  if (llvm::all_of(operands, [&](Type t) { return t == result; })) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange(operands), TypeRange(result));
}

ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &r) {
  return parseSameTypes(p, {&a}, r);
}
ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &b, Type &r) {
  return parseSameTypes(p, {&a, &b}, r);
}
ParseResult parseSameOperandsAndResultType(OpAsmParser &p, Type &a, Type &b, Type &c, Type &r) {
  return parseSameTypes(p, {&a, &b, &c}, r);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *, Type a, Type r) {
  printSameTypes(p, {a}, r);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *, Type a, Type b, Type r) {
  printSameTypes(p, {a, b}, r);
}
void printSameOperandsAndResultType(OpAsmPrinter &p, Operation *, Type a, Type b, Type c,
                                    Type r) {
  printSameTypes(p, {a, b, c}, r);
}

ParseResult parseVariadicSameOperandsAndResultType(
    OpAsmParser &p, SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
    SmallVectorImpl<Type> &operandTypes, Type &result) {
  operandTypes.resize(operands.size());
  SmallVector<Type *> ptrs;
  for (Type &t : operandTypes)
    ptrs.push_back(&t);
  return parseSameTypes(p, ptrs, result);
}

void printVariadicSameOperandsAndResultType(OpAsmPrinter &p, Operation *, OperandRange,
                                            TypeRange operandTypes, Type result) {
  printSameTypes(p, SmallVector<Type>(operandTypes), result);
}

/// The tensor type of `type`'s real counterpart: complex<E> elements become E.
static Type realCounterpart(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return {};
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (!complex)
    return {};
  return RankedTensorType::get(tensor.getShape(), complex.getElementType(), tensor.getEncoding());
}

ParseResult parseComplexOpType(OpAsmParser &p, Type &lhs, Type &rhs, Type &result) {
  SMLoc loc = p.getCurrentLocation();
  Type type;
  if (p.parseType(type))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(type)) {
    if (fn.getNumInputs() != 2 || fn.getNumResults() != 1)
      return p.emitError(loc) << "expected a function type with 2 inputs and 1 result, got "
                              << type;
    lhs = fn.getInput(0);
    rhs = fn.getInput(1);
    result = fn.getResult(0);
    return success();
  }
  Type real = realCounterpart(type);
  if (!real)
    return p.emitError(loc) << "expected a tensor with complex element type, got " << type;
  lhs = rhs = real;
  result = type;
  return success();
}

void printComplexOpType(OpAsmPrinter &p, Operation *, Type lhs, Type rhs, Type result) {
  Type real = realCounterpart(result);
  if (real && lhs == real && rhs == real) {
    p << result;
    return;
  }
  p.printFunctionalType(TypeRange({lhs, rhs}), TypeRange(result));
}

ParseResult parseSelectOpType(OpAsmParser &p, Type &pred, Type &onTrue, Type &onFalse,
                              Type &result) {
  SMLoc loc = p.getCurrentLocation();
  Type first;
  if (p.parseType(first))
    return failure();
  if (auto fn = dyn_cast<FunctionType>(first)) {
    if (fn.getNumInputs() != 3 || fn.getNumResults() != 1)
      return p.emitError(loc) << "expected a function type with 3 inputs and 1 result, got "
                              << first;
    pred = fn.getInput(0);
    onTrue = fn.getInput(1);
    onFalse = fn.getInput(2);
    result = fn.getResult(0);
    return success();
  }
  Type second;
  if (p.parseComma() || p.parseType(second))
    return failure();
  pred = first;
  onTrue = onFalse = result = second;
  return success();
}

void printSelectOpType(OpAsmPrinter &p, Operation *, Type pred, Type onTrue, Type onFalse,
                       Type result) {
  if (onTrue == result && onFalse == result) {
    p << pred << ", " << result;
    return;
  }
  p.printFunctionalType(TypeRange({pred, onTrue, onFalse}), TypeRange(result));
}

ParseResult parsePairwiseOpType(OpAsmParser &p, SmallVectorImpl<Type> &operands,
                                SmallVectorImpl<Type> &results) {
  if (p.parseTypeList(operands))
    return failure();
  results.assign(operands.begin(), operands.end());
  return success();
}

void printPairwiseOpType(OpAsmPrinter &p, Operation *, TypeRange operands, TypeRange) {
  llvm::interleaveComma(operands, p);
}

ParseResult parseTupleOpType(OpAsmParser &p, SmallVectorImpl<Type> &operands, Type &result) {
  SMLoc loc = p.getCurrentLocation();
  if (p.parseType(result))
    return failure();
  auto tuple = dyn_cast<TupleType>(result);
  if (!tuple)
    return p.emitError(loc) << "expected a tuple type, got " << result;
  operands.assign(tuple.getTypes().begin(), tuple.getTypes().end());
  return success();
}

void printTupleOpType(OpAsmPrinter &p, Operation *, TypeRange, Type result) { p << result; }

//===----------------------------------------------------------------------===//
// Operand lists, slices, small attributes
//===----------------------------------------------------------------------===//

ParseResult
parseVariadicOperandWithAttribute(OpAsmParser &p,
                                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  while (true) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult res = p.parseOptionalOperand(operand);
    if (!res.has_value())
      return success();
    if (failed(*res))
      return failure();
    operands.push_back(operand);
    if (p.parseComma())
      return failure();
  }
}

// `%a, %b,`: the format's own space then separates the attribute, as JAX
// prints it (`%a, %b, dim = 0`).
void printVariadicOperandWithAttribute(OpAsmPrinter &p, Operation *, OperandRange operands) {
  llvm::interleave(operands, p, [&](Value v) { p << v; }, ", ");
  p << ',';
}

ParseResult parseIndexOperands(OpAsmParser &p, SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  return parseVariadicOperandWithAttribute(p, operands);
}

// ` %i, %j,` after the operand's comma, or nothing (a scalar operand has no
// indices): `dynamic_slice %x, %i, sizes = [1]`, `dynamic_slice %s, sizes = []`.
void printIndexOperands(OpAsmPrinter &p, Operation *, OperandRange operands) {
  for (Value v : operands)
    p << ' ' << v << ',';
}

ParseResult parseSliceRanges(OpAsmParser &p, DenseI64ArrayAttr &start, DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> s, l, st;
  if (p.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t a, b, c = 1;
        if (p.parseInteger(a) || p.parseColon() || p.parseInteger(b))
          return failure();
        if (succeeded(p.parseOptionalColon()) && p.parseInteger(c))
          return failure();
        s.push_back(a);
        l.push_back(b);
        st.push_back(c);
        return success();
      }))
    return failure();
  start = DenseI64ArrayAttr::get(p.getContext(), s);
  limit = DenseI64ArrayAttr::get(p.getContext(), l);
  strides = DenseI64ArrayAttr::get(p.getContext(), st);
  return success();
}

void printSliceRanges(OpAsmPrinter &p, Operation *op, DenseI64ArrayAttr start,
                      DenseI64ArrayAttr limit, DenseI64ArrayAttr strides) {
  // The three lists have one entry per dimension once verified; be defensive
  // anyway since this also runs on ops that failed verification.
  size_t n = std::min({start.size(), limit.size(), strides.size()});
  p << '[';
  for (size_t i = 0; i < n; ++i) {
    if (i)
      p << ", ";
    p << start[i] << ':' << limit[i];
    if (strides[i] != 1)
      p << ':' << strides[i];
  }
  p << ']';
}

ParseResult parseExponentMantissa(OpAsmParser &p, IntegerAttr &exponent, IntegerAttr &mantissa) {
  SMLoc loc = p.getCurrentLocation();
  StringRef keyword;
  if (p.parseKeyword(&keyword))
    return failure();
  // `e<exponent>m<mantissa>`, e.g. e5m10.
  int64_t e, m;
  StringRef rest = keyword;
  if (!rest.consume_front("e") || rest.consumeInteger(10, e) || !rest.consume_front("m") ||
      rest.consumeInteger(10, m) || !rest.empty())
    return p.emitError(loc) << "expected a format like 'e5m10', got '" << keyword << "'";
  auto i32 = IntegerType::get(p.getContext(), 32);
  exponent = IntegerAttr::get(i32, e);
  mantissa = IntegerAttr::get(i32, m);
  return success();
}

void printExponentMantissa(OpAsmPrinter &p, Operation *, IntegerAttr exponent,
                           IntegerAttr mantissa) {
  p << 'e' << exponent.getInt() << 'm' << mantissa.getInt();
}

ParseResult parseCustomCallTarget(OpAsmParser &p, StringAttr &target) {
  return p.parseSymbolName(target);
}

void printCustomCallTarget(OpAsmPrinter &p, Operation *, StringAttr target) {
  p.printSymbolName(target.getValue());
}

//===----------------------------------------------------------------------===//
// dot_general: dimension numbers and precision
//===----------------------------------------------------------------------===//

static ParseResult parseDimsPair(OpAsmParser &p, SmallVector<int64_t> &lhs,
                                 SmallVector<int64_t> &rhs) {
  return failure(p.parseEqual() || parseIntList(p, lhs) || p.parseKeyword("x") ||
                 parseIntList(p, rhs));
}

ParseResult parseDotDimensionNumbers(OpAsmParser &p, DotDimensionNumbersAttr &attr) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (succeeded(p.parseOptionalKeyword("batching_dims"))) {
    if (parseDimsPair(p, lb, rb) || p.parseComma())
      return failure();
  }
  if (p.parseKeyword("contracting_dims") || parseDimsPair(p, lc, rc))
    return failure();
  attr = DotDimensionNumbersAttr::get(p.getContext(), lb, rb, lc, rc);
  return success();
}

void printDotDimensionNumbers(OpAsmPrinter &p, Operation *, DotDimensionNumbersAttr attr) {
  if (!attr.getLhsBatchingDimensions().empty() || !attr.getRhsBatchingDimensions().empty()) {
    p << "batching_dims = ";
    printIntList(p, attr.getLhsBatchingDimensions());
    p << " x ";
    printIntList(p, attr.getRhsBatchingDimensions());
    p << ", ";
  }
  p << "contracting_dims = ";
  printIntList(p, attr.getLhsContractingDimensions());
  p << " x ";
  printIntList(p, attr.getRhsContractingDimensions());
}

/// `precision = [...]`, its comma already read.
static ParseResult parsePrecisionList(OpAsmParser &p, ArrayAttr &attr) {
  SmallVector<Attribute> values;
  if (p.parseKeyword("precision") || p.parseEqual() ||
      p.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc loc = p.getCurrentLocation();
        StringRef name;
        if (p.parseKeyword(&name))
          return failure();
        std::optional<Precision> value = symbolizePrecision(name);
        if (!value)
          return p.emitError(loc) << "unknown precision '" << name
                                  << "', expected DEFAULT, HIGH or HIGHEST";
        values.push_back(PrecisionAttr::get(p.getContext(), *value));
        return success();
      }))
    return failure();
  attr = ArrayAttr::get(p.getContext(), values);
  return success();
}

ParseResult parsePrecisionConfig(OpAsmParser &p, ArrayAttr &attr) {
  if (failed(p.parseOptionalComma()))
    return success();
  return parsePrecisionList(p, attr);
}

ParseResult parsePrecisionConfigAndAlgorithm(OpAsmParser &p, ArrayAttr &precision, DotAlgorithmAttr &algorithm) {
  while (succeeded(p.parseOptionalComma())) {
    if (algorithm)
      return p.emitError(p.getCurrentLocation(), "expected ':' after dot_general's algorithm");
    if (succeeded(p.parseOptionalKeyword("algorithm"))) {
      if (p.parseEqual())
        return failure();
      Attribute a = DotAlgorithmAttr::parse(p, Type{});
      if (!a)
        return failure();
      algorithm = llvm::cast<DotAlgorithmAttr>(a);
      continue;
    }
    if (precision)
      return p.emitError(p.getCurrentLocation(), "expected 'algorithm' after dot_general's precision");
    if (parsePrecisionList(p, precision))
      return failure();
  }
  return success();
}

void printPrecisionConfigAndAlgorithm(OpAsmPrinter &p, Operation *op, ArrayAttr precision, DotAlgorithmAttr algorithm) {
  printPrecisionConfig(p, op, precision);
  if (!algorithm)
    return;
  p << ", algorithm = ";
  algorithm.print(p);
}

void printPrecisionConfig(OpAsmPrinter &p, Operation *, ArrayAttr attr) {
  if (!attr)
    return;
  p << ", precision = [";
  llvm::interleaveComma(attr, p, [&](Attribute a) {
    if (auto precision = dyn_cast<PrecisionAttr>(a))
      p << stringifyPrecision(precision.getValue());
    else
      p << a;
  });
  p << ']';
}

//===----------------------------------------------------------------------===//
// convolution
//===----------------------------------------------------------------------===//

ParseResult parseConvolutionDimensions(OpAsmParser &p, ConvDimensionNumbersAttr &attr) {
  return parseConvDimsCompact(p, attr);
}

void printConvolutionDimensions(OpAsmPrinter &p, Operation *, ConvDimensionNumbersAttr attr) {
  // Only invalid numbers lack a compact form, and those fail verification,
  // so the op is then printed generically and this fallback is not reached.
  if (!printConvDimsCompact(p, attr))
    p << "<invalid>";
}

ParseResult parseWindowAttributes(OpAsmParser &p, DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding, DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation, DenseBoolArrayAttr &reversal) {
  MLIRContext *ctx = p.getContext();
  StringRef key;
  SMLoc loc = p.getCurrentLocation();
  if (failed(p.parseOptionalKeyword(&key)))
    return success(); // `window = {}`
  while (true) {
    auto dup = [&]() { return p.emitError(loc) << "'" << key << "' appears twice in window"; };
    if (p.parseEqual())
      return failure();
    if (key == "stride" || key == "lhs_dilate" || key == "rhs_dilate") {
      DenseI64ArrayAttr &target =
          key == "stride" ? strides : key == "lhs_dilate" ? lhsDilation : rhsDilation;
      if (target)
        return dup();
      if (parseDims(p, target))
        return failure();
    } else if (key == "pad") {
      if (padding)
        return dup();
      SmallVector<int64_t> values;
      int64_t rows = 0;
      if (p.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc rowLoc = p.getCurrentLocation();
            SmallVector<int64_t> row;
            if (parseIntList(p, row))
              return failure();
            if (row.size() != 2)
              return p.emitError(rowLoc) << "expected [low, high] padding pair";
            values.append(row);
            ++rows;
            return success();
          }))
        return failure();
      auto type = RankedTensorType::get({rows, 2}, IntegerType::get(ctx, 64));
      padding = DenseIntElementsAttr::get(type, values);
    } else if (key == "reverse") {
      if (reversal)
        return dup();
      SmallVector<bool> values;
      if (p.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc vLoc = p.getCurrentLocation();
            int64_t asInt;
            OptionalParseResult isInt = p.parseOptionalInteger(asInt);
            if (isInt.has_value()) {
              if (failed(*isInt))
                return failure();
              values.push_back(asInt != 0);
              return success();
            }
            StringRef word;
            if (p.parseKeyword(&word))
              return failure();
            if (word != "true" && word != "false")
              return p.emitError(vLoc) << "expected true or false";
            values.push_back(word == "true");
            return success();
          }))
        return failure();
      reversal = DenseBoolArrayAttr::get(ctx, values);
    } else {
      return p.emitError(loc) << "unknown window attribute '" << key
                              << "', expected stride, pad, lhs_dilate, rhs_dilate or reverse";
    }
    if (failed(p.parseOptionalComma()))
      return success();
    loc = p.getCurrentLocation();
    if (p.parseKeyword(&key))
      return failure();
  }
}

void printWindowAttributes(OpAsmPrinter &p, Operation *, DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding, DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation, DenseBoolArrayAttr reversal) {
  bool first = true;
  auto sep = [&]() {
    if (!first)
      p << ", ";
    first = false;
  };
  if (strides) {
    sep();
    p << "stride = ";
    printIntList(p, strides.asArrayRef());
  }
  if (padding) {
    sep();
    p << "pad = [";
    SmallVector<int64_t> values(padding.getValues<int64_t>());
    for (size_t i = 0; i + 1 < values.size(); i += 2) {
      if (i)
        p << ", ";
      p << '[' << values[i] << ", " << values[i + 1] << ']';
    }
    p << ']';
  }
  if (lhsDilation) {
    sep();
    p << "lhs_dilate = ";
    printIntList(p, lhsDilation.asArrayRef());
  }
  if (rhsDilation) {
    sep();
    p << "rhs_dilate = ";
    printIntList(p, rhsDilation.asArrayRef());
  }
  if (reversal) {
    sep();
    p << "reverse = [";
    llvm::interleaveComma(reversal.asArrayRef(), p, [&](bool b) { p << (b ? "true" : "false"); });
    p << ']';
  }
}

//===----------------------------------------------------------------------===//
// constant:  stablehlo.constant {attrs}? dense<...> : tensor<...>
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc) << "expected a dense elements attribute, got " << value;
  result.addAttribute(getValueAttrName(result.name), value);
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &p) {
  p.printOptionalAttrDict((*this)->getAttrs(), {getValueAttrName()});
  p << ' ';
  p.printAttribute(getValue());
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

/// The body op of the compact `applies` form, or null when the body is more
/// than `return(op(arg0, arg1))` on scalars of the init type.
static Operation *compactReduceBody(ReduceOp op) {
  if (op.getInputs().size() != 1 || op.getInitValues().size() != 1)
    return nullptr;
  Region &body = op.getBody();
  if (!body.hasOneBlock())
    return nullptr;
  Block &block = body.front();
  if (block.getNumArguments() != 2 || !llvm::hasNItems(block, 2))
    return nullptr;
  Operation &inner = block.front();
  auto ret = dyn_cast<ReturnOp>(block.back());
  Type type = op.getInitValues()[0].getType();
  if (!ret || ret.getNumOperands() != 1 || inner.getNumResults() != 1 ||
      ret.getOperand(0) != inner.getResult(0))
    return nullptr;
  if (inner.getDialect() != op->getDialect() || inner.getNumOperands() != 2 ||
      inner.getNumRegions() != 0 || !inner.getAttrs().empty())
    return nullptr;
  if (inner.getOperand(0) != block.getArgument(0) || inner.getOperand(1) != block.getArgument(1))
    return nullptr;
  if (block.getArgument(0).getType() != type || block.getArgument(1).getType() != type ||
      inner.getResult(0).getType() != type)
    return nullptr;
  return &inner;
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  do {
    OpAsmParser::UnresolvedOperand input, init;
    if (parser.parseLParen() || parser.parseOperand(input) || parser.parseKeyword("init") ||
        parser.parseColon() || parser.parseOperand(init) || parser.parseRParen())
      return failure();
    inputs.push_back(input);
    inits.push_back(init);
  } while (succeeded(parser.parseOptionalComma()));

  std::optional<OperationName> innerName;
  SMLoc innerLoc;
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    innerLoc = parser.getCurrentLocation();
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    innerName = *name;
  }

  DenseI64ArrayAttr dims;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseDims(parser, dims))
    return failure();
  result.addAttribute(getDimensionsAttrName(result.name), dims);
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();

  SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseColonType(fnType))
    return failure();
  if (fnType.getNumInputs() != inputs.size() * 2)
    return parser.emitError(typeLoc)
           << "expected " << inputs.size() * 2 << " operand types (inputs then init values), got "
           << fnType.getNumInputs();
  SmallVector<OpAsmParser::UnresolvedOperand> all(inputs);
  all.append(inits);
  if (parser.resolveOperands(all, fnType.getInputs(), loc, result.operands))
    return failure();
  result.addTypes(fnType.getResults());

  Region *body = result.addRegion();
  if (innerName) {
    // Rebuild `^bb0(%a, %b): %r = op %a, %b; stablehlo.return %r`.
    if (inputs.size() != 1)
      return parser.emitError(innerLoc) << "the 'applies' form takes exactly one input";
    Type type = fnType.getInput(1);
    Location opLoc = parser.getEncodedSourceLoc(innerLoc);
    Block *block = new Block();
    body->push_back(block);
    block->addArgument(type, opLoc);
    block->addArgument(type, opLoc);
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToStart(block);
    OperationState innerState(opLoc, *innerName);
    innerState.addOperands(block->getArguments());
    innerState.addTypes(type);
    Operation *inner = builder.create(innerState);
    ReturnOp::create(builder, opLoc, inner->getResults());
    return success();
  }

  // reducer(%acc0: T0, %x0: T0) (%acc1: T1, %x1: T1) ... { body }
  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> accs, elems;
  for (size_t i = 0; i < inputs.size(); ++i) {
    OpAsmParser::Argument acc, elem;
    if (parser.parseLParen() || parser.parseArgument(acc, /*allowType=*/true) ||
        parser.parseComma() || parser.parseArgument(elem, /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
    accs.push_back(acc);
    elems.push_back(elem);
  }
  accs.append(elems);
  return parser.parseRegion(*body, accs);
}

void ReduceOp::print(OpAsmPrinter &p) {
  llvm::interleaveComma(llvm::zip(getInputs(), getInitValues()), p, [&](auto pair) {
    p << '(' << std::get<0>(pair) << " init: " << std::get<1>(pair) << ')';
  });
  Operation *inner = compactReduceBody(*this);
  if (inner)
    p << " applies " << inner->getName().getStringRef();
  p << " across dimensions = ";
  printIntList(p, getDimensions());
  p.printOptionalAttrDict((*this)->getAttrs(), {getDimensionsAttrName()});
  p << " : ";
  p.printFunctionalType(*this);
  if (inner)
    return;
  p.printNewline();
  p << " reducer";
  Region &body = getBody();
  size_t n = getInputs().size();
  if (!body.empty()) {
    Block &block = body.front();
    for (size_t i = 0; i < n && n + i < block.getNumArguments(); ++i) {
      p << '(';
      p.printRegionArgument(block.getArgument(i));
      p << ", ";
      p.printRegionArgument(block.getArgument(n + i));
      p << ") ";
    }
  }
  p << ' ';
  p.printRegion(body, /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// while:  stablehlo.while(%iterArg = %x, ...) : T, ... cond { } do { }
//===----------------------------------------------------------------------===//

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen())) {
    do {
      OpAsmParser::Argument arg;
      OpAsmParser::UnresolvedOperand operand;
      if (parser.parseArgument(arg) || parser.parseEqual() || parser.parseOperand(operand))
        return failure();
      args.push_back(arg);
      operands.push_back(operand);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRParen())
      return failure();
  }
  SmallVector<Type> types;
  if (!operands.empty()) {
    SMLoc typeLoc = parser.getCurrentLocation();
    if (parser.parseColon() || parser.parseTypeList(types))
      return failure();
    if (types.size() != operands.size())
      return parser.emitError(typeLoc) << "expected " << operands.size() << " types, got "
                                       << types.size();
  }
  for (auto [arg, type] : llvm::zip(args, types))
    arg.type = type;
  if (parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  result.addTypes(types);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, args))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  p << '(';
  Region &cond = getCond();
  for (auto [i, operand] : llvm::enumerate(getOperands())) {
    if (i)
      p << ", ";
    if (!cond.empty() && i < cond.front().getNumArguments())
      p.printOperand(cond.front().getArgument(i));
    else
      p << "%iterArg";
    p << " = ";
    p.printOperand(operand);
  }
  p << ')';
  if (getNumOperands()) {
    p << " : ";
    llvm::interleaveComma(getOperandTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p.printNewline();
  p << "cond ";
  p.printRegion(cond, /*printEntryBlockArgs=*/false);
  p << " do ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void WhileOp::getAsmBlockArgumentNames(Region &region, OpAsmSetValueNameFn setNameFn) {
  for (BlockArgument arg : region.getArguments())
    setNameFn(arg, "iterArg");
}

} // namespace floors::stablehlo
