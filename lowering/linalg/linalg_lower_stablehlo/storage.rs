//! Unsigned integers → their signless storage type, once every op is lowered.
//!
//! MLIR's arith, math, linalg and the LLVM lowering compute on signless
//! integers, so the lowered IR stores `uiN` as `iN`; the unsigned semantics
//! were chosen op by op from the stablehlo types (`scalar`). The templates
//! write storage types, except the ops that may sit at the host level of a
//! fused program (constants, while/case/if), which keep the declared types.
//! This pass step then makes the compute world signless:
//! - the body of every `floors.fusion` (block arguments, every result, and
//!   the value of every unsigned `arith.constant`): the fusion's operands and
//!   results keep the program's types, which the host program reads (a
//!   `uint32` parameter stays `ui32`), and the kernel is outlined with its
//!   body's signless types;
//! - every function without fusions and without host custom calls that
//!   computes something (a function the pass lowered whole, as the lit
//!   tests do), signature included; one that only returns arguments or
//!   constants is a host program and keeps its types.
//!
//! The host level of a fused function (its signature, constants, scf
//! control flow, custom calls) keeps the declared types.

use mlir_sys::*;

use super::common::*;

/// `ui32` → `i32`, `tensor<4xui32>` → `tensor<4xi32>`; None when `t` has no
/// unsigned integer in it.
pub fn storage_type(t: MlirType) -> Option<MlirType> {
    // SAFETY: `t` is a live type; the integer getters run only after `mlirTypeIsAInteger` and the
    // shaped ones after the tensor checks, with `i` below the rank; `shape` lives for the call,
    // which copies it; new types are made in `t`'s context.
    unsafe {
        if mlirTypeIsAInteger(t) {
            if mlirIntegerTypeIsUnsigned(t) {
                return Some(mlirIntegerTypeGet(mlirTypeGetContext(t), mlirIntegerTypeGetWidth(t)));
            }
            return None;
        }
        if mlirTypeIsARankedTensor(t) {
            let e = storage_type(mlirShapedTypeGetElementType(t))?;
            let rank = mlirShapedTypeGetRank(t);
            let shape: Vec<i64> = (0..rank).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect();
            return Some(mlirRankedTensorTypeGet(rank as isize, shape.as_ptr(), e, mlirRankedTensorTypeGetEncoding(t)));
        }
        if mlirTypeIsAUnrankedTensor(t) {
            let e = storage_type(mlirShapedTypeGetElementType(t))?;
            return Some(mlirUnrankedTensorTypeGet(e));
        }
        None
    }
}

fn retype_value(v: MlirValue) {
    // SAFETY: callers pass live values (block arguments and results of the ops being retyped); the
    // new type is of the same context.
    unsafe {
        if let Some(t) = storage_type(mlirValueGetType(v)) {
            mlirValueSetType(v, t);
        }
    }
}

/// An unsigned dense constant's value with the storage element type (the
/// same bytes).
fn retype_constant(op: MlirOperation) -> R<()> {
    // SAFETY: `op` is a live `arith.constant`. `a` is checked non-null, and read as dense elements
    // of a shaped type only after those checks; its element type is an unsigned integer
    // (`storage_type` gave a twin) whose width is a multiple of 8, so its raw data holds `bytes`
    // bytes (one element for a splat); MLIR checks that size against `st` and copies the bytes.
    unsafe {
        let a = mlirOperationGetAttributeByName(op, sref("value"));
        if a.ptr.is_null() {
            return Ok(());
        }
        let t = mlirAttributeGetType(a);
        let Some(st) = storage_type(t) else { return Ok(()) };
        if !mlirAttributeIsADenseElements(a) || !mlirTypeIsAShaped(t) {
            return Err(fail(op, format!("cannot lower a constant {} to signless integers yet", attr_text(a))));
        }
        let width = mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t)) as usize;
        if !width.is_multiple_of(8) {
            return Err(fail(op, format!("cannot lower a constant {} to signless integers yet", attr_text(a))));
        }
        let n = if mlirDenseElementsAttrIsSplat(a) { 1 } else { mlirElementsAttrGetNumElements(a) as usize };
        let bytes = n * width / 8;
        let data = mlirDenseElementsAttrGetRawData(a);
        let b = mlirDenseElementsAttrRawBufferGet(st, bytes, data);
        if b.ptr.is_null() {
            return Err(fail(op, format!("internal error: cannot rebuild constant {} as signless", attr_text(a))));
        }
        mlirOperationSetAttributeByName(op, sref("value"), b);
    }
    Ok(())
}

fn retype_function_type(f: MlirOperation) {
    // SAFETY: `f` is a live `func.func`; the attribute is read as a type only after
    // `mlirAttributeIsAType`, the type as a function type only after `mlirTypeIsAFunction`; indices
    // are below the counts, and `ins` and `outs` live for the call, which copies them.
    unsafe {
        let a = mlirOperationGetAttributeByName(f, sref("function_type"));
        if a.ptr.is_null() || !mlirAttributeIsAType(a) {
            return;
        }
        let ft = mlirTypeAttrGetValue(a);
        if !mlirTypeIsAFunction(ft) {
            return;
        }
        let conv = |t: MlirType| storage_type(t).unwrap_or(t);
        let ins: Vec<MlirType> = (0..mlirFunctionTypeGetNumInputs(ft)).map(|i| conv(mlirFunctionTypeGetInput(ft, i))).collect();
        let outs: Vec<MlirType> = (0..mlirFunctionTypeGetNumResults(ft)).map(|i| conv(mlirFunctionTypeGetResult(ft, i))).collect();
        let nt = mlirFunctionTypeGet(mlirTypeGetContext(ft), ins.len() as isize, ins.as_ptr(), outs.len() as isize, outs.as_ptr());
        mlirOperationSetAttributeByName(f, sref("function_type"), mlirTypeAttrGet(nt));
    }
}

/// Everything inside `op`'s regions (block arguments, results, constants).
fn retype_regions(op: MlirOperation) -> R<()> {
    // SAFETY: `op` is a live op; `r` and `i` are below the region and argument counts.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(op) {
            for b in blocks(mlirOperationGetRegion(op, r)) {
                for i in 0..mlirBlockGetNumArguments(b) {
                    retype_value(mlirBlockGetArgument(b, i));
                }
                for o in block_ops(b) {
                    retype_op(o)?;
                }
            }
        }
    }
    Ok(())
}

/// `op` itself (results, constant value, function type) and its regions.
fn retype_op(op: MlirOperation) -> R<()> {
    // SAFETY: `op` is a live op; `i` is below its result count.
    unsafe {
        for i in 0..mlirOperationGetNumResults(op) {
            retype_value(mlirOperationGetResult(op, i));
        }
    }
    match op_name_raw(op).as_str() {
        "arith.constant" => retype_constant(op)?,
        "func.func" => retype_function_type(op),
        _ => {}
    }
    retype_regions(op)
}

/// Whether `op` holds a fusion or a custom call the runtime calls: then it is
/// a host function whose own values keep the declared types.
fn holds_host_ops(op: MlirOperation) -> bool {
    // SAFETY: `op` is a live op; `r` is below its region count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(op) {
            for b in blocks(mlirOperationGetRegion(op, r)) {
                for o in block_ops(b) {
                    let name = op_name_raw(o);
                    if name == "floors.fusion" || name == "stablehlo.custom_call" || holds_host_ops(o) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Whether every op of `func`'s body is a return or a constant.
fn computes_nothing(func: MlirOperation) -> bool {
    // SAFETY: `func` is a live op; `r` is below its region count.
    unsafe {
        (0..mlirOperationGetNumRegions(func)).all(|r| {
            blocks(mlirOperationGetRegion(func, r)).into_iter().all(|b| {
                block_ops(b).into_iter().all(|o| matches!(op_name_raw(o).as_str(), "func.return" | "arith.constant" | "stablehlo.constant"))
            })
        })
    }
}

/// The bodies of the fusions in `op` (at any depth outside fusions).
fn retype_fusions_in(op: MlirOperation) -> R<()> {
    // SAFETY: `op` is a live op; `r` is below its region count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(op) {
            for b in blocks(mlirOperationGetRegion(op, r)) {
                for o in block_ops(b) {
                    if op_name_raw(o) == "floors.fusion" {
                        retype_regions(o)?;
                    } else {
                        retype_fusions_in(o)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Makes what the pass computes on signless, from the op it ran on (see the
/// module docs).
pub fn to_storage_types(root: MlirOperation) -> R<()> {
    match op_name_raw(root).as_str() {
        "floors.fusion" => retype_regions(root),
        "func.func" => {
            // A function that computes nothing (it returns arguments or
            // constants) is a host program too: its signature is what the
            // caller's arrays are checked against.
            if holds_host_ops(root) || computes_nothing(root) { retype_fusions_in(root) } else { retype_op(root) }
        }
        "builtin.module" => {
            // SAFETY: `root` is a live op; `r` is below its region count.
            unsafe {
                for r in 0..mlirOperationGetNumRegions(root) {
                    for b in blocks(mlirOperationGetRegion(root, r)) {
                        for o in block_ops(b) {
                            to_storage_types(o)?;
                        }
                    }
                }
            }
            Ok(())
        }
        _ => retype_fusions_in(root),
    }
}
