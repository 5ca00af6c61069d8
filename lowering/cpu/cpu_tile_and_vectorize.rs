//! `floors-cpu-tile-and-vectorize`: the CPU schedule of every kernel, on
//! tensors (before bufferization), written in the transform dialect.
//!
//! The pass looks at each linalg op of each kernel in the module it runs on
//! (the kernel module `@floors_kernels`), picks a schedule by what the op is,
//! tags the op (`floors.schedule = N`) and writes one transform script for the
//! whole module, which it applies with the transform interpreter
//! (`mlirTransformApplyNamedSequence`); the script is a separate module, so
//! nothing of it stays in the IR. Schedules (L = f32 lanes of the vector
//! registers of the module's `floors.target`: 16 with AVX-512, 8 with AVX2):
//!
//! - **matmul** (`linalg.matmul`, `linalg.batch_matmul`, f32, static shapes):
//!   tiled for the caches ([batch 1,] up to 64×128×128), then for the
//!   registers (MR×NR×1: 8×2L with AVX-512, 8×L otherwise), the register tile
//!   vectorized to a `vector.contract`, its accumulator hoisted out of the K
//!   loop (`loop.hoist_loop_invariant_subsets`), the contraction lowered to
//!   outer products = one broadcast-FMA per row.
//! - **direct convolution** (a `linalg.generic` with an image input indexed
//!   by window sums, a kernel and an output indexed by plain loops, a
//!   multiply-add body; any element type, static shapes): tiled to one
//!   vector of output features (depthwise: channels) × up to 8 unit-stride
//!   output columns, every other loop by 1; the unit loops folded inside the
//!   tile, so the window sums become plain indices and the tile vectorizes;
//!   the accumulator hoisted out of the window and input-feature loops.
//! - **elementwise** (all-parallel `linalg.generic`/`linalg.map` with only
//!   arith/math in the body, floats of 16–64 bits and integers of 8–64
//!   bits (not i1), static shapes): outer dimensions tiled by 1, the
//!   innermost by up to 4L (L counted in lanes of the widest element), and
//!   each tile vectorized; an innermost
//!   dim no vector width divides (1000, 8193) is tiled by 4L and the loop
//!   peeled, so the tail is one static, vectorized tile too. Producers are
//!   fused into their consumers first (`linalg-fuse-elementwise-ops` in the
//!   pipeline), so a chain reads its inputs once and writes once.
//!
//! Every other op (reductions, gathers, sorts, fills, shapes that do not
//! divide) is left alone and becomes loops in `convert-linalg-to-loops`.
//! Transfers of rank > 1 are unrolled after bufferization by
//! `convert-vector-to-scf{full-unroll=true}` (see `floors-cpu-kernels-to-llvm`).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::{
    packing::{packed_contraction, vnni_contraction, with_batch},
    target_f32_lanes,
};

use floors_linalg::maps;

/// Math functions whose vectorized form is rewritten into upstream's
/// polynomial approximations (f32; max error measured by
/// scripts/math_accuracy.py, README "Math accuracy": ≤ 2.5 ulp, tanh 4.3).
/// Not sin/cos (upstream's are off by 3·10⁶ ulp at |x| ≈ 58 and wrong below
/// 1e-37), powf as exp(y·log x) (115 ulp), atan (40 ulp) or cbrt (NaN for
/// inf): those are [`OWN_VECTOR_FORMS`].
const APPROXIMATED: &[&str] = &["exp", "expm1", "tanh", "log", "log1p", "log2", "erf"];

/// f32 vector math floors rewrites itself (ir/cxx/FloorsMathCAPI.cpp),
/// computed in f64 lanes and rounded once (≤ 0.5 ulp + ε): otherwise LLVM
/// would scalarize them into a libm call per lane. All but powf take f64
/// vectors too ("floors.<f>", the pattern picks by element type).
const OWN_VECTOR_FORMS: &[&str] = &["powf", "sin", "cos", "tan", "atan2", "cbrt"];

/// f64 vector math floors rewrites itself ("floors.<f>64"): upstream's
/// approximations are f32 only. f64 pow and remainder stay libm calls per
/// lane (f64 erf is chlo's expansion, no libm).
const OWN_F64_FORMS: &[(&str, &str)] =
    &[("exp", "exp64"), ("expm1", "expm1_64"), ("tanh", "tanh64"), ("log", "log64"), ("log1p", "log1p64")];

/// Integer math that `convert-math-to-llvm` converts on 1-D vectors only
/// (an n-D one is left and fails the final conversion): flattened.
const FLATTENED: &[&str] = &["absi", "ctlz", "cttz"];

/// Vectorized transcendental functions as polynomials (scalar ones keep
/// calling libm: otherwise LLVM scalarizes the vector ones into libm calls),
/// and scalar f32 expm1/log1p too: LLVM's lowering of those is exp(x) − 1
/// and log(1 + x), which cancel near 0 (millions of ulp); scalar f64 expm1
/// takes floors' f64 form for the same reason (scalar f64 log1p is libm's,
/// `approximate-log1p=false`). f32 vectors take
/// upstream's [`APPROXIMATED`] or floors' [`OWN_VECTOR_FORMS`], f64 vectors
/// floors' [`OWN_F64_FORMS`] and sin/cos/tan; n-D vector [`FLATTENED`] ops
/// are computed on 1-D vectors ("floors.flatten").
fn approximate_math(op: &OperationRef<'_, '_>, root: MlirOperation) -> Result<(), PassFailure> {
    let math = floors_ir::ir::collect_ops(op, |o| {
        let name = floors_ir::ir::op_name(&o);
        if unsafe { mlirOperationGetNumResults(o.to_raw()) } != 1 {
            return false;
        }
        let t = unsafe { mlirValueGetType(mlirOperationGetResult(o.to_raw(), 0)) };
        let vector = unsafe { mlirTypeIsAVector(t) };
        // f32 fmod ("floors.remf"): LLVM's frem is a libm call per lane.
        if name == "arith.remf" {
            return vector && unsafe { mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) };
        }
        let Some(f) = name.strip_prefix("math.") else { return false };
        if FLATTENED.contains(&f) {
            return vector && unsafe { mlirShapedTypeGetRank(t) } > 1;
        }
        if vector && unsafe { mlirTypeIsAF64(mlirShapedTypeGetElementType(t)) } {
            return OWN_F64_FORMS.iter().any(|(g, _)| *g == f) || OWN_VECTOR_FORMS.contains(&f);
        }
        if OWN_VECTOR_FORMS.contains(&f) {
            return vector && unsafe { mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) };
        }
        if !vector && f == "expm1" && unsafe { mlirTypeIsAF64(t) } {
            return true;
        }
        let f32_scalar = unsafe { mlirTypeIsAF32(t) };
        APPROXIMATED.contains(&f) && (vector || (f32_scalar && (f == "expm1" || f == "log1p")))
    });
    let own = OWN_VECTOR_FORMS.iter().chain(OWN_F64_FORMS.iter().map(|(_, g)| g)).map(|f| format!("floors.{f}"));
    let names = APPROXIMATED
        .iter()
        .map(|f| f.to_string())
        .chain(own)
        .chain(["floors.flatten".to_string(), "floors.remf".to_string()])
        .collect::<Vec<_>>()
        .join(",");
    if !unsafe { floors_ir::capi::floorsApproximateMathOps(math.as_ptr() as *mut _, math.len() as isize, sref(&names)) } {
        return Err(fail(root, "the polynomial approximation of vectorized math functions failed"));
    }
    Ok(())
}

/// Attribute naming the schedule of an op, while the script runs.
const TAG: &str = "floors.schedule";

#[derive(Clone, Default)]
pub struct CpuTileAndVectorize;

/// What to do with one op.
enum Schedule {
    /// `tile_using_for` by `cache`, then by `register`, vectorize the register
    /// tile; `k`: the loop tiled by K steps (the loops before it are
    /// the output's, any after it reductions inside the register tile).
    Matmul { cache: Vec<i64>, register: Vec<i64>, k: usize },
    /// `tile_using_for` by `tile` (all dims non-zero), vectorize the tile.
    /// `peel`: the innermost tile does not divide its dim; the innermost
    /// loop is peeled into full tiles and one static remainder tile, both
    /// vectorized (no scalar tail, no masks).
    Elementwise { tile: Vec<i64>, peel: bool },
    /// A reduction over the innermost dim: `tile_using_for` by `rows` (1 for
    /// every parallel dim), then `tile_reduction_using_for` by `split` (the
    /// vector width on the reduced dim): a vector of partial results is
    /// accumulated along the row and reduced once at its end.
    RowReduction { rows: Vec<i64>, split: Vec<i64> },
    /// A direct convolution: `tile_using_for` by `tile` (1 on every loop but
    /// the one or two vectorized), the unit loops folded away inside the
    /// tile (so the window sums in the input map become plain indices), the
    /// tile vectorized, its accumulator hoisted out of the window loops.
    Conv { tile: Vec<i64> },
}

impl Schedule {
    /// The schedule's name in remarks.
    fn kind(&self) -> &'static str {
        match self {
            Schedule::Matmul { .. } => "matmul",
            Schedule::Elementwise { .. } => "elementwise",
            Schedule::RowReduction { .. } => "row-reduction",
            Schedule::Conv { .. } => "convolution",
        }
    }
}

/// An elementwise root whose producers include row reductions (softmax,
/// layernorm): tiled by one row (`tile`) with every producer fused into the
/// row loop, so intermediates are one row, not whole tensors.
struct RowFusion {
    tag: usize,
    tile: Vec<i64>,
}

fn element_type(v: MlirValue) -> Option<MlirType> {
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsARankedTensor(t).then(|| mlirShapedTypeGetElementType(t))
    }
}

fn is_f32(t: MlirType) -> bool {
    unsafe { mlirTypeIsAF32(t) }
}

/// The bits of an element type the elementwise schedule vectorizes: floats
/// of 16, 32 and 64 bits, integers of 8 to 64. Not i1: a `vector<Nxi1>` in
/// memory is N bits, while a memref of i1 holds a byte per element.
fn vector_element_bits(t: MlirType) -> Option<i64> {
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
    if *last || !rest.iter().all(|&p| p) || !structured_body_ok(op) {
        return None;
    }
    // f32 accumulators; inputs f32, or f16/bf16 the body widens (a bf16
    // max accumulated in f32 by the shared lowering).
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
fn structured_body_ok(op: MlirOperation) -> bool {
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
                if !(n.starts_with("arith.") || n.starts_with("math.") || n == "linalg.yield") || mlirOperationGetNumRegions(o) != 0 {
                    return false;
                }
            }
        }
    }
    true
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
    let args = unsafe { mlirBlockGetNumArguments(block) } as usize;
    let Some(first_acc) = args.checked_sub(yielded.len()) else { return false };
    yielded.iter().enumerate().all(|(i, &v)| {
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
    if !*par.last()? || !structured_body_ok(op) {
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
    // The body: yield(add(acc, mul(..))), arith ops only.
    let block = *raw::region_blocks(op).first()?;
    let body = raw::block_ops(block);
    if !body.iter().all(|&o| {
        let n = raw::name(o);
        n.starts_with("arith.") || n == "linalg.yield"
    }) {
        return None;
    }
    let add = raw::producer(*raw::operands(*body.last()?).first()?)?;
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
    let maps = maps::maps_of(raw::attr(op, "indexing_maps")?)?;
    let mut exprs: Vec<Vec<Vec<(usize, i64)>>> = Vec::new();
    for &m in &maps {
        let n = unsafe { mlirAffineMapGetNumResults(m) };
        exprs.push((0..n).map(|r| terms(unsafe { mlirAffineMapGetResult(m, r) })).collect::<Option<Vec<_>>>()?);
    }
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
    let column = exprs[2].iter().rev().map(|t| t[0].0).find(|&d| d != v1 && in_sum(d) && unit(d));
    if let Some(d) = column {
        let budget = if lanes >= 16 { 16 } else { 8 };
        let vectors = (t1 + lanes - 1) / lanes;
        tile[d] = (1..=8).rev().find(|&c| bounds[d] % c == 0 && c * vectors <= budget).unwrap_or(1);
    }
    Some(Schedule::Conv { tile })
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
fn row_fusions(op: &OperationRef<'_, '_>, schedules: &[Schedule]) -> Vec<RowFusion> {
    let tagged = floors_ir::ir::collect_ops(op, |o| raw::attr(o.to_raw(), TAG).is_some());
    let tag_of = |o: MlirOperation| {
        raw::attr(o, TAG).filter(|&a| unsafe { mlirAttributeIsAInteger(a) }).map(|a| unsafe { mlirIntegerAttrGetValueInt(a) } as usize)
    };
    let mut out = Vec::new();
    for root in tagged {
        let Some(tag) = tag_of(root) else { continue };
        let Schedule::Elementwise { tile, .. } = &schedules[tag] else { continue };
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
                    _ if tag_of(p).is_none() && is_all_parallel_copy(p) => {}
                    _ => match tag_of(p).map(|t| &schedules[t]) {
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
            out.push(RowFusion { tag, tile: t });
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

/// Vectors of at least this many registers in an innermost loop's body
/// mean the schedule has already unrolled it (a row kernel steps through a
/// 1024-float row 64 lanes at a time).
const ROLLED_REGISTERS: i64 = 4;

/// Marks innermost `scf.for` loops whose body computes vectors of
/// [`ROLLED_REGISTERS`] registers or more with `llvm.loop.unroll.disable`
/// (`convert-scf-to-cf` moves the attribute to the latch branch). LLVM would
/// otherwise unroll them again, fully when the trip count is small: a
/// layernorm kernel became 850 lines of LLVM IR instead of 380 and its code
/// generation time doubled (the schedulers are superlinear in block size),
/// for no speed-up measurable on the bench.
fn keep_wide_loops_rolled(op: &OperationRef<'_, '_>, lanes: i64) -> Result<(), PassFailure> {
    for l in floors_ir::ir::collect_ops(op, |o| floors_ir::ir::op_name(&o) == "scf.for") {
        let body: Vec<MlirOperation> = raw::region_blocks(l).into_iter().flat_map(raw::block_ops).collect();
        fn has_loop(ops: &[MlirOperation]) -> bool {
            ops.iter().any(|&o| {
                raw::name(o) == "scf.for" || has_loop(&raw::region_blocks(o).into_iter().flat_map(raw::block_ops).collect::<Vec<_>>())
            })
        }
        let innermost = !has_loop(&body);
        let wide = body.iter().any(|&o| {
            raw::results(o).into_iter().any(|v| unsafe {
                let t = mlirValueGetType(v);
                mlirTypeIsAVector(t)
                    && (0..mlirShapedTypeGetRank(t)).map(|d| mlirShapedTypeGetDimSize(t, d as isize)).product::<i64>()
                        >= ROLLED_REGISTERS * lanes
            })
        });
        if !(innermost && wide) {
            continue;
        }
        super::keep_rolled(l)?;
    }
    Ok(())
}

fn list(v: &[i64]) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
}

fn tile_text(out: &mut String, handle: &str, result: &str, tiles: &[i64]) {
    let loops = tiles.iter().filter(|&&t| t != 0).count();
    if loops == 0 {
        // Nothing to tile (a reduction to a scalar has no parallel loop):
        // the op itself is the tile.
        out.push_str(&format!("    {result} = transform.cast {handle} : !transform.any_op to !transform.any_op\n"));
        return;
    }
    let ty = std::iter::repeat_n("!transform.any_op", loops + 1).collect::<Vec<_>>().join(", ");
    out.push_str(&format!(
        "    {result}, {result}_loops:{loops} = transform.structured.tile_using_for {handle} tile_sizes [{}] : (!transform.any_op) -> ({ty})\n",
        list(tiles)
    ));
}

/// The transform script for the tagged ops (tag i = `schedules[i]`).
/// The schedule script for the schedules numbered in `which` (tags into
/// `schedules`), after `fusions`.
fn script(schedules: &[Schedule], which: &[usize], fusions: &[RowFusion]) -> String {
    let mut s = String::from(
        "module attributes {transform.with_named_sequence} {\n  \
         transform.named_sequence @__floors_cpu_schedule(%root: !transform.any_op {transform.readonly}) {\n",
    );
    // Row fusion first: the fused clones keep their tags, so the per-op
    // schedules below apply to the one-row ops. Fusion duplicates a producer
    // per consumer (exp feeding both the sum and the division); CSE merges
    // the copies, and DCE drops the whole-tensor originals.
    for (j, f) in fusions.iter().enumerate() {
        let loops = f.tile.iter().filter(|&&t| t != 0).count();
        let ty = std::iter::repeat_n("!transform.any_op", loops + 1).collect::<Vec<_>>().join(", ");
        s.push_str(&format!(
            "    %rf{j} = transform.structured.match attributes {{{TAG} = {} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n    \
             %rft{j}, %rfl{j}:{loops} = transform.structured.fuse %rf{j} tile_sizes [{}] : (!transform.any_op) -> ({ty})\n",
            f.tag,
            list(&f.tile)
        ));
    }
    if !fusions.is_empty() {
        s.push_str(
            "    transform.apply_dce to %root : !transform.any_op\n    \
             transform.apply_cse to %root : !transform.any_op\n    \
             transform.apply_patterns to %root {\n      \
               transform.apply_patterns.tensor.fold_tensor_empty\n    \
             } : !transform.any_op\n",
        );
    }
    for &i in which {
        let sched = &schedules[i];
        s.push_str(&format!(
            "    %op{i} = transform.structured.match attributes {{{TAG} = {i} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n"
        ));
        match sched {
            Schedule::Matmul { cache, register, k } => {
                // The parallel cache tiles first, with the output's zero
                // fill fused in: each C tile is zeroed just before its K
                // loop, while it is in cache, instead of the whole output
                // in a pass of its own before (a memset through memory and
                // a read back). Then the K tiles, the register tiles, and
                // the fused fills one vector row per step.
                let (mut parallel, mut k_steps) = (cache.clone(), vec![0; cache.len()]);
                parallel[*k..].fill(0);
                k_steps[*k] = cache[*k];
                let loops = parallel.iter().filter(|&&t| t != 0).count();
                let ty = std::iter::repeat_n("!transform.any_op", loops + 1).collect::<Vec<_>>().join(", ");
                let mut fill_rows = vec![1; *k];
                if let Some(last) = fill_rows.last_mut() {
                    *last = 0;
                }
                s.push_str(&format!(
                    "    %f{i}, %f{i}_loops:{loops} = transform.structured.fuse %op{i} tile_sizes [{}] : (!transform.any_op) -> ({ty})\n",
                    list(&parallel)
                ));
                tile_text(&mut s, &format!("%f{i}"), &format!("%c{i}"), &k_steps);
                tile_text(&mut s, &format!("%c{i}"), &format!("%r{i}"), register);
                s.push_str(&format!("    transform.structured.vectorize %r{i} : !transform.any_op\n"));
                s.push_str(&format!(
                    "    %ff{i} = transform.structured.match ops{{[\"linalg.fill\"]}} in %f{i}_loops#0 : (!transform.any_op) -> !transform.any_op\n"
                ));
                tile_text(&mut s, &format!("%ff{i}"), &format!("%fr{i}"), &fill_rows);
                s.push_str(&format!("    transform.structured.vectorize %fr{i} : !transform.any_op\n"));
            }
            Schedule::Elementwise { tile, peel: false } => {
                tile_text(&mut s, &format!("%op{i}"), &format!("%t{i}"), tile);
                s.push_str(&format!("    transform.structured.vectorize %t{i} : !transform.any_op\n"));
            }
            Schedule::Elementwise { tile, peel: true } => {
                // Peeled: the main loop's tiles are static; the remainder
                // loop runs once, and canonicalizing its parent inlines it
                // with a constant index, so its tile is static too. Then
                // every op with this tag (main and remainder) is vectorized.
                tile_text(&mut s, &format!("%op{i}"), &format!("%t{i}"), tile);
                s.push_str(&format!(
                    "    %pl{i} = transform.cast %t{i}_loops#{inner} : !transform.any_op to !transform.op<\"scf.for\">\n    \
                     %pm{i}, %pr{i} = transform.loop.peel %pl{i} : (!transform.op<\"scf.for\">) -> (!transform.any_op, !transform.any_op)\n    \
                     %pp{i} = transform.get_parent_op %pr{i} : (!transform.any_op) -> !transform.any_op\n    \
                     transform.apply_patterns to %pp{i} {{\n      \
                       transform.apply_patterns.canonicalization\n    \
                     }} : !transform.any_op\n    \
                     %pv{i} = transform.structured.match attributes {{{TAG} = {i} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n    \
                     transform.structured.vectorize %pv{i} : !transform.any_op\n",
                    inner = tile.len() - 1
                ));
            }
            Schedule::Conv { tile } => {
                let n = tile.len();
                tile_text(&mut s, &format!("%op{i}"), &format!("%t{i}"), tile);
                s.push_str(&format!(
                    "    transform.apply_patterns to %t{i}_loops#{inner} {{\n      \
                       transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices\n    \
                     }} : !transform.any_op\n    \
                     %cv{i} = transform.structured.match ops{{[\"linalg.generic\"]}} in %t{i}_loops#{inner} : (!transform.any_op) -> !transform.any_op\n    \
                     transform.structured.vectorize %cv{i} : !transform.any_op\n    \
                     transform.apply_patterns to %t{i}_loops#0 {{\n      \
                       transform.apply_patterns.canonicalization\n    \
                     }} : !transform.any_op\n    \
                     %cl{i} = transform.structured.match ops{{[\"scf.for\"]}} in %t{i}_loops#0 : (!transform.any_op) -> !transform.any_op\n    \
                     transform.loop.hoist_loop_invariant_subsets %cl{i} : !transform.any_op\n",
                    inner = n - 1
                ));
            }
            Schedule::RowReduction { rows, split } => {
                tile_text(&mut s, &format!("%op{i}"), &format!("%t{i}"), rows);
                s.push_str(&format!(
                    "    %fill{i}, %part{i}, %comb{i}, %rl{i} = transform.structured.tile_reduction_using_for %t{i} by tile_sizes = [{}] \
                     : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)\n    \
                     transform.structured.vectorize %part{i} : !transform.any_op\n    \
                     transform.structured.vectorize %comb{i} : !transform.any_op\n",
                    list(split)
                ));
            }
        }
    }
    // Clean up the vector IR: multiply-add reductions → vector.contract, reads
    // with permutation maps → transposes/broadcasts (run before canonicalization,
    // which would fold the unit reduction away); tensor slices folded into the
    // transfers; then loop-invariant transfers (the matmul accumulator) become
    // loop-carried vectors; contractions → outer products → FMAs.
    s.push_str(
        "    transform.apply_patterns to %root {\n      \
           transform.apply_patterns.vector.reduction_to_contract\n      \
           transform.apply_patterns.vector.transfer_permutation_patterns\n    \
         } : !transform.any_op\n    \
         transform.apply_patterns to %root {\n      \
           transform.apply_patterns.canonicalization\n      \
           transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers\n    \
         } : !transform.any_op\n    \
         transform.apply_cse to %root : !transform.any_op\n    \
         %loops = transform.structured.match ops{[\"scf.for\"]} in %root : (!transform.any_op) -> !transform.any_op\n    \
         transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op\n    \
         transform.yield\n  }\n}\n",
    );
    s
}

/// The end of every schedule, after the bf16 contractions became
/// `vdpbf16ps` ([`vnni_dot_products`]): contractions → outer products →
/// FMAs, reductions and transposes to shuffles.
const LOWER_VECTORS: &str = "module attributes {transform.with_named_sequence} {\n  \
     transform.named_sequence @__floors_cpu_lower_vectors(%root: !transform.any_op {transform.readonly}) {\n    \
       transform.apply_patterns to %root {\n      \
         transform.apply_patterns.vector.lower_contraction lowering_strategy = \"outerproduct\"\n      \
         transform.apply_patterns.vector.lower_outerproduct\n      \
         transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = \"innerreduction\"\n      \
         transform.apply_patterns.vector.lower_transpose lowering_strategy = \"shuffle_16x16\"\n    \
       } : !transform.any_op\n    \
       transform.yield\n  }\n}\n";

/// Static shape of a vector type value (None for anything else).
fn vector_shape(v: MlirValue) -> Option<Vec<i64>> {
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsAVector(t).then(|| (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect())
    }
}

/// The bf16 vector a VNNI register tile's contraction operand `v` was read
/// as: `v` is `arith.extf` of (transposes and broadcasts of) a bf16
/// `vector.transfer_read`, as vectorizing the [`vnni_contraction`] makes it.
fn bf16_read(v: MlirValue) -> Option<MlirValue> {
    let ext = raw::producer(v).filter(|&o| raw::name(o) == "arith.extf")?;
    let mut cur = *raw::operands(ext).first()?;
    loop {
        let p = raw::producer(cur)?;
        match raw::name(p).as_str() {
            "vector.transpose" | "vector.broadcast" => cur = *raw::operands(p).first()?,
            "vector.transfer_read" => break,
            _ => return None,
        }
    }
    let bf16 = unsafe { mlirTypeIsABF16(mlirShapedTypeGetElementType(mlirValueGetType(cur))) };
    bf16.then_some(cur)
}

/// `tensor<..xE>` or `vector<..xE>` (`kind`) of `shape` as template text.
fn shaped_text(kind: &str, shape: &[i64], e: &str) -> String {
    format!("{kind}<{}x{e}>", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

/// A bf16 tensor of [.., N, 2] pairs viewed as [.., 2·N] in a template: the
/// reassociation `[0], .., [n-2, n-1]` and the flattened tensor type.
fn pairs_flattened(shape: &[i64]) -> (String, String) {
    let n = shape.len();
    let mut assoc: Vec<String> = (0..n - 2).map(|i| format!("[{i}]")).collect();
    assoc.push(format!("[{}, {}]", n - 2, n - 1));
    let mut flat = shape[..n - 2].to_vec();
    flat.push(shape[n - 2] * shape[n - 1]);
    (assoc.join(", "), shaped_text("tensor", &flat, "bf16"))
}

/// For the `n` indices `%{p}0`, .. into a tensor of [.., N, 2] pairs: the
/// template line computing `%{p}c` (the pair's offset in the flattened
/// view of [`pairs_flattened`]) and the flattened indices `%{p}0, .., %{p}c`.
fn flat_pair_index(p: &str, n: usize) -> (String, String) {
    let line = format!("%{p}c = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%{p}{}, %{p}{})", n - 2, n - 1);
    let at: Vec<String> = (0..n - 2).map(|i| format!("%{p}{i}")).chain([format!("%{p}c")]).collect();
    (line, at.join(", "))
}

/// The VNNI register tile's contraction, C[MR, NR] += A[MR, KR pairs] ·
/// B[KR pairs, NR] on bf16 read as A: vector<1x..xMRxKRx2>, B:
/// vector<1x..xKRxNRx2> and the accumulator vector<..x1xMRx1xNR>, as
/// AVX-512 BF16 code: per K pair and row, A's pair (one i32) broadcast to
/// 16 lanes and one `x86vector.avx512.dot` (`vdpbf16ps`) per 16 columns.
/// B is read again from its packed tensor `src` ([.., K/2, NR, 2]) at the
/// read's indices, viewed [.., K/2, 2·NR]: KR rows of 2·NR contiguous bf16
/// (the read of [.., KR, NR, 2] became NR loads of one pair each). The
/// function's arguments are A, B's tensor, B's indices, the accumulator.
fn vnni_tile_text(a: &[i64], src: &[i64], acc: &[i64], mr: i64, kr: i64, nr: i64) -> String {
    let vt = |shape: &[i64], e: &str| shaped_text("vector", shape, e);
    let (ta, tacc) = (vt(a, "bf16"), vt(acc, "f32"));
    let mut ai_shape = a.to_vec();
    *ai_shape.last_mut().expect("rank checked") = 1;
    let lead = a.len() - 3;
    let r = src.len();
    let idx: Vec<String> = (0..r).map(|i| format!("%i{i}: index")).collect();
    let (assoc, tsrcc) = pairs_flattened(src);
    let (index_line, read_at) = flat_pair_index("i", r);
    let mut s = format!(
        "func.func @floors_vnni_tile(%a: {ta}, %src: {tsrc}, {idx}, %acc: {tacc}) -> {tacc} {{\n  \
         %ai = vector.bitcast %a : {ta} to {tai}\n  \
         %srcc = tensor.collapse_shape %src [{assoc}] : {tsrc} into {tsrcc}\n  \
         {index_line}\n  \
         %pad = arith.constant 0.0 : bf16\n  \
         %bf = vector.transfer_read %srcc[{read_at}], %pad {{in_bounds = [true, true]}} : {tsrcc}, vector<{kr}x{w}xbf16>\n  \
         %cf = vector.shape_cast %acc : {tacc} to vector<{mr}x{nr}xf32>\n",
        tai = vt(&ai_shape, "i32"),
        tsrc = shaped_text("tensor", src, "bf16"),
        idx = idx.join(", "),
        w = 2 * nr
    );
    let chunks = nr / 16;
    let lanes = |from: i64, n: i64| (from..from + n).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
    for k in 0..kr {
        s.push_str(&format!("  %b{k} = vector.extract %bf[{k}] : vector<{w}xbf16> from vector<{kr}x{w}xbf16>\n", w = 2 * nr));
        for j in 0..chunks {
            s.push_str(&format!(
                "  %b{k}_{j} = vector.extract_strided_slice %b{k} {{offsets = [{}], sizes = [32], strides = [1]}} : vector<{w}xbf16> to vector<32xbf16>\n",
                32 * j,
                w = 2 * nr
            ));
        }
    }
    let zeros = "0, ".repeat(lead);
    for r in 0..mr {
        s.push_str(&format!("  %c{r} = vector.extract %cf[{r}] : vector<{nr}xf32> from vector<{mr}x{nr}xf32>\n"));
        for j in 0..chunks {
            s.push_str(&format!(
                "  %c{r}_{j}_0 = vector.extract_strided_slice %c{r} {{offsets = [{}], sizes = [16], strides = [1]}} : vector<{nr}xf32> to vector<16xf32>\n",
                16 * j
            ));
        }
        for k in 0..kr {
            s.push_str(&format!(
                "  %s{r}_{k} = vector.extract %ai[{zeros}{r}, {k}, 0] : i32 from {tai}\n  \
                 %sb{r}_{k} = vector.broadcast %s{r}_{k} : i32 to vector<16xi32>\n  \
                 %sv{r}_{k} = vector.bitcast %sb{r}_{k} : vector<16xi32> to vector<32xbf16>\n",
                tai = vt(&ai_shape, "i32")
            ));
            for j in 0..chunks {
                s.push_str(&format!(
                    "  %c{r}_{j}_{n} = x86vector.avx512.dot %c{r}_{j}_{k}, %sv{r}_{k}, %b{k}_{j} : vector<32xbf16> -> vector<16xf32>\n",
                    n = k + 1
                ));
            }
        }
    }
    // Rows reassembled: the 16-lane pieces concatenated by shuffles.
    s.push_str(&format!("  %o0 = arith.constant dense<0.0> : vector<{mr}x{nr}xf32>\n"));
    for r in 0..mr {
        let mut row = format!("%c{r}_0_{kr}");
        for j in 1..chunks {
            let w = 16 * j;
            s.push_str(&format!(
                "  %row{r}_{j} = vector.shuffle {row}, %c{r}_{j}_{kr} [{}] : vector<{w}xf32>, vector<16xf32>\n",
                lanes(0, w + 16)
            ));
            row = format!("%row{r}_{j}");
        }
        s.push_str(&format!("  %o{} = vector.insert {row}, %o{r} [{r}] : vector<{nr}xf32> into vector<{mr}x{nr}xf32>\n", r + 1));
    }
    s.push_str(&format!("  %res = vector.shape_cast %o{mr} : vector<{mr}x{nr}xf32> to {tacc}\n  func.return %res : {tacc}\n}}\n"));
    s
}

/// Every VNNI register tile's `vector.contract` (bf16 operands widened by
/// `extf`, see [`bf16_read`]) → `vdpbf16ps` code ([`vnni_tile_text`]);
/// the widening reads it leaves unused are erased. Runs after the
/// schedule (the accumulator is loop-carried) and before contractions are
/// lowered to FMAs.
fn vnni_dot_products(op: &OperationRef<'_, '_>) -> Result<(), PassFailure> {
    for c in floors_ir::ir::collect_ops(op, |o| floors_ir::ir::op_name(&o) == "vector.contract") {
        let ops = raw::operands(c);
        let (Some(a), Some(b)) = (ops.first().and_then(|&v| bf16_read(v)), ops.get(1).and_then(|&v| bf16_read(v))) else { continue };
        let (Some(sa), Some(sb), Some(sacc)) = (vector_shape(a), vector_shape(b), vector_shape(ops[2])) else { continue };
        // A [1.., MR, KR, 2], B [1.., KR, NR, 2], acc [.., 1, MR, 1, NR].
        let shaped = sa.len() >= 4
            && sb.len() == sa.len()
            && sacc.len() == sa.len()
            && sa[..sa.len() - 3].iter().all(|&d| d == 1)
            && sb[..sb.len() - 3].iter().all(|&d| d == 1)
            && sa[sa.len() - 1] == 2
            && sb[sb.len() - 1] == 2;
        if !shaped {
            return Err(fail(c, format!("internal error: a bf16 contraction of shapes {sa:?} x {sb:?} is not the VNNI register tile")));
        }
        let (mr, kr, nr) = (sa[sa.len() - 3], sa[sa.len() - 2], sb[sb.len() - 2]);
        let acc_ok = sacc[sacc.len() - 4..] == [1, mr, 1, nr] && sacc[..sacc.len() - 4].iter().all(|&d| d == 1);
        if sb[sb.len() - 3] != kr || nr % 16 != 0 || !acc_ok {
            return Err(fail(
                c,
                format!("internal error: a bf16 contraction of shapes {sa:?} x {sb:?} into {sacc:?} is not the VNNI register tile"),
            ));
        }
        // B's read: a minor-identity read of its whole [.., KR, NR, 2] tile
        // from a static bf16 tensor whose last two dims are [NR, 2].
        let read = raw::producer(b).expect("bf16_read returns a read");
        let read_ops = raw::operands(read);
        let src = read_ops[0];
        let src_shape = raw::shape(src).unwrap_or_default();
        let identity = raw::attr(read, "permutation_map").is_some_and(|m| unsafe {
            let m = mlirAffineMapAttrGetValue(m);
            mlirAffineMapIsMinorIdentity(m) && mlirAffineMapGetNumResults(m) as usize == sb.len()
        });
        if src_shape.len() != sb.len() || read_ops.len() != 2 + src_shape.len() || src_shape[src_shape.len() - 2..] != [nr, 2] || !identity
        {
            return Err(fail(c, format!("internal error: the VNNI tile's B is not read whole from its packed [.., {nr}, 2] tensor")));
        }
        let widened: Vec<MlirOperation> = ops[..2].iter().filter_map(|&v| raw::producer(v)).collect();
        let text = vnni_tile_text(&sa, &src_shape, &sacc, mr, kr, nr);
        let mut args = vec![a, src];
        args.extend_from_slice(&read_ops[1..1 + src_shape.len()]);
        args.push(ops[2]);
        // SAFETY: `c` is a live contract collected above, `a`, B's tensor and
        // indices and the accumulator dominate it; `c` is not used again.
        unsafe { raw::parse_and_splice(c, &text, &args, "floors-cpu-tile-and-vectorize") }
            .map_err(|text| fail(op.to_raw(), format!("internal error: the VNNI register tile does not parse:\n{text}")))?;
        // The extf ← transpose ← broadcast chains, now unused.
        for w in widened {
            erase_if_unused(w);
        }
    }
    Ok(())
}

/// Every tile of the VNNI B packing ([`vnni_pack_schedule`]) — a read of
/// B's two rows [.., 2, 1, NR], a `vector.transpose` to [.., 1, 1, NR, 2]
/// and its write — as the two rows interleaved (`vector.interleave`, one
/// shuffle per 32 lanes) and written as one run of 2·NR bf16 into Bp viewed
/// [.., K/2, 2·NR]: written as it was, the [NR, 2] tile became NR stores
/// of one pair each.
fn vnni_pack_tiles(op: &OperationRef<'_, '_>) -> Result<(), PassFailure> {
    for w in floors_ir::ir::collect_ops(op, |o| floors_ir::ir::op_name(&o) == "vector.transfer_write") {
        let wops = raw::operands(w);
        let Some(tr) = raw::producer(wops[0]).filter(|&p| raw::name(p) == "vector.transpose") else { continue };
        let Some(read) = raw::operands(tr).first().copied() else { continue };
        let bf16 = unsafe { mlirTypeIsABF16(mlirShapedTypeGetElementType(mlirValueGetType(read))) };
        let (Some(rs), Some(ws), Some(dest)) = (vector_shape(read), vector_shape(wops[0]), raw::shape(wops[1])) else { continue };
        let n = ws.len();
        if !bf16 || n < 4 || rs.len() != n || dest.len() != n || wops.len() != 2 + n {
            continue;
        }
        if let Some(text) = vnni_pack_transposed_text(tr, &rs, &ws, &dest) {
            let read_op = raw::producer(read).filter(|&r| raw::name(r) == "vector.transfer_read");
            let Some(read_op) = read_op else { continue };
            let rops = raw::operands(read_op);
            let mut args = vec![rops[0]];
            args.extend_from_slice(&rops[1..1 + n]);
            args.push(wops[1]);
            args.extend_from_slice(&wops[2..]);
            // SAFETY: `w` is a live transfer_write collected above; the
            // read's source and indices, the destination and the write's
            // indices dominate it; `w` is not used again.
            unsafe { raw::parse_and_splice(w, &text, &args, "floors-cpu-tile-and-vectorize") }
                .map_err(|text| fail(op.to_raw(), format!("internal error: the VNNI packing tile does not parse:\n{text}")))?;
            erase_if_unused(tr);
            continue;
        }
        let nr = ws[n - 2];
        let batch = n - 4;
        let mut perm: Vec<i64> = (0..batch as i64).collect();
        perm.extend([2, 0, 3, 1].map(|d| d + batch as i64));
        let ones = |s: &[i64]| s.iter().all(|&d| d == 1);
        let shaped = ws[n - 1] == 2
            && ones(&ws[..n - 2])
            && rs[n - 3..] == [2, 1, nr]
            && ones(&rs[..n - 3])
            && dest[n - 2..] == [nr, 2]
            && raw::i64_array(tr, "permutation").is_some_and(|p| p == perm);
        if !shaped {
            continue;
        }
        let (assoc, tc) = pairs_flattened(&dest);
        let (index_line, at) = flat_pair_index("i", n);
        let idx: Vec<String> = (0..n).map(|i| format!("%i{i}: index")).collect();
        let sizes: Vec<String> = dest.iter().map(|d| d.to_string()).collect();
        let text = format!(
            "func.func @floors_vnni_pack(%r: {tr}, %dest: {td}, {idx}) -> {td} {{\n  \
             %rf = vector.shape_cast %r : {tr} to vector<2x{nr}xbf16>\n  \
             %r0 = vector.extract %rf[0] : vector<{nr}xbf16> from vector<2x{nr}xbf16>\n  \
             %r1 = vector.extract %rf[1] : vector<{nr}xbf16> from vector<2x{nr}xbf16>\n  \
             %il = vector.interleave %r0, %r1 : vector<{nr}xbf16> -> vector<{w}xbf16>\n  \
             %dc = tensor.collapse_shape %dest [{assoc}] : {td} into {tc}\n  \
             {index_line}\n  \
             %wr = vector.transfer_write %il, %dc[{at}] {{in_bounds = [true]}} : vector<{w}xbf16>, {tc}\n  \
             %e = tensor.expand_shape %wr [{assoc}] output_shape [{sizes}] : {tc} into {td}\n  \
             func.return %e : {td}\n}}\n",
            tr = shaped_text("vector", &rs, "bf16"),
            td = shaped_text("tensor", &dest, "bf16"),
            idx = idx.join(", "),
            sizes = sizes.join(", "),
            w = 2 * nr
        );
        let mut args = vec![read, wops[1]];
        args.extend_from_slice(&wops[2..]);
        // SAFETY: `w` is a live transfer_write collected above; the read,
        // the destination and the indices dominate it; `w` is not used again.
        unsafe { raw::parse_and_splice(w, &text, &args, "floors-cpu-tile-and-vectorize") }
            .map_err(|text| fail(op.to_raw(), format!("internal error: the VNNI packing tile does not parse:\n{text}")))?;
        erase_if_unused(tr);
    }
    Ok(())
}

/// The packing tile from a B stored N×K (read [.., 16 columns, 16 pairs, 2],
/// transposed to [.., 16 pairs, 16 columns, 2]) as 16 rows of 32 bf16 read
/// from B viewed [.., N, K], bitcast to a 16×16 i32 matrix (one pair per
/// lane), transposed (the 16×16 shuffles), bitcast back and written as 16
/// rows of 32 bf16 into Bp viewed [.., K/2, 2·NR]. None for any other
/// transpose. Arguments: the read's source and indices, then the write's
/// destination and indices.
fn vnni_pack_transposed_text(tr: MlirOperation, rs: &[i64], ws: &[i64], dest: &[i64]) -> Option<String> {
    let n = ws.len();
    let batch = n - 4;
    let mut perm: Vec<i64> = (0..batch as i64).collect();
    perm.extend([0, 2, 1, 3].map(|d| d + batch as i64));
    let ones = |s: &[i64]| s.iter().all(|&d| d == 1);
    let read = *raw::operands(tr).first()?;
    let read_op = raw::producer(read).filter(|&r| raw::name(r) == "vector.transfer_read")?;
    let minor_identity = raw::attr(read_op, "permutation_map").is_some_and(|m| unsafe {
        let m = mlirAffineMapAttrGetValue(m);
        mlirAffineMapIsMinorIdentity(m) && mlirAffineMapGetNumResults(m) as usize == n
    });
    let src = raw::shape(raw::operands(read_op)[0])?;
    let shaped = rs[n - 3..] == [16, 16, 2]
        && ws[n - 3..] == [16, 16, 2]
        && ones(&rs[..n - 3])
        && ones(&ws[..n - 3])
        && dest[n - 1] == 2
        && src.len() == n
        && src[n - 1] == 2
        && minor_identity
        && raw::i64_array(tr, "permutation").is_some_and(|p| p == perm);
    if !shaped {
        return None;
    }
    let args = |p: &str| (0..n).map(|i| format!("%{p}{i}: index")).collect::<Vec<_>>().join(", ");
    let sizes: Vec<String> = dest.iter().map(|d| d.to_string()).collect();
    let (tsrc, tdest) = (shaped_text("tensor", &src, "bf16"), shaped_text("tensor", dest, "bf16"));
    // Source and destination have one reassociation (same rank, pairs last).
    let ((assoc, tsc), (_, tdc)) = (pairs_flattened(&src), pairs_flattened(dest));
    let ((src_index, sat), (dest_index, dat)) = (flat_pair_index("si", n), flat_pair_index("di", n));
    Some(format!(
        "func.func @floors_vnni_pack_t(%src: {tsrc}, {sargs}, %dest: {tdest}, {dargs}) -> {tdest} {{\n  \
         %sc = tensor.collapse_shape %src [{assoc}] : {tsrc} into {tsc}\n  \
         {src_index}\n  \
         %pad = arith.constant 0.0 : bf16\n  \
         %r = vector.transfer_read %sc[{sat}], %pad {{in_bounds = [true, true]}} : {tsc}, vector<16x32xbf16>\n  \
         %ri = vector.bitcast %r : vector<16x32xbf16> to vector<16x16xi32>\n  \
         %t = vector.transpose %ri, [1, 0] : vector<16x16xi32> to vector<16x16xi32>\n  \
         %tb = vector.bitcast %t : vector<16x16xi32> to vector<16x32xbf16>\n  \
         %dc = tensor.collapse_shape %dest [{assoc}] : {tdest} into {tdc}\n  \
         {dest_index}\n  \
         %w = vector.transfer_write %tb, %dc[{dat}] {{in_bounds = [true, true]}} : vector<16x32xbf16>, {tdc}\n  \
         %e = tensor.expand_shape %w [{assoc}] output_shape [{sizes}] : {tdc} into {tdest}\n  \
         func.return %e : {tdest}\n}}\n",
        sargs = args("si"),
        dargs = args("di"),
        sizes = sizes.join(", ")
    ))
}

/// Erases `o` when none of its results is used, then its producers likewise.
fn erase_if_unused(o: MlirOperation) {
    if !raw::results(o).iter().all(|&v| raw::uses(v).is_empty()) {
        return;
    }
    let producers: Vec<MlirOperation> = raw::operands(o).into_iter().filter_map(raw::producer).collect();
    unsafe { mlirOperationDestroy(o) };
    for p in producers {
        erase_if_unused(p);
    }
}

/// Applies the schedules; one the transform interpreter cannot apply (the
/// vectorizer refuses an op, a tiling does not fit) is not an error: the
/// function goes back to what it was, and the schedules are tried again
/// without the row fusions, then one at a time. An op whose schedule still
/// fails keeps its linalg form, which `convert-linalg-to-loops` makes
/// correct scalar loops, and a remark at the op says so.
fn apply_schedules(op: &OperationRef<'_, '_>, schedules: &[Schedule], fusions: &[RowFusion]) -> Result<(), PassFailure> {
    let root = op.to_raw();
    let all: Vec<usize> = (0..schedules.len()).collect();
    let Err(first) = attempt(root, &script(schedules, &all, fusions))? else {
        return Ok(());
    };
    if !fusions.is_empty() && attempt(root, &script(schedules, &all, &[]))?.is_ok() {
        remark(root, &format!("the row-fused schedule does not apply ({first}); the rows are computed op by op"));
        return Ok(());
    }
    for i in all {
        if let Err(why) = attempt(root, &script(schedules, &[i], &[]))? {
            // The op is back (the snapshot's copy), found by its tag.
            let tagged =
                floors_ir::ir::collect_ops(op, |o| raw::int_attr(o.to_raw(), TAG) == Some(i as i64)).first().copied().unwrap_or(root);
            remark(
                tagged,
                &format!("the {} schedule does not apply here ({why}); this op is computed by scalar loops", schedules[i].kind()),
            );
            unsafe { mlirOperationRemoveAttributeByName(tagged, sref(TAG)) };
        }
    }
    Ok(())
}

/// Applies one script to `root`: Ok(Ok) when it applied; Ok(Err(why)) when
/// the interpreter failed, with `root` restored and its diagnostics (the
/// first, as `why`) kept out of the compile's; Err when the script does not
/// parse (a bug of this pass).
fn attempt(root: MlirOperation, text: &str) -> Result<Result<(), String>, PassFailure> {
    // SAFETY: `root` is the live op the pass runs on; callers re-collect
    // every handle into it after an attempt.
    let snapshot = unsafe { raw::Snapshot::of(root) };
    let ctx = unsafe { mlirOperationGetContext(root) };
    let (result, diagnostics) =
        raw::with_quiet_diagnostics(ctx, || unsafe { raw::apply_transform_script(root, text, "floors-cpu-tile-and-vectorize") });
    match result {
        Ok(()) => Ok(Ok(())),
        Err(Some(text)) => Err(fail(root, format!("internal error: the schedule does not parse:\n{text}"))),
        Err(None) => {
            // SAFETY: the snapshot is a copy of `root`.
            unsafe { snapshot.restore(root) };
            let why = diagnostics.into_iter().next().unwrap_or_else(|| "the transform interpreter failed".into());
            Ok(Err(why))
        }
    }
}

/// A remark at `op`'s location (what `-v` and mlir-opt print).
fn remark(op: MlirOperation, message: &str) {
    // SAFETY: `op` is live; the message is copied by MLIR.
    unsafe { floors_ir::capi::floorsEmitRemark(mlirOperationGetLocation(op), sref(message)) };
}

impl FloorsPass for CpuTileAndVectorize {
    const ARGUMENT: &'static str = "floors-cpu-tile-and-vectorize";
    const NAME: &'static str = "FloorsCpuTileAndVectorize";
    const DESCRIPTION: &'static str = "Tile matmuls for caches and registers and vectorize them to FMAs (bf16 VNNI tiles to vdpbf16ps); vectorize \
         elementwise ops, reductions, transposes and convolutions (transform dialect, on tensors)";
    // One function at a time: the schedule's matches then walk one kernel,
    // not the whole module once per kernel (quadratic in kernels).
    const ANCHOR: &'static str = "func.func";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        unsafe {
            vec![
                DialectHandle::from_raw(mlirGetDialectHandle__transform__()),
                DialectHandle::from_raw(mlirGetDialectHandle__vector__()),
                DialectHandle::from_raw(mlirGetDialectHandle__scf__()),
                DialectHandle::from_raw(mlirGetDialectHandle__tensor__()),
                DialectHandle::from_raw(mlirGetDialectHandle__affine__()),
                DialectHandle::from_raw(mlirGetDialectHandle__ub__()),
                DialectHandle::from_raw(mlirGetDialectHandle__linalg__()),
                DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__x86vector__()),
                DialectHandle::arith(),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let lanes = target_f32_lanes(op.to_raw())?;
        let candidates = floors_ir::ir::collect_ops(&op, |o| floors_ir::ir::op_name(&o).starts_with("linalg."));
        let mut schedules = Vec::new();
        for o in candidates {
            if let Some(s) = schedule_of(o, lanes) {
                unsafe {
                    let ctx = mlirOperationGetContext(o);
                    let attr = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), schedules.len() as i64);
                    mlirOperationSetAttributeByName(o, sref(TAG), attr);
                }
                schedules.push(s);
            }
        }
        if schedules.is_empty() {
            return approximate_math(&op, root);
        }
        let fusions = row_fusions(&op, &schedules);
        apply_schedules(&op, &schedules, &fusions)?;
        vnni_pack_tiles(&op)?;
        vnni_dot_products(&op)?;
        // SAFETY: as above.
        match unsafe { raw::apply_transform_script(root, LOWER_VECTORS, "floors-cpu-tile-and-vectorize") } {
            Ok(()) => {}
            Err(Some(text)) => return Err(fail(root, format!("internal error: the vector lowering does not parse:\n{text}"))),
            Err(None) => return Err(fail(root, "lowering the vectors failed (see the diagnostics above)")),
        }
        approximate_math(&op, root)?;
        keep_wide_loops_rolled(&op, lanes)?;
        // Tags left on ops the schedule did not consume (none, normally).
        for o in floors_ir::ir::collect_ops(&op, |o| raw::attr(o.to_raw(), TAG).is_some()) {
            unsafe { mlirOperationRemoveAttributeByName(o, sref(TAG)) };
        }
        Ok(())
    }
}
