//! `floors-hlo-spmd-partition`: a program JAX lowered for a mesh of several
//! devices becomes the per-device program every device runs (SPMD).
//!
//! What JAX 0.10.2 writes for `shard_map`: the entry function takes and
//! returns global arrays annotated with `sdy.sharding`, and its body is an
//! `sdy.manual_computation` whose region is already the per-device program
//! over local shards, with explicit collectives. Partitioning it (Shardy's
//! fully manual case) is:
//! - each argument of `@main` takes its local type: every dimension divided
//!   by the product of the mesh axes that split it (uneven splits refused);
//! - each manual computation whose operands are placed as its
//!   `in_shardings` say is replaced by its body (block arguments: the local
//!   operands; results: what `sdy.return` returns);
//! - elementwise ops over operands placed alike (outside a manual
//!   computation) keep that placement and take local types; ops over
//!   replicated values (constants, replicated arguments) stay as they are,
//!   every device computing the same;
//! - each result of `@main` must be placed as its `sdy.sharding` says (a
//!   result without one is placed as the value it returns, as Shardy
//!   propagates to outputs);
//! - the tiling of every argument and result is recorded on the module
//!   ([`SHARDINGS_ATTR`]);
//! - then every Shardy annotation and mesh is removed.
//!
//! Outside a manual computation (a `jit` with `NamedSharding`s), XLA's
//! data-parallel rules for a few ops: broadcast, transpose and reshape move
//! the split dimensions; slices, pads, concatenations, reverses, sorts and
//! windows along unsplit dimensions run on each tile; a while loop keeps
//! its carried values' placements; a replicated operand
//! met by a split one is taken tile by tile (rebuilt, or a `dynamic_slice`
//! at `partition_id`'s offset); a reduce keeps the split dimensions it does
//! not reduce and is
//! all-reduced over those it does (its inits must be the reduction's
//! identity); a dot keeps split batch and free dimensions and all-reduces the
//! partial sums of a contracting dimension split alike on both sides (data
//! parallelism, Megatron-style column/row sharded dots). Everything else on a
//! split value (a gather or scatter, a slice or reverse across a split
//! dimension, a dot split on one side of a contraction, ...) needs XLA's full
//! SPMD partitioner, which floors does not have: it is refused at the op,
//! naming the sharding, never run replicated. A partially manual computation
//! (a mesh axis of size > 1 left automatic) and resharding between
//! placements are refused the same way.
//!
//! The module keeps `mhlo.num_partitions`/`mhlo.num_replicas`; the
//! collectives of the body are left for `floors-hlo-collectives-to-calls`.

use std::collections::HashMap;

use melior::ir::OperationRef;
use mlir_sys::*;

use super::sharding::{Mesh, MeshRef, Sharding, parse_mesh, parse_sharding};
use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure, fail_at},
};

#[derive(Clone, Default)]
pub struct HloSpmdPartition;

/// The module attribute recording how `@main`'s arguments and results are
/// tiled over the devices: `{params = [...], results = [...]}`, each entry
/// `{tiles = array<i64>, devices = array<i64>, replicated_last}` (XLA's
/// `OpSharding` tile assignment; empty: replicated). The host program
/// carries it to the runtime (`SpmdLayout`), where the PJRT plugin reports
/// it as the executable's shardings.
pub const SHARDINGS_ATTR: &str = "floors.spmd_shardings";

/// The meshes of the module by name; each must fit the `partitions` the
/// module is lowered for (`mhlo.num_partitions`).
fn meshes(ops: &[MlirOperation], partitions: i64) -> Result<HashMap<String, Mesh>, PassFailure> {
    let mut out = HashMap::new();
    for &op in ops.iter().filter(|&&o| raw::name(o) == "sdy.mesh") {
        let name = raw::str_attr(op, "sym_name").unwrap_or_default();
        let text = raw::str_attr(op, "mesh").unwrap_or_default();
        let mesh = parse_mesh(&text).map_err(|e| fail_at(op, format!("mesh @{name} `{text}` cannot be read: {e}")))?;
        if mesh.devices() > 1 && mesh.devices() > partitions {
            return Err(fail_at(
                op,
                format!(
                    "'sdy.mesh' {text}: a program sharded over several devices must be lowered for them, but the mesh has {} devices and mhlo.num_partitions is {partitions}",
                    mesh.devices()
                ),
            ));
        }
        out.insert(name, mesh);
    }
    Ok(out)
}

/// The text of an `#sdy.*` attribute (after `#sdy.`), or None when `a` is not one.
fn sdy_text(a: MlirAttribute) -> Option<String> {
    // SAFETY: `a` is a live attribute; its spec is read only once it is known to be an sdy attribute.
    unsafe {
        (!a.ptr.is_null() && floors_ir::capi::floorsSdyAttributeIsAVerbatim(a))
            .then(|| raw::string(floors_ir::capi::floorsSdyVerbatimGetSpec(a)))
    }
}

/// `sdy.sharding` of argument (`arg_attrs`) or result (`res_attrs`) `i` of `func`.
fn func_sharding(func: MlirOperation, list: &str, i: usize) -> Option<String> {
    let array = raw::attr(func, list)?;
    // SAFETY: `array` is a live attribute of `func`; elements and entries are read only once their kinds are
    // checked, below their counts.
    unsafe {
        if !mlirAttributeIsAArray(array) || i as isize >= mlirArrayAttrGetNumElements(array) {
            return None;
        }
        let dict = mlirArrayAttrGetElement(array, i as isize);
        if !mlirAttributeIsADictionary(dict) {
            return None;
        }
        sdy_text(mlirDictionaryAttrGetElementByName(dict, raw::sref("sdy.sharding")))
    }
}

/// The partitioner's view of the module.
struct Partitioner {
    meshes: HashMap<String, Mesh>,
    /// Placement of each split value (absent: replicated, whole on every device).
    placed: HashMap<usize, Sharding>,
    changed: usize,
}

fn key(v: MlirValue) -> usize {
    v.ptr as usize
}

impl Partitioner {
    fn mesh<'a>(&'a self, s: &'a Sharding) -> Result<&'a Mesh, String> {
        match &s.mesh {
            MeshRef::Named(n) => {
                self.meshes.get(n).ok_or_else(|| format!("the sharding names mesh @{n}, which the module does not define"))
            }
            MeshRef::Inline(m) => Ok(m),
        }
    }

    fn read(&self, op: MlirOperation, what: &str, text: &str) -> Result<Sharding, PassFailure> {
        let s = parse_sharding(text).map_err(|e| fail_at(op, format!("{what}: sharding `{text}` cannot be read: {e}")))?;
        if !s.unreduced.is_empty() {
            return Err(fail_at(op, format!("{what}: an unreduced sharding (`{text}`) is not supported")));
        }
        Ok(s)
    }

    /// The local type of a value of global type `t` placed as `s`.
    fn local_type(&self, op: MlirOperation, what: &str, t: MlirType, s: &Sharding) -> Result<MlirType, PassFailure> {
        let mesh = self.mesh(s).map_err(|e| fail_at(op, format!("{what}: {e}")))?;
        let shape = raw::type_shape(t).ok_or_else(|| fail_at(op, format!("{what}: a split value must be a statically shaped tensor")))?;
        if s.dims.len() > shape.len() && !s.dims[shape.len()..].iter().all(Vec::is_empty) {
            return Err(fail_at(op, format!("{what}: sharding {s} has more dimensions than the value's {}", shape.len())));
        }
        let mut local = shape.clone();
        for (d, axes) in s.dims.iter().enumerate().take(shape.len()) {
            let mut parts: i64 = 1;
            for a in axes {
                let size = match a.sub {
                    Some((_, size)) => size,
                    None => mesh
                        .size(&a.name)
                        .ok_or_else(|| fail_at(op, format!("{what}: sharding {s} names axis \"{}\", not in its mesh", a.name)))?,
                };
                parts = parts.saturating_mul(size);
            }
            if parts > 1 && shape[d] % parts != 0 {
                return Err(fail_at(
                    op,
                    format!(
                        "{what}: dimension {d} of size {} cannot be split evenly into {parts} shards ({s}); floors partitions even splits only",
                        shape[d]
                    ),
                ));
            }
            local[d] = shape[d] / parts;
        }
        // SAFETY: `t` is a live ranked tensor type (it has a static shape); the new type has its element type and
        // encoding, and the shape lives for the call.
        Ok(unsafe {
            mlirRankedTensorTypeGet(
                local.len() as isize,
                local.as_ptr(),
                mlirShapedTypeGetElementType(t),
                mlirRankedTensorTypeGetEncoding(t),
            )
        })
    }

    fn placement(&self, v: MlirValue) -> Option<&Sharding> {
        self.placed.get(&key(v)).filter(|s| !s.is_replicated())
    }

    /// Arguments of `@main` take their local types; their placements
    /// (None: replicated) come back with them.
    fn arguments(&mut self, func: MlirOperation) -> Result<(Vec<MlirType>, Vec<Option<Sharding>>), PassFailure> {
        let block = raw::region_blocks(func).first().copied().ok_or_else(|| fail_at(func, "the entry function has no body"))?;
        let mut types = Vec::new();
        let mut placements = Vec::new();
        // SAFETY: `block` is the live entry block of `func`; its arguments are read below their count and retyped in
        // place (their users are retyped or checked by the walk that follows).
        unsafe {
            for i in 0..mlirBlockGetNumArguments(block) {
                let arg = mlirBlockGetArgument(block, i);
                let t = mlirValueGetType(arg);
                if let Some(text) = func_sharding(func, "arg_attrs", i as usize) {
                    let what = format!("argument {i}");
                    let s = self.read(func, &what, &text)?;
                    if !s.is_replicated() {
                        let local = self.local_type(func, &what, t, &s)?;
                        mlirValueSetType(arg, local);
                        self.placed.insert(key(arg), s.clone());
                        self.changed += 1;
                        types.push(local);
                        placements.push(Some(s));
                        continue;
                    }
                }
                types.push(t);
                placements.push(None);
            }
        }
        Ok((types, placements))
    }

    /// `{tiles = array<i64>, devices = array<i64>, replicated_last}` of a
    /// value of type `t` placed as `s` (an empty dictionary: replicated).
    fn tiling_attr(&self, at: MlirOperation, what: &str, t: MlirType, s: Option<&Sharding>) -> Result<MlirAttribute, PassFailure> {
        let tiling = match s {
            Some(s) => {
                let mesh = self.mesh(s).map_err(|e| fail_at(at, format!("{what}: {e}")))?;
                let rank = raw::type_shape(t).map_or(0, |v| v.len());
                s.tiling(mesh, rank).map_err(|e| fail_at(at, format!("{what}: {e}")))?
            }
            None => Default::default(),
        };
        // SAFETY: the attributes are built in the live context of `at` from owned data.
        unsafe {
            let ctx = mlirOperationGetContext(at);
            let named = |name: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(ctx, raw::sref(name)), a);
            let mut entries = Vec::new();
            if !tiling.tiles.is_empty() {
                entries.push(named("devices", mlirDenseI64ArrayGet(ctx, tiling.devices.len() as isize, tiling.devices.as_ptr())));
                entries.push(named("replicated_last", mlirBoolAttrGet(ctx, tiling.replicated_last as i32)));
                entries.push(named("tiles", mlirDenseI64ArrayGet(ctx, tiling.tiles.len() as isize, tiling.tiles.as_ptr())));
            }
            Ok(mlirDictionaryAttrGet(ctx, entries.len() as isize, entries.as_ptr()))
        }
    }

    /// Replaces a manual computation by its body.
    fn inline_manual(&mut self, op: MlirOperation) -> Result<(), PassFailure> {
        let strings = |name: &str| -> Vec<String> {
            raw::attr(op, name)
                .map(|a| {
                    // SAFETY: `a` is a live attribute of `op`; elements are read below the count, as strings only.
                    unsafe {
                        if !mlirAttributeIsAArray(a) {
                            return Vec::new();
                        }
                        (0..mlirArrayAttrGetNumElements(a))
                            .filter_map(|i| {
                                let e = mlirArrayAttrGetElement(a, i);
                                mlirAttributeIsAString(e).then(|| raw::string(mlirStringAttrGetValue(e)))
                            })
                            .collect()
                    }
                })
                .unwrap_or_default()
        };
        let (ins, outs, manual) = (strings("in_shardings"), strings("out_shardings"), strings("manual_axes"));
        let operands = raw::operands(op);
        for (i, (&v, text)) in operands.iter().zip(&ins).enumerate() {
            let want = self.read(op, &format!("in_shardings[{i}]"), text)?;
            let mesh = self.mesh(&want).map_err(|e| fail_at(op, e))?.clone();
            let automatic: Vec<&str> = mesh.axes.iter().filter(|(a, s)| *s > 1 && !manual.contains(a)).map(|(a, _)| a.as_str()).collect();
            if !automatic.is_empty() {
                return Err(fail_at(
                    op,
                    format!(
                        "a partially manual computation (mesh axes {automatic:?} left automatic) needs automatic SPMD partitioning, which floors does not do; make every mesh axis manual in shard_map"
                    ),
                ));
            }
            let has = self.placement(v).cloned();
            let matches = match &has {
                Some(s) => s.places_like(&want),
                None => want.is_replicated(),
            };
            if !matches {
                let has = has.map_or("replicated".to_string(), |s| s.to_string());
                return Err(fail_at(
                    op,
                    format!("operand {i} is placed as {has} but the manual computation takes it as {want}: floors does not reshard"),
                ));
            }
        }
        let body = raw::region_blocks(op).first().copied().ok_or_else(|| fail_at(op, "sdy.manual_computation without a body"))?;
        let ret = raw::block_ops(body).last().copied().ok_or_else(|| fail_at(op, "sdy.manual_computation with an empty body"))?;
        // SAFETY: the body's block arguments are replaced by the operands, whose local types equal theirs (checked
        // first; the op's verifier checked rank and element type).
        unsafe {
            for (i, &v) in operands.iter().enumerate() {
                let arg = mlirBlockGetArgument(body, i as isize);
                if !mlirTypeEqual(mlirValueGetType(arg), mlirValueGetType(v)) {
                    return Err(fail_at(op, format!("operand {i}: its local shard does not have the type of the body's argument {i}")));
                }
            }
            for (i, &v) in operands.iter().enumerate() {
                mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i as isize), v);
            }
        }
        // Read after the arguments' uses moved: a body may return an argument.
        let results = raw::results(op);
        let returned = raw::operands(ret);
        for (j, (&r, text)) in results.iter().zip(&outs).enumerate() {
            let s = self.read(op, &format!("out_shardings[{j}]"), text)?;
            // SAFETY: `r` and the returned value are live; only their types are read.
            let (global, local) = unsafe { (mlirValueGetType(r), mlirValueGetType(returned[j])) };
            let expected = if s.is_replicated() { global } else { self.local_type(op, &format!("result {j}"), global, &s)? };
            // SAFETY: both types are live, uniqued in one context.
            if !unsafe { mlirTypeEqual(expected, local) } {
                return Err(fail_at(op, format!("result {j}: the body returns a shard whose type does not match out_shardings[{j}] {s}")));
            }
            if !s.is_replicated() {
                self.placed.insert(key(returned[j]), s);
            }
        }
        // SAFETY: the body's ops move before `op` in order; its results are replaced by the returned values (defined
        // before `op` now, or operands of it), and `op` (with its terminator) is destroyed and not used again.
        unsafe {
            for o in raw::block_ops(body) {
                if o.ptr == ret.ptr {
                    break;
                }
                mlirOperationMoveBefore(o, op);
            }
            for (r, v) in results.into_iter().zip(returned) {
                mlirValueReplaceAllUsesOfWith(r, v);
            }
            mlirOperationDestroy(op);
        }
        self.changed += 1;
        Ok(())
    }

    /// The local shard of the replicated value `v` placed as `s`, built right
    /// before `at`, when every shard is known without the device's position:
    /// a splat constant, a broadcast whose operand spans no split dimension
    /// (a scalar, a bias row), an iota along an unsplit dimension. None
    /// otherwise.
    fn localize(&mut self, v: MlirValue, s: &Sharding, at: MlirOperation) -> Result<Option<MlirValue>, PassFailure> {
        // SAFETY: `v` is a live value; only its type is read.
        let local = self.local_type(at, "operand", unsafe { mlirValueGetType(v) }, s)?;
        let Some(def) = raw::producer(v) else { return self.slice_of_replicated(v, s, at, local) };
        let b = floors_ir::op_builder::Builder::before(at);
        match raw::name(def).as_str() {
            "stablehlo.constant" => {
                let Some(value) = raw::attr(def, "value") else { return self.slice_of_replicated(v, s, at, local) };
                // SAFETY: `value` is the live elements attribute of a constant; its splat value is read only when it
                // is a splat, and the new splat is of the local type (same element type).
                let splat = unsafe {
                    if !mlirAttributeIsADenseElements(value) || !mlirDenseElementsAttrIsSplat(value) {
                        return self.slice_of_replicated(v, s, at, local);
                    }
                    mlirDenseElementsAttrSplatGet(local, mlirDenseElementsAttrGetSplatValue(value))
                };
                Ok(Some(b.value("stablehlo.constant", &[], local, &[("value", splat)])))
            }
            "stablehlo.broadcast_in_dim" => {
                // A broadcast whose operand does not span a split dimension
                // (or spans it with size 1): the same broadcast at the shard's size.
                let operand = raw::operands(def)[0];
                let map = raw::i64_array(def, "broadcast_dimensions").unwrap_or_default();
                let ins = raw::shape(operand).unwrap_or_default();
                let split = |j: usize| s.dims.get(j).is_some_and(|a| !a.is_empty());
                if map.iter().zip(&ins).any(|(&j, &n)| split(j as usize) && n != 1) {
                    return self.slice_of_replicated(v, s, at, local);
                }
                let dims =
                    raw::attr(def, "broadcast_dimensions").ok_or_else(|| fail_at(def, "broadcast_in_dim without broadcast_dimensions"))?;
                Ok(Some(b.value("stablehlo.broadcast_in_dim", &[operand], local, &[("broadcast_dimensions", dims)])))
            }
            "stablehlo.iota" => {
                // Counting along a dimension that is not split: every shard counts the same.
                let Some(d) = raw::int_attr(def, "iota_dimension") else { return self.slice_of_replicated(v, s, at, local) };
                if s.dims.get(d as usize).is_some_and(|a| !a.is_empty()) {
                    return self.slice_of_replicated(v, s, at, local);
                }
                let attr = raw::attr(def, "iota_dimension").ok_or_else(|| fail_at(def, "iota without iota_dimension"))?;
                Ok(Some(b.value("stablehlo.iota", &[], local, &[("iota_dimension", attr)])))
            }
            _ => self.slice_of_replicated(v, s, at, local),
        }
    }

    /// Any other replicated value: each device takes its tile with a
    /// `dynamic_slice` at offsets computed from its `partition_id` (XLA's
    /// partitioner does the same). The mesh must list its devices in order
    /// (no `device_ids` permutation) and its axes must be whole.
    fn slice_of_replicated(
        &mut self,
        v: MlirValue,
        s: &Sharding,
        at: MlirOperation,
        local: MlirType,
    ) -> Result<Option<MlirValue>, PassFailure> {
        let mesh = self.mesh(s).map_err(|e| fail_at(at, e))?.clone();
        let in_order = mesh.device_ids.as_ref().is_none_or(|ids| ids.iter().enumerate().all(|(i, &d)| d == i as i64));
        if !in_order || s.dims.iter().flatten().any(|a| a.sub.is_some()) {
            return Ok(None);
        }
        let Some(local_shape) = raw::type_shape(local) else { return Ok(None) };
        let b = floors_ir::op_builder::Builder::before(at);
        // SAFETY: every value and attribute is built in the live context of `at`, before it, from live values.
        unsafe {
            let i64t = mlirRankedTensorTypeGet(0, std::ptr::null(), mlirIntegerTypeGet(b.ctx, 64), mlirAttributeGetNull());
            let u32t = mlirRankedTensorTypeGet(0, std::ptr::null(), mlirIntegerTypeUnsignedGet(b.ctx, 32), mlirAttributeGetNull());
            let cst = |n: i64| b.value("stablehlo.constant", &[], i64t, &[("value", mlirDenseElementsAttrInt64SplatGet(i64t, n))]);
            let pid = b.value("stablehlo.partition_id", &[], u32t, &[]);
            let pid = b.value("stablehlo.convert", &[pid], i64t, &[]);
            // Coordinate of each mesh axis: (pid / stride) % size, row-major.
            let sizes: Vec<i64> = mesh.axes.iter().map(|&(_, n)| n).collect();
            let coord = |axis: &str| -> Option<MlirValue> {
                let i = mesh.axes.iter().position(|(n, _)| n == axis)?;
                let stride: i64 = sizes[i + 1..].iter().product();
                let q = b.value("stablehlo.divide", &[pid, cst(stride)], i64t, &[]);
                Some(b.value("stablehlo.remainder", &[q, cst(sizes[i])], i64t, &[]))
            };
            let mut starts = Vec::new();
            for (d, &n) in local_shape.iter().enumerate() {
                let mut index = cst(0);
                for a in s.dims.get(d).map(Vec::as_slice).unwrap_or(&[]) {
                    let Some(c) = coord(&a.name) else { return Ok(None) };
                    let size = mesh.size(&a.name).unwrap_or(1);
                    let scaled = b.value("stablehlo.multiply", &[index, cst(size)], i64t, &[]);
                    index = b.value("stablehlo.add", &[scaled, c], i64t, &[]);
                }
                starts.push(b.value("stablehlo.multiply", &[index, cst(n)], i64t, &[]));
            }
            let mut operands = vec![v];
            operands.extend(starts);
            let sizes_attr = mlirDenseI64ArrayGet(b.ctx, local_shape.len() as isize, local_shape.as_ptr());
            Ok(Some(b.value("stablehlo.dynamic_slice", &operands, local, &[("slice_sizes", sizes_attr)])))
        }
    }

    /// A sharding constraint outside the manual computations: the value is
    /// placed so already (it goes), or it is a replicated splat or scalar
    /// broadcast, which each device builds at its shard's size.
    fn constraint(&mut self, op: MlirOperation) -> Result<(), PassFailure> {
        let v = raw::operands(op)[0];
        let text = raw::str_attr(op, "sharding").unwrap_or_default();
        let want = self.read(op, "sharding_constraint", &text)?;
        let replacement = match self.placement(v).cloned() {
            Some(has) if has.places_like(&want) => v,
            Some(has) => return Err(fail_at(op, format!("the value is placed as {has}; resharding it to {want} is not supported"))),
            None if want.is_replicated() => v,
            None => match self.localize(v, &want, op)? {
                Some(local) => {
                    self.placed.insert(key(local), want);
                    local
                }
                None => {
                    return Err(fail_at(
                        op,
                        format!(
                            "splitting a replicated value to {want} is supported for splat constants and scalar broadcasts only (it needs automatic SPMD partitioning)"
                        ),
                    ));
                }
            },
        };
        // SAFETY: a live sharding_constraint with one result; its uses move to `replacement` (its local value, which
        // dominates them), then it is erased and not used again.
        unsafe {
            mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), replacement);
            mlirOperationDestroy(op);
        }
        self.changed += 1;
        Ok(())
    }

    /// An op outside the manual computations.
    fn other(&mut self, op: MlirOperation) -> Result<(), PassFailure> {
        let name = raw::name(op);
        if name == "sdy.sharding_constraint" {
            return self.constraint(op);
        }
        let operands = raw::operands(op);
        let Some(first) = operands.iter().find_map(|&v| self.placement(v).cloned()) else { return Ok(()) };
        if let Some(done) = self.propagate(op, &name)? {
            self.changed += done;
            return Ok(());
        }
        let refuse = |what: &str| {
            fail_at(
                op,
                format!(
                    "`{name}` on {what} outside sdy.manual_computation needs automatic SPMD partitioning, which floors does not do: write the sharded part with shard_map (every mesh axis manual)"
                ),
            )
        };
        // An elementwise op on each device's shard is the shard of its result, whatever the placement.
        if !matches!(super::fusion_analysis::classify_name(&name), super::fusion_analysis::OpClass::Elementwise { .. }) {
            return Err(refuse(&format!("a value placed as {first}")));
        }
        for (i, &v) in operands.iter().enumerate() {
            let local = match self.placement(v) {
                Some(s) if s.places_like(&first) => continue,
                Some(s) => return Err(refuse(&format!("values placed as {first} and {s}"))),
                // A scalar operand (clamp's bounds, select's predicate) is the same on every tile.
                None if raw::shape(v).is_some_and(|s| s.is_empty()) => continue,
                None => {
                    self.localize(v, &first, op)?.ok_or_else(|| refuse(&format!("a value placed as {first} and a replicated value")))?
                }
            };
            // SAFETY: `op` is live and `i` below its operand count; `local` is built right before `op`.
            unsafe { mlirOperationSetOperand(op, i as isize, local) };
        }
        for r in raw::results(op) {
            // SAFETY: `r` is a live result of `op`; it is retyped to its local type, as its operands were.
            unsafe {
                let local = self.local_type(op, "result", mlirValueGetType(r), &first)?;
                mlirValueSetType(r, local);
            }
            self.placed.insert(key(r), first.clone());
        }
        self.changed += 1;
        Ok(())
    }

    /// The data-parallel rules of XLA's partitioner for a few ops over split
    /// values: broadcast and transpose move the split dimensions; a reduce
    /// keeps the split dimensions it does not reduce and all-reduces over
    /// the ones it does; a dot keeps split batch and free dimensions and
    /// all-reduces the partial sums of split contracting dimensions. Some(1)
    /// when a rule applied; None when none does (the op is then refused or
    /// taken as elementwise by the caller).
    fn propagate(&mut self, op: MlirOperation, name: &str) -> Result<Option<usize>, PassFailure> {
        let operands = raw::operands(op);
        let dims_of = |p: &Self, v: MlirValue| -> Vec<Vec<super::sharding::Axis>> {
            let rank = raw::shape(v).map_or(0, |s| s.len());
            let mut d = p.placement(v).map(|s| s.dims.clone()).unwrap_or_default();
            d.resize(rank, Vec::new());
            d
        };
        let Some(template) = operands.iter().find_map(|&v| self.placement(v).cloned()) else { return Ok(None) };
        let with_dims = |dims: Vec<Vec<super::sharding::Axis>>| template.with_dims(dims);
        match name {
            "stablehlo.broadcast_in_dim" => {
                let map = raw::i64_array(op, "broadcast_dimensions").unwrap_or_default();
                let (from, out) = (dims_of(self, operands[0]), raw::results(op)[0]);
                let (ins, outs) = (raw::shape(operands[0]).unwrap_or_default(), raw::shape(out).unwrap_or_default());
                let mesh = self.mesh(&template).map_err(|e| fail_at(op, e))?.clone();
                let mut dims = vec![Vec::new(); outs.len()];
                for (i, axes) in from.into_iter().enumerate() {
                    let j = map[i] as usize;
                    // The operand is local already: its split dimension times
                    // the shards must be the result's (no size-1 expansion).
                    let parts: i64 = axes.iter().map(|a| a.sub.map_or_else(|| mesh.size(&a.name).unwrap_or(1), |(_, n)| n)).product();
                    if !axes.is_empty() && ins[i] * parts != outs[j] {
                        return Ok(None);
                    }
                    dims[j] = axes;
                }
                self.place(op, 0, with_dims(dims))?;
            }
            "stablehlo.transpose" => {
                let perm = raw::i64_array(op, "permutation").unwrap_or_default();
                let from = dims_of(self, operands[0]);
                self.place(op, 0, with_dims(perm.iter().map(|&p| from[p as usize].clone()).collect()))?;
            }
            "stablehlo.reshape" => {
                // A split dimension must start at the same element offset in
                // the result and become one result dimension that it is the
                // major part of (or that is the major part of it), divisible
                // by the shards: each device's tile stays one tile.
                let mesh = self.mesh(&template).map_err(|e| fail_at(op, e))?.clone();
                let from = dims_of(self, operands[0]);
                let outs = raw::shape(raw::results(op)[0]).unwrap_or_default();
                let locals = raw::shape(operands[0]).unwrap_or_default();
                let parts = |axes: &[super::sharding::Axis]| -> i64 { axes.iter().map(|a| mesh.size(&a.name).unwrap_or(1)).product() };
                let ins: Vec<i64> = locals.iter().zip(&from).map(|(&n, a)| n * parts(a)).collect();
                let mut dims = vec![Vec::new(); outs.len()];
                for (d, axes) in from.iter().enumerate().filter(|(_, a)| !a.is_empty()) {
                    let pre: i64 = ins[..d].iter().product();
                    let Some(j) = (0..outs.len()).find(|&j| outs[..j].iter().product::<i64>() == pre && outs[j] != 1) else {
                        return Ok(None);
                    };
                    let p = parts(axes);
                    let fits = (outs[j] == ins[d]) || (ins[d] % outs[j] == 0 && outs[j] % p == 0) || (outs[j] % ins[d] == 0);
                    if !fits || !dims[j].is_empty() || axes.iter().any(|a| a.sub.is_some()) {
                        return Ok(None);
                    }
                    dims[j] = axes.clone();
                }
                self.place(op, 0, with_dims(dims))?;
            }
            "stablehlo.reduce" => return self.reduce(op, &template),
            "stablehlo.while" => return self.while_loop(op),
            "stablehlo.slice"
            | "stablehlo.pad"
            | "stablehlo.concatenate"
            | "stablehlo.reverse"
            | "stablehlo.sort"
            | "stablehlo.reduce_window" => return self.along_unsplit_dims(op, name),
            "stablehlo.dot_general" => return self.dot(op, &template),
            _ => return Ok(None),
        }
        Ok(Some(1))
    }

    /// Ops that work along some dimensions and leave the others alone: when
    /// every dimension they work along is unsplit, each device runs the op
    /// on its tiles (a slice keeping split dimensions whole gets the local
    /// limits). Every operand is placed like the first split one (replicated
    /// operands are taken tile by tile); every result takes that placement.
    fn along_unsplit_dims(&mut self, op: MlirOperation, name: &str) -> Result<Option<usize>, PassFailure> {
        let operands = raw::operands(op);
        let Some(first) = operands.iter().find_map(|&v| self.placement(v).cloned()) else { return Ok(None) };
        let rank = raw::shape(operands[0]).map_or(0, |s| s.len());
        let split: Vec<bool> = (0..rank).map(|d| first.dims.get(d).is_some_and(|a| !a.is_empty())).collect();
        let ints = |attr: &str| raw::i64_array(op, attr).unwrap_or_default();
        // The dimensions the op works along.
        let touched: Vec<usize> = match name {
            "stablehlo.slice" => {
                let (start, limit, stride) = (ints("start_indices"), ints("limit_indices"), ints("strides"));
                // The operand is local already: a split dimension is whole when
                // its limit is the global extent (local times the shards).
                let mesh = self.mesh(&first).map_err(|e| fail_at(op, e))?.clone();
                let local = raw::shape(operands[0]).unwrap_or_default();
                let global = |d: usize| local[d] * first.dims[d].iter().map(|a| mesh.size(&a.name).unwrap_or(1)).product::<i64>();
                (0..rank).filter(|&d| split[d] && (start[d] != 0 || stride[d] != 1 || limit[d] != global(d))).collect()
            }
            "stablehlo.pad" => {
                let (lo, hi, interior) = (ints("edge_padding_low"), ints("edge_padding_high"), ints("interior_padding"));
                (0..rank).filter(|&d| lo[d] != 0 || hi[d] != 0 || interior[d] != 0).collect()
            }
            "stablehlo.concatenate" => vec![raw::int_attr(op, "dimension").unwrap_or(0) as usize],
            "stablehlo.reverse" => ints("dimensions").iter().map(|&d| d as usize).collect(),
            "stablehlo.sort" => vec![raw::int_attr(op, "dimension").unwrap_or(0) as usize],
            "stablehlo.reduce_window" => {
                let (win, strides, dil, bdil) =
                    (ints("window_dimensions"), ints("window_strides"), ints("window_dilations"), ints("base_dilations"));
                let pad = ints("padding");
                (0..rank)
                    .filter(|&d| {
                        win.get(d).is_some_and(|&w| w != 1)
                            || strides.get(d).is_some_and(|&x| x != 1)
                            || dil.get(d).is_some_and(|&x| x != 1)
                            || bdil.get(d).is_some_and(|&x| x != 1)
                            || pad.get(2 * d).is_some_and(|&x| x != 0)
                            || pad.get(2 * d + 1).is_some_and(|&x| x != 0)
                    })
                    .collect()
            }
            _ => return Ok(None),
        };
        if touched.iter().any(|&d| d >= rank || split[d]) {
            return Ok(None);
        }
        // Operands: the split ones placed alike, the others (values of the
        // same shape; a pad value or window init stays replicated) tiled.
        let rank_of = |v: MlirValue| raw::shape(v).map_or(0, |s| s.len());
        for (i, &v) in operands.iter().enumerate() {
            match self.placement(v) {
                Some(p) if p.places_like(&first) => {}
                Some(_) => return Ok(None),
                None if rank_of(v) == rank && rank > 0 => {
                    let Some(local) = self.localize(v, &first, op)? else { return Ok(None) };
                    // SAFETY: `op` is live and `i` below its operand count; `local` is built right before `op`.
                    unsafe { mlirOperationSetOperand(op, i as isize, local) };
                }
                None => {}
            }
        }
        if name == "stablehlo.slice" {
            // Split dimensions are taken whole: their limits are the local extents.
            let local = raw::shape(operands[0]).unwrap_or_default();
            let mut limit = ints("limit_indices");
            for d in (0..rank).filter(|&d| split[d]) {
                limit[d] = local[d];
            }
            // SAFETY: a DenseI64Array of the live op's context replaces its own `limit_indices`.
            unsafe {
                let a = mlirDenseI64ArrayGet(mlirOperationGetContext(op), limit.len() as isize, limit.as_ptr());
                mlirOperationSetAttributeByName(op, raw::sref("limit_indices"), a);
            }
        }
        let out = first.with_dims(first.dims.clone());
        for i in 0..raw::results(op).len() {
            if raw::shape(raw::results(op)[i]).map_or(0, |s| s.len()) == rank {
                self.place(op, i, out.clone())?;
            }
        }
        Ok(Some(1))
    }

    /// A loop over split values: the carried values keep their placements
    /// through the loop (its condition and body are partitioned with their
    /// arguments placed as the operands; the body must yield each value
    /// placed as it came, the condition a replicated predicate).
    fn while_loop(&mut self, op: MlirOperation) -> Result<Option<usize>, PassFailure> {
        let operands = raw::operands(op);
        let placements: Vec<Option<Sharding>> = operands.iter().map(|&v| self.placement(v).cloned()).collect();
        let blocks: Vec<MlirBlock> = raw::region_blocks(op);
        if blocks.len() != 2 {
            return Ok(None);
        }
        for &block in &blocks {
            // SAFETY: `block` is a live block of the loop; its arguments (one per operand) are retyped to the
            // operands' local types, which their uses inside are partitioned for below.
            unsafe {
                if mlirBlockGetNumArguments(block) as usize != operands.len() {
                    return Ok(None);
                }
                for (i, (&v, p)) in operands.iter().zip(&placements).enumerate() {
                    let arg = mlirBlockGetArgument(block, i as isize);
                    mlirValueSetType(arg, mlirValueGetType(v));
                    if let Some(p) = p {
                        self.placed.insert(key(arg), p.clone());
                    }
                }
            }
            self.partition_block(block)?;
        }
        let yielded = raw::block_ops(blocks[1]).last().map(|&t| raw::operands(t)).unwrap_or_default();
        let cond = raw::block_ops(blocks[0]).last().map(|&t| raw::operands(t)).unwrap_or_default();
        let same = |v: &MlirValue, p: &Option<Sharding>| match (self.placement(*v), p) {
            (Some(a), Some(b)) => a.places_like(b),
            (None, None) => true,
            _ => false,
        };
        if yielded.len() != operands.len()
            || !yielded.iter().zip(&placements).all(|(v, p)| same(v, p))
            || cond.iter().any(|&v| self.placement(v).is_some())
        {
            return Err(fail_at(
                op,
                "a loop whose body changes how a carried value is split needs automatic SPMD partitioning, which floors does not do",
            ));
        }
        for (i, p) in placements.into_iter().enumerate() {
            if let Some(p) = p {
                self.place(op, i, p)?;
            }
        }
        Ok(Some(1))
    }

    /// Partitions the ops of a nested block (a loop's condition or body) in order.
    fn partition_block(&mut self, block: MlirBlock) -> Result<(), PassFailure> {
        let ops = raw::block_ops(block);
        let Some((_, rest)) = ops.split_last() else { return Ok(()) };
        for &o in rest {
            if raw::name(o) == "sdy.manual_computation" {
                return Err(fail_at(o, "floors partitions a manual computation in the entry function's body only"));
            }
            self.other(o)?;
        }
        Ok(())
    }

    /// Result `i` of `op` takes placement `s` and its local type.
    fn place(&mut self, op: MlirOperation, i: usize, s: Sharding) -> Result<(), PassFailure> {
        let r = raw::results(op)[i];
        // SAFETY: `r` is a live result of `op`; it is retyped to its local type.
        unsafe {
            let local = self.local_type(op, "result", mlirValueGetType(r), &s)?;
            mlirValueSetType(r, local);
        }
        if !s.is_replicated() {
            self.placed.insert(key(r), s);
        }
        Ok(())
    }

    fn reduce(&mut self, op: MlirOperation, template: &Sharding) -> Result<Option<usize>, PassFailure> {
        let operands = raw::operands(op);
        let n = operands.len() / 2;
        let reduced = raw::i64_array(op, "dimensions").unwrap_or_default();
        let first = self.placement(operands[0]).cloned().unwrap_or_else(|| template.clone());
        let rank = raw::shape(operands[0]).map_or(0, |s| s.len());
        let mut dims = first.dims.clone();
        dims.resize(rank, Vec::new());
        // Every input placed alike (a replicated one, such as argmax's iota
        // of indices, taken tile by tile), inits replicated.
        if operands[n..].iter().any(|&v| self.placement(v).is_some()) {
            return Ok(None);
        }
        for (i, &v) in operands[..n].iter().enumerate() {
            match self.placement(v) {
                Some(p) if p.places_like(&first) => {}
                Some(_) => return Ok(None),
                None => {
                    let Some(local) = self.localize(v, &first, op)? else { return Ok(None) };
                    // SAFETY: `op` is live and `i` below its operand count; `local` is built right before `op`.
                    unsafe { mlirOperationSetOperand(op, i as isize, local) };
                }
            }
        }
        let kept: Vec<Vec<super::sharding::Axis>> =
            (0..rank).filter(|d| !reduced.contains(&(*d as i64))).map(|d| dims[d].clone()).collect();
        let over: Vec<String> = reduced.iter().flat_map(|&d| dims[d as usize].iter().map(|a| a.name.clone())).collect();
        if !over.is_empty() && !identity_inits(op, n) {
            return Ok(None);
        }
        let out = first.with_dims(kept);
        for i in 0..raw::results(op).len() {
            self.place(op, i, out.clone())?;
        }
        if !over.is_empty() {
            self.all_reduce_after(op, &first, &over, Some(op))?;
        }
        Ok(Some(1))
    }

    fn dot(&mut self, op: MlirOperation, template: &Sharding) -> Result<Option<usize>, PassFailure> {
        let operands = raw::operands(op);
        let (lhs, rhs) = (operands[0], operands[1]);
        let d = floors_ir::dialects::stablehlo::DotGeneralOp::cast(op).and_then(|g| g.dimension_numbers());
        let Some(dn) = d else { return Ok(None) };
        let axes_of = |v: MlirValue| -> Vec<Vec<String>> {
            let rank = raw::shape(v).map_or(0, |s| s.len());
            let mut a: Vec<Vec<String>> =
                self.placement(v).map(|s| s.dims.iter().map(|d| d.iter().map(|x| x.name.clone()).collect()).collect()).unwrap_or_default();
            a.resize(rank, Vec::new());
            a
        };
        if [lhs, rhs].iter().any(|&v| self.placement(v).is_some_and(|s| s.dims.iter().flatten().any(|a| a.sub.is_some()))) {
            return Ok(None);
        }
        let (la, ra) = (axes_of(lhs), axes_of(rhs));
        let pairs = |l: &[i64], r: &[i64]| l.iter().zip(r).map(|(&a, &b)| (a as usize, b as usize)).collect::<Vec<_>>();
        let (batch, contract) =
            (pairs(&dn.lhs_batching_dims, &dn.rhs_batching_dims), pairs(&dn.lhs_contracting_dims, &dn.rhs_contracting_dims));
        if batch.iter().chain(&contract).any(|&(l, r)| la[l] != ra[r]) {
            return Ok(None);
        }
        let free = |axes: &[Vec<String>], skip: Vec<usize>| {
            (0..axes.len()).filter(|d| !skip.contains(d)).map(|d| axes[d].clone()).collect::<Vec<_>>()
        };
        let lhs_free = free(&la, dn.lhs_batching_dims.iter().chain(&dn.lhs_contracting_dims).map(|&d| d as usize).collect());
        let rhs_free = free(&ra, dn.rhs_batching_dims.iter().chain(&dn.rhs_contracting_dims).map(|&d| d as usize).collect());
        let result_axes: Vec<Vec<String>> =
            batch.iter().map(|&(l, _)| la[l].clone()).chain(lhs_free.clone()).chain(rhs_free.clone()).collect();
        let over: Vec<String> = contract.iter().flat_map(|&(l, _)| la[l].clone()).collect();
        // An axis may split one dimension of the result, or be reduced over, not both.
        let mut used: Vec<&String> = result_axes.iter().flatten().chain(&over).collect();
        used.sort();
        if used.windows(2).any(|w| w[0] == w[1])
            || lhs_free.iter().flatten().any(|a| ra.iter().flatten().any(|b| a == b))
            || rhs_free.iter().flatten().any(|a| la.iter().flatten().any(|b| a == b))
        {
            return Ok(None);
        }
        let axis = |n: &String| super::sharding::Axis { name: n.clone(), sub: None };
        let out = template.with_dims(result_axes.iter().map(|d| d.iter().map(axis).collect()).collect());
        self.place(op, 0, out)?;
        if !over.is_empty() {
            self.all_reduce_after(op, template, &over, None)?;
        }
        Ok(Some(1))
    }

    /// Inserts, right after `op`, an all-reduce of its results over the
    /// mesh `axes` (each group: the devices equal on every other axis, in
    /// mesh order), with `body_of`'s reduction body or an add, and moves the
    /// results' uses to it.
    fn all_reduce_after(
        &mut self,
        op: MlirOperation,
        s: &Sharding,
        axes: &[String],
        body_of: Option<MlirOperation>,
    ) -> Result<(), PassFailure> {
        let mesh = self.mesh(s).map_err(|e| fail_at(op, e))?.clone();
        let groups = reduce_groups(&mesh, axes);
        let results = raw::results(op);
        // SAFETY: `op` is a live op in a block that does not end with it (a terminator follows); the new all-reduce
        // is built after it with the results' (local) types, a region taken from a clone of `op`'s reduction body or
        // built here, and the results' other uses move to it.
        unsafe {
            let next = mlirOperationGetNextInBlock(op);
            let b = floors_ir::op_builder::Builder::before(next);
            let types: Vec<MlirType> = results.iter().map(|&r| mlirValueGetType(r)).collect();
            let (rows, cols) = (groups.len() as i64, groups.first().map_or(0, Vec::len) as i64);
            let flat: Vec<i64> = groups.iter().flatten().copied().collect();
            let gt = mlirRankedTensorTypeGet(2, [rows, cols].as_ptr(), mlirIntegerTypeGet(b.ctx, 64), mlirAttributeGetNull());
            let ga = mlirDenseElementsAttrInt64Get(gt, flat.len() as isize, flat.as_ptr());
            let channel = floors_ir::capi::floorsStablehloChannelHandleGet(b.ctx, 1, 1);
            let ar = b.op_regions(
                "stablehlo.all_reduce",
                &results,
                &types,
                &[("replica_groups", ga), ("channel_handle", channel), ("use_global_device_ids", mlirUnitAttrGet(b.ctx))],
                &[None],
            );
            match body_of {
                Some(src) => {
                    let clone = mlirOperationClone(src);
                    mlirRegionTakeBody(mlirOperationGetRegion(ar, 0), mlirOperationGetRegion(clone, 0));
                    mlirOperationDestroy(clone);
                }
                None => {
                    let scalar =
                        mlirRankedTensorTypeGet(0, std::ptr::null(), mlirShapedTypeGetElementType(types[0]), mlirAttributeGetNull());
                    let locs = [b.loc, b.loc];
                    let block = mlirBlockCreate(2, [scalar, scalar].as_ptr(), locs.as_ptr());
                    mlirRegionAppendOwnedBlock(mlirOperationGetRegion(ar, 0), block);
                    let inner = floors_ir::op_builder::Builder { block, before: MlirOperation { ptr: std::ptr::null_mut() }, ..b };
                    let sum = inner.value("stablehlo.add", &[mlirBlockGetArgument(block, 0), mlirBlockGetArgument(block, 1)], scalar, &[]);
                    inner.op("stablehlo.return", &[sum], &[], &[]);
                }
            }
            for (i, &r) in results.iter().enumerate() {
                let new = mlirOperationGetResult(ar, i as isize);
                let mut except = ar;
                mlirValueReplaceAllUsesExcept(r, new, 1, &mut except);
                if let Some(p) = self.placed.remove(&key(r)) {
                    self.placed.insert(key(new), p);
                }
            }
        }
        Ok(())
    }

    /// Results of `@main` are checked against their shardings and take local types.
    /// A result without a sharding takes the placement of what is returned
    /// (Shardy's propagation to the outputs, which JAX reads back).
    fn results(&mut self, func: MlirOperation, ret: MlirOperation) -> Result<(Vec<MlirType>, Vec<Option<Sharding>>), PassFailure> {
        let mut types = Vec::new();
        let mut placements = Vec::new();
        for (j, v) in raw::operands(ret).into_iter().enumerate() {
            let want = match func_sharding(func, "res_attrs", j) {
                Some(text) => Some(self.read(func, &format!("result {j}"), &text)?),
                None => None,
            };
            let has = self.placement(v);
            let ok = match (&want, has) {
                (Some(w), Some(h)) => h.places_like(w),
                (Some(w), None) => w.is_replicated(),
                (None, _) => true,
            };
            if !ok {
                let has = has.map_or("replicated".to_string(), |s| s.to_string());
                let want = want.map_or("replicated".to_string(), |s| s.to_string());
                return Err(fail_at(
                    ret,
                    format!("result {j} is placed as {has} but the function returns it as {want}: floors does not reshard"),
                ));
            }
            placements.push(want.or_else(|| has.cloned()));
            // SAFETY: `v` is a live value; only its type is read.
            types.push(unsafe { mlirValueGetType(v) });
        }
        Ok((types, placements))
    }
}

/// Groups of an all-reduce over mesh `axes`: the logical device ids of the
/// devices equal on every other axis, each group ordered by the reduced
/// axes' coordinates (mesh order).
fn reduce_groups(mesh: &Mesh, axes: &[String]) -> Vec<Vec<i64>> {
    let sizes: Vec<i64> = mesh.axes.iter().map(|&(_, s)| s).collect();
    let total: i64 = sizes.iter().product();
    let id = |pos: i64| mesh.device_ids.as_ref().and_then(|ids| ids.get(pos as usize).copied()).unwrap_or(pos);
    let mut groups: std::collections::BTreeMap<Vec<i64>, Vec<i64>> = Default::default();
    for pos in 0..total {
        let mut rem = pos;
        let mut coords = vec![0i64; sizes.len()];
        for (c, &s) in coords.iter_mut().zip(&sizes).rev() {
            *c = rem % s;
            rem /= s;
        }
        let rest: Vec<i64> = mesh.axes.iter().zip(&coords).filter(|((n, _), _)| !axes.contains(n)).map(|(_, &c)| c).collect();
        groups.entry(rest).or_default().push(id(pos));
    }
    groups.into_values().collect()
}

/// Whether the init values of a reduce with `n` inputs are the identity of
/// its reduction (a partial reduce per device, all-reduced, is then the
/// whole reduce): 0 for add/or/xor, 1 for multiply, -inf or the type's
/// lowest integer for max, +inf or its highest for min, all ones for and,
/// as JAX writes them.
fn identity_inits(op: MlirOperation, n: usize) -> bool {
    let Some(body) = raw::region_blocks(op).first().copied() else { return false };
    let ops = raw::block_ops(body);
    if ops.len() != n + 1 {
        return false;
    }
    let operands = raw::operands(op);
    ops[..n].iter().zip(&operands[n..]).all(|(&combine, &init)| {
        let Some(c) = raw::producer(init).filter(|&p| raw::name(p) == "stablehlo.constant") else { return false };
        let Some(v) = raw::attr(c, "value") else { return false };
        // SAFETY: `v` is the live elements attribute of a constant; its splat value is read only when it is a splat,
        // as a float or an integer of its own width and signedness.
        let (value, ints) = unsafe {
            if !mlirAttributeIsADenseElements(v) || !mlirDenseElementsAttrIsSplat(v) {
                return false;
            }
            let e = mlirDenseElementsAttrGetSplatValue(v);
            let t = mlirAttributeGetType(e);
            if mlirAttributeIsAFloat(e) {
                (mlirFloatAttrGetValueDouble(e), None)
            } else if mlirAttributeIsAInteger(e) && mlirTypeIsAInteger(t) {
                let w = mlirIntegerTypeGetWidth(t);
                let unsigned = mlirIntegerTypeIsUnsigned(t) || w == 1;
                let x: i128 = if unsigned {
                    mlirIntegerAttrGetValueUInt(e) as i128 & ((1i128 << w) - 1)
                } else {
                    mlirIntegerAttrGetValueInt(e) as i128
                };
                // The type's extremes: (lowest, highest).
                let (lo, hi) = if unsigned { (0, (1i128 << w) - 1) } else { (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1) };
                (x as f64, Some((x, lo, hi)))
            } else {
                return false;
            }
        };
        match (raw::name(combine).as_str(), ints) {
            ("stablehlo.add" | "stablehlo.or" | "stablehlo.xor", _) => value == 0.0,
            ("stablehlo.multiply", _) => value == 1.0,
            ("stablehlo.maximum", Some((x, lo, _))) => x == lo,
            ("stablehlo.maximum", None) => value == f64::NEG_INFINITY,
            ("stablehlo.minimum", Some((x, _, hi))) => x == hi,
            ("stablehlo.minimum", None) => value == f64::INFINITY,
            ("stablehlo.and", Some((x, _, hi))) => x == hi,
            _ => false,
        }
    })
}

/// Partitions `module` when it has a mesh of several devices; returns how
/// many values and ops changed (0: nothing to do).
pub fn run(module: MlirOperation) -> Result<usize, PassFailure> {
    // SAFETY: `module` is the live op the pass runs on, borrowed only for this walk.
    let ops = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(module) }, |_| true);
    let meshes = meshes(&ops, raw::int_attr(module, "mhlo.num_partitions").unwrap_or(1))?;
    if meshes.values().all(|m| m.devices() <= 1) {
        return Ok(0);
    }
    let mut p = Partitioner { meshes, placed: HashMap::new(), changed: 0 };
    for &op in &ops {
        if raw::name(op) == "sdy.manual_computation" {
            // SAFETY: `op` is a live op nested in the module: it has a parent block and op.
            let parent = unsafe { mlirOperationGetParentOperation(op) };
            if raw::name(parent) != "func.func" || raw::str_attr(parent, "sym_visibility").as_deref() == Some("private") {
                return Err(fail_at(op, "floors partitions a manual computation in the entry function's body only"));
            }
        }
    }
    let funcs: Vec<MlirOperation> = ops
        .iter()
        .copied()
        .filter(|&o| raw::name(o) == "func.func" && raw::str_attr(o, "sym_visibility").as_deref() != Some("private"))
        .collect();
    let mut recorded = None;
    for func in funcs {
        let (inputs, in_placed) = p.arguments(func)?;
        let block = raw::region_blocks(func)[0];
        let body = raw::block_ops(block);
        let Some((&ret, rest)) = body.split_last() else { continue };
        for &op in rest {
            if raw::name(op) == "sdy.manual_computation" {
                p.inline_manual(op)?;
            } else {
                p.other(op)?;
            }
        }
        let (outputs, out_placed) = p.results(func, ret)?;
        if raw::str_attr(func, "sym_name").as_deref() == Some("main") {
            // A tiling needs the rank only, which local and global types share.
            let params = inputs
                .iter()
                .zip(&in_placed)
                .enumerate()
                .map(|(i, (&t, s))| p.tiling_attr(func, &format!("argument {i}"), t, s.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            let results = outputs
                .iter()
                .zip(&out_placed)
                .enumerate()
                .map(|(j, (&t, s))| p.tiling_attr(func, &format!("result {j}"), t, s.as_ref()))
                .collect::<Result<Vec<_>, _>>()?;
            recorded = Some((params, results));
        }
        // SAFETY: `func` is a live func.func; the new function type is built in its context from live types.
        unsafe {
            let ctx = mlirOperationGetContext(func);
            let ft = mlirFunctionTypeGet(ctx, inputs.len() as isize, inputs.as_ptr(), outputs.len() as isize, outputs.as_ptr());
            mlirOperationSetAttributeByName(func, raw::sref("function_type"), mlirTypeAttrGet(ft));
        }
    }
    if let Some((params, results)) = recorded {
        // SAFETY: the arrays hold live attributes of the module's context; the dictionary is set on the live module.
        unsafe {
            let ctx = mlirOperationGetContext(module);
            let array = |v: &[MlirAttribute]| mlirArrayAttrGet(ctx, v.len() as isize, v.as_ptr());
            let named = |name: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(ctx, raw::sref(name)), a);
            let entries = [named("params", array(&params)), named("results", array(&results))];
            let dict = mlirDictionaryAttrGet(ctx, 2, entries.as_ptr());
            mlirOperationSetAttributeByName(module, raw::sref(SHARDINGS_ATTR), dict);
        }
    }
    super::sharding::strip(module);
    Ok(p.changed)
}

impl FloorsPass for HloSpmdPartition {
    const ARGUMENT: &'static str = "floors-hlo-spmd-partition";
    const NAME: &'static str = "FloorsHloSpmdPartition";
    const DESCRIPTION: &'static str = "For a mesh of several devices: the per-device program of a shard_map program (local argument and result types, manual computations inlined, elementwise ops on alike-placed values kept, Shardy annotations removed); anything needing automatic partitioning is refused at the op";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw())?;
        tracing::debug!("floors-hlo-spmd-partition: {n} values and ops");
        Ok(())
    }
}
