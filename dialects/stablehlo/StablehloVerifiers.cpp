//===- StablehloVerifiers.cpp - op verifiers ------------------------------===//
//
// Verifiers that enforce the StableHLO specification's constraints (the
// "(C1)..(Cn)" lists of each op). Every message names the operand or
// attribute at fault and the rule it breaks, e.g.
//   broadcast_dimensions[1] = 3 is out of range for result rank 2
//
// Debian's MLIR has no assertions: anything invalid must be caught here, and
// nothing here may assume more than the ODS constraints already checked.
//
//===----------------------------------------------------------------------===//

#include "stablehlo/StablehloDialect.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;

namespace floors::stablehlo {
namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

bool compatibleDim(int64_t a, int64_t b) { return a == kDyn || b == kDyn || a == b; }

std::string dimStr(int64_t d) { return d == kDyn ? "?" : std::to_string(d); }

std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += dimStr(d);
  }
  return s + "]";
}

RankedTensorType ranked(Type t) { return dyn_cast<RankedTensorType>(t); }
RankedTensorType ranked(Value v) { return ranked(v.getType()); }

/// Checks that `dims` (the value of attribute `name`) are unique and in
/// [0, rank). `what` names the rank, e.g. "operand rank".
LogicalResult checkDims(Operation *op, StringRef name, ArrayRef<int64_t> dims, int64_t rank,
                        StringRef what) {
  llvm::SmallSet<int64_t, 8> seen;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << name << "[" << i << "] = " << d << " is out of range for "
                               << what << " " << rank;
    if (!seen.insert(d).second)
      return op->emitOpError() << name << "[" << i << "] = " << d << " is repeated";
  }
  return success();
}

LogicalResult checkSorted(Operation *op, StringRef name, ArrayRef<int64_t> dims) {
  for (size_t i = 1; i < dims.size(); ++i)
    if (dims[i] < dims[i - 1])
      return op->emitOpError() << name << " must be sorted, but " << name << "[" << i
                               << "] = " << dims[i] << " follows " << dims[i - 1];
  return success();
}

LogicalResult checkSize(Operation *op, StringRef name, size_t size, int64_t expected,
                        StringRef what) {
  if ((int64_t)size != expected)
    return op->emitOpError() << name << " has " << size << " elements, expected " << expected
                             << " (" << what << ")";
  return success();
}

LogicalResult checkPositive(Operation *op, StringRef name, ArrayRef<int64_t> values) {
  for (auto [i, v] : llvm::enumerate(values))
    if (v <= 0)
      return op->emitOpError() << name << "[" << i << "] = " << v << " must be positive";
  return success();
}

/// Compares an expected (inferred) shape against the declared result type.
LogicalResult checkResultShape(Operation *op, ArrayRef<int64_t> expected, Type resultType,
                               StringRef resultName = "result") {
  auto result = ranked(resultType);
  if (!result)
    return success();
  if (result.getRank() != (int64_t)expected.size())
    return op->emitOpError() << resultName << " rank " << result.getRank()
                             << " does not match the expected shape " << shapeStr(expected);
  for (auto [i, pair] : llvm::enumerate(llvm::zip(expected, result.getShape())))
    if (!compatibleDim(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError() << resultName << " shape " << shapeStr(result.getShape())
                               << " does not match the expected shape " << shapeStr(expected)
                               << " (dimension " << i << ")";
  return success();
}

LogicalResult checkSameElementType(Operation *op, Type a, StringRef aName, Type b,
                                   StringRef bName) {
  Type ea = getElementTypeOrSelf(a), eb = getElementTypeOrSelf(b);
  if (ea != eb)
    return op->emitOpError() << aName << " element type " << ea << " differs from " << bName
                             << " element type " << eb;
  return success();
}

/// `padding` must be an [n, 2] tensor. Returns its rows in `lo`/`hi`.
LogicalResult readPadding(Operation *op, DenseIntElementsAttr padding, int64_t n,
                          SmallVectorImpl<int64_t> &lo, SmallVectorImpl<int64_t> &hi) {
  lo.assign(n, 0);
  hi.assign(n, 0);
  if (!padding)
    return success();
  auto type = padding.getType();
  if (type.getRank() != 2 || type.getDimSize(0) != n || type.getDimSize(1) != 2)
    return op->emitOpError() << "padding must have shape [" << n << ", 2], got "
                             << shapeStr(type.getShape());
  SmallVector<int64_t> values(padding.getValues<int64_t>());
  for (int64_t i = 0; i < n; ++i) {
    lo[i] = values[2 * i];
    hi[i] = values[2 * i + 1];
  }
  return success();
}

/// Output size of one windowed dimension (reduce_window, convolution).
int64_t windowOutputDim(int64_t in, int64_t baseDilation, int64_t lo, int64_t hi, int64_t window,
                        int64_t windowDilation, int64_t stride) {
  if (in == kDyn)
    return kDyn;
  int64_t dilatedIn = in == 0 ? 0 : (in - 1) * baseDilation + 1;
  int64_t padded = lo + dilatedIn + hi;
  int64_t dilatedWindow = (window - 1) * windowDilation + 1;
  if (padded < dilatedWindow)
    return 0;
  return (padded - dilatedWindow) / stride + 1;
}

/// Checks a reduction-style body: one block whose arguments are 0-d tensors
/// of `elementTypes` repeated `copies` times and that returns one 0-d tensor
/// per element type.
LogicalResult checkReducerBody(Operation *op, Region &region, StringRef regionName,
                               ArrayRef<Type> elementTypes, unsigned copies = 2) {
  if (region.empty())
    return op->emitOpError() << regionName << " region must have a block";
  Block &block = region.front();
  size_t n = elementTypes.size();
  if (block.getNumArguments() != copies * n)
    return op->emitOpError() << regionName << " region must take " << copies * n
                             << " arguments (" << copies << " per input), got "
                             << block.getNumArguments();
  for (unsigned i = 0; i < block.getNumArguments(); ++i) {
    Type expected = RankedTensorType::get({}, elementTypes[i % n]);
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << regionName << " region argument #" << i << " has type "
                               << block.getArgument(i).getType() << ", expected " << expected;
  }
  auto ret = block.empty() ? nullptr : dyn_cast<ReturnOp>(block.back());
  if (!ret)
    return op->emitOpError() << regionName << " region must end in stablehlo.return";
  if (ret.getNumOperands() != n)
    return op->emitOpError() << regionName << " region returns " << ret.getNumOperands()
                             << " values, expected " << n;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    Type expected = RankedTensorType::get({}, elementTypes[i]);
    if (v.getType() != expected)
      return op->emitOpError() << regionName << " region result #" << i << " has type "
                               << v.getType() << ", expected " << expected;
  }
  return success();
}

/// Checks that region `region` takes no arguments and returns `types`.
LogicalResult checkBranch(Operation *op, Region &region, StringRef name, TypeRange types,
                          TypeRange argTypes = {}) {
  if (region.empty())
    return op->emitOpError() << name << " must have a block";
  Block &block = region.front();
  if (TypeRange(block.getArgumentTypes()) != argTypes) {
    auto diag = op->emitOpError() << name << " arguments (";
    llvm::interleaveComma(block.getArgumentTypes(), diag);
    diag << ") must match (";
    llvm::interleaveComma(argTypes, diag);
    return diag << ")";
  }
  auto ret = block.empty() ? nullptr : dyn_cast<ReturnOp>(block.back());
  if (!ret)
    return op->emitOpError() << name << " must end in stablehlo.return";
  if (TypeRange(ret.getOperandTypes()) != types) {
    auto diag = op->emitOpError() << name << " returns (";
    llvm::interleaveComma(ret.getOperandTypes(), diag);
    diag << ") but the op expects (";
    llvm::interleaveComma(types, diag);
    return diag << ")";
  }
  return success();
}

/// All inputs have compatible shapes; returns the first input's type.
LogicalResult checkSameShapes(Operation *op, ValueRange values, StringRef name) {
  for (size_t i = 1; i < values.size(); ++i)
    if (failed(verifyCompatibleShape(values[i].getType(), values[0].getType())))
      return op->emitOpError() << name << " #" << i << " has type " << values[i].getType()
                               << " but " << name << " #0 has shape-incompatible type "
                               << values[0].getType();
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Traits
//===----------------------------------------------------------------------===//

namespace OpTrait {

static LogicalResult verifySame(Operation *op, bool elementTypes) {
  SmallVector<std::pair<std::string, Type>> all;
  for (OpOperand &o : op->getOpOperands())
    all.push_back({"operand #" + std::to_string(o.getOperandNumber()), o.get().getType()});
  for (OpResult r : op->getResults())
    all.push_back({"result #" + std::to_string(r.getResultNumber()), r.getType()});
  if (all.empty())
    return success();
  auto [refName, ref] = all.front();
  auto refTensor = ranked(ref);
  if (!refTensor)
    return success();
  for (auto &[name, type] : llvm::drop_begin(all)) {
    auto tensor = ranked(type);
    if (!tensor)
      continue;
    if (failed(verifyCompatibleShape(tensor, refTensor)))
      return op->emitOpError() << name << " has shape " << shapeStr(tensor.getShape())
                               << " but " << refName << " has shape "
                               << shapeStr(refTensor.getShape())
                               << "; all operands and results must have the same shape";
    if (elementTypes && tensor.getElementType() != refTensor.getElementType())
      return op->emitOpError() << name << " has element type " << tensor.getElementType()
                               << " but " << refName << " has element type "
                               << refTensor.getElementType()
                               << "; all operands and results must have the same element type";
  }
  return success();
}

LogicalResult verifySameOperandsAndResultType(Operation *op) { return verifySame(op, true); }
LogicalResult verifySameOperandsAndResultShape(Operation *op) { return verifySame(op, false); }

} // namespace OpTrait

//===----------------------------------------------------------------------===//
// Elementwise ops with extra rules
//===----------------------------------------------------------------------===//

LogicalResult AbsOp::verify() {
  Type in = getOperand().getType().getElementType();
  Type out = getResult().getType().getElementType();
  Type expected = in;
  if (auto complex = dyn_cast<ComplexType>(in))
    expected = complex.getElementType();
  if (out != expected)
    return emitOpError() << "result element type " << out << " must be " << expected
                         << " for an operand of element type " << in;
  return success();
}

LogicalResult BitcastConvertOp::verify() {
  auto in = getOperand().getType();
  auto out = getResult().getType();
  auto bits = [](Type t) -> unsigned {
    if (auto c = dyn_cast<ComplexType>(t))
      return 2 * c.getElementType().getIntOrFloatBitWidth();
    if (auto q = dyn_cast<quant::QuantizedType>(t))
      return q.getStorageTypeIntegralWidth();
    return t.getIntOrFloatBitWidth();
  };
  unsigned inBits = bits(in.getElementType());
  unsigned outBits = bits(out.getElementType());
  SmallVector<int64_t> expected(in.getShape());
  if (inBits > outBits) {
    // Each operand element becomes inBits/outBits result elements (a new minor dim).
    if (inBits % outBits)
      return emitOpError() << "operand bit width " << inBits
                           << " is not a multiple of the result bit width " << outBits;
    expected.push_back(inBits / outBits);
  } else if (inBits < outBits) {
    if (outBits % inBits)
      return emitOpError() << "result bit width " << outBits
                           << " is not a multiple of the operand bit width " << inBits;
    if (expected.empty() || !compatibleDim(expected.back(), outBits / inBits))
      return emitOpError() << "operand's last dimension must be " << outBits / inBits
                           << " to bitcast " << inBits << "-bit elements to " << outBits
                           << "-bit elements";
    expected.pop_back();
  }
  return checkResultShape(*this, expected, out);
}

LogicalResult ReducePrecisionOp::verify() {
  int64_t exponent = getExponentBitsAttr().getValue().getSExtValue();
  int64_t mantissa = getMantissaBitsAttr().getValue().getSExtValue();
  if (exponent < 1)
    return emitOpError() << "exponent_bits = " << exponent << " must be at least 1";
  if (mantissa < 0)
    return emitOpError() << "mantissa_bits = " << mantissa << " must not be negative";
  return success();
}

LogicalResult CompareOp::verify() {
  Type lhs = getLhs().getType().getElementType();
  if (failed(checkSameElementType(*this, getLhs().getType(), "lhs", getRhs().getType(), "rhs")))
    return failure();
  std::optional<ComparisonType> type = getCompareType();
  if (!type || *type == ComparisonType::NOTYPE)
    return success();
  bool isSigned = lhs.isSignlessInteger() && !lhs.isInteger(1);
  bool isUnsigned = lhs.isUnsignedInteger() || lhs.isInteger(1);
  bool isFloat = isa<FloatType>(lhs);
  bool isComplex = isa<ComplexType>(lhs);
  bool ok = false;
  StringRef need;
  switch (*type) {
  case ComparisonType::SIGNED:
    ok = isSigned, need = "signed integer";
    break;
  case ComparisonType::UNSIGNED:
    ok = isUnsigned, need = "unsigned integer or boolean";
    break;
  case ComparisonType::FLOAT:
    ok = isFloat || isComplex, need = "floating-point or complex";
    break;
  case ComparisonType::TOTALORDER:
    ok = isFloat, need = "floating-point";
    break;
  case ComparisonType::NOTYPE:
    ok = true;
    break;
  }
  if (!ok)
    return emitOpError() << "compare_type " << stringifyComparisonType(*type) << " needs "
                         << need << " operands, but they have element type " << lhs;
  return success();
}

LogicalResult SelectOp::verify() {
  auto pred = getPred().getType();
  auto onTrue = getOnTrue().getType();
  if (failed(verifyCompatibleShape(onTrue, getOnFalse().getType())) ||
      onTrue.getElementType() != getOnFalse().getType().getElementType())
    return emitOpError() << "on_true type " << onTrue << " and on_false type "
                         << getOnFalse().getType() << " must match";
  if (failed(verifyCompatibleShape(onTrue, getResult().getType())) ||
      onTrue.getElementType() != getResult().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType() << " must match on_true type "
                         << onTrue;
  if (pred.getRank() != 0 && failed(verifyCompatibleShape(pred.getShape(), onTrue.getShape())))
    return emitOpError() << "pred must be a scalar or have the shape of on_true "
                         << shapeStr(onTrue.getShape()) << ", got " << shapeStr(pred.getShape());
  return success();
}

LogicalResult ClampOp::verify() {
  auto operand = getOperand().getType();
  for (auto [name, value] : {std::pair<StringRef, Value>{"min", getMin()}, {"max", getMax()}}) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getElementType() != operand.getElementType())
      return emitOpError() << name << " element type " << type.getElementType()
                           << " differs from operand element type " << operand.getElementType();
    if (type.getRank() != 0 && failed(verifyCompatibleShape(type.getShape(), operand.getShape())))
      return emitOpError() << name << " must be a scalar or have the operand's shape "
                           << shapeStr(operand.getShape()) << ", got "
                           << shapeStr(type.getShape());
  }
  if (failed(verifyCompatibleShape(operand, getResult().getType())) ||
      operand.getElementType() != getResult().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType() << " must match operand type "
                         << operand;
  return success();
}

//===----------------------------------------------------------------------===//
// constant, iota
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  Type valueType = getValue().getType();
  if (valueType != getOutput().getType())
    return emitOpError() << "value has type " << valueType << " but the result has type "
                         << getOutput().getType();
  return success();
}

LogicalResult IotaOp::verify() {
  auto type = cast<RankedTensorType>(getOutput().getType());
  int64_t dim = getIotaDimension();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError() << "iota_dimension = " << dim << " is out of range for result rank "
                         << type.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getOperand().getType(), out = getResult().getType();
  if (failed(checkSameElementType(*this, in, "operand", out, "result")))
    return failure();
  if (in.hasStaticShape() && out.hasStaticShape() &&
      in.getNumElements() != out.getNumElements())
    return emitOpError() << "operand has " << in.getNumElements() << " elements but result has "
                         << out.getNumElements() << "; reshape must keep the element count";
  return success();
}

LogicalResult TransposeOp::verify() {
  auto in = getOperand().getType();
  ArrayRef<int64_t> perm = getPermutation();
  if (failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")) ||
      failed(checkSize(*this, "permutation", perm.size(), in.getRank(), "the operand rank")) ||
      failed(checkDims(*this, "permutation", perm, in.getRank(), "operand rank")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t p : perm)
    expected.push_back(in.getDimSize(p));
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult BroadcastInDimOp::verify() {
  auto in = getOperand().getType(), out = getResult().getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (failed(checkSameElementType(*this, in, "operand", out, "result")) ||
      failed(checkSize(*this, "broadcast_dimensions", dims.size(), in.getRank(),
                       "the operand rank")) ||
      failed(checkDims(*this, "broadcast_dimensions", dims, out.getRank(), "result rank")))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t inDim = in.getDimSize(i), outDim = out.getDimSize(d);
    if (inDim != 1 && !compatibleDim(inDim, outDim))
      return emitOpError() << "operand dimension " << i << " has size " << dimStr(inDim)
                           << ", which is neither 1 nor the size " << dimStr(outDim)
                           << " of result dimension " << d << " (broadcast_dimensions[" << i
                           << "])";
  }
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto in = getOperand().getType();
  if (failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")))
    return failure();
  for (auto [i, s] : llvm::enumerate(getBroadcastSizes()))
    if (s < 0)
      return emitOpError() << "broadcast_sizes[" << i << "] = " << s << " must not be negative";
  SmallVector<int64_t> expected(getBroadcastSizes());
  expected.append(in.getShape().begin(), in.getShape().end());
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult ConcatenateOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  auto first = cast<RankedTensorType>(getInputs()[0].getType());
  int64_t rank = first.getRank();
  int64_t dim = getDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "dimension = " << dim << " is out of range for input rank " << rank;
  SmallVector<int64_t> expected(first.getShape());
  for (auto [i, v] : llvm::enumerate(getInputs())) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getElementType() != first.getElementType())
      return emitOpError() << "input #" << i << " element type " << t.getElementType()
                           << " differs from input #0 element type " << first.getElementType();
    if (t.getRank() != rank)
      return emitOpError() << "input #" << i << " has rank " << t.getRank()
                           << " but input #0 has rank " << rank;
    if (i == 0)
      continue;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == dim) {
        expected[d] = (expected[d] == kDyn || t.getDimSize(d) == kDyn)
                          ? kDyn
                          : expected[d] + t.getDimSize(d);
      } else if (!compatibleDim(t.getDimSize(d), first.getDimSize(d))) {
        return emitOpError() << "input #" << i << " has size " << dimStr(t.getDimSize(d))
                             << " in dimension " << d << " but input #0 has "
                             << dimStr(first.getDimSize(d))
                             << "; only the concatenated dimension may differ";
      }
    }
  }
  if (failed(checkSameElementType(*this, first, "input #0", getResult().getType(), "result")))
    return failure();
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult SliceOp::verify() {
  auto in = getOperand().getType();
  int64_t rank = in.getRank();
  ArrayRef<int64_t> start = getStartIndices(), limit = getLimitIndices(),
                    strides = getStrides();
  if (failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")) ||
      failed(checkSize(*this, "start_indices", start.size(), rank, "the operand rank")) ||
      failed(checkSize(*this, "limit_indices", limit.size(), rank, "the operand rank")) ||
      failed(checkSize(*this, "strides", strides.size(), rank, "the operand rank")) ||
      failed(checkPositive(*this, "strides", strides)))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    if (start[i] < 0)
      return emitOpError() << "start_indices[" << i << "] = " << start[i]
                           << " must not be negative";
    if (limit[i] < start[i])
      return emitOpError() << "limit_indices[" << i << "] = " << limit[i]
                           << " is less than start_indices[" << i << "] = " << start[i];
    int64_t size = in.getDimSize(i);
    if (size != kDyn && limit[i] > size)
      return emitOpError() << "limit_indices[" << i << "] = " << limit[i]
                           << " exceeds operand dimension size " << size;
    expected.push_back((limit[i] - start[i] + strides[i] - 1) / strides[i]);
  }
  return checkResultShape(*this, expected, getResult().getType());
}

static LogicalResult checkIndexTypes(Operation *op, ValueRange indices, int64_t rank) {
  if ((int64_t)indices.size() != rank)
    return op->emitOpError() << "has " << indices.size() << " start indices, expected " << rank
                             << " (the operand rank)";
  for (size_t i = 1; i < indices.size(); ++i)
    if (indices[i].getType() != indices[0].getType())
      return op->emitOpError() << "start index #" << i << " has type " << indices[i].getType()
                               << " but start index #0 has type " << indices[0].getType()
                               << "; all start indices must have the same type";
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  auto in = getOperand().getType();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")) ||
      failed(checkIndexTypes(*this, getStartIndices(), in.getRank())) ||
      failed(checkSize(*this, "slice_sizes", sizes.size(), in.getRank(), "the operand rank")))
    return failure();
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (s < 0)
      return emitOpError() << "slice_sizes[" << i << "] = " << s << " must not be negative";
    if (in.getDimSize(i) != kDyn && s > in.getDimSize(i))
      return emitOpError() << "slice_sizes[" << i << "] = " << s
                           << " exceeds operand dimension size " << in.getDimSize(i);
  }
  return checkResultShape(*this, sizes, getResult().getType());
}

LogicalResult DynamicUpdateSliceOp::verify() {
  auto in = getOperand().getType(), update = getUpdate().getType();
  if (failed(checkSameElementType(*this, in, "operand", update, "update")))
    return failure();
  if (update.getRank() != in.getRank())
    return emitOpError() << "update rank " << update.getRank() << " differs from operand rank "
                         << in.getRank();
  if (failed(checkIndexTypes(*this, getStartIndices(), in.getRank())))
    return failure();
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (in.getDimSize(i) != kDyn && update.getDimSize(i) != kDyn &&
        update.getDimSize(i) > in.getDimSize(i))
      return emitOpError() << "update dimension " << i << " has size " << update.getDimSize(i)
                           << ", larger than the operand's " << in.getDimSize(i);
  if (failed(verifyCompatibleShape(in, getResult().getType())) ||
      in.getElementType() != getResult().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType() << " must match operand type "
                         << in;
  return success();
}

LogicalResult PadOp::verify() {
  auto in = getOperand().getType();
  auto value = getPaddingValue().getType();
  int64_t rank = in.getRank();
  if (value.getRank() != 0)
    return emitOpError() << "padding_value must be a 0-d tensor, got " << value;
  ArrayRef<int64_t> lo = getEdgePaddingLow(), hi = getEdgePaddingHigh(),
                    interior = getInteriorPadding();
  if (failed(checkSameElementType(*this, in, "operand", value, "padding_value")) ||
      failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")) ||
      failed(checkSize(*this, "edge_padding_low", lo.size(), rank, "the operand rank")) ||
      failed(checkSize(*this, "edge_padding_high", hi.size(), rank, "the operand rank")) ||
      failed(checkSize(*this, "interior_padding", interior.size(), rank, "the operand rank")))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < rank; ++i) {
    if (interior[i] < 0)
      return emitOpError() << "interior_padding[" << i << "] = " << interior[i]
                           << " must not be negative";
    int64_t d = in.getDimSize(i);
    if (d == kDyn) {
      expected.push_back(kDyn);
      continue;
    }
    int64_t size = lo[i] + hi[i] + d + std::max<int64_t>(d - 1, 0) * interior[i];
    if (size < 0)
      return emitOpError() << "padding makes dimension " << i << " negative (" << size << ")";
    expected.push_back(size);
  }
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult ReverseOp::verify() {
  auto in = getOperand().getType();
  if (failed(checkDims(*this, "dimensions", getDimensions(), in.getRank(), "operand rank")))
    return failure();
  if (in != getResult().getType())
    return emitOpError() << "result type " << getResult().getType() << " must match operand type "
                         << in;
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

static LogicalResult checkPrecisionConfig(Operation *op, std::optional<ArrayAttr> config) {
  if (config && !config->empty() && config->size() != 2)
    return op->emitOpError() << "precision_config must have 0 or 2 elements (lhs, rhs), got "
                             << config->size();
  return success();
}

LogicalResult DotGeneralOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  DotDimensionNumbersAttr dn = getDotDimensionNumbers();
  ArrayRef<int64_t> lb = dn.getLhsBatchingDimensions(), rb = dn.getRhsBatchingDimensions(),
                    lc = dn.getLhsContractingDimensions(), rc = dn.getRhsContractingDimensions();
  if (failed(checkPrecisionConfig(*this, getPrecisionConfig())))
    return failure();
  if (lb.size() != rb.size())
    return emitOpError() << "lhs_batching_dimensions has " << lb.size()
                         << " elements but rhs_batching_dimensions has " << rb.size();
  if (lc.size() != rc.size())
    return emitOpError() << "lhs_contracting_dimensions has " << lc.size()
                         << " elements but rhs_contracting_dimensions has " << rc.size();
  SmallVector<int64_t> lhsAll(lb), rhsAll(rb);
  lhsAll.append(lc.begin(), lc.end());
  rhsAll.append(rc.begin(), rc.end());
  if (failed(checkDims(*this, "lhs_batching_dimensions", lb, lhs.getRank(), "lhs rank")) ||
      failed(checkDims(*this, "lhs_contracting_dimensions", lc, lhs.getRank(), "lhs rank")) ||
      failed(checkDims(*this, "rhs_batching_dimensions", rb, rhs.getRank(), "rhs rank")) ||
      failed(checkDims(*this, "rhs_contracting_dimensions", rc, rhs.getRank(), "rhs rank")))
    return failure();
  if (failed(checkDims(*this, "lhs batching + contracting dimensions", lhsAll, lhs.getRank(),
                       "lhs rank")) ||
      failed(checkDims(*this, "rhs batching + contracting dimensions", rhsAll, rhs.getRank(),
                       "rhs rank")))
    return failure();
  for (size_t i = 0; i < lb.size(); ++i)
    if (!compatibleDim(lhs.getDimSize(lb[i]), rhs.getDimSize(rb[i])))
      return emitOpError() << "batching dimension " << i << " has size "
                           << dimStr(lhs.getDimSize(lb[i])) << " in lhs (dimension " << lb[i]
                           << ") but " << dimStr(rhs.getDimSize(rb[i])) << " in rhs (dimension "
                           << rb[i] << ")";
  for (size_t i = 0; i < lc.size(); ++i)
    if (!compatibleDim(lhs.getDimSize(lc[i]), rhs.getDimSize(rc[i])))
      return emitOpError() << "contracting dimension " << i << " has size "
                           << dimStr(lhs.getDimSize(lc[i])) << " in lhs (dimension " << lc[i]
                           << ") but " << dimStr(rhs.getDimSize(rc[i])) << " in rhs (dimension "
                           << rc[i] << ")";
  // Result: batch dims, then lhs free dims, then rhs free dims.
  SmallVector<int64_t> expected;
  for (int64_t d : lb)
    expected.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsAll, d))
      expected.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsAll, d))
      expected.push_back(rhs.getDimSize(d));
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult DotOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  if (failed(checkPrecisionConfig(*this, getPrecisionConfig())))
    return failure();
  if (lhs.getRank() != 1 && lhs.getRank() != 2)
    return emitOpError() << "lhs must have rank 1 or 2, got rank " << lhs.getRank();
  if (rhs.getRank() != 1 && rhs.getRank() != 2)
    return emitOpError() << "rhs must have rank 1 or 2, got rank " << rhs.getRank();
  if (!compatibleDim(lhs.getShape().back(), rhs.getDimSize(0)))
    return emitOpError() << "lhs's last dimension (" << dimStr(lhs.getShape().back())
                         << ") must equal rhs's first dimension (" << dimStr(rhs.getDimSize(0))
                         << ")";
  SmallVector<int64_t> expected;
  if (lhs.getRank() == 2)
    expected.push_back(lhs.getDimSize(0));
  if (rhs.getRank() == 2)
    expected.push_back(rhs.getDimSize(1));
  return checkResultShape(*this, expected, getResult().getType());
}

LogicalResult ConvolutionOp::verify() {
  auto lhs = getLhs().getType(), rhs = getRhs().getType();
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t rank = lhs.getRank();
  if (rhs.getRank() != rank)
    return emitOpError() << "lhs rank " << rank << " and rhs rank " << rhs.getRank()
                         << " must be equal";
  if (rank < 2)
    return emitOpError() << "operands must have rank at least 2, got " << rank;
  if (result.getRank() != rank)
    return emitOpError() << "result rank " << result.getRank() << " must equal operand rank "
                         << rank;
  int64_t ns = rank - 2;
  ConvDimensionNumbersAttr dn = getDimensionNumbers();
  if (failed(checkSize(*this, "input_spatial_dimensions", dn.getInputSpatialDimensions().size(),
                       ns, "operand rank - 2")) ||
      failed(checkSize(*this, "kernel_spatial_dimensions",
                       dn.getKernelSpatialDimensions().size(), ns, "operand rank - 2")) ||
      failed(checkSize(*this, "output_spatial_dimensions",
                       dn.getOutputSpatialDimensions().size(), ns, "operand rank - 2")))
    return failure();
  auto all = [](int64_t a, int64_t b, ArrayRef<int64_t> s) {
    SmallVector<int64_t> v{a, b};
    v.append(s.begin(), s.end());
    return v;
  };
  if (failed(checkDims(*this, "input dimension numbers (batch, feature, spatial...)",
                       all(dn.getInputBatchDimension(), dn.getInputFeatureDimension(),
                           dn.getInputSpatialDimensions()),
                       rank, "lhs rank")) ||
      failed(checkDims(*this, "kernel dimension numbers (input feature, output feature, spatial...)",
                       all(dn.getKernelInputFeatureDimension(),
                           dn.getKernelOutputFeatureDimension(), dn.getKernelSpatialDimensions()),
                       rank, "rhs rank")) ||
      failed(checkDims(*this, "output dimension numbers (batch, feature, spatial...)",
                       all(dn.getOutputBatchDimension(), dn.getOutputFeatureDimension(),
                           dn.getOutputSpatialDimensions()),
                       rank, "result rank")))
    return failure();

  SmallVector<int64_t> strides(ns, 1), lhsDil(ns, 1), rhsDil(ns, 1), lo, hi;
  if (auto s = getWindowStrides()) {
    if (failed(checkSize(*this, "window_strides", s->size(), ns, "number of spatial dimensions")) ||
        failed(checkPositive(*this, "window_strides", *s)))
      return failure();
    strides.assign(s->begin(), s->end());
  }
  if (auto s = getLhsDilation()) {
    if (failed(checkSize(*this, "lhs_dilation", s->size(), ns, "number of spatial dimensions")) ||
        failed(checkPositive(*this, "lhs_dilation", *s)))
      return failure();
    lhsDil.assign(s->begin(), s->end());
  }
  if (auto s = getRhsDilation()) {
    if (failed(checkSize(*this, "rhs_dilation", s->size(), ns, "number of spatial dimensions")) ||
        failed(checkPositive(*this, "rhs_dilation", *s)))
      return failure();
    rhsDil.assign(s->begin(), s->end());
  }
  if (auto r = getWindowReversal())
    if (failed(checkSize(*this, "window_reversal", r->size(), ns, "number of spatial dimensions")))
      return failure();
  if (failed(readPadding(*this, getPaddingAttr(), ns, lo, hi)))
    return failure();

  int64_t fgc = getFeatureGroupCount(), bgc = getBatchGroupCount();
  if (fgc <= 0)
    return emitOpError() << "feature_group_count = " << fgc << " must be positive";
  if (bgc <= 0)
    return emitOpError() << "batch_group_count = " << bgc << " must be positive";
  if (fgc != 1 && bgc != 1)
    return emitOpError() << "feature_group_count = " << fgc << " and batch_group_count = " << bgc
                         << " cannot both be greater than 1";
  if (failed(checkPrecisionConfig(*this, getPrecisionConfig())))
    return failure();

  int64_t batch = lhs.getDimSize(dn.getInputBatchDimension());
  int64_t inFeat = lhs.getDimSize(dn.getInputFeatureDimension());
  int64_t kIn = rhs.getDimSize(dn.getKernelInputFeatureDimension());
  int64_t kOut = rhs.getDimSize(dn.getKernelOutputFeatureDimension());
  if (inFeat != kDyn && inFeat % fgc)
    return emitOpError() << "input feature dimension size " << inFeat
                         << " is not divisible by feature_group_count = " << fgc;
  if (batch != kDyn && batch % bgc)
    return emitOpError() << "input batch dimension size " << batch
                         << " is not divisible by batch_group_count = " << bgc;
  if (inFeat != kDyn && kIn != kDyn && inFeat / fgc != kIn)
    return emitOpError() << "kernel input feature dimension size " << kIn
                         << " must be the input feature size " << inFeat
                         << " divided by feature_group_count = " << fgc;
  if (kOut != kDyn && (kOut % fgc || kOut % bgc))
    return emitOpError() << "kernel output feature dimension size " << kOut
                         << " must be divisible by feature_group_count = " << fgc
                         << " and batch_group_count = " << bgc;

  SmallVector<int64_t> expected(rank, kDyn);
  expected[dn.getOutputBatchDimension()] = batch == kDyn ? kDyn : batch / bgc;
  expected[dn.getOutputFeatureDimension()] = kOut;
  for (int64_t i = 0; i < ns; ++i) {
    int64_t in = lhs.getDimSize(dn.getInputSpatialDimensions()[i]);
    int64_t window = rhs.getDimSize(dn.getKernelSpatialDimensions()[i]);
    expected[dn.getOutputSpatialDimensions()[i]] =
        window == kDyn ? kDyn
                       : windowOutputDim(in, lhsDil[i], lo[i], hi[i], window, rhsDil[i],
                                         strides[i]);
  }
  return checkResultShape(*this, expected, result);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Shared checks for reduce/reduce_window inputs and init values. Fills the
/// element types the body works on.
static LogicalResult checkInputsAndInits(Operation *op, ValueRange inputs, ValueRange inits,
                                         SmallVectorImpl<Type> &elementTypes) {
  // SameVariadicOperandSize splits the operands in half without checking
  // that they split evenly.
  if (op->getNumOperands() % 2)
    return op->emitOpError() << "has " << op->getNumOperands()
                             << " operands; expected the same number of inputs and init values";
  if (inputs.empty())
    return op->emitOpError() << "needs at least one input";
  if (inputs.size() != inits.size())
    return op->emitOpError() << "has " << inputs.size() << " inputs but " << inits.size()
                             << " init values";
  if (failed(checkSameShapes(op, inputs, "input")))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, inits))) {
    auto input = ranked(std::get<0>(pair)), init = ranked(std::get<1>(pair));
    if (init.getRank() != 0)
      return op->emitOpError() << "init value #" << i << " must be a 0-d tensor, got " << init;
    if (init.getElementType() != input.getElementType())
      return op->emitOpError() << "init value #" << i << " element type "
                               << init.getElementType() << " differs from input #" << i
                               << " element type " << input.getElementType();
    elementTypes.push_back(input.getElementType());
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  SmallVector<Type> elementTypes;
  if (failed(checkInputsAndInits(*this, getInputs(), getInitValues(), elementTypes)))
    return failure();
  auto input = ranked(getInputs()[0]);
  ArrayRef<int64_t> dims = getDimensions();
  if (failed(checkDims(*this, "dimensions", dims, input.getRank(), "input rank")))
    return failure();
  if (failed(checkReducerBody(*this, getBody(), "body", elementTypes)))
    return failure();
  if (getNumResults() != getInputs().size())
    return emitOpError() << "has " << getNumResults() << " results, expected "
                         << getInputs().size() << " (one per input)";
  SmallVector<int64_t> expected;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      expected.push_back(input.getDimSize(d));
  for (auto [i, r] : llvm::enumerate(getResults())) {
    if (getElementTypeOrSelf(r.getType()) != elementTypes[i])
      return emitOpError() << "result #" << i << " element type "
                           << getElementTypeOrSelf(r.getType()) << " differs from input #" << i
                           << " element type " << elementTypes[i];
    if (failed(checkResultShape(*this, expected, r.getType(),
                                "result #" + std::to_string(i))))
      return failure();
  }
  return success();
}

/// Window attributes shared by reduce_window and select_and_scatter.
static LogicalResult
checkWindow(Operation *op, int64_t rank, std::optional<ArrayRef<int64_t>> windowDims,
            std::optional<ArrayRef<int64_t>> strides, std::optional<ArrayRef<int64_t>> baseDil,
            std::optional<ArrayRef<int64_t>> windowDil, DenseIntElementsAttr padding,
            SmallVectorImpl<int64_t> &w, SmallVectorImpl<int64_t> &s,
            SmallVectorImpl<int64_t> &bd, SmallVectorImpl<int64_t> &wd,
            SmallVectorImpl<int64_t> &lo, SmallVectorImpl<int64_t> &hi) {
  auto read = [&](StringRef name, std::optional<ArrayRef<int64_t>> attr,
                  SmallVectorImpl<int64_t> &out) -> LogicalResult {
    out.assign(rank, 1);
    if (!attr)
      return success();
    if (failed(checkSize(op, name, attr->size(), rank, "the input rank")) ||
        failed(checkPositive(op, name, *attr)))
      return failure();
    out.assign(attr->begin(), attr->end());
    return success();
  };
  if (failed(read("window_dimensions", windowDims, w)) ||
      failed(read("window_strides", strides, s)) || failed(read("base_dilations", baseDil, bd)) ||
      failed(read("window_dilations", windowDil, wd)))
    return failure();
  return readPadding(op, padding, rank, lo, hi);
}

LogicalResult ReduceWindowOp::verify() {
  SmallVector<Type> elementTypes;
  if (failed(checkInputsAndInits(*this, getInputs(), getInitValues(), elementTypes)))
    return failure();
  auto input = ranked(getInputs()[0]);
  int64_t rank = input.getRank();
  SmallVector<int64_t> w, s, bd, wd, lo, hi;
  if (failed(checkWindow(*this, rank, getWindowDimensions(), getWindowStrides(),
                         getBaseDilations(), getWindowDilations(), getPaddingAttr(), w, s, bd, wd,
                         lo, hi)))
    return failure();
  if (failed(checkReducerBody(*this, getBody(), "body", elementTypes)))
    return failure();
  if (getNumResults() != getInputs().size())
    return emitOpError() << "has " << getNumResults() << " results, expected "
                         << getInputs().size() << " (one per input)";
  SmallVector<int64_t> expected;
  for (int64_t d = 0; d < rank; ++d)
    expected.push_back(windowOutputDim(input.getDimSize(d), bd[d], lo[d], hi[d], w[d], wd[d], s[d]));
  for (auto [i, r] : llvm::enumerate(getResults())) {
    if (getElementTypeOrSelf(r.getType()) != elementTypes[i])
      return emitOpError() << "result #" << i << " element type "
                           << getElementTypeOrSelf(r.getType()) << " differs from input #" << i
                           << " element type " << elementTypes[i];
    if (failed(checkResultShape(*this, expected, r.getType(), "result #" + std::to_string(i))))
      return failure();
  }
  return success();
}

LogicalResult SelectAndScatterOp::verify() {
  auto operand = getOperand().getType();
  auto source = getSource().getType();
  auto init = getInitValue().getType();
  Type elem = operand.getElementType();
  if (init.getRank() != 0)
    return emitOpError() << "init_value must be a 0-d tensor, got " << init;
  if (failed(checkSameElementType(*this, source, "source", init, "init_value")))
    return failure();
  int64_t rank = operand.getRank();
  SmallVector<int64_t> w, s, bd, wd, lo, hi;
  if (failed(checkWindow(*this, rank, getWindowDimensions(), getWindowStrides(), std::nullopt,
                         std::nullopt, getPaddingAttr(), w, s, bd, wd, lo, hi)))
    return failure();
  // select: (tensor<E>, tensor<E>) -> tensor<i1>
  Region &select = getSelect();
  if (select.empty())
    return emitOpError() << "select region must have a block";
  Block &sb = select.front();
  Type scalar = RankedTensorType::get({}, elem);
  if (sb.getNumArguments() != 2 || sb.getArgument(0).getType() != scalar ||
      sb.getArgument(1).getType() != scalar)
    return emitOpError() << "select region must take two arguments of type " << scalar;
  auto sret = sb.empty() ? nullptr : dyn_cast<ReturnOp>(sb.back());
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (!sret || sret.getNumOperands() != 1 || sret.getOperand(0).getType() != pred)
    return emitOpError() << "select region must return one value of type " << pred;
  if (failed(checkReducerBody(*this, getScatter(), "scatter", {source.getElementType()})))
    return failure();
  SmallVector<int64_t> expected;
  for (int64_t d = 0; d < rank; ++d)
    expected.push_back(windowOutputDim(operand.getDimSize(d), 1, lo[d], hi[d], w[d], 1, s[d]));
  if (failed(checkResultShape(*this, expected, source, "source")))
    return failure();
  Type result = getResult().getType();
  if (failed(verifyCompatibleShape(result, operand)) ||
      getElementTypeOrSelf(result) != source.getElementType())
    return emitOpError() << "result type " << result << " must have the operand's shape and the "
                         << "source's element type";
  return success();
}

//===----------------------------------------------------------------------===//
// gather / scatter
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto operand = getOperand().getType();
  auto indices = getStartIndices().getType();
  GatherDimensionNumbersAttr dn = getDimensionNumbers();
  int64_t opRank = operand.getRank(), idxRank = indices.getRank();
  ArrayRef<int64_t> offset = dn.getOffsetDims(), collapsed = dn.getCollapsedSliceDims(),
                    opBatch = dn.getOperandBatchingDims(),
                    idxBatch = dn.getStartIndicesBatchingDims(), map = dn.getStartIndexMap(),
                    sizes = getSliceSizes();
  int64_t ivd = dn.getIndexVectorDim();
  auto resultType = ranked(getResult().getType());
  if (failed(checkSameElementType(*this, operand, "operand", resultType, "result")))
    return failure();
  if (ivd < 0 || ivd > idxRank)
    return emitOpError() << "index_vector_dim = " << ivd << " is out of range [0, " << idxRank
                         << "] for start_indices rank " << idxRank;
  if ((int64_t)(offset.size() + collapsed.size() + opBatch.size()) != opRank)
    return emitOpError() << "operand rank " << opRank
                         << " must equal size(offset_dims) + size(collapsed_slice_dims) + "
                            "size(operand_batching_dims) = "
                         << offset.size() + collapsed.size() + opBatch.size();
  if (failed(checkSize(*this, "slice_sizes", sizes.size(), opRank, "the operand rank")))
    return failure();
  int64_t batchRank = ivd < idxRank ? idxRank - 1 : idxRank;
  int64_t resultRank = batchRank + offset.size();
  if (failed(checkSorted(*this, "offset_dims", offset)) ||
      failed(checkDims(*this, "offset_dims", offset, resultRank, "result rank")) ||
      failed(checkSorted(*this, "collapsed_slice_dims", collapsed)) ||
      failed(checkDims(*this, "collapsed_slice_dims", collapsed, opRank, "operand rank")) ||
      failed(checkSorted(*this, "operand_batching_dims", opBatch)) ||
      failed(checkDims(*this, "operand_batching_dims", opBatch, opRank, "operand rank")) ||
      failed(checkDims(*this, "start_indices_batching_dims", idxBatch, idxRank,
                       "start_indices rank")) ||
      failed(checkDims(*this, "start_index_map", map, opRank, "operand rank")))
    return failure();
  for (int64_t d : collapsed)
    if (llvm::is_contained(opBatch, d))
      return emitOpError() << "dimension " << d
                           << " is in both collapsed_slice_dims and operand_batching_dims";
  for (int64_t d : map)
    if (llvm::is_contained(opBatch, d))
      return emitOpError() << "dimension " << d
                           << " is in both start_index_map and operand_batching_dims";
  if (llvm::is_contained(idxBatch, ivd))
    return emitOpError() << "start_indices_batching_dims must not contain index_vector_dim = "
                         << ivd;
  if (idxBatch.size() != opBatch.size())
    return emitOpError() << "start_indices_batching_dims has " << idxBatch.size()
                         << " elements but operand_batching_dims has " << opBatch.size();
  int64_t indexVectorSize = ivd < idxRank ? indices.getDimSize(ivd) : 1;
  if (indexVectorSize != kDyn && (int64_t)map.size() != indexVectorSize)
    return emitOpError() << "start_index_map has " << map.size()
                         << " elements but the index vector has size " << indexVectorSize;
  for (auto [i, s] : llvm::enumerate(sizes)) {
    if (s < 0)
      return emitOpError() << "slice_sizes[" << i << "] = " << s << " must not be negative";
    if (operand.getDimSize(i) != kDyn && s > operand.getDimSize(i))
      return emitOpError() << "slice_sizes[" << i << "] = " << s
                           << " exceeds operand dimension size " << operand.getDimSize(i);
  }
  for (int64_t d : collapsed)
    if (sizes[d] > 1)
      return emitOpError() << "slice_sizes[" << d << "] = " << sizes[d]
                           << " must be 0 or 1 because dimension " << d << " is collapsed";
  for (int64_t d : opBatch)
    if (sizes[d] > 1)
      return emitOpError() << "slice_sizes[" << d << "] = " << sizes[d]
                           << " must be 0 or 1 because dimension " << d << " is a batching dim";
  // Result: offset dims take the non-collapsed slice sizes in order; the
  // others take start_indices' dims without index_vector_dim.
  SmallVector<int64_t> offsetSizes, batchSizes;
  for (int64_t d = 0; d < opRank; ++d)
    if (!llvm::is_contained(collapsed, d) && !llvm::is_contained(opBatch, d))
      offsetSizes.push_back(sizes[d]);
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd)
      batchSizes.push_back(indices.getDimSize(d));
  SmallVector<int64_t> expected;
  size_t oi = 0, bi = 0;
  for (int64_t d = 0; d < resultRank; ++d)
    expected.push_back(llvm::is_contained(offset, d) ? offsetSizes[oi++] : batchSizes[bi++]);
  return checkResultShape(*this, expected, resultType);
}

LogicalResult ScatterOp::verify() {
  if (getNumOperands() % 2 == 0)
    return emitOpError() << "has " << getNumOperands()
                         << " operands; expected N inputs, the indices and N updates";
  auto inputs = getInputs();
  auto updates = getUpdates();
  if (inputs.empty())
    return emitOpError() << "needs at least one input";
  if (inputs.size() != updates.size())
    return emitOpError() << "has " << inputs.size() << " inputs but " << updates.size()
                         << " updates";
  if (failed(checkSameShapes(*this, inputs, "input")) ||
      failed(checkSameShapes(*this, updates, "update")))
    return failure();
  SmallVector<Type> elementTypes;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, updates))) {
    Type a = getElementTypeOrSelf(std::get<0>(pair).getType());
    Type b = getElementTypeOrSelf(std::get<1>(pair).getType());
    if (a != b)
      return emitOpError() << "update #" << i << " element type " << b << " differs from input #"
                           << i << " element type " << a;
    elementTypes.push_back(a);
  }
  auto input = ranked(inputs[0]), update = ranked(updates[0]);
  auto indices = getScatterIndices().getType();
  ScatterDimensionNumbersAttr dn = getScatterDimensionNumbers();
  ArrayRef<int64_t> window = dn.getUpdateWindowDims(), inserted = dn.getInsertedWindowDims(),
                    inBatch = dn.getInputBatchingDims(),
                    idxBatch = dn.getScatterIndicesBatchingDims(),
                    toOperand = dn.getScatterDimsToOperandDims();
  int64_t ivd = dn.getIndexVectorDim();
  int64_t inRank = input.getRank(), upRank = update.getRank(), idxRank = indices.getRank();
  if (ivd < 0 || ivd > idxRank)
    return emitOpError() << "index_vector_dim = " << ivd << " is out of range [0, " << idxRank
                         << "] for scatter_indices rank " << idxRank;
  if (failed(checkSorted(*this, "update_window_dims", window)) ||
      failed(checkDims(*this, "update_window_dims", window, upRank, "updates rank")) ||
      failed(checkSorted(*this, "inserted_window_dims", inserted)) ||
      failed(checkDims(*this, "inserted_window_dims", inserted, inRank, "input rank")) ||
      failed(checkSorted(*this, "input_batching_dims", inBatch)) ||
      failed(checkDims(*this, "input_batching_dims", inBatch, inRank, "input rank")) ||
      failed(checkDims(*this, "scatter_indices_batching_dims", idxBatch, idxRank,
                       "scatter_indices rank")) ||
      failed(checkDims(*this, "scatter_dims_to_operand_dims", toOperand, inRank, "input rank")))
    return failure();
  if ((int64_t)(window.size() + inserted.size() + inBatch.size()) != inRank)
    return emitOpError() << "input rank " << inRank
                         << " must equal size(update_window_dims) + size(inserted_window_dims) + "
                            "size(input_batching_dims) = "
                         << window.size() + inserted.size() + inBatch.size();
  for (int64_t d : inserted)
    if (llvm::is_contained(inBatch, d))
      return emitOpError() << "dimension " << d
                           << " is in both inserted_window_dims and input_batching_dims";
  for (int64_t d : toOperand)
    if (llvm::is_contained(inBatch, d))
      return emitOpError() << "dimension " << d
                           << " is in both scatter_dims_to_operand_dims and input_batching_dims";
  if (llvm::is_contained(idxBatch, ivd))
    return emitOpError() << "scatter_indices_batching_dims must not contain index_vector_dim = "
                         << ivd;
  if (idxBatch.size() != inBatch.size())
    return emitOpError() << "scatter_indices_batching_dims has " << idxBatch.size()
                         << " elements but input_batching_dims has " << inBatch.size();
  int64_t indexVectorSize = ivd < idxRank ? indices.getDimSize(ivd) : 1;
  if (indexVectorSize != kDyn && (int64_t)toOperand.size() != indexVectorSize)
    return emitOpError() << "scatter_dims_to_operand_dims has " << toOperand.size()
                         << " elements but the index vector has size " << indexVectorSize;
  // Update scatter dims (those not in update_window_dims) match the index
  // batch dims; update window dims fit in the input's window dims.
  SmallVector<int64_t> indexBatchSizes;
  for (int64_t d = 0; d < idxRank; ++d)
    if (d != ivd)
      indexBatchSizes.push_back(indices.getDimSize(d));
  SmallVector<int64_t> inputWindowSizes;
  for (int64_t d = 0; d < inRank; ++d)
    if (!llvm::is_contained(inserted, d) && !llvm::is_contained(inBatch, d))
      inputWindowSizes.push_back(input.getDimSize(d));
  if (upRank != (int64_t)(indexBatchSizes.size() + window.size()))
    return emitOpError() << "updates rank " << upRank << " must equal "
                         << indexBatchSizes.size() + window.size()
                         << " (scatter_indices rank without index_vector_dim + "
                            "size(update_window_dims))";
  size_t si = 0, wi = 0;
  for (int64_t d = 0; d < upRank; ++d) {
    int64_t size = update.getDimSize(d);
    if (llvm::is_contained(window, d)) {
      int64_t bound = inputWindowSizes[wi++];
      if (size != kDyn && bound != kDyn && size > bound)
        return emitOpError() << "updates dimension " << d << " has size " << size
                             << ", larger than the matching input window dimension (" << bound
                             << ")";
    } else {
      int64_t expected = indexBatchSizes[si++];
      if (!compatibleDim(size, expected))
        return emitOpError() << "updates dimension " << d << " has size " << dimStr(size)
                             << " but the matching scatter_indices dimension has size "
                             << dimStr(expected);
    }
  }
  if (failed(checkReducerBody(*this, getUpdateComputation(), "update_computation",
                              elementTypes)))
    return failure();
  if (getNumResults() != inputs.size())
    return emitOpError() << "has " << getNumResults() << " results, expected " << inputs.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getResults(), inputs)))
    if (std::get<0>(pair).getType() != std::get<1>(pair).getType())
      return emitOpError() << "result #" << i << " type " << std::get<0>(pair).getType()
                           << " must match input #" << i << " type "
                           << std::get<1>(pair).getType();
  return success();
}

//===----------------------------------------------------------------------===//
// sort
//===----------------------------------------------------------------------===//

LogicalResult SortOp::verify() {
  auto inputs = getInputs();
  if (inputs.empty())
    return emitOpError() << "needs at least one input";
  if (failed(checkSameShapes(*this, inputs, "input")))
    return failure();
  int64_t rank = ranked(inputs[0]).getRank();
  int64_t dim = getDimension();
  if (dim < -rank || dim >= rank || (rank == 0 && dim != -1 && dim != 0))
    return emitOpError() << "dimension = " << dim << " is out of range [" << -rank << ", " << rank
                         << ") for input rank " << rank;
  Region &cmp = getComparator();
  if (cmp.empty())
    return emitOpError() << "comparator region must have a block";
  Block &block = cmp.front();
  if (block.getNumArguments() != 2 * inputs.size())
    return emitOpError() << "comparator must take " << 2 * inputs.size()
                         << " arguments (two per input), got " << block.getNumArguments();
  for (auto [i, v] : llvm::enumerate(inputs)) {
    Type scalar = RankedTensorType::get({}, getElementTypeOrSelf(v.getType()));
    for (unsigned j = 0; j < 2; ++j)
      if (block.getArgument(2 * i + j).getType() != scalar)
        return emitOpError() << "comparator argument #" << 2 * i + j << " has type "
                             << block.getArgument(2 * i + j).getType() << ", expected " << scalar
                             << " (input #" << i << ")";
  }
  auto ret = block.empty() ? nullptr : dyn_cast<ReturnOp>(block.back());
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (!ret || ret.getNumOperands() != 1 || ret.getOperand(0).getType() != pred)
    return emitOpError() << "comparator must return one value of type " << pred;
  if (TypeRange(getResultTypes()) != TypeRange(inputs.getTypes()))
    return emitOpError() << "result types must match the input types";
  return success();
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult WhileOp::verify() {
  TypeRange types = getOperandTypes();
  if (TypeRange(getResultTypes()) != types)
    return emitOpError() << "result types must match the operand types";
  Type pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (failed(checkBranch(*this, getCond(), "cond", TypeRange(pred), types)) ||
      failed(checkBranch(*this, getBody(), "body", types, types)))
    return failure();
  return success();
}

LogicalResult IfOp::verify() {
  TypeRange types = getResultTypes();
  if (failed(checkBranch(*this, getTrueBranch(), "true_branch", types)) ||
      failed(checkBranch(*this, getFalseBranch(), "false_branch", types)))
    return failure();
  return success();
}

LogicalResult CaseOp::verify() {
  if (getBranches().empty())
    return emitOpError() << "needs at least one branch";
  TypeRange types = getResultTypes();
  for (auto [i, region] : llvm::enumerate(getBranches()))
    if (failed(checkBranch(*this, region, "branch #" + std::to_string(i), types)))
      return failure();
  return success();
}

LogicalResult ReturnOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!parent || parent->getDialect() != (*this)->getDialect())
    return emitOpError() << "must terminate a region of a stablehlo op (use func.return in "
                            "func.func)";
  return success();
}

LogicalResult OptimizationBarrierOp::verify() {
  if (TypeRange(getOperandTypes()) != TypeRange(getResultTypes()))
    return emitOpError() << "result types must match the operand types";
  return success();
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::verify() {
  auto expected = TupleType::get(getContext(), getVal().getTypes());
  if (getResult().getType() != expected)
    return emitOpError() << "result type " << getResult().getType() << " must be " << expected;
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  int64_t index = getIndexAttr().getValue().getSExtValue();
  if (index < 0 || index >= (int64_t)tuple.size())
    return emitOpError() << "index = " << index << " is out of range for a tuple of "
                         << tuple.size() << " elements";
  if (tuple.getType(index) != getResult().getType())
    return emitOpError() << "result type " << getResult().getType() << " must be element #"
                         << index << " of the tuple, " << tuple.getType(index);
  return success();
}

//===----------------------------------------------------------------------===//
// Miscellaneous
//===----------------------------------------------------------------------===//

static LogicalResult checkLayouts(Operation *op, StringRef name, ArrayAttr layouts,
                                  TypeRange types) {
  if (layouts.size() != types.size())
    return op->emitOpError() << name << " has " << layouts.size() << " entries, expected "
                             << types.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(layouts, types))) {
    auto layout = cast<DenseIntElementsAttr>(std::get<0>(pair));
    auto tensor = dyn_cast<RankedTensorType>(std::get<1>(pair));
    if (!tensor)
      continue;
    SmallVector<int64_t> dims;
    for (const APInt &v : layout.getValues<APInt>())
      dims.push_back(v.getSExtValue());
    if (failed(checkSize(op, (name + "[" + std::to_string(i) + "]").str(), dims.size(),
                         tensor.getRank(), "the rank of its value")) ||
        failed(checkDims(op, (name + "[" + std::to_string(i) + "]").str(), dims,
                         tensor.getRank(), "rank")))
      return failure();
  }
  return success();
}

LogicalResult CustomCallOp::verify() {
  std::optional<Attribute> config = getBackendConfig();
  bool typedFfi = getApiVersion() == CustomCallApiVersion::API_VERSION_TYPED_FFI;
  if (config && isa<DictionaryAttr>(*config) && !typedFfi)
    return emitOpError() << "a dictionary backend_config needs api_version = "
                         << static_cast<int32_t>(CustomCallApiVersion::API_VERSION_TYPED_FFI)
                         << " (API_VERSION_TYPED_FFI)";
  std::optional<ArrayAttr> operandLayouts = getOperandLayouts();
  std::optional<ArrayAttr> resultLayouts = getResultLayouts();
  if (operandLayouts.has_value() != resultLayouts.has_value())
    return emitOpError() << "operand_layouts and result_layouts must be given together";
  if (operandLayouts) {
    if (failed(checkLayouts(*this, "operand_layouts", *operandLayouts, getOperandTypes())))
      return failure();
    TypeRange results = getResultTypes();
    SmallVector<Type> flat(results.begin(), results.end());
    if (results.size() == 1)
      if (auto tuple = dyn_cast<TupleType>(results[0]))
        flat.assign(tuple.getTypes().begin(), tuple.getTypes().end());
    if (failed(checkLayouts(*this, "result_layouts", *resultLayouts, flat)))
      return failure();
  }
  for (auto [i, attr] : llvm::enumerate(getOutputOperandAliases())) {
    auto alias = cast<OutputOperandAliasAttr>(attr);
    if (alias.getOperandIndex() < 0 || alias.getOperandIndex() >= (int64_t)getNumOperands())
      return emitOpError() << "output_operand_aliases[" << i << "] names operand "
                           << alias.getOperandIndex() << " but the op has " << getNumOperands()
                           << " operands";
  }
  return success();
}

LogicalResult RngBitGeneratorOp::verify() {
  auto state = getInitialState().getType();
  if (getOutputState().getType() != state)
    return emitOpError() << "output_state type " << getOutputState().getType()
                         << " must match initial_state type " << state;
  if (state.getRank() != 1)
    return emitOpError() << "initial_state must be a 1-d tensor, got rank " << state.getRank();
  int64_t size = state.getDimSize(0);
  if (size == kDyn)
    return success();
  RngAlgorithm alg = getRngAlgorithm();
  if (alg == RngAlgorithm::THREE_FRY && size != 2)
    return emitOpError() << "THREE_FRY needs an initial_state of 2 elements, got " << size;
  if (alg == RngAlgorithm::PHILOX && size != 2 && size != 3)
    return emitOpError() << "PHILOX needs an initial_state of 2 or 3 elements, got " << size;
  return success();
}

LogicalResult BatchNormInferenceOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  int64_t fi = getFeatureIndex();
  if (fi < 0 || fi >= operand.getRank())
    return emitOpError() << "feature_index = " << fi << " is out of range for operand rank "
                         << operand.getRank();
  int64_t features = operand.getDimSize(fi);
  for (auto [name, v] : {std::pair<StringRef, Value>{"scale", getScale()},
                         {"offset", getOffset()},
                         {"mean", getMean()},
                         {"variance", getVariance()}}) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getRank() != 1 || !compatibleDim(t.getDimSize(0), features))
      return emitOpError() << name << " must be a 1-d tensor of " << dimStr(features)
                           << " elements (the operand's feature dimension), got " << t;
    if (t.getElementType() != operand.getElementType())
      return emitOpError() << name << " element type " << t.getElementType()
                           << " differs from operand element type " << operand.getElementType();
  }
  if (getResult().getType() != operand)
    return emitOpError() << "result type " << getResult().getType() << " must match operand type "
                         << operand;
  return success();
}

//===----------------------------------------------------------------------===//
// Complex numbers
//===----------------------------------------------------------------------===//

namespace {
/// real/imag: the result has the operand's element type, or its real part's.
LogicalResult verifyComplexPart(Operation *op, Type operand, Type result) {
  Type in = getElementTypeOrSelf(operand);
  Type expected = in;
  if (auto complex = dyn_cast<ComplexType>(in))
    expected = complex.getElementType();
  Type out = getElementTypeOrSelf(result);
  if (out != expected)
    return op->emitOpError() << "result element type " << out << " must be " << expected
                             << " for an operand of element type " << in;
  return success();
}

/// Each of `regionName`'s block takes `args` arguments and returns `results` values.
LogicalResult checkComputationArity(Operation *op, Region &region, StringRef regionName,
                                    unsigned args, unsigned results) {
  if (region.empty())
    return op->emitOpError() << regionName << " region must have a block";
  Block &block = region.front();
  if (block.getNumArguments() != args)
    return op->emitOpError() << regionName << " region must take " << args
                             << " arguments, got " << block.getNumArguments();
  auto ret = block.empty() ? nullptr : dyn_cast<ReturnOp>(block.back());
  if (!ret)
    return op->emitOpError() << regionName << " region must end in stablehlo.return";
  if (ret.getNumOperands() != results)
    return op->emitOpError() << regionName << " region returns " << ret.getNumOperands()
                             << " values, expected " << results;
  return success();
}

/// `dim` is a dimension of a tensor of rank `rank`.
LogicalResult checkDimIndex(Operation *op, StringRef name, int64_t dim, int64_t rank,
                            StringRef what = "operand rank") {
  if (dim < 0 || dim >= rank)
    return op->emitOpError() << name << " = " << dim << " is out of range for " << what << " "
                             << rank;
  return success();
}

/// A 1-d shape operand of static length must have `expected` elements.
LogicalResult checkShapeOperandLength(Operation *op, StringRef name, Value v, int64_t expected,
                                      StringRef what) {
  auto t = ranked(v);
  if (t && t.getRank() == 1 && t.getDimSize(0) != kDyn && t.getDimSize(0) != expected)
    return op->emitOpError() << name << " has " << t.getDimSize(0) << " elements, expected "
                             << expected << " (" << what << ")";
  return success();
}

/// `replica_groups` / `source_target_pairs`: a 2-d tensor.
LogicalResult checkRank2(Operation *op, StringRef name, DenseIntElementsAttr attr,
                         int64_t cols = kDyn) {
  auto type = attr.getType();
  if (type.getRank() != 2)
    return op->emitOpError() << name << " must be a 2-d tensor, got rank " << type.getRank();
  if (cols != kDyn && type.getDimSize(1) != cols)
    return op->emitOpError() << name << " must have " << cols << " columns, got "
                             << type.getDimSize(1);
  return success();
}

/// Results pair up with operands: same count and rank, same element type.
LogicalResult checkPairwise(Operation *op, ValueRange operands, TypeRange results) {
  if (operands.size() != results.size())
    return op->emitOpError() << "has " << operands.size() << " operands but " << results.size()
                             << " results; expected one result per operand";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, results))) {
    auto in = ranked(std::get<0>(pair));
    auto out = ranked(std::get<1>(pair));
    if (!in || !out)
      continue;
    if (in.getRank() != out.getRank())
      return op->emitOpError() << "result #" << i << " has rank " << out.getRank()
                               << " but operand #" << i << " has rank " << in.getRank();
    if (in.getElementType() != out.getElementType())
      return op->emitOpError() << "result #" << i << " has element type "
                               << out.getElementType() << " but operand #" << i
                               << " has element type " << in.getElementType();
  }
  return success();
}
} // namespace

LogicalResult RealOp::verify() {
  return verifyComplexPart(*this, getOperand().getType(), getResult().getType());
}

LogicalResult ImagOp::verify() {
  return verifyComplexPart(*this, getOperand().getType(), getResult().getType());
}

LogicalResult ComplexOp::verify() {
  if (failed(checkSameElementType(*this, getLhs().getType(), "lhs", getRhs().getType(), "rhs")))
    return failure();
  Type part = getLhs().getType().getElementType();
  Type expected = ComplexType::get(part);
  Type out = getResult().getType().getElementType();
  if (out != expected)
    return emitOpError() << "result element type " << out << " must be " << expected
                         << " for operands of element type " << part;
  return success();
}

//===----------------------------------------------------------------------===//
// Tokens and host communication
//===----------------------------------------------------------------------===//

namespace {
/// infeed/recv: tensors, then one token last.
LogicalResult checkTensorsThenToken(Operation *op) {
  TypeRange types = op->getResultTypes();
  if (types.empty() || !isa<TokenType>(types.back()))
    return op->emitOpError() << "last result must be a !stablehlo.token";
  for (auto [i, t] : llvm::enumerate(types.drop_back()))
    if (isa<TokenType>(t))
      return op->emitOpError() << "result #" << i
                               << " is a token; only the last result may be one";
  return success();
}
} // namespace

LogicalResult InfeedOp::verify() { return checkTensorsThenToken(*this); }
LogicalResult RecvOp::verify() { return checkTensorsThenToken(*this); }

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

LogicalResult AllGatherOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())) ||
      failed(checkPairwise(*this, getOperands(), (*this)->getResultTypes())))
    return failure();
  int64_t dim = getAllGatherDim();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperands(), (*this)->getResultTypes()))) {
    auto in = ranked(std::get<0>(pair));
    auto out = ranked(std::get<1>(pair));
    if (failed(checkDimIndex(*this, "all_gather_dim", dim, in.getRank())))
      return failure();
    for (int64_t d = 0; d < in.getRank(); ++d)
      if (d != dim && !compatibleDim(in.getDimSize(d), out.getDimSize(d)))
        return emitOpError() << "result #" << i << " dimension " << d << " is "
                             << dimStr(out.getDimSize(d)) << " but operand #" << i << " has "
                             << dimStr(in.getDimSize(d))
                             << "; only all_gather_dim may differ";
  }
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())))
    return failure();
  if ((*this)->getNumOperands() != (*this)->getNumResults())
    return emitOpError() << "has " << (*this)->getNumOperands() << " operands but " << (*this)->getNumResults()
                         << " results; expected one result per operand";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperands(), (*this)->getResultTypes())))
    if (failed(verifyCompatibleShape(std::get<0>(pair).getType(), std::get<1>(pair))))
      return emitOpError() << "result #" << i << " type " << std::get<1>(pair)
                           << " must have the shape of operand #" << i << " type "
                           << std::get<0>(pair).getType();
  unsigned n = (*this)->getNumOperands();
  return checkComputationArity(*this, getComputation(), "computation", 2 * n, n);
}

LogicalResult ReduceScatterOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())))
    return failure();
  auto in = getOperand().getType();
  auto out = getResult().getType();
  if (failed(checkDimIndex(*this, "scatter_dimension", getScatterDimension(), in.getRank())))
    return failure();
  if (in.getRank() != out.getRank())
    return emitOpError() << "result rank " << out.getRank() << " must match operand rank "
                         << in.getRank();
  return checkComputationArity(*this, getComputation(), "computation", 2, 1);
}

LogicalResult AllToAllOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())) ||
      failed(checkPairwise(*this, getOperands(), (*this)->getResultTypes())))
    return failure();
  int64_t split = getSplitDimension(), concat = getConcatDimension(), count = getSplitCount();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getOperands(), (*this)->getResultTypes()))) {
    auto in = ranked(std::get<0>(pair));
    auto out = ranked(std::get<1>(pair));
    if (failed(checkDimIndex(*this, "split_dimension", split, in.getRank())) ||
        failed(checkDimIndex(*this, "concat_dimension", concat, in.getRank())))
      return failure();
    SmallVector<int64_t> expected(in.getShape());
    if (expected[split] != kDyn) {
      if (expected[split] % count)
        return emitOpError() << "operand #" << i << " dimension " << split << " ("
                             << expected[split] << ") is not divisible by split_count = "
                             << count;
      expected[split] /= count;
    }
    if (expected[concat] != kDyn)
      expected[concat] *= count;
    if (failed(checkResultShape(*this, expected, out, "result #" + std::to_string(i))))
      return failure();
  }
  return success();
}

LogicalResult CollectiveBroadcastOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())))
    return failure();
  // With a dynamic root, the last operand holds the roots and has no result.
  ValueRange operands = getOperands();
  if (getHasDynamicRoot() && !operands.empty())
    operands = operands.drop_back();
  if (failed(checkPairwise(*this, operands, (*this)->getResultTypes())))
    return failure();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(operands, (*this)->getResultTypes())))
    if (failed(verifyCompatibleShape(std::get<0>(pair).getType(), std::get<1>(pair))))
      return emitOpError() << "result #" << i << " type " << std::get<1>(pair)
                           << " must have the shape of operand #" << i << " type "
                           << std::get<0>(pair).getType();
  return success();
}

LogicalResult CollectiveReduceOp::verify() {
  if (failed(checkRank2(*this, "replica_groups", getReplicaGroups())))
    return failure();
  unsigned n = (*this)->getNumOperands() - (getHasDynamicRoot() && (*this)->getNumOperands() ? 1 : 0);
  if (n != (*this)->getNumResults())
    return emitOpError() << "has " << n << " reduced operands but " << (*this)->getNumResults()
                         << " results; expected one result per operand";
  return checkComputationArity(*this, getComputation(), "computation", 2 * n, n);
}

LogicalResult CollectivePermuteOp::verify() {
  if (failed(checkRank2(*this, "source_target_pairs", getSourceTargetPairs(), 2)))
    return failure();
  if (failed(verifyCompatibleShape(getOperand().getType(), getResult().getType())) ||
      getElementTypeOrSelf(getOperand()) != getElementTypeOrSelf(getResult()))
    return emitOpError() << "result type " << getResult().getType()
                         << " must match operand type " << getOperand().getType();
  return success();
}

LogicalResult AsyncStartOp::verify() {
  auto future = cast<FutureType>(getResult().getType());
  return checkBranch(*this, getBody(), "body", future.getTypes(), (*this)->getOperandTypes());
}

LogicalResult AsyncDoneOp::verify() {
  auto future = cast<FutureType>(getOperand().getType());
  if (TypeRange(future.getTypes()) != (*this)->getResultTypes())
    return emitOpError() << "result types must be the types of the future "
                         << getOperand().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// map, batch norm
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  auto result = getResult().getType();
  ArrayRef<int64_t> dims = getDimensions();
  for (auto [i, d] : llvm::enumerate(dims))
    if (d != (int64_t)i)
      return emitOpError() << "dimensions must be [0, ..., " << result.getRank() - 1
                           << "], but dimensions[" << i << "] = " << d;
  if ((int64_t)dims.size() != result.getRank())
    return emitOpError() << "dimensions has " << dims.size() << " elements, expected "
                         << result.getRank() << " (result rank)";
  unsigned n = getInputs().size();
  return checkComputationArity(*this, getComputation(), "computation", n, 1);
}

namespace {
/// batch_norm_grad/training: feature_index in range, `vectors` 1-d of the
/// feature count, every element type the operand's.
LogicalResult checkBatchNorm(Operation *op, Value operand, int64_t fi,
                             ArrayRef<std::pair<StringRef, Type>> vectors) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (failed(checkDimIndex(op, "feature_index", fi, type.getRank())))
    return failure();
  int64_t features = type.getDimSize(fi);
  for (auto [name, t] : vectors) {
    auto v = cast<RankedTensorType>(t);
    if (v.getRank() != 1 || !compatibleDim(v.getDimSize(0), features))
      return op->emitOpError() << name << " must be a 1-d tensor of " << dimStr(features)
                               << " elements (the operand's feature dimension), got " << v;
    if (v.getElementType() != type.getElementType())
      return op->emitOpError() << name << " element type " << v.getElementType()
                               << " differs from operand element type "
                               << type.getElementType();
  }
  return success();
}
} // namespace

LogicalResult BatchNormGradOp::verify() {
  if (failed(checkBatchNorm(*this, getOperand(), getFeatureIndex(),
                            {{"scale", getScale().getType()},
                             {"mean", getMean().getType()},
                             {"variance", getVariance().getType()},
                             {"grad_scale", getGradScale().getType()},
                             {"grad_offset", getGradOffset().getType()}})))
    return failure();
  for (auto [name, t] : {std::pair<StringRef, Type>{"grad_output", getGradOutput().getType()},
                         {"grad_operand", getGradOperand().getType()}})
    if (failed(verifyCompatibleShape(t, getOperand().getType())) ||
        getElementTypeOrSelf(t) != getElementTypeOrSelf(getOperand()))
      return emitOpError() << name << " type " << t << " must match operand type "
                           << getOperand().getType();
  return success();
}

LogicalResult BatchNormTrainingOp::verify() {
  if (failed(checkBatchNorm(*this, getOperand(), getFeatureIndex(),
                            {{"scale", getScale().getType()},
                             {"offset", getOffset().getType()},
                             {"batch_mean", getBatchMean().getType()},
                             {"batch_var", getBatchVar().getType()}})))
    return failure();
  if (failed(verifyCompatibleShape(getOutput().getType(), getOperand().getType())) ||
      getElementTypeOrSelf(getOutput()) != getElementTypeOrSelf(getOperand()))
    return emitOpError() << "output type " << getOutput().getType()
                         << " must match operand type " << getOperand().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Linear algebra and FFT
//===----------------------------------------------------------------------===//

namespace {
/// A batch of square matrices: rank >= 2, the two minor dims equal.
LogicalResult checkSquareMatrices(Operation *op, StringRef name, RankedTensorType t) {
  if (t.getRank() < 2)
    return op->emitOpError() << name << " must have rank 2 or more, got " << t.getRank();
  int64_t m = t.getDimSize(t.getRank() - 2), n = t.getDimSize(t.getRank() - 1);
  if (!compatibleDim(m, n))
    return op->emitOpError() << name << " must be square in its last two dimensions, got "
                             << m << "x" << n;
  return success();
}
} // namespace

LogicalResult CholeskyOp::verify() {
  auto a = getA().getType();
  if (failed(checkSquareMatrices(*this, "a", a)))
    return failure();
  if (failed(verifyCompatibleShape(a, getResult().getType())) ||
      a.getElementType() != getResult().getType().getElementType())
    return emitOpError() << "result type " << getResult().getType() << " must match a's type "
                         << a;
  return success();
}

LogicalResult TriangularSolveOp::verify() {
  auto a = getA().getType();
  auto b = getB().getType();
  if (failed(checkSquareMatrices(*this, "a", a)) ||
      failed(checkSameElementType(*this, a, "a", b, "b")))
    return failure();
  if (a.getRank() != b.getRank())
    return emitOpError() << "a has rank " << a.getRank() << " but b has rank " << b.getRank();
  if (getTransposeA() == Transpose::TRANSPOSE_INVALID)
    return emitOpError() << "transpose_a must be NO_TRANSPOSE, TRANSPOSE or ADJOINT";
  auto result = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyCompatibleShape(result, b)) || result.getElementType() != b.getElementType())
    return emitOpError() << "result type " << result << " must match b's type " << b;
  return success();
}

LogicalResult FftOp::verify() {
  ArrayRef<int64_t> length = getFftLength();
  if (length.empty() || length.size() > 3)
    return emitOpError() << "fft_length must have 1 to 3 elements, got " << length.size();
  auto in = getOperand().getType();
  auto out = cast<RankedTensorType>(getResult().getType());
  if (in.getRank() < (int64_t)length.size())
    return emitOpError() << "operand rank " << in.getRank() << " is less than the "
                         << length.size() << " transformed dimensions";
  bool inComplex = isa<ComplexType>(in.getElementType());
  bool outComplex = isa<ComplexType>(out.getElementType());
  FftType type = getFftType();
  bool wantIn = type != FftType::RFFT, wantOut = type != FftType::IRFFT;
  if (inComplex != wantIn)
    return emitOpError() << stringifyFftType(type) << " needs a "
                         << (wantIn ? "complex" : "floating-point") << " operand, got "
                         << in.getElementType();
  if (outComplex != wantOut)
    return emitOpError() << stringifyFftType(type) << " gives a "
                         << (wantOut ? "complex" : "floating-point") << " result, got "
                         << out.getElementType();
  return success();
}

LogicalResult RngOp::verify() {
  auto result = getResult().getType();
  for (auto [name, v] : {std::pair<StringRef, Value>{"a", getA()}, {"b", getB()}})
    if (getElementTypeOrSelf(v) != result.getElementType())
      return emitOpError() << name << " element type " << getElementTypeOrSelf(v)
                           << " differs from result element type " << result.getElementType();
  if (getRngDistribution() == RngDistribution::NORMAL && !isa<FloatType>(result.getElementType()))
    return emitOpError() << "NORMAL needs a floating-point result, got "
                         << result.getElementType();
  return checkShapeOperandLength(*this, "shape", getShape(), result.getRank(), "result rank");
}

//===----------------------------------------------------------------------===//
// Dynamic shapes
//===----------------------------------------------------------------------===//

LogicalResult GetDimensionSizeOp::verify() {
  return checkDimIndex(*this, "dimension", getDimension(), getOperand().getType().getRank());
}

LogicalResult DynamicBroadcastInDimOp::verify() {
  auto in = getOperand().getType();
  auto out = cast<RankedTensorType>(getResult().getType());
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (failed(checkSize(*this, "broadcast_dimensions", dims.size(), in.getRank(),
                       "operand rank")) ||
      failed(checkDims(*this, "broadcast_dimensions", dims, out.getRank(), "result rank")) ||
      failed(checkSameElementType(*this, in, "operand", out, "result")) ||
      failed(checkShapeOperandLength(*this, "output_dimensions", getOutputDimensions(),
                                     out.getRank(), "result rank")))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t from = in.getDimSize(i), to = out.getDimSize(d);
    if (from != kDyn && to != kDyn && from != 1 && from != to)
      return emitOpError() << "operand dimension " << i << " (" << from
                           << ") cannot be broadcast to result dimension " << d << " (" << to
                           << ")";
  }
  for (auto [name, attr] : {std::pair<StringRef, std::optional<ArrayRef<int64_t>>>{
                                "known_expanding_dimensions", getKnownExpandingDimensions()},
                            {"known_nonexpanding_dimensions", getKnownNonexpandingDimensions()}})
    if (attr && failed(checkDims(*this, name, *attr, in.getRank(), "operand rank")))
      return failure();
  return success();
}

LogicalResult DynamicIotaOp::verify() {
  auto out = cast<RankedTensorType>(getResult().getType());
  if (failed(checkDimIndex(*this, "iota_dimension", getIotaDimension(), out.getRank(),
                           "result rank")))
    return failure();
  return checkShapeOperandLength(*this, "output_shape", getOutputShape(), out.getRank(),
                                 "result rank");
}

LogicalResult DynamicReshapeOp::verify() {
  auto out = cast<RankedTensorType>(getResult().getType());
  if (failed(checkSameElementType(*this, getOperand().getType(), "operand", out, "result")))
    return failure();
  return checkShapeOperandLength(*this, "output_shape", getOutputShape(), out.getRank(),
                                 "result rank");
}

LogicalResult DynamicPadOp::verify() {
  auto in = getOperand().getType();
  auto out = cast<RankedTensorType>(getResult().getType());
  if (failed(checkSameElementType(*this, in, "operand", getPaddingValue().getType(),
                                  "padding_value")) ||
      failed(checkSameElementType(*this, in, "operand", out, "result")))
    return failure();
  if (in.getRank() != out.getRank())
    return emitOpError() << "result rank " << out.getRank() << " must match operand rank "
                         << in.getRank();
  for (auto [name, v] : {std::pair<StringRef, Value>{"edge_padding_low", getEdgePaddingLow()},
                         {"edge_padding_high", getEdgePaddingHigh()},
                         {"interior_padding", getInteriorPadding()}})
    if (failed(checkShapeOperandLength(*this, name, v, in.getRank(), "operand rank")))
      return failure();
  return success();
}

LogicalResult RealDynamicSliceOp::verify() {
  auto in = getOperand().getType();
  auto out = cast<RankedTensorType>(getResult().getType());
  if (failed(checkSameElementType(*this, in, "operand", out, "result")))
    return failure();
  if (in.getRank() != out.getRank())
    return emitOpError() << "result rank " << out.getRank() << " must match operand rank "
                         << in.getRank();
  for (auto [name, v] : {std::pair<StringRef, Value>{"start_indices", getStartIndices()},
                         {"limit_indices", getLimitIndices()},
                         {"strides", getStrides()}})
    if (failed(checkShapeOperandLength(*this, name, v, in.getRank(), "operand rank")))
      return failure();
  return success();
}

LogicalResult DynamicGatherOp::verify() {
  auto in = getOperand().getType();
  if (failed(checkSameElementType(*this, in, "operand", getResult().getType(), "result")))
    return failure();
  return checkShapeOperandLength(*this, "slice_sizes", getSliceSizes(), in.getRank(),
                                 "operand rank");
}

LogicalResult DynamicConvOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  int64_t spatial = getDimensionNumbers().getInputSpatialDimensions().size();
  if (lhs.getRank() != spatial + 2 || rhs.getRank() != spatial + 2)
    return emitOpError() << "lhs and rhs must have rank " << spatial + 2
                         << " (2 + spatial dimensions), got " << lhs.getRank() << " and "
                         << rhs.getRank();
  auto padding = cast<RankedTensorType>(getPadding().getType());
  if (padding.getDimSize(0) != spatial || padding.getDimSize(1) != 2)
    return emitOpError() << "padding must have shape [" << spatial << ", 2], got "
                         << shapeStr(padding.getShape());
  for (auto [name, attr] :
       {std::pair<StringRef, std::optional<ArrayRef<int64_t>>>{"window_strides",
                                                               getWindowStrides()},
        {"lhs_dilation", getLhsDilation()},
        {"rhs_dilation", getRhsDilation()}})
    if (attr && (failed(checkSize(*this, name, attr->size(), spatial, "spatial dimensions")) ||
                 failed(checkPositive(*this, name, *attr))))
      return failure();
  if (auto reversal = getWindowReversal())
    if (failed(checkSize(*this, "window_reversal", reversal->size(), spatial,
                         "spatial dimensions")))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Quantization
//===----------------------------------------------------------------------===//

LogicalResult UniformDequantizeOp::verify() {
  auto q = cast<quant::QuantizedType>(getOperand().getType().getElementType());
  Type out = getResult().getType().getElementType();
  if (q.getExpressedType() != out)
    return emitOpError() << "result element type " << out << " must be the expressed type "
                         << q.getExpressedType() << " of the operand";
  return success();
}

} // namespace floors::stablehlo
