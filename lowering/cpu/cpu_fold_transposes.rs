//! `floors-cpu-fold-transposes`: XLA's TransposeFolding for the CPU floor,
//! on the fused module.
//!
//! JAX writes `q @ k.T` as a `stablehlo.transpose` of k and a `dot_general`
//! of its result. Fusion keeps them apart (a transpose fusion, then a gemm
//! fusion), so k was copied transposed by a kernel of its own — on the
//! attention bench program a tenth of the run, mostly the second worker
//! waiting for that one-workgroup kernel — and then copied again by the
//! packing. Here a dot operand that is a gemm fusion's input read only by
//! the dot, and produced by a transpose-only fusion, is read from the
//! transpose's input instead, with the dot's dimension numbers mapped
//! through the permutation (the result is the same array: the dot's free
//! dims keep their order, which is checked). The transpose fusion goes
//! when nothing else reads it. `floors-cpu-pack-matmul` then packs B from
//! its N×K layout in the copy it makes anyway.
//!
//! The GPU floor folds the same pattern into cuBLAS's transpose flags
//! (`floors-gpu-rewrite-gemm`); this pass is the CPU floor's.

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    dialects::stablehlo::DotGeneralOp,
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure},
};

use floors_hlo::fusion_analysis::transpose_only_fusion;

#[derive(Clone, Default)]
pub struct CpuFoldTransposes;

/// `dims` (batch or contracting dims of an operand that was a transpose's
/// result) as dims of the transpose's input.
fn through(perm: &[i64], dims: &[i64]) -> Option<Vec<i64>> {
    dims.iter().map(|&d| perm.get(usize::try_from(d).ok()?).copied()).collect()
}

/// Folds the transpose behind operand `side` (0: lhs, 1: rhs) of `dot`, a
/// dot_general in the body of gemm fusion `fusion`; true if it did.
fn fold(fusion: MlirOperation, dot: MlirOperation, side: usize) -> bool {
    // SAFETY: `fusion` is a live `floors.fusion` collected by the pass; its one region holds its
    // body.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0)) };
    let arg = raw::operands(dot)[side];
    // SAFETY: `arg` is an operand of the live dot; it is read as a block argument only after
    // `mlirValueIsABlockArgument`.
    let index = unsafe {
        if !mlirValueIsABlockArgument(arg) || mlirBlockArgumentGetOwner(arg).ptr != body.ptr {
            return false;
        }
        mlirBlockArgumentGetArgNumber(arg)
    };
    if raw::uses(arg).len() != 1 {
        return false;
    }
    let Some(t) = transpose_only_fusion(raw::operands(fusion)[index as usize]) else { return false };
    let Some(mut dn) = DotGeneralOp::cast(dot).and_then(|d| d.dimension_numbers()) else { return false };
    let (batch, contracting) = if side == 0 {
        (&mut dn.lhs_batching_dims, &mut dn.lhs_contracting_dims)
    } else {
        (&mut dn.rhs_batching_dims, &mut dn.rhs_contracting_dims)
    };
    let (Some(b), Some(c)) = (through(&t.permutation, batch), through(&t.permutation, contracting)) else { return false };
    // The free dims come out of the dot in the operand's dim order: folding
    // is only the same array when the transpose keeps them in order.
    let free: Vec<i64> = (0..t.permutation.len() as i64)
        .filter(|d| !batch.contains(d) && !contracting.contains(d))
        .map(|d| t.permutation[d as usize])
        .collect();
    if !free.windows(2).all(|w| w[0] < w[1]) {
        return false;
    }
    (*batch, *contracting) = (b, c);
    // SAFETY: `dot` and `fusion` are live; `arg` is the body's argument `index`, which the indexing
    // of `raw::operands(fusion)` above showed to be an operand index of `fusion`; the attribute is
    // built in `dot`'s context; `t.input` is a live value. The transpose fusion is destroyed only
    // when its result has no use left, and its handle is not used again: it precedes its consumer,
    // so the loop in `run` has visited it already.
    unsafe {
        let ctx = mlirOperationGetContext(dot);
        mlirOperationSetAttributeByName(dot, sref("dot_dimension_numbers"), dn.to_attr(ctx));
        mlirOperationSetOperand(fusion, index, t.input);
        mlirValueSetType(arg, mlirValueGetType(t.input));
        if raw::uses(raw::results(t.fusion)[0]).is_empty() {
            mlirOperationDestroy(t.fusion);
        }
    }
    true
}

impl FloorsPass for CpuFoldTransposes {
    const ARGUMENT: &'static str = "floors-cpu-fold-transposes";
    const NAME: &'static str = "FloorsCpuFoldTransposes";
    const DESCRIPTION: &'static str = "Read a gemm fusion's dot operand from the input of the transpose-only fusion that produces it, \
         the permutation folded into the dot's dimension numbers (XLA's TransposeFolding)";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let fusions = floors_ir::ir::collect_ops(&op, |o| floors_ir::ir::op_name(&o) == "floors.fusion");
        let mut folded = 0;
        // A folded transpose fusion is erased when its consumer is folded;
        // it precedes that consumer, so it has been visited already.
        for f in fusions {
            let dots: Vec<MlirOperation> =
                raw::region_blocks(f).into_iter().flat_map(raw::block_ops).filter(|&o| raw::name(o) == "stablehlo.dot_general").collect();
            for dot in dots {
                for side in 0..2 {
                    folded += fold(f, dot, side) as usize;
                }
            }
        }
        tracing::debug!("floors-cpu-fold-transposes: {folded} transposes folded");
        Ok(())
    }
}
