//! `floors-cpu-legalize-bf16-vectors`: bf16 vectors whose length is not a
//! power of two carried as i16 vectors in the LLVM dialect.
//!
//! On a target with AVX-512 BF16 (Zen 4, Sapphire Rapids), LLVM 22's x86
//! backend treats bf16 vectors as (partly) legal and aborts the process on
//! an odd-length one that is only moved, not converted: a `<25 x bfloat>`
//! load then store, or a `select` of two (`jnp.broadcast_to` or `jnp.where`
//! on a bf16 array whose last dim is 25) end in "LLVM ERROR: Do not know how
//! to soft promote this operator's operand!". The same vectors of i16 are
//! plain integer vectors every target widens. After `arith-expand` bf16
//! arithmetic is integer bit operations already, so the bf16 values left are
//! moved (loaded, stored, selected, shuffled, packed in arrays, carried
//! through blocks), which is the same on i16. This pass retypes every such
//! value to the i16 vector of the same length; ops that do care about the
//! float type (an `fpext`, which the backend does handle) keep bf16 through
//! a `bitcast` on each side. Vectors of 2^k lanes are left alone (they are
//! legal, and the bf16 dot products take them).

use std::collections::HashMap;

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    capi,
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

#[derive(Clone, Default)]
pub struct CpuLegalizeBf16Vectors;

/// Ops that only move their values: retyping their bf16 vectors to i16
/// changes nothing they compute.
const MOVES: &[&str] = &[
    "llvm.load",
    "llvm.store",
    "llvm.select",
    "llvm.bitcast",
    "llvm.freeze",
    "llvm.insertelement",
    "llvm.extractelement",
    "llvm.shufflevector",
    "llvm.extractvalue",
    "llvm.insertvalue",
    "llvm.mlir.poison",
    "llvm.mlir.undef",
    "llvm.mlir.zero",
    "llvm.mlir.constant",
    "llvm.br",
    "llvm.cond_br",
    "llvm.intr.masked.load",
    "llvm.intr.masked.store",
];

/// The i16 vector of `t`'s length when `t` is a 1-D bf16 vector.
fn i16_twin(t: MlirType) -> Option<MlirType> {
    // SAFETY: `t` is a live type; rank, element type and dim 0 are read only after
    // `mlirTypeIsAVector` (the dim after the rank is checked to be 1); `shape` lives for the call,
    // which copies it; the i16 type is made in `t`'s context.
    unsafe {
        (mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 1 && mlirTypeIsABF16(mlirShapedTypeGetElementType(t))).then(|| {
            let shape = [mlirShapedTypeGetDimSize(t, 0)];
            mlirVectorTypeGet(1, shape.as_ptr(), mlirIntegerTypeGet(mlirTypeGetContext(t), 16))
        })
    }
}

/// `t` with every 1-D bf16 vector of a non-power-of-two length (also inside
/// LLVM arrays) made an i16 vector; None when `t` has none.
fn legal_type(t: MlirType) -> Option<MlirType> {
    // SAFETY: the array getters run only after `floorsTypeIsALLVMArray(t)`; the new array type is
    // made from a type of the same context.
    unsafe {
        if capi::floorsTypeIsALLVMArray(t) {
            let inner = legal_type(mlirLLVMArrayTypeGetElementType(t))?;
            return Some(mlirLLVMArrayTypeGet(inner, capi::floorsLLVMArrayTypeGetNumElements(t)));
        }
    }
    // SAFETY: the filter runs only when `i16_twin(t)` is Some, so `t` is a vector of rank 1 and dim
    // 0 exists.
    i16_twin(t).filter(|_| !(unsafe { mlirShapedTypeGetDimSize(t, 0) } as u64).is_power_of_two())
}

/// `llvm.bitcast %v : from to to`, inserted before `anchor`.
fn bitcast_before(v: MlirValue, to: MlirType, anchor: MlirOperation) -> Result<MlirValue, PassFailure> {
    Ok(bitcast(v, to, anchor, false)?.1)
}

/// Every use of `anchor`'s result `r` read through an `llvm.bitcast` of it
/// to `to`, inserted after `anchor`.
fn bitcast_uses(r: MlirValue, to: MlirType, anchor: MlirOperation) -> Result<(), PassFailure> {
    let (cast, v) = bitcast(r, to, anchor, true)?;
    for (user, index) in raw::uses(r) {
        // SAFETY: `user` (a use of `r`, just listed) and `cast` are live ops.
        if !unsafe { mlirOperationEqual(user, cast) } {
            // SAFETY: `index` is the operand number of that use in `user`; `v`, the cast's result,
            // is live.
            unsafe { mlirOperationSetOperand(user, index, v) };
        }
    }
    Ok(())
}

fn bitcast(v: MlirValue, to: MlirType, anchor: MlirOperation, after: bool) -> Result<(MlirOperation, MlirValue), PassFailure> {
    // SAFETY: `anchor` is a live op in a block; the state reads `v` and `to` through pointers valid
    // for the calls (it copies them); the created op is checked non-null, then inserted into
    // `anchor`'s block, which owns it; result 0 is the one result added above.
    unsafe {
        let mut state = mlirOperationStateGet(sref("llvm.bitcast"), mlirOperationGetLocation(anchor));
        mlirOperationStateAddOperands(&mut state, 1, &v);
        mlirOperationStateAddResults(&mut state, 1, &to);
        let op = mlirOperationCreate(&mut state);
        if op.ptr.is_null() {
            return Err(fail(anchor, "internal error: an llvm.bitcast does not build"));
        }
        let block = mlirOperationGetBlock(anchor);
        if after {
            mlirBlockInsertOwnedOperationAfter(block, anchor, op);
        } else {
            mlirBlockInsertOwnedOperationBefore(block, anchor, op);
        }
        Ok((op, mlirOperationGetResult(op, 0)))
    }
}

fn legalize(root: &OperationRef<'_, '_>) -> Result<(), PassFailure> {
    // SAFETY: `root` is the live op the pass runs on.
    let ctx = unsafe { mlirOperationGetContext(root.to_raw()) };
    // SAFETY: `ctx` is the op's context, live for the pass.
    let (i16, bf16) = unsafe { (mlirIntegerTypeGet(ctx, 16), mlirBF16TypeGet(ctx)) };
    let ops = floors_ir::ir::collect_ops(root, |_| true);
    // Retyped values (block arguments: loop-carried vectors; results of
    // moves) and the bf16 type each had.
    let mut retyped: HashMap<*const std::ffi::c_void, MlirType> = HashMap::new();
    // SAFETY: the closure is given block arguments and results of live ops of `root` (collected
    // above); the new type is of the same context.
    let mut retype = |v: MlirValue| unsafe {
        let t = mlirValueGetType(v);
        if let Some(nt) = legal_type(t) {
            mlirValueSetType(v, nt);
            retyped.insert(v.ptr, t);
        }
    };
    for &o in &ops {
        for b in raw::region_blocks(o) {
            // SAFETY: `b` is a block of the live op `o`.
            for i in 0..unsafe { mlirBlockGetNumArguments(b) } {
                // SAFETY: `i` is below the block's argument count.
                retype(unsafe { mlirBlockGetArgument(b, i) });
            }
        }
        if MOVES.contains(&raw::name(o).as_str()) {
            raw::results(o).into_iter().for_each(&mut retype);
        }
    }
    for &o in &ops {
        match raw::name(o).as_str() {
            "llvm.mlir.constant" => {
                // A dense bf16 vector constant: the same bits as i16.
                let Some(&r) = raw::results(o).first() else { continue };
                if !retyped.contains_key(&r.ptr) {
                    continue;
                }
                // SAFETY: `o` is a live `llvm.mlir.constant`. `value` is read as dense elements
                // only after `mlirAttributeIsADenseElements`, so its type is shaped; its raw data
                // holds one bf16 (2 bytes) per element, one element for a splat, which is exactly
                // the size passed; MLIR checks that size against `bits_type` and copies the bytes.
                // `shape` lives for the type getters, which copy it.
                unsafe {
                    let value = raw::attr(o, "value").filter(|&a| mlirAttributeIsADenseElements(a));
                    let Some(value) = value else {
                        return Err(fail(o, "internal error: a bf16 vector constant that is not dense elements"));
                    };
                    // The attribute's own shape (an n-D vector for an array
                    // of vectors) with i16 elements, the same raw bits.
                    let at = mlirAttributeGetType(value);
                    if !mlirTypeIsABF16(mlirShapedTypeGetElementType(at)) {
                        return Err(fail(o, "internal error: a retyped constant whose elements are not bf16"));
                    }
                    let shape: Vec<i64> = (0..mlirShapedTypeGetRank(at)).map(|d| mlirShapedTypeGetDimSize(at, d as isize)).collect();
                    let bits_type = if mlirTypeIsAVector(at) {
                        mlirVectorTypeGet(shape.len() as isize, shape.as_ptr(), i16)
                    } else {
                        mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), i16, mlirAttributeGetNull())
                    };
                    let elems: i64 = if mlirDenseElementsAttrIsSplat(value) { 1 } else { shape.iter().product() };
                    let bits = mlirDenseElementsAttrRawBufferGet(bits_type, (elems * 2) as usize, mlirDenseElementsAttrGetRawData(value));
                    if bits.ptr.is_null() {
                        return Err(fail(o, "internal error: a bf16 vector constant cannot be rebuilt as i16"));
                    }
                    mlirOperationSetAttributeByName(o, sref("value"), bits);
                }
            }
            "llvm.extractelement" => {
                // An element of an i16 vector is an i16: bitcast to bf16 for the users.
                let (v, r) = (raw::operands(o)[0], raw::results(o)[0]);
                // SAFETY: `r` is the result of the live extractelement `o`.
                if retyped.contains_key(&v.ptr) && unsafe { mlirTypeIsABF16(mlirValueGetType(r)) } {
                    // SAFETY: as above; `i16` is of the same context.
                    unsafe { mlirValueSetType(r, i16) };
                    bitcast_uses(r, bf16, o)?;
                }
            }
            "llvm.insertelement" => {
                let (ops_, r) = (raw::operands(o), raw::results(o)[0]);
                // SAFETY: `ops_[1]` is the inserted value, an operand of the live insertelement
                // `o`.
                if retyped.contains_key(&r.ptr) && unsafe { mlirTypeIsABF16(mlirValueGetType(ops_[1])) } {
                    let bits = bitcast_before(ops_[1], i16, o)?;
                    // SAFETY: operand 1 of `o` exists (it was just read); `bits` is a live value
                    // defined before `o`.
                    unsafe { mlirOperationSetOperand(o, 1, bits) };
                }
            }
            "llvm.shufflevector" | "llvm.select" | "llvm.freeze" => {
                // Their values and result share one element type: a shuffle
                // from an odd-length vector to a 2^k one (or back) mixes a
                // retyped side with a bf16 one; the bf16 side becomes i16
                // through bitcasts (2^k bf16 vectors bitcast fine).
                let ops_ = raw::operands(o);
                let values = if raw::name(o) == "llvm.select" { &ops_[1..] } else { &ops_[..] };
                let r = raw::results(o)[0];
                let mixed = values.iter().chain([&r]).any(|v| retyped.contains_key(&v.ptr));
                if !mixed {
                    continue;
                }
                let first = ops_.len() - values.len();
                for (i, &v) in values.iter().enumerate() {
                    // SAFETY: `v` is an operand of the live op `o`.
                    if let Some(bits) = i16_twin(unsafe { mlirValueGetType(v) }) {
                        let b = bitcast_before(v, bits, o)?;
                        // SAFETY: `first + i` indexes `values`, a suffix of `o`'s operands; `b` is
                        // a live value defined before `o`.
                        unsafe { mlirOperationSetOperand(o, (first + i) as isize, b) };
                    }
                }
                // SAFETY: `r` is result 0 of the live op `o`.
                let t = unsafe { mlirValueGetType(r) };
                if let Some(bits) = i16_twin(t) {
                    // SAFETY: as above; `bits` is of `r`'s context.
                    unsafe { mlirValueSetType(r, bits) };
                    bitcast_uses(r, t, o)?;
                }
            }
            n if MOVES.contains(&n) => {}
            n => {
                // An op that computes on bf16 (an `fpext`, a call): its
                // operands and results stay bf16, a bitcast on each side.
                for (i, v) in raw::operands(o).into_iter().enumerate() {
                    let Some(&orig) = retyped.get(&v.ptr) else { continue };
                    // SAFETY: `orig` is a type recorded from a live value; types live as long as
                    // their context.
                    if unsafe { !mlirTypeIsAVector(orig) } {
                        return Err(fail(o, format!("internal error: '{n}' takes an array of odd-length bf16 vectors")));
                    }
                    let b = bitcast_before(v, orig, o)?;
                    // SAFETY: `i` is the index of this operand of the live op `o`; `b` is a live
                    // value defined before `o`.
                    unsafe { mlirOperationSetOperand(o, i as isize, b) };
                }
                for r in raw::results(o) {
                    // SAFETY: `r` is a result of the live op `o`.
                    let t = unsafe { mlirValueGetType(r) };
                    let Some(nt) = legal_type(t) else { continue };
                    // SAFETY: `t` is that result's type.
                    if unsafe { !mlirTypeIsAVector(t) } {
                        return Err(fail(o, format!("internal error: '{n}' makes an array of odd-length bf16 vectors")));
                    }
                    bitcast_uses(r, nt, o)?;
                }
            }
        }
    }
    Ok(())
}

impl FloorsPass for CpuLegalizeBf16Vectors {
    const ARGUMENT: &'static str = "floors-cpu-legalize-bf16-vectors";
    const NAME: &'static str = "FloorsCpuLegalizeBf16Vectors";
    const DESCRIPTION: &'static str = "In the LLVM dialect, carry bf16 vectors of non-power-of-two length as i16 vectors (LLVM's x86 \
         backend aborts on moving them when the target has AVX-512 BF16)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: the getter takes nothing and returns the static handle of the llvm dialect,
        // linked into this binary.
        vec![unsafe { DialectHandle::from_raw(mlirGetDialectHandle__llvm__()) }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        legalize(&op)
    }
}
