//! `floors-cpu-tile-and-vectorize`: the CPU schedule of every kernel, on
//! tensors (before bufferization), written in the transform dialect.
//!
//! The pass applies the schedule `floors-cpu-select-schedule` wrote on each
//! linalg op (`floors.cpu_schedule`, `schedule.rs`): it numbers the
//! scheduled ops (`floors.schedule = N`, while the script runs) and writes
//! one transform script for the function, which it applies with the
//! transform interpreter (`mlirTransformApplyNamedSequence`); the script is
//! a separate module, so nothing of it stays in the IR. What each schedule
//! does:
//!
//! - **matmul**: tiled by the cache tile, then the register tile, the
//!   register tile vectorized to a `vector.contract`, its accumulator
//!   hoisted out of the K loop (`loop.hoist_loop_invariant_subsets`), the
//!   contraction lowered to outer products = one broadcast-FMA per row (the
//!   VNNI bf16 tiles to `vdpbf16ps`).
//! - **direct convolution**: tiled, the unit loops folded inside the tile so
//!   the window sums become plain indices and the tile vectorizes; the
//!   accumulator hoisted out of the window and input-feature loops.
//! - **row reduction**: tiled by rows, then `tile_reduction_using_for` by the
//!   split: a vector of partial results reduced once at the row's end.
//! - **elementwise**: tiled and each tile vectorized; a peeled innermost
//!   loop gives full tiles and one static, vectorized remainder tile.
//! - **row fusion**: the root tiled by rows with its producers fused into
//!   the row loop, so intermediates are one row, not whole tensors.
//!
//! A schedule that does not fit its op (a size per loop) is a located
//! error. A schedule the interpreter cannot apply is undone: the function
//! goes back to what it was, the schedules are retried without row fusion,
//! then one at a time; an op whose schedule still fails keeps its linalg
//! form (scalar loops in `convert-linalg-to-loops`) with a remark. Ops with
//! no schedule become loops too. Transfers of rank > 1 are unrolled after
//! bufferization by `convert-vector-to-scf{full-unroll=true}` (see
//! `floors-cpu-kernels-to-llvm`).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::{
    schedule::{RowFusion, SCHEDULE_ATTR, Schedule},
    target_f32_lanes,
};

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
        // SAFETY: `o` is a live op of the function (the walk's current op).
        if unsafe { mlirOperationGetNumResults(o.to_raw()) } != 1 {
            return false;
        }
        // SAFETY: as above; result 0 exists (exactly one, checked above).
        let t = unsafe { mlirValueGetType(mlirOperationGetResult(o.to_raw(), 0)) };
        // SAFETY: `t` is that result's live type.
        let vector = unsafe { mlirTypeIsAVector(t) };
        // f32 fmod ("floors.remf"): LLVM's frem is a libm call per lane.
        if name == "arith.remf" {
            // SAFETY: `t` is a vector (checked first), so a shaped type.
            return vector && unsafe { mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) };
        }
        let Some(f) = name.strip_prefix("math.") else { return false };
        if FLATTENED.contains(&f) {
            // SAFETY: `t` is a vector (checked first), so a shaped type.
            return vector && unsafe { mlirShapedTypeGetRank(t) } > 1;
        }
        // SAFETY: `t` is a vector (checked first), so a shaped type.
        if vector && unsafe { mlirTypeIsAF64(mlirShapedTypeGetElementType(t)) } {
            return OWN_F64_FORMS.iter().any(|(g, _)| *g == f) || OWN_VECTOR_FORMS.contains(&f);
        }
        if OWN_VECTOR_FORMS.contains(&f) {
            // SAFETY: `t` is a vector (checked first), so a shaped type.
            return vector && unsafe { mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) };
        }
        // SAFETY: `t` is a live type.
        if !vector && f == "expm1" && unsafe { mlirTypeIsAF64(t) } {
            return true;
        }
        // SAFETY: `t` is a live type.
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
    // SAFETY: `math` holds live ops of the function, just collected, passed with their count (the
    // shim only reads the array); `names` outlives the call.
    if !unsafe { floors_ir::capi::floorsApproximateMathOps(math.as_ptr() as *mut _, math.len() as isize, sref(&names)) } {
        return Err(fail(root, "the polynomial approximation of vectorized math functions failed"));
    }
    Ok(())
}

/// Attribute naming the schedule of an op, while the script runs.
const TAG: &str = "floors.schedule";

#[derive(Clone, Default)]
pub struct CpuTileAndVectorize;

/// The schedules written on the function's ops, numbered in walk order
/// (each op tagged `floors.schedule = N` for the script), and the row
/// fusions among them. A schedule that does not give one size per loop of
/// its op is a located error.
fn read_schedules(op: &OperationRef<'_, '_>) -> Result<(Vec<Schedule>, Vec<RowFusion>), PassFailure> {
    let mut schedules = Vec::new();
    let mut fusions = Vec::new();
    let scheduled = floors_ir::ir::collect_ops(op, |o| raw::attr(o.to_raw(), SCHEDULE_ATTR).is_some());
    for (o, attr) in scheduled.into_iter().filter_map(|o| Some((o, raw::attr(o, SCHEDULE_ATTR)?))) {
        let (s, rows) = Schedule::of_attribute(attr).ok_or_else(|| fail(o, format!("{SCHEDULE_ATTR} is not a #floors.cpu_schedule")))?;
        if let Some(loops) = floors_linalg::maps::num_loops(o)
            && s.loops() != loops
        {
            return Err(fail(o, format!("{SCHEDULE_ATTR} gives {} loop sizes; this op has {loops} loops", s.loops())));
        }
        let tag = schedules.len();
        // SAFETY: `o` is a live op just collected from the function; the integer
        // attribute and its type belong to the op's context.
        unsafe {
            let ctx = mlirOperationGetContext(o);
            mlirOperationSetAttributeByName(o, sref(TAG), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), tag as i64));
        }
        if !rows.is_empty() {
            fusions.push(RowFusion { tag, tile: rows });
        }
        schedules.push(s);
    }
    Ok((schedules, fusions))
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
            // SAFETY: `v` is a result of a live op of the loop body; rank and dims are read only
            // after `mlirTypeIsAVector`.
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

/// Peels tile loop `p` of the op tagged `i` (`%t{i}_loops#p`) into its full
/// tiles and one remainder, and canonicalizes their parent, which inlines
/// the remainder (it runs once) with a constant index, so its tile is static
/// too. Returns the parent's handle, which holds both.
fn peel_text(s: &mut String, i: usize, p: usize) -> String {
    s.push_str(&format!(
        "    %pl{i} = transform.cast %t{i}_loops#{p} : !transform.any_op to !transform.op<\"scf.for\">\n    \
         %pm{i}, %pr{i} = transform.loop.peel %pl{i} : (!transform.op<\"scf.for\">) -> (!transform.any_op, !transform.any_op)\n    \
         %pp{i} = transform.get_parent_op %pr{i} : (!transform.any_op) -> !transform.any_op\n    \
         transform.apply_patterns to %pp{i} {{\n      \
           transform.apply_patterns.canonicalization\n    \
         }} : !transform.any_op\n"
    ));
    format!("%pp{i}")
}

/// The convolution schedule ([`Schedule::Conv`]) of the op tagged `i`.
fn conv_text(s: &mut String, i: usize, tile: &[i64], peel: Option<usize>) {
    tile_text(s, &format!("%op{i}"), &format!("%t{i}"), tile);
    // The tiles' loop nest: the innermost loop, or, peeled, the
    // peeled loop's parent, holding the full tiles' loop and the
    // remainder, inlined by canonicalization with a constant
    // index (so its tile is static too).
    let body = match peel {
        None => format!("%t{i}_loops#{}", tile.len() - 1),
        Some(p) => peel_text(s, i, p),
    };
    s.push_str(&format!(
        "    transform.apply_patterns to {body} {{\n      \
           transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices\n    \
         }} : !transform.any_op\n    \
         %cv{i} = transform.structured.match ops{{[\"linalg.generic\"]}} in {body} : (!transform.any_op) -> !transform.any_op\n    \
         transform.structured.vectorize %cv{i} : !transform.any_op\n    \
         transform.apply_patterns to %t{i}_loops#0 {{\n      \
           transform.apply_patterns.canonicalization\n    \
         }} : !transform.any_op\n    \
         %cl{i} = transform.structured.match ops{{[\"scf.for\"]}} in %t{i}_loops#0 : (!transform.any_op) -> !transform.any_op\n    \
         transform.loop.hoist_loop_invariant_subsets %cl{i} : !transform.any_op\n"
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
                s.push_str(&format!("    transform.structured.vectorize %t{i} {{vectorize_nd_extract}} : !transform.any_op\n"));
            }
            Schedule::Elementwise { tile, peel: true } => {
                // Peeled: the main loop's tiles are static; the remainder
                // loop runs once, and canonicalizing its parent inlines it
                // with a constant index, so its tile is static too. Then
                // every op with this tag (main and remainder) is vectorized.
                tile_text(&mut s, &format!("%op{i}"), &format!("%t{i}"), tile);
                peel_text(&mut s, i, tile.len() - 1);
                s.push_str(&format!(
                    "    %pv{i} = transform.structured.match attributes {{{TAG} = {i} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n    \
                     transform.structured.vectorize %pv{i} {{vectorize_nd_extract}} : !transform.any_op\n"
                ));
            }
            Schedule::Conv { tile, peel } => conv_text(&mut s, i, tile, *peel),
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
    // SAFETY: `v` is a live value (an operand of a live contract or transfer); rank and dims are
    // read only after `mlirTypeIsAVector`.
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
    // SAFETY: `cur` is the result of a live `vector.transfer_read` (the loop stopped there), a
    // vector, so a shaped type.
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
        // Another bf16 contraction (a direct convolution's register tile of
        // columns × features) stays a contraction of the widened operands,
        // lowered to f32 FMAs like any other.
        if !shaped {
            continue;
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
        // SAFETY: `m` is the `permutation_map` of a live `vector.transfer_read`, an AffineMapAttr
        // by the op's definition.
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
        // SAFETY: `read` is the operand of a live `vector.transpose`, a vector by the op's
        // definition, so a shaped type.
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
    // SAFETY: `m` is the `permutation_map` of a live `vector.transfer_read`, an AffineMapAttr by
    // the op's definition.
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
    // The dead ops, found up the operands: an op is dead once every use of
    // its results is by a dead op, so it is listed after all its users and
    // once only (an op that feeds two operands, or a producer and that
    // producer's producer, is not visited twice).
    let mut dead: Vec<MlirOperation> = Vec::new();
    let mut work = vec![o];
    while let Some(x) = work.pop() {
        let is_dead = |u: MlirOperation| dead.iter().any(|d| d.ptr == u.ptr);
        if is_dead(x) || !raw::results(x).iter().all(|&v| raw::uses(v).iter().all(|(u, _)| is_dead(*u))) {
            continue;
        }
        dead.push(x);
        work.extend(raw::operands(x).into_iter().filter_map(raw::producer));
    }
    for d in dead {
        // SAFETY: `d` is live (each op is listed once, and destroyed once,
        // here); every user of its results was listed and destroyed before
        // it, so no operand is left dangling.
        unsafe { mlirOperationDestroy(d) };
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
            // SAFETY: `tagged` is a live op just collected by its tag, or `root`.
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
    // SAFETY: `root` is the live op the pass runs on.
    let ctx = unsafe { mlirOperationGetContext(root) };
    let (result, diagnostics) =
        // SAFETY: `root` is live; the callers re-collect every handle into it after an attempt.
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
        // SAFETY: each getter takes nothing and returns the static handle of a dialect linked into
        // this binary (x86vector's through floors' C API).
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
        let (schedules, fusions) = read_schedules(&op)?;

        apply_schedules(&op, &schedules, &fusions)?;
        vnni_pack_tiles(&op)?;
        vnni_dot_products(&op)?;
        // SAFETY: `root` is the live function the pass runs on; no handle into it
        // taken before is used after (the loop below collects afresh).
        match unsafe { raw::apply_transform_script(root, LOWER_VECTORS, "floors-cpu-tile-and-vectorize") } {
            Ok(()) => {}
            Err(Some(text)) => return Err(fail(root, format!("internal error: the vector lowering does not parse:\n{text}"))),
            Err(None) => return Err(fail(root, "lowering the vectors failed (see the diagnostics above)")),
        }
        approximate_math(&op, root)?;
        keep_wide_loops_rolled(&op, lanes)?;
        // Tags and schedules left on ops the script did not consume (ops
        // that fell back to loops).
        for o in floors_ir::ir::collect_ops(&op, |o| raw::attr(o.to_raw(), TAG).is_some() || raw::attr(o.to_raw(), SCHEDULE_ATTR).is_some())
        {
            // SAFETY: `o` is a live op of the function this pass runs on.
            unsafe {
                mlirOperationRemoveAttributeByName(o, sref(TAG));
                mlirOperationRemoveAttributeByName(o, sref(SCHEDULE_ATTR));
            }
        }
        Ok(())
    }
}
