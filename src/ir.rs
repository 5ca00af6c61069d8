//! Small IR helpers over melior/mlir-sys that several passes share.

use melior::ir::{
    BlockLike, OperationRef, RegionLike,
    operation::{OperationLike, OperationPrintingFlags},
};
use mlir_sys::MlirOperation;

/// The op's name as a Rust string.
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.name().as_string_ref().as_str().unwrap_or("<non-utf8>").to_string()
}

/// Every op nested in `root` (not `root` itself), pre-order, as raw handles,
/// collected first so callers may mutate the IR while using them.
pub fn collect_ops<'c: 'a, 'a>(root: &impl OperationLike<'c, 'a>, mut keep: impl FnMut(OperationRef<'c, '_>) -> bool) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    fn rec<'c>(op: OperationRef<'c, '_>, out: &mut Vec<MlirOperation>, keep: &mut dyn FnMut(OperationRef<'c, '_>) -> bool) {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut inner = b.first_operation();
                while let Some(o) = inner {
                    if keep(o) {
                        out.push(o.to_raw());
                    }
                    rec(o, out, keep);
                    inner = o.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    let r = unsafe { OperationRef::from_raw(root.to_raw()) };
    rec(r, &mut out, &mut keep);
    out
}

/// Prints an op in the pretty form with locations elided (what dumps and
/// snapshots show).
pub fn print_op<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.to_string_with_flags(OperationPrintingFlags::new()).unwrap_or_else(|_| op.to_string())
}
