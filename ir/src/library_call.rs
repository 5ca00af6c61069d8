//! `#floors.library_call`: a fusion a runtime library computes. The
//! attribute holds the runtime's [`GemmShape`] field for field, so the pass
//! that writes it (`floors-gpu-rewrite-gemm`) and the host program that
//! reads it into a `GemmSpec` share one type.

use floors_runtime::gemm::GemmShape;
use mlir_sys::{MlirAttribute, MlirContext};

use crate::{capi, ir::raw};

/// The one call the runtime has.
pub const GEMM: &str = "gemm";

/// `#floors.library_call<call = "gemm", ...>` for `shape`; None when it does
/// not verify (a batch stride that makes batches overlap).
pub fn gemm_attribute(ctx: MlirContext, shape: &GemmShape) -> Option<MlirAttribute> {
    // SAFETY: `ctx` is a live context; the getter copies what it reads and
    // returns null (after a diagnostic) when the attribute does not verify.
    let a = unsafe {
        capi::floorsLibraryCallAttrGet(
            ctx,
            raw::sref(GEMM),
            shape.batch,
            shape.m,
            shape.n,
            shape.k,
            shape.transpose_lhs,
            shape.transpose_rhs,
            shape.lhs_batch_stride,
            shape.rhs_batch_stride,
        )
    };
    (!a.ptr.is_null()).then_some(a)
}

/// What a `#floors.library_call` calls and, for a gemm, its shape; None when
/// `attr` is not one.
pub fn of_attribute(attr: MlirAttribute) -> Option<(String, GemmShape)> {
    // SAFETY: `attr` is a live attribute (non-null is checked first); the
    // getters only read a verified #floors.library_call.
    unsafe {
        if attr.ptr.is_null() || !capi::floorsAttributeIsALibraryCall(attr) {
            return None;
        }
        let call = raw::string(capi::floorsLibraryCallAttrGetCall(attr));
        let mut s = [0u64; 6];
        capi::floorsLibraryCallAttrGetSizes(attr, s.as_mut_ptr());
        let shape = GemmShape {
            batch: s[0],
            m: s[1],
            n: s[2],
            k: s[3],
            transpose_lhs: capi::floorsLibraryCallAttrGetTransposeLhs(attr),
            transpose_rhs: capi::floorsLibraryCallAttrGetTransposeRhs(attr),
            lhs_batch_stride: s[4],
            rhs_batch_stride: s[5],
        };
        Some((call, shape))
    }
}

/// How the library computes the gemm of library fusion `fusion`: on TF32
/// tensor cores when its dot is f32 with precision `DEFAULT` on both
/// operands (XLA:GPU's choice on sm_80 and later, which every GPU target of
/// floors is), else in full precision (`HIGH` and `HIGHEST`; f64, f16 and
/// bf16 dots ignore it).
pub fn gemm_compute(fusion: mlir_sys::MlirOperation) -> floors_runtime::gemm::GemmCompute {
    use crate::dialects::stablehlo::{DotGeneralOp, Precision};
    use floors_runtime::gemm::GemmCompute;
    let dot = raw::region_blocks(fusion).into_iter().flat_map(raw::block_ops).find_map(DotGeneralOp::cast);
    let Some(dot) = dot else { return GemmCompute::Fp32 };
    let f32_result = raw::results(dot.operation()).first().is_some_and(|&r| {
        // SAFETY: `r` is a live result of the dot; only its type is read.
        unsafe {
            let t = mlir_sys::mlirValueGetType(r);
            mlir_sys::mlirShapedTypeGetElementType(t).ptr == mlir_sys::mlirF32TypeGet(mlir_sys::mlirTypeGetContext(t)).ptr
        }
    });
    let default = dot.precision_config().is_some_and(|p| p.iter().all(|&x| x == Precision::Default));
    if f32_result && default { GemmCompute::Tf32 } else { GemmCompute::Fp32 }
}
