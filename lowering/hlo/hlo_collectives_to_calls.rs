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
//!
//! On the GPU floor (a `#floors.gpu_target` on the module) collectives run
//! as NCCL calls, which move rank-major blocks of flat buffers; as XLA:GPU
//! does for NCCL, a gather or scatter along a dimension that is not the
//! major one (the dimensions before it are not all 1) is done along
//! dimension 0 between transposes that move it there and back, and an
//! all-to-all whose split or concat dimension is not major is done on the
//! blocks made major (reshape and transpose of the split blocks to the
//! front; after the exchange, the source-rank axis moved to the concat
//! dimension and merged into it). The transposes are ordinary ops, fused
//! like any other.

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

/// Elements of `shape` before dimension `d`.
fn outer(shape: &[i64], d: usize) -> i64 {
    shape[..d].iter().product()
}

fn shape_of(v: MlirValue) -> Vec<i64> {
    raw::shape(v).unwrap_or_default()
}

/// `tensor<shape x elem>` with `like`'s element type.
fn tensor_like(like: MlirValue, shape: &[i64]) -> MlirType {
    // SAFETY: `like` is a live ranked tensor value; the new type is built in its context.
    unsafe {
        let elem = mlirShapedTypeGetElementType(mlirValueGetType(like));
        mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), elem, mlirAttributeGetNull())
    }
}

fn transpose(b: &Builder, x: MlirValue, perm: &[i64]) -> MlirValue {
    let s = shape_of(x);
    let out: Vec<i64> = perm.iter().map(|&p| s[p as usize]).collect();
    b.value("stablehlo.transpose", &[x], tensor_like(x, &out), &[("permutation", b.i64_array(perm))])
}

fn reshape(b: &Builder, x: MlirValue, shape: &[i64]) -> MlirValue {
    b.value("stablehlo.reshape", &[x], tensor_like(x, shape), &[])
}

/// `d` moved to the front of `0..rank`, and its inverse.
fn to_front(rank: usize, d: usize) -> (Vec<i64>, Vec<i64>) {
    let perm: Vec<i64> = std::iter::once(d).chain((0..rank).filter(|&i| i != d)).map(|i| i as i64).collect();
    let mut inv = vec![0i64; rank];
    for (i, &p) in perm.iter().enumerate() {
        inv[p as usize] = i as i64;
    }
    (perm, inv)
}

/// What makes result `i` of the op from the call's result `i`.
type Finish = Box<dyn Fn(&Builder, usize, MlirValue) -> MlirValue>;

/// How a collective is laid out for NCCL: its operands and the types of
/// the call's results, and how the op's results come from the call's.
struct NcclLayout {
    operands: Vec<MlirValue>,
    types: Vec<MlirType>,
    finish: Finish,
}

fn set(entries: &mut [(&'static str, Value)], key: &str, v: i64) {
    if let Some(e) = entries.iter_mut().find(|(k, _)| *k == key) {
        e.1 = Value::Int(v);
    }
}

/// The NCCL layout of `op` when its gather, scatter or all-to-all dimension
/// is not the major one (None: it is, or the op has none); `entries` are
/// changed to the major dimensions.
fn nccl_layout(op: MlirOperation, name: &str, entries: &mut [(&'static str, Value)], b: &Builder) -> Option<NcclLayout> {
    let (operands, results) = (raw::operands(op), raw::results(op));
    let get =
        |key: &str| entries.iter().find(|(k, _)| *k == key).and_then(|(_, v)| if let Value::Int(i) = v { Some(*i as usize) } else { None });
    match name {
        "stablehlo.all_gather" | "stablehlo.reduce_scatter" => {
            let d = get("dimension")?;
            let shapes: Vec<Vec<i64>> = operands.iter().map(|&x| shape_of(x)).collect();
            if shapes.iter().all(|s| d >= s.len() || outer(s, d) == 1) {
                return None;
            }
            let rank = shapes[0].len();
            let (perm, inv) = to_front(rank, d);
            let moved: Vec<MlirValue> = operands.iter().map(|&x| transpose(b, x, &perm)).collect();
            let types = results
                .iter()
                .map(|&r| {
                    let s = shape_of(r);
                    tensor_like(r, &perm.iter().map(|&p| s[p as usize]).collect::<Vec<_>>())
                })
                .collect();
            set(entries, "dimension", 0);
            Some(NcclLayout { operands: moved, types, finish: Box::new(move |b, _, y| transpose(b, y, &inv)) })
        }
        "stablehlo.all_to_all" => {
            let (sd, cd, k) = (get("split_dimension")?, get("concat_dimension")?, get("split_count")? as i64);
            let shapes: Vec<Vec<i64>> = operands.iter().map(|&x| shape_of(x)).collect();
            let out_shapes: Vec<Vec<i64>> = results.iter().map(|&r| shape_of(r)).collect();
            let major = |s: &Vec<i64>, d: usize| d < s.len() && outer(s, d) == 1;
            if shapes.iter().all(|s| major(s, sd)) && out_shapes.iter().all(|s| major(s, cd)) {
                return None;
            }
            if k <= 0 || shapes.iter().any(|s| sd >= s.len() || cd >= s.len() || s[sd] % k != 0) {
                return None;
            }
            let rank = shapes[0].len();
            // Split dimension sd into [k, S[sd]/k], the k axis to the front.
            let (perm, _) = to_front(rank + 1, sd);
            let mut moved = Vec::new();
            let mut types = Vec::new();
            for (&x, s) in operands.iter().zip(&shapes) {
                let mut split = s[..sd].to_vec();
                split.extend([k, s[sd] / k]);
                split.extend(&s[sd + 1..]);
                let y = transpose(b, reshape(b, x, &split), &perm);
                types.push(tensor_like(y, &shape_of(y)));
                moved.push(y);
            }
            set(entries, "split_dimension", 0);
            set(entries, "concat_dimension", 0);
            // After the exchange: the source-rank axis (0) goes right before
            // the concat dimension of the rest, and merges into it.
            let back: Vec<i64> = (1..=cd as i64).chain(std::iter::once(0)).chain(cd as i64 + 1..=rank as i64).collect();
            Some(NcclLayout { operands: moved, types, finish: Box::new(move |b, i, y| reshape(b, transpose(b, y, &back), &out_shapes[i])) })
        }
        _ => None,
    }
}

fn rewrite(op: MlirOperation, target: &str, nccl: bool) -> Result<(), PassFailure> {
    let name = raw::name(op);
    let mut entries = config(op, &name)?;
    let b = Builder::before(op);
    let layout = if nccl { nccl_layout(op, &name, &mut entries, &b) } else { None };
    let (operands, results) = (layout.as_ref().map_or_else(|| raw::operands(op), |l| l.operands.clone()), raw::results(op));
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
        let types: Vec<MlirType> =
            layout.as_ref().map_or_else(|| results.iter().map(|&r| mlirValueGetType(r)).collect(), |l| l.types.clone());
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
    // types (or, laid out for NCCL, made those by `finish`, built right after the call); `op` is erased after its
    // uses move and not used again.
    unsafe {
        for (i, r) in results.into_iter().enumerate() {
            let mut v = mlirOperationGetResult(call, i as isize);
            if let Some(l) = &layout {
                v = (l.finish)(&b, i, v);
            }
            mlirValueReplaceAllUsesOfWith(r, v);
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
    let nccl = floors_ir::target::GpuTarget::of_operation(module).is_some();
    for op in ops {
        if let Some(t) = target(op) {
            rewrite(op, t, nccl)?;
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
