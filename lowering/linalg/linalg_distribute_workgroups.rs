//! `floors-linalg-distribute-workgroups`: split a kernel into workgroups, so
//! the runtime can run one kernel on several threads (XLA:CPU's parallel loop
//! emitter partitions the outer dimension the same way).
//!
//! This is step 2 of three (see [`crate::workgroups`]: the
//! grid is chosen when kernels are outlined, and a floor's kernel ABI pass
//! binds the workgroup loop after bufferization). On tensors, the root of
//! every kernel with `floors.grid = G` is tiled with `scf.forall` into G
//! chunks of its split loop with every producer fused into the chunk
//! (`transform.structured.fuse {use_forall}`), and the forall is marked
//! `floors.workgroups`. Producers that cannot be fused stay before the
//! forall: every workgroup computes them whole (redundant, never wrong).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    contract::{FORALL_ATTR, GRID_ATTR, SERIAL_ATTR},
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::workgroups::{int_attr, root_of, split_of};

/// Tags while the transform script runs.
const ROOT_TAG: &str = "floors.distribute";

#[derive(Clone, Default)]
pub struct LinalgDistributeWorkgroups;

/// The transform script; kernel i is (grid, split loop, its bound, number
/// of loops). `transform.structured.fuse` tiles the root and fuses every
/// producer use by use (so a value two consumers read is fused twice; CSE
/// merges the copies and DCE drops the whole-tensor originals).
/// (`fuse_into_containing_op` fuses a producer for one use only and would
/// leave the other consumers reading the original, computed whole by every
/// workgroup.)
fn script(kernels: &[(i64, usize, i64, usize)]) -> String {
    let mut s = String::from(
        "module attributes {transform.with_named_sequence} {\n  \
         transform.named_sequence @__floors_distribute(%root: !transform.any_op {transform.readonly}) {\n",
    );
    for (i, &(g, dim, bound, loops)) in kernels.iter().enumerate() {
        let mut tile = vec!["0".to_string(); loops];
        tile[dim] = (bound / g).to_string();
        s.push_str(&format!(
            "    %r{i} = transform.structured.match attributes {{{ROOT_TAG} = {i} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n    \
             %t{i}, %f{i} = transform.structured.fuse %r{i} tile_sizes [{}] {{use_forall}} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n    \
             transform.annotate %f{i} \"{FORALL_ATTR}\" : !transform.any_op\n",
            tile.join(", ")
        ));
    }
    s.push_str("    transform.apply_dce to %root : !transform.any_op\n    transform.apply_cse to %root : !transform.any_op\n");
    s.push_str("    transform.yield\n  }\n}\n");
    s
}

fn set_int(op: MlirOperation, name: &str, v: i64) {
    // SAFETY: `op` is a live op (a kernel's root); the attribute is built in its context and the
    // name outlives the call.
    unsafe {
        let ctx = mlirOperationGetContext(op);
        mlirOperationSetAttributeByName(op, sref(name), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v));
    }
}

impl FloorsPass for LinalgDistributeWorkgroups {
    const ARGUMENT: &'static str = "floors-linalg-distribute-workgroups";
    const NAME: &'static str = "FloorsLinalgDistributeWorkgroups";
    const DESCRIPTION: &'static str = "Tile the root of every kernel with floors.grid = G into G scf.forall chunks of its \
         outer dimension and fuse its producers into the chunk (one chunk per workgroup)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: each getter takes nothing and returns the static handle of a dialect linked into
        // this binary.
        unsafe {
            vec![
                DialectHandle::from_raw(mlirGetDialectHandle__transform__()),
                DialectHandle::from_raw(mlirGetDialectHandle__scf__()),
                DialectHandle::from_raw(mlirGetDialectHandle__tensor__()),
                DialectHandle::from_raw(mlirGetDialectHandle__affine__()),
                DialectHandle::from_raw(mlirGetDialectHandle__linalg__()),
                DialectHandle::arith(),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let module = op.to_raw();
        let funcs = floors_ir::ir::collect_ops(&op, |o| floors_ir::ir::op_name(&o) == "func.func");
        let mut kernels = Vec::new();
        for f in funcs {
            let Some(g) = int_attr(f, GRID_ATTR).filter(|&g| g > 1) else { continue };
            let name = raw::str_attr(f, "sym_name").unwrap_or_default();
            // Elementwise fusion and its folds can change a kernel after its
            // grid was chosen (a max(-inf, x) folds to a copy): a kernel that
            // can no longer be split runs whole in workgroup 0, the others
            // return at once.
            let plan = root_of(f).and_then(|root| split_of(root).map(|split| (root, split)));
            let Some((root, split)) = plan.filter(|(_, split)| split.bounds[split.dim] % g == 0) else {
                tracing::debug!("@{name}: {GRID_ATTR} = {g} but no longer splittable; workgroup 0 runs it");
                // SAFETY: `f` is a live function of the module; the unit attribute is of its
                // context and the name outlives the call.
                unsafe { mlirOperationSetAttributeByName(f, sref(SERIAL_ATTR), mlirUnitAttrGet(mlirOperationGetContext(f))) };
                continue;
            };
            let i = kernels.len() as i64;
            set_int(root, ROOT_TAG, i);
            kernels.push((g, split.dim, split.bounds[split.dim], split.bounds.len()));
        }
        if kernels.is_empty() {
            return Ok(());
        }
        let text = script(&kernels);
        // SAFETY: `module` is the op the pass runs on; ops it rewrote are found
        // again by their tag below, no handle from before is used.
        match unsafe { raw::apply_transform_script(module, &text, "floors-linalg-distribute-workgroups") } {
            Ok(()) => {}
            Err(Some(text)) => return Err(fail(module, format!("internal error: the distribution script does not parse:\n{text}"))),
            Err(None) => return Err(fail(module, "distributing kernels into workgroups failed (see the diagnostics above)")),
        }
        for o in floors_ir::ir::collect_ops(&op, |o| raw::attr(o.to_raw(), ROOT_TAG).is_some()) {
            // SAFETY: `o` is a live op, just collected by its tag after the script ran.
            unsafe { mlirOperationRemoveAttributeByName(o, sref(ROOT_TAG)) };
        }
        Ok(())
    }
}
