//! Non-temporal (streaming) stores for big kernel outputs.
//!
//! A kernel that writes a big output once and never reads it back (an
//! elementwise chain over 64 MB, a layernorm's 16 MB result) pays for every
//! stored cache line twice with plain stores: the line is first read into
//! the cache (write-allocate), then written back. Non-temporal stores
//! (`vmovntps`) write whole lines straight to memory: a 64 MB AVX-512 store
//! loop measured 4.4–4.8 ms plain against 2.8–3.1 ms streamed here, and an
//! `a·b + a` loop over 16 MB outputs 1.85 → 1.40 ms (2 threads). On outputs
//! that fit the caches they are slower (4 MB: 0.075 → 0.154 ms, the next
//! reader misses), hence [`super::streaming::NT_MIN_BYTES`].
//!
//! Aligned `vmovntps` faults on an unaligned address, and LLVM only emits it
//! for stores it knows to be aligned (else it splits them down to scalar
//! `movnti`). So the work is split in two:
//! 1. `floors-cpu-emit-kernel-abi` picks the outputs that may be streamed
//!    ([`super::streaming::streamable_outputs`]: at least [`super::streaming::NT_MIN_BYTES`], only ever the
//!    destination of vector transfers, x86 targets), clones the kernel as
//!    `@fusion_N_nt` with [`super::streaming::NONTEMPORAL_ATTR`] naming those arguments, and
//!    makes the entry point call the clone only when every such pointer is
//!    64-byte aligned (the runtime's buffers are: `AlignedBuffer`), telling
//!    LLVM so (`llvm.assume` "align"), and fence (`sfence`) after it, so the
//!    streamed lines are visible before the thunk reports completion. Any
//!    other caller's buffers take the plain kernel.
//! 2. This pass (`floors-cpu-nontemporal-stores`, after
//!    `convert-vector-to-scf`, when transfers are 1-D) rewrites, in those
//!    clones only, every 1-D, unmasked, in-bounds, unit-stride
//!    `vector.transfer_write` of whole cache lines (64·k bytes) into such an
//!    argument (directly or through subviews) as `vector.store {nontemporal
//!    = true}`. LLVM's alignment inference then proves the stores aligned
//!    from the assumption and the loop offsets.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::streaming::{NONTEMPORAL_ATTR, writes_into};
use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure},
};

/// Whether a 1-D transfer write may become a streaming store: no mask,
/// in bounds, the vector along the innermost (unit-stride) dimension, whole
/// 64-byte lines.
fn streamable(tw: MlirOperation) -> bool {
    if raw::name(tw) != "vector.transfer_write" || !raw::results(tw).is_empty() {
        return false;
    }
    let ops = raw::operands(tw);
    // SAFETY: `tw` is a live transfer_write, whose operands 0 and 1 are the vector and the
    // destination. The shaped getters run after the vector and memref checks, with dim 0 of a
    // rank-1 vector; `in_bounds` (a BoolArrayAttr) and `permutation_map` (an AffineMapAttr) have
    // those kinds by the op's definition; the layout is read as an affine map or strided layout
    // only after the matching check, and stride `rank - 1` is below the memref's rank.
    unsafe {
        let (vt, mt) = (mlirValueGetType(ops[0]), mlirValueGetType(ops[1]));
        if !mlirTypeIsAVector(vt) || mlirShapedTypeGetRank(vt) != 1 || !mlirTypeIsAMemRef(mt) {
            return false;
        }
        let rank = mlirShapedTypeGetRank(mt);
        // value, destination, one index per dimension: no mask.
        if rank < 1 || ops.len() != 2 + rank as usize {
            return false;
        }
        let line_multiple = (mlirShapedTypeGetDimSize(vt, 0) as u64 * raw::element_bytes(vt)).is_multiple_of(64);
        let in_bounds = raw::attr(tw, "in_bounds").is_some_and(|a| {
            mlirAttributeIsAArray(a) && (0..mlirArrayAttrGetNumElements(a)).all(|i| mlirBoolAttrGetValue(mlirArrayAttrGetElement(a, i)))
        });
        let minor = raw::attr(tw, "permutation_map").is_some_and(|a| {
            let m = mlirAffineMapAttrGetValue(a);
            mlirAffineMapIsMinorIdentity(m) && mlirAffineMapGetNumResults(m) == 1
        });
        let layout = mlirMemRefTypeGetLayout(mt);
        let unit_stride = layout.ptr.is_null()
            || (mlirAttributeIsAAffineMap(layout) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout)))
            || (mlirAttributeIsAStridedLayout(layout) && mlirStridedLayoutAttrGetStride(layout, (rank - 1) as isize) == 1);
        line_multiple && in_bounds && minor && unit_stride
    }
}

/// `vector.store %v, %dest[%i...] {nontemporal = true}` in place of `tw`.
fn to_streaming_store(tw: MlirOperation) -> bool {
    let ops = raw::operands(tw);
    // SAFETY: `tw` is a live transfer_write with no results (`streamable` checked it). The state
    // copies the operands and the attribute (`ops` and `named` outlive the calls); the new store is
    // checked non-null and inserted into `tw`'s block, which owns it; then `tw` is destroyed, which
    // leaves no use behind, and its handle is not used again.
    unsafe {
        let ctx = mlirOperationGetContext(tw);
        let mut state = mlirOperationStateGet(sref("vector.store"), mlirOperationGetLocation(tw));
        mlirOperationStateAddOperands(&mut state, ops.len() as isize, ops.as_ptr());
        let named = [mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("nontemporal")), mlirBoolAttrGet(ctx, 1))];
        mlirOperationStateAddAttributes(&mut state, 1, named.as_ptr());
        let store = mlirOperationCreate(&mut state);
        if store.ptr.is_null() {
            return false;
        }
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(tw), tw, store);
        mlirOperationDestroy(tw);
    }
    true
}

#[derive(Clone, Default)]
pub struct CpuNontemporalStores;

impl FloorsPass for CpuNontemporalStores {
    const ARGUMENT: &'static str = "floors-cpu-nontemporal-stores";
    const NAME: &'static str = "FloorsCpuNontemporalStores";
    const DESCRIPTION: &'static str = "In kernel clones marked floors.nontemporal, write the marked (big, write-only) arguments with \
         non-temporal vector stores (run after convert-vector-to-scf{full-unroll=true})";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: the getter takes nothing and returns the static handle of the vector dialect,
        // linked into this binary.
        vec![unsafe { DialectHandle::from_raw(mlirGetDialectHandle__vector__()) }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        // SAFETY: `root` is the live `builtin.module` the pass runs on, which has one region.
        let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0)) };
        for f in raw::block_ops(body) {
            let Some(args) = raw::i64_array(f, NONTEMPORAL_ATTR) else { continue };
            let Some(&entry) = raw::region_blocks(f).first() else { continue };
            for i in args {
                // SAFETY: `entry` is the entry block of the live function `f`.
                if i < 0 || i >= unsafe { mlirBlockGetNumArguments(entry) } as i64 {
                    return Err(floors_ir::pass::fail_at(f, format!("{NONTEMPORAL_ATTR}: argument {i} out of range")));
                }
                let mut writes = Vec::new();
                // Writes only, as when the clone was made; a later pass that
                // added a read would make streaming wrong, so then keep all.
                // SAFETY: `i` is in 0..the argument count (checked above).
                if writes_into(unsafe { mlirBlockGetArgument(entry, i as isize) }, &mut writes).is_none() {
                    continue;
                }
                for tw in writes.into_iter().filter(|&w| streamable(w)) {
                    if !to_streaming_store(tw) {
                        return Err(floors_ir::pass::fail_at(f, "internal error: a vector.store does not build"));
                    }
                }
            }
            // SAFETY: `f` is a live function of the module; the name is a Rust string that outlives
            // the call.
            unsafe { mlirOperationRemoveAttributeByName(f, sref(NONTEMPORAL_ATTR)) };
        }
        Ok(())
    }
}
