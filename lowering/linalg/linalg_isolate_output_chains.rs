//! `floors-linalg-isolate-output-chains`: every value a kernel writes to an
//! output buffer gets a destination chain of its own, before
//! `eliminate-empty-tensors`.
//!
//! A kernel writes result `i` with `bufferization.materialize_in_destination
//! %v in restrict writable %out_i`; `eliminate-empty-tensors` follows `%v`'s
//! destination operands (a linalg op's init, an `insert_slice`'s dest, a
//! reshape's source) back to a `tensor.empty` and replaces that by
//! `%out_i` itself, so `%v` is computed in place in the output. When a value
//! on that chain has another use — CSE merges the identical `linalg.fill` of
//! two reductions' accumulators, or two ops accumulate into one computed
//! value — one-shot bufferization may compute that other use in place in
//! `%out_i` too, and the write of `%v` into `%out_i` (a memref write it does
//! not track) then overwrites it before it is read: two reductions in one
//! fusion returned the same number (a forward-mode derivative equal to the
//! primal value). So the chain user gets a private copy of the shared value:
//! a clone of a `tensor.empty` or of a `linalg.fill` of one (free: no data
//! moves), else `bufferization.alloc_tensor() copy(%shared)`.
//!
//! A chain that ends in a read-only kernel input it updates (a
//! dynamic_update_slice of an input, not done in place) gets the input
//! copied into a fresh tensor first (`tensor.insert_slice %in into
//! tensor.empty()`): `eliminate-empty-tensors` makes that copy write the
//! output, so the input is copied once, straight into the output, instead
//! of into a temporary and again out.

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure},
};

/// The operand through which `op`'s result `result` is written in place:
/// its destination (DPS init, the tensor an `insert_slice`, `insert` or
/// `transfer_write` writes into, a reshape's or cast's source, a loop's
/// init): the ops `eliminate-empty-tensors` follows, whose result is the
/// same buffer as that operand. Other ops (an `extract_slice`, a new value)
/// end the chain.
fn destination_operand(op: MlirOperation, result: isize) -> Option<isize> {
    let name = raw::name(op);
    // SAFETY: `op` is a live op (a user or producer on an output's chain).
    let (n_ops, n_res) = unsafe { (mlirOperationGetNumOperands(op), mlirOperationGetNumResults(op)) };
    match name.as_str() {
        "tensor.insert_slice" | "tensor.insert" | "vector.transfer_write" => Some(1),
        "tensor.expand_shape" | "tensor.collapse_shape" | "tensor.cast" => Some(0),
        // Lower bound, upper bound, step, then one init per result.
        "scf.for" => Some(3 + result),
        // Structured ops on tensors: one init per result, the last operands.
        n if n.starts_with("linalg.") && n_res > 0 && n_ops >= n_res => Some(n_ops - n_res + result),
        _ => None,
    }
}

/// Clones `op` before `before`.
///
/// # Safety
///
/// `op` and `before` must be live ops; `op`'s operands must dominate `before`.
unsafe fn clone_before(op: MlirOperation, before: MlirOperation) -> MlirOperation {
    // SAFETY: per the contract `op` and `before` are live; the clone is detached until it is
    // inserted into `before`'s block, which then owns it.
    unsafe {
        let c = mlirOperationClone(op);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, c);
        c
    }
}

/// A private copy of `v` for operand `idx` of `user`.
fn isolate(v: MlirValue, user: MlirOperation, idx: isize) {
    // SAFETY: every handle is live; clones are inserted right before `user`,
    // which the originals (and so their operands) dominate.
    unsafe {
        let private = match raw::producer(v) {
            Some(p) if raw::name(p) == "tensor.empty" => mlirOperationGetResult(clone_before(p, user), 0),
            Some(p)
                if raw::name(p) == "linalg.fill" && raw::producer(raw::operands(p)[1]).is_some_and(|e| raw::name(e) == "tensor.empty") =>
            {
                let empty = clone_before(raw::producer(raw::operands(p)[1]).expect("checked"), user);
                let fill = clone_before(p, user);
                mlirOperationSetOperand(fill, 1, mlirOperationGetResult(empty, 0));
                mlirOperationGetResult(fill, 0)
            }
            _ => {
                let ctx = mlirOperationGetContext(user);
                let mut st = mlirOperationStateGet(sref("bufferization.alloc_tensor"), mlirOperationGetLocation(user));
                mlirOperationStateAddOperands(&mut st, 1, &v);
                let ty = mlirValueGetType(v);
                mlirOperationStateAddResults(&mut st, 1, &ty);
                // dynamic_sizes, copy, size_hint.
                let segments = [0i32, 1, 0];
                let attr = mlirNamedAttributeGet(
                    mlirIdentifierGet(ctx, sref("operandSegmentSizes")),
                    mlirDenseI32ArrayGet(ctx, 3, segments.as_ptr()),
                );
                mlirOperationStateAddAttributes(&mut st, 1, &attr);
                let copy = mlirOperationCreate(&mut st);
                mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(user), user, copy);
                mlirOperationGetResult(copy, 0)
            }
        };
        mlirOperationSetOperand(user, idx, private);
    }
}

/// Whether `v` has a use other than operand `idx` of `user` that may hold
/// another value in `v`'s buffer when the outputs are written: a destination
/// (an op may compute in place into it) or the source of an output write.
/// Plain reads happen before the kernel writes its outputs (the writes end
/// the kernel) and are harmless.
fn shares_destination(v: MlirValue, user: MlirOperation, idx: isize) -> bool {
    raw::uses(v).into_iter().any(|(u, i)| {
        if u.ptr == user.ptr && i == idx {
            return false;
        }
        if raw::name(u) == "bufferization.materialize_in_destination" {
            return i == 0;
        }
        // SAFETY: `u` is a live user of `v`.
        let results = unsafe { mlirOperationGetNumResults(u) };
        (0..results).any(|r| destination_operand(u, r) == Some(i))
    })
}

/// `v` is an argument of the kernel function (its inputs are tensors, its
/// outputs memrefs).
fn is_kernel_input(v: MlirValue) -> bool {
    // SAFETY: `v` is a live block argument (it has no producer); its owner block and that block's parent op are
    // read only, and the parent may be null for a detached block, which `raw::name` takes.
    unsafe {
        mlirValueIsABlockArgument(v)
            && raw::name(mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))) == "func.func"
            && mlirTypeIsARankedTensor(mlirValueGetType(v))
    }
}

/// Operand `idx` of `user` becomes `tensor.insert_slice %v into
/// tensor.empty()` over the whole tensor (a copy of `v` whose destination
/// `eliminate-empty-tensors` can replace by the output).
fn copy_into_fresh(v: MlirValue, user: MlirOperation, idx: isize) {
    // SAFETY: every handle is live; the new ops are inserted right before `user`, which `v` dominates; the state
    // copies the arrays, which outlive the calls; `v`'s type is a ranked tensor (`is_kernel_input`) with a static
    // shape (kernel inputs are static: the outline pass checks).
    unsafe {
        let ctx = mlirOperationGetContext(user);
        let loc = mlirOperationGetLocation(user);
        let block = mlirOperationGetBlock(user);
        let ty = mlirValueGetType(v);
        let Some(shape) = raw::type_shape(ty) else { return };
        let mut st = mlirOperationStateGet(sref("tensor.empty"), loc);
        mlirOperationStateAddResults(&mut st, 1, &ty);
        let empty = mlirOperationCreate(&mut st);
        mlirBlockInsertOwnedOperationBefore(block, user, empty);
        let named = |name: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref(name)), a);
        let zeros = vec![0i64; shape.len()];
        let ones = vec![1i64; shape.len()];
        let segments = [1i32, 1, 0, 0, 0];
        let attrs = [
            named("static_offsets", mlirDenseI64ArrayGet(ctx, zeros.len() as isize, zeros.as_ptr())),
            named("static_sizes", mlirDenseI64ArrayGet(ctx, shape.len() as isize, shape.as_ptr())),
            named("static_strides", mlirDenseI64ArrayGet(ctx, ones.len() as isize, ones.as_ptr())),
            named("operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segments.as_ptr())),
        ];
        let mut st = mlirOperationStateGet(sref("tensor.insert_slice"), loc);
        let operands = [v, mlirOperationGetResult(empty, 0)];
        mlirOperationStateAddOperands(&mut st, 2, operands.as_ptr());
        mlirOperationStateAddResults(&mut st, 1, &ty);
        mlirOperationStateAddAttributes(&mut st, attrs.len() as isize, attrs.as_ptr());
        let copy = mlirOperationCreate(&mut st);
        mlirBlockInsertOwnedOperationBefore(block, user, copy);
        mlirOperationSetOperand(user, idx, mlirOperationGetResult(copy, 0));
    }
}

/// Walks the destination chain of `materialize`'s source; the first value on
/// it that another destination shares is replaced, for the chain, by a
/// private copy.
fn isolate_chain(materialize: MlirOperation) {
    let (mut user, mut idx) = (materialize, 0isize);
    let mut v = raw::operands(materialize)[0];
    loop {
        let Some(p) = raw::producer(v) else {
            // A kernel input (read-only) that a chain op updates — a
            // dynamic_update_slice of an input not done in place — is copied
            // into a fresh tensor first, which eliminate-empty-tensors turns
            // into the output: one copy of the input, straight into the
            // output, instead of one into a temporary and another out. A
            // loop's state (another block argument) is not rewritten.
            if user.ptr != materialize.ptr && is_kernel_input(v) {
                copy_into_fresh(v, user, idx);
            }
            return;
        };
        if shares_destination(v, user, idx) {
            isolate(v, user, idx);
            return;
        }
        // SAFETY: `v` is an op result (`raw::producer` found its owner above).
        let result = unsafe { mlirOpResultGetResultNumber(v) };
        let Some(d) = destination_operand(p, result) else { return };
        (user, idx, v) = (p, d, raw::operands(p)[d as usize]);
    }
}

#[derive(Clone, Default)]
pub struct LinalgIsolateOutputChains;

impl FloorsPass for LinalgIsolateOutputChains {
    const ARGUMENT: &'static str = "floors-linalg-isolate-output-chains";
    const NAME: &'static str = "FloorsLinalgIsolateOutputChains";
    const DESCRIPTION: &'static str = "Give each value written to a kernel output a destination chain no other op shares (run before \
         eliminate-empty-tensors, which would otherwise let one output's write clobber a value another output still reads)";
    const ANCHOR: &'static str = "func.func";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let materializes = floors_ir::ir::collect_ops(&op, |o| floors_ir::ir::op_name(&o) == "bufferization.materialize_in_destination");
        for m in materializes {
            isolate_chain(m);
        }
        Ok(())
    }
}
