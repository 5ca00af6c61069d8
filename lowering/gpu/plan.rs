//! The GPU floor's plan for a fusion as typed IR: `#floors.gpu_emitter`
//! (dialects/floors/FloorsOps.td, verified there), written by
//! `floors-gpu-select-emitter` and read by the fusion report and the graph.

use mlir_sys::{MlirAttribute, MlirContext, MlirOperation};

use floors_ir::{
    capi,
    contract::GPU_EMITTER_ATTR,
    ir::{raw, raw::sref},
};

/// One fusion's emitter and launch dimensions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitterPlan {
    /// `loop`, `reduction`, `transpose`, `concatenate`, `input_slices`,
    /// `scatter`, `gemm` or `cublas`.
    pub kind: String,
    /// Why XLA's order picks it.
    pub reason: String,
    /// Threads per block (x, y, z).
    pub block: [i64; 3],
    /// Blocks (x, y, z).
    pub grid: [i64; 3],
}

impl EmitterPlan {
    /// The attribute; None (with an error diagnostic from its verifier) if
    /// the plan is not one (an unknown kind, a dimension below 1, or below 0 for `cublas`).
    pub fn to_attribute(&self, ctx: MlirContext) -> Option<MlirAttribute> {
        // SAFETY: `ctx` is live; the strings and arrays are copied into the
        // context before the call returns.
        let a =
            unsafe { capi::floorsGpuEmitterAttrGet(ctx, sref(&self.kind), sref(&self.reason), self.block.as_ptr(), self.grid.as_ptr()) };
        (!a.ptr.is_null()).then_some(a)
    }

    /// The plan an attribute holds; None for any other attribute.
    pub fn of_attribute(a: MlirAttribute) -> Option<Self> {
        // SAFETY: `a` is checked to be a #floors.gpu_emitter before its
        // accessors are called; they write three dimensions each.
        unsafe {
            if a.ptr.is_null() || !capi::floorsAttributeIsAGpuEmitter(a) {
                return None;
            }
            let (mut block, mut grid) = ([0i64; 3], [0i64; 3]);
            capi::floorsGpuEmitterAttrGetBlock(a, block.as_mut_ptr());
            capi::floorsGpuEmitterAttrGetGrid(a, grid.as_mut_ptr());
            Some(Self {
                kind: raw::string(capi::floorsGpuEmitterAttrGetKind(a)),
                reason: raw::string(capi::floorsGpuEmitterAttrGetReason(a)),
                block,
                grid,
            })
        }
    }

    /// The plan recorded on a fusion (`floors.gpu_emitter`).
    pub fn of_fusion(f: MlirOperation) -> Option<Self> {
        raw::attr(f, GPU_EMITTER_ATTR).and_then(Self::of_attribute)
    }
}
