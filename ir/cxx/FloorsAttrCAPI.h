/*===- FloorsAttrCAPI.h - builders for upstream attributes ---------*- C -*-===*\
|*                                                                            *|
|* Typed builders for the upstream attributes floors writes and MLIR's C API *|
|* has no constructor for (nvvm, gpu, llvm loop metadata, arith, linalg,     *|
|* vector), so that no attribute is parsed from printed text. Enum values   *|
|* are numbered as upstream numbers them (FloorsAttrCAPI.cpp checks each    *|
|* against the C++ enum at compile time). Every builder returns a null      *|
|* attribute for a null context or a value out of range; none aborts.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FLOORS_CXX_FLOORSATTRCAPI_H
#define FLOORS_CXX_FLOORSATTRCAPI_H

#include "mlir-c/IR.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-- nvvm --------------------------------------------------------------===*/

/* `#nvvm.target<O = optLevel, chip = "...", features = "...">` (the default
 * triple, no flags, no link files). Null if optLevel is not 0..3 or chip is
 * empty. */
MlirAttribute floorsNVVMTargetAttrGet(MlirContext ctx, int optLevel,
                                      MlirStringRef chip,
                                      MlirStringRef features);

/* `#nvvm.shape<m = M, n = N, k = K>`; null if a dimension is below 1. */
MlirAttribute floorsNVVMMMAShapeAttrGet(MlirContext ctx, int m, int n, int k);

/* NVVM::MMALayout: `#nvvm.mma_layout<row|col>`. */
typedef enum FloorsNVVMMMALayout {
  FLOORS_NVVM_MMA_LAYOUT_ROW = 0,
  FLOORS_NVVM_MMA_LAYOUT_COL = 1,
} FloorsNVVMMMALayout;
MlirAttribute floorsNVVMMMALayoutAttrGet(MlirContext ctx,
                                         FloorsNVVMMMALayout layout);

/* NVVM::MMATypes: `#nvvm.mma_type<...>` (the types floors uses). */
typedef enum FloorsNVVMMMAType {
  FLOORS_NVVM_MMA_TYPE_F16 = 0,
  FLOORS_NVVM_MMA_TYPE_F32 = 1,
  FLOORS_NVVM_MMA_TYPE_BF16 = 9,
} FloorsNVVMMMAType;
MlirAttribute floorsNVVMMMATypeAttrGet(MlirContext ctx, FloorsNVVMMMAType type);

/* NVVM::WGMMATypes: `#nvvm.wgmma_type<...>` (the types floors uses). */
typedef enum FloorsNVVMWGMMAType {
  FLOORS_NVVM_WGMMA_TYPE_F16 = 0,
  FLOORS_NVVM_WGMMA_TYPE_BF16 = 5,
  FLOORS_NVVM_WGMMA_TYPE_F32 = 8,
} FloorsNVVMWGMMAType;
MlirAttribute floorsNVVMWGMMATypeAttrGet(MlirContext ctx,
                                         FloorsNVVMWGMMAType type);

/* NVVM::WGMMAScaleIn: `#nvvm.wgmma_scale_in<one|neg>`. */
typedef enum FloorsNVVMWGMMAScaleIn {
  FLOORS_NVVM_WGMMA_SCALE_IN_ONE = 1,
  FLOORS_NVVM_WGMMA_SCALE_IN_NEG = 2,
} FloorsNVVMWGMMAScaleIn;
MlirAttribute floorsNVVMWGMMAScaleInAttrGet(MlirContext ctx,
                                            FloorsNVVMWGMMAScaleIn scale);

/* NVVM::WGMMAScaleOut: `#nvvm.wgmma_scale_out<zero|one>`. */
typedef enum FloorsNVVMWGMMAScaleOut {
  FLOORS_NVVM_WGMMA_SCALE_OUT_ZERO = 0,
  FLOORS_NVVM_WGMMA_SCALE_OUT_ONE = 1,
} FloorsNVVMWGMMAScaleOut;
MlirAttribute floorsNVVMWGMMAScaleOutAttrGet(MlirContext ctx,
                                             FloorsNVVMWGMMAScaleOut scale);

/* NVVM::MMAIntOverflow: `#nvvm.mma_int_overflow<wrapped|satfinite>`. */
typedef enum FloorsNVVMMMAIntOverflow {
  FLOORS_NVVM_MMA_INT_OVERFLOW_WRAPPED = 0,
  FLOORS_NVVM_MMA_INT_OVERFLOW_SATFINITE = 1,
} FloorsNVVMMMAIntOverflow;
MlirAttribute floorsNVVMMMAIntOverflowAttrGet(MlirContext ctx,
                                              FloorsNVVMMMAIntOverflow overflow);

/* NVVM::ProxyKind: `#nvvm.proxy_kind<...>` (the kinds floors uses). */
typedef enum FloorsNVVMProxyKind {
  FLOORS_NVVM_PROXY_KIND_ASYNC = 1,
  FLOORS_NVVM_PROXY_KIND_ASYNC_GLOBAL = 2,
  FLOORS_NVVM_PROXY_KIND_ASYNC_SHARED = 3,
} FloorsNVVMProxyKind;
MlirAttribute floorsNVVMProxyKindAttrGet(MlirContext ctx,
                                         FloorsNVVMProxyKind kind);

/* NVVM::SharedSpace: `#nvvm.shared_space<cta|cluster>`. */
typedef enum FloorsNVVMSharedSpace {
  FLOORS_NVVM_SHARED_SPACE_CTA = 0,
  FLOORS_NVVM_SHARED_SPACE_CLUSTER = 1,
} FloorsNVVMSharedSpace;
MlirAttribute floorsNVVMSharedSpaceAttrGet(MlirContext ctx,
                                           FloorsNVVMSharedSpace space);

/*===-- gpu ---------------------------------------------------------------===*/

/* gpu::AddressSpace: `#gpu.address_space<global|workgroup|private>`. */
typedef enum FloorsGPUAddressSpace {
  FLOORS_GPU_ADDRESS_SPACE_GLOBAL = 1,
  FLOORS_GPU_ADDRESS_SPACE_WORKGROUP = 2,
  FLOORS_GPU_ADDRESS_SPACE_PRIVATE = 3,
} FloorsGPUAddressSpace;
MlirAttribute floorsGPUAddressSpaceAttrGet(MlirContext ctx,
                                           FloorsGPUAddressSpace space);

/* gpu::ShuffleMode: `#gpu<shuffle_mode xor|down|up|idx>`. */
typedef enum FloorsGPUShuffleMode {
  FLOORS_GPU_SHUFFLE_MODE_XOR = 0,
  FLOORS_GPU_SHUFFLE_MODE_DOWN = 1,
  FLOORS_GPU_SHUFFLE_MODE_UP = 2,
  FLOORS_GPU_SHUFFLE_MODE_IDX = 3,
} FloorsGPUShuffleMode;
MlirAttribute floorsGPUShuffleModeAttrGet(MlirContext ctx,
                                          FloorsGPUShuffleMode mode);

/*===-- llvm --------------------------------------------------------------===*/

/* `#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>`: the
 * loop metadata that keeps LLVM from unrolling a loop. */
MlirAttribute floorsLLVMLoopAnnotationNoUnrollGet(MlirContext ctx);

/*===-- arith -------------------------------------------------------------===*/

/* arith::FastMathFlags bits: `#arith.fastmath<...>` of their union. */
typedef enum FloorsArithFastMathFlag {
  FLOORS_ARITH_FASTMATH_NONE = 0,
  FLOORS_ARITH_FASTMATH_REASSOC = 1,
  FLOORS_ARITH_FASTMATH_NNAN = 2,
  FLOORS_ARITH_FASTMATH_NINF = 4,
  FLOORS_ARITH_FASTMATH_NSZ = 8,
  FLOORS_ARITH_FASTMATH_ARCP = 16,
  FLOORS_ARITH_FASTMATH_CONTRACT = 32,
  FLOORS_ARITH_FASTMATH_AFN = 64,
} FloorsArithFastMathFlag;
/* Null if `flags` has a bit outside the ones above. */
MlirAttribute floorsArithFastMathAttrGet(MlirContext ctx, uint32_t flags);

/*===-- linalg ------------------------------------------------------------===*/

/* utils::IteratorType: `#linalg.iterator_type<parallel|reduction>`. */
typedef enum FloorsLinalgIteratorType {
  FLOORS_LINALG_ITERATOR_PARALLEL = 0,
  FLOORS_LINALG_ITERATOR_REDUCTION = 1,
} FloorsLinalgIteratorType;
MlirAttribute floorsLinalgIteratorTypeAttrGet(MlirContext ctx,
                                              FloorsLinalgIteratorType type);

/*===-- vector ------------------------------------------------------------===*/

/* vector::CombiningKind: `#vector.kind<...>`. */
typedef enum FloorsVectorCombiningKind {
  FLOORS_VECTOR_KIND_ADD = 0,
  FLOORS_VECTOR_KIND_MUL = 1,
  FLOORS_VECTOR_KIND_MINUI = 2,
  FLOORS_VECTOR_KIND_MINSI = 3,
  FLOORS_VECTOR_KIND_MINNUMF = 4,
  FLOORS_VECTOR_KIND_MAXUI = 5,
  FLOORS_VECTOR_KIND_MAXSI = 6,
  FLOORS_VECTOR_KIND_MAXNUMF = 7,
  FLOORS_VECTOR_KIND_AND = 8,
  FLOORS_VECTOR_KIND_OR = 9,
  FLOORS_VECTOR_KIND_XOR = 10,
  FLOORS_VECTOR_KIND_MINIMUMF = 11,
  FLOORS_VECTOR_KIND_MAXIMUMF = 12,
} FloorsVectorCombiningKind;
MlirAttribute floorsVectorCombiningKindAttrGet(
    MlirContext ctx, FloorsVectorCombiningKind kind);

#ifdef __cplusplus
}
#endif

#endif /* FLOORS_CXX_FLOORSATTRCAPI_H */
