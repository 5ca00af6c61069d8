//! `floors-cpu-pack-matmul`: data tiling for matmuls, the way IREE's CPU
//! backend packs operands for its mmt4d kernels.
//!
//! A row-major `linalg.matmul` read in MR×NR register tiles walks B with a
//! stride of one row (N×4 bytes) per K step, so every step of the innermost
//! loop touches a new cache line and, for power-of-two N, the same L1 set.
//! This pass rewrites each static f32 `linalg.matmul` / `linalg.batch_matmul`
//! (plain maps; M and N not multiples of MR and NR are zero-padded up to
//! them, and the M×N corner of the padded C kept) into
//!
//! ```text
//! A[M,K]   viewed as Ae[M/MR, MR, K] (expand_shape, not copied)
//! B[K,N]   → Bp[N/NR, K, NR]        (linalg.generic copy)
//! C[M,N] viewed as Ce[M/MR, MR, N/NR, NR] (expand_shape; a fill of that shape when C0 is a fill)
//! Ce += Ae·Bp  as  linalg.generic (m1, n1, m0, n0, k) -> (m1,m0,k), (n1,k,n0), (m1,m0,n1,n0)
//! C[M,N]   = collapse_shape Ce
//! ```
//!
//! (with a leading batch dimension for `batch_matmul`), so the register tile
//! reads NR contiguous floats of B per K step and broadcasts MR floats of A,
//! one from each of MR rows. A is not packed: its MR row streams are what
//! the broadcasts read either way, and packing it (a transposing copy, in
//! every workgroup of a column-split kernel) measured slower: 1024³ on 2
//! threads 13.1–14.3 ms packed against 12.1–13.0 ms unpacked, mlp 8.2–10.0
//! against 7.3–9.4 ms.
//! `floors-cpu-tile-and-vectorize` recognises the packed contraction by its
//! maps and schedules it; the copies are elementwise ops it vectorizes. MR×NR
//! is the register tile of [`register_tile`]; the layout is declared in
//! [`crate::lowering::cpu::packing`], so both passes agree on it.
//!
//! f16/bf16 dots (the shared lowering's f32-accumulating contraction
//! generic) are first widened into `extf` copies and an f32 matmul, so they
//! take this path (or the unpacked matmul schedule) too.
//!
//! First, every `linalg.conv_2d_nhwc_hwcf` is generalized into the direct
//! convolution `linalg.generic` (multiply-adds marked `contract`) that
//! `floors-cpu-tile-and-vectorize` vectorizes (an im2col + packed matmul
//! form measured slower on every shape tried: it copies every window).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use crate::{
    ir::raw::{self, sref},
    lowering::{
        cpu::{
            packing::{PACKED_LOOPS, PACKED_MAPS, register_tile, with_batch},
            target_f32_lanes,
        },
        linalg::{destination::write_reshapes_into_destination, maps},
    },
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

#[derive(Clone, Default)]
pub struct CpuPackMatmul;

/// Below this many multiply-adds the copies cost more than they save.
const MIN_MACS: i64 = 1 << 18;

/// What one matmul looks like: optional batch, M, N, K.
struct Problem {
    batch: Option<i64>,
    m: i64,
    n: i64,
    k: i64,
}

fn is_f32(v: MlirValue) -> bool {
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsARankedTensor(t) && mlirTypeIsAF32(mlirShapedTypeGetElementType(t))
    }
}

fn problem(op: MlirOperation) -> Option<Problem> {
    let batch = match raw::name(op).as_str() {
        "linalg.matmul" => false,
        "linalg.batch_matmul" => true,
        _ => return None,
    };
    if !maps::is_plain_matmul(op) {
        return None;
    }
    let ops = raw::operands(op);
    if ops.len() != 3 || raw::results(op).len() != 1 || !ops.iter().all(|&v| is_f32(v)) {
        return None;
    }
    let (a, b) = (raw::shape(ops[0])?, raw::shape(ops[1])?);
    let p =
        if batch { Problem { batch: Some(a[0]), m: a[1], k: a[2], n: b[2] } } else { Problem { batch: None, m: a[0], k: a[1], n: b[1] } };
    let ok = p.m > 0 && p.n > 0 && p.k > 0 && p.m * p.n * p.k >= MIN_MACS;
    ok.then_some(p)
}

/// `tensor<AxBx..xf32>` with the batch dimension in front when there is one.
fn ty(batch: Option<i64>, dims: &[i64]) -> String {
    let all: Vec<String> = batch.iter().chain(dims).map(|d| d.to_string()).collect();
    format!("tensor<{}xf32>", all.join("x"))
}

/// The indexing maps of the packed contraction ([`PACKED_MAPS`]) as template text.
fn packed_maps(batch: bool) -> String {
    let maps: Vec<String> = PACKED_MAPS.iter().map(|r| map(batch, PACKED_LOOPS, r)).collect();
    format!("[{}]", maps.join(", "))
}

/// An affine map over `n` dims (plus the batch dim `b` in front) with `results`.
fn map(batch: bool, n: usize, results: &[usize]) -> String {
    let dims: Vec<String> = (0..n + batch as usize).map(|i| format!("d{i}")).collect();
    let res: Vec<String> = with_batch(batch, results).iter().map(|r| format!("d{r}")).collect();
    format!("affine_map<({}) -> ({})>", dims.join(", "), res.join(", "))
}

fn iterators(batch: bool, kinds: &[&str]) -> String {
    let all: Vec<String> = batch.then_some("parallel").into_iter().chain(kinds.iter().copied()).map(|k| format!("\"{k}\"")).collect();
    format!("[{}]", all.join(", "))
}

/// Reassociation of `groups` (lists of dims, after the batch dim).
fn reassoc(batch: bool, groups: &[&[usize]]) -> String {
    let off = batch as usize;
    let mut all: Vec<String> = Vec::new();
    if batch {
        all.push("[0]".into());
    }
    for g in groups {
        let d: Vec<String> = g.iter().map(|x| (x + off).to_string()).collect();
        all.push(format!("[{}]", d.join(", ")));
    }
    format!("[{}]", all.join(", "))
}

fn output_shape(batch: Option<i64>, dims: &[i64]) -> String {
    let all: Vec<String> = batch.iter().chain(dims).map(|d| d.to_string()).collect();
    format!("[{}]", all.join(", "))
}

/// A copy `out = in` as a linalg.generic whose input map is `in_map`.
fn copy(res: &str, input: &str, in_ty: &str, out_ty: &str, in_map: &str, id_map: &str, iters: &str) -> String {
    format!(
        "  %{res}_init = tensor.empty() : {out_ty}\n  \
         %{res} = linalg.generic {{indexing_maps = [{in_map}, {id_map}], iterator_types = {iters}}} ins({input} : {in_ty}) outs(%{res}_init : {out_ty}) {{\n  \
         ^bb0(%x: f32, %y: f32):\n    linalg.yield %x : f32\n  }} -> {out_ty}\n"
    )
}

/// The packed matmul as a function whose arguments are A, B, C0 (when C0 is
/// a fill: the fill's init, then the fill value).
fn template(p: &Problem, mr: i64, nr: i64, fill: bool) -> String {
    let (bt, b) = (p.batch, p.batch.is_some());
    // M and N rounded up to the register tile: edge tiles compute on zero
    // padding (A's extra rows, B's extra columns), and only the M×N corner
    // of the padded C is kept, so every tile is a full vector tile.
    let (mp, np) = ((p.m + mr - 1) / mr * mr, (p.n + nr - 1) / nr * nr);
    let (m1, n1) = (mp / mr, np / nr);
    let (ta, tb, tc) = (ty(bt, &[p.m, p.k]), ty(bt, &[p.k, p.n]), ty(bt, &[p.m, p.n]));
    let mut s =
        format!("func.func @floors_pack_matmul(%a: {ta}, %b: {tb}, %c: {tc}{}) -> {tc} {{\n", if fill { ", %fill: f32" } else { "" });
    let par3 = iterators(b, &["parallel"; 3]);
    let id3 = map(b, 3, &[0, 1, 2]);
    let (a, bv, c) = (pad(&mut s, bt, "a", [p.m, p.k], [mp, p.k]), pad(&mut s, bt, "b", [p.k, p.n], [p.k, np]), "%c".to_string());
    let c = if fill { c } else { pad(&mut s, bt, "c", [p.m, p.n], [mp, np]) };
    let (ta, tb, tcp) = (ty(bt, &[mp, p.k]), ty(bt, &[p.k, np]), ty(bt, &[mp, np]));
    // A[M,K] viewed as [M1,MR,K].
    let tae = ty(bt, &[m1, mr, p.k]);
    s.push_str(&format!(
        "  %ae = tensor.expand_shape {a} {} output_shape {} : {ta} into {tae}\n",
        reassoc(b, &[&[0, 1], &[2]]),
        output_shape(bt, &[m1, mr, p.k])
    ));
    // B[K,N] → [K,N1,NR] → Bp[N1,K,NR]
    let tbe = ty(bt, &[p.k, n1, nr]);
    s.push_str(&format!(
        "  %be = tensor.expand_shape {bv} {} output_shape {} : {tb} into {tbe}\n",
        reassoc(b, &[&[0], &[1, 2]]),
        output_shape(bt, &[p.k, n1, nr])
    ));
    let tbp = ty(bt, &[n1, p.k, nr]);
    s.push_str(&copy("bp", "%be", &tbe, &tbp, &map(b, 3, &[1, 0, 2]), &id3, &par3));
    // C is not packed: the contraction accumulates into C viewed as
    // [M1,MR,N1,NR] (a free reshape), so no unpack copy is needed; the
    // register tile reads and writes it once per K loop.
    let tce = ty(bt, &[m1, mr, n1, nr]);
    if fill && (mp, np) == (p.m, p.n) {
        // Filled in C's own destination (`%c` is the fill's init): in a
        // workgroup chunk that is a slice of the kernel's output, which the
        // chunk's result is inserted back into, so bufferization writes the
        // output in place instead of a temporary and a copy.
        s.push_str(&format!(
            "  %cp_init = tensor.expand_shape %c {} output_shape {} : {tc} into {tce}\n  \
             %cp = linalg.fill ins(%fill : f32) outs(%cp_init : {tce}) -> {tce}\n",
            reassoc(b, &[&[0, 1], &[2, 3]]),
            output_shape(bt, &[m1, mr, n1, nr])
        ));
    } else if fill {
        s.push_str(&format!("  %cp_init = tensor.empty() : {tce}\n  %cp = linalg.fill ins(%fill : f32) outs(%cp_init : {tce}) -> {tce}\n"));
    } else {
        s.push_str(&format!(
            "  %cp = tensor.expand_shape {c} {} output_shape {} : {tcp} into {tce}\n",
            reassoc(b, &[&[0, 1], &[2, 3]]),
            output_shape(bt, &[m1, mr, n1, nr])
        ));
    }
    // The packed contraction over (m1, n1, m0, n0, k).
    s.push_str(&format!(
        "  %mm = linalg.generic {{indexing_maps = {}, iterator_types = {}}} ins(%ae, %bp : {tae}, {tbp}) outs(%cp : {tce}) {{\n  \
         ^bb0(%x: f32, %y: f32, %z: f32):\n    %p = arith.mulf %x, %y : f32\n    %q = arith.addf %z, %p : f32\n    linalg.yield %q : f32\n  }} -> {tce}\n",
        packed_maps(b),
        iterators(b, &["parallel", "parallel", "parallel", "parallel", "reduction"]),
    ));
    if (mp, np) == (p.m, p.n) {
        s.push_str(&format!("  %r = tensor.collapse_shape %mm {} : {tce} into {tc}\n", reassoc(b, &[&[0, 1], &[2, 3]])));
    } else {
        s.push_str(&format!("  %rp = tensor.collapse_shape %mm {} : {tce} into {tcp}\n", reassoc(b, &[&[0, 1], &[2, 3]])));
        let list = |v: &[i64]| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
        let (zeros, sizes, ones) = (vec![0; 2 + b as usize], with_batch_sizes(bt, &[p.m, p.n]), vec![1; 2 + b as usize]);
        s.push_str(&format!("  %r = tensor.extract_slice %rp{}{}{} : {tcp} to {tc}\n", list(&zeros), list(&sizes), list(&ones)));
    }
    s.push_str(&format!("  func.return %r : {tc}\n}}\n"));
    s
}

/// The sizes `dims` with the batch size in front when there is one.
fn with_batch_sizes(batch: Option<i64>, dims: &[i64]) -> Vec<i64> {
    batch.iter().chain(dims).copied().collect()
}

/// `%name` zero-padded at the high end from `from` to `to` (the last two
/// dims; the batch dim is never padded) as template text appended to `s`;
/// the value to use (`%name` itself when nothing is padded).
fn pad(s: &mut String, batch: Option<i64>, name: &str, from: [i64; 2], to: [i64; 2]) -> String {
    if from == to {
        return format!("%{name}");
    }
    let b = batch.is_some();
    let list = |v: Vec<i64>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let low = list(vec![0; 2 + b as usize]);
    let high = list(batch.map(|_| 0).into_iter().chain([to[0] - from[0], to[1] - from[1]]).collect());
    let idx = (0..2 + b as usize).map(|i| format!("%i{i}: index")).collect::<Vec<_>>().join(", ");
    s.push_str(&format!(
        "  %{name}_zero = arith.constant 0.0 : f32\n  \
         %{name}_pad = tensor.pad %{name} low[{low}] high[{high}] {{\n  ^bb0({idx}):\n    tensor.yield %{name}_zero : f32\n  }} : {} to {}\n",
        ty(batch, &from),
        ty(batch, &to)
    ));
    format!("%{name}_pad")
}

/// The init and the scalar of the f32 `linalg.fill` producing `v`, if `v` is
/// such a fill.
fn fill_of(v: MlirValue) -> Option<(MlirValue, MlirValue)> {
    let p = raw::producer(v)?;
    if raw::name(p) != "linalg.fill" {
        return None;
    }
    let ops = raw::operands(p);
    let (&value, &init) = (ops.first()?, ops.get(1)?);
    unsafe { mlirTypeIsAF32(mlirValueGetType(value)) }.then_some((init, value))
}

impl FloorsPass for CpuPackMatmul {
    const ARGUMENT: &'static str = "floors-cpu-pack-matmul";
    const NAME: &'static str = "FloorsCpuPackMatmul";
    const DESCRIPTION: &'static str = "Rewrite static f32 matmuls into packed operands (A as M/MR x K x MR, B as N/NR x K x NR) \
         and a packed contraction, for floors-cpu-tile-and-vectorize";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        unsafe {
            vec![
                DialectHandle::from_raw(mlirGetDialectHandle__tensor__()),
                DialectHandle::from_raw(mlirGetDialectHandle__linalg__()),
                DialectHandle::from_raw(mlirGetDialectHandle__memref__()),
                DialectHandle::from_raw(mlirGetDialectHandle__bufferization__()),
                DialectHandle::from_raw(mlirGetDialectHandle__transform__()),
                DialectHandle::arith(),
                DialectHandle::func(),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let (mr, nr) = register_tile(target_f32_lanes(op.to_raw())?);
        // Every convolution is the direct form: measured against im2col +
        // a packed matmul (which copies every input window, 9x the input
        // for a 3x3 kernel), it was as fast or faster on every shape tried
        // (1x56x56x64 3x3x64: 1.2 vs 3.1 ms; 8x28x28x128: 12.0 vs 18.4 ms).
        generalize_convolutions(&op)?;
        widen_mixed_contractions(&op)?;
        let candidates = crate::ir::collect_ops(&op, |o| {
            let n = crate::ir::op_name(&o);
            n == "linalg.matmul" || n == "linalg.batch_matmul"
        });
        for mm in candidates {
            let Some(p) = problem(mm) else { continue };
            let ops = raw::operands(mm);
            let fill = fill_of(ops[2]);
            let text = template(&p, mr, nr, fill.is_some());
            let mut args = ops.clone();
            if let Some((init, value)) = fill {
                args[2] = init;
                args.push(value);
            }
            splice_writing_into_output(mm, &text, &args, "the packed matmul")?;
        }
        Ok(())
    }
}

/// f16/bf16 dots reach this floor as multiply-accumulate contraction
/// generics (`acc + extf(a) * extf(b)`, f32 accumulator,
/// [`maps::mac_contraction_rank`]), which no schedule vectorizes. Each
/// becomes `extf` copies of its narrow operands (elementwise, vectorized)
/// and an f32 `linalg.matmul` / `linalg.batch_matmul` into the same
/// accumulator, which the packing below or the matmul schedule takes: f32
/// FMAs on widened operands, the accumulation XLA:CPU does. The copies cost
/// O(MK + KN) next to the product's O(MNK).
fn widen_mixed_contractions(op: &OperationRef<'_, '_>) -> Result<(), PassFailure> {
    let candidates = crate::ir::collect_ops(op, |o| crate::ir::op_name(&o) == "linalg.generic");
    for g in candidates {
        let Some(rank) = maps::mac_contraction_rank(g) else { continue };
        let ops = raw::operands(g);
        let elem = |v: MlirValue| raw::type_text(unsafe { mlirShapedTypeGetElementType(mlirValueGetType(v)) });
        let (ea, eb, ec) = (elem(ops[0]), elem(ops[1]), elem(ops[2]));
        let narrow = |e: &str| matches!(e, "f16" | "bf16");
        if ec != "f32" || !(narrow(&ea) || narrow(&eb)) || ![&ea, &eb].iter().all(|e| narrow(e) || e.as_str() == "f32") {
            continue;
        }
        let (Some(sa), Some(sb), Some(sc)) = (raw::shape(ops[0]), raw::shape(ops[1]), raw::shape(ops[2])) else { continue };
        if [&sa, &sb, &sc].iter().any(|s| s.len() != rank || s.iter().any(|&d| d < 0)) {
            continue;
        }
        let tensor = |s: &[i64], e: &str| format!("tensor<{}x{e}>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"));
        let (ta, tb, tc) = (tensor(&sa, &ea), tensor(&sb, &eb), tensor(&sc, "f32"));
        let id = map(false, rank, &(0..rank).collect::<Vec<_>>());
        let par = iterators(false, &vec!["parallel"; rank]);
        let mut text = format!("func.func @floors_widen(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{\n");
        let mut widened = |name: &str, s: &[i64], e: &str, t: &str| {
            if e == "f32" {
                return format!("%{name}");
            }
            let wide = tensor(s, "f32");
            text.push_str(&format!(
                "  %{name}_init = tensor.empty() : {wide}\n  \
                 %{name}_w = linalg.generic {{indexing_maps = [{id}, {id}], iterator_types = {par}}} ins(%{name} : {t}) outs(%{name}_init : {wide}) {{\n  \
                 ^bb0(%x: {e}, %y: f32):\n    %e = arith.extf %x : {e} to f32\n    linalg.yield %e : f32\n  }} -> {wide}\n"
            ));
            format!("%{name}_w")
        };
        let (a, b) = (widened("a", &sa, &ea, &ta), widened("b", &sb, &eb, &tb));
        let named = if rank == 3 { "linalg.batch_matmul" } else { "linalg.matmul" };
        text.push_str(&format!(
            "  %r = {named} ins({a}, {b} : {}, {}) outs(%c : {tc}) -> {tc}\n  func.return %r : {tc}\n}}\n",
            tensor(&sa, "f32"),
            tensor(&sb, "f32")
        ));
        // SAFETY: `g` is a live generic collected just before, `ops` its
        // operands; `g` is not used again.
        unsafe { raw::parse_and_splice(g, &text, &ops, "floors-cpu-pack-matmul") }
            .map_err(|text| fail(g, format!("internal error: the widened contraction does not parse:\n{text}")))?;
    }
    Ok(())
}

/// Every `linalg.conv_2d_nhwc_hwcf` left in `root` → its `linalg.generic`
/// (`transform.structured.generalize`), floats multiplied and added under
/// `fastmath<contract>`: the direct convolution of
/// `floors-cpu-tile-and-vectorize`.
fn generalize_convolutions(op: &OperationRef<'_, '_>) -> Result<(), PassFailure> {
    let root = op.to_raw();
    const TAG: &str = "floors.direct_conv";
    let script = format!(
        "module attributes {{transform.with_named_sequence}} {{\n  \
         transform.named_sequence @__floors_generalize_conv(%root: !transform.any_op {{transform.readonly}}) {{\n    \
         %c = transform.structured.match ops{{[\"linalg.conv_2d_nhwc_hwcf\"]}} in %root : (!transform.any_op) -> !transform.any_op\n    \
         %g = transform.structured.generalize %c : (!transform.any_op) -> !transform.any_op\n    \
         transform.annotate %g \"{TAG}\" : !transform.any_op\n    \
         transform.yield\n  }}\n}}\n"
    );
    // SAFETY: `root` is the op the pass runs on; nothing collected before is used after.
    match unsafe { raw::apply_transform_script(root, &script, "floors-cpu-pack-matmul") } {
        Ok(()) => {}
        Err(Some(text)) => return Err(fail(root, format!("internal error: the generalization script does not parse:\n{text}"))),
        Err(None) => return Err(fail(root, "generalizing a convolution failed (see the diagnostics above)")),
    }
    for g in crate::ir::collect_ops(op, |o| raw::attr(o.to_raw(), TAG).is_some()) {
        unsafe {
            mlirOperationRemoveAttributeByName(g, sref(TAG));
            let contract = mlirAttributeParseGet(mlirOperationGetContext(g), sref("#arith.fastmath<contract>"));
            for block in raw::region_blocks(g) {
                for o in raw::block_ops(block) {
                    if matches!(raw::name(o).as_str(), "arith.mulf" | "arith.addf") {
                        mlirOperationSetAttributeByName(o, sref("fastmath"), contract);
                    }
                }
            }
        }
    }
    Ok(())
}

/// Replaces `op` by the template `text` (a function of `args`) and, when its
/// result (a reshape of the 4-D accumulator) only goes to a kernel output,
/// writes the accumulator straight into a reshaped view of that output.
fn splice_writing_into_output(op: MlirOperation, text: &str, args: &[MlirValue], what: &str) -> Result<(), PassFailure> {
    // SAFETY: `op` is a live linalg op (collected by name just before), `args`
    // its operands (and a fill value that dominates it); `op` is not used again.
    let moved = unsafe { raw::parse_and_splice(op, text, args, "floors-cpu-pack-matmul") }
        .map_err(|text| fail(op, format!("internal error: {what} does not parse:\n{text}")))?;
    let reshape = moved.iter().rev().find(|&&o| matches!(raw::name(o).as_str(), "tensor.collapse_shape" | "tensor.expand_shape"));
    if let Some(&reshape) = reshape {
        for (user, _) in raw::uses(raw::results(reshape)[0]) {
            if raw::name(user) == "bufferization.materialize_in_destination" {
                write_reshapes_into_destination(user)?;
            }
        }
    }
    Ok(())
}
