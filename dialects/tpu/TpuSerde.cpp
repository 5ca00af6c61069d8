//===- TpuSerde.cpp - Mosaic's wire form (stable_mosaic, version 11) -----===//
//
// The body of a `tpu_custom_call` is MLIR bytecode of the kernel module in
// "wire form": every op below the module renamed `stable_mosaic.<name>` (so a
// reader needs none of the dialects registered), printed generically with all
// of its attributes, and the module attribute `stable_mosaic.version`.
// jaxlib 0.10.2 writes version 11 and reads versions up to 15; ops whose
// attributes or operand segments changed between versions are rewritten on
// the way out (downgrade to the target version) and on the way in (upgrade
// from the module's version). Same rules as jaxlib's `mosaic-serde`; the
// code is floors' own.
//
// `floors-tpu-serde{serialize=true|false target-version=N}` runs it as a
// pass; `floors::tpu::runSerde` and `floorsTpuSerde` (C API) directly.
//
//===----------------------------------------------------------------------===//

#include "tpu/TpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <string>

using namespace mlir;

namespace floors {
namespace tpu {
namespace {

constexpr llvm::StringLiteral kPrefix = "stable_mosaic.";
constexpr llvm::StringLiteral kVersionAttr = "stable_mosaic.version";
constexpr llvm::StringLiteral kSegments = "operandSegmentSizes";

/// A rule rewrites one op in place for a version; `version` is the version
/// being read (upgrade) or written (downgrade).
using Rule = std::function<LogicalResult(Operation *, int version)>;

FailureOr<SmallVector<int32_t>> segmentsOf(Operation *op, size_t expected) {
  auto attr = op->getAttrOfType<DenseI32ArrayAttr>(kSegments);
  if (!attr) {
    op->emitError("missing operandSegmentSizes");
    return failure();
  }
  if (attr.size() != static_cast<int64_t>(expected)) {
    op->emitError("expected ") << expected << " operand segments, got "
                               << attr.size();
    return failure();
  }
  return SmallVector<int32_t>(attr.asArrayRef());
}

void setSegments(Operation *op, ArrayRef<int32_t> sizes) {
  op->setAttr(kSegments, DenseI32ArrayAttr::get(op->getContext(), sizes));
}

int64_t firstOperandOf(ArrayRef<int32_t> sizes, size_t segment) {
  int64_t idx = 0;
  for (size_t i = 0; i < segment; ++i)
    idx += sizes[i];
  return idx;
}

constexpr int64_t kSubcoresPerCore = 16;

/// Versions < 14 had no subcore_id: on a SparseCore vector subcore the core
/// id carried core * 16 + subcore. Split it (operands already resized).
LogicalResult splitSubcore(Operation *op, size_t coreSeg, size_t subcoreSeg) {
  if (coreTypeOfParent(op) != CoreType::kScVectorSubcore)
    return success();
  auto sizes = segmentsOf(op, subcoreSeg + 1);
  if (failed(sizes))
    return failure();
  if ((*sizes)[coreSeg] == 0)
    return success();
  int64_t coreIdx = firstOperandOf(*sizes, coreSeg);
  int64_t subIdx = firstOperandOf(*sizes, subcoreSeg);
  Value linear = op->getOperand(coreIdx);
  MLIRContext *ctx = op->getContext();
  ctx->getOrLoadDialect("arith");
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i32 = b.getI32Type();
  auto make = [&](StringRef name, ValueRange operands,
                  ArrayRef<NamedAttribute> attrs) {
    OperationState st(loc, name);
    st.addTypes(i32);
    st.addOperands(operands);
    st.addAttributes(attrs);
    return b.create(st)->getResult(0);
  };
  Value c16 = make("arith.constant", {},
                   {b.getNamedAttr("value", b.getI32IntegerAttr(kSubcoresPerCore))});
  Value core = make("arith.divui", {linear, c16}, {});
  Value sub = make("arith.remui", {linear, c16}, {});
  op->setOperand(coreIdx, core);
  op->insertOperands(subIdx, {sub});
  (*sizes)[subcoreSeg] = 1;
  setSegments(op, *sizes);
  return success();
}

/// The inverse for writing versions < 14: core id = core * 16 + subcore, in
/// wire-form ops.
LogicalResult joinSubcore(Operation *op, size_t coreSeg, size_t subcoreSeg) {
  if (coreTypeOfParent(op) != CoreType::kScVectorSubcore)
    return op->emitError("subcore_id is only linearized on sc_vector_subcore");
  auto sizes = segmentsOf(op, subcoreSeg + 1);
  if (failed(sizes))
    return failure();
  if ((*sizes)[coreSeg] == 0 || (*sizes)[subcoreSeg] == 0)
    return op->emitError("linearizing subcore_id needs core_id and subcore_id");
  int64_t coreIdx = firstOperandOf(*sizes, coreSeg);
  int64_t subIdx = firstOperandOf(*sizes, subcoreSeg);
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i32 = b.getI32Type();
  auto make = [&](StringRef name, ValueRange operands,
                  ArrayRef<NamedAttribute> attrs) {
    OperationState st(loc, name);
    st.addTypes(i32);
    st.addOperands(operands);
    st.addAttributes(attrs);
    return b.create(st)->getResult(0);
  };
  Value c16 = make("stable_mosaic.arith.constant", {},
                   {b.getNamedAttr("value", b.getI32IntegerAttr(kSubcoresPerCore))});
  Value scaled =
      make("stable_mosaic.arith.muli", {op->getOperand(coreIdx), c16}, {});
  Value linear =
      make("stable_mosaic.arith.addi", {scaled, op->getOperand(subIdx)}, {});
  op->setOperand(coreIdx, linear);
  op->eraseOperand(subIdx);
  return success();
}

BoolAttr falseAttr(Operation *op) { return BoolAttr::get(op->getContext(), false); }

IntegerAttr i32Attr(Operation *op, int32_t v) {
  return IntegerAttr::get(IntegerType::get(op->getContext(), 32), v);
}

/// Drops a bool attribute that versions before some point lacked; fails if
/// it is set to true (the old form cannot say it).
LogicalResult dropFalseBool(Operation *op, StringRef name, bool required) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  if (!attr) {
    if (required)
      return op->emitError("missing ") << name << " attribute";
    return success();
  }
  if (attr.getValue())
    return op->emitError("cannot write ") << name
                                          << " = true for this wire version";
  op->removeAttr(name);
  return success();
}

/// 1-element `dimensions` array ↔ scalar `dimension` (iota < 6,
/// dynamic_gather < 5).
LogicalResult dimensionToDimensions(Operation *op) {
  auto dim = op->getAttrOfType<IntegerAttr>("dimension");
  if (!dim || dim.getType().getIntOrFloatBitWidth() != 32)
    return op->emitError("missing or invalid dimension attribute");
  int32_t d = static_cast<int32_t>(dim.getInt());
  op->removeAttr("dimension");
  op->setAttr("dimensions", DenseI32ArrayAttr::get(op->getContext(), {d}));
  return success();
}

LogicalResult dimensionsToDimension(Operation *op) {
  auto dims = op->getAttrOfType<DenseI32ArrayAttr>("dimensions");
  if (!dims || dims.size() != 1)
    return op->emitError("only a single dimension can be written for this "
                         "wire version");
  int32_t d = dims[0];
  op->removeAttr("dimensions");
  op->setAttr("dimension", i32Attr(op, d));
  return success();
}

const llvm::StringMap<Rule> &upgradeRules() {
  static const llvm::StringMap<Rule> rules = {
      {"tpu.enqueue_dma",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 2) {
           if (op->getNumOperands() == 3)
             setSegments(op, {1, 0, 1, 1, 0, 0});
           else if (op->getNumOperands() == 5)
             setSegments(op, {1, 1, 1, 1, 1, 0});
           else
             return op->emitError("unexpected operand count in tpu.enqueue_dma: ")
                    << op->getNumOperands();
         }
         if (v < 4)
           op->setAttr("priority", i32Attr(op, 0));
         if (v < 14) {
           auto sizes = segmentsOf(op, 6);
           if (failed(sizes))
             return failure();
           sizes->push_back(0);
           setSegments(op, *sizes);
           return splitSubcore(op, 5, 6);
         }
         return success();
       }},
      {"tpu.wait_dma2",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 7) {
           if (op->getNumOperands() != 3)
             return op->emitError("unexpected operand count in tpu.wait_dma2: ")
                    << op->getNumOperands();
           setSegments(op, {1, 1, 1, 0, 0});
         }
         return success();
       }},
      {"tpu.wait_dma",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 14) {
           auto sizes = segmentsOf(op, 6);
           if (failed(sizes))
             return failure();
           sizes->push_back(0);
           setSegments(op, *sizes);
           return splitSubcore(op, 5, 6);
         }
         return success();
       }},
      {"tpu.dynamic_gather",
       [](Operation *op, int v) -> LogicalResult {
         return v < 5 ? dimensionToDimensions(op) : success();
       }},
      {"tpu.iota",
       [](Operation *op, int v) -> LogicalResult {
         return v < 6 ? dimensionToDimensions(op) : success();
       }},
      {"tpu.sem_signal",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 2) {
           if (op->getNumOperands() == 2)
             setSegments(op, {1, 1, 0, 0});
           else if (op->getNumOperands() == 3)
             setSegments(op, {1, 1, 1, 0});
           else
             return op->emitError("unexpected operand count in tpu.sem_signal");
         }
         if (v < 14) {
           auto sizes = segmentsOf(op, 4);
           if (failed(sizes))
             return failure();
           sizes->push_back(0);
           setSegments(op, *sizes);
           return splitSubcore(op, 3, 4);
         }
         return success();
       }},
      {"vector.multi_reduction",
       [](Operation *op, int v) -> LogicalResult {
         if (v >= 3)
           return success();
         auto dims = op->getAttrOfType<ArrayAttr>("reduction_dims");
         if (!dims)
           return op->emitError("missing reduction_dims attribute");
         SmallVector<int64_t> values;
         for (Attribute a : dims) {
           auto i = llvm::dyn_cast<IntegerAttr>(a);
           if (!i)
             return op->emitError("reduction_dims holds a non-integer");
           values.push_back(i.getInt());
         }
         op->setAttr("reduction_dims",
                     DenseI64ArrayAttr::get(op->getContext(), values));
         return success();
       }},
      {"tpu.store",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 11)
           op->setAttr("add", falseAttr(op));
         return success();
       }},
      {"tpu.reinterpret_cast",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 15)
           setSegments(op, {1, op->getNumOperands() > 1 ? 1 : 0, 0});
         return success();
       }},
      {"tpu.matmul",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 13)
           op->setAttr("transpose_lhs_hint", falseAttr(op));
         return success();
       }},
  };
  return rules;
}

const llvm::StringMap<Rule> &downgradeRules() {
  static const llvm::StringMap<Rule> rules = {
      {"tpu.enqueue_dma",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 14) {
           auto sizes = segmentsOf(op, 7);
           if (failed(sizes))
             return failure();
           if ((*sizes)[6] != 0 && failed(joinSubcore(op, 5, 6)))
             return failure();
           sizes->pop_back();
           setSegments(op, *sizes);
         }
         if (v < 12) {
           auto sizes = segmentsOf(op, 6);
           if (failed(sizes))
             return failure();
           if ((*sizes)[3] == 0)
             return op->emitError("tpu.enqueue_dma without target_semaphore "
                                  "cannot be written before version 12");
         }
         if (v < 8 && failed(dropFalseBool(op, "strict_ordering", false)))
           return failure();
         if (v < 4)
           op->removeAttr("priority");
         if (v < 2)
           return op->emitError("cannot write tpu.enqueue_dma for version ") << v;
         return success();
       }},
      {"tpu.wait_dma2",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 7) {
           auto sizes = segmentsOf(op, 5);
           if (failed(sizes))
             return failure();
           if ((*sizes)[3] || (*sizes)[4])
             return op->emitError("device_id/core_id of tpu.wait_dma2 cannot "
                                  "be written before version 7");
           op->removeAttr(kSegments);
         }
         if (v < 3)
           return op->emitError("cannot write tpu.wait_dma2 for version ") << v;
         return success();
       }},
      {"tpu.wait_dma",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 14) {
           auto sizes = segmentsOf(op, 7);
           if (failed(sizes))
             return failure();
           if ((*sizes)[6] != 0 && failed(joinSubcore(op, 5, 6)))
             return failure();
           sizes->pop_back();
           setSegments(op, *sizes);
         }
         return success();
       }},
      {"tpu.dynamic_gather",
       [](Operation *op, int v) -> LogicalResult {
         return v < 5 ? dimensionsToDimension(op) : success();
       }},
      {"tpu.iota",
       [](Operation *op, int v) -> LogicalResult {
         return v < 6 ? dimensionsToDimension(op) : success();
       }},
      {"tpu.sem_signal",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 14) {
           auto sizes = segmentsOf(op, 5);
           if (failed(sizes))
             return failure();
           if ((*sizes)[4] != 0 && failed(joinSubcore(op, 3, 4)))
             return failure();
           sizes->pop_back();
           setSegments(op, *sizes);
         }
         if (v < 2) {
           auto sizes = segmentsOf(op, 4);
           if (failed(sizes))
             return failure();
           if ((*sizes)[3])
             return op->emitError("core_id of tpu.sem_signal cannot be "
                                  "written before version 2");
           op->removeAttr(kSegments);
         }
         return success();
       }},
      {"tpu.store",
       [](Operation *op, int v) -> LogicalResult {
         return v < 11 ? dropFalseBool(op, "add", true) : success();
       }},
      {"vector.multi_reduction",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 3)
           return op->emitError("cannot write vector.multi_reduction for version ")
                  << v;
         return success();
       }},
      {"arith.constant",
       [](Operation *op, int v) -> LogicalResult {
         if (v >= 10)
           return success();
         // Before 10, i1 splats were stored as bytes 0x00 / 0xff.
         auto value = op->getAttrOfType<DenseElementsAttr>("value");
         if (!value || !value.getElementType().isInteger(1))
           return success();
         if (!value.isSplat())
           return op->emitError("only i1 splats can be written before version 10");
         char byte = value.getSplatValue<bool>() ? char(0xff) : char(0x00);
         op->setAttr("value", DenseElementsAttr::getFromRawBuffer(
                                  value.getType(), ArrayRef<char>(byte)));
         return success();
       }},
      {"tpu.reinterpret_cast",
       [](Operation *op, int v) -> LogicalResult {
         if (v < 15) {
           auto seg = op->getAttrOfType<DenseI32ArrayAttr>(kSegments);
           if (seg && seg.size() == 3 && seg[2] > 0)
             return op->emitError("dynamic sizes of tpu.reinterpret_cast "
                                  "cannot be written before version 15");
           op->removeAttr(kSegments);
         }
         if (v < 12 && op->getNumOperands() == 2)
           return op->emitError("a dynamic offset of tpu.reinterpret_cast "
                                "cannot be written before version 12");
         return success();
       }},
      {"tpu.matmul",
       [](Operation *op, int v) -> LogicalResult {
         return v < 13 ? dropFalseBool(op, "transpose_lhs_hint", true)
                       : success();
       }},
  };
  return rules;
}

LogicalResult serde(ModuleOp module, bool serialize, int targetVersion) {
  MLIRContext *ctx = module->getContext();
  int version = kSerdeHighestVersion;
  if (serialize) {
    if (targetVersion > kSerdeHighestVersion || targetVersion < 1)
      return module.emitError("cannot write wire version ")
             << targetVersion << " (floors writes versions 1 to "
             << kSerdeHighestVersion << ")";
    if (!ctx->allowsUnregisteredDialects())
      return module.emitError("serializing needs a context that allows "
                              "unregistered dialects");
    module->setAttr(kVersionAttr,
                    IntegerAttr::get(IntegerType::get(ctx, 64), targetVersion));
  } else {
    auto attr = module->getAttrOfType<IntegerAttr>(kVersionAttr);
    if (!attr)
      return module.emitError("missing or invalid ") << kVersionAttr
                                                     << " attribute";
    if (attr.getInt() > kSerdeHighestVersion)
      return module.emitError("unsupported wire version ")
             << attr.getInt() << " (floors reads up to "
             << kSerdeHighestVersion << ")";
    version = static_cast<int>(attr.getInt());
  }
  std::string name;
  WalkResult walked = module.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (llvm::isa<ModuleOp>(op))
      return WalkResult::advance();
    StringRef current = op->getName().getStringRef();
    std::optional<OperationName> newName;
    if (serialize) {
      name = (kPrefix + current).str();
      newName = OperationName(name, ctx);
    } else {
      if (!current.starts_with(kPrefix)) {
        op->emitError("operation is not in wire form (no ")
            << kPrefix << " prefix)";
        return WalkResult::interrupt();
      }
      StringRef plain = current.drop_front(kPrefix.size());
      ctx->getOrLoadDialect(plain.split('.').first);
      if (auto registered = RegisteredOperationName::lookup(plain, ctx))
        newName = *registered;
      else
        newName = OperationName(plain, ctx);
      auto rule = upgradeRules().find(plain);
      if (rule != upgradeRules().end() && failed(rule->second(op, version)))
        return WalkResult::interrupt();
    }
    SmallVector<Region *> regions;
    for (Region &r : op->getRegions())
      regions.push_back(&r);
    Operation *created = Operation::create(
        op->getLoc(), *newName, op->getResultTypes(), op->getOperands(),
        NamedAttrList(op->getAttrs()), OpaqueProperties(nullptr),
        op->getSuccessors(), regions);
    op->getBlock()->getOperations().insertAfter(Block::iterator(op), created);
    bool failedRule = false;
    if (serialize && targetVersion != kSerdeHighestVersion) {
      auto rule = downgradeRules().find(current);
      if (rule != downgradeRules().end())
        failedRule = failed(rule->second(created, targetVersion));
    }
    op->replaceAllUsesWith(created->getResults());
    op->erase();
    return failedRule ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walked.wasInterrupted());
}

struct SerdePass : public PassWrapper<SerdePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SerdePass)

  SerdePass() = default;
  SerdePass(const SerdePass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "floors-tpu-serde"; }
  StringRef getDescription() const override {
    return "Convert a Mosaic kernel module between normal form and jaxlib's "
           "wire form (stable_mosaic.*, version 11)";
  }

  Option<bool> serialize{*this, "serialize",
                         llvm::cl::desc("true: normal form -> wire form; "
                                        "false: wire form -> normal form"),
                         llvm::cl::init(true)};
  Option<int> targetVersion{*this, "target-version",
                            llvm::cl::desc("wire version to write"),
                            llvm::cl::init(kSerdeWireVersion)};

  void runOnOperation() override {
    if (failed(serde(getOperation(), serialize, targetVersion)))
      signalPassFailure();
  }
};

} // namespace

LogicalResult runSerde(ModuleOp module, bool serialize) {
  return serde(module, serialize, kSerdeWireVersion);
}

void registerSerdePass() {
  static bool registered = false;
  if (registered)
    return;
  registered = true;
  PassRegistration<SerdePass>();
}

} // namespace tpu
} // namespace floors
