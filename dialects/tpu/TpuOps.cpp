//===- TpuOps.cpp - tpu dialect: registration and verifiers -------------===//
//
// What ODS cannot say about the tpu ops: shape and attribute rules. They
// follow Mosaic's (jaxlib 0.10.2) so that what floors accepts, jaxlib
// accepts; a few floors adds (noted) where Mosaic leaves the check to its
// lowering. Debian's MLIR has no assertions, so every malformed op must be
// rejected here before code reads it.
//
//===----------------------------------------------------------------------===//

#include "tpu/TpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <string>

using namespace mlir;
using namespace floors::tpu;

#include "tpu/TpuDialect.cpp.inc"
#include "tpu/TpuEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tpu/TpuAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tpu/TpuTypes.cpp.inc"

#define GET_OP_CLASSES
#include "tpu/TpuOps.cpp.inc"

void TpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tpu/TpuOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tpu/TpuAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tpu/TpuTypes.cpp.inc"
      >();
}

const llvm::fltSemantics &Float8EXMYType::getFloatSemantics() const {
  return getUnderlyingType().getFloatSemantics();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace floors {
namespace tpu {

CoreType coreTypeOfParent(Operation *op) {
  for (Operation *p = op ? op->getParentOp() : nullptr; p;
       p = p->getParentOp()) {
    if (auto attr = p->getAttrOfType<CoreTypeAttr>(
            TpuDialect::coreTypeAttrName()))
      return attr.getValue();
  }
  return CoreType::kTc;
}

std::optional<CoreType> coreTypeOfRef(Value ref) {
  if (!ref)
    return std::nullopt;
  auto ty = llvm::dyn_cast<MemRefType>(ref.getType());
  if (!ty)
    return std::nullopt;
  if (auto ms = llvm::dyn_cast_if_present<MemorySpaceAttr>(ty.getMemorySpace()))
    return ms.getCoreType();
  return std::nullopt;
}

} // namespace tpu
} // namespace floors

namespace {

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(shape[i]) ? std::string("?")
                                         : std::to_string(shape[i]);
  }
  return s + "]";
}

bool inMemorySpace(MemRefType ty, MemorySpace space) {
  auto ms = llvm::dyn_cast_if_present<MemorySpaceAttr>(ty.getMemorySpace());
  return ms && ms.getValue() == space;
}

unsigned bitwidthOf(Type t) {
  Type e = getElementTypeOrSelf(t);
  if (e.isIntOrFloat())
    return e.getIntOrFloatBitWidth();
  return 0;
}

/// A vector of `shape` fits in a memref of `memShape` when ranks agree and no
/// static vector dim exceeds the static memref dim (floors' rule; Mosaic
/// leaves bounds to its lowering).
LogicalResult checkFits(Operation *op, MemRefType ref, VectorType vec,
                        StringRef what) {
  if (ref.getRank() != vec.getRank())
    return op->emitOpError() << what << " of rank " << vec.getRank()
                             << " does not match the memref rank "
                             << ref.getRank();
  for (int64_t i = 0; i < ref.getRank(); ++i) {
    int64_t m = ref.getDimSize(i), v = vec.getDimSize(i);
    if (!ShapedType::isDynamic(m) && v > m)
      return op->emitOpError()
             << what << " shape " << shapeString(vec.getShape())
             << " does not fit in memref shape " << shapeString(ref.getShape())
             << " (dim " << i << ")";
  }
  return success();
}

template <typename OpTy>
LogicalResult verifyStoreLike(OpTy op, MemRefType ref, VectorType value,
                              Value mask) {
  if (ref.getMemorySpace() && !inMemorySpace(ref, MemorySpace::kVmem))
    return op.emitOpError("expects the base memref in VMEM");
  if (value.getElementType() != ref.getElementType())
    return op.emitOpError("value element type ")
           << value.getElementType() << " must match the memref element type "
           << ref.getElementType();
  if (mask) {
    if (bitwidthOf(value) != 32)
      return op.emitOpError("masked access needs a 32-bit element type");
    auto maskTy = llvm::cast<VectorType>(mask.getType());
    if (maskTy.getShape() != value.getShape())
      return op.emitOpError("mask shape ")
             << shapeString(maskTy.getShape()) << " must equal the value shape "
             << shapeString(value.getShape());
  }
  return success();
}

LogicalResult checkRank0Semaphore(Operation *op, Value sem, StringRef what) {
  auto ty = llvm::cast<MemRefType>(sem.getType());
  if (ty.getRank() != 0)
    return op->emitOpError() << what << " must be a rank-0 memref, got "
                             << ty;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Reductions, scans, sort
//===----------------------------------------------------------------------===//

LogicalResult AllReduceOp::verify() {
  VectorType in = getInput().getType(), out = getOutput().getType();
  int64_t dim = getDim();
  if (dim < 0 || dim >= in.getRank())
    return emitOpError("dim ") << dim << " out of range for rank "
                               << in.getRank();
  ReductionKind kind = getKind();
  if (in.getElementType().isInteger(1)) {
    // A mask reduces to one (scalar) value, broadcast into i32s.
    if (!out.getElementType().isSignlessInteger(32))
      return emitOpError("a mask all_reduce produces i32");
    if (kind != ReductionKind::kSum && kind != ReductionKind::kFindFirstSet)
      return emitOpError("a mask all_reduce is a sum or find_first_set");
    return success();
  }
  switch (kind) {
  case ReductionKind::kSum:
  case ReductionKind::kMax:
  case ReductionKind::kMin:
    if (in != out)
      return emitOpError("sum/max/min keep the input type ") << in;
    break;
  case ReductionKind::kArgMax:
  case ReductionKind::kArgMin:
    if (in.getShape() != out.getShape())
      return emitOpError("result shape must equal the input shape");
    if (!in.getElementType().isF32())
      return emitOpError("arg_max/arg_min take f32");
    if (!out.getElementType().isSignlessInteger(32))
      return emitOpError("arg_max/arg_min produce i32 indices");
    break;
  case ReductionKind::kFindFirstSet:
    return emitOpError("find_first_set takes an i1 mask");
  }
  return success();
}

LogicalResult ReduceIndexOp::verify() {
  VectorType in = getInput().getType(), out = getOutput().getType();
  int32_t axis = getAxis();
  if (axis < 0 || axis >= in.getRank())
    return emitOpError("axis ") << axis << " out of range for rank "
                                << in.getRank();
  if (getKind() != ReductionKind::kArgMax &&
      getKind() != ReductionKind::kArgMin)
    return emitOpError("kind must be arg_max or arg_min");
  SmallVector<int64_t> expected;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (i != axis)
      expected.push_back(in.getDimSize(i));
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result shape ")
           << shapeString(out.getShape()) << " must be the input shape without axis "
           << axis << ": " << shapeString(expected);
  return success();
}

LogicalResult ScanOp::verify() {
  if (coreTypeOfParent(*this) != CoreType::kScVectorSubcore)
    return emitOpError("runs only on the SparseCore vector subcore");
  VectorType in = getInput().getType(), out = getOutput().getType();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape must equal the input shape");
  auto kind = getKind();
  if (kind != ReductionKind::kSum && kind != ReductionKind::kMax &&
      kind != ReductionKind::kMin)
    return emitOpError("kind must be sum, max or min");
  if (in.getElementType().isInteger(1)) {
    if (kind != ReductionKind::kSum)
      return emitOpError("an i1 scan must be a sum");
    if (getMask())
      return emitOpError("an i1 scan takes no mask");
  } else if (in.getElementType() != out.getElementType()) {
    return emitOpError("result element type must equal the input's");
  }
  if (getMask() && getMask().getType().getShape() != in.getShape())
    return emitOpError("mask shape must equal the input shape");
  return success();
}

LogicalResult SortOp::verify() {
  VectorType keys = getKeys().getType(), values = getValues().getType();
  if (keys.getShape() != values.getShape())
    return emitOpError("keys and values must have the same shape");
  if (getMask() && getMask().getType().getShape() != keys.getShape())
    return emitOpError("mask shape must equal the keys' shape");
  if (getSortedKeys().getType() != keys ||
      getSortedValues().getType() != values)
    return emitOpError("sorted keys/values must have the input types");
  if (getOutputMask().getType().getShape() != keys.getShape())
    return emitOpError("output mask shape must equal the keys' shape");
  return success();
}

//===----------------------------------------------------------------------===//
// Loads and stores
//===----------------------------------------------------------------------===//

// floors: tpu.store/tpu.load index every memref dimension.
LogicalResult StoreOp::verify() {
  MemRefType ref = getBase().getType();
  if (static_cast<int64_t>(getIndices().size()) != ref.getRank())
    return emitOpError("expects ") << ref.getRank() << " indices, got "
                                   << getIndices().size();
  return success();
}

LogicalResult LoadOp::verify() {
  MemRefType ref = getBase().getType();
  if (static_cast<int64_t>(getIndices().size()) != ref.getRank())
    return emitOpError("expects ") << ref.getRank() << " indices, got "
                                   << getIndices().size();
  return success();
}

LogicalResult VectorStoreOp::verify() {
  MemRefType ref = getBase().getType();
  VectorType value = getValueToStore().getType();
  if (!getStrides().empty())
    return emitOpError("strided vector_store is not supported (use tpu.strided_store)");
  if (static_cast<int64_t>(getIndices().size()) != ref.getRank())
    return emitOpError("expects ") << ref.getRank() << " indices, got "
                                   << getIndices().size();
  if (failed(verifyStoreLike(*this, ref, value, getMask())))
    return failure();
  return checkFits(*this, ref, value, "stored vector");
}

LogicalResult VectorLoadOp::verify() {
  MemRefType ref = getBase().getType();
  VectorType result = getResult().getType();
  if (static_cast<int64_t>(getIndices().size()) != ref.getRank())
    return emitOpError("expects ") << ref.getRank() << " indices, got "
                                   << getIndices().size();
  if (!getStrides().empty())
    return emitOpError("strided vector_load is not supported (use tpu.strided_load)");
  if (ref.getMemorySpace() && !inMemorySpace(ref, MemorySpace::kVmem))
    return emitOpError("expects the base memref in VMEM");
  if (result.getElementType() != ref.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " must match the memref element type "
           << ref.getElementType();
  if (auto mask = getMask()) {
    if (bitwidthOf(result) != 32)
      return emitOpError("masked access needs a 32-bit element type");
    // The mask broadcasts to the result: trailing-aligned, each dim 1 or equal.
    ArrayRef<int64_t> m = mask.getType().getShape(), r = result.getShape();
    bool ok = m.size() <= r.size();
    for (size_t i = 0; ok && i < m.size(); ++i) {
      int64_t md = m[m.size() - 1 - i], rd = r[r.size() - 1 - i];
      ok = md == 1 || md == rd;
    }
    if (!ok)
      return emitOpError("mask shape ")
             << shapeString(m) << " does not broadcast to the result shape "
             << shapeString(r);
  }
  return checkFits(*this, ref, result, "loaded vector");
}

template <typename OpTy>
static LogicalResult verifyStrided(OpTy op, MemRefType ref, VectorType vec,
                                   int64_t minStride) {
  ArrayRef<int32_t> strides = op.getStrides();
  if (static_cast<int64_t>(op.getIndices().size()) != ref.getRank())
    return op.emitOpError("expects ") << ref.getRank() << " indices, got "
                                      << op.getIndices().size();
  if (static_cast<int64_t>(strides.size()) != ref.getRank())
    return op.emitOpError("expects ") << ref.getRank() << " strides, got "
                                      << strides.size();
  if (vec.getRank() != ref.getRank())
    return op.emitOpError("vector rank ") << vec.getRank()
                                          << " must equal the memref rank "
                                          << ref.getRank();
  for (size_t i = 0; i < strides.size(); ++i)
    if (strides[i] < minStride)
      return op.emitOpError("stride ") << i << " is " << strides[i]
                                       << ", must be at least " << minStride;
  return success();
}

LogicalResult StridedLoadOp::verify() {
  return verifyStrided(*this, getBase().getType(), getResult().getType(), 0);
}

LogicalResult StridedStoreOp::verify() {
  return verifyStrided(*this, getBase().getType(),
                       getValueToStore().getType(), 1);
}

template <typename OpTy>
static LogicalResult verifyShuffled(OpTy op, MemRefType ref, VectorType vec) {
  if (static_cast<int64_t>(op.getIndices().size()) != ref.getRank())
    return op.emitOpError("expects ") << ref.getRank() << " indices, got "
                                      << op.getIndices().size();
  if (vec.getRank() < 2)
    return op.emitOpError("expects a vector of rank at least 2");
  int64_t sublanes = vec.getDimSize(vec.getRank() - 2);
  if (static_cast<int64_t>(op.getSublaneMask().size()) != sublanes)
    return op.emitOpError("sublane_mask needs one entry per sublane (")
           << sublanes << ")";
  if (static_cast<int64_t>(op.getSublaneOffsets().size()) != sublanes)
    return op.emitOpError("sublane_offsets needs one entry per sublane (")
           << sublanes << ")";
  return success();
}

LogicalResult ShuffledLoadOp::verify() {
  return verifyShuffled(*this, getBase().getType(), getResult().getType());
}

LogicalResult ShuffledStoreOp::verify() {
  return verifyShuffled(*this, getBase().getType(),
                        getValueToStore().getType());
}

template <typename OpTy>
static LogicalResult verifyIndexed(OpTy op, MemRefType ref, VectorType value,
                                   Value mask) {
  if (value.getElementType() != ref.getElementType())
    return op.emitOpError("value element type must match the memref's");
  if (static_cast<int64_t>(op.getIndices().size()) != ref.getRank())
    return op.emitOpError("expects ") << ref.getRank()
                                      << " index vectors, got "
                                      << op.getIndices().size();
  for (Value idx : op.getIndices())
    if (llvm::cast<VectorType>(idx.getType()).getShape() != value.getShape())
      return op.emitOpError("index vectors must have the value's shape");
  if (mask && llvm::cast<VectorType>(mask.getType()).getShape() !=
                  value.getShape())
    return op.emitOpError("mask must have the value's shape");
  return success();
}

LogicalResult VectorLoadIdxOp::verify() {
  return verifyIndexed(*this, getBase().getType(), getValue().getType(),
                       getMask());
}

LogicalResult VectorStoreIdxOp::verify() {
  if (getValueToStore().getType().getRank() != 1)
    return emitOpError("stores a rank-1 vector");
  return verifyIndexed(*this, getBase().getType(),
                       getValueToStore().getType(), getMask());
}

//===----------------------------------------------------------------------===//
// Vector ops
//===----------------------------------------------------------------------===//

LogicalResult DynamicRotateOp::verify() {
  int64_t rank = getValue().getType().getRank();
  int32_t dim = getDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError("dimension ") << dim << " out of range for rank "
                                     << rank;
  if (getStride().has_value() != getStrideDimension().has_value())
    return emitOpError("stride and stride_dimension go together");
  if (auto sd = getStrideDimension()) {
    if (*sd < 0 || *sd >= rank)
      return emitOpError("stride_dimension ") << *sd << " out of range";
    if (*sd == dim)
      return emitOpError("stride_dimension must differ from dimension");
    if (*getStride() < 0)
      return emitOpError("stride must be non-negative");
  }
  return success();
}

LogicalResult IotaOp::verify() {
  int64_t rank = getOutput().getType().getRank();
  SmallVector<bool> seen(rank, false);
  for (int32_t d : getDimensions()) {
    if (d < 0 || d >= rank)
      return emitOpError("dimension ") << d << " out of range for rank "
                                       << rank;
    if (seen[d])
      return emitOpError("dimension ") << d << " repeats";
    seen[d] = true;
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  VectorType src = getSource().getType(), dst = getResult().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("element types must match");
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("element counts differ: ")
           << src.getNumElements() << " vs " << dst.getNumElements();
  return success();
}

// floors: the result is the source repeated `times` along `dimension`.
LogicalResult RepeatOp::verify() {
  VectorType src = getSource().getType(), dst = getOutput().getType();
  int32_t dim = getDimension();
  if (dim < 0 || dim >= src.getRank())
    return emitOpError("dimension ") << dim << " out of range";
  if (getTimes() < 1)
    return emitOpError("times must be positive");
  if (src.getElementType() != dst.getElementType() ||
      src.getRank() != dst.getRank())
    return emitOpError("result must have the source's element type and rank");
  for (int64_t i = 0; i < src.getRank(); ++i) {
    int64_t want = src.getDimSize(i) * (i == dim ? getTimes() : 1);
    if (dst.getDimSize(i) != want)
      return emitOpError("result dim ") << i << " is " << dst.getDimSize(i)
                                        << ", expected " << want;
  }
  return success();
}

LogicalResult PackSubelementsOp::verify() {
  if (getSources().empty())
    return emitOpError("needs at least one source");
  if (getPositions().size() != getSources().size())
    return emitOpError("needs one position per source");
  unsigned srcBits = bitwidthOf(getSources().front().getType());
  unsigned dstBits = bitwidthOf(getOutput().getType());
  if (srcBits == 0 || dstBits == 0 || srcBits < dstBits ||
      srcBits % dstBits != 0)
    return emitOpError("packs wide elements into narrower ones");
  int64_t factor = srcBits / dstBits;
  SmallVector<bool> seen(factor, false);
  for (int32_t p : getPositions()) {
    if (p < 0 || p >= factor)
      return emitOpError("position ") << p << " out of range [0, " << factor
                                      << ")";
    if (seen[p])
      return emitOpError("position ") << p << " repeats";
    seen[p] = true;
  }
  return success();
}

LogicalResult DynamicGatherOp::verify() {
  int64_t rank = getSource().getType().getRank();
  if (getDimensions().empty())
    return emitOpError("needs at least one dimension");
  for (int32_t d : getDimensions())
    if (d < 0 || d >= rank)
      return emitOpError("dimension ") << d << " out of range for rank "
                                       << rank;
  if (getIndices().getType().getShape() != getSource().getType().getShape())
    return emitOpError("indices must have the source's shape");
  return success();
}

LogicalResult MatmulOp::verify() {
  VectorType lhs = getLhs().getType(), rhs = getRhs().getType();
  VectorType acc = getAcc().getType(), res = getResult().getType();
  if (acc != res)
    return emitOpError("acc type ") << acc << " must equal the result type "
                                    << res;
  if (bitwidthOf(acc) != 32)
    return emitOpError("acc must have a 32-bit element type");
  if (getTransposeLhs())
    return emitOpError("transpose_lhs is not supported: use dimension_numbers");
  auto dn = getDimensionNumbersAttr();
  if (!dn)
    return success();
  ArrayRef<int64_t> lc = dn.getLhsContractingDims(),
                    rc = dn.getRhsContractingDims(),
                    lnc = dn.getLhsNonContractingDims(),
                    rnc = dn.getRhsNonContractingDims(),
                    lb = dn.getLhsBatchDims(), rb = dn.getRhsBatchDims(),
                    order = dn.getOutputDimOrder();
  if (lc.size() != 1 || rc.size() != 1)
    return emitOpError("expects exactly one contracting dim per operand");
  if (!llvm::is_sorted(lnc) || !llvm::is_sorted(rnc))
    return emitOpError("non-contracting dims must be sorted");
  if (static_cast<int64_t>(lc.size() + lnc.size() + lb.size()) !=
      lhs.getRank())
    return emitOpError("lhs dimension numbers name ")
           << lc.size() + lnc.size() + lb.size()
           << " dims, but lhs has rank " << lhs.getRank();
  if (static_cast<int64_t>(rc.size() + rnc.size() + rb.size()) !=
      rhs.getRank())
    return emitOpError("rhs dimension numbers name ")
           << rc.size() + rnc.size() + rb.size()
           << " dims, but rhs has rank " << rhs.getRank();
  auto mark = [&](ArrayRef<int64_t> dims, SmallVectorImpl<bool> &seen,
                  StringRef operand) -> LogicalResult {
    for (int64_t d : dims) {
      if (d < 0 || d >= static_cast<int64_t>(seen.size()))
        return emitOpError("dim ") << d << " out of range for " << operand;
      if (seen[d])
        return emitOpError("dim ") << d << " of " << operand
                                   << " appears twice in the dimension numbers";
      seen[d] = true;
    }
    return success();
  };
  SmallVector<bool> seenL(lhs.getRank(), false), seenR(rhs.getRank(), false);
  if (failed(mark(lc, seenL, "lhs")) || failed(mark(lnc, seenL, "lhs")) ||
      failed(mark(lb, seenL, "lhs")) || failed(mark(rc, seenR, "rhs")) ||
      failed(mark(rnc, seenR, "rhs")) || failed(mark(rb, seenR, "rhs")))
    return failure();
  if (lhs.getDimSize(lc[0]) != rhs.getDimSize(rc[0]))
    return emitOpError("contracting dims differ in size: lhs dim ")
           << lc[0] << " is " << lhs.getDimSize(lc[0]) << ", rhs dim " << rc[0]
           << " is " << rhs.getDimSize(rc[0]);
  if (lb.size() != rb.size())
    return emitOpError("lhs and rhs need the same number of batch dims");
  if (lb.size() > 1)
    return emitOpError("at most one batch dim is supported");
  if (!lb.empty()) {
    if (lhs.getDimSize(lb[0]) != rhs.getDimSize(rb[0]))
      return emitOpError("batch dims differ in size");
    if (lhs.getDimSize(lb[0]) == 0)
      return emitOpError("batch size must be positive");
  }
  SmallVector<int64_t> expected;
  for (int64_t d : lb)
    expected.append({0, d});
  for (int64_t d : lnc)
    expected.append({0, d});
  for (int64_t d : rnc)
    expected.append({1, d});
  if (order != ArrayRef<int64_t>(expected))
    return emitOpError("output_dim_order must be (0, lhs batch dims), "
                       "(0, lhs non-contracting dims), (1, rhs "
                       "non-contracting dims)");
  // floors: the result shape follows from the dimension numbers.
  SmallVector<int64_t> resShape;
  for (size_t i = 0; i + 1 < order.size(); i += 2)
    resShape.push_back(order[i] == 0 ? lhs.getDimSize(order[i + 1])
                                     : rhs.getDimSize(order[i + 1]));
  if (res.getShape() != ArrayRef<int64_t>(resShape))
    return emitOpError("result shape ")
           << shapeString(res.getShape())
           << " does not match the dimension numbers, expected "
           << shapeString(resShape);
  return success();
}

LogicalResult ConcatenateOp::verify() {
  if (getSources().size() < 2)
    return emitOpError("needs at least two sources");
  auto first = llvm::cast<VectorType>(getSources().front().getType());
  int64_t rank = first.getRank();
  int32_t dim = getDimension();
  if (dim < 0 || dim >= rank)
    return emitOpError("dimension ") << dim << " out of range for rank "
                                     << rank;
  int64_t total = 0;
  for (Value v : getSources()) {
    auto t = llvm::cast<VectorType>(v.getType());
    if (t.getRank() != rank || t.getElementType() != first.getElementType())
      return emitOpError("sources must share rank and element type");
    for (int64_t i = 0; i < rank; ++i)
      if (i != dim && t.getDimSize(i) != first.getDimSize(i))
        return emitOpError("sources differ in dim ") << i
                                                     << " (not the concatenated one)";
    total += t.getDimSize(dim);
  }
  VectorType out = getOutput().getType();
  SmallVector<int64_t> want(first.getShape());
  want[dim] = total;
  if (out.getElementType() != first.getElementType() ||
      out.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result type ") << out << " should have shape "
                                       << shapeString(want);
  return success();
}

LogicalResult BitcastOp::verify() {
  VectorType in = getInput().getType(), out = getOutput().getType();
  unsigned inBits = bitwidthOf(in), outBits = bitwidthOf(out);
  if (inBits == outBits) {
    if (in.getShape() != out.getShape())
      return emitOpError("same-width bitcast keeps the shape");
    return success();
  }
  if (in.getRank() < 2 || out.getRank() < 2)
    return emitOpError("a bitcast that changes the bitwidth needs rank >= 2");
  SmallVector<int64_t> a(in.getShape()), b(out.getShape());
  a[a.size() - 2] *= inBits;
  b[b.size() - 2] *= outBits;
  if (a != b)
    return emitOpError("result shape ")
           << shapeString(out.getShape())
           << " does not match: the second-minor dim scales by " << inBits
           << "/" << outBits;
  return success();
}

LogicalResult WeirdOp::verify() {
  Type in = getInput().getType(), out = getOutput().getType();
  if (!llvm::isa<FloatType>(getElementTypeOrSelf(in)))
    return emitOpError("input must be float or a vector of floats");
  if (!getElementTypeOrSelf(out).isInteger(1))
    return emitOpError("result must be i1 or a vector of i1");
  return success();
}

LogicalResult AssumeMultipleOp::verify() {
  if (getMultiple() < 1)
    return emitOpError("multiple must be positive, got ") << getMultiple();
  return success();
}

LogicalResult SublaneShuffleOp::verify() {
  VectorType ty = getLhs().getType();
  if (ty.getRank() < 2)
    return emitOpError("needs vectors of rank at least 2");
  int64_t sublanes = ty.getDimSize(ty.getRank() - 2);
  ArrayRef<int32_t> pattern = getPattern();
  if (static_cast<int64_t>(pattern.size()) != sublanes)
    return emitOpError("pattern needs ") << sublanes << " entries";
  for (int32_t p : pattern)
    if (p < 0 || p >= 2 * sublanes)
      return emitOpError("pattern entry ") << p << " out of range [0, "
                                           << 2 * sublanes << ")";
  return success();
}

LogicalResult TransposeOp::verify() {
  auto in = llvm::cast<VectorType>(getVector().getType());
  auto out = llvm::cast<VectorType>(getResult().getType());
  ArrayRef<int64_t> perm = getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return emitOpError("permutation needs ") << in.getRank() << " entries";
  SmallVector<bool> seen(in.getRank(), false);
  SmallVector<int64_t> want;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || seen[p])
      return emitOpError("permutation is not a permutation of [0, ")
             << in.getRank() << ")";
    seen[p] = true;
    want.push_back(in.getDimSize(p));
  }
  if (out.getElementType() != in.getElementType() ||
      out.getShape() != ArrayRef<int64_t>(want))
    return emitOpError("result shape should be ") << shapeString(want);
  return success();
}

//===----------------------------------------------------------------------===//
// Memref views
//===----------------------------------------------------------------------===//

LogicalResult MemRefSliceOp::verify() {
  MemRefType src = getMemRef().getType(), dst = getResult().getType();
  if (!src.hasStaticShape())
    return emitOpError("slices only memrefs of static shape");
  if (static_cast<int64_t>(getDynamicSizes().size()) !=
      dst.getNumDynamicDims())
    return emitOpError("needs one dynamic size per dynamic result dim (")
           << dst.getNumDynamicDims() << "), got " << getDynamicSizes().size();
  if (inMemorySpace(src, MemorySpace::kSemaphoreMem) &&
      !llvm::isa<SemaphoreType, DMASemaphoreType>(src.getElementType()))
    return emitOpError("a semaphore_mem memref must hold semaphores");
  if (static_cast<int64_t>(getBaseIdx().size()) != src.getRank() ||
      dst.getRank() != src.getRank())
    return emitOpError("needs one offset per dimension: memref rank ")
           << src.getRank() << ", " << getBaseIdx().size()
           << " offsets, result rank " << dst.getRank();
  if (dst.getMemorySpace() && dst.getMemorySpace() != src.getMemorySpace())
    return emitOpError("result memory space must be the source's");
  if (dst.getElementType() != src.getElementType())
    return emitOpError("result element type must be the source's");
  // floors: a static window fits in the source.
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (!dst.isDynamicDim(i) && dst.getDimSize(i) > src.getDimSize(i))
      return emitOpError("result dim ") << i << " (" << dst.getDimSize(i)
                                        << ") exceeds the source's ("
                                        << src.getDimSize(i) << ")";
  return success();
}

LogicalResult MemRefSqueezeOp::verify() {
  MemRefType src = getInput().getType(), dst = getResult().getType();
  if (dst.getMemorySpace() && dst.getMemorySpace() != src.getMemorySpace())
    return emitOpError("memory spaces differ");
  if (dst.getElementType() != src.getElementType())
    return emitOpError("element types differ");
  ArrayRef<int64_t> s = src.getShape(), d = dst.getShape();
  if (d.size() > s.size())
    return emitOpError("result rank exceeds the source rank");
  // Match the result dims left to right; every skipped source dim must be 1.
  size_t j = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (j < d.size() && s[i] == d[j]) {
      ++j;
      continue;
    }
    if (s[i] != 1)
      return emitOpError("can only drop unit dims: ")
             << shapeString(s) << " -> " << shapeString(d) << " drops dim "
             << i << " of size " << s[i];
  }
  if (j != d.size())
    return emitOpError("result shape ") << shapeString(d)
                                        << " is not the source shape "
                                        << shapeString(s)
                                        << " without unit dims";
  return success();
}

LogicalResult MemRefReshapeOp::verify() {
  MemRefType src = getInput().getType(), dst = getResult().getType();
  if (dst.getMemorySpace() && dst.getMemorySpace() != src.getMemorySpace())
    return emitOpError("memory spaces differ");
  if (dst.getElementType() != src.getElementType())
    return emitOpError("element types differ");
  if (src.hasStaticShape() && dst.hasStaticShape() &&
      src.getNumElements() != dst.getNumElements())
    return emitOpError("element counts differ");
  return success();
}

LogicalResult MemRefBitcastOp::verify() {
  MemRefType src = getInput().getType(), dst = getResult().getType();
  if (dst.getMemorySpace() && dst.getMemorySpace() != src.getMemorySpace())
    return emitOpError("memory spaces differ");
  unsigned sb = bitwidthOf(src.getElementType()),
           db = bitwidthOf(dst.getElementType());
  if (sb == 0 || db == 0)
    return emitOpError("needs integer or float element types");
  if (src.getRank() != dst.getRank())
    return emitOpError("ranks differ");
  int64_t r = src.getRank();
  for (int64_t i = 0; i < r; ++i) {
    int64_t want = src.getDimSize(i);
    if (i == r - 2 && !ShapedType::isDynamic(want))
      want = want * sb / db;
    if (dst.getDimSize(i) != want)
      return emitOpError("result shape ")
             << shapeString(dst.getShape())
             << " does not match: the second-minor dim scales by " << sb
             << "/" << db;
  }
  if (r < 2 && sb != db)
    return emitOpError("rank < 2 memrefs keep their bitwidth");
  return success();
}

LogicalResult ReinterpretCastOp::verify() {
  MemRefType src = getInput().getType(), dst = getResult().getType();
  if (dst.getMemorySpace() != src.getMemorySpace())
    return emitOpError("memory spaces differ");
  if (static_cast<int64_t>(getDynamicSizes().size()) !=
      dst.getNumDynamicDims())
    return emitOpError("needs one dynamic size per dynamic result dim");
  return success();
}

LogicalResult EraseLayoutOp::verify() {
  MemRefType src = getOperand().getType(), dst = getResult().getType();
  if (src.getShape() != dst.getShape() ||
      src.getElementType() != dst.getElementType())
    return emitOpError("keeps shape and element type");
  if (!dst.getLayout().isIdentity())
    return emitOpError("result must have the identity layout");
  return success();
}

//===----------------------------------------------------------------------===//
// Semaphores and DMAs
//===----------------------------------------------------------------------===//

// floors: like the other semaphore ops, reads a single semaphore.
LogicalResult SemaphoreReadOp::verify() {
  return checkRank0Semaphore(*this, getSemaphore(), "semaphore");
}

LogicalResult SemaphoreWaitOp::verify() {
  return checkRank0Semaphore(*this, getSemaphore(), "semaphore");
}

LogicalResult GetBarrierSemaphoreOp::verify() {
  return checkRank0Semaphore(*this, getSemaphore(), "barrier semaphore");
}

LogicalResult SemaphoreSignalOp::verify() {
  if (failed(checkRank0Semaphore(*this, getSemaphore(), "semaphore")))
    return failure();
  CoreType issuing = coreTypeOfParent(*this);
  CoreType target = coreTypeOfRef(getSemaphore()).value_or(issuing);
  if (!getDeviceId() && !getCoreId() && target != issuing)
    return emitOpError("signals a ")
           << stringifyCoreType(target) << " semaphore from a "
           << stringifyCoreType(issuing)
           << " core without device_id or core_id";
  if (getSubcoreId() && target != CoreType::kScVectorSubcore)
    return emitOpError("subcore_id needs a sc_vector_subcore target");
  return success();
}

LogicalResult EnqueueDMAOp::verify() {
  Value targetSem = getTargetSemaphore();
  if (!targetSem)
    return emitOpError("needs a target_semaphore");
  if (failed(checkRank0Semaphore(*this, targetSem, "target_semaphore")))
    return failure();
  Type semElem = llvm::cast<MemRefType>(targetSem.getType()).getElementType();
  if (Value srcSem = getSourceSemaphore()) {
    if (failed(checkRank0Semaphore(*this, srcSem, "source_semaphore")))
      return failure();
    if (llvm::cast<MemRefType>(srcSem.getType()).getElementType() != semElem)
      return emitOpError("source and target semaphores differ in type");
  }
  MemRefType src = getSource().getType(), dst = getTarget().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source element type ")
           << src.getElementType() << " differs from target element type "
           << dst.getElementType();
  if (src.getShape() != dst.getShape())
    return emitOpError("source shape ") << shapeString(src.getShape())
                                        << " differs from target shape "
                                        << shapeString(dst.getShape());
  bool remote = getDeviceId() || getCoreId();
  if (remote && !getSourceSemaphore())
    return emitOpError("a remote DMA (device_id/core_id) needs a source_semaphore");
  if (getSourceSemaphore() && !remote)
    return emitOpError("a source_semaphore needs device_id or core_id");
  uint32_t priority = getPriority();
  if (priority > 1)
    return emitOpError("priority must be 0 or 1, got ") << priority;
  if (priority != 0 && remote)
    return emitOpError("a remote DMA must have priority 0");
  CoreType issuing = coreTypeOfParent(*this);
  CoreType target = coreTypeOfRef(targetSem).value_or(issuing);
  if (getSourceSemaphore() &&
      coreTypeOfRef(getSourceSemaphore()).value_or(issuing) != issuing)
    return emitOpError("source semaphore must belong to the issuing core");
  if (target != issuing && !getCoreId())
    return emitOpError("needs core_id when the target core type differs");
  if (getStrictOrdering() && issuing != CoreType::kScScalarSubcore &&
      issuing != CoreType::kScVectorSubcore)
    return emitOpError("strict_ordering is only for SparseCore subcores");
  if (llvm::isa<SemaphoreType>(semElem) &&
      (inMemorySpace(src, MemorySpace::kSmem) ||
       inMemorySpace(dst, MemorySpace::kSmem)))
    return emitOpError("SMEM DMAs need DMA semaphores");
  if (getSubcoreId() && target != CoreType::kScVectorSubcore)
    return emitOpError("subcore_id needs a sc_vector_subcore target");
  return success();
}

LogicalResult EnqueueIndirectDMAOp::verify() {
  if (coreTypeOfParent(*this) != CoreType::kScVectorSubcore)
    return emitOpError("runs only on the SparseCore vector subcore");
  MemRefType src = getSource().getType(), dst = getTarget().getType();
  if (src.getElementType() != dst.getElementType())
    return emitOpError("source and target element types differ");
  return checkRank0Semaphore(*this, getSemaphore(), "semaphore");
}

LogicalResult WaitDMA2Op::verify() {
  if (failed(checkRank0Semaphore(*this, getSemaphore(), "semaphore")))
    return failure();
  CoreType issuing = coreTypeOfParent(*this);
  if (coreTypeOfRef(getSemaphore()).value_or(issuing) != issuing)
    return emitOpError("can only wait on a semaphore of the local core");
  // floors: the waited copy is a copy: same element type and shape.
  MemRefType src = getSrc().getType(), dst = getDst().getType();
  if (src.getElementType() != dst.getElementType() ||
      src.getShape() != dst.getShape())
    return emitOpError("src ") << src << " and dst " << dst
                               << " must have the same shape and element type";
  return success();
}

LogicalResult WaitDMAOp::verify() {
  Value sem = getWaitTarget() ? getTargetSemaphore() : getSourceSemaphore();
  if (!sem)
    return emitOpError("needs the semaphore it waits on");
  if (failed(checkRank0Semaphore(*this, sem, "semaphore")))
    return failure();
  CoreType issuing = coreTypeOfParent(*this);
  if (coreTypeOfRef(sem).value_or(issuing) != issuing)
    return emitOpError("can only wait on a semaphore of the local core");
  if (getSubcoreId() && issuing != CoreType::kScVectorSubcore)
    return emitOpError("subcore_id needs a sc_vector_subcore issuer");
  return success();
}

LogicalResult WaitIndirectDMAOp::verify() {
  if (coreTypeOfParent(*this) != CoreType::kScVectorSubcore)
    return emitOpError("runs only on the SparseCore vector subcore");
  return checkRank0Semaphore(*this, getSemaphore(), "semaphore");
}

LogicalResult RegionOp::verify() {
  for (Type t : getResultTypes())
    if (!llvm::isa<FloatType, IntegerType, VectorType, IndexType>(t))
      return emitOpError("results must be float, integer, index or vector, got ")
             << t;
  return success();
}

static LogicalResult verifyIdOp(Operation *op) {
  bool found = false;
  for (Operation *p = op->getParentOp(); p && !found; p = p->getParentOp())
    found = static_cast<bool>(
        p->getAttrOfType<CoreTypeAttr>(TpuDialect::coreTypeAttrName()));
  if (!found)
    return op->emitOpError("needs a parent with tpu.core_type");
  if (coreTypeOfParent(op) == CoreType::kTc)
    return op->emitOpError("is not available on the TensorCore");
  return success();
}

LogicalResult CoreIdOp::verify() { return verifyIdOp(*this); }

LogicalResult SubcoreIdOp::verify() { return verifyIdOp(*this); }

LogicalResult FetchAndAddSyncOp::verify() {
  CoreType issuing = coreTypeOfParent(*this);
  if (coreTypeOfRef(getBase()).value_or(issuing) != CoreType::kScVectorSubcore)
    return emitOpError("targets only the SparseCore vector subcore");
  MemRefType base = getBase().getType();
  if (static_cast<int64_t>(getIndices().size()) != base.getRank())
    return emitOpError("expects ") << base.getRank() << " indices";
  return success();
}
