//===- FloorsAttrCAPI.cpp - builders for upstream attributes -------------===//
//
// Each builder loads its dialect (as the parser would) and calls the
// attribute's C++ `get`; a null context or a value the upstream enum does
// not have gives a null attribute, never an abort.
//
//===----------------------------------------------------------------------===//

#include "FloorsAttrCAPI.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;

// The C enums are numbered as upstream numbers its enums: checked here, so
// an LLVM upgrade that renumbers one fails to compile instead of building
// another attribute.
#define SAME(C, CXX) static_assert(static_cast<uint32_t>(C) == static_cast<uint32_t>(CXX), #C)
SAME(FLOORS_NVVM_MMA_LAYOUT_ROW, NVVM::MMALayout::row);
SAME(FLOORS_NVVM_MMA_LAYOUT_COL, NVVM::MMALayout::col);
SAME(FLOORS_NVVM_MMA_TYPE_F16, NVVM::MMATypes::f16);
SAME(FLOORS_NVVM_MMA_TYPE_F32, NVVM::MMATypes::f32);
SAME(FLOORS_NVVM_MMA_TYPE_BF16, NVVM::MMATypes::bf16);
SAME(FLOORS_NVVM_WGMMA_TYPE_F16, NVVM::WGMMATypes::f16);
SAME(FLOORS_NVVM_WGMMA_TYPE_BF16, NVVM::WGMMATypes::bf16);
SAME(FLOORS_NVVM_WGMMA_TYPE_F32, NVVM::WGMMATypes::f32);
SAME(FLOORS_NVVM_WGMMA_SCALE_IN_ONE, NVVM::WGMMAScaleIn::one);
SAME(FLOORS_NVVM_WGMMA_SCALE_IN_NEG, NVVM::WGMMAScaleIn::neg);
SAME(FLOORS_NVVM_WGMMA_SCALE_OUT_ZERO, NVVM::WGMMAScaleOut::zero);
SAME(FLOORS_NVVM_WGMMA_SCALE_OUT_ONE, NVVM::WGMMAScaleOut::one);
SAME(FLOORS_NVVM_MMA_INT_OVERFLOW_WRAPPED, NVVM::MMAIntOverflow::wrapped);
SAME(FLOORS_NVVM_MMA_INT_OVERFLOW_SATFINITE, NVVM::MMAIntOverflow::satfinite);
SAME(FLOORS_NVVM_PROXY_KIND_ASYNC, NVVM::ProxyKind::async);
SAME(FLOORS_NVVM_PROXY_KIND_ASYNC_GLOBAL, NVVM::ProxyKind::async_global);
SAME(FLOORS_NVVM_PROXY_KIND_ASYNC_SHARED, NVVM::ProxyKind::async_shared);
SAME(FLOORS_NVVM_SHARED_SPACE_CTA, NVVM::SharedSpace::shared_cta);
SAME(FLOORS_NVVM_SHARED_SPACE_CLUSTER, NVVM::SharedSpace::shared_cluster);
SAME(FLOORS_GPU_ADDRESS_SPACE_GLOBAL, gpu::AddressSpace::Global);
SAME(FLOORS_GPU_ADDRESS_SPACE_WORKGROUP, gpu::AddressSpace::Workgroup);
SAME(FLOORS_GPU_ADDRESS_SPACE_PRIVATE, gpu::AddressSpace::Private);
SAME(FLOORS_GPU_SHUFFLE_MODE_XOR, gpu::ShuffleMode::XOR);
SAME(FLOORS_GPU_SHUFFLE_MODE_DOWN, gpu::ShuffleMode::DOWN);
SAME(FLOORS_GPU_SHUFFLE_MODE_UP, gpu::ShuffleMode::UP);
SAME(FLOORS_GPU_SHUFFLE_MODE_IDX, gpu::ShuffleMode::IDX);
SAME(FLOORS_ARITH_FASTMATH_NONE, arith::FastMathFlags::none);
SAME(FLOORS_ARITH_FASTMATH_REASSOC, arith::FastMathFlags::reassoc);
SAME(FLOORS_ARITH_FASTMATH_NNAN, arith::FastMathFlags::nnan);
SAME(FLOORS_ARITH_FASTMATH_NINF, arith::FastMathFlags::ninf);
SAME(FLOORS_ARITH_FASTMATH_NSZ, arith::FastMathFlags::nsz);
SAME(FLOORS_ARITH_FASTMATH_ARCP, arith::FastMathFlags::arcp);
SAME(FLOORS_ARITH_FASTMATH_CONTRACT, arith::FastMathFlags::contract);
SAME(FLOORS_ARITH_FASTMATH_AFN, arith::FastMathFlags::afn);
SAME(FLOORS_LINALG_ITERATOR_PARALLEL, utils::IteratorType::parallel);
SAME(FLOORS_LINALG_ITERATOR_REDUCTION, utils::IteratorType::reduction);
SAME(FLOORS_VECTOR_KIND_ADD, vector::CombiningKind::ADD);
SAME(FLOORS_VECTOR_KIND_MUL, vector::CombiningKind::MUL);
SAME(FLOORS_VECTOR_KIND_MINUI, vector::CombiningKind::MINUI);
SAME(FLOORS_VECTOR_KIND_MINSI, vector::CombiningKind::MINSI);
SAME(FLOORS_VECTOR_KIND_MINNUMF, vector::CombiningKind::MINNUMF);
SAME(FLOORS_VECTOR_KIND_MAXUI, vector::CombiningKind::MAXUI);
SAME(FLOORS_VECTOR_KIND_MAXSI, vector::CombiningKind::MAXSI);
SAME(FLOORS_VECTOR_KIND_MAXNUMF, vector::CombiningKind::MAXNUMF);
SAME(FLOORS_VECTOR_KIND_AND, vector::CombiningKind::AND);
SAME(FLOORS_VECTOR_KIND_OR, vector::CombiningKind::OR);
SAME(FLOORS_VECTOR_KIND_XOR, vector::CombiningKind::XOR);
SAME(FLOORS_VECTOR_KIND_MINIMUMF, vector::CombiningKind::MINIMUMF);
SAME(FLOORS_VECTOR_KIND_MAXIMUMF, vector::CombiningKind::MAXIMUMF);
#undef SAME

/// The context with dialect `D` loaded (as parsing its attribute would
/// load it); null for a null context.
template <typename D> static MLIRContext *withDialect(MlirContext ctx) {
  if (mlirContextIsNull(ctx))
    return nullptr;
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<D>();
  return context;
}

/// `Attr::get(context, E(value))` when `symbolize` knows `value`, else null.
template <typename D, typename Attr, typename E>
static MlirAttribute enumAttr(MlirContext ctx, uint32_t value,
                              std::optional<E> (*symbolize)(uint32_t)) {
  MLIRContext *context = withDialect<D>(ctx);
  if (!context)
    return {nullptr};
  std::optional<E> e = symbolize(value);
  if (!e)
    return {nullptr};
  return wrap(Attr::get(context, *e));
}

// ---- nvvm -------------------------------------------------------------------

MlirAttribute floorsNVVMTargetAttrGet(MlirContext ctx, int optLevel,
                                      MlirStringRef chip,
                                      MlirStringRef features) {
  MLIRContext *context = withDialect<NVVM::NVVMDialect>(ctx);
  if (!context || optLevel < 0 || optLevel > 3 || chip.length == 0)
    return {nullptr};
  // Every argument spelled with the declared parameter types, so that the
  // attribute's own getChecked is chosen over StorageUserBase's template.
  auto emitErrorFn = [context] { return emitError(UnknownLoc::get(context)); };
  return wrap(NVVM::NVVMTargetAttr::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emitErrorFn), context,
      optLevel, llvm::StringRef("nvptx64-nvidia-cuda"), unwrap(chip),
      unwrap(features), DictionaryAttr(), ArrayAttr(), true));
}

MlirAttribute floorsNVVMMMAShapeAttrGet(MlirContext ctx, int m, int n, int k) {
  MLIRContext *context = withDialect<NVVM::NVVMDialect>(ctx);
  if (!context || m < 1 || n < 1 || k < 1)
    return {nullptr};
  return wrap(NVVM::MMAShapeAttr::get(context, m, n, k));
}

MlirAttribute floorsNVVMMMALayoutAttrGet(MlirContext ctx,
                                         FloorsNVVMMMALayout layout) {
  return enumAttr<NVVM::NVVMDialect, NVVM::MMALayoutAttr>(
      ctx, layout, NVVM::symbolizeMMALayout);
}

MlirAttribute floorsNVVMMMATypeAttrGet(MlirContext ctx,
                                       FloorsNVVMMMAType type) {
  return enumAttr<NVVM::NVVMDialect, NVVM::MMATypesAttr>(
      ctx, type, NVVM::symbolizeMMATypes);
}

MlirAttribute floorsNVVMWGMMATypeAttrGet(MlirContext ctx,
                                         FloorsNVVMWGMMAType type) {
  return enumAttr<NVVM::NVVMDialect, NVVM::WGMMATypesAttr>(
      ctx, type, NVVM::symbolizeWGMMATypes);
}

/// NVVM has no symbolizeWGMMAScaleIn(uint32_t) (the enum is not an integer
/// enum in ODS), so its two values are checked here.
static std::optional<NVVM::WGMMAScaleIn> scaleIn(uint32_t value) {
  switch (value) {
  case static_cast<uint32_t>(NVVM::WGMMAScaleIn::one):
    return NVVM::WGMMAScaleIn::one;
  case static_cast<uint32_t>(NVVM::WGMMAScaleIn::neg):
    return NVVM::WGMMAScaleIn::neg;
  default:
    return std::nullopt;
  }
}

MlirAttribute floorsNVVMWGMMAScaleInAttrGet(MlirContext ctx,
                                            FloorsNVVMWGMMAScaleIn scale) {
  return enumAttr<NVVM::NVVMDialect, NVVM::WGMMAScaleInAttr>(ctx, scale,
                                                              scaleIn);
}

MlirAttribute floorsNVVMWGMMAScaleOutAttrGet(MlirContext ctx,
                                             FloorsNVVMWGMMAScaleOut scale) {
  return enumAttr<NVVM::NVVMDialect, NVVM::WGMMAScaleOutAttr>(
      ctx, scale, NVVM::symbolizeWGMMAScaleOut);
}

MlirAttribute floorsNVVMMMAIntOverflowAttrGet(MlirContext ctx,
                                              FloorsNVVMMMAIntOverflow overflow) {
  return enumAttr<NVVM::NVVMDialect, NVVM::MMAIntOverflowAttr>(
      ctx, overflow, NVVM::symbolizeMMAIntOverflow);
}

MlirAttribute floorsNVVMProxyKindAttrGet(MlirContext ctx,
                                         FloorsNVVMProxyKind kind) {
  return enumAttr<NVVM::NVVMDialect, NVVM::ProxyKindAttr>(
      ctx, kind, NVVM::symbolizeProxyKind);
}

MlirAttribute floorsNVVMSharedSpaceAttrGet(MlirContext ctx,
                                           FloorsNVVMSharedSpace space) {
  return enumAttr<NVVM::NVVMDialect, NVVM::SharedSpaceAttr>(
      ctx, space, NVVM::symbolizeSharedSpace);
}

// ---- gpu --------------------------------------------------------------------

MlirAttribute floorsGPUAddressSpaceAttrGet(MlirContext ctx,
                                           FloorsGPUAddressSpace space) {
  return enumAttr<gpu::GPUDialect, gpu::AddressSpaceAttr>(
      ctx, space, gpu::symbolizeAddressSpace);
}

MlirAttribute floorsGPUShuffleModeAttrGet(MlirContext ctx,
                                          FloorsGPUShuffleMode mode) {
  return enumAttr<gpu::GPUDialect, gpu::ShuffleModeAttr>(
      ctx, mode, gpu::symbolizeShuffleMode);
}

// ---- llvm -------------------------------------------------------------------

MlirAttribute floorsLLVMLoopAnnotationNoUnrollGet(MlirContext ctx) {
  MLIRContext *context = withDialect<LLVM::LLVMDialect>(ctx);
  if (!context)
    return {nullptr};
  auto unroll = LLVM::LoopUnrollAttr::get(
      context, /*disable=*/BoolAttr::get(context, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  return wrap(LLVM::LoopAnnotationAttr::get(
      context, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
      unroll, /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{},
      /*pipeline=*/{}, /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
      /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
      /*parallelAccesses=*/{}));
}

// ---- arith ------------------------------------------------------------------

MlirAttribute floorsArithFastMathAttrGet(MlirContext ctx, uint32_t flags) {
  MLIRContext *context = withDialect<arith::ArithDialect>(ctx);
  constexpr uint32_t all = static_cast<uint32_t>(arith::FastMathFlags::fast);
  if (!context || (flags & ~all) != 0)
    return {nullptr};
  return wrap(arith::FastMathFlagsAttr::get(
      context, static_cast<arith::FastMathFlags>(flags)));
}

// ---- linalg -----------------------------------------------------------------

MlirAttribute floorsLinalgIteratorTypeAttrGet(MlirContext ctx,
                                              FloorsLinalgIteratorType type) {
  return enumAttr<linalg::LinalgDialect, linalg::IteratorTypeAttr>(
      ctx, type, utils::symbolizeIteratorType);
}

// ---- vector -----------------------------------------------------------------

MlirAttribute floorsVectorCombiningKindAttrGet(MlirContext ctx,
                                               FloorsVectorCombiningKind kind) {
  return enumAttr<vector::VectorDialect, vector::CombiningKindAttr>(
      ctx, kind, vector::symbolizeCombiningKind);
}
