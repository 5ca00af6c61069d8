//! `floors-hlo-collectives-to-calls`: in a module for several devices
//! (`mhlo.num_replicas` × `mhlo.num_partitions` > 1), every collective
//! becomes a call of the runtime's collective thunk of that kind
//! (`stablehlo.custom_call @floors.all_reduce` & co, the runtime's
//! `collectives` module), as XLA:CPU runs collectives as thunks of their own.
//!
//! The call keeps the op's operands, results and location; its
//! `mhlo.backend_config` says what the thunk needs, with the process groups
//! resolved by the spec's rules ("Parallel execution" of the StableHLO spec):
//! - `replica_groups` (flattened, -1 padding) and `group_size`;
//! - `mode`: `cross_replica` (no channel), `cross_replica_and_partition`
//!   (a channel, no `use_global_device_ids`), `flattened_ids` (both) for
//!   all_reduce, all_gather and reduce_scatter; `cross_replica` or
//!   `cross_partition` (with a channel) for all_to_all, collective_permute
//!   and collective_broadcast;
//! - `channel_id`; `reduction` (`add`, `mul`, `min`, `max`, `and`, `or`,
//!   `xor`: the body must be one such op per operand, as XLA:CPU requires of
//!   its all-reduce; any other body is refused at the op); `dimension`
//!   (all_gather, reduce_scatter); `split_dimension`, `concat_dimension`,
//!   `split_count` (all_to_all); `source_target_pairs` (collective_permute).
//!
//! `replica_id` and `partition_id` become calls too (each device's value is
//! known only when it runs).

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    ir::raw,
    op_builder::Builder,
    pass::{FloorsPass, PassFailure, fail_at},
};

#[derive(Clone, Default)]
pub struct HloCollectivesToCalls;

/// The op each collective becomes a call of: (op, runtime target).
const TARGETS: &[(&str, &str)] = &[
    ("stablehlo.all_reduce", "floors.all_reduce"),
    ("stablehlo.all_gather", "floors.all_gather"),
    ("stablehlo.reduce_scatter", "floors.reduce_scatter"),
    ("stablehlo.all_to_all", "floors.all_to_all"),
    ("stablehlo.collective_permute", "floors.collective_permute"),
    ("stablehlo.collective_broadcast", "floors.collective_broadcast"),
    ("stablehlo.replica_id", "floors.replica_id"),
    ("stablehlo.partition_id", "floors.partition_id"),
];

/// A backend_config entry under construction.
enum Value {
    Int(i64),
    Ints(Vec<i64>),
    Str(String),
}

/// The channel id (0 without a channel handle).
fn channel_id(op: MlirOperation) -> i64 {
    raw::attr(op, "channel_handle")
        .filter(|&a| {
            // SAFETY: `a` is a live attribute; only its kind is read.
            unsafe { floors_ir::capi::floorsStablehloAttrIsAChannelHandle(a) }
        })
        .map(|a| {
            // SAFETY: `a` is a channel handle (checked above).
            unsafe { floors_ir::capi::floorsStablehloChannelHandleGetHandle(a) }
        })
        .unwrap_or(0)
}

/// `replica_groups` flattened and the group size (columns of the 2-D attribute).
fn groups(op: MlirOperation) -> Result<(Vec<i64>, i64), PassFailure> {
    let Some(a) = raw::attr(op, "replica_groups") else { return Ok((Vec::new(), 0)) };
    let ids = raw::i64s_of(a).ok_or_else(|| fail_at(op, "replica_groups is not an integer tensor"))?;
    // SAFETY: `a` is a live elements attribute (i64s_of read it); its type is a shaped type whose dims are read
    // below its rank.
    let shape: Vec<i64> = unsafe {
        let t = mlirAttributeGetType(a);
        (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect()
    };
    match shape.as_slice() {
        [_, cols] => Ok((ids, *cols)),
        [] | [0] => Ok((Vec::new(), 0)),
        _ => Err(fail_at(op, format!("replica_groups must be 2-D, not of shape {shape:?}"))),
    }
}

/// The reduction an all_reduce/reduce_scatter body applies, by name.
fn reduction(op: MlirOperation) -> Result<&'static str, PassFailure> {
    let body = raw::region_blocks(op).first().copied().ok_or_else(|| fail_at(op, "the collective has no computation"))?;
    let ops = raw::block_ops(body);
    // SAFETY: `body` is a live block; its arguments are read below their count.
    let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(body)).map(|i| mlirBlockGetArgument(body, i)).collect() };
    let n = args.len() / 2;
    let refuse = || {
        fail_at(
            op,
            "floors runs collectives whose computation is one add, multiply, minimum, maximum, and, or or xor of its two arguments per operand (as XLA:CPU's all-reduce); this computation is not one",
        )
    };
    let (Some((&ret, combines)), true) = (ops.split_last(), n > 0 && args.len() == 2 * n) else { return Err(refuse()) };
    if combines.len() != n || raw::operands(ret).len() != n {
        return Err(refuse());
    }
    let mut kind = None;
    for (i, &c) in combines.iter().enumerate() {
        let k = match raw::name(c).as_str() {
            "stablehlo.add" => "add",
            "stablehlo.multiply" => "mul",
            "stablehlo.minimum" => "min",
            "stablehlo.maximum" => "max",
            "stablehlo.and" => "and",
            "stablehlo.or" => "or",
            "stablehlo.xor" => "xor",
            _ => return Err(refuse()),
        };
        let ins = raw::operands(c);
        let pair = |a: MlirValue, b: MlirValue| ins.len() == 2 && ins[0].ptr == a.ptr && ins[1].ptr == b.ptr;
        let result = raw::results(c);
        if !(pair(args[i], args[n + i]) || pair(args[n + i], args[i])) || raw::operands(ret)[i].ptr != result[0].ptr {
            return Err(refuse());
        }
        if kind.is_some_and(|k0| k0 != k) {
            return Err(fail_at(op, "an all-reduce of several operands must apply the same reduction to each"));
        }
        kind = Some(k);
    }
    kind.ok_or_else(refuse)
}

/// The backend_config of the call replacing `op`.
fn config(op: MlirOperation, name: &str) -> Result<Vec<(&'static str, Value)>, PassFailure> {
    let mut out = Vec::new();
    if matches!(name, "stablehlo.replica_id" | "stablehlo.partition_id") {
        return Ok(out);
    }
    let channel = channel_id(op);
    let global_ids = raw::attr(op, "use_global_device_ids").is_some();
    let mode = match name {
        "stablehlo.all_reduce" | "stablehlo.all_gather" | "stablehlo.reduce_scatter" => match (channel > 0, global_ids) {
            (false, false) => "cross_replica",
            (true, false) => "cross_replica_and_partition",
            (true, true) => "flattened_ids",
            (false, true) => return Err(fail_at(op, "use_global_device_ids needs a channel_handle with a positive handle (the spec)")),
        },
        _ if channel > 0 => "cross_partition",
        _ => "cross_replica",
    };
    out.push(("mode", Value::Str(mode.into())));
    out.push(("channel_id", Value::Int(channel)));
    if name == "stablehlo.collective_permute" {
        let pairs = raw::i64_array(op, "source_target_pairs").ok_or_else(|| fail_at(op, "source_target_pairs is not an integer tensor"))?;
        out.push(("source_target_pairs", Value::Ints(pairs)));
        return Ok(out);
    }
    let (ids, size) = groups(op)?;
    out.push(("replica_groups", Value::Ints(ids)));
    out.push(("group_size", Value::Int(size)));
    let int = |attr: &str| raw::int_attr(op, attr).ok_or_else(|| fail_at(op, format!("`{attr}` is missing")));
    match name {
        "stablehlo.all_reduce" => out.push(("reduction", Value::Str(reduction(op)?.into()))),
        "stablehlo.reduce_scatter" => {
            out.push(("reduction", Value::Str(reduction(op)?.into())));
            out.push(("dimension", Value::Int(int("scatter_dimension")?)));
        }
        "stablehlo.all_gather" => out.push(("dimension", Value::Int(int("all_gather_dim")?))),
        "stablehlo.all_to_all" => {
            out.push(("split_dimension", Value::Int(int("split_dimension")?)));
            out.push(("concat_dimension", Value::Int(int("concat_dimension")?)));
            out.push(("split_count", Value::Int(int("split_count")?)));
        }
        _ => {}
    }
    if raw::attr(op, "has_dynamic_root").is_some() {
        return Err(fail_at(op, "a collective_broadcast with a dynamic root is not supported"));
    }
    Ok(out)
}

fn rewrite(op: MlirOperation, target: &str) -> Result<(), PassFailure> {
    let name = raw::name(op);
    let entries = config(op, &name)?;
    let (operands, results) = (raw::operands(op), raw::results(op));
    let b = Builder::before(op);
    // SAFETY: `b.ctx` is the live context of `op`; every attribute is built in it from owned data (names and strings
    // are copied by MLIR); the result types are the live result types of `op`.
    let call = unsafe {
        let ctx = b.ctx;
        let i64t = mlirIntegerTypeGet(ctx, 64);
        let named = |name: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(ctx, raw::sref(name)), a);
        let config: Vec<MlirNamedAttribute> = entries
            .iter()
            .map(|(k, v)| {
                let a = match v {
                    Value::Int(i) => mlirIntegerAttrGet(i64t, *i),
                    Value::Ints(is) => mlirDenseI64ArrayGet(ctx, is.len() as isize, is.as_ptr()),
                    Value::Str(s) => mlirStringAttrGet(ctx, raw::sref(s)),
                };
                named(k, a)
            })
            .collect();
        let dict = mlirDictionaryAttrGet(ctx, config.len() as isize, config.as_ptr());
        let types: Vec<MlirType> = results.iter().map(|&r| mlirValueGetType(r)).collect();
        b.op(
            "stablehlo.custom_call",
            &operands,
            &types,
            &[
                ("call_target_name", mlirStringAttrGet(ctx, raw::sref(target))),
                ("api_version", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), 4)),
                ("has_side_effect", mlirBoolAttrGet(ctx, 1)),
                ("mhlo.backend_config", dict),
            ],
        )
    };
    // SAFETY: `op` and `call` are live; `call` is right before `op` with one result per result of `op`, of the same
    // types; `op` is erased after its uses move and not used again.
    unsafe {
        for (i, r) in results.into_iter().enumerate() {
            mlirValueReplaceAllUsesOfWith(r, mlirOperationGetResult(call, i as isize));
        }
        mlirOperationDestroy(op);
    }
    Ok(())
}

/// Rewrites every collective of `module` when it runs on several devices;
/// returns how many.
pub fn run(module: MlirOperation) -> Result<usize, PassFailure> {
    if super::sharding::device_count(module) <= 1 {
        return Ok(0);
    }
    let target = |o: MlirOperation| {
        let n = raw::name(o);
        TARGETS.iter().find(|(op, _)| *op == n).map(|&(_, t)| t)
    };
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |o| target(o.to_raw()).is_some());
    let n = ops.len();
    for op in ops {
        if let Some(t) = target(op) {
            rewrite(op, t)?;
        }
    }
    Ok(n)
}

impl FloorsPass for HloCollectivesToCalls {
    const ARGUMENT: &'static str = "floors-hlo-collectives-to-calls";
    const NAME: &'static str = "FloorsHloCollectivesToCalls";
    const DESCRIPTION: &'static str = "In a module for several devices: each collective (and replica_id/partition_id) becomes a call of the runtime's collective thunk (custom_call @floors.<kind>) with its process groups resolved by the spec's modes";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw())?;
        tracing::debug!("floors-hlo-collectives-to-calls: {n} collectives");
        Ok(())
    }
}
