//! `floors-gpu-emit-kernels`: every outlined kernel function (on memrefs,
//! after bufferization and `convert-linalg-to-parallel-loops`) becomes host
//! code around `gpu.launch` ops, ready for `gpu-kernel-outlining`.
//!
//! Each top-level loop nest gets the emitter its structure fits (`plan`),
//! in its own launch (except the concatenate and input-slices emitters,
//! which take several top-level ops of a kernel whose fusion kind names
//! them: `plan_fusion_emitter`) (launches of a function run in order on one stream, so
//! a reduction's fill nest, the reduction and softmax's epilogue nests see
//! each other's results):
//! - **row / column reduction** ([`super::emit_reduction`]): warp shuffles,
//!   workgroup memory;
//! - **transpose** ([`super::emit_transpose`]): 32×32 tiles through
//!   workgroup memory;
//! - **scatter with atomics** ([`super::emit_scatter`]);
//! - **concatenate** ([`super::emit_concatenate`], `concatenate` kernels):
//!   the operands' nests and copies (each writing its subview of the
//!   output) in one launch over the largest operand;
//! - **input slices** ([`super::emit_input_slices`], `input_slices`
//!   kernels): the sliced value's nest and the slices' copies in one
//!   launch over the sliced value, each point stored into every slice
//!   holding it;
//! - **grid-stride** (any other `scf.parallel` nest or `memref.copy`; for
//!   a concatenate or input-slices kernel whose ops do not fit, each launch
//!   says why in brackets): one
//!   thread per point of the nest's parallel iteration space (linearized, a
//!   grid-stride loop so a grid of one wave covers any size); reduction
//!   dimensions stay a serial `scf.for` per thread. Block size and grid
//!   come from the device description (`#floors.gpu_target`): 256 threads
//!   (fewer for small nests, a warp multiple), at most one wave of blocks
//!   (`sm_count × blocks_per_sm`). Like XLA's unrolled loop emitter, a
//!   thread takes V = 16 bytes / widest element consecutive innermost
//!   points (4 f32s) when the nest allows ([`vector_width`]: innermost
//!   extent a multiple of V, every access contiguous along the innermost
//!   induction variable of a buffer known 16-byte aligned, no other memory
//!   access in the body): its loads and stores become `vector.load` /
//!   `vector.store` with alignment 16 (`ld.global.v4` / `st.global.v4` in
//!   the PTX), the scalar body runs once per lane; else one point per
//!   thread and the label says why (`loop(grid-stride, 4 per thread, v4)`
//!   vs `loop(grid-stride) [scalar: why]`).
//! - **single-block** (the kernel holds serial code no emitter takes: a
//!   sort's loops, a dynamic-update-slice's index arithmetic, scalar glue,
//!   a scatter that overwrites): one launch of one block for the whole
//!   function; parallel nests are spread over the block's threads, serial
//!   ops with side effects run on thread 0, with `gpu.barrier` after each
//!   step. Correct for any kernel.
//!
//! `floors.gpu_codegen` on the kernel function records, per launch in
//! order, what generated it (`row-reduction(warp)`, `loop(grid-stride)
//! [reduction emitter not applicable: why]`, ...; see
//! [`floors_ir::contract::GPU_CODEGEN_ATTR`]); the GPU fusion report prints it.
//!
//! Temporaries (`memref.alloc` at the top level) stay in the host function:
//! they become buffers the runtime allocates (the `floors.gpu_kernels`
//! manifest lists them). A `memref.alloc` nested in a loop becomes a
//! `memref.alloca` (thread-local). Constants and view ops (`memref.subview`,
//! reshapes) used by a launch are cloned into it, so only buffers cross the
//! kernel boundary. Scalar f32 transcendental functions become floors' own
//! polynomial approximations (no libdevice needed, no `__nv_*` externs).
//!
//! Errors: a loop nest with dynamic bounds, a reduction `scf.parallel`, a
//! structured op left unlowered, a serial value used by parallel code: each a
//! located error naming the op.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::{
    builder::{BLOCK_THREADS, Builder, all_ops, constant_int, region_arg},
    emit_concatenate::{self, Concatenate},
    emit_input_slices::{self, InputSlices},
    emit_reduction::{self, Reduction, Shape},
    emit_scatter::{self, Scatter},
    emit_transpose::{self, Transpose},
    kernel_body::{Class, classify, finish_launch, move_body_at, writes_memory},
    launch::{
        self, Dim, Names, ValueMap, clone_mapped, create_for, create_grid_stride, create_launch, memref_shape, set_string_attr,
        vector_extract, vector_from_elements, vector_load, vector_store,
    },
};
use floors_ir::{
    contract::{GPU_CODEGEN_ATTR, KERNEL_ATTR},
    dialects::FusionKind,
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
    target::GpuTarget,
};

#[derive(Clone, Default)]
pub struct GpuEmitKernels;

impl FloorsPass for GpuEmitKernels {
    const ARGUMENT: &'static str = "floors-gpu-emit-kernels";
    const NAME: &'static str = "FloorsGpuEmitKernels";
    const DESCRIPTION: &'static str = "Turn the bufferized kernel functions' loop nests into gpu.launch ops (reduction, transpose, scatter, concatenate, input-slices emitters, else grid-stride or single-block)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: `mlirGetDialectHandle__vector__` takes no arguments and returns the vector dialect's static
        // registration handle, which `from_raw` wraps.
        let vector = unsafe { DialectHandle::from_raw(mlirGetDialectHandle__vector__()) };
        vec![DialectHandle::gpu(), DialectHandle::scf(), DialectHandle::arith(), DialectHandle::memref(), vector, DialectHandle::llvm()]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let target = super::required_target(root)?;
        for b in raw::region_blocks(root) {
            for f in raw::block_ops(b) {
                if raw::name(f) == "func.func" && raw::attr(f, KERNEL_ATTR).is_some() {
                    emit_function(f, &target)?;
                }
            }
        }
        // SAFETY: `root` is the live module the pass runs on; the unit attribute is built in its context and the name's
        // string ref points at a static string that outlives the call.
        unsafe { mlirOperationSetAttributeByName(root, sref("gpu.container_module"), mlirUnitAttrGet(mlirOperationGetContext(root))) };
        Ok(())
    }
}

fn emit_function(f: MlirOperation, target: &GpuTarget) -> Result<(), PassFailure> {
    let Some(&entry) = raw::region_blocks(f).first() else { return Ok(()) };
    // Nested temporaries become thread-local; deallocations go (the runtime
    // owns temporaries).
    localize_nested_allocs(f, entry)?;
    let ops = raw::block_ops(entry);
    let Some((&ret, body)) = ops.split_last() else { return Ok(()) };
    for &o in body {
        let n = raw::name(o);
        if n.starts_with("linalg.") {
            return Err(fail(o, format!("'{n}' has no GPU lowering (it was not converted to loops)")));
        }
        if n == "memref.alloc" && !raw::operands(o).is_empty() {
            return Err(fail(o, "a temporary of dynamic size has no GPU lowering"));
        }
    }
    // floors-gpu-emit-gemm's record (its launch plan or fallback reason),
    // kept in front of this pass's per-launch list.
    // SAFETY: `a` is the non-null `floors.gpu_codegen` of the live kernel function `f`; floors-gpu-emit-gemm only writes
    // it as a StringAttr (its kind is not checked here).
    let gemm_record = raw::str_attr(f, GPU_CODEGEN_ATTR);
    let function = raw::str_attr(f, "sym_name").unwrap_or_default();
    let mut names = Names { function, next: 0, codegen: Vec::new() };
    let mut plans: Vec<(MlirOperation, Plan)> = body.iter().filter_map(|&o| plan(o).map(|p| (o, p))).collect();
    let serial = plans.iter().any(|(_, p)| matches!(p, Plan::Serial(_)));
    if !serial {
        plan_fusion_emitter(f, body, &mut plans);
    }
    if let Some(&l) = body.iter().find(|&&o| serial && raw::name(o) == "gpu.launch") {
        return Err(fail(
            l,
            "internal error: a kernel with floors-gpu-emit-gemm's launch holds serial code (single-block would reorder it)",
        ));
    }
    if let Some((o, Plan::Serial(why))) = plans.iter().find(|(_, p)| matches!(p, Plan::Serial(_))) {
        let codegen = format!("single-block(serial '{}': {why})", raw::name(*o));
        single_block(entry, body, ret, target, &mut names, codegen)?;
    } else {
        for (o, p) in plans {
            let launch = match p {
                Plan::Reduction(r) => match r.shape {
                    Shape::Row => emit_reduction::emit_row(&r, target, &mut names)?,
                    Shape::Column => emit_reduction::emit_column(&r, target, &mut names)?,
                },
                Plan::Transpose(t) => emit_transpose::emit(&t, target, &mut names)?,
                Plan::Scatter(sc) => emit_scatter::emit(&sc, target, &mut names),
                Plan::Concatenate(c) => {
                    emit_concatenate::emit(&c, target, &mut names)?;
                    continue;
                }
                Plan::InputSlices(s) => {
                    emit_input_slices::emit(&s, target, &mut names)?;
                    continue;
                }
                Plan::Taken => continue,
                Plan::OneThread => {
                    let (launch, b) = create_launch(o, [1, 1, 1], [1, 1, 1], &[], &mut names, "loop(one thread)".into());
                    b.move_here(o);
                    launch
                }
                Plan::Grid(notes) => {
                    grid_stride(o, target, &mut names, &notes)?;
                    continue;
                }
                Plan::Serial(_) => unreachable!("serial plans go to single-block"),
            };
            finish_launch(launch)?;
        }
    }
    let list = names.codegen.join("; ");
    let codegen = match gemm_record {
        Some(g) if list.is_empty() => g,
        Some(g) => format!("{g} + {list}"),
        None => list,
    };
    set_string_attr(f, GPU_CODEGEN_ATTR, &codegen);
    Ok(())
}

/// How a top-level op of a kernel function becomes launches.
enum Plan {
    /// A row or column reduction emitter.
    Reduction(Reduction),
    /// A scatter with atomics.
    Scatter(Scatter),
    /// The tiled transpose through workgroup memory.
    Transpose(Transpose),
    /// A concatenation's operands in one launch (planned on its last operand).
    Concatenate(Concatenate),
    /// An input-slices kernel in one launch (planned on its last slice).
    InputSlices(InputSlices),
    /// Taken by a fusion-wide emitter planned on a later op.
    Taken,
    /// The generic grid-stride loop; the notes (` [..]` each) say why when
    /// an emitter was not applicable.
    Grid(String),
    /// A lone store of values from outside: a launch of one thread.
    OneThread,
    /// Serial code: the whole function becomes one block (the reason).
    Serial(String),
}

/// The emitters that take several top-level ops of a kernel function at
/// once (concatenate, input slices: their fusion kind says to try) replace
/// those ops' plans; when their structure does not fit, the grid-stride
/// launches say why.
fn plan_fusion_emitter(f: MlirOperation, body: &[MlirOperation], plans: &mut [(MlirOperation, Plan)]) {
    let (ops, last, why) = if super::kernel_kind_is(f, FusionKind::Concatenate) {
        match emit_concatenate::analyze(body) {
            Ok(c) => (c.ops(), Plan::Concatenate(c), None),
            Err(e) => (vec![], Plan::Taken, Some(format!("concatenate emitter not applicable: {e}"))),
        }
    } else if super::kernel_kind_is(f, FusionKind::InputSlices) {
        match emit_input_slices::analyze(body) {
            Ok(s) => (s.ops(), Plan::InputSlices(s), None),
            Err(e) => (vec![], Plan::Taken, Some(format!("input-slices emitter not applicable: {e}"))),
        }
    } else {
        return;
    };
    if let Some(why) = why {
        for (_, p) in plans.iter_mut() {
            if let Plan::Grid(notes) = p {
                notes.push_str(&format!(" [{why}]"));
            }
        }
        return;
    }
    let mut last = Some(last);
    for (o, p) in plans.iter_mut().rev() {
        if ops.iter().any(|x| x.ptr == o.ptr) {
            *p = last.take().unwrap_or(Plan::Taken);
        }
    }
}

/// The plan for top-level op `o`; None for hoisted and sinkable ops.
fn plan(o: MlirOperation) -> Option<Plan> {
    Some(match classify(o) {
        Class::Hoisted | Class::Sinkable => return None,
        Class::Parallel if raw::name(o) == "scf.parallel" && emit_reduction::looks_like_reduction(o) => match emit_reduction::analyze(o) {
            Ok(r) => Plan::Reduction(r),
            Err(e) => Plan::Grid(format!(" [reduction emitter not applicable: {e}]")),
        },
        Class::Parallel if raw::name(o) == "scf.parallel" => match emit_transpose::analyze(o) {
            Ok(Some(t)) => Plan::Transpose(t),
            Ok(None) => Plan::Grid(String::new()),
            Err(e) => Plan::Grid(format!(" [transpose emitter not applicable: {e}]")),
        },
        Class::Parallel => Plan::Grid(String::new()),
        Class::Serial if raw::name(o) == "scf.for" => match (emit_reduction::analyze(o), emit_scatter::analyze(o)) {
            (Ok(r), _) => Plan::Reduction(r),
            (_, Ok(sc)) => Plan::Scatter(sc),
            (Err(r), Err(sc)) => Plan::Serial(format!("reduction emitter not applicable: {r}, scatter emitter not applicable: {sc}")),
        },
        // A store of values from outside (a rank-0 reduction's fill): one thread.
        Class::Serial
            if raw::name(o) == "memref.store"
                && raw::operands(o).iter().all(|&v| raw::producer(v).is_none_or(|p| classify(p) == Class::Hoisted)) =>
        {
            Plan::OneThread
        }
        Class::Serial => Plan::Serial("no parallel emitter".into()),
    })
}

fn localize_nested_allocs(f: MlirOperation, entry: MlirBlock) -> Result<(), PassFailure> {
    let mut nested = Vec::new();
    fn walk(block: MlirBlock, top: bool, out: &mut Vec<(MlirOperation, bool)>) {
        for o in raw::block_ops(block) {
            let n = raw::name(o);
            if n == "memref.dealloc" || (n == "memref.alloc" && !top) {
                out.push((o, top));
            }
            for b in raw::region_blocks(o) {
                walk(b, false, out);
            }
        }
    }
    walk(entry, true, &mut nested);
    let _ = f;
    for (o, _) in nested {
        let n = raw::name(o);
        if n == "memref.dealloc" {
            // SAFETY: `o` is a live, result-less memref.dealloc collected by the walk above; each is destroyed once.
            unsafe { mlirOperationDestroy(o) };
            continue;
        }
        if !raw::operands(o).is_empty() {
            return Err(fail(o, "a temporary of dynamic size inside a loop has no GPU lowering"));
        }
        let b = Builder::before(o);
        // SAFETY: `o` is a live memref.alloc, which has one result.
        let t = unsafe { mlirValueGetType(mlirOperationGetResult(o, 0)) };
        let seg = b.i32_array(&[0, 0]);
        let a = b.value("memref.alloca", &[], t, &[("operandSegmentSizes", seg)]);
        // SAFETY: the alloca is built before `o` with its type and now takes every use of `o`'s one result, so `o` is
        // unused when it is destroyed.
        unsafe {
            mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(o, 0), a);
            mlirOperationDestroy(o);
        }
    }
    Ok(())
}

/// The iteration space of a parallel op: extents, lower bounds, steps.
struct Space {
    extents: Vec<i64>,
    lbs: Vec<i64>,
    steps: Vec<i64>,
}

fn space_of(op: MlirOperation) -> Result<Space, PassFailure> {
    let name = raw::name(op);
    if name == "memref.copy" {
        let dst = raw::operands(op)[1];
        let shape = memref_shape(dst).ok_or_else(|| fail(op, "a memref.copy of dynamic shape has no GPU lowering"))?;
        let n = shape.len();
        return Ok(Space { extents: shape, lbs: vec![0; n], steps: vec![1; n] });
    }
    // scf.parallel: operands are lbs, ubs, steps, inits.
    if !raw::results(op).is_empty() {
        return Err(fail(op, "an scf.parallel with reductions has no GPU lowering yet"));
    }
    let operands = raw::operands(op);
    // SAFETY: `op` is a live scf.parallel (every caller passes a parallel op, and the memref.copy case returned above),
    // whose region 0 holds its body block.
    let n = unsafe { mlirBlockGetNumArguments(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))) } as usize;
    let get = |i: usize| constant_int(operands[i]).ok_or_else(|| fail(op, "an scf.parallel with dynamic bounds has no GPU lowering"));
    let mut s = Space { extents: vec![], lbs: vec![], steps: vec![] };
    for d in 0..n {
        let (lb, ub, step) = (get(d)?, get(n + d)?, get(2 * n + d)?);
        s.extents.push(if ub > lb { (ub - lb + step - 1) / step } else { 0 });
        s.lbs.push(lb);
        s.steps.push(step);
    }
    Ok(s)
}

/// Delinearizes `linear` over `space` (row-major) into induction values.
fn delinearize(b: &Builder, linear: MlirValue, space: &Space) -> Vec<MlirValue> {
    let dims: Vec<Dim> =
        (0..space.extents.len()).map(|d| Dim { iv: linear, lb: space.lbs[d], step: space.steps[d], extent: space.extents[d] }).collect();
    launch::delinearize(b, linear, &dims)
}

/// Puts the body of parallel op `op` at `b` (inside a loop whose linear
/// index is `linear`), then erases `op`.
fn move_parallel_body(op: MlirOperation, b: &Builder, linear: MlirValue, space: &Space) {
    let ivs = delinearize(b, linear, space);
    move_body_at(op, b, &ivs);
}

/// The generic loop emitter: a grid-stride loop over the nest's points,
/// `V` consecutive innermost points per thread when [`vector_width`]
/// allows (XLA:GPU's unrolled loop emitter: 16 bytes per access), else one.
fn grid_stride(op: MlirOperation, target: &GpuTarget, names: &mut Names, notes: &str) -> Result<(), PassFailure> {
    let space = space_of(op)?;
    let total: i64 = space.extents.iter().product();
    if total == 0 {
        // SAFETY: `op` is the live parallel op (a result-less scf.parallel: `space_of` rejects results, or a
        // memref.copy), not used afterwards.
        unsafe { mlirOperationDestroy(op) };
        return Ok(());
    }
    let v = match vector_width(op, &space) {
        Ok(v) => v,
        Err(why) => {
            let codegen = format!("loop(grid-stride){notes} [scalar: {why}]");
            let (launch, fb, iv) = create_grid_stride(op, total, target, names, codegen);
            move_parallel_body(op, &fb, iv, &space);
            return finish_launch(launch);
        }
    };
    let codegen = format!("loop(grid-stride, {v} per thread, v{v}){notes}");
    let (launch, fb, iv) = create_grid_stride(op, total / v, target, names, codegen);
    move_vectorized_body(op, &fb, iv, &space, v);
    finish_launch(launch)
}

/// Bytes each access of a vectorized grid-stride thread moves (XLA:GPU's
/// loop emitter: 4 f32s, `ld.global.v4`).
const VECTOR_BYTES: i64 = 16;

/// Bytes of a memref element that can be a vector lane (not i1, index, complex).
fn lane_bytes(t: MlirType) -> Option<i64> {
    // SAFETY: type predicates accept any live type; the width is read only after `mlirTypeIsAInteger`.
    let bits = unsafe {
        if mlirTypeIsAF16(t) || mlirTypeIsABF16(t) {
            16
        } else if mlirTypeIsAF32(t) {
            32
        } else if mlirTypeIsAF64(t) {
            64
        } else if mlirTypeIsAInteger(t) {
            mlirIntegerTypeGetWidth(t) as i64
        } else {
            return None;
        }
    };
    matches!(bits, 8 | 16 | 32 | 64).then_some(bits / 8)
}

fn elem_type(m: MlirValue) -> MlirType {
    // SAFETY: `m` is the memref operand of a live memref.load/store/copy, and a memref type is shaped.
    unsafe { mlirShapedTypeGetElementType(mlirValueGetType(m)) }
}

/// A `memref.load` / `memref.store` in a nest's body: memref and indices.
fn access(o: MlirOperation) -> Option<(MlirValue, Vec<MlirValue>)> {
    let ops = raw::operands(o);
    match raw::name(o).as_str() {
        "memref.load" => Some((ops[0], ops[1..].to_vec())),
        "memref.store" => Some((ops[1], ops[2..].to_vec())),
        _ => None,
    }
}

/// Whether an access of the nest `op` with `indices` moves consecutive
/// elements across the innermost induction variable `inner`: Ok(true) when
/// it indexes the innermost dimension by `inner` and no other dimension
/// depends on it, Ok(false) when no index depends on it (the same element
/// for every lane), Err otherwise.
fn along_innermost(op: MlirOperation, indices: &[MlirValue], inner: MlirValue) -> Result<bool, String> {
    // Other induction variables and values from outside the nest are
    // independent of `inner`; values computed in the body may not be.
    let independent = |v: MlirValue| v.ptr != inner.ptr && raw::producer(v).is_none_or(|p| !raw::is_within(p, op));
    match indices.split_last() {
        Some((&last, rest)) if last.ptr == inner.ptr && rest.iter().all(|&v| independent(v)) => Ok(true),
        _ if indices.iter().all(|&v| independent(v)) => Ok(false),
        _ => {
            Err("an access indexes the innermost dimension by a computed value or another dimension by it (transposed, reversed, gathered)"
                .into())
        }
    }
}

/// How many consecutive innermost points (V) each thread of the grid-stride
/// loop over `op` (an `scf.parallel` or `memref.copy`) takes: 16 bytes over
/// the widest element accessed, when the innermost extent is a multiple of
/// V, every access either moves V consecutive elements (a load may also
/// read one element for all lanes) of a buffer 16-byte alignment is known
/// for, and the body's other ops do not touch memory; Err(why) otherwise.
fn vector_width(op: MlirOperation, space: &Space) -> Result<i64, String> {
    let n = space.extents.len();
    if n == 0 {
        return Err("rank 0".into());
    }
    let vectorized: Vec<MlirValue> = if raw::name(op) == "memref.copy" {
        raw::operands(op)
    } else {
        // SAFETY: `op` is a live scf.parallel here (the copy case is above), whose region 0 holds its body block.
        let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        // SAFETY: `n` is the number of the body's arguments (`space_of`) and is at least 1 (checked above).
        let inner = unsafe { mlirBlockGetArgument(body, n as isize - 1) };
        let ops = raw::block_ops(body);
        let mut stored = false;
        let mut out = Vec::new();
        for &o in ops.split_last().map_or(&[][..], |(_, rest)| rest) {
            let name = raw::name(o);
            if let Some((m, indices)) = access(o) {
                let is_store = name == "memref.store";
                if !is_store && stored {
                    return Err("a load follows a store".into());
                }
                stored |= is_store;
                match along_innermost(op, &indices, inner)? {
                    true => out.push(m),
                    false if is_store => return Err("a store not along the innermost dimension".into()),
                    false => {}
                }
            } else if writes_memory(o) || std::iter::once(o).chain(all_ops(o)).any(|x| reads_memory(&raw::name(x))) {
                return Err(format!("'{name}' in the body accesses memory"));
            }
        }
        out
    };
    let mut widest = 1;
    for &m in &vectorized {
        let t = elem_type(m);
        widest = widest.max(lane_bytes(t).ok_or_else(|| format!("elements of type {}", raw::type_text(t)))?);
    }
    let v = VECTOR_BYTES / widest;
    let (extent, lb, step) = (space.extents[n - 1], space.lbs[n - 1], space.steps[n - 1]);
    if vectorized.is_empty() || v < 2 {
        return Err("no access to vectorize".into());
    }
    if extent % v != 0 || lb % v != 0 || step != 1 {
        return Err(format!("innermost extent {extent} is not a multiple of {v}"));
    }
    for &m in &vectorized {
        vector_aligned(m, v)?;
    }
    Ok(v)
}

/// Ops that read memory (writes: [`writes_memory`]).
fn reads_memory(name: &str) -> bool {
    matches!(name, "memref.load" | "vector.load" | "vector.transfer_read" | "memref.atomic_rmw" | "memref.generic_atomic_rmw")
        || name.starts_with("linalg.")
}

/// Whether every `v` consecutive elements of `m` starting at an innermost
/// index that is a multiple of `v` are aligned to their size: `m`'s layout
/// is contiguous along its innermost dimension with static strides and
/// offset that are multiples of `v`, and it views a kernel argument or a
/// temporary (the runtime places every buffer 64-byte aligned in an arena
/// of 256-byte alignment, as `cuMemAlloc` does).
fn vector_aligned(m: MlirValue, v: i64) -> Result<(), String> {
    // SAFETY: `m` is the live memref operand of a vectorized access.
    let t = unsafe { mlirValueGetType(m) };
    let text = || raw::type_text(t);
    // SAFETY: `t` is the type of a memref.load/store operand (always a ranked memref) or of a memref.copy operand
    // (ranked in the kernels floors bufferizes; the copy's source is not checked to be ranked here), so it has a rank.
    let rank = unsafe { mlirShapedTypeGetRank(t) } as usize;
    let mut strides = vec![0i64; rank];
    let mut offset = 0i64;
    // SAFETY: `t` is a memref type and `strides` has room for its `rank` strides.
    if unsafe { mlirMemRefTypeGetStridesAndOffset(t, strides.as_mut_ptr(), &mut offset) }.value == 0 {
        return Err(format!("{} has no strided layout", text()));
    }
    // SAFETY: `d` is below the rank of `t`, read above.
    let shape: Vec<i64> = (0..rank).map(|d| unsafe { mlirShapedTypeGetDimSize(t, d as isize) }).collect();
    // Outer dimensions of extent 1 add nothing to the address.
    let aligned = |(d, &s): (usize, &i64)| s != i64::MIN && (s % v == 0 || shape[d] == 1);
    if strides.last() != Some(&1) || !strides[..rank - 1].iter().enumerate().all(aligned) || offset == i64::MIN || offset % v != 0 {
        return Err(format!("{} is not contiguous in aligned runs of {v}", text()));
    }
    let mut root = m;
    loop {
        match raw::producer(root) {
            // SAFETY: `root` has no producer, so it is a live block argument; its block's parent op may be null, for
            // which `raw::name` gives "".
            None if unsafe { raw::name(mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(root))) } == "func.func" => return Ok(()),
            Some(p) if raw::name(p) == "memref.alloc" => return Ok(()),
            Some(p) if classify(p) == Class::Sinkable && raw::name(p) != "memref.get_global" => root = raw::operands(p)[0],
            _ => return Err(format!("{} is not known to be 16-byte aligned", text())),
        }
    }
}

/// Puts the points of the nest `op` that thread index `linear` takes (the
/// `v` consecutive innermost points of vector point `linear` of `space`) at
/// `b`, then erases `op`: the innermost accesses ([`along_innermost`]) as
/// `vector.load`/`vector.store` of `v` lanes, the rest of the body once per
/// lane on the lanes ([`vector_width`] said this is faithful).
fn move_vectorized_body(op: MlirOperation, b: &Builder, linear: MlirValue, space: &Space, v: i64) {
    let n = space.extents.len();
    let mut vspace = Space { extents: space.extents.clone(), lbs: space.lbs.clone(), steps: space.steps.clone() };
    (vspace.extents[n - 1], vspace.lbs[n - 1], vspace.steps[n - 1]) = (space.extents[n - 1] / v, 0, 1);
    let mut ivs = delinearize(b, linear, &vspace);
    let vc = b.index_const(v);
    ivs[n - 1] = b.index_binop("arith.muli", ivs[n - 1], vc);
    if space.lbs[n - 1] != 0 {
        let lb = b.index_const(space.lbs[n - 1]);
        ivs[n - 1] = b.index_binop("arith.addi", ivs[n - 1], lb);
    }
    let align = |m: MlirValue| v * lane_bytes(elem_type(m)).unwrap_or(1);
    let vector_of = |m: MlirValue| b.vector(&[v], elem_type(m));
    if raw::name(op) == "memref.copy" {
        let ops = raw::operands(op);
        let x = vector_load(b, ops[0], &ivs, vector_of(ops[0]), align(ops[0]));
        vector_store(b, x, ops[1], &ivs, align(ops[1]));
        // SAFETY: `op` is the live memref.copy whose accesses were just rebuilt as vector ops; it has no results and is
        // not used afterwards.
        unsafe { mlirOperationDestroy(op) };
        return;
    }
    // SAFETY: `op` is a live scf.parallel here (the copy case returned above), whose region 0 holds its body block.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
    // SAFETY: `n` is the number of the body's arguments (`space_of`) and at least 1 (`vector_width` rejected rank 0).
    let inner = unsafe { mlirBlockGetArgument(body, n as isize - 1) };
    let mut map = ValueMap::default();
    for (d, &iv) in ivs.iter().enumerate() {
        // SAFETY: `d` is below `ivs.len()` = `n`, the number of the body's arguments.
        map.insert(unsafe { mlirBlockGetArgument(body, d as isize) }, iv);
    }
    let ops = raw::block_ops(body);
    let ops = ops.split_last().map_or(&[][..], |(_, rest)| rest);
    // The vectorized accesses: (op, memref, indices).
    let vectorized: Vec<(MlirOperation, MlirValue, Vec<MlirValue>)> = ops
        .iter()
        .filter_map(|&o| access(o).filter(|(_, idx)| along_innermost(op, idx, inner) == Ok(true)).map(|(m, idx)| (o, m, idx)))
        .collect();
    let is_vectorized = |o: MlirOperation| vectorized.iter().any(|(v, _, _)| v.ptr == o.ptr);
    // The loads first (they precede every store), each lane from them.
    let mut loads = Vec::new();
    for (o, m, idx) in vectorized.iter().filter(|(o, _, _)| raw::name(*o) == "memref.load") {
        let idx: Vec<MlirValue> = idx.iter().map(|&x| map.map(x)).collect();
        loads.push((raw::results(*o)[0], vector_load(b, *m, &idx, vector_of(*m), align(*m))));
    }
    // Per store: its memref and indices, and the lanes' values.
    let mut stores: Vec<(MlirOperation, MlirValue, &[MlirValue], Vec<MlirValue>)> = vectorized
        .iter()
        .filter(|(o, _, _)| raw::name(*o) == "memref.store")
        .map(|(o, m, idx)| (*o, *m, idx.as_slice(), Vec::new()))
        .collect();
    for k in 0..v {
        let mut lane = map.clone();
        let kc = b.index_const(k);
        lane.insert(inner, if k == 0 { ivs[n - 1] } else { b.index_binop("arith.addi", ivs[n - 1], kc) });
        for &(scalar, vector) in &loads {
            // SAFETY: `scalar` is the live result of one of the nest's memref.loads.
            lane.insert(scalar, vector_extract(b, vector, &[k], unsafe { mlirValueGetType(scalar) }));
        }
        for &o in ops {
            if let Some(s) = stores.iter_mut().find(|(s, ..)| s.ptr == o.ptr) {
                s.3.push(lane.map(raw::operands(o)[0]));
            } else if !is_vectorized(o) {
                clone_mapped(b, o, &mut lane);
            }
        }
    }
    for (_, m, idx, lanes) in stores {
        let idx: Vec<MlirValue> = idx.iter().map(|&x| map.map(x)).collect();
        let x = vector_from_elements(b, &lanes, vector_of(m));
        vector_store(b, x, m, &idx, align(m));
    }
    // SAFETY: `op` is the live, result-less scf.parallel whose body was cloned into the launch above; nothing refers to
    // it afterwards.
    unsafe { mlirOperationDestroy(op) };
}

fn single_block(
    entry: MlirBlock,
    body: &[MlirOperation],
    ret: MlirOperation,
    target: &GpuTarget,
    names: &mut Names,
    codegen: String,
) -> Result<(), PassFailure> {
    let _ = entry;
    // Temporaries and constants first, in order, so the launch can follow them.
    let first = body[0];
    for &o in body {
        if classify(o) == Class::Hoisted && o.ptr != first.ptr {
            // SAFETY: `o` and `first` are distinct live ops of the function's entry block.
            unsafe { mlirOperationMoveBefore(o, first) };
        }
    }
    let threads = BLOCK_THREADS.min(target.device.max_threads_per_block as i64);
    let (launch, b) = create_launch(ret, [1, 1, 1], [threads, 1, 1], &[], names, codegen);
    let moved: Vec<MlirOperation> = body.iter().copied().filter(|&o| classify(o) != Class::Hoisted).collect();
    for &o in &moved {
        b.move_here(o);
    }
    let tid = region_arg(launch, 0, 3);
    for &o in &moved {
        match classify(o) {
            Class::Parallel => {
                let space = space_of(o)?;
                // SAFETY: `o` is live and was just moved into the launch before its terminator, so a next op exists.
                let after = unsafe { mlirOperationGetNextInBlock(o) };
                let at = Builder::before(after);
                let total: i64 = space.extents.iter().product();
                let (ub, step) = (at.index_const(total), at.index_const(threads));
                let (_, fb, iv, _) = create_for(&at, tid, ub, step, &[]);
                move_parallel_body(o, &fb, iv, &space);
                at.op("gpu.barrier", &[], &[], &[]);
            }
            Class::Serial if writes_memory(o) => {
                if raw::results(o).iter().any(|&r| !raw::uses(r).is_empty()) {
                    return Err(fail(
                        o,
                        format!("'{}' writes memory and yields values later code uses: no GPU lowering yet", raw::name(o)),
                    ));
                }
                // SAFETY: as above: `o` is live in the launch, before its terminator.
                let after = unsafe { mlirOperationGetNextInBlock(o) };
                let at = Builder::before(after);
                let zero = at.index_const(0);
                // SAFETY: `at.ctx` is the live context of the launch being built.
                let pred = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(at.ctx, 64), 0) };
                // SAFETY: as above.
                let i1 = unsafe { mlirIntegerTypeGet(at.ctx, 1) };
                let cond = at.value("arith.cmpi", &[tid, zero], i1, &[("predicate", pred)]);
                let if_op = at.op_regions("scf.if", &[cond], &[], &[], &[Some(vec![]), None]);
                let ib = at.into_region(if_op, 0, "scf.yield");
                ib.move_here(o);
                at.op("gpu.barrier", &[], &[], &[]);
            }
            _ => {}
        }
    }
    finish_launch(launch)
}
