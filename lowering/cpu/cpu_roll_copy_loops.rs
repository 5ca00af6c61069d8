//! Loops that only move data stay rolled in LLVM.
//!
//! A packed matmul's workgroup copies B's panels (a 16 × 1024 nest of
//! 128-byte row copies) and zero-fills its C tiles (a 3-deep nest of vector
//! stores in each cache tile). LLVM's full and partial unrolling turned
//! such nests into most of a kernel's machine instructions (16 copies of
//! the unrolled copy loop; 512 stores of the fill in one block), and
//! instruction selection and the schedulers, superlinear in block size,
//! spent most of the compile on them (the fill alone: 0.06 → 0.41 s for
//! the bench matmul, most of it in the post-RA scheduler's dependence
//! graph). Such loops are bound by memory, not by loop overhead, so
//! unrolling buys nothing at run time.
//!
//! This pass (`floors-cpu-roll-copy-loops`, on a function, after the loops
//! are explicit: `convert-linalg-to-loops` and `convert-vector-to-scf`)
//! marks every `scf.for` that yields nothing and whose body computes
//! nothing (`llvm.loop_annotation` with unrolling disabled;
//! `convert-scf-to-cf` carries it to the loop's back edge). "Computes" means an `arith` or
//! `math` op, other than a constant, with a float or vector result, or one
//! of the vector dialect's arithmetic ops: what is left is loads, stores,
//! copies, views, index arithmetic, and vector shuffles. Loops that already
//! carry an annotation (`floors-cpu-tile-and-vectorize` keeps wide compute
//! loops rolled) keep theirs.

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

/// Vector-dialect ops that compute (the rest of the dialect moves data).
const VECTOR_ARITHMETIC: &[&str] =
    &["vector.fma", "vector.contract", "vector.outerproduct", "vector.reduction", "vector.multi_reduction", "vector.scan"];

/// Whether `op` computes: see the module doc.
fn computes(op: MlirOperation) -> bool {
    let name = raw::name(op);
    if VECTOR_ARITHMETIC.contains(&name.as_str()) {
        return true;
    }
    if !(name.starts_with("arith.") || name.starts_with("math.")) || name == "arith.constant" {
        return false;
    }
    // SAFETY: `v` is a result of the live op `op`, a value of the function the pass runs on.
    raw::results(op).into_iter().any(|v| unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsAVector(t) || mlirTypeIsAFloat(t)
    })
}

/// Whether anything nested in `op` computes.
fn body_computes(op: MlirOperation) -> bool {
    raw::region_blocks(op).into_iter().flat_map(raw::block_ops).any(|o| computes(o) || body_computes(o))
}

/// Marks the data-only loops nested in `op` that yield nothing (they only
/// write memory). A data-only loop that yields values is part of the
/// compute around it and must unroll: a direct convolution gathers eight
/// inputs into a vector per step, and rolled, its dynamic `vector.insert`
/// positions would go through memory.
fn roll_data_only_nests(op: MlirOperation) -> Result<(), PassFailure> {
    for o in raw::region_blocks(op).into_iter().flat_map(raw::block_ops) {
        if raw::name(o) == "scf.for" && raw::results(o).is_empty() && raw::attr(o, super::LOOP_ANNOTATION).is_none() && !body_computes(o) {
            super::keep_rolled(o)?;
        }
        roll_data_only_nests(o)?;
    }
    Ok(())
}

#[derive(Clone, Default)]
pub struct CpuRollCopyLoops;

impl FloorsPass for CpuRollCopyLoops {
    const ARGUMENT: &'static str = "floors-cpu-roll-copy-loops";
    const NAME: &'static str = "FloorsCpuRollCopyLoops";
    const DESCRIPTION: &'static str = "Mark scf.for loops that only move data (copies, fills, views; no arithmetic on floats or vectors) \
         not to be unrolled by LLVM (run after the loops are explicit)";
    const ANCHOR: &'static str = "func.func";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        roll_data_only_nests(op.to_raw())?;
        Ok(())
    }
}
