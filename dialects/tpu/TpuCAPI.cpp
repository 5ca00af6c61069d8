//===- TpuCAPI.cpp - C API of the tpu dialect -----------------------------===//

#include "tpu/TpuCAPI.h"
#include "tpu/TpuDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tpu, tpu, ::floors::tpu::TpuDialect)

int32_t floorsTpuWireVersion(void) { return floors::tpu::kSerdeWireVersion; }

bool floorsTpuSerde(MlirOperation module, bool serialize) {
  if (mlirOperationIsNull(module))
    return false;
  auto mod = llvm::dyn_cast<ModuleOp>(unwrap(module));
  if (!mod) {
    unwrap(module)->emitError("tpu serde runs on a builtin.module");
    return false;
  }
  return succeeded(floors::tpu::runSerde(mod, serialize));
}

void floorsTpuRegisterPasses(void) { floors::tpu::registerSerdePass(); }

// ---- typed accessors src/tpu_import.rs reads the kernel with ----------------

using namespace mlir;

static MlirStringRef tpuKeyword(llvm::StringRef s) { return MlirStringRef{s.data(), s.size()}; }

MlirStringRef floorsTpuMemorySpaceName(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return tpuKeyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::MemorySpaceAttr>(unwrap(attr)))
    return tpuKeyword(floors::tpu::stringifyMemorySpace(a.getValue()));
  return tpuKeyword("");
}

MlirAttribute floorsTpuContractPrecisionGet(MlirContext ctx, bool fp32) {
  return wrap(floors::tpu::ContractPrecisionAttr::get(
      unwrap(ctx), fp32 ? floors::tpu::ContractPrecision::kFP32 : floors::tpu::ContractPrecision::kBF16));
}

MlirStringRef floorsTpuContractPrecisionName(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return tpuKeyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::ContractPrecisionAttr>(unwrap(attr)))
    return tpuKeyword(floors::tpu::stringifyContractPrecision(a.getValue()));
  return tpuKeyword("");
}

MlirStringRef floorsTpuDimensionSemanticsName(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return tpuKeyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::DimensionSemanticsAttr>(unwrap(attr)))
    return tpuKeyword(floors::tpu::stringifyDimensionSemantics(a.getValue()));
  return tpuKeyword("");
}

MlirStringRef floorsTpuReductionKindName(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return tpuKeyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::ReductionKindAttr>(unwrap(attr)))
    return tpuKeyword(floors::tpu::stringifyReductionKind(a.getValue()));
  return tpuKeyword("");
}

MlirStringRef floorsTpuPipelineModeName(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return tpuKeyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::PipelineModeAttr>(unwrap(attr)))
    return tpuKeyword(floors::tpu::stringifyPipelineMode(a.getValue()));
  return tpuKeyword("");
}

static llvm::ArrayRef<int64_t> padding(MlirAttribute attr, int which) {
  if (mlirAttributeIsNull(attr))
    return {};
  auto a = llvm::dyn_cast<floors::tpu::ElementWindowAttr>(unwrap(attr));
  if (!a)
    return {};
  return which == 0 ? a.getPadLow() : which == 1 ? a.getPadHigh() : llvm::ArrayRef<int64_t>{};
}

bool floorsTpuAttributeIsAElementWindow(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && llvm::isa<floors::tpu::ElementWindowAttr>(unwrap(attr));
}

intptr_t floorsTpuElementWindowSize(MlirAttribute attr, int which) {
  return static_cast<intptr_t>(padding(attr, which).size());
}

int64_t floorsTpuElementWindowElem(MlirAttribute attr, int which, intptr_t i) {
  auto d = padding(attr, which);
  return i >= 0 && static_cast<size_t>(i) < d.size() ? d[i] : 0;
}

static llvm::ArrayRef<int64_t> dims(MlirAttribute attr, int which) {
  if (mlirAttributeIsNull(attr))
    return {};
  auto a = llvm::dyn_cast<floors::tpu::DotDimensionNumbersAttr>(unwrap(attr));
  if (!a)
    return {};
  switch (which) {
  case 0: return a.getLhsContractingDims();
  case 1: return a.getRhsContractingDims();
  case 2: return a.getLhsNonContractingDims();
  case 3: return a.getRhsNonContractingDims();
  case 4: return a.getOutputDimOrder();
  case 5: return a.getLhsBatchDims();
  case 6: return a.getRhsBatchDims();
  default: return {};
  }
}

bool floorsTpuAttributeIsADotDimensionNumbers(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && llvm::isa<floors::tpu::DotDimensionNumbersAttr>(unwrap(attr));
}

intptr_t floorsTpuDotDimensionNumbersSize(MlirAttribute attr, int which) {
  return static_cast<intptr_t>(dims(attr, which).size());
}

int64_t floorsTpuDotDimensionNumbersElem(MlirAttribute attr, int which, intptr_t i) {
  auto d = dims(attr, which);
  return i >= 0 && static_cast<size_t>(i) < d.size() ? d[i] : 0;
}

MlirAttribute floorsTpuDotDimensionNumbersGet(MlirContext ctx,
                                              const int64_t *const *lists,
                                              const intptr_t *sizes) {
  if (mlirContextIsNull(ctx) || !lists || !sizes)
    return {nullptr};
  llvm::SmallVector<llvm::ArrayRef<int64_t>, 7> l;
  for (int i = 0; i < 7; ++i) {
    if (sizes[i] < 0 || (sizes[i] > 0 && !lists[i]))
      return {nullptr};
    l.push_back(sizes[i] == 0 ? llvm::ArrayRef<int64_t>()
                              : llvm::ArrayRef<int64_t>(lists[i], sizes[i]));
  }
  if (l[4].size() % 2 != 0)
    return {nullptr};
  for (size_t i = 0; i < l[4].size(); i += 2)
    if (l[4][i] != 0 && l[4][i] != 1)
      return {nullptr};
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<floors::tpu::TpuDialect>();
  return wrap(floors::tpu::DotDimensionNumbersAttr::get(
      context, l[0], l[1], l[2], l[3], l[4], l[5], l[6]));
}

int floorsTpuSemaphoreKind(MlirType type) {
  if (mlirTypeIsNull(type))
    return 0;
  Type t = unwrap(type);
  if (llvm::isa<floors::tpu::SemaphoreType>(t))
    return 1;
  if (llvm::isa<floors::tpu::DMASemaphoreType>(t))
    return 2;
  return 0;
}

