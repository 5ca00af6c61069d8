//! `floors-hlo-single-device-collectives`: in a module that runs on one
//! device (`mhlo.num_replicas` × `mhlo.num_partitions` = 1, as JAX writes
//! for a one-device jit, and a `shard_map` over a one-device mesh lowers to),
//! every collective has one participant, and the spec's result of each is
//! then its operand:
//! - `all_reduce` reduces one value: its operands (no computation applied);
//! - `all_gather`, `reduce_scatter`, `all_to_all`, `collective_broadcast`
//!   gather, scatter or send among one process: their operands (the result
//!   types equal the operand types, which the rewrite checks);
//! - `collective_permute` with the pair (0, 0) is its operand; with no pair
//!   naming process 0 as target, zeros of its type;
//! - `replica_id` and `partition_id` are 0.
//!
//! A collective whose replica groups or pairs name another process than 0
//! (a program for more devices) is left as it is and refused by name at
//! fusion; so is every collective of a module for several devices (floors
//! runs one device today).

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    ir::raw,
    op_builder::Builder,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloSingleDeviceCollectives;

/// Collectives whose results are their operands with one participant.
const IDENTITIES: &[&str] =
    &["stablehlo.all_reduce", "stablehlo.all_gather", "stablehlo.reduce_scatter", "stablehlo.all_to_all", "stablehlo.collective_broadcast"];

/// Whether the ids of `attr` (replica groups or source-target pairs, -1
/// padding) name process 0 only.
fn only_process_zero(op: MlirOperation, attr: &str) -> bool {
    match raw::attr(op, attr) {
        // No groups: all processes, which is process 0 alone.
        None => true,
        Some(a) => raw::i64s_of(a).is_some_and(|ids| ids.iter().all(|&id| id == 0 || id == -1)),
    }
}

fn same_types(op: MlirOperation) -> bool {
    let (ins, outs) = (raw::operands(op), raw::results(op));
    // SAFETY: operands and results of a live op; only their (uniqued) types are compared.
    ins.len() == outs.len() && ins.iter().zip(&outs).all(|(&a, &b)| unsafe { mlirTypeEqual(mlirValueGetType(a), mlirValueGetType(b)) })
}

/// A splat zero of the ranked tensor type `t` (ints, floats, bools); None for
/// other element types.
fn zeros(t: MlirType) -> Option<MlirAttribute> {
    // SAFETY: `t` is a live result type; the element type is read only of a shaped type, and the zero attribute is
    // built of that element type when it is an integer or a float.
    unsafe {
        if !mlirTypeIsARankedTensor(t) {
            return None;
        }
        let e = mlirShapedTypeGetElementType(t);
        let zero = if mlirTypeIsAInteger(e) {
            if mlirIntegerTypeGetWidth(e) == 1 {
                return Some(mlirDenseElementsAttrBoolSplatGet(t, false));
            }
            mlirIntegerAttrGet(e, 0)
        } else if mlirTypeIsAFloat(e) {
            mlirFloatAttrDoubleGet(mlirTypeGetContext(t), e, 0.0)
        } else {
            return None;
        };
        Some(mlirDenseElementsAttrSplatGet(t, zero))
    }
}

/// The values replacing `op`'s results, or None to leave it.
fn replacement(op: MlirOperation) -> Option<Vec<MlirValue>> {
    let name = raw::name(op);
    if IDENTITIES.contains(&name.as_str()) {
        return (only_process_zero(op, "replica_groups") && same_types(op)).then(|| raw::operands(op));
    }
    let result_type = |op: MlirOperation| {
        // SAFETY: the ops below have exactly one result (their ODS definitions); only its type is read.
        unsafe { mlirValueGetType(mlirOperationGetResult(op, 0)) }
    };
    match name.as_str() {
        "stablehlo.collective_permute" => {
            let pairs = raw::attr(op, "source_target_pairs").and_then(raw::i64s_of)?;
            if !pairs.iter().all(|&id| id == 0) {
                return None;
            }
            if !pairs.is_empty() {
                return same_types(op).then(|| raw::operands(op));
            }
            // Nothing is sent to process 0: its result is zeros.
            let t = result_type(op);
            let value = zeros(t)?;
            Some(vec![Builder::before(op).value("stablehlo.constant", &[], t, &[("value", value)])])
        }
        "stablehlo.replica_id" | "stablehlo.partition_id" => {
            let t = result_type(op);
            let value = zeros(t)?;
            Some(vec![Builder::before(op).value("stablehlo.constant", &[], t, &[("value", value)])])
        }
        _ => None,
    }
}

/// Whether `name` is an op this pass may replace.
fn is_collective(name: &str) -> bool {
    IDENTITIES.contains(&name) || matches!(name, "stablehlo.collective_permute" | "stablehlo.replica_id" | "stablehlo.partition_id")
}

/// Rewrites the collectives of `module`; returns how many.
pub fn run(module: MlirOperation) -> usize {
    if super::sharding::device_count(module) != 1 {
        return 0;
    }
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |o| is_collective(&raw::name(o.to_raw())));
    let mut n = 0;
    for op in ops {
        let Some(values) = replacement(op) else { continue };
        // SAFETY: `op` is live (collected above, each once; none is nested in another, since a collective's region
        // is a scalar reduction body); `values` has one value per result, each of that result's type and defined
        // before `op` (its operands, or constants built right before it); once its uses are rewired it is destroyed.
        unsafe {
            for (i, v) in values.into_iter().enumerate() {
                mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i as isize), v);
            }
            mlirOperationDestroy(op);
        }
        n += 1;
    }
    n
}

impl FloorsPass for HloSingleDeviceCollectives {
    const ARGUMENT: &'static str = "floors-hlo-single-device-collectives";
    const NAME: &'static str = "FloorsHloSingleDeviceCollectives";
    const DESCRIPTION: &'static str = "In a one-device module, collectives (one participant) become their operands (collective_permute without a pair to 0: zeros), replica_id and partition_id 0";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw());
        tracing::debug!("floors-hlo-single-device-collectives: {n} collectives");
        Ok(())
    }
}
