//===- FloorsTpuImportCAPI.cpp - TEMPORARY tpu accessors for tpu_import ---===//
//
// See FloorsTpuImportCAPI.h: a stop-gap until dialects/tpu/TpuCAPI.h has
// these accessors.
//
//===----------------------------------------------------------------------===//

#include "FloorsTpuImportCAPI.h"

#include "tpu/TpuDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

static MlirStringRef keyword(llvm::StringRef s) { return MlirStringRef{s.data(), s.size()}; }

MlirStringRef floorsTpuImportMemorySpace(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return keyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::MemorySpaceAttr>(unwrap(attr)))
    return keyword(floors::tpu::stringifyMemorySpace(a.getValue()));
  return keyword("");
}

MlirStringRef floorsTpuImportDimensionSemantics(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return keyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::DimensionSemanticsAttr>(unwrap(attr)))
    return keyword(floors::tpu::stringifyDimensionSemantics(a.getValue()));
  return keyword("");
}

MlirStringRef floorsTpuImportReductionKind(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return keyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::ReductionKindAttr>(unwrap(attr)))
    return keyword(floors::tpu::stringifyReductionKind(a.getValue()));
  return keyword("");
}

MlirStringRef floorsTpuImportPipelineMode(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return keyword("");
  if (auto a = llvm::dyn_cast<floors::tpu::PipelineModeAttr>(unwrap(attr)))
    return keyword(floors::tpu::stringifyPipelineMode(a.getValue()));
  return keyword("");
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

bool floorsTpuImportIsADotDimensionNumbers(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && llvm::isa<floors::tpu::DotDimensionNumbersAttr>(unwrap(attr));
}

intptr_t floorsTpuImportDotDimensionNumbersSize(MlirAttribute attr, int which) {
  return static_cast<intptr_t>(dims(attr, which).size());
}

int64_t floorsTpuImportDotDimensionNumbersElem(MlirAttribute attr, int which, intptr_t i) {
  auto d = dims(attr, which);
  return i >= 0 && static_cast<size_t>(i) < d.size() ? d[i] : 0;
}

int floorsTpuImportSemaphoreKind(MlirType type) {
  if (mlirTypeIsNull(type))
    return 0;
  Type t = unwrap(type);
  if (llvm::isa<floors::tpu::SemaphoreType>(t))
    return 1;
  if (llvm::isa<floors::tpu::DMASemaphoreType>(t))
    return 2;
  return 0;
}

MlirStringRef floorsVectorCombiningKind(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr))
    return keyword("");
  if (auto a = llvm::dyn_cast<vector::CombiningKindAttr>(unwrap(attr)))
    return keyword(vector::stringifyCombiningKind(a.getValue()));
  return keyword("");
}
