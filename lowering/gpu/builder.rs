//! The GPU emitters' IR helpers: the shared op builder
//! ([`floors_ir::op_builder`]), region arguments, scoped use replacement,
//! constants, grid-stride launch dimensions.

use mlir_sys::*;

pub use floors_ir::op_builder::{Builder, RegionSpec};

use floors_ir::{ir::raw, target::GpuTarget};

/// The `i`-th argument of block 0 of region `r` of `op`.
pub fn region_arg(op: MlirOperation, r: isize, i: isize) -> MlirValue {
    // SAFETY: `op` is a live op its caller just created or matched (a gpu.launch, an scf.for) whose region `r` has an
    // entry block with more than `i` arguments; the callers' indices are not checked here.
    unsafe { mlirBlockGetArgument(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)), i) }
}

/// Replaces the uses of `from` that lie inside `scope` with `to`.
pub fn replace_uses_within(from: MlirValue, to: MlirValue, scope: MlirOperation) {
    for (user, i) in raw::uses(from) {
        if raw::is_within(user, scope) {
            // SAFETY: `(user, i)` is a live use of `from` just listed by `raw::uses`, so `i` is an operand index of
            // `user`; `to` is a live value.
            unsafe { mlirOperationSetOperand(user, i, to) };
        }
    }
}

/// The integer value of an `arith.constant` producing `v`.
pub fn constant_int(v: MlirValue) -> Option<i64> {
    let p = raw::producer(v)?;
    if raw::name(p) != "arith.constant" {
        return None;
    }
    let a = raw::attr(p, "value")?;
    // SAFETY: `a` is the non-null `value` of the live `arith.constant` `p`, checked to be an IntegerAttr before its
    // value is read.
    unsafe { mlirAttributeIsAInteger(a).then(|| mlirIntegerAttrGetValueInt(a)) }
}

/// Threads per block for grid-stride launches.
pub const BLOCK_THREADS: i64 = 256;

/// Launch dimensions for `total` points: (grid, block).
pub fn grid_stride_dims(total: i64, target: &GpuTarget) -> (i64, i64) {
    let d = &target.device;
    let warp = d.warp_size as i64;
    let block = BLOCK_THREADS.min(((total + warp - 1) / warp).max(1) * warp).min(d.max_threads_per_block as i64);
    let wave = d.sm_count as i64 * d.blocks_per_sm(block as u32, 0, 32) as i64;
    let grid = ((total + block - 1) / block).clamp(1, wave.max(1));
    (grid, block)
}

/// Every op nested in `op` (pre-order).
pub fn all_ops(op: MlirOperation) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    fn walk(op: MlirOperation, out: &mut Vec<MlirOperation>) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                out.push(o);
                walk(o, out);
            }
        }
    }
    walk(op, &mut out);
    out
}
