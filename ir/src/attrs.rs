//! Typed builders for the upstream attributes floors writes and MLIR's C API
//! cannot build: thin wrappers over the shims of `cxx/FloorsAttrCAPI.cpp`,
//! which call each attribute's C++ `get`. No attribute is built by parsing
//! its printed form. Each builder returns None where the shim returned a
//! null attribute (a value out of range); callers turn that into a located
//! pass failure (`pass::fail_at`).

use mlir_sys::{MlirAttribute, MlirContext};

use crate::{capi, ir::raw::sref};

/// Some(attr) unless `attr` is null.
fn non_null(attr: MlirAttribute) -> Option<MlirAttribute> {
    (!attr.ptr.is_null()).then_some(attr)
}

/// The `nvvm` dialect's attributes (tensor-core GEMMs, the NVVM target).
pub mod nvvm {
    use super::*;

    /// `#nvvm.target<O = opt_level, chip = "...", features = "...">`: the
    /// default triple, no flags, no link files. None for an optimization
    /// level outside 0..=3 or an empty chip.
    pub fn target(ctx: MlirContext, opt_level: i32, chip: &str, features: &str) -> Option<MlirAttribute> {
        // SAFETY: `ctx` is a live context; the string refs outlive the call (the shim copies them into the context).
        non_null(unsafe { capi::floorsNVVMTargetAttrGet(ctx, opt_level, sref(chip), sref(features)) })
    }

    /// `#nvvm.shape<m = M, n = N, k = K>`; None if a dimension is below 1.
    pub fn mma_shape(ctx: MlirContext, m: i32, n: i32, k: i32) -> Option<MlirAttribute> {
        // SAFETY: `ctx` is a live context; the shim checks the dimensions.
        non_null(unsafe { capi::floorsNVVMMMAShapeAttrGet(ctx, m, n, k) })
    }

    /// `#nvvm.mma_layout<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum MmaLayout {
        Row,
        Col,
    }

    pub fn mma_layout(ctx: MlirContext, layout: MmaLayout) -> Option<MlirAttribute> {
        let l = match layout {
            MmaLayout::Row => capi::FloorsNVVMMMALayout_FLOORS_NVVM_MMA_LAYOUT_ROW,
            MmaLayout::Col => capi::FloorsNVVMMMALayout_FLOORS_NVVM_MMA_LAYOUT_COL,
        };
        // SAFETY: `ctx` is a live context; `l` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMMMALayoutAttrGet(ctx, l) })
    }

    /// `#nvvm.mma_type<...>` (the operand types floors' mma.sync uses).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum MmaType {
        F16,
        F32,
        Bf16,
    }

    pub fn mma_type(ctx: MlirContext, ty: MmaType) -> Option<MlirAttribute> {
        let t = match ty {
            MmaType::F16 => capi::FloorsNVVMMMAType_FLOORS_NVVM_MMA_TYPE_F16,
            MmaType::F32 => capi::FloorsNVVMMMAType_FLOORS_NVVM_MMA_TYPE_F32,
            MmaType::Bf16 => capi::FloorsNVVMMMAType_FLOORS_NVVM_MMA_TYPE_BF16,
        };
        // SAFETY: `ctx` is a live context; `t` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMMMATypeAttrGet(ctx, t) })
    }

    /// `#nvvm.wgmma_type<...>` (the types floors' wgmma uses).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum WgmmaType {
        F16,
        Bf16,
        F32,
    }

    pub fn wgmma_type(ctx: MlirContext, ty: WgmmaType) -> Option<MlirAttribute> {
        let t = match ty {
            WgmmaType::F16 => capi::FloorsNVVMWGMMAType_FLOORS_NVVM_WGMMA_TYPE_F16,
            WgmmaType::Bf16 => capi::FloorsNVVMWGMMAType_FLOORS_NVVM_WGMMA_TYPE_BF16,
            WgmmaType::F32 => capi::FloorsNVVMWGMMAType_FLOORS_NVVM_WGMMA_TYPE_F32,
        };
        // SAFETY: `ctx` is a live context; `t` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMWGMMATypeAttrGet(ctx, t) })
    }

    /// `#nvvm.wgmma_scale_in<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum WgmmaScaleIn {
        One,
        Neg,
    }

    pub fn wgmma_scale_in(ctx: MlirContext, scale: WgmmaScaleIn) -> Option<MlirAttribute> {
        let s = match scale {
            WgmmaScaleIn::One => capi::FloorsNVVMWGMMAScaleIn_FLOORS_NVVM_WGMMA_SCALE_IN_ONE,
            WgmmaScaleIn::Neg => capi::FloorsNVVMWGMMAScaleIn_FLOORS_NVVM_WGMMA_SCALE_IN_NEG,
        };
        // SAFETY: `ctx` is a live context; `s` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMWGMMAScaleInAttrGet(ctx, s) })
    }

    /// `#nvvm.wgmma_scale_out<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum WgmmaScaleOut {
        Zero,
        One,
    }

    pub fn wgmma_scale_out(ctx: MlirContext, scale: WgmmaScaleOut) -> Option<MlirAttribute> {
        let s = match scale {
            WgmmaScaleOut::Zero => capi::FloorsNVVMWGMMAScaleOut_FLOORS_NVVM_WGMMA_SCALE_OUT_ZERO,
            WgmmaScaleOut::One => capi::FloorsNVVMWGMMAScaleOut_FLOORS_NVVM_WGMMA_SCALE_OUT_ONE,
        };
        // SAFETY: `ctx` is a live context; `s` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMWGMMAScaleOutAttrGet(ctx, s) })
    }

    /// `#nvvm.mma_int_overflow<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum MmaIntOverflow {
        Wrapped,
        Satfinite,
    }

    pub fn mma_int_overflow(ctx: MlirContext, overflow: MmaIntOverflow) -> Option<MlirAttribute> {
        let o = match overflow {
            MmaIntOverflow::Wrapped => capi::FloorsNVVMMMAIntOverflow_FLOORS_NVVM_MMA_INT_OVERFLOW_WRAPPED,
            MmaIntOverflow::Satfinite => capi::FloorsNVVMMMAIntOverflow_FLOORS_NVVM_MMA_INT_OVERFLOW_SATFINITE,
        };
        // SAFETY: `ctx` is a live context; `o` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMMMAIntOverflowAttrGet(ctx, o) })
    }

    /// `#nvvm.proxy_kind<...>` (the kinds floors fences).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ProxyKind {
        Async,
        AsyncGlobal,
        AsyncShared,
    }

    pub fn proxy_kind(ctx: MlirContext, kind: ProxyKind) -> Option<MlirAttribute> {
        let k = match kind {
            ProxyKind::Async => capi::FloorsNVVMProxyKind_FLOORS_NVVM_PROXY_KIND_ASYNC,
            ProxyKind::AsyncGlobal => capi::FloorsNVVMProxyKind_FLOORS_NVVM_PROXY_KIND_ASYNC_GLOBAL,
            ProxyKind::AsyncShared => capi::FloorsNVVMProxyKind_FLOORS_NVVM_PROXY_KIND_ASYNC_SHARED,
        };
        // SAFETY: `ctx` is a live context; `k` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMProxyKindAttrGet(ctx, k) })
    }

    /// `#nvvm.shared_space<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum SharedSpace {
        Cta,
        Cluster,
    }

    pub fn shared_space(ctx: MlirContext, space: SharedSpace) -> Option<MlirAttribute> {
        let s = match space {
            SharedSpace::Cta => capi::FloorsNVVMSharedSpace_FLOORS_NVVM_SHARED_SPACE_CTA,
            SharedSpace::Cluster => capi::FloorsNVVMSharedSpace_FLOORS_NVVM_SHARED_SPACE_CLUSTER,
        };
        // SAFETY: `ctx` is a live context; `s` is one of the C enum's values.
        non_null(unsafe { capi::floorsNVVMSharedSpaceAttrGet(ctx, s) })
    }
}

/// The `gpu` dialect's enum attributes.
pub mod gpu {
    use super::*;

    /// `#gpu.address_space<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum AddressSpace {
        Global,
        Workgroup,
        Private,
    }

    pub fn address_space(ctx: MlirContext, space: AddressSpace) -> Option<MlirAttribute> {
        let s = match space {
            AddressSpace::Global => capi::FloorsGPUAddressSpace_FLOORS_GPU_ADDRESS_SPACE_GLOBAL,
            AddressSpace::Workgroup => capi::FloorsGPUAddressSpace_FLOORS_GPU_ADDRESS_SPACE_WORKGROUP,
            AddressSpace::Private => capi::FloorsGPUAddressSpace_FLOORS_GPU_ADDRESS_SPACE_PRIVATE,
        };
        // SAFETY: `ctx` is a live context; `s` is one of the C enum's values.
        non_null(unsafe { capi::floorsGPUAddressSpaceAttrGet(ctx, s) })
    }

    /// `#gpu<shuffle_mode ...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum ShuffleMode {
        Xor,
        Down,
        Up,
        Idx,
    }

    pub fn shuffle_mode(ctx: MlirContext, mode: ShuffleMode) -> Option<MlirAttribute> {
        let m = match mode {
            ShuffleMode::Xor => capi::FloorsGPUShuffleMode_FLOORS_GPU_SHUFFLE_MODE_XOR,
            ShuffleMode::Down => capi::FloorsGPUShuffleMode_FLOORS_GPU_SHUFFLE_MODE_DOWN,
            ShuffleMode::Up => capi::FloorsGPUShuffleMode_FLOORS_GPU_SHUFFLE_MODE_UP,
            ShuffleMode::Idx => capi::FloorsGPUShuffleMode_FLOORS_GPU_SHUFFLE_MODE_IDX,
        };
        // SAFETY: `ctx` is a live context; `m` is one of the C enum's values.
        non_null(unsafe { capi::floorsGPUShuffleModeAttrGet(ctx, m) })
    }
}

/// The `llvm` dialect's loop metadata.
pub mod llvm {
    use super::*;

    /// `#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>`.
    pub fn loop_annotation_no_unroll(ctx: MlirContext) -> Option<MlirAttribute> {
        // SAFETY: `ctx` is a live context.
        non_null(unsafe { capi::floorsLLVMLoopAnnotationNoUnrollGet(ctx) })
    }
}

/// The `arith` dialect's fast-math flags.
pub mod arith {
    use super::*;

    /// One flag of `#arith.fastmath<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum FastMath {
        Reassoc,
        Nnan,
        Ninf,
        Nsz,
        Arcp,
        Contract,
        Afn,
    }

    impl FastMath {
        fn bit(self) -> u32 {
            match self {
                FastMath::Reassoc => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_REASSOC,
                FastMath::Nnan => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_NNAN,
                FastMath::Ninf => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_NINF,
                FastMath::Nsz => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_NSZ,
                FastMath::Arcp => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_ARCP,
                FastMath::Contract => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_CONTRACT,
                FastMath::Afn => capi::FloorsArithFastMathFlag_FLOORS_ARITH_FASTMATH_AFN,
            }
        }
    }

    /// `#arith.fastmath<...>` of `flags` (`none` when empty).
    pub fn fastmath(ctx: MlirContext, flags: &[FastMath]) -> Option<MlirAttribute> {
        let bits = flags.iter().fold(0, |acc, f| acc | f.bit());
        // SAFETY: `ctx` is a live context; the shim checks the bits.
        non_null(unsafe { capi::floorsArithFastMathAttrGet(ctx, bits) })
    }
}

/// The `linalg` dialect's iterator types.
pub mod linalg {
    use super::*;

    /// `#linalg.iterator_type<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum IteratorType {
        Parallel,
        Reduction,
    }

    pub fn iterator_type(ctx: MlirContext, ty: IteratorType) -> Option<MlirAttribute> {
        let t = match ty {
            IteratorType::Parallel => capi::FloorsLinalgIteratorType_FLOORS_LINALG_ITERATOR_PARALLEL,
            IteratorType::Reduction => capi::FloorsLinalgIteratorType_FLOORS_LINALG_ITERATOR_REDUCTION,
        };
        // SAFETY: `ctx` is a live context; `t` is one of the C enum's values.
        non_null(unsafe { capi::floorsLinalgIteratorTypeAttrGet(ctx, t) })
    }
}

/// The `vector` dialect's combining kinds.
pub mod vector {
    use super::*;

    /// `#vector.kind<...>`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum CombiningKind {
        Add,
        Mul,
        MinUi,
        MinSi,
        MinNumF,
        MaxUi,
        MaxSi,
        MaxNumF,
        And,
        Or,
        Xor,
        MinimumF,
        MaximumF,
    }

    pub fn combining_kind(ctx: MlirContext, kind: CombiningKind) -> Option<MlirAttribute> {
        use CombiningKind::*;
        let k = match kind {
            Add => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_ADD,
            Mul => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MUL,
            MinUi => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MINUI,
            MinSi => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MINSI,
            MinNumF => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MINNUMF,
            MaxUi => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MAXUI,
            MaxSi => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MAXSI,
            MaxNumF => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MAXNUMF,
            And => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_AND,
            Or => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_OR,
            Xor => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_XOR,
            MinimumF => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MINIMUMF,
            MaximumF => capi::FloorsVectorCombiningKind_FLOORS_VECTOR_KIND_MAXIMUMF,
        };
        // SAFETY: `ctx` is a live context; `k` is one of the C enum's values.
        non_null(unsafe { capi::floorsVectorCombiningKindAttrGet(ctx, k) })
    }
}

#[cfg(test)]
mod tests {
    use melior::ir::AttributeLike;

    use super::*;

    /// Each builder builds the attribute its spelling (what floors used to
    /// parse) denotes.
    #[test]
    fn builders_build_their_spelling() {
        let c = crate::context::create_context();
        let ctx = c.to_raw();
        let cases: Vec<(Option<MlirAttribute>, &str)> = vec![
            (nvvm::target(ctx, 3, "sm_90a", "+ptx80"), "#nvvm.target<O = 3, chip = \"sm_90a\", features = \"+ptx80\">"),
            (nvvm::mma_shape(ctx, 16, 8, 16), "#nvvm.shape<m = 16, n = 8, k = 16>"),
            (nvvm::mma_layout(ctx, nvvm::MmaLayout::Row), "#nvvm.mma_layout<row>"),
            (nvvm::mma_layout(ctx, nvvm::MmaLayout::Col), "#nvvm.mma_layout<col>"),
            (nvvm::mma_type(ctx, nvvm::MmaType::Bf16), "#nvvm.mma_type<bf16>"),
            (nvvm::wgmma_type(ctx, nvvm::WgmmaType::F16), "#nvvm.wgmma_type<f16>"),
            (nvvm::wgmma_type(ctx, nvvm::WgmmaType::Bf16), "#nvvm.wgmma_type<bf16>"),
            (nvvm::wgmma_type(ctx, nvvm::WgmmaType::F32), "#nvvm.wgmma_type<f32>"),
            (nvvm::wgmma_scale_in(ctx, nvvm::WgmmaScaleIn::One), "#nvvm.wgmma_scale_in<one>"),
            (nvvm::wgmma_scale_out(ctx, nvvm::WgmmaScaleOut::One), "#nvvm.wgmma_scale_out<one>"),
            (nvvm::mma_int_overflow(ctx, nvvm::MmaIntOverflow::Wrapped), "#nvvm.mma_int_overflow<wrapped>"),
            (nvvm::proxy_kind(ctx, nvvm::ProxyKind::AsyncShared), "#nvvm.proxy_kind<async.shared>"),
            (nvvm::shared_space(ctx, nvvm::SharedSpace::Cta), "#nvvm.shared_space<cta>"),
            (gpu::address_space(ctx, gpu::AddressSpace::Workgroup), "#gpu.address_space<workgroup>"),
            (gpu::shuffle_mode(ctx, gpu::ShuffleMode::Xor), "#gpu<shuffle_mode xor>"),
            (llvm::loop_annotation_no_unroll(ctx), "#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>"),
            (arith::fastmath(ctx, &[arith::FastMath::Contract]), "#arith.fastmath<contract>"),
            (linalg::iterator_type(ctx, linalg::IteratorType::Parallel), "#linalg.iterator_type<parallel>"),
            (vector::combining_kind(ctx, vector::CombiningKind::MaximumF), "#vector.kind<maximumf>"),
        ];
        for (a, want) in cases {
            let a = a.unwrap_or_else(|| panic!("null attribute for {want}"));
            let parsed = melior::ir::Attribute::parse(&c, want).unwrap_or_else(|| panic!("{want} does not parse"));
            // SAFETY: both attributes live in `c`.
            assert!(unsafe { mlir_sys::mlirAttributeEqual(a, parsed.to_raw()) }, "{want}: built {}", crate::ir::raw::attr_text(a));
        }
    }

    /// Out-of-range values give None, not an abort.
    #[test]
    fn bad_values_are_none() {
        let c = crate::context::create_context();
        let ctx = c.to_raw();
        assert!(nvvm::target(ctx, 4, "sm_90", "").is_none());
        assert!(nvvm::target(ctx, 3, "", "").is_none());
        assert!(nvvm::mma_shape(ctx, 0, 8, 16).is_none());
        // SAFETY: `ctx` is a live context; the shims check their values.
        unsafe {
            assert!(capi::floorsArithFastMathAttrGet(ctx, 1 << 9).ptr.is_null());
            assert!(capi::floorsVectorCombiningKindAttrGet(ctx, 99).ptr.is_null());
            assert!(capi::floorsGPUShuffleModeAttrGet(ctx, 7).ptr.is_null());
        }
    }
}
