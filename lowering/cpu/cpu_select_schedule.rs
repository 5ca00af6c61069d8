//! `floors-cpu-select-schedule`: chooses the CPU schedule of every linalg op
//! of each kernel (on tensors, before bufferization) and writes it on the op
//! as `floors.cpu_schedule = #floors.cpu_schedule<...>` (`schedule.rs`), for
//! `floors-cpu-tile-and-vectorize` to apply. The choice depends on what the
//! op is and on the module's `floors.target` (L = f32 lanes of its vector
//! registers: 16 with AVX-512, 8 with AVX2):
//!
//! - **matmul** (`linalg.matmul`, `linalg.batch_matmul`, f32, static shapes;
//!   and the packed and VNNI forms `floors-cpu-pack-matmul` makes): tiled
//!   for the caches ([batch 1,] up to 64×128×128), then for the registers
//!   (MR×NR×1: 8×2L with AVX-512, 8×L otherwise).
//! - **direct convolution** (a `linalg.generic` with an image input indexed
//!   by window sums, a kernel and an output indexed by plain loops, a
//!   multiply-add body; any element type, static shapes): one vector of
//!   output features (depthwise: channels) × up to 8 unit-stride output
//!   columns (a divisor of the columns when one is at least half the widest
//!   tile; else the widest, its loop peeled: 181 columns are 22 tiles of 8
//!   and one of 5), every other loop by 1.
//! - **pooling window** (a `linalg.generic` reducing an image input indexed
//!   by window sums over the window's loops, arith-only body: max, min and
//!   sum pools): the convolution schedule with one vector of the innermost
//!   contiguous output loop, every other loop by 1.
//! - **row reduction** (a reduction over the innermost loop): one row at a
//!   time, the reduced loop split by the vector width.
//! - **elementwise** (all-parallel `linalg.generic`/`linalg.map` with only
//!   arith/math in the body, and element reads of tensors from outside it
//!   at computed indices — a gather, vectorized as a vector gather —; floats
//!   of 16–64 bits and integers of 8–64 bits (not i1), static shapes;
//!   transposes): outer dimensions tiled by 1,
//!   the innermost by up to 4L (L counted in lanes of the widest element);
//!   an innermost dim no vector width divides (1000, 8193) is tiled by 4L
//!   and peeled.
//! - **row fusion**: an elementwise root that writes a kernel output and
//!   whose producers include row reductions (softmax, layernorm) gets the
//!   row tile its producers are fused under (`rows`).
//!
//! Every other op (sorts, fills, zero-size ops, shapes that do not
//! divide) gets no schedule and becomes loops in `convert-linalg-to-loops`.
//! A schedule already on an op (a test, a user) is kept.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure, fail_at as fail},
};
use floors_linalg::maps;

use crate::{
    packing::{packed_contraction, vnni_contraction, with_batch},
    schedule::{SCHEDULE_ATTR, Schedule},
    target_f32_lanes,
};

#[derive(Clone, Default)]
pub struct CpuSelectSchedule;

impl FloorsPass for CpuSelectSchedule {
    const ARGUMENT: &'static str = "floors-cpu-select-schedule";
    const NAME: &'static str = "FloorsCpuSelectSchedule";
    const DESCRIPTION: &'static str =
        "Choose each linalg op's CPU schedule (matmul, convolution, row reduction, elementwise, row fusion): floors.cpu_schedule";
    // One function at a time, as the pass that applies the schedules.
    const ANCHOR: &'static str = "func.func";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: the getter takes nothing and returns the dialect's static handle.
        vec![unsafe { DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let lanes = target_f32_lanes(op.to_raw())?;
        let candidates = floors_ir::ir::collect_ops(&op, |o| floors_ir::ir::op_name(&o).starts_with("linalg."));
        for o in candidates {
            if raw::attr(o, SCHEDULE_ATTR).is_some() {
                continue;
            }
            let Some(s) = schedule_of(o, lanes) else { continue };
            // A schedule must give one size per loop of its op (the pass that
            // applies it refuses anything else): where the choice does not,
            // the op keeps no schedule and becomes scalar loops.
            match maps::num_loops(o) {
                Some(loops) if loops != s.loops() => remark(
                    o,
                    &format!(
                        "no {} schedule: it would tile {} of this op's {loops} loops; this op is computed by scalar loops",
                        s.kind(),
                        s.loops()
                    ),
                ),
                _ => set_schedule(o, &s, &[])?,
            }
        }
        for (root, rows) in row_fusions(&op) {
            let s = Schedule::of_op(root).ok_or_else(|| fail(root, "a row-fusion root without a schedule (internal)"))?;
            set_schedule(root, &s, &rows)?;
        }
        Ok(())
    }
}

/// A remark at `op`'s location (what `-v` and mlir-opt print).
fn remark(op: MlirOperation, message: &str) {
    // SAFETY: `op` is live; the message is copied by MLIR.
    unsafe { floors_ir::capi::floorsEmitRemark(mlirOperationGetLocation(op), raw::sref(message)) };
}

/// Writes `s` (and the row tile `rows` of a row fusion) on `op`.
fn set_schedule(op: MlirOperation, s: &Schedule, rows: &[i64]) -> Result<(), PassFailure> {
    // SAFETY: `op` is a live op of the function this pass runs on.
    let ctx = unsafe { mlirOperationGetContext(op) };
    let attr = s.to_attribute(ctx, rows).ok_or_else(|| fail(op, format!("internal error: a CPU schedule that does not verify: {s:?}")))?;
    // SAFETY: as above; `attr` belongs to the op's context.
    unsafe { mlirOperationSetAttributeByName(op, raw::sref(SCHEDULE_ATTR), attr) };
    Ok(())
}

fn element_type(v: MlirValue) -> Option<MlirType> {
    // SAFETY: `v` is an operand or result of a live linalg op; its element type is read only after
    // `mlirTypeIsARankedTensor`.
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsARankedTensor(t).then(|| mlirShapedTypeGetElementType(t))
    }
}

fn is_f32(t: MlirType) -> bool {
    // SAFETY: `t` is a live type (an element type read from a value).
    unsafe { mlirTypeIsAF32(t) }
}

/// The bits of an element type the elementwise schedule vectorizes: floats
/// of 16, 32 and 64 bits, integers of 8 to 64. Not i1: a `vector<Nxi1>` in
/// memory is N bits, while a memref of i1 holds a byte per element.
fn vector_element_bits(t: MlirType) -> Option<i64> {
    // SAFETY: `t` is a live type; the width is read only after `mlirTypeIsAInteger`.
    unsafe {
        if mlirTypeIsAF16(t) || mlirTypeIsABF16(t) {
            return Some(16);
        }
        if mlirTypeIsAF32(t) {
            return Some(32);
        }
        if mlirTypeIsAF64(t) {
            return Some(64);
        }
        if mlirTypeIsAInteger(t) {
            let w = mlirIntegerTypeGetWidth(t) as i64;
            return [8, 16, 32, 64].contains(&w).then_some(w);
        }
        None
    }
}

/// The largest of `candidates` that divides `n`.
fn divisor(n: i64, candidates: &[i64]) -> Option<i64> {
    candidates.iter().copied().find(|&c| c > 0 && n % c == 0)
}

fn matmul_schedule(op: MlirOperation, batch: bool, lanes: i64) -> Option<Schedule> {
    let ops = raw::operands(op);
    if ops.len() != 3 || raw::results(op).len() != 1 {
        return None;
    }
    if !ops.iter().all(|&v| element_type(v).is_some_and(is_f32)) {
        return None;
    }
    let (a, b) = (raw::shape(ops[0])?, raw::shape(ops[1])?);
    let (m, k, n) = if batch { (a[1], a[2], b[2]) } else { (a[0], a[1], b[1]) };
    // Register tile: MR rows × NR columns of accumulators. AVX-512 (32 zmm):
    // 8×2L = 16 registers; AVX2 (16 ymm): 8×L = 8 registers, measured best
    // of 4×2L, 8×2L, 2×4L, 8×L, 16×L on this machine (1024³: 77 ms vs 93–274).
    let (mr, nr) = if lanes >= 16 { (8, 2 * lanes) } else { (8, lanes) };
    if m % mr != 0 || n % nr != 0 {
        return None;
    }
    let tm = divisor(m, &[64, 32, 16, 8, 4].map(|x| x.max(mr)))?;
    let tn = divisor(n, &[128, 64, 32, 16].map(|x| x.max(nr)))?;
    let tk = divisor(k, &[128, 64, 32, 16, 8, 4, 2, 1])?;
    let (mut cache, mut register) = (vec![tm, tn, tk], vec![mr, nr, 1]);
    if batch {
        cache.insert(0, 1);
        register.insert(0, 1);
    }
    Some(Schedule::Matmul { cache, register, k: 2 + batch as usize })
}

/// The packed contraction of `floors-cpu-pack-matmul` (A[M1,MR,K] ·
/// B[N1,K,NR] → C viewed [M1,MR,N1,NR], optional batch in front): cache
/// tiles of up to 8 row blocks × 8 column panels × 256 K steps, then one
/// MR×NR register tile per (up to) 4 K steps (the tile's dims are the
/// packed inner dims).
fn packed_matmul_schedule(op: MlirOperation) -> Option<Schedule> {
    // f32: mulf + addf, nothing else; bf16 (VNNI layout, A and B widened
    // in the body): the K pair loop stays whole in the register tile.
    let (batch, vnni) = match (packed_contraction(op), vnni_contraction(op)) {
        (Some(batch), _) => (batch, false),
        (None, Some(batch)) => (batch, true),
        (None, None) => return None,
    };
    let body: Vec<String> = raw::region_blocks(op).into_iter().flat_map(raw::block_ops).map(raw::name).collect();
    let want: &[&str] = if vnni {
        &["arith.extf", "arith.extf", "arith.mulf", "arith.addf", "linalg.yield"]
    } else {
        &["arith.mulf", "arith.addf", "linalg.yield"]
    };
    if body != want {
        return None;
    }
    let ops = raw::operands(op);
    // SAFETY: `t` is a live element type, as in `is_f32`.
    let inputs_ok = |t: MlirType| if vnni { unsafe { mlirTypeIsABF16(t) } } else { is_f32(t) };
    if ops.len() != 3 || !ops[..2].iter().all(|&v| element_type(v).is_some_and(inputs_ok)) || !element_type(ops[2]).is_some_and(is_f32) {
        return None;
    }
    let (a, c) = (raw::shape(ops[0])?, raw::shape(ops[2])?);
    let off = batch as usize;
    // C is viewed as [M1, MR, N1, NR]; A as [M1, MR, K].
    let (m1, n1, k) = (c[off], c[off + 2], a[off + 2]);
    // K steps of 256: C's tiles (the 4-D view of the output, too big for
    // L2 at 1024² per workgroup) are read and written K/256 times, half as
    // often as with 128 (1024³ on 2 threads: 10.8–11.4 ms against
    // 12.4–14.1 ms with 32 × 4 × 128, back to back); 8 row blocks × 8
    // panels keep the A rows (64 × 256) and B panels (8 × 32 KB) in L2.
    // Sizes without such divisors (M = N = K = 1000) keep the same tiles,
    // the last one partial: tiles of 1 row block or 8 K steps cost 4× the
    // time (1000³: 48.9 ms against 11.1 for 1024³), since every B panel and
    // C tile then serves only a sliver of work.
    let t1 = divisor(m1, &[8, 4]).unwrap_or(m1.min(8));
    let t2 = divisor(n1, &[8, 4]).unwrap_or(n1.min(8));
    // K unrolled by up to 4 in the register tile (fewer loop branches); one
    // K step per register tile when the last K tile is partial (its length
    // is known only at run time there). VNNI: k counts K pairs, so the
    // same K tile is half as many steps.
    let (full, unroll): (i64, &[i64]) = if vnni { (128, &[2, 1]) } else { (256, &[4, 2, 1]) };
    let (tk, kr) = match divisor(k, &[full, full / 2, full / 4]) {
        Some(tk) => (tk, divisor(tk, unroll)?),
        None if k <= full => (k, divisor(k, unroll)?),
        None => (full, 1),
    };
    let (mut cache, mut register) = (vec![t1, t2, 0, 0, tk], vec![1, 1, 0, 0, kr]);
    if vnni {
        cache.push(0);
        register.push(0);
    }
    if batch {
        cache.insert(0, 1);
        register.insert(0, 1);
    }
    Some(Schedule::Matmul { cache, register, k: 4 + batch as usize })
}

/// Per loop: parallel (true) or reduction (false); `linalg.map` is all parallel.
fn parallel_loops(op: MlirOperation) -> Option<Vec<bool>> {
    if raw::attr(op, "iterator_types").is_some() {
        return maps::parallel_iterators(op);
    }
    match raw::name(op).as_str() {
        "linalg.map" => raw::shape(*raw::results(op).first()?).map(|s| vec![true; s.len()]),
        _ => None,
    }
}

/// Loop bounds of a generic from its operands' shapes and maps (static).
fn loop_bounds(op: MlirOperation) -> Option<Vec<i64>> {
    let maps = raw::attr(op, "indexing_maps")?;
    let ops = raw::operands(op);
    // SAFETY: `op` is a live linalg op whose `indexing_maps` is, by its verifier, an array of one
    // AffineMapAttr per operand (a structured op has at least its init operand, so element 0
    // exists), each map with one result per dim of its operand: `i` < `n` and `r` is below the
    // map's result count. The dim position is read only after `mlirAffineExprIsADim`.
    unsafe {
        let n = mlirArrayAttrGetNumElements(maps) as usize;
        let first = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
        let mut bounds = vec![-1i64; mlirAffineMapGetNumDims(first) as usize];
        for (i, &v) in ops.iter().enumerate().take(n) {
            let m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i as isize));
            for (r, &d) in raw::shape(v)?.iter().enumerate() {
                let e = mlirAffineMapGetResult(m, r as isize);
                if mlirAffineExprIsADim(e) {
                    bounds[mlirAffineDimExprGetPosition(e) as usize] = d;
                }
            }
        }
        bounds.iter().all(|&b| b > 0).then_some(bounds)
    }
}

/// A generic reducing its innermost dim (only) into f32, whose yielded value is
/// a known combiner of the accumulator: rows by 1, the row split by the
/// widest vector that divides it.
fn row_reduction_schedule(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    let par = parallel_loops(op)?;
    let (last, rest) = par.split_last()?;
    if *last || !rest.iter().all(|&p| p) || !structured_body_ok(op, false) {
        return None;
    }
    // f32 accumulators; inputs f32, or f16/bf16 the body widens (a bf16
    // max accumulated in f32 by the shared lowering).
    // SAFETY: `t` is a live element type, as in `is_f32`.
    let half_or_f32 = |t: MlirType| is_f32(t) || unsafe { mlirTypeIsABF16(t) || mlirTypeIsAF16(t) };
    let (ops, results) = (raw::operands(op), raw::results(op));
    if results.len() != 1 || !results.iter().chain(ops.last()).all(|&v| element_type(v).is_some_and(is_f32)) {
        return None;
    }
    if !ops.iter().all(|&v| element_type(v).is_some_and(half_or_f32)) {
        return None;
    }
    if !combines_accumulators(op) {
        return None;
    }
    let bounds = loop_bounds(op)?;
    let vec = divisor(*bounds.last()?, &[4 * lanes, 2 * lanes, lanes, lanes / 2, 4])?;
    let mut rows = vec![1; par.len()];
    *rows.last_mut()? = 0;
    let mut split = vec![0; par.len()];
    *split.last_mut()? = vec;
    Some(Schedule::RowReduction { rows, split })
}

/// Whether every result of `m` is a distinct dim or the constant 0 (a unit
/// dimension read at index 0: `(d0, d1) -> (d0, 0)` for a `4096x1` operand,
/// what a broadcast of a kept-dims reduction becomes). The vectorizer reads
/// such an operand as a broadcast.
fn projection_or_zero(m: MlirAffineMap) -> bool {
    // SAFETY: `m` is a live affine map (of a checked AffineMapAttr); `r` is below its result count,
    // and the constant and dim getters run only after the matching `mlirAffineExprIsA...` check.
    unsafe {
        let mut seen = vec![false; mlirAffineMapGetNumDims(m) as usize];
        (0..mlirAffineMapGetNumResults(m)).all(|r| {
            let e = mlirAffineMapGetResult(m, r);
            if mlirAffineExprIsAConstant(e) {
                return mlirAffineConstantExprGetValue(e) == 0;
            }
            if !mlirAffineExprIsADim(e) {
                return false;
            }
            let d = mlirAffineDimExprGetPosition(e) as usize;
            !std::mem::replace(&mut seen[d], true)
        })
    }
}

/// One region of arith/math only, every operand indexed by a projected
/// permutation, or reading a unit dimension at 0 (no other constants, sums).
fn structured_body_ok(op: MlirOperation, reads: bool) -> bool {
    // SAFETY: `op` is a live linalg op, whose `indexing_maps` is an ArrayAttr by its verifier; `i`
    // is below its size, and each element is read as a map only after `mlirAttributeIsAAffineMap`;
    // `o` are live ops of `op`'s body.
    unsafe {
        if mlirOperationGetNumRegions(op) != 1 {
            return false;
        }
        if let Some(maps) = raw::attr(op, "indexing_maps") {
            for i in 0..mlirArrayAttrGetNumElements(maps) {
                let m = mlirArrayAttrGetElement(maps, i);
                if !mlirAttributeIsAAffineMap(m) || !projection_or_zero(mlirAffineMapAttrGetValue(m)) {
                    return false;
                }
            }
        }
        for block in raw::region_blocks(op) {
            for o in raw::block_ops(block) {
                let n = raw::name(o);
                // With `reads`: element reads of a tensor from outside the op
                // at computed indices (a gather's `tensor.extract`, which the
                // vectorizer makes a vector gather or, where the index walks
                // the loop, a contiguous read), and the loop indices.
                let read = reads && (n == "linalg.index" || (n == "tensor.extract" && defined_outside(raw::operands(o)[0], op)));
                if !(n.starts_with("arith.") || n.starts_with("math.") || n == "linalg.yield" || read) || mlirOperationGetNumRegions(o) != 0
                {
                    return false;
                }
            }
        }
    }
    true
}

/// Whether `v` is defined outside `op` (not in its body).
fn defined_outside(v: MlirValue, op: MlirOperation) -> bool {
    // SAFETY: `v` is a live value; its defining block (a block argument's owner, or its op's block) is compared with
    // the blocks of `op`'s regions only.
    let block =
        unsafe { if mlirValueIsABlockArgument(v) { mlirBlockArgumentGetOwner(v) } else { mlirOperationGetBlock(mlirOpResultGetOwner(v)) } };
    !raw::region_blocks(op).iter().any(|b| b.ptr == block.ptr)
}

/// Combiners the vectorizer (and `tile_reduction_using_for`, for the row
/// reductions) turn into vector reductions.
const VECTOR_COMBINERS: &[&str] = &[
    "arith.addf",
    "arith.addi",
    "arith.mulf",
    "arith.muli",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
    "arith.andi",
    "arith.ori",
    "arith.xori",
];

/// Whether every value a reduction generic yields is a [`VECTOR_COMBINERS`]
/// op applied to its own accumulator (the block argument of that output),
/// the only form the vectorizer accepts: a body that widens the
/// accumulator first (an f16 product computed in f32) makes it fail.
fn combines_accumulators(op: MlirOperation) -> bool {
    let Some(&block) = raw::region_blocks(op).first() else { return false };
    let Some(&yield_op) = raw::block_ops(block).last() else { return false };
    let yielded = raw::operands(yield_op);
    // SAFETY: `block` is the first block of the live op `op`.
    let args = unsafe { mlirBlockGetNumArguments(block) } as usize;
    let Some(first_acc) = args.checked_sub(yielded.len()) else { return false };
    yielded.iter().enumerate().all(|(i, &v)| {
        // SAFETY: `first_acc + i` is below `args`, the block's argument count (`i` <
        // `yielded.len()` = `args - first_acc`).
        let acc = unsafe { mlirBlockGetArgument(block, (first_acc + i) as isize) };
        raw::producer(v)
            .is_some_and(|c| VECTOR_COMBINERS.contains(&raw::name(c).as_str()) && raw::operands(c).iter().any(|&x| raw::same_value(x, acc)))
    })
}

/// Elementwise ops, and reductions whose innermost dim is parallel (column
/// reductions: the reduced dims tiled by 1, so each tile is elementwise on
/// a loop-carried accumulator).
fn elementwise_schedule(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    let par = parallel_loops(op)?;
    if !*par.last()? || !structured_body_ok(op, true) {
        return None;
    }
    if !par.iter().all(|&p| p) && !combines_accumulators(op) {
        return None;
    }
    // A pure copy whose every operand walks the innermost loop contiguously
    // (a packed matmul's B panels) is tiled: each tile's read/write pair
    // folds into a slice copy of one contiguous run, a memcpy intrinsic
    // after bufferization. Left to LLVM, its scalar loop stays scalar, since
    // LLVM cannot tell the (realigned) temporary from the input it copies.
    // A transposing copy (innermost dim strided in some operand) is tiled
    // by squares instead (`transpose_schedule`), or stays a loop nest.
    let body: Vec<MlirOperation> = raw::region_blocks(op).into_iter().flat_map(raw::block_ops).collect();
    if body.len() == 1 {
        if let Some(s) = vnni_pack_schedule(op) {
            return Some(s);
        }
        if !innermost_contiguous(op) {
            return transpose_schedule(op, lanes);
        }
    }
    let values: Vec<MlirValue> = raw::operands(op).into_iter().chain(raw::results(op)).collect();
    if values.is_empty() || !values.iter().all(|&v| raw::shape(v).is_some()) {
        return None;
    }
    // Tiles are sized for the widest element: as many lanes as f32 vectors of
    // the same registers hold (f64: half, i8: four times).
    let widest = values.iter().map(|&v| element_type(v).and_then(vector_element_bits)).collect::<Option<Vec<_>>>()?;
    let lanes = lanes * 32 / widest.into_iter().max()?;
    // The iteration space: the result's shape when all loops are parallel.
    let shape = if par.iter().all(|&p| p) { raw::shape(*raw::results(op).first()?)? } else { loop_bounds(op)? };
    let inner = *shape.last()?;
    if shape.contains(&0) {
        return None;
    }
    let fits = divisor(inner, &[4 * lanes, 2 * lanes, lanes]).or((inner <= 4 * lanes).then_some(inner));
    let (vec, peel) = match fits {
        Some(v) => (v, false),
        None => (4 * lanes, true),
    };
    let mut tile = vec![1; shape.len()];
    *tile.last_mut()? = vec;
    Some(Schedule::Elementwise { tile, peel })
}

/// A copy of 32-bit elements that transposes (the input's innermost dim is
/// loop p, the output's the innermost loop q, both multiples of the lane
/// count L): tiled L×L on (p, q), each tile vectorized as L row reads of
/// the input, a `vector.transpose` (AVX-512: `shuffle_16x16`, 16×16 f32 in
/// register shuffles) and L row writes. Left a loop nest, it moved one
/// element per load and store: packing B from an N×K layout (`q @ k.T`)
/// took a fifth of the 512×512×64 product's time.
fn transpose_schedule(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    let ops = raw::operands(op);
    let results = raw::results(op);
    if ops.len() != 2 || results.len() != 1 || lanes != 16 {
        return None;
    }
    if !ops.iter().all(|&v| element_type(v).and_then(vector_element_bits) == Some(32)) {
        return None;
    }
    let maps = maps::maps_of(raw::attr(op, "indexing_maps")?)?;
    let shape = raw::shape(results[0])?;
    let n = shape.len();
    if maps.len() != 2 {
        return None;
    }
    // SAFETY: `m` is a map from `maps_of` (checked AffineMapAttrs); result `r - 1` exists (`r` >= 1
    // checked), and the dim position is read only after `mlirAffineExprIsADim`.
    let last_dim = |m: MlirAffineMap| unsafe {
        // A broadcast's input map may have no results at all.
        let r = mlirAffineMapGetNumResults(m);
        if r < 1 {
            return None;
        }
        let e = mlirAffineMapGetResult(m, r - 1);
        mlirAffineExprIsADim(e).then(|| mlirAffineDimExprGetPosition(e) as usize)
    };
    let (p, q) = (last_dim(maps[0])?, last_dim(maps[1])?);
    // SAFETY: `maps[1]` is a live affine map (`maps` has two, checked above).
    let identity_out = unsafe { mlirAffineMapIsIdentity(maps[1]) };
    if !identity_out || q != n - 1 || p == q || shape[p] % lanes != 0 || shape[q] % lanes != 0 {
        return None;
    }
    let mut tile = vec![1; n];
    (tile[p], tile[q]) = (lanes, lanes);
    Some(Schedule::Elementwise { tile, peel: false })
}

/// The bf16 B packing of the VNNI contraction (`floors-cpu-pack-matmul`:
/// Bp[N1, K/2, NR, 2] from B viewed [K/2, 2, N1, NR], a batch dim in front
/// of both): tiled by one [NR, 2] tile of Bp, two rows of NR of B, which
/// [`vnni_pack_tiles`] interleaves into one write.
fn vnni_pack_schedule(op: MlirOperation) -> Option<Schedule> {
    let (ops, results) = (raw::operands(op), raw::results(op));
    // SAFETY: `t` is a live element type.
    if ops.len() != 2 || results.len() != 1 || !ops.iter().all(|&v| element_type(v).is_some_and(|t| unsafe { mlirTypeIsABF16(t) })) {
        return None;
    }
    let shape = raw::shape(results[0])?;
    let batch = match shape.len() {
        4 => false,
        5 => true,
        _ => return None,
    };
    let n = shape.len();
    let id: Vec<usize> = (0..n).collect();
    if shape[n - 1] != 2 || shape[n - 2] % 16 != 0 {
        return None;
    }
    let mut tile = vec![1; n];
    if maps::indexing_maps_are(op, (n, &[&with_batch(batch, &[1, 3, 0, 2]), &id])) {
        (tile[n - 2], tile[n - 1]) = (shape[n - 2], 2);
        return Some(Schedule::Elementwise { tile, peel: false });
    }
    // From B stored N×K ([N1, NR, K/2, 2]): 16 pairs × 16 columns per tile,
    // a 16×16 transpose of 32-bit pairs.
    if maps::indexing_maps_are(op, (n, &[&with_batch(batch, &[0, 2, 1, 3]), &id])) && shape[n - 3] % 16 == 0 {
        (tile[n - 3], tile[n - 2], tile[n - 1]) = (16, 16, 2);
        return Some(Schedule::Elementwise { tile, peel: false });
    }
    None
}

/// Whether every indexing map of `op` ends with its innermost loop dim.
fn innermost_contiguous(op: MlirOperation) -> bool {
    let Some(maps) = raw::attr(op, "indexing_maps") else { return false };
    // SAFETY: `maps` is the `indexing_maps` of a live linalg op, an ArrayAttr by the op's verifier;
    // `i` is below its size and each element is read as a map only after
    // `mlirAttributeIsAAffineMap`; result `results - 1` exists (`results` > 0 checked), and the dim
    // position is read only after `mlirAffineExprIsADim`.
    unsafe {
        (0..mlirArrayAttrGetNumElements(maps)).all(|i| {
            let a = mlirArrayAttrGetElement(maps, i);
            if !mlirAttributeIsAAffineMap(a) {
                return false;
            }
            let m = mlirAffineMapAttrGetValue(a);
            let (dims, results) = (mlirAffineMapGetNumDims(m), mlirAffineMapGetNumResults(m));
            if dims == 0 || results == 0 {
                return false;
            }
            let last = mlirAffineMapGetResult(m, results - 1);
            mlirAffineExprIsADim(last) && mlirAffineDimExprGetPosition(last) == dims - 1
        })
    }
}

/// The terms of an index expression `Σ dim·k` (None for anything else:
/// constants, mod, division, symbols).
fn terms(e: MlirAffineExpr) -> Option<Vec<(usize, i64)>> {
    // SAFETY: `e` is a live affine expression; every getter runs only after the check of its kind
    // (dim, add or mul binary, constant).
    unsafe {
        if mlirAffineExprIsADim(e) {
            return Some(vec![(mlirAffineDimExprGetPosition(e) as usize, 1)]);
        }
        if mlirAffineExprIsAAdd(e) {
            let mut t = terms(mlirAffineBinaryOpExprGetLHS(e))?;
            t.extend(terms(mlirAffineBinaryOpExprGetRHS(e))?);
            return Some(t);
        }
        if mlirAffineExprIsAMul(e) {
            let (l, r) = (mlirAffineBinaryOpExprGetLHS(e), mlirAffineBinaryOpExprGetRHS(e));
            if mlirAffineExprIsADim(l) && mlirAffineExprIsAConstant(r) {
                let k = mlirAffineConstantExprGetValue(r);
                return (k > 0).then(|| vec![(mlirAffineDimExprGetPosition(l) as usize, k)]);
            }
        }
        None
    }
}

/// What the convolution and pooling schedules ask first: a `linalg.generic`
/// of two inputs and one output, all of static shape, with reduction loops
/// and a body of arith ops only. Returns which loops are parallel, and the
/// body.
fn windowed_generic(op: MlirOperation) -> Option<(Vec<bool>, MlirBlock)> {
    if raw::name(op) != "linalg.generic" {
        return None;
    }
    let ops = raw::operands(op);
    if ops.len() != 3 || raw::results(op).len() != 1 || ops.iter().any(|&v| raw::shape(v).is_none()) {
        return None;
    }
    let par = parallel_loops(op)?;
    if par.iter().all(|&p| p) {
        return None;
    }
    let block = *raw::region_blocks(op).first()?;
    let arith_only = raw::block_ops(block).iter().all(|&o| {
        let n = raw::name(o);
        n.starts_with("arith.") || n == "linalg.yield"
    });
    arith_only.then_some((par, block))
}

/// One indexing map's results, each a sum of (loop, coefficient) terms.
type MapTerms = Vec<Vec<(usize, i64)>>;

/// The results of each indexing map of `op` as sums of (loop, coefficient)
/// terms ([`terms`]); None when a map has another form.
fn map_terms(op: MlirOperation) -> Option<Vec<MapTerms>> {
    let maps = maps::maps_of(raw::attr(op, "indexing_maps")?)?;
    let mut exprs: Vec<MapTerms> = Vec::new();
    for &m in &maps {
        // SAFETY: `m` is a live map from `maps_of`.
        let n = unsafe { mlirAffineMapGetNumResults(m) };
        // SAFETY: `r` is below `n`, the map's result count.
        exprs.push((0..n).map(|r| terms(unsafe { mlirAffineMapGetResult(m, r) })).collect::<Option<Vec<_>>>()?);
    }
    Some(exprs)
}

/// A direct convolution (`linalg.generic`, as `floors-linalg-lower-stablehlo`
/// writes a convolution it does not give the named op, and as
/// `floors-cpu-pack-matmul` generalizes one it does not make a matmul): two
/// inputs and an accumulator, some reduction loops, an image input indexed by
/// sums `d·stride + d'·dilation` (the window), the other input (kernel) and
/// the output by plain loops, a multiply-add body. Vectorized over the widest
/// output feature loop (the loop the kernel and the output share; a
/// depthwise convolution's channels), else over the input features (a
/// vector reduction) when the outputs have fewer than 4 features, and, with
/// unit stride, 2–4 output columns as well (a register tile of
/// columns × features).
fn conv_schedule(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    let (par, block) = windowed_generic(op)?;
    // The body: yield(add(acc, mul(..))).
    let body = raw::block_ops(block);
    let add = raw::producer(*raw::operands(*body.last()?).first()?)?;
    // SAFETY: `block` is the body of the live generic `op`, which has three operands (checked
    // above) and so, by its verifier, three block arguments: the last one exists.
    let acc = unsafe { mlirBlockGetArgument(block, mlirBlockGetNumArguments(block) - 1) };
    let mul_of = |v: MlirValue| raw::producer(v).map(raw::name).is_some_and(|n| n == "arith.mulf" || n == "arith.muli");
    let add_ops = raw::operands(add);
    if !matches!(raw::name(add).as_str(), "arith.addf" | "arith.addi")
        || add_ops.len() != 2
        || !add_ops.iter().any(|&v| raw::same_value(v, acc))
        || !add_ops.iter().any(|&v| mul_of(v))
    {
        return None;
    }
    // Maps: every result a sum of dims times positive constants.
    let exprs = map_terms(op)?;
    let plain = |e: &[Vec<(usize, i64)>]| e.iter().all(|t| t.len() == 1 && t[0].1 == 1);
    let image: Vec<bool> = exprs[..2].iter().map(|e| !plain(e)).collect();
    // One image and one kernel input; the output indexed by parallel loops.
    if image != [true, false] || !plain(&exprs[2]) || !exprs[2].iter().all(|t| par[t[0].0]) {
        return None;
    }
    let bounds = loop_bounds(op)?;
    // Loops used with a coefficient other than 1 cannot be vectorized.
    let unit = |d: usize| exprs.iter().flatten().flatten().all(|&(x, k)| x != d || k == 1);
    let in_sum = |d: usize| exprs[0].iter().any(|t| t.len() > 1 && t.iter().any(|&(x, _)| x == d));
    let in_kernel = |d: usize| exprs[1].iter().any(|t| t[0].0 == d);
    let widest = |cands: Vec<usize>| cands.into_iter().max_by_key(|&d| (bounds[d], d));
    let features = widest((0..par.len()).filter(|&d| par[d] && in_kernel(d) && unit(d)).collect());
    let channels = widest((0..par.len()).filter(|&d| !par[d] && in_kernel(d) && !in_sum(d) && unit(d)).collect());
    let v1 = match (features, channels) {
        (Some(f), Some(c)) if bounds[f] < 4 && bounds[c] >= 4 => c,
        (Some(f), _) => f,
        (None, Some(c)) => c,
        (None, None) => return None,
    };
    let e = bounds[v1];
    let t1 = divisor(e, &[2 * lanes, lanes]).or((e <= 4 * lanes).then_some(e)).or_else(|| divisor(e, &[lanes / 2, 4, 2, 1]))?;
    let mut tile = vec![1; par.len()];
    tile[v1] = t1;
    // Output columns: the innermost output loop that is a unit-stride window sum.
    // as many columns as keep the accumulators in half the vector registers
    // (8 of AVX2's 16, 16 of AVX-512's 32).
    // A divisor of the columns when one is at least half the widest tile;
    // else the widest tile, its loop peeled (181 columns: 22 tiles of 8 and
    // one of 5, not 181 tiles of 1).
    let column = exprs[2].iter().rev().map(|t| t[0].0).find(|&d| d != v1 && in_sum(d) && unit(d));
    let mut peel = None;
    if let Some(d) = column {
        let budget = if lanes >= 16 { 16 } else { 8 };
        let vectors = (t1 + lanes - 1) / lanes;
        let widest = (1..=8).rev().find(|&c| c <= bounds[d] && c * vectors <= budget).unwrap_or(1);
        let dividing = (1..=widest).rev().find(|&c| bounds[d] % c == 0).unwrap_or(1);
        // The peeled loop's parent holds both parts (the outermost loop
        // has none of this op's own).
        tile[d] = if 2 * dividing >= widest || d == 0 { dividing } else { widest };
        if bounds[d] % tile[d] != 0 {
            peel = Some(d);
        }
    }
    Some(Schedule::Conv { tile, peel })
}

/// A pooling window (`linalg.generic`, as `floors-linalg-lower-stablehlo`
/// writes a `reduce_window` over one operand): an image input indexed by
/// sums `d·stride + d'·dilation`, the window-shape input (never read by the
/// body) and the output indexed by plain parallel loops, the reduction loops
/// being the window's, and a body of arith ops combining the accumulator and
/// the image element (max, min, sum pools). Vectorized over the innermost
/// output loop that reads the image contiguously (coefficient 1 and
/// innermost there: NHWC's channels, a pool over rows' columns), with the
/// window loops by 1: each output element combines its window in the same
/// order as the loops, so the result is that of the scalar loops. The
/// convolution schedule ([`Schedule::Conv`]) applies it.
fn pool_schedule(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    let (par, block) = windowed_generic(op)?;
    // SAFETY: `block` is the body of the live generic `op`, which has three operands (`windowed_generic`) and so,
    // by its verifier, three block arguments.
    let window_arg = unsafe { mlirBlockGetArgument(block, 1) };
    if !raw::uses(window_arg).is_empty() {
        return None;
    }
    let exprs = map_terms(op)?;
    let plain = |e: &[Vec<(usize, i64)>]| e.iter().all(|t| t.len() == 1 && t[0].1 == 1);
    // The window input over the reduction loops, the output over the parallel ones.
    if !plain(&exprs[1]) || !exprs[1].iter().all(|t| !par[t[0].0]) || !plain(&exprs[2]) || !exprs[2].iter().all(|t| par[t[0].0]) {
        return None;
    }
    // The loop read innermost and with coefficient 1 by the image, and
    // nowhere else with another coefficient: an output loop.
    let image = &exprs[0];
    let last = image.last()?;
    let v1 = last.iter().find(|&&(d, k)| k == 1 && par[d]).map(|&(d, _)| d)?;
    if exprs.iter().flatten().flatten().any(|&(d, k)| d == v1 && k != 1) || image[..image.len() - 1].iter().flatten().any(|&(d, _)| d == v1)
    {
        return None;
    }
    let bounds = loop_bounds(op)?;
    let e = bounds[v1];
    if e < 2 {
        return None;
    }
    let t1 = divisor(e, &[4 * lanes, 2 * lanes, lanes]).or((e <= 4 * lanes).then_some(e)).or_else(|| divisor(e, &[lanes / 2, 4, 2]))?;
    let mut tile = vec![1; par.len()];
    tile[v1] = t1;
    Some(Schedule::Conv { tile, peel: None })
}

fn schedule_of(op: MlirOperation, lanes: i64) -> Option<Schedule> {
    // An op with a zero-size operand or result has nothing to compute (its
    // loops run zero times): no schedule. Tiling a zero extent by a
    // nonzero tile makes IR the transform interpreter crashes on.
    let empty = |v: MlirValue| raw::shape(v).is_some_and(|s| s.contains(&0));
    if raw::operands(op).into_iter().chain(raw::results(op)).any(empty) {
        return None;
    }
    match raw::name(op).as_str() {
        // The plain (un-transposed, un-broadcast) forms only.
        "linalg.matmul" if maps::is_plain_matmul(op) => matmul_schedule(op, false, lanes),
        "linalg.batch_matmul" if maps::is_plain_matmul(op) => matmul_schedule(op, true, lanes),
        "linalg.generic" => packed_matmul_schedule(op)
            .or_else(|| conv_schedule(op, lanes))
            .or_else(|| pool_schedule(op, lanes))
            .or_else(|| row_reduction_schedule(op, lanes))
            .or_else(|| elementwise_schedule(op, lanes)),
        "linalg.map" => elementwise_schedule(op, lanes),
        _ => None,
    }
}

/// The row fusions of the tagged ops: an elementwise root (its value is a
/// kernel output, or a workgroup chunk of one) whose linalg producers
/// include a row reduction, all of them elementwise, fills or row
/// reductions with maps tiling handles (no contraction: a matmul keeps its
/// own schedule).
fn row_fusions(op: &OperationRef<'_, '_>) -> Vec<(MlirOperation, Vec<i64>)> {
    let scheduled = floors_ir::ir::collect_ops(op, |o| raw::attr(o.to_raw(), SCHEDULE_ATTR).is_some());
    let mut out = Vec::new();
    for root in scheduled {
        let Some(Schedule::Elementwise { tile, .. }) = Schedule::of_op(root) else { continue };
        let all_parallel = parallel_loops(root).is_some_and(|p| p.iter().all(|&x| x));
        if !all_parallel || tile.len() < 2 {
            continue;
        }
        let is_output = raw::results(root).iter().any(|&r| {
            raw::uses(r).iter().any(|(u, _)| {
                let n = raw::name(*u);
                n == "bufferization.materialize_in_destination" || n == "tensor.parallel_insert_slice"
            })
        });
        if !is_output {
            continue;
        }
        // The backward slice through linalg ops.
        let (mut slice, mut work, mut ok, mut reduces) = (Vec::<MlirOperation>::new(), vec![root], true, false);
        while let Some(o) = work.pop() {
            for v in raw::operands(o) {
                let Some(p) = raw::producer(v) else { continue };
                if !raw::name(p).starts_with("linalg.") || slice.iter().any(|q| q.ptr == p.ptr) {
                    continue;
                }
                slice.push(p);
                work.push(p);
                match raw::name(p).as_str() {
                    "linalg.fill" => {}
                    // A broadcast or constant fill (a body of only its
                    // yield): a row of it is a copy.
                    _ if raw::attr(p, SCHEDULE_ATTR).is_none() && is_all_parallel_copy(p) => {}
                    _ => match Schedule::of_op(p) {
                        Some(Schedule::RowReduction { .. }) => reduces = true,
                        Some(Schedule::Elementwise { .. }) if parallel_loops(p).is_some_and(|par| par.iter().all(|&x| x)) => {}
                        _ => ok = false,
                    },
                }
                ok &= maps::tileable(p);
            }
        }
        if ok && reduces {
            let mut t = vec![1; tile.len()];
            *t.last_mut().expect("rank >= 2") = 0;
            out.push((root, t));
        }
    }
    out
}

/// An all-parallel generic whose body is only `linalg.yield` (a broadcast,
/// a transpose, a constant fill).
fn is_all_parallel_copy(op: MlirOperation) -> bool {
    let body: Vec<String> = raw::region_blocks(op).into_iter().flat_map(raw::block_ops).map(raw::name).collect();
    raw::name(op) == "linalg.generic" && body == ["linalg.yield"] && parallel_loops(op).is_some_and(|p| p.iter().all(|&x| x))
}
