//===- StablehloDialect.cpp - dialect, attributes, types ------------------===//
//
// Dialect registration and the textual forms of the structured attributes.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloDialect.h"
#include "stablehlo/StablehloAssemblyFormat.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace floors::stablehlo;

#include "stablehlo/StablehloDialect.cpp.inc"
#include "stablehlo/StablehloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "stablehlo/StablehloAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "stablehlo/StablehloTypes.cpp.inc"

void StablehloDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "stablehlo/StablehloOps.cpp.inc"
      >();
}

void StablehloDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "stablehlo/StablehloAttrs.cpp.inc"
      >();
}

void StablehloDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "stablehlo/StablehloTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Attribute dispatch: the generated parsers and printers, plus the bounds
// spelling of #stablehlo.type_extensions.
//===----------------------------------------------------------------------===//

Attribute StablehloDialect::parseAttribute(DialectAsmParser &parser, Type type) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Attribute attr;
  OptionalParseResult parsed = generatedAttributeParser(parser, &mnemonic, type, attr);
  if (parsed.has_value())
    return succeeded(*parsed) ? attr : Attribute();
  if (mnemonic == "bounds")
    return TypeExtensionsAttr::parseBounds(parser);
  parser.emitError(loc) << "unknown attribute '" << mnemonic << "' in dialect 'stablehlo'";
  return {};
}

void StablehloDialect::printAttribute(Attribute attr, DialectAsmPrinter &printer) const {
  if (auto ext = dyn_cast<TypeExtensionsAttr>(attr)) {
    ext.printBounds(printer);
    return;
  }
  (void)generatedAttributePrinter(attr, printer);
}

namespace floors::stablehlo {

bool isQuantizedInt(Type type, bool perAxis) {
  auto q = dyn_cast<quant::QuantizedType>(type);
  if (!q || (perAxis ? !isa<quant::UniformQuantizedPerAxisType>(q)
                     : !isa<quant::UniformQuantizedType>(q)))
    return false;
  auto storage = dyn_cast<IntegerType>(q.getStorageType());
  unsigned width = q.getStorageTypeIntegralWidth();
  return storage && width >= 2 && width <= 32;
}

} // namespace floors::stablehlo

//===----------------------------------------------------------------------===//
// Shared helpers: integer lists and struct-like `<key = value, ...>` bodies
//===----------------------------------------------------------------------===//

namespace floors::stablehlo {

ParseResult parseIntList(AsmParser &p, SmallVectorImpl<int64_t> &out) {
  return p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    int64_t v;
    if (p.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

void printIntList(AsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

} // namespace floors::stablehlo

namespace {
/// One `name = value` entry of a struct-like attribute body. Exactly one of
/// `list`/`scalar` is set.
struct Field {
  StringRef name;
  SmallVector<int64_t> *list = nullptr;
  int64_t *scalar = nullptr;
  bool required = false;
  bool seen = false;
};

/// Parses `<name = [..], name = 3, ...>`; fields may come in any order, each at
/// most once; list fields default to empty.
ParseResult parseStruct(AsmParser &p, MutableArrayRef<Field> fields) {
  if (p.parseLess())
    return failure();
  if (failed(p.parseOptionalGreater())) {
    do {
      SMLoc loc = p.getCurrentLocation();
      StringRef key;
      if (p.parseKeyword(&key))
        return failure();
      Field *field = llvm::find_if(fields, [&](const Field &f) { return f.name == key; });
      if (field == fields.end()) {
        auto diag = p.emitError(loc) << "unknown field '" << key << "', expected one of: ";
        llvm::interleaveComma(fields, diag, [&](const Field &f) { diag << f.name; });
        return diag;
      }
      if (field->seen)
        return p.emitError(loc) << "field '" << key << "' appears twice";
      field->seen = true;
      if (p.parseEqual())
        return failure();
      if (field->list ? parseIntList(p, *field->list) : p.parseInteger(*field->scalar))
        return failure();
    } while (succeeded(p.parseOptionalComma()));
    if (p.parseGreater())
      return failure();
  }
  for (Field &f : fields)
    if (f.required && !f.seen)
      return p.emitError(p.getCurrentLocation()) << "missing field '" << f.name << "'";
  return success();
}

/// Prints `<name = [..], ...>`, eliding empty lists unless `printEmpty`.
void printStruct(AsmPrinter &p, ArrayRef<std::pair<StringRef, ArrayRef<int64_t>>> lists,
                 ArrayRef<std::pair<StringRef, int64_t>> scalars, bool printEmpty = false) {
  p << '<';
  bool first = true;
  auto sep = [&]() {
    if (!first)
      p << ", ";
    first = false;
  };
  for (auto [name, values] : lists) {
    if (values.empty() && !printEmpty)
      continue;
    sep();
    p << name << " = ";
    printIntList(p, values);
  }
  for (auto [name, value] : scalars) {
    sep();
    p << name << " = " << value;
  }
  p << '>';
}
} // namespace

//===----------------------------------------------------------------------===//
// #stablehlo.dot<...>
//===----------------------------------------------------------------------===//

Attribute DotDimensionNumbersAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  Field fields[] = {{"lhs_batching_dimensions", &lb},
                    {"rhs_batching_dimensions", &rb},
                    {"lhs_contracting_dimensions", &lc},
                    {"rhs_contracting_dimensions", &rc}};
  if (parseStruct(p, fields))
    return {};
  return DotDimensionNumbersAttr::get(p.getContext(), lb, rb, lc, rc);
}

void DotDimensionNumbersAttr::print(AsmPrinter &p) const {
  printStruct(p,
              {{"lhs_batching_dimensions", getLhsBatchingDimensions()},
               {"rhs_batching_dimensions", getRhsBatchingDimensions()},
               {"lhs_contracting_dimensions", getLhsContractingDimensions()},
               {"rhs_contracting_dimensions", getRhsContractingDimensions()}},
              {});
}

//===----------------------------------------------------------------------===//
// #stablehlo.gather<...> / #stablehlo.scatter<...>
//===----------------------------------------------------------------------===//

/// `index_vector_dim` defaults to 0 and is printed only when it is not, as
/// StableHLO (and so JAX) prints it.
static SmallVector<std::pair<StringRef, int64_t>, 1> indexVectorDimField(int64_t dim) {
  if (dim == 0)
    return {};
  return {{"index_vector_dim", dim}};
}

Attribute GatherDimensionNumbersAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> offset, collapsed, operandBatching, indicesBatching, startIndexMap;
  int64_t indexVectorDim = 0;
  Field fields[] = {{"offset_dims", &offset},
                    {"collapsed_slice_dims", &collapsed},
                    {"operand_batching_dims", &operandBatching},
                    {"start_indices_batching_dims", &indicesBatching},
                    {"start_index_map", &startIndexMap},
                    {"index_vector_dim", nullptr, &indexVectorDim, /*required=*/false}};
  if (parseStruct(p, fields))
    return {};
  return GatherDimensionNumbersAttr::get(p.getContext(), offset, collapsed, operandBatching,
                                         indicesBatching, startIndexMap, indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &p) const {
  printStruct(p,
              {{"offset_dims", getOffsetDims()},
               {"collapsed_slice_dims", getCollapsedSliceDims()},
               {"operand_batching_dims", getOperandBatchingDims()},
               {"start_indices_batching_dims", getStartIndicesBatchingDims()},
               {"start_index_map", getStartIndexMap()}},
              indexVectorDimField(getIndexVectorDim()));
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> window, inserted, inputBatching, indicesBatching, toOperand;
  int64_t indexVectorDim = 0;
  Field fields[] = {{"update_window_dims", &window},
                    {"inserted_window_dims", &inserted},
                    {"input_batching_dims", &inputBatching},
                    {"scatter_indices_batching_dims", &indicesBatching},
                    {"scatter_dims_to_operand_dims", &toOperand},
                    {"index_vector_dim", nullptr, &indexVectorDim, /*required=*/false}};
  if (parseStruct(p, fields))
    return {};
  return ScatterDimensionNumbersAttr::get(p.getContext(), window, inserted, inputBatching,
                                          indicesBatching, toOperand, indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &p) const {
  printStruct(p,
              {{"update_window_dims", getUpdateWindowDims()},
               {"inserted_window_dims", getInsertedWindowDims()},
               {"input_batching_dims", getInputBatchingDims()},
               {"scatter_indices_batching_dims", getScatterIndicesBatchingDims()},
               {"scatter_dims_to_operand_dims", getScatterDimsToOperandDims()}},
              indexVectorDimField(getIndexVectorDim()));
}

//===----------------------------------------------------------------------===//
// #stablehlo.output_operand_alias<...>: all fields always printed.
//===----------------------------------------------------------------------===//

Attribute OutputOperandAliasAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> outputTuple, operandTuple;
  int64_t operandIndex = 0;
  Field fields[] = {{"output_tuple_indices", &outputTuple},
                    {"operand_index", nullptr, &operandIndex, /*required=*/true},
                    {"operand_tuple_indices", &operandTuple}};
  if (parseStruct(p, fields))
    return {};
  return OutputOperandAliasAttr::get(p.getContext(), outputTuple, operandIndex, operandTuple);
}

void OutputOperandAliasAttr::print(AsmPrinter &p) const {
  p << "<output_tuple_indices = ";
  printIntList(p, getOutputTupleIndices());
  p << ", operand_index = " << getOperandIndex() << ", operand_tuple_indices = ";
  printIntList(p, getOperandTupleIndices());
  p << '>';
}

//===----------------------------------------------------------------------===//
// #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
// or, for numbers that have no compact spelling (e.g. invalid ones),
// #stablehlo.conv<raw input_batch_dimension = 0, ...>
//===----------------------------------------------------------------------===//

namespace {
/// One bracketed layout. `first`/`second` are the two non-spatial letters
/// (b/f for activations, i/o for kernels).
ParseResult parseConvLayout(AsmParser &p, char first, char second, int64_t &firstDim,
                            int64_t &secondDim, SmallVector<int64_t> &spatial) {
  firstDim = secondDim = -1;
  SmallVector<std::pair<int64_t, int64_t>> spatialAt; // (spatial index, dim)
  int64_t pos = 0;
  SMLoc loc = p.getCurrentLocation();
  auto parseElem = [&]() -> ParseResult {
    int64_t spatialIndex;
    OptionalParseResult isInt = p.parseOptionalInteger(spatialIndex);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      spatialAt.push_back({spatialIndex, pos++});
      return success();
    }
    SMLoc keyLoc = p.getCurrentLocation();
    StringRef key;
    if (p.parseKeyword(&key))
      return failure();
    if (key.size() == 1 && key[0] == first) {
      if (firstDim != -1)
        return p.emitError(keyLoc) << "'" << first << "' appears twice in a convolution layout";
      firstDim = pos++;
      return success();
    }
    if (key.size() == 1 && key[0] == second) {
      if (secondDim != -1)
        return p.emitError(keyLoc) << "'" << second << "' appears twice in a convolution layout";
      secondDim = pos++;
      return success();
    }
    return p.emitError(keyLoc) << "expected '" << first << "', '" << second
                               << "' or a spatial dimension number, got '" << key << "'";
  };
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseElem))
    return failure();
  if (firstDim == -1 || secondDim == -1)
    return p.emitError(loc) << "convolution layout needs both '" << first << "' and '" << second
                            << "'";
  spatial.assign(spatialAt.size(), -1);
  for (auto [index, dim] : spatialAt) {
    if (index < 0 || index >= (int64_t)spatialAt.size())
      return p.emitError(loc) << "spatial dimension number " << index
                              << " is out of range: the layout has " << spatialAt.size()
                              << " spatial dimensions";
    if (spatial[index] != -1)
      return p.emitError(loc) << "spatial dimension number " << index << " appears twice";
    spatial[index] = dim;
  }
  return success();
}

/// Builds the layout string for one tensor, or fails when a dimension is
/// missing, repeated or out of range.
bool layoutString(std::string &out, int64_t firstDim, char first, int64_t secondDim, char second,
                  ArrayRef<int64_t> spatial) {
  int64_t rank = 2 + spatial.size();
  SmallVector<std::string> slots(rank);
  auto place = [&](int64_t dim, std::string s) {
    if (dim < 0 || dim >= rank || !slots[dim].empty())
      return false;
    slots[dim] = std::move(s);
    return true;
  };
  if (!place(firstDim, std::string(1, first)) || !place(secondDim, std::string(1, second)))
    return false;
  for (auto [i, dim] : llvm::enumerate(spatial))
    if (!place(dim, std::to_string(i)))
      return false;
  out = "[" + llvm::join(slots, ", ") + "]";
  return true;
}
} // namespace

namespace floors::stablehlo {

ParseResult parseConvDimsCompact(AsmParser &p, ConvDimensionNumbersAttr &attr) {
  int64_t ib, ifeat, ki, ko, ob, of;
  SmallVector<int64_t> is, ks, os;
  SMLoc loc = p.getCurrentLocation();
  if (parseConvLayout(p, 'b', 'f', ib, ifeat, is) || p.parseKeyword("x") ||
      parseConvLayout(p, 'i', 'o', ki, ko, ks) || p.parseArrow() ||
      parseConvLayout(p, 'b', 'f', ob, of, os))
    return failure();
  if (is.size() != ks.size() || is.size() != os.size())
    return p.emitError(loc) << "input, kernel and output layouts have different numbers of "
                               "spatial dimensions ("
                            << is.size() << ", " << ks.size() << ", " << os.size() << ")";
  attr = ConvDimensionNumbersAttr::get(p.getContext(), ib, ifeat, is, ki, ko, ks, ob, of, os);
  return success();
}

bool printConvDimsCompact(AsmPrinter &p, ConvDimensionNumbersAttr a) {
  std::string in, kernel, out;
  if (!layoutString(in, a.getInputBatchDimension(), 'b', a.getInputFeatureDimension(), 'f',
                    a.getInputSpatialDimensions()) ||
      !layoutString(kernel, a.getKernelInputFeatureDimension(), 'i',
                    a.getKernelOutputFeatureDimension(), 'o', a.getKernelSpatialDimensions()) ||
      !layoutString(out, a.getOutputBatchDimension(), 'b', a.getOutputFeatureDimension(), 'f',
                    a.getOutputSpatialDimensions()) ||
      a.getInputSpatialDimensions().size() != a.getKernelSpatialDimensions().size() ||
      a.getInputSpatialDimensions().size() != a.getOutputSpatialDimensions().size())
    return false;
  p << in << "x" << kernel << "->" << out;
  return true;
}

} // namespace floors::stablehlo

Attribute ConvDimensionNumbersAttr::parse(AsmParser &p, Type) {
  if (p.parseLess())
    return {};
  if (succeeded(p.parseOptionalKeyword("raw"))) {
    SmallVector<int64_t> is, ks, os;
    int64_t ib = 0, ifeat = 0, ki = 0, ko = 0, ob = 0, of = 0;
    Field fields[] = {{"input_batch_dimension", nullptr, &ib, true},
                      {"input_feature_dimension", nullptr, &ifeat, true},
                      {"input_spatial_dimensions", &is},
                      {"kernel_input_feature_dimension", nullptr, &ki, true},
                      {"kernel_output_feature_dimension", nullptr, &ko, true},
                      {"kernel_spatial_dimensions", &ks},
                      {"output_batch_dimension", nullptr, &ob, true},
                      {"output_feature_dimension", nullptr, &of, true},
                      {"output_spatial_dimensions", &os}};
    // Same fields as parseStruct, but the `<` is already consumed.
    do {
      SMLoc loc = p.getCurrentLocation();
      StringRef key;
      if (p.parseKeyword(&key))
        return {};
      Field *field = llvm::find_if(fields, [&](const Field &f) { return f.name == key; });
      if (field == std::end(fields)) {
        p.emitError(loc) << "unknown convolution dimension field '" << key << "'";
        return {};
      }
      if (field->seen) {
        p.emitError(loc) << "field '" << key << "' appears twice";
        return {};
      }
      field->seen = true;
      if (p.parseEqual() ||
          (field->list ? parseIntList(p, *field->list) : p.parseInteger(*field->scalar)))
        return {};
    } while (succeeded(p.parseOptionalComma()));
    for (Field &f : fields)
      if (f.required && !f.seen) {
        p.emitError(p.getCurrentLocation()) << "missing field '" << f.name << "'";
        return {};
      }
    if (p.parseGreater())
      return {};
    return ConvDimensionNumbersAttr::get(p.getContext(), ib, ifeat, is, ki, ko, ks, ob, of, os);
  }
  ConvDimensionNumbersAttr attr;
  if (parseConvDimsCompact(p, attr) || p.parseGreater())
    return {};
  return attr;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &p) const {
  p << '<';
  if (!printConvDimsCompact(p, *this)) {
    p << "raw input_batch_dimension = " << getInputBatchDimension()
      << ", input_feature_dimension = " << getInputFeatureDimension()
      << ", input_spatial_dimensions = ";
    printIntList(p, getInputSpatialDimensions());
    p << ", kernel_input_feature_dimension = " << getKernelInputFeatureDimension()
      << ", kernel_output_feature_dimension = " << getKernelOutputFeatureDimension()
      << ", kernel_spatial_dimensions = ";
    printIntList(p, getKernelSpatialDimensions());
    p << ", output_batch_dimension = " << getOutputBatchDimension()
      << ", output_feature_dimension = " << getOutputFeatureDimension()
      << ", output_spatial_dimensions = ";
    printIntList(p, getOutputSpatialDimensions());
  }
  p << '>';
}

//===----------------------------------------------------------------------===//
// #stablehlo.bounds<8, ?> / #stablehlo.type_extensions<bounds = [8, ?]>
//===----------------------------------------------------------------------===//

namespace {
ParseResult parseDimSize(AsmParser &p, int64_t &out) {
  if (succeeded(p.parseOptionalQuestion())) {
    out = ShapedType::kDynamic;
    return success();
  }
  return p.parseInteger(out);
}
} // namespace

Attribute TypeExtensionsAttr::parseBounds(AsmParser &p) {
  SmallVector<int64_t> bounds;
  if (p.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                [&]() { return parseDimSize(p, bounds.emplace_back()); }))
    return {};
  return TypeExtensionsAttr::get(p.getContext(), bounds);
}

void TypeExtensionsAttr::printBounds(AsmPrinter &p) const {
  p << "bounds<";
  llvm::interleaveComma(getBounds(), p, [&](int64_t b) {
    if (ShapedType::isDynamic(b))
      p << '?';
    else
      p << b;
  });
  p << '>';
}

Attribute TypeExtensionsAttr::parse(AsmParser &p, Type) {
  SmallVector<int64_t> bounds;
  if (p.parseLess() || p.parseKeyword("bounds") || p.parseEqual() ||
      p.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                [&]() { return parseDimSize(p, bounds.emplace_back()); }) ||
      p.parseGreater())
    return {};
  return TypeExtensionsAttr::get(p.getContext(), bounds);
}

// Only reached through printStrippedAttrOrType; the dialect prints the
// `bounds<...>` spelling.
void TypeExtensionsAttr::print(AsmPrinter &p) const {
  p << "<bounds = [";
  llvm::interleaveComma(getBounds(), p, [&](int64_t b) {
    if (ShapedType::isDynamic(b))
      p << '?';
    else
      p << b;
  });
  p << "]>";
}

LogicalResult
TypeExtensionsAttr::verifyEncoding(ArrayRef<int64_t> shape, Type elementType,
                                   function_ref<InFlightDiagnostic()> emitError) const {
  ArrayRef<int64_t> bounds = getBounds();
  if (bounds.size() != shape.size())
    return emitError() << "bounds has " << bounds.size() << " elements, but the tensor has rank "
                       << shape.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(bounds, shape))) {
    auto [bound, dim] = pair;
    if (!ShapedType::isDynamic(bound) && !ShapedType::isDynamic(dim))
      return emitError() << "static dimension " << i << " cannot have a bound; write '?'";
    if (!ShapedType::isDynamic(bound) && bound < 0)
      return emitError() << "bound " << bound << " of dimension " << i << " is negative";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// #stablehlo.result_accuracy<atol = 1.000000e-05, rtol = 1.000000e-04, ulps = 2,
//   mode = #stablehlo.result_accuracy_mode<TOLERANCE>>
// Zero tolerances are elided; `mode` is also read in its short form `<TOLERANCE>`.
//===----------------------------------------------------------------------===//

Attribute ResultAccuracyAttr::parse(AsmParser &p, Type) {
  llvm::APFloat atol(0.0), rtol(0.0);
  int64_t ulps = 0;
  ResultAccuracyModeAttr mode;
  SmallVector<StringRef, 4> seen;
  if (p.parseLess())
    return {};
  do {
    SMLoc loc = p.getCurrentLocation();
    StringRef key;
    if (p.parseKeyword(&key) || p.parseEqual())
      return {};
    if (llvm::is_contained(seen, key)) {
      p.emitError(loc) << "field '" << key << "' appears twice";
      return {};
    }
    seen.push_back(key);
    if (key == "atol" || key == "rtol") {
      double value;
      if (p.parseFloat(value))
        return {};
      (key == "atol" ? atol : rtol) = llvm::APFloat(value);
    } else if (key == "ulps") {
      if (p.parseInteger(ulps))
        return {};
    } else if (key == "mode") {
      if (p.parseCustomAttributeWithFallback(mode))
        return {};
    } else {
      p.emitError(loc) << "unknown field '" << key << "', expected one of: atol, rtol, ulps, mode";
      return {};
    }
  } while (succeeded(p.parseOptionalComma()));
  if (p.parseGreater())
    return {};
  if (!mode) {
    p.emitError(p.getCurrentLocation()) << "missing field 'mode'";
    return {};
  }
  return ResultAccuracyAttr::get(p.getContext(), atol, rtol, ulps, mode);
}

void ResultAccuracyAttr::print(AsmPrinter &p) const {
  p << '<';
  if (!getAtol().isZero()) {
    p << "atol = ";
    p.printFloat(getAtol());
    p << ", ";
  }
  if (!getRtol().isZero()) {
    p << "rtol = ";
    p.printFloat(getRtol());
    p << ", ";
  }
  if (getUlps() != 0)
    p << "ulps = " << getUlps() << ", ";
  p << "mode = ";
  p.printAttribute(getMode());
  p << '>';
}
