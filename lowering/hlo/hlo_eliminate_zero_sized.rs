//! `floors-hlo-eliminate-zero-sized`: what XLA's `ZeroSizedHloElimination`
//! and the zero-size rules of its algebraic simplifier do, so that no floor
//! ever sees a kernel over zero elements (no launch with an empty grid, no
//! TPU block of zero rows, no zero-trip vector loops):
//! - an op whose results all have zero elements (`chlo.top_k` too) → empty
//!   constants;
//! - an op with a zero-element operand whose result is not empty computes
//!   only its init or padding values: `reduce`, `reduce_window` →
//!   `broadcast_in_dim` of the init values; `pad` → of the padding value;
//!   `dot_general`, `dot`, `convolution` (an empty contraction) → zeros;
//!   `select_and_scatter` with an empty source → the init value everywhere;
//! - `scatter` with empty updates and `dynamic_update_slice` with an empty
//!   update → the operand; `concatenate` drops its empty operands.
//!
//! Ops with effects or regions of their own control (custom calls, loops,
//! branches, rng, collectives, barriers) are left alone. A replaced op is
//! erased, with the producers that leaves unused (XLA's DCE): stablehlo ops
//! without regions or effects, and custom calls without `has_side_effect`,
//! so a LAPACK call on an empty matrix whose results all became empty
//! constants is not run.

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::*;
use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloEliminateZeroSized;

/// Ops never rewritten (control flow, ops already constant; and [`EFFECTFUL`]).
const KEEP: &[&str] = &[
    "stablehlo.constant",
    "stablehlo.custom_call",
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.rng",
    "stablehlo.rng_bit_generator",
    "stablehlo.optimization_barrier",
    "stablehlo.return",
];

/// Elements of a statically shaped tensor value, or None.
fn elements(v: MlirValue) -> Option<i64> {
    let t = value_type(v);
    is_static(t).then(|| shape(t).iter().product())
}

fn empty(v: MlirValue) -> bool {
    elements(v) == Some(0)
}

/// A zero scalar of `e` (float or integer), or None for other element types.
fn zero_attr(ctx: MlirContext, e: MlirType) -> Option<MlirAttribute> {
    // SAFETY: `e` is a live element type; each getter runs only on the kind it takes.
    unsafe {
        if mlirTypeIsAFloat(e) {
            Some(mlirFloatAttrDoubleGet(ctx, e, 0.0))
        } else if mlirTypeIsAInteger(e) {
            Some(mlirIntegerAttrGet(e, 0))
        } else {
            None
        }
    }
}

/// `broadcast_in_dim` of the 0-d value `scalar` to the type of `like`.
fn fill(b: &B, scalar: MlirValue, like: MlirValue) -> MlirValue {
    b.op("stablehlo.broadcast_in_dim", &[scalar], value_type(like), &[("broadcast_dimensions", b.i64_array(&[]))])
}

/// The replacements of `op`'s results, if a rule applies.
fn rewrite(b: &B, op: MlirOperation) -> Option<Vec<MlirValue>> {
    let name = raw::name(op);
    if KEEP.contains(&name.as_str()) || EFFECTFUL.contains(&name.as_str()) {
        return None;
    }
    let ins = raw::operands(op);
    let outs = raw::results(op);
    if !outs.is_empty() && outs.iter().all(|&v| empty(v)) {
        let constant = |v: MlirValue| {
            // SAFETY: `v`'s type is a static tensor type with zero elements, so an empty element list fits it.
            let value = unsafe { mlirDenseElementsAttrGet(value_type(v), 0, std::ptr::null()) };
            b.op("stablehlo.constant", &[], value_type(v), &[("value", value)])
        };
        return Some(outs.iter().map(|&v| constant(v)).collect());
    }
    if outs.iter().any(|&v| elements(v).is_none()) {
        return None;
    }
    match name.as_str() {
        // (inputs..., inits...) → results; the inputs share one shape.
        "stablehlo.reduce" | "stablehlo.reduce_window" if empty(ins[0]) => {
            let n = outs.len();
            Some((0..n).map(|i| fill(b, ins[n + i], outs[i])).collect())
        }
        "stablehlo.pad" if empty(ins[0]) => Some(vec![fill(b, ins[1], outs[0])]),
        "stablehlo.dot_general" | "stablehlo.dot" | "stablehlo.convolution" if empty(ins[0]) || empty(ins[1]) => {
            let e = elem(value_type(outs[0]));
            let zero = zero_attr(b.ctx, e)?;
            Some(vec![fill(b, b.splat(tensor(&[], e), zero), outs[0])])
        }
        // (operand, source, init_value)
        "stablehlo.select_and_scatter" if empty(ins[1]) => Some(vec![fill(b, ins[2], outs[0])]),
        "stablehlo.dynamic_update_slice" if empty(ins[1]) => Some(vec![ins[0]]),
        // (inputs..., indices, updates...): no updates, the inputs unchanged.
        "stablehlo.scatter" if ins[outs.len() + 1..].iter().any(|&u| empty(u)) => Some(ins[..outs.len()].to_vec()),
        "stablehlo.concatenate" if ins.iter().any(|&v| empty(v)) => {
            let kept: Vec<MlirValue> = ins.into_iter().filter(|&v| !empty(v)).collect();
            match kept.as_slice() {
                [one] => Some(vec![*one]),
                _ => {
                    let dim = raw::attr(op, "dimension")?;
                    Some(vec![b.op("stablehlo.concatenate", &kept, value_type(outs[0]), &[("dimension", dim)])])
                }
            }
        }
        _ => None,
    }
}

/// Rewrites every op under `root` a rule applies to; returns how many.
fn run_on(root: MlirOperation) -> Result<usize, PassFailure> {
    // SAFETY: `root` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(root) }, |o| {
        let name = raw::name(o.to_raw());
        name.starts_with("stablehlo.") || name == "chlo.top_k"
    });
    let Some(&first) = ops.first() else { return Ok(0) };
    // SAFETY: `first` is a live op of the module.
    let ctx = unsafe { mlirOperationGetContext(first) };
    let enums = Enums::build(ctx).ok_or_else(|| floors_ir::pass::fail_at(first, "the stablehlo dialect is not available"))?;
    let mut n = 0;
    let mut erased = std::collections::HashSet::new();
    for op in ops {
        if erased.contains(&op.ptr) || unused(op) {
            continue;
        }
        // SAFETY: `op` is live (ops are only ever replaced, not destroyed, here) and has at least one result (not
        // unused); its location and first result's type seed the builder, which inserts before `op`.
        let (loc, ty) = unsafe { (mlirOperationGetLocation(op), mlirValueGetType(mlirOperationGetResult(op, 0))) };
        let b = B { ctx, loc, at: At::Before(op), ty, enums };
        if raw::name(op) == "stablehlo.custom_call" && removable(op) {
            // A call without side effects: its empty results are empty
            // constants (XLA replaces such a call's empty tuple elements), and
            // a call left without uses is not made (XLA's DCE).
            let mut replaced = false;
            for r in raw::results(op).into_iter().filter(|&r| empty(r) && !raw::uses(r).is_empty()) {
                // SAFETY: `r`'s type is a static tensor type with zero elements, so an empty element list fits it.
                let value = unsafe { mlirDenseElementsAttrGet(value_type(r), 0, std::ptr::null()) };
                let c = b.op("stablehlo.constant", &[], value_type(r), &[("value", value)]);
                // SAFETY: `r` is a result of the live `op`, `c` a value of its type defined right before `op`.
                unsafe { mlirValueReplaceAllUsesOfWith(r, c) };
                replaced = true;
            }
            if replaced {
                n += 1;
                erase_dead(op, &mut erased);
            }
            continue;
        }
        if let Some(values) = rewrite(&b, op) {
            for (r, v) in raw::results(op).into_iter().zip(values) {
                // SAFETY: `r` is a result of the live `op` and `v` a live value of the same type defined before it.
                unsafe { mlirValueReplaceAllUsesOfWith(r, v) };
            }
            n += 1;
            erase_dead(op, &mut erased);
        }
    }
    // Dead code, users before producers (the walk reversed), so that a call
    // without side effects that nothing uses any more is not made.
    // SAFETY: `root` is the live op the pass runs on, borrowed only for this walk.
    let all = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(root) }, |o| raw::name(o.to_raw()).starts_with("stablehlo."));
    for op in all.into_iter().rev() {
        if !erased.contains(&op.ptr) && unused(op) && removable(op) {
            let custom = raw::name(op) == "stablehlo.custom_call";
            erased.insert(op.ptr);
            // SAFETY: `op` is live (not in `erased`) and unused; its pointer stays in `erased`.
            unsafe { mlirOperationDestroy(op) };
            n += usize::from(custom);
        }
    }
    Ok(n)
}

/// Ops never erased when unused: they act beyond their results.
const EFFECTFUL: &[&str] = &[
    "stablehlo.send",
    "stablehlo.recv",
    "stablehlo.infeed",
    "stablehlo.outfeed",
    "stablehlo.all_reduce",
    "stablehlo.all_gather",
    "stablehlo.all_to_all",
    "stablehlo.reduce_scatter",
    "stablehlo.collective_permute",
    "stablehlo.collective_broadcast",
];

/// Whether an unused `op` may go: a stablehlo op with results, without
/// regions or effects; a custom call only without `has_side_effect` (XLA's DCE removes
/// such a call, so a LAPACK call on an empty matrix whose results all became
/// empty constants never runs).
fn removable(op: MlirOperation) -> bool {
    let name = raw::name(op);
    // An op without results (a terminator, a call for its effect) stays.
    if raw::results(op).is_empty()
        || !name.starts_with("stablehlo.")
        || EFFECTFUL.contains(&name.as_str())
        || !raw::region_blocks(op).is_empty()
    {
        return false;
    }
    // SAFETY: `a` is a non-null attribute of the live op `op`; read as a bool only after the check.
    let side_effect = raw::attr(op, "has_side_effect").is_some_and(|a| unsafe { !mlirAttributeIsABool(a) || mlirBoolAttrGetValue(a) });
    name != "stablehlo.custom_call" || !side_effect
}

/// Erases `op` once nothing uses it, then each producer of its operands that
/// that leaves unused (XLA's dead-code elimination, local to a rewrite).
/// Only `op` (already visited) and ops defined before it (visited earlier in
/// the walk) are erased; `erased` remembers them.
fn erase_dead(op: MlirOperation, erased: &mut std::collections::HashSet<*mut std::ffi::c_void>) {
    let mut work = vec![op];
    loop {
        // An op still used may lose its last use to another op of the list:
        // it is retried until a round erases nothing.
        let (mut pending, mut progress) = (Vec::new(), false);
        while let Some(o) = work.pop() {
            if erased.contains(&o.ptr) || !removable(o) {
                continue;
            }
            if !unused(o) {
                pending.push(o);
                continue;
            }
            let producers: Vec<MlirOperation> = raw::operands(o).into_iter().filter_map(raw::producer).collect();
            erased.insert(o.ptr);
            // SAFETY: `o` is live (not yet erased: `erased` holds every op destroyed here) and unused; it is never
            // used again (its pointer stays in `erased`, which the walk checks).
            unsafe { mlirOperationDestroy(o) };
            progress = true;
            work.extend(producers);
        }
        if !progress || pending.is_empty() {
            return;
        }
        work = pending;
    }
}

impl FloorsPass for HloEliminateZeroSized {
    const ARGUMENT: &'static str = "floors-hlo-eliminate-zero-sized";
    const NAME: &'static str = "FloorsHloEliminateZeroSized";
    const DESCRIPTION: &'static str = "Replace ops with zero-element results by empty constants, and ops over zero-element operands by their init, padding or zero values";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run_on(op.to_raw())?;
        tracing::debug!("floors-hlo-eliminate-zero-sized: {n} rewrites");
        Ok(())
    }
}
