//! `floors-hlo-annotate-trip-counts`: XLA's `WhileLoopTripCountAnnotator`.
//! A `stablehlo.while` whose number of iterations follows from its structure
//! gets `floors.known_trip_count = N : i64`; the CPU floor's while thunk then
//! runs its body N times without evaluating the condition (XLA:CPU's
//! `WhileThunk` with a known trip count), which saves a kernel call and a
//! predicate read per iteration of every `lax.fori_loop` and `lax.scan`.
//!
//! The form recognised is the counted loop JAX emits for static bounds, as
//! cleanup leaves it:
//! - the condition block computes `stablehlo.compare LT, %i, %limit` (or
//!   `GT, %limit, %i`) and returns it, and holds nothing but that compare and
//!   constants; `%i` is the k-th loop-carried value, a 0-d integer, and
//!   `%limit` a constant (in the block or defined above the loop);
//! - the k-th initial value is a constant `start`;
//! - the body returns `stablehlo.add %i, %one` (either order) as its k-th
//!   value, `%one` a constant 1.
//!
//! Then `%i` takes `start, start + 1, ...` and the loop runs
//! `max(0, limit - start)` times; `%i + 1` never wraps, since `%i < limit`.
//! The comparison is signed or unsigned as its `compare_type` (or, when
//! absent, the element type) says, and the constants are read that way. A
//! loop of any other form keeps no annotation and runs its condition each
//! iteration, as before: nothing is guessed.

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    contract::KNOWN_TRIP_COUNT_ATTR,
    dialects::stablehlo::{CompareOp, ComparisonDirection, ComparisonType, ConstantOp},
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloAnnotateTripCounts;

/// The value of a 0-d integer constant, read as unsigned or signed.
fn constant_int(v: MlirValue, unsigned: bool) -> Option<i128> {
    let c = ConstantOp::cast(raw::producer(v)?)?;
    let a = c.value()?;
    // SAFETY: `a` is the non-null elements attribute of a live constant; it is read as dense and splat only after
    // those checks, and its splat value as an integer only after `mlirAttributeIsAInteger`.
    unsafe {
        if !mlirAttributeIsADenseElements(a) || !mlirDenseElementsAttrIsSplat(a) {
            return None;
        }
        let s = mlirDenseElementsAttrGetSplatValue(a);
        if !mlirAttributeIsAInteger(s) {
            return None;
        }
        let t = mlirAttributeGetType(s);
        if unsigned || mlirIntegerTypeIsUnsigned(t) {
            Some(mlirIntegerAttrGetValueUInt(s) as i128)
        } else {
            Some(mlirIntegerAttrGetValueInt(s) as i128)
        }
    }
}

/// Whether `v` is the `k`-th argument of `block`.
fn is_arg(v: MlirValue, block: MlirBlock, k: usize) -> bool {
    // SAFETY: `block` is a live block of the loop, `k` below its argument count (the caller's).
    raw::same_value(v, unsafe { mlirBlockGetArgument(block, k as isize) })
}

/// The index of `v` among `block`'s arguments, if it is one.
fn arg_index(v: MlirValue, block: MlirBlock) -> Option<usize> {
    // SAFETY: `block` is a live block; indices are below its argument count.
    (0..unsafe { mlirBlockGetNumArguments(block) } as usize).find(|&k| is_arg(v, block, k))
}

/// The trip count of one `stablehlo.while`, if it is a counted loop.
fn trip_count(op: MlirOperation) -> Option<i64> {
    let blocks = raw::region_blocks(op);
    let [cond, body] = blocks.as_slice() else { return None };
    let (cond, body) = (*cond, *body);
    // The condition: constants, one compare, the return of it.
    let ops = raw::block_ops(cond);
    let (ret, rest) = ops.split_last()?;
    let mut compare = None;
    for &o in rest {
        match raw::name(o).as_str() {
            "stablehlo.constant" => {}
            "stablehlo.compare" if compare.is_none() => compare = CompareOp::cast(o),
            _ => return None,
        }
    }
    let compare = compare?;
    let returned = raw::operands(*ret);
    if returned.len() != 1 || raw::producer(returned[0]).map(|p| p.ptr) != Some(compare.operation().ptr) {
        return None;
    }
    let cmp_operands = raw::operands(compare.operation());
    let (i, limit) = match compare.direction()? {
        ComparisonDirection::Lt => (cmp_operands[0], cmp_operands[1]),
        ComparisonDirection::Gt => (cmp_operands[1], cmp_operands[0]),
        _ => return None,
    };
    let k = arg_index(i, cond)?;
    // A 0-d integer counter, compared as an integer.
    // SAFETY: `i` is a live block argument; its type is read and tested before the element type is taken.
    let unsigned = unsafe {
        let t = mlirValueGetType(i);
        if !mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 0 {
            return None;
        }
        let e = mlirShapedTypeGetElementType(t);
        if !mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) < 2 {
            return None;
        }
        match compare.compare_type() {
            Some(ComparisonType::Signed) => false,
            Some(ComparisonType::Unsigned) => true,
            None | Some(ComparisonType::NoType) => mlirIntegerTypeIsUnsigned(e),
            Some(_) => return None,
        }
    };
    let limit = constant_int(limit, unsigned)?;
    let start = constant_int(*raw::operands(op).get(k)?, unsigned)?;
    // The body: the k-th returned value is %i + 1.
    let body_ret = *raw::block_ops(body).last()?;
    let next = *raw::operands(body_ret).get(k)?;
    let add = raw::producer(next).filter(|&p| raw::name(p) == "stablehlo.add")?;
    let step_by_one = match raw::operands(add).as_slice() {
        [a, b] if is_arg(*a, body, k) => constant_int(*b, unsigned) == Some(1),
        [a, b] if is_arg(*b, body, k) => constant_int(*a, unsigned) == Some(1),
        _ => false,
    };
    if !step_by_one {
        return None;
    }
    i64::try_from((limit - start).max(0)).ok()
}

/// Annotates every counted `stablehlo.while` nested in `root`; returns how many.
pub fn annotate(root: MlirOperation) -> usize {
    let mut loops = Vec::new();
    fn collect(op: MlirOperation, out: &mut Vec<MlirOperation>) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                if raw::name(o) == "stablehlo.while" {
                    out.push(o);
                }
                collect(o, out);
            }
        }
    }
    collect(root, &mut loops);
    let mut n = 0;
    for op in loops {
        if let Some(count) = trip_count(op) {
            // SAFETY: `op` is a live `stablehlo.while` of `root`; the attribute is built in its context and the name
            // is a static string that MLIR copies.
            unsafe {
                let ctx = mlirOperationGetContext(op);
                let a = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), count);
                mlirOperationSetAttributeByName(op, raw::sref(KNOWN_TRIP_COUNT_ATTR), a);
            }
            n += 1;
        }
    }
    n
}

impl FloorsPass for HloAnnotateTripCounts {
    const ARGUMENT: &'static str = "floors-hlo-annotate-trip-counts";
    const NAME: &'static str = "FloorsHloAnnotateTripCounts";
    const DESCRIPTION: &'static str =
        "Record floors.known_trip_count on every stablehlo.while that counts a 0-d integer from a constant to a constant limit by 1";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = annotate(op.to_raw());
        tracing::debug!("floors-hlo-annotate-trip-counts: {n} loops");
        Ok(())
    }
}
