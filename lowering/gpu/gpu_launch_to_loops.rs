//! `floors-gpu-launch-to-loops`: a test pass that runs every `gpu.launch`
//! as host loops (block ids, then thread ids, all sequential), so the
//! index arithmetic of launches `floors-gpu-emit-kernels` built can be
//! checked numerically on the CPU (lit, `mlir-runner`) without a GPU.
//!
//! Sequential threads are only faithful when threads do not talk to each
//! other: a launch with `gpu.barrier`, `gpu.shuffle` or workgroup memory
//! is a located error (the loop, concatenate, input-slices and scatter
//! emitters' launches qualify; the reduction, transpose and GEMM ones do
//! not). It also drops the `floors.*` attributes, so that `mlir-runner`,
//! which does not know the floors dialect, loads the result.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::{
    builder::{Builder, all_ops, region_arg},
    launch::create_for,
};
use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

#[derive(Clone, Default)]
pub struct GpuLaunchToLoops;

impl FloorsPass for GpuLaunchToLoops {
    const ARGUMENT: &'static str = "floors-gpu-launch-to-loops";
    const NAME: &'static str = "FloorsGpuLaunchToLoops";
    const DESCRIPTION: &'static str =
        "Test pass: run each gpu.launch as sequential host loops over blocks and threads (no barriers, shuffles or workgroup memory)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![DialectHandle::scf(), DialectHandle::arith()]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let launches: Vec<MlirOperation> = all_ops(op.to_raw()).into_iter().filter(|&o| raw::name(o) == "gpu.launch").collect();
        for l in launches {
            to_loops(l)?;
        }
        let root = op.to_raw();
        for o in std::iter::once(root).chain(all_ops(root)) {
            // SAFETY: `o` is the live root or an op nested in it (from the walk just made).
            let names: Vec<String> = (0..unsafe { mlirOperationGetNumAttributes(o) })
                // SAFETY: `i` is below the attribute count of the live `o`; the name is copied at once.
                .map(|i| raw::string(unsafe { mlirIdentifierStr(mlirOperationGetAttribute(o, i).name) }))
                .filter(|n| n.starts_with("floors."))
                .collect();
            for n in names {
                // SAFETY: `o` is live and `n` one of its attribute names, copied above into a Rust string that outlives
                // the call.
                unsafe { mlirOperationRemoveAttributeByName(o, sref(&n)) };
            }
        }
        Ok(())
    }
}

fn to_loops(launch: MlirOperation) -> Result<(), PassFailure> {
    if let Some(o) = all_ops(launch).into_iter().find(|&o| matches!(raw::name(o).as_str(), "gpu.barrier" | "gpu.shuffle")) {
        return Err(fail(o, format!("'{}' needs threads running together: no sequential host version", raw::name(o))));
    }
    if raw::region_blocks(launch).len() != 1 {
        return Err(fail(launch, "a launch body of several blocks has no sequential host version"));
    }
    // SAFETY: `launch` is a live gpu.launch with one region, which holds one block (checked above).
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(launch, 0)) };
    // SAFETY: `body` is the launch's live entry block.
    if unsafe { mlirBlockGetNumArguments(body) } != 12 {
        return Err(fail(launch, "a launch with workgroup or private memory has no sequential host version"));
    }
    // Operands: (async deps,) grid x y z, block x y z (then cluster / dynamic shared memory, absent here).
    let operands = raw::operands(launch);
    if operands.len() != 6 {
        return Err(fail(launch, "only launches with grid and block sizes and nothing else have a sequential host version"));
    }
    let b = Builder::before(launch);
    let zero = b.index_const(0);
    let one = b.index_const(1);
    // Block ids (args 0-2) outermost, then thread ids (args 3-5); args 6-11 are the sizes.
    let mut inner = b;
    for (arg, &size) in operands.iter().enumerate() {
        let (_, fb, iv, _) = create_for(&inner, zero, size, one, &[]);
        // SAFETY: the body has 12 arguments (checked above) and `arg` < 6, so `arg` and `arg + 6` are argument indices;
        // `iv` (the new loop's) and `size` (the launch's operand) are live index values.
        unsafe {
            mlirValueReplaceAllUsesOfWith(region_arg(launch, 0, arg as isize), iv);
            mlirValueReplaceAllUsesOfWith(region_arg(launch, 0, arg as isize + 6), size);
        }
        inner = fb;
    }
    for o in raw::block_ops(body) {
        if raw::name(o) != "gpu.terminator" {
            inner.move_here(o);
        }
    }
    // SAFETY: `launch` is live, its body's ops were moved into the loops and its arguments have no uses left; a launch
    // has no result but the async token of `gpu.launch async`, which floors never builds (its uses are not checked).
    unsafe { mlirOperationDestroy(launch) };
    Ok(())
}
