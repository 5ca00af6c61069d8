//! `floors-hlo-custom-call-layouts`: the layouts a `stablehlo.custom_call`
//! asks for, as XLA's layout assignment honours them. A handler given
//! `operand_layouts = [dense<[0, 1]> : tensor<2xindex>]` (LAPACK's
//! column-major, what JAX's CPU lowering of `jnp.linalg` asks) reads its
//! buffer in that order; floors' buffers are row-major, so each operand with
//! another layout is transposed into its physical order (major to minor: the
//! reverse of `minor_to_major`) before the call, each such result is produced
//! in its physical order and transposed back to the logical shape after it.
//! The call keeps its layout attributes and gets `floors.physical_layouts`:
//! the host program then describes every buffer to the handler with its
//! logical dims, as XLA does. Default layouts, and ranks below 2, need
//! nothing; a call whose layouts are not permutations of its ranks is left
//! alone (the host lowering reports it, located).

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    contract::PHYSICAL_LAYOUTS_ATTR,
    ir::raw,
    op_builder::Builder,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloCustomCallLayouts;

/// The physical order (major to minor) of `minor_to_major` for a rank, when
/// it differs from row-major: the transpose permutation into it.
pub fn physical_order(minor_to_major: &[i64], rank: usize) -> Option<Vec<i64>> {
    let mut seen = vec![false; rank];
    if minor_to_major.len() != rank
        || !minor_to_major.iter().all(|&d| (0..rank as i64).contains(&d) && !std::mem::replace(&mut seen[d as usize], true))
    {
        return None;
    }
    let order: Vec<i64> = minor_to_major.iter().rev().copied().collect();
    (order.iter().enumerate().any(|(i, &d)| d != i as i64)).then_some(order)
}

fn inverse(p: &[i64]) -> Vec<i64> {
    let mut q = vec![0; p.len()];
    for (i, &d) in p.iter().enumerate() {
        q[d as usize] = i as i64;
    }
    q
}

fn ranked(v: MlirValue) -> Option<(Vec<i64>, MlirType)> {
    // SAFETY: `v` is a live value; its type is inspected as a ranked tensor only after the check.
    unsafe {
        let t = mlirValueGetType(v);
        if !mlirTypeIsARankedTensor(t) {
            return None;
        }
        let shape = (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect();
        Some((shape, mlirShapedTypeGetElementType(t)))
    }
}

fn tensor_type(shape: &[i64], element: MlirType) -> MlirType {
    // SAFETY: a static shape and a live element type; no encoding.
    unsafe { mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), element, mlirAttributeGetNull()) }
}

/// Per value: its shape, element type and, when its layout is not
/// row-major, the permutation into its physical order. None when a layout
/// does not fit its value (the host lowering reports it, located).
type Plan = Vec<(Vec<i64>, MlirType, Option<Vec<i64>>)>;

fn plan(values: &[MlirValue], layouts: Option<Vec<Vec<i64>>>) -> Option<Plan> {
    let layouts = layouts.unwrap_or_else(|| {
        values.iter().map(|&v| ranked(v).map(|(s, _)| (0..s.len() as i64).rev().collect()).unwrap_or_default()).collect()
    });
    if layouts.len() != values.len() {
        return None;
    }
    values
        .iter()
        .zip(layouts)
        .map(|(&v, l)| {
            let (shape, element) = ranked(v)?;
            (l.len() == shape.len()).then(|| {
                let p = physical_order(&l, shape.len());
                (shape, element, p)
            })
        })
        .collect()
}

/// Rewrites one call; whether it changed.
fn rewrite(call: MlirOperation) -> bool {
    let operands = raw::operands(call);
    let results = raw::results(call);
    let (Some(in_plan), Some(out_plan)) =
        (plan(&operands, raw::layouts(call, "operand_layouts")), plan(&results, raw::layouts(call, "result_layouts")))
    else {
        return false;
    };
    if in_plan.iter().chain(&out_plan).all(|(_, _, p)| p.is_none()) {
        return false;
    }
    let b = Builder::before(call);
    // SAFETY: `call` is a live op; its context is read.
    let ctx = unsafe { mlirOperationGetContext(call) };
    for (i, (shape, element, p)) in in_plan.iter().enumerate() {
        let Some(p) = p else { continue };
        let phys: Vec<i64> = p.iter().map(|&d| shape[d as usize]).collect();
        let t = b.value("stablehlo.transpose", &[operands[i]], tensor_type(&phys, *element), &[("permutation", b.i64_array(p))]);
        // SAFETY: `call` is live with operand `i`; `t` is built right before it, so it dominates the call.
        unsafe { mlirOperationSetOperand(call, i as isize, t) };
    }
    // SAFETY: `call` is live and not a terminator (a custom call never is), so it has a next op in its block.
    let after = Builder::before(unsafe { mlirOperationGetNextInBlock(call) }).at(unsafe { mlirOperationGetLocation(call) });
    for (&r, (shape, element, p)) in results.iter().zip(&out_plan) {
        let Some(p) = p else { continue };
        let phys: Vec<i64> = p.iter().map(|&d| shape[d as usize]).collect();
        // The uses of the logical result, before the call's result changes type.
        let uses = raw::uses(r);
        // SAFETY: `r` is a live result of `call`; its type becomes the physical one, of the same element type and
        // element count; every use is rewired below to the transpose back to the logical type.
        unsafe { mlirValueSetType(r, tensor_type(&phys, *element)) };
        let logical =
            after.value("stablehlo.transpose", &[r], tensor_type(shape, *element), &[("permutation", after.i64_array(&inverse(p)))]);
        for (user, index) in uses {
            // SAFETY: `user` is a live op that used `r` as operand `index`; `logical` is defined right after the
            // call, before every user of its result in the block (or in nested regions below it).
            unsafe { mlirOperationSetOperand(user, index, logical) };
        }
    }
    // SAFETY: `call` is live; the attribute is a unit attribute of its context, the name a string MLIR copies.
    unsafe { mlirOperationSetAttributeByName(call, raw::sref(PHYSICAL_LAYOUTS_ATTR), mlirUnitAttrGet(ctx)) };
    true
}

/// Rewrites every custom call nested in `root` whose layouts are not
/// row-major; returns how many.
pub fn run(root: MlirOperation) -> usize {
    // SAFETY: `root` is the live op the pass runs on, borrowed only for this walk.
    let calls = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(root) }, |o| {
        raw::name(o.to_raw()) == "stablehlo.custom_call" && raw::attr(o.to_raw(), PHYSICAL_LAYOUTS_ATTR).is_none()
    });
    calls.into_iter().filter(|&c| rewrite(c)).count()
}

impl FloorsPass for HloCustomCallLayouts {
    const ARGUMENT: &'static str = "floors-hlo-custom-call-layouts";
    const NAME: &'static str = "FloorsHloCustomCallLayouts";
    const DESCRIPTION: &'static str = "Give custom calls their operand_layouts/result_layouts: transposes into and out of each non-row-major layout, the call marked floors.physical_layouts";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw());
        tracing::debug!("floors-hlo-custom-call-layouts: {n} calls");
        Ok(())
    }
}
