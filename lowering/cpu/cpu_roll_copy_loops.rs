//! Loops that only move data stay rolled in LLVM.
//!
//! A packed matmul's workgroup copies B's panels (a 16 × 1024 nest of
//! 128-byte row copies) and zero-fills its chunk of C (a 4-deep nest of
//! stores). LLVM's full and partial unrolling turned those two nests into
//! ~900 of the kernel's ~1160 machine instructions (16 copies of the
//! unrolled copy loop, 64 `memset` calls in a row), and instruction
//! selection and loop strength reduction, superlinear in block size, spent
//! most of the kernel's code generation time on them. Such loops are bound
//! by memory, not by loop overhead, so unrolling buys nothing at run time.
//!
//! This pass (`floors-cpu-roll-copy-loops`, on a function, after the loops
//! are explicit: `convert-linalg-to-loops` and `convert-vector-to-scf`)
//! marks every `scf.for` whose body computes nothing and that no computing
//! loop encloses (`llvm.loop_annotation` with unrolling disabled;
//! `convert-scf-to-cf` carries it to the loop's back edge). "Computes" means an `arith` or
//! `math` op, other than a constant, with a float or vector result, or one
//! of the vector dialect's arithmetic ops: what is left is loads, stores,
//! copies, views, index arithmetic, and vector shuffles. Loops that already
//! carry an annotation (`floors-cpu-tile-and-vectorize` keeps wide compute
//! loops rolled) keep theirs.

use melior::ir::OperationRef;
use mlir_sys::*;

use crate::{
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
    raw::results(op).into_iter().any(|v| unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsAVector(t) || mlirTypeIsAFloat(t)
    })
}

/// Whether anything nested in `op` computes.
fn body_computes(op: MlirOperation) -> bool {
    raw::region_blocks(op).into_iter().flat_map(raw::block_ops).any(|o| computes(o) || body_computes(o))
}

/// Marks the data-only loops nested in `op` that no computing loop encloses.
/// A data-only loop inside a computing one (a direct convolution gathering
/// eight inputs into a vector per step) is part of the compute and must
/// unroll: rolled, its dynamic `vector.insert` positions go through memory.
fn roll_data_only_nests(op: MlirOperation) -> Result<(), PassFailure> {
    for o in raw::region_blocks(op).into_iter().flat_map(raw::block_ops) {
        if raw::name(o) == "scf.for" && body_computes(o) {
            continue;
        }
        if raw::name(o) == "scf.for" && raw::attr(o, super::LOOP_ANNOTATION).is_none() {
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
