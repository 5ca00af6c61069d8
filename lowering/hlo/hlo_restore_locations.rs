//! `floors-hlo-restore-locations`: every op gets a source location again.
//!
//! MLIR's folder gives a constant it deduplicates (canonicalize, CSE) an
//! unknown location, so a later error about it (an element type a floor
//! cannot lower, say) would read `<unknown>: error:`. This pass, at the end
//! of `floors-hlo-cleanup`, gives each op whose location is unknown the
//! location of its first user (in walk order of the uses), else of its
//! parent op; ops are visited users-first so chains of such ops resolve.

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloRestoreLocations;

fn is_unknown(loc: MlirLocation) -> bool {
    // SAFETY: `loc` is the location of a live op; the unknown location is made in that location's own context.
    unsafe { mlirLocationEqual(loc, mlirLocationUnknownGet(mlirLocationGetContext(loc))) }
}

fn all_ops(op: MlirOperation, out: &mut Vec<MlirOperation>) {
    for block in raw::region_blocks(op) {
        for o in raw::block_ops(block) {
            out.push(o);
            all_ops(o, out);
        }
    }
}

/// A known location for `op`: a user's, else the parent's; None if neither has one.
fn borrowed_location(op: MlirOperation) -> Option<MlirLocation> {
    let from_users = raw::results(op)
        .into_iter()
        .flat_map(raw::uses)
        // SAFETY: `user` owns a use of a result of `op`: a live op of the same IR.
        .map(|(user, _)| unsafe { mlirOperationGetLocation(user) })
        .find(|&l| !is_unknown(l));
    from_users.or_else(|| {
        // SAFETY: `op` is a live op collected by `all_ops` under the pass's root.
        let parent = unsafe { mlirOperationGetParentOperation(op) };
        // SAFETY: the closure runs only when `parent` is non-null; it is then the live parent of `op`.
        (!parent.ptr.is_null()).then(|| unsafe { mlirOperationGetLocation(parent) }).filter(|&l| !is_unknown(l))
    })
}

/// Ops given a location.
pub fn restore(root: MlirOperation) -> usize {
    let mut ops = Vec::new();
    all_ops(root, &mut ops);
    let mut fixed = 0;
    // Users come after their operands' producers in a block: backwards, a
    // user has its location before its producers ask for it.
    for &op in ops.iter().rev() {
        // SAFETY: `op` is a live op collected by `all_ops`; this pass only changes locations, so every collected op
        // stays live.
        if is_unknown(unsafe { mlirOperationGetLocation(op) })
            && let Some(loc) = borrowed_location(op)
        {
            // SAFETY: as above: `op` is live, and `loc` is a location of the same context (a user's or the parent's).
            unsafe { mlirOperationSetLocation(op, loc) };
            fixed += 1;
        }
    }
    fixed
}

impl FloorsPass for HloRestoreLocations {
    const ARGUMENT: &'static str = "floors-hlo-restore-locations";
    const NAME: &'static str = "FloorsHloRestoreLocations";
    const DESCRIPTION: &'static str = "Give ops with an unknown location (constants merged by the folder) their first user's";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = restore(op.to_raw());
        tracing::debug!("floors-hlo-restore-locations: {n} ops located");
        Ok(())
    }
}
