//! What every GPU emitter builds with (not a pass): `gpu.launch` creation
//! (with workgroup memory), `scf.for`/`scf.if` builders, the static
//! iteration space of a loop nest and its delinearization, grid-stride
//! launches, static subviews, cloning ops under a value mapping, warp
//! shuffles of any scalar type, vector loads, stores and lanes, and launch
//! dimensions bounded by one wave of the device.

use std::collections::HashMap;

use mlir_sys::*;

use super::builder::{Builder, all_ops, constant_int, grid_stride_dims, region_arg};
use floors_ir::{
    attrs,
    ir::{raw, raw::sref},
    pass::{PassFailure, fail_at},
    target::GpuTarget,
};

/// Names of the outlined kernels: every launch of kernel function `F`
/// goes to `gpu.module @F_gpu` as `gpu.func @F_kN` (one PTX per fusion,
/// one entry per launch). `codegen` records, per launch in order, which
/// emitter generated it (`floors.gpu_codegen`).
pub struct Names {
    pub function: String,
    pub next: usize,
    pub codegen: Vec<String>,
}

/// One static loop dimension: induction value, lower bound, step, trip count.
#[derive(Clone, Copy)]
pub struct Dim {
    pub iv: MlirValue,
    pub lb: i64,
    pub step: i64,
    pub extent: i64,
}

/// The static dimensions of an `scf.parallel` (no reductions) or `scf.for`
/// (no iter_args); Err(reason) otherwise.
pub fn loop_dims(op: MlirOperation) -> Result<Vec<Dim>, String> {
    let name = raw::name(op);
    if !raw::results(op).is_empty() {
        return Err(format!("'{name}' yields values"));
    }
    let operands = raw::operands(op);
    // SAFETY: every caller passes a live scf.parallel or scf.for (matched by name before the call), whose region 0
    // holds its body block.
    let block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
    // SAFETY: `block` is the loop's live body block.
    let n = if name == "scf.for" { 1 } else { unsafe { mlirBlockGetNumArguments(block) as usize } };
    let get = |i: usize| constant_int(operands[i]).ok_or_else(|| format!("'{name}' has dynamic bounds"));
    let mut dims = Vec::new();
    for d in 0..n {
        let (lb, ub, step) = (get(d)?, get(n + d)?, get(2 * n + d)?);
        if step <= 0 {
            return Err(format!("'{name}' has a non-positive step"));
        }
        let extent = if ub > lb { (ub - lb + step - 1) / step } else { 0 };
        // SAFETY: `d` is below `n`: the number of the block's arguments for an scf.parallel, and 1 for an scf.for, whose
        // argument 0 is its induction variable.
        dims.push(Dim { iv: unsafe { mlirBlockGetArgument(block, d as isize) }, lb, step, extent });
    }
    Ok(dims)
}

/// Creates `gpu.launch` before `at` with the given grid and block and
/// workgroup-memory buffers of types `workgroup` (block arguments 12..);
/// returns the launch and a builder inside its body.
pub fn create_launch(
    at: MlirOperation,
    grid: [i64; 3],
    block: [i64; 3],
    workgroup: &[MlirType],
    names: &mut Names,
    codegen: String,
) -> (MlirOperation, Builder) {
    let entry = format!("{}_k{}", names.function, names.next);
    names.next += 1;
    names.codegen.push(codegen);
    named_launch(at, grid, block, workgroup, &names.function, &entry)
}

/// `gpu.launch` before `at` whose outlined kernel will be entry `entry` of
/// `gpu.module @{function}_gpu` (every launch of one kernel function shares
/// that module: one PTX per fusion); `workgroup` as in [`create_launch`].
pub fn named_launch(
    at: MlirOperation,
    grid: [i64; 3],
    block: [i64; 3],
    workgroup: &[MlirType],
    function: &str,
    entry: &str,
) -> (MlirOperation, Builder) {
    let b = Builder::before(at);
    // SAFETY: `b.ctx` is the live context of `at`; `name` is a Rust string that outlives the call, which copies it.
    let symbol = |name: &str| unsafe { mlirFlatSymbolRefAttrGet(b.ctx, sref(name)) };
    let (module, function) = (symbol(&format!("{function}_gpu")), symbol(entry));
    let dims: Vec<MlirValue> = grid.iter().chain(block.iter()).map(|&v| b.index_const(v)).collect();
    let idx = b.index_type();
    let seg = b.i32_array(&[0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    // SAFETY: `b.ctx` is the live context of `at`.
    let wa = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(b.ctx, 64), workgroup.len() as i64) };
    let mut args = vec![idx; 12];
    args.extend_from_slice(workgroup);
    let launch = b.op_regions(
        "gpu.launch",
        &dims,
        &[],
        &[("operandSegmentSizes", seg), ("workgroup_attributions", wa), ("module", module), ("function", function)],
        &[Some(args)],
    );
    let inner = b.into_region(launch, 0, "gpu.terminator");
    (launch, inner)
}

/// A grid-stride launch before `at` over `total` points (256-thread
/// blocks, at most one wave; [`grid_stride_dims`]): returns the launch, a
/// builder inside the per-thread loop and the loop's linear index.
pub fn create_grid_stride(
    at: MlirOperation,
    total: i64,
    target: &GpuTarget,
    names: &mut Names,
    codegen: String,
) -> (MlirOperation, Builder, MlirValue) {
    let (grid, block) = grid_stride_dims(total, target);
    let (launch, b) = create_launch(at, [grid, 1, 1], [block, 1, 1], &[], names, codegen);
    let (bid, tid) = (region_arg(launch, 0, 0), region_arg(launch, 0, 3));
    let bs = b.index_const(block);
    let start = b.index_binop("arith.muli", bid, bs);
    let start = b.index_binop("arith.addi", start, tid);
    let (ub, step) = (b.index_const(total), b.index_const(grid * block));
    let (_, fb, iv, _) = create_for(&b, start, ub, step, &[]);
    (launch, fb, iv)
}

/// A `memref.subview` with static offsets, sizes and strides that keeps
/// the rank of its source.
pub struct StaticView {
    pub op: MlirOperation,
    pub base: MlirValue,
    pub offsets: Vec<i64>,
    pub sizes: Vec<i64>,
    pub strides: Vec<i64>,
}

/// The static subview producing `v`, if it is one.
pub fn static_subview(v: MlirValue) -> Option<StaticView> {
    let op = raw::producer(v)?;
    if raw::name(op) != "memref.subview" {
        return None;
    }
    let operands = raw::operands(op);
    let [base] = operands.as_slice() else { return None };
    let offsets = raw::i64_array(op, "static_offsets")?;
    let sizes = raw::i64_array(op, "static_sizes")?;
    let strides = raw::i64_array(op, "static_strides")?;
    let rank = memref_shape(*base)?.len();
    let dynamic = offsets.iter().chain(&sizes).chain(&strides).any(|&x| x == i64::MIN);
    let same_rank = [offsets.len(), sizes.len(), strides.len(), memref_shape(v)?.len()].iter().all(|&n| n == rank);
    (!dynamic && same_rank).then_some(StaticView { op, base: *base, offsets, sizes, strides })
}

/// The static shape of memref value `v`.
pub fn memref_shape(v: MlirValue) -> Option<Vec<i64>> {
    // SAFETY: `v` is a live value; its type is read as shaped only after `mlirTypeIsAMemRef` and
    // `mlirShapedTypeHasRank`, and `i` is below the rank.
    unsafe {
        let t = mlirValueGetType(v);
        if !mlirTypeIsAMemRef(t) || !mlirShapedTypeHasRank(t) || !mlirShapedTypeHasStaticShape(t) {
            return None;
        }
        Some((0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect())
    }
}

/// The conjunction of `conds` (None when empty: always true).
pub fn all_true(b: &Builder, conds: &[MlirValue]) -> Option<MlirValue> {
    let (&first, rest) = conds.split_first()?;
    // SAFETY: `c` is a live i1 condition built at `b`.
    Some(rest.iter().fold(first, |acc, &c| b.value("arith.andi", &[acc, c], unsafe { mlirValueGetType(c) }, &[])))
}

/// `memref<shape x elem, #gpu.address_space<workgroup>>`; a failure at
/// `b`'s insertion point if the address space cannot be built.
pub fn workgroup_memref(b: &Builder, shape: &[i64], elem: MlirType) -> Result<MlirType, PassFailure> {
    let space = attrs::gpu::address_space(b.ctx, attrs::gpu::AddressSpace::Workgroup)
        .ok_or_else(|| fail_at(b.before, "internal error: no #gpu.address_space<workgroup>"))?;
    // SAFETY: `elem` and `space` belong to `b`'s context; the shape slice outlives the call.
    Ok(unsafe { mlirMemRefTypeGet(elem, shape.len() as isize, shape.as_ptr(), mlirAttributeGetNull(), space) })
}

/// `scf.for %i = lb to ub step step iter_args(inits)` at `b`; returns the
/// loop, a builder before its `scf.yield` (whose operands [`set_yield`]
/// sets), the induction value and the iteration arguments.
pub fn create_for(
    b: &Builder,
    lb: MlirValue,
    ub: MlirValue,
    step: MlirValue,
    inits: &[MlirValue],
) -> (MlirOperation, Builder, MlirValue, Vec<MlirValue>) {
    let idx = b.index_type();
    // SAFETY: every init is a live value built or matched by the caller.
    let types: Vec<MlirType> = inits.iter().map(|&v| unsafe { mlirValueGetType(v) }).collect();
    let mut args = vec![idx];
    args.extend(&types);
    let mut operands = vec![lb, ub, step];
    operands.extend_from_slice(inits);
    let f = b.op_regions("scf.for", &operands, &types, &[], &[Some(args)]);
    let inner = b.into_region(f, 0, "scf.yield");
    let iters = (0..inits.len()).map(|i| region_arg(f, 0, i as isize + 1)).collect();
    (f, inner, region_arg(f, 0, 0), iters)
}

/// Sets the operands of the terminator `b` inserts before.
pub fn set_yield(b: &Builder, values: &[MlirValue]) {
    // SAFETY: `b.before` is the live `scf.yield` terminator `create_for` made; `values` outlives the call, which copies
    // the operands.
    unsafe { mlirOperationSetOperands(b.before, values.len() as isize, values.as_ptr()) };
}

/// `scf.if cond { ... }` (no results, no else) at `b`; a builder inside.
pub fn create_if(b: &Builder, cond: MlirValue) -> Builder {
    let if_op = b.op_regions("scf.if", &[cond], &[], &[], &[Some(vec![]), None]);
    b.into_region(if_op, 0, "scf.yield")
}

/// `arith.cmpi pred, a, b` (predicates: eq 0, ne 1, slt 2, ult 6, uge 9).
pub fn cmpi(b: &Builder, pred: i64, x: MlirValue, y: MlirValue) -> MlirValue {
    // SAFETY: `b.ctx` is the live context of the builder's insertion point.
    let p = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(b.ctx, 64), pred) };
    // SAFETY: as above.
    let i1 = unsafe { mlirIntegerTypeGet(b.ctx, 1) };
    b.value("arith.cmpi", &[x, y], i1, &[("predicate", p)])
}

pub fn select(b: &Builder, c: MlirValue, x: MlirValue, y: MlirValue) -> MlirValue {
    // SAFETY: `x` is a live value built at `b`.
    b.value("arith.select", &[c, x, y], unsafe { mlirValueGetType(x) }, &[])
}

/// Delinearizes `linear` (row-major over the trip counts of `dims`) into
/// the dimensions' induction values (lb + i · step).
pub fn delinearize(b: &Builder, linear: MlirValue, dims: &[Dim]) -> Vec<MlirValue> {
    let n = dims.len();
    let mut ivs = vec![linear; n];
    let mut rest = linear;
    for d in (0..n).rev() {
        let e = dims[d].extent;
        let idx = if d == 0 {
            rest
        } else if e == 1 {
            b.index_const(0)
        } else {
            let ec = b.index_const(e);
            let r = b.index_binop("arith.remui", rest, ec);
            rest = b.index_binop("arith.divui", rest, ec);
            r
        };
        let mut v = idx;
        if dims[d].step != 1 {
            let s = b.index_const(dims[d].step);
            v = b.index_binop("arith.muli", v, s);
        }
        if dims[d].lb != 0 {
            let l = b.index_const(dims[d].lb);
            v = b.index_binop("arith.addi", v, l);
        }
        ivs[d] = v;
    }
    ivs
}

/// A mapping from original values to their replacements (by handle).
#[derive(Default, Clone)]
pub struct ValueMap(HashMap<usize, MlirValue>);

impl ValueMap {
    pub fn insert(&mut self, from: MlirValue, to: MlirValue) {
        self.0.insert(from.ptr as usize, to);
    }
    pub fn get(&self, v: MlirValue) -> Option<MlirValue> {
        self.0.get(&(v.ptr as usize)).copied()
    }
    /// `v`'s replacement, or `v` itself.
    pub fn map(&self, v: MlirValue) -> MlirValue {
        self.get(v).unwrap_or(v)
    }
}

/// Clones `op` (with its regions) at `b`, replacing operands (of the clone
/// and of everything nested in it) found in `map`, and maps `op`'s
/// results to the clone's.
pub fn clone_mapped(b: &Builder, op: MlirOperation, map: &mut ValueMap) -> MlirOperation {
    // SAFETY: `op` is a live op (of the nest being emitted); the clone is detached until inserted below.
    let c = unsafe { mlirOperationClone(op) };
    // SAFETY: `b.before` is a live op in `b.block`; the detached clone `c` is inserted there and the block then owns it.
    unsafe { mlirBlockInsertOwnedOperationBefore(b.block, b.before, c) };
    let mut ops = vec![c];
    ops.extend(all_ops(c));
    for o in ops {
        for (i, v) in raw::operands(o).into_iter().enumerate() {
            if let Some(to) = map.get(v) {
                // SAFETY: `o` is the clone or an op nested in it, live, and `i` an operand index from
                // `raw::operands(o)`; `to` is a live value.
                unsafe { mlirOperationSetOperand(o, i as isize, to) };
            }
        }
    }
    for (r, &orig) in raw::results(op).iter().enumerate() {
        // SAFETY: the clone has as many results as `op`, so `r` indexes one.
        map.insert(orig, unsafe { mlirOperationGetResult(c, r as isize) });
    }
    c
}

/// Whether [`shuffle_xor`] can move a value of type `t` between lanes.
pub fn shufflable(t: MlirType) -> bool {
    // SAFETY: type predicates accept any live type; the width is read only after `mlirTypeIsAInteger`.
    unsafe {
        mlirTypeIsAF32(t)
            || mlirTypeIsAF64(t)
            || mlirTypeIsAF16(t)
            || mlirTypeIsABF16(t)
            || mlirTypeIsAIndex(t)
            || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) <= 64)
    }
}

/// `gpu.shuffle xor` of a 32-bit value over the full warp.
fn shuffle32(b: &Builder, v: MlirValue, offset: i64) -> Result<MlirValue, PassFailure> {
    let mode = attrs::gpu::shuffle_mode(b.ctx, attrs::gpu::ShuffleMode::Xor)
        .ok_or_else(|| fail_at(b.before, "internal error: no #gpu<shuffle_mode xor>"))?;
    let (off, width) = (b.i32_const(offset), b.i32_const(32));
    // SAFETY: `b.ctx` is the live context of the builder's insertion point.
    let i1 = unsafe { mlirIntegerTypeGet(b.ctx, 1) };
    // SAFETY: `v` is a live 32-bit value built or passed in at `b`.
    let op = b.op("gpu.shuffle", &[v, off, width], &[unsafe { mlirValueGetType(v) }, i1], &[("mode", mode)]);
    // SAFETY: `op` is the gpu.shuffle just created, with two results.
    Ok(unsafe { mlirOperationGetResult(op, 0) })
}

/// The value of `v` in lane `lane ^ offset` (every lane of the warp takes
/// part): 32-bit values directly, narrower ones widened (exactly) to 32
/// bits, 64-bit ones (and `index`, as i64) as two 32-bit halves.
pub fn shuffle_xor(b: &Builder, v: MlirValue, offset: i64) -> Result<MlirValue, PassFailure> {
    // SAFETY: `v` is a live value to shuffle.
    let t = unsafe { mlirValueGetType(v) };
    let ctx = b.ctx;
    // SAFETY: `ctx` is the builder's live context; these getters only intern types.
    let (i32t, i64t, f32t) = unsafe { (mlirIntegerTypeGet(ctx, 32), mlirIntegerTypeGet(ctx, 64), mlirF32TypeGet(ctx)) };
    // SAFETY: predicates on the live type `t`; the width is read only after `mlirTypeIsAInteger`.
    unsafe {
        if mlirTypeIsAF32(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 32) {
            return shuffle32(b, v, offset);
        }
        if mlirTypeIsAF16(t) || mlirTypeIsABF16(t) {
            let w = b.value("arith.extf", &[v], f32t, &[]);
            let s = shuffle32(b, w, offset)?;
            return Ok(b.value("arith.truncf", &[s], t, &[]));
        }
        if mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) < 32 {
            let w = b.value("arith.extui", &[v], i32t, &[]);
            let s = shuffle32(b, w, offset)?;
            return Ok(b.value("arith.trunci", &[s], t, &[]));
        }
        if mlirTypeIsAIndex(t) {
            let w = b.value("arith.index_cast", &[v], i64t, &[]);
            let s = shuffle_xor(b, w, offset)?;
            return Ok(b.value("arith.index_cast", &[s], t, &[]));
        }
    }
    // 64 bits: f64 through i64; lo and hi halves.
    // SAFETY: as above: a predicate on the live type `t`.
    let is_float = unsafe { mlirTypeIsAF64(t) };
    let bits = if is_float { b.value("arith.bitcast", &[v], i64t, &[]) } else { v };
    // SAFETY: `i64t` is the i64 type built above.
    let c32 = b.value("arith.constant", &[], i64t, &[("value", unsafe { mlirIntegerAttrGet(i64t, 32) })]);
    let lo = b.value("arith.trunci", &[bits], i32t, &[]);
    let hi64 = b.value("arith.shrui", &[bits, c32], i64t, &[]);
    let hi = b.value("arith.trunci", &[hi64], i32t, &[]);
    let (lo, hi) = (shuffle32(b, lo, offset)?, shuffle32(b, hi, offset)?);
    let lo = b.value("arith.extui", &[lo], i64t, &[]);
    let hi = b.value("arith.extui", &[hi], i64t, &[]);
    let hi = b.value("arith.shli", &[hi, c32], i64t, &[]);
    let r = b.value("arith.ori", &[lo, hi], i64t, &[]);
    Ok(if is_float { b.value("arith.bitcast", &[r], t, &[]) } else { r })
}

/// `vector.extract v[pos]` (a lane, or a row of a 2-D vector) of type `t`.
pub fn vector_extract(b: &Builder, v: MlirValue, pos: &[i64], t: MlirType) -> MlirValue {
    b.value("vector.extract", &[v], t, &[("static_position", b.i64_array(pos))])
}

/// `vector.from_elements lanes` : `t`.
pub fn vector_from_elements(b: &Builder, lanes: &[MlirValue], t: MlirType) -> MlirValue {
    b.value("vector.from_elements", lanes, t, &[])
}

fn alignment_attr(b: &Builder, bytes: i64) -> MlirAttribute {
    // SAFETY: `b.ctx` is the live context of the builder's insertion point.
    unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(b.ctx, 64), bytes) }
}

/// `vector.load m[indices]` of vector type `t`, promising `align` bytes of
/// alignment (NVPTX needs it for `ld.global.v4`).
pub fn vector_load(b: &Builder, m: MlirValue, indices: &[MlirValue], t: MlirType, align: i64) -> MlirValue {
    let mut operands = vec![m];
    operands.extend_from_slice(indices);
    b.value("vector.load", &operands, t, &[("alignment", alignment_attr(b, align))])
}

/// `vector.store v, m[indices]`, promising `align` bytes of alignment.
pub fn vector_store(b: &Builder, v: MlirValue, m: MlirValue, indices: &[MlirValue], align: i64) {
    let mut operands = vec![v, m];
    operands.extend_from_slice(indices);
    b.op("vector.store", &operands, &[], &[("alignment", alignment_attr(b, align))]);
}

/// Blocks of `threads` threads for `work` independent blocks' worth of
/// work: at most one wave of the device (the kernels loop over the rest).
pub fn wave_grid(work: i64, threads: i64, shared_bytes: u64, target: &GpuTarget) -> i64 {
    let d = &target.device;
    let wave = d.sm_count as i64 * d.blocks_per_sm(threads as u32, shared_bytes, 32) as i64;
    work.clamp(1, wave.max(1))
}

/// The `i`-th workgroup buffer of `launch`.
pub fn workgroup_arg(launch: MlirOperation, i: usize) -> MlirValue {
    region_arg(launch, 0, 12 + i as isize)
}

/// The string attribute `name` = `value` on `op`.
pub fn set_string_attr(op: MlirOperation, name: &str, value: &str) {
    // SAFETY: `op` is a live op; the string attribute is built in its context and both string refs point at Rust strings
    // that outlive the calls (MLIR copies them).
    unsafe {
        let ctx = mlirOperationGetContext(op);
        mlirOperationSetAttributeByName(op, sref(name), mlirStringAttrGet(ctx, sref(value)));
    }
}
