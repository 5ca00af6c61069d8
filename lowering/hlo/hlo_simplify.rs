//! `floors-hlo-simplify`: the StableHLO folds that make fusion's job easier
//! and that upstream's canonicalizer cannot do for a dialect it does not know:
//! - broadcast_in_dim of broadcast_in_dim → one broadcast_in_dim;
//!   an identity broadcast_in_dim (same type, dims 0..n) → its operand;
//! - reshape of reshape → one reshape; a reshape to the same type → its operand;
//! - transpose of transpose → one transpose (none if the permutations cancel);
//! - convert to the operand's own type → its operand;
//! - constant folding of elementwise ops on small constants (at most
//!   `MAX_FOLD_ELEMENTS` elements, f32/f64/i32/i64), e.g. JAX's `sqrt(64.0)`.
//!
//! Dead ops left behind are removed by the canonicalizer that follows.

use super::builder::unused;
use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

/// Larger constants are left alone: folding them would grow the module.
pub const MAX_FOLD_ELEMENTS: i64 = 16;

#[derive(Clone, Default)]
pub struct HloSimplify;

fn replace_with(op: MlirOperation, v: MlirValue) {
    // SAFETY: `op` is a live stablehlo op with at least one result (callers rewrite single-result ops), and `v` a
    // live value of its type.
    unsafe { mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), v) };
}

fn value_type(v: MlirValue) -> MlirType {
    // SAFETY: callers pass live operands and results of ops of the module.
    unsafe { mlirValueGetType(v) }
}

fn same_type(a: MlirValue, b: MlirValue) -> bool {
    // SAFETY: both types are live types of the module's context.
    unsafe { mlirTypeEqual(value_type(a), value_type(b)) }
}

fn set_i64_array(op: MlirOperation, name: &str, values: &[i64]) {
    // SAFETY: `op` is a live op and `ctx` its context; `values` provides `values.len()` elements, which MLIR copies,
    // and `name` outlives the call.
    unsafe {
        let ctx = mlirOperationGetContext(op);
        let attr = mlirDenseI64ArrayGet(ctx, values.len() as isize, values.as_ptr());
        mlirOperationSetAttributeByName(op, raw::sref(name), attr);
    }
}

/// The defining op of operand 0 if it has the given name.
fn operand_producer(op: MlirOperation, name: &str) -> Option<MlirOperation> {
    let v = *raw::operands(op).first()?;
    raw::producer(v).filter(|&p| raw::name(p) == name)
}

/// Elements of a constant op's value as f64 (None unless small and foldable).
#[derive(Clone, Copy, PartialEq)]
enum Elem {
    F32,
    F64,
    I32,
    I64,
}

fn elem_kind(t: MlirType) -> Option<Elem> {
    // SAFETY: callers pass ranked tensor types (of constants already sized by `num_elements`, or the same type), so
    // the element type getter applies; the width is read only of integer types.
    unsafe {
        let e = mlirShapedTypeGetElementType(t);
        if mlirTypeIsAF32(e) {
            Some(Elem::F32)
        } else if mlirTypeIsAF64(e) {
            Some(Elem::F64)
        } else if mlirTypeIsAInteger(e) && mlirIntegerTypeIsSignless(e) && mlirIntegerTypeGetWidth(e) == 32 {
            Some(Elem::I32)
        } else if mlirTypeIsAInteger(e) && mlirIntegerTypeIsSignless(e) && mlirIntegerTypeGetWidth(e) == 64 {
            Some(Elem::I64)
        } else {
            None
        }
    }
}

/// A small constant's values, widened (ints as i64, floats as f64).
enum Values {
    Float(Vec<f64>),
    Int(Vec<i64>),
}

fn constant_values(v: MlirValue) -> Option<(Elem, Values)> {
    let p = raw::producer(v).filter(|&p| raw::name(p) == "stablehlo.constant")?;
    let attr = raw::attr(p, "value")?;
    let n = raw::num_elements(v)?;
    // SAFETY: `attr` is a non-null attribute of the live constant `p` (from `raw::attr`).
    if n > MAX_FOLD_ELEMENTS || !unsafe { mlirAttributeIsADenseElements(attr) } {
        return None;
    }
    let kind = elem_kind(value_type(v))?;
    // SAFETY: `attr` is a dense elements attribute (checked above) of the constant's type, whose elements are `kind`
    // (just read) and number `n`; each index is below `n`.
    unsafe {
        Some((
            kind,
            match kind {
                Elem::F32 => Values::Float((0..n).map(|i| mlirDenseElementsAttrGetFloatValue(attr, i as isize) as f64).collect()),
                Elem::F64 => Values::Float((0..n).map(|i| mlirDenseElementsAttrGetDoubleValue(attr, i as isize)).collect()),
                Elem::I32 => Values::Int((0..n).map(|i| mlirDenseElementsAttrGetInt32Value(attr, i as isize) as i64).collect()),
                Elem::I64 => Values::Int((0..n).map(|i| mlirDenseElementsAttrGetInt64Value(attr, i as isize)).collect()),
            },
        ))
    }
}

fn fold_float(name: &str, args: &[&[f64]]) -> Option<Vec<f64>> {
    let n = args.first()?.len();
    let at = |k: usize, i: usize| args[k][i];
    let out: Vec<f64> = match (name, args.len()) {
        ("stablehlo.add", 2) => (0..n).map(|i| at(0, i) + at(1, i)).collect(),
        ("stablehlo.subtract", 2) => (0..n).map(|i| at(0, i) - at(1, i)).collect(),
        ("stablehlo.multiply", 2) => (0..n).map(|i| at(0, i) * at(1, i)).collect(),
        ("stablehlo.divide", 2) => (0..n).map(|i| at(0, i) / at(1, i)).collect(),
        // NaN propagates through maximum/minimum, as in the spec.
        ("stablehlo.maximum", 2) => {
            (0..n).map(|i| if at(0, i).is_nan() || at(1, i).is_nan() { f64::NAN } else { at(0, i).max(at(1, i)) }).collect()
        }
        ("stablehlo.minimum", 2) => {
            (0..n).map(|i| if at(0, i).is_nan() || at(1, i).is_nan() { f64::NAN } else { at(0, i).min(at(1, i)) }).collect()
        }
        ("stablehlo.negate", 1) => (0..n).map(|i| -at(0, i)).collect(),
        ("stablehlo.abs", 1) => (0..n).map(|i| at(0, i).abs()).collect(),
        ("stablehlo.sqrt", 1) => (0..n).map(|i| at(0, i).sqrt()).collect(),
        ("stablehlo.rsqrt", 1) => (0..n).map(|i| 1.0 / at(0, i).sqrt()).collect(),
        _ => return None,
    };
    Some(out)
}

fn fold_int(name: &str, args: &[&[i64]], bits: u32) -> Option<Vec<i64>> {
    let n = args.first()?.len();
    let wrap = |x: i64| if bits == 32 { x as i32 as i64 } else { x };
    let at = |k: usize, i: usize| args[k][i];
    let out: Vec<i64> = match (name, args.len()) {
        ("stablehlo.add", 2) => (0..n).map(|i| wrap(at(0, i).wrapping_add(at(1, i)))).collect(),
        ("stablehlo.subtract", 2) => (0..n).map(|i| wrap(at(0, i).wrapping_sub(at(1, i)))).collect(),
        ("stablehlo.multiply", 2) => (0..n).map(|i| wrap(at(0, i).wrapping_mul(at(1, i)))).collect(),
        ("stablehlo.maximum", 2) => (0..n).map(|i| at(0, i).max(at(1, i))).collect(),
        ("stablehlo.minimum", 2) => (0..n).map(|i| at(0, i).min(at(1, i))).collect(),
        ("stablehlo.negate", 1) => (0..n).map(|i| wrap(at(0, i).wrapping_neg())).collect(),
        // Division is left to run time: its divide-by-zero result is the
        // floor's business, not the folder's.
        _ => return None,
    };
    Some(out)
}

/// Folds an elementwise op whose operands are all small constants.
fn try_fold_constant(op: MlirOperation) -> bool {
    let name = raw::name(op);
    let ins = raw::operands(op);
    let outs = raw::results(op);
    if outs.len() != 1 || ins.is_empty() || !ins.iter().all(|&v| same_type(v, outs[0])) {
        return false;
    }
    let Some(consts) = ins.iter().map(|&v| constant_values(v)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let t = value_type(outs[0]);
    let Some(kind) = elem_kind(t) else { return false };
    // SAFETY: `t` is a static tensor type of `n` elements (the constants' type, which the result shares) of element
    // type `kind`, and each array holds `n` values of that type, which MLIR copies.
    let attr = unsafe {
        match kind {
            Elem::F32 | Elem::F64 => {
                let args: Vec<&[f64]> =
                    consts.iter().filter_map(|(_, v)| if let Values::Float(f) = v { Some(f.as_slice()) } else { None }).collect();
                if args.len() != consts.len() {
                    return false;
                }
                let Some(r) = fold_float(&name, &args) else { return false };
                if kind == Elem::F32 {
                    let r32: Vec<f32> = r.iter().map(|&x| x as f32).collect();
                    mlirDenseElementsAttrFloatGet(t, r32.len() as isize, r32.as_ptr())
                } else {
                    mlirDenseElementsAttrDoubleGet(t, r.len() as isize, r.as_ptr())
                }
            }
            Elem::I32 | Elem::I64 => {
                let args: Vec<&[i64]> =
                    consts.iter().filter_map(|(_, v)| if let Values::Int(f) = v { Some(f.as_slice()) } else { None }).collect();
                if args.len() != consts.len() {
                    return false;
                }
                let bits = if kind == Elem::I32 { 32 } else { 64 };
                let Some(r) = fold_int(&name, &args, bits) else { return false };
                if kind == Elem::I32 {
                    let r32: Vec<i32> = r.iter().map(|&x| x as i32).collect();
                    mlirDenseElementsAttrInt32Get(t, r32.len() as isize, r32.as_ptr())
                } else {
                    mlirDenseElementsAttrInt64Get(t, r.len() as isize, r.as_ptr())
                }
            }
        }
    };
    // SAFETY: `op` is a live op in a block and `ctx` its context; the state copies the arrays and `t`; the new
    // constant is null-checked and inserted before `op` in its block, which owns it; `op` has one result (checked
    // above).
    unsafe {
        let loc = mlirOperationGetLocation(op);
        let mut state = mlirOperationStateGet(raw::sref("stablehlo.constant"), loc);
        mlirOperationStateAddResults(&mut state, 1, &t);
        let ctx = mlirOperationGetContext(op);
        let named = [mlirNamedAttributeGet(mlirIdentifierGet(ctx, raw::sref("value")), attr)];
        mlirOperationStateAddAttributes(&mut state, 1, named.as_ptr());
        let c = mlirOperationCreate(&mut state);
        if c.ptr.is_null() {
            return false;
        }
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, c);
        replace_with(op, mlirOperationGetResult(c, 0));
    }
    true
}

/// One rewrite on `op`; true if the IR changed.
fn simplify(op: MlirOperation) -> bool {
    let name = raw::name(op);
    let ins = raw::operands(op);
    let outs = raw::results(op);
    match name.as_str() {
        "stablehlo.broadcast_in_dim" => {
            let Some(dims) = raw::i64_array(op, "broadcast_dimensions") else { return false };
            if let Some(inner) = operand_producer(op, "stablehlo.broadcast_in_dim") {
                let Some(inner_dims) = raw::i64_array(inner, "broadcast_dimensions") else { return false };
                // x dim i → inner result dim inner_dims[i] → outer result dim dims[inner_dims[i]].
                let composed: Option<Vec<i64>> = inner_dims.iter().map(|&d| dims.get(d as usize).copied()).collect();
                let Some(composed) = composed else { return false };
                // SAFETY: `op` is a live broadcast_in_dim, which has operand 0; `inner` is its live producer, a
                // broadcast_in_dim with one operand.
                unsafe { mlirOperationSetOperand(op, 0, raw::operands(inner)[0]) };
                set_i64_array(op, "broadcast_dimensions", &composed);
                return true;
            }
            let identity = dims.iter().enumerate().all(|(i, &d)| d == i as i64);
            if identity && same_type(ins[0], outs[0]) {
                replace_with(op, ins[0]);
                return true;
            }
            false
        }
        "stablehlo.reshape" => {
            if same_type(ins[0], outs[0]) {
                replace_with(op, ins[0]);
                return true;
            }
            if let Some(inner) = operand_producer(op, "stablehlo.reshape") {
                // SAFETY: `op` is a live reshape with operand 0; `inner` is its live producer, a reshape with one
                // operand.
                unsafe { mlirOperationSetOperand(op, 0, raw::operands(inner)[0]) };
                return true;
            }
            false
        }
        "stablehlo.transpose" => {
            let Some(p2) = raw::i64_array(op, "permutation") else { return false };
            if let Some(inner) = operand_producer(op, "stablehlo.transpose") {
                let Some(p1) = raw::i64_array(inner, "permutation") else { return false };
                let composed: Option<Vec<i64>> = p2.iter().map(|&j| p1.get(j as usize).copied()).collect();
                let Some(composed) = composed else { return false };
                let x = raw::operands(inner)[0];
                if composed.iter().enumerate().all(|(i, &d)| d == i as i64) && same_type(x, outs[0]) {
                    replace_with(op, x);
                } else {
                    // SAFETY: `op` is a live transpose with operand 0, and `x` a live value that dominates it (the
                    // operand of its producer).
                    unsafe { mlirOperationSetOperand(op, 0, x) };
                    set_i64_array(op, "permutation", &composed);
                }
                return true;
            }
            if p2.iter().enumerate().all(|(i, &d)| d == i as i64) && same_type(ins[0], outs[0]) {
                replace_with(op, ins[0]);
                return true;
            }
            false
        }
        "stablehlo.convert" => {
            if same_type(ins[0], outs[0]) {
                replace_with(op, ins[0]);
                return true;
            }
            false
        }
        _ => try_fold_constant(op),
    }
}

/// Simplifies every op of every block under `root`, to a fixed point.
fn run_on(root: MlirOperation) -> usize {
    let mut changes = 0;
    for _round in 0..16 {
        let mut changed = false;
        // SAFETY: `root` is the live op the pass runs on, borrowed only for this walk.
        let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(root) }, |o| raw::name(o.to_raw()).starts_with("stablehlo."));
        for op in ops {
            if unused(op) {
                continue;
            }
            if simplify(op) {
                changed = true;
                changes += 1;
            }
        }
        if !changed {
            break;
        }
    }
    changes
}

impl FloorsPass for HloSimplify {
    const ARGUMENT: &'static str = "floors-hlo-simplify";
    const NAME: &'static str = "FloorsHloSimplify";
    const DESCRIPTION: &'static str = "Fold broadcast/reshape/transpose chains, identity converts and small constant expressions";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run_on(op.to_raw());
        tracing::debug!("floors-hlo-simplify: {n} rewrites");
        Ok(())
    }
}
