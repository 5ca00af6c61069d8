//! `floors-cpu-pack-matmul`: data tiling for matmuls, the way IREE's CPU
//! backend packs operands for its mmt4d kernels.
//!
//! A row-major `linalg.matmul` read in MR×NR register tiles walks B with a
//! stride of one row (N×4 bytes) per K step, so every step of the innermost
//! loop touches a new cache line and, for power-of-two N, the same L1 set.
//! This pass rewrites each static f32 `linalg.matmul` / `linalg.batch_matmul`
//! (plain maps; an N or M not a multiple of NR or MR is first split into
//! the whole tiles and the remainder, and only the remainder is
//! zero-padded up to a tile, the corner of its padded C kept) into
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
//! [`crate::packing`], so both passes agree on it.
//!
//! Every other contraction the shared lowering writes for a `dot_general`
//! (transposed operands, batch dims anywhere, several free or contracting
//! dims, f16/bf16 operands accumulating in f32) is first made an f32 (batch)
//! matmul (`canonicalize_contractions`), so it takes this path (or the
//! unpacked matmul schedule) too; a B stored N×K (`q @ k.T`) is packed from
//! that layout, its transpose folded into the packing copy.
//!
//! First, every `linalg.conv_2d_nhwc_hwcf` is generalized into the direct
//! convolution `linalg.generic` (multiply-adds marked `contract`) that
//! `floors-cpu-tile-and-vectorize` vectorizes (an im2col + packed matmul
//! form measured slower on every shape tried: it copies every window).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::{
    packing::{PACKED_LOOPS, PACKED_MAPS, VNNI_LOOPS, VNNI_MAPS, register_tile, with_batch},
    target_f32_lanes,
};

use floors_linalg::{destination::write_reshapes_into_destination, maps};

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
    /// B is a `linalg.transpose` of its two minor dims: the value it
    /// transposes ([batch, N, K]), which B's packing copy reads instead.
    b_transposed: Option<MlirValue>,
    /// A's and B's element type: `f32`, or `bf16` for the VNNI contraction
    /// (only ever made by [`canonicalize_contractions`], K even).
    elem: &'static str,
}

/// The [batch, N, K] value that `b` transposes when `b` is the result of a
/// copy (`linalg.generic`, body only a yield) that swaps its two minor dims
/// (`canonicalize_contractions` makes one for a dot whose B is stored N×K).
fn minor_transpose_source(b: MlirValue, rank: usize) -> Option<MlirValue> {
    let t = raw::producer(b).filter(|&t| raw::name(t) == "linalg.generic")?;
    let body: Vec<String> = raw::region_blocks(t).into_iter().flat_map(raw::block_ops).map(raw::name).collect();
    let ops = raw::operands(t);
    let swap = minor_swap(rank);
    let id: Vec<usize> = (0..rank).collect();
    let copies = body == ["linalg.yield"] && ops.len() == 2 && maps::indexing_maps_are(t, (rank, &[&swap, &id]));
    copies.then(|| ops[0])
}

fn is_f32(v: MlirValue) -> bool {
    // SAFETY: `v` is a live value (an operand of the matmul being examined); its element type is
    // read only after `mlirTypeIsARankedTensor`.
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsARankedTensor(t) && mlirTypeIsAF32(mlirShapedTypeGetElementType(t))
    }
}

fn is_bf16(v: MlirValue) -> bool {
    // SAFETY: as in `is_f32`: `v` is live, the element type read after the ranked tensor check.
    unsafe {
        let t = mlirValueGetType(v);
        mlirTypeIsARankedTensor(t) && mlirTypeIsABF16(mlirShapedTypeGetElementType(t))
    }
}

/// The matmul `op` to pack; `small_ok`: also below [`MIN_MACS`] (a split
/// matmul's remainder, whose whole was big enough: unpacked, its partial
/// register tile would be a scalar loop nest).
fn problem(op: MlirOperation, small_ok: bool) -> Option<Problem> {
    let batch = match raw::name(op).as_str() {
        "linalg.matmul" => false,
        "linalg.batch_matmul" => true,
        _ => return None,
    };
    if !maps::is_plain_matmul(op) {
        return None;
    }
    let ops = raw::operands(op);
    if ops.len() != 3 || raw::results(op).len() != 1 || !is_f32(ops[2]) {
        return None;
    }
    let elem = match (is_f32(ops[0]) && is_f32(ops[1]), is_bf16(ops[0]) && is_bf16(ops[1])) {
        (true, _) => "f32",
        (_, true) => "bf16",
        _ => return None,
    };
    let (a, b) = (raw::shape(ops[0])?, raw::shape(ops[1])?);
    let b_transposed = minor_transpose_source(ops[1], b.len());
    let p = if batch {
        Problem { batch: Some(a[0]), m: a[1], k: a[2], n: b[2], b_transposed, elem }
    } else {
        Problem { batch: None, m: a[0], k: a[1], n: b[1], b_transposed, elem }
    };
    let pairs_ok = elem == "f32" || p.k % 2 == 0;
    let ok = pairs_ok && p.m > 0 && p.n > 0 && p.k > 0 && (small_ok || p.m * p.n * p.k >= MIN_MACS);
    ok.then_some(p)
}

/// `tensor<AxBx..xf32>` with the batch dimension in front when there is one.
fn ty(batch: Option<i64>, dims: &[i64]) -> String {
    tye(batch, dims, "f32")
}

/// [`ty`] with element type `e`.
fn tye(batch: Option<i64>, dims: &[i64], e: &str) -> String {
    tensor_ty(&with_batch_sizes(batch, dims), e)
}

/// The indexing maps of the packed contraction ([`PACKED_MAPS`], or
/// [`VNNI_MAPS`] for bf16) as template text.
fn packed_maps(batch: bool, vnni: bool) -> String {
    let (loops, of) = if vnni { (VNNI_LOOPS, &VNNI_MAPS) } else { (PACKED_LOOPS, &PACKED_MAPS) };
    let maps: Vec<String> = of.iter().map(|r| map(batch, loops, r)).collect();
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

/// A copy `out = in` of `e` elements (`rank` dims out) as a linalg.generic
/// whose input map is `in_map`.
fn copy(res: &str, input: &str, in_ty: &str, out_ty: &str, in_map: &str, rank: usize, e: &str) -> String {
    let id_map = map(false, rank, &(0..rank).collect::<Vec<_>>());
    let iters = iterators(false, &vec!["parallel"; rank]);
    format!(
        "  %{res}_init = tensor.empty() : {out_ty}\n  \
         %{res} = linalg.generic {{indexing_maps = [{in_map}, {id_map}], iterator_types = {iters}}} ins({input} : {in_ty}) outs(%{res}_init : {out_ty}) {{\n  \
         ^bb0(%x: {e}, %y: {e}):\n    linalg.yield %x : {e}\n  }} -> {out_ty}\n"
    )
}

/// The packed matmul as a function whose arguments are A, B, C0 (when C0 is
/// a fill: the fill's init, then the fill value).
fn template(p: &Problem, mr: i64, nr: i64, fill: bool) -> String {
    let (bt, b, e) = (p.batch, p.batch.is_some(), p.elem);
    let vnni = e == "bf16";
    // M and N rounded up to the register tile: edge tiles compute on zero
    // padding (A's extra rows, B's extra columns), and only the M×N corner
    // of the padded C is kept, so every tile is a full vector tile.
    let (mp, np) = ((p.m + mr - 1) / mr * mr, (p.n + nr - 1) / nr * nr);
    let (m1, n1) = (mp / mr, np / nr);
    // B as stored: [K, N], or [N, K] when it is read through a transpose.
    let b_stored = if p.b_transposed.is_some() { [p.n, p.k] } else { [p.k, p.n] };
    let (ta, tb, tc) = (tye(bt, &[p.m, p.k], e), tye(bt, &b_stored, e), ty(bt, &[p.m, p.n]));
    let mut s =
        format!("func.func @floors_pack_matmul(%a: {ta}, %b: {tb}, %c: {tc}{}) -> {tc} {{\n", if fill { ", %fill: f32" } else { "" });
    let b_padded = if p.b_transposed.is_some() { [np, p.k] } else { [p.k, np] };
    let (a, bv, c) = (pad(&mut s, bt, "a", [p.m, p.k], [mp, p.k], e), pad(&mut s, bt, "b", b_stored, b_padded, e), "%c".to_string());
    let c = if fill { c } else { pad(&mut s, bt, "c", [p.m, p.n], [mp, np], "f32") };
    let (ta, tb, tcp) = (tye(bt, &[mp, p.k], e), tye(bt, &b_padded, e), ty(bt, &[mp, np]));
    // A viewed as [M1,MR,K] (f32) or [M1,MR,K/2,2] (bf16: each row's K pairs
    // are what `vdpbf16ps` broadcasts). B[K,N] → [K,N1,NR] → Bp[N1,K,NR], or
    // B stored [N,K] → [N1,NR,K] → Bp, the transpose folded into the copy
    // that packs anyway; bf16: B[K,N] → [K/2,2,N1,NR] or [N,K] →
    // [N1,NR,K/2,2], then Bp[N1,K/2,NR,2], each column's K pairs adjacent.
    let k2 = p.k / 2;
    let transposed = p.b_transposed.is_some();
    let (ae, a_assoc, bp): (Vec<i64>, &[&[usize]], Vec<i64>) = if vnni {
        (vec![m1, mr, k2, 2], &[&[0, 1], &[2, 3]], vec![n1, k2, nr, 2])
    } else {
        (vec![m1, mr, p.k], &[&[0, 1], &[2]], vec![n1, p.k, nr])
    };
    let (be, b_assoc, reads): (Vec<i64>, &[&[usize]], &[usize]) = match (vnni, transposed) {
        (true, true) => (vec![n1, nr, k2, 2], &[&[0, 1], &[2, 3]], &[0, 2, 1, 3]),
        (true, false) => (vec![k2, 2, n1, nr], &[&[0, 1], &[2, 3]], &[1, 3, 0, 2]),
        (false, true) => (vec![n1, nr, p.k], &[&[0, 1], &[2]], &[0, 2, 1]),
        (false, false) => (vec![p.k, n1, nr], &[&[0], &[1, 2]], &[1, 0, 2]),
    };
    let (tae, tbe, tbp) = (tye(bt, &ae, e), tye(bt, &be, e), tye(bt, &bp, e));
    s.push_str(&format!(
        "  %ae = tensor.expand_shape {a} {} output_shape {} : {ta} into {tae}\n  \
         %be = tensor.expand_shape {bv} {} output_shape {} : {tb} into {tbe}\n",
        reassoc(b, a_assoc),
        output_shape(bt, &ae),
        reassoc(b, b_assoc),
        output_shape(bt, &be)
    ));
    s.push_str(&copy("bp", "%be", &tbe, &tbp, &map(b, bp.len(), reads), bp.len() + b as usize, e));
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
    // The packed contraction over (m1, n1, m0, n0, k), or (m1, n1, m0, n0, k2, p).
    let (iters, body) = if vnni {
        (
            iterators(b, &["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]),
            "^bb0(%x: bf16, %y: bf16, %z: f32):\n    %xe = arith.extf %x : bf16 to f32\n    %ye = arith.extf %y : bf16 to f32\n    \
             %p = arith.mulf %xe, %ye : f32\n",
        )
    } else {
        (
            iterators(b, &["parallel", "parallel", "parallel", "parallel", "reduction"]),
            "^bb0(%x: f32, %y: f32, %z: f32):\n    %p = arith.mulf %x, %y : f32\n",
        )
    };
    s.push_str(&format!(
        "  %mm = linalg.generic {{indexing_maps = {}, iterator_types = {iters}}} ins(%ae, %bp : {tae}, {tbp}) outs(%cp : {tce}) {{\n  \
         {body}    %q = arith.addf %z, %p : f32\n    linalg.yield %q : f32\n  }} -> {tce}\n",
        packed_maps(b, vnni),
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

/// A matmul whose N (else M) is not a multiple of the register tile, as
/// two matmuls: the whole tiles, written into C's own slice and packed
/// exactly, and the remainder (fewer than NR columns or MR rows), which
/// alone is zero-padded. Padding the whole problem instead copied all of B
/// (or A) and C once more: 1024×1024×1008 ran in 23 ms against 11 ms for
/// 1024³. None when nothing is to split. The function's arguments are as
/// for [`template`] (B as stored: N×K when it is read through a transpose).
fn split_text(p: &Problem, mr: i64, nr: i64, fill: bool) -> Option<String> {
    let split_n = p.n > nr && p.n % nr != 0;
    let split_m = p.m > mr && p.m % mr != 0;
    if !(split_n || split_m) {
        return None;
    }
    let (bt, batched) = (p.batch, p.batch.is_some());
    let transposed = p.b_transposed.is_some();
    let b_stored = if transposed { [p.n, p.k] } else { [p.k, p.n] };
    let e = p.elem;
    let (ta, tb, tc) = (tye(bt, &[p.m, p.k], e), tye(bt, &b_stored, e), ty(bt, &[p.m, p.n]));
    let mut s =
        format!("func.func @floors_split_matmul(%a: {ta}, %b: {tb}, %c: {tc}{}) -> {tc} {{\n", if fill { ", %fill: f32" } else { "" });
    // Offsets, sizes and strides of a slice, the batch dim (whole) in front.
    let at = |pair: [i64; 2]| output_shape(bt.map(|_| 0), &pair);
    let sizes = |pair: [i64; 2]| output_shape(bt, &pair);
    let ones = output_shape(bt.map(|_| 1), &[1, 1]);
    let slice = |s: &mut String, res: &str, src: &str, from: [i64; 2], off: [i64; 2], len: [i64; 2], e: &str| {
        s.push_str(&format!(
            "  %{res} = tensor.extract_slice {src}{}{}{ones} : {} to {}\n",
            at(off),
            sizes(len),
            tye(bt, &from, e),
            tye(bt, &len, e)
        ));
        format!("%{res}")
    };
    // B as the matmul reads it ([K, n]), from a stored [n, K] slice.
    let swap = |s: &mut String, res: &str, v: &str, rows: i64| {
        let rank = 2 + batched as usize;
        let (from, to) = (with_batch_sizes(bt, &[rows, p.k]), with_batch_sizes(bt, &[p.k, rows]));
        transpose_copy(s, res, v, &from, &to, &minor_swap(rank), e);
        format!("%{res}")
    };
    let (whole, total) = if split_n { (p.n / nr * nr, p.n) } else { (p.m / mr * mr, p.m) };
    let whole_b = if transposed && !split_n { swap(&mut s, "b_t", "%b", p.n) } else { "%b".to_string() };
    let mut result = "%c".to_string();
    for (i, (off, len)) in [(0, whole), (whole, total - whole)].into_iter().enumerate() {
        let (a, b, c_off, c_len) = if split_n {
            let b = if transposed {
                let rows = slice(&mut s, &format!("b{i}_rows"), "%b", b_stored, [off, 0], [len, p.k], e);
                swap(&mut s, &format!("b{i}"), &rows, len)
            } else {
                slice(&mut s, &format!("b{i}"), "%b", b_stored, [0, off], [p.k, len], e)
            };
            ("%a".to_string(), b, [0, off], [p.m, len])
        } else {
            (slice(&mut s, &format!("a{i}"), "%a", [p.m, p.k], [off, 0], [len, p.k], e), whole_b.clone(), [off, 0], [len, p.n])
        };
        let mut c = slice(&mut s, &format!("c{i}"), "%c", [p.m, p.n], c_off, c_len, "f32");
        let tci = ty(bt, &c_len);
        if fill {
            s.push_str(&format!("  %c{i}_f = linalg.fill ins(%fill : f32) outs({c} : {tci}) -> {tci}\n"));
            c = format!("%c{i}_f");
        }
        let (ai, bi) =
            if split_n { (tye(bt, &[p.m, p.k], e), tye(bt, &[p.k, len], e)) } else { (tye(bt, &[len, p.k], e), tye(bt, &[p.k, p.n], e)) };
        let named = if batched { "linalg.batch_matmul" } else { "linalg.matmul" };
        s.push_str(&format!("  %m{i} = {named} ins({a}, {b} : {ai}, {bi}) outs({c} : {tci}) -> {tci}\n"));
        s.push_str(&format!("  %r{i} = tensor.insert_slice %m{i} into {result}{}{}{ones} : {tci} into {tc}\n", at(c_off), sizes(c_len)));
        result = format!("%r{i}");
    }
    s.push_str(&format!("  func.return {result} : {tc}\n}}\n"));
    Some(s)
}

/// The sizes `dims` with the batch size in front when there is one.
fn with_batch_sizes(batch: Option<i64>, dims: &[i64]) -> Vec<i64> {
    batch.iter().chain(dims).copied().collect()
}

/// `%name` zero-padded at the high end from `from` to `to` (the last two
/// dims; the batch dim is never padded) as template text appended to `s`;
/// the value to use (`%name` itself when nothing is padded).
fn pad(s: &mut String, batch: Option<i64>, name: &str, from: [i64; 2], to: [i64; 2], e: &str) -> String {
    if from == to {
        return format!("%{name}");
    }
    let b = batch.is_some();
    let list = |v: Vec<i64>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    let low = list(vec![0; 2 + b as usize]);
    let high = list(batch.map(|_| 0).into_iter().chain([to[0] - from[0], to[1] - from[1]]).collect());
    let idx = (0..2 + b as usize).map(|i| format!("%i{i}: index")).collect::<Vec<_>>().join(", ");
    s.push_str(&format!(
        "  %{name}_zero = arith.constant 0.0 : {e}\n  \
         %{name}_pad = tensor.pad %{name} low[{low}] high[{high}] {{\n  ^bb0({idx}):\n    tensor.yield %{name}_zero : {e}\n  }} : {} to {}\n",
        tye(batch, &from, e),
        tye(batch, &to, e)
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
    // SAFETY: `value` is operand 0 of the live `linalg.fill` `p`.
    unsafe { mlirTypeIsAF32(mlirValueGetType(value)) }.then_some((init, value))
}

impl FloorsPass for CpuPackMatmul {
    const ARGUMENT: &'static str = "floors-cpu-pack-matmul";
    const NAME: &'static str = "FloorsCpuPackMatmul";
    const DESCRIPTION: &'static str = "Make every f32-accumulating contraction a static (batch) matmul, then pack it: B into \
         N/NR x K x NR panels (bf16 with AVX-512 BF16: N/NR x K/2 x NR x 2), A and C viewed in register-tile rows, a packed \
         contraction for floors-cpu-tile-and-vectorize";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: each getter takes nothing and returns the static handle of a dialect linked into
        // this binary.
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
        // `vdpbf16ps` accumulates 16 f32 lanes: the 8×32 AVX-512 tile.
        let vnni = nr == 32 && floors_ir::target::CpuTarget::of_operation(op.to_raw()).is_some_and(|t| t.has_feature("avx512bf16"));
        canonicalize_contractions(&op, vnni)?;
        let candidates = floors_ir::ir::collect_ops(&op, |o| {
            let n = floors_ir::ir::op_name(&o);
            n == "linalg.matmul" || n == "linalg.batch_matmul"
        });
        let mut work: Vec<(MlirOperation, bool)> = candidates.into_iter().map(|mm| (mm, false)).collect();
        while let Some((mm, small_ok)) = work.pop() {
            let Some(p) = problem(mm, small_ok) else { continue };
            let ops = raw::operands(mm);
            let fill = fill_of(ops[2]);
            let mut args = ops.clone();
            let transpose = p.b_transposed.and_then(|src| {
                args[1] = src;
                raw::producer(ops[1])
            });
            if let Some((init, value)) = fill {
                args[2] = init;
                args.push(value);
            }
            if let Some(text) = split_text(&p, mr, nr, fill.is_some()) {
                // SAFETY: `mm` is a live matmul collected above, `args` its
                // operands (or what they read through); `mm` is not used again.
                let moved = unsafe { raw::parse_and_splice(mm, &text, &args, "floors-cpu-pack-matmul") }
                    .map_err(|text| fail(mm, format!("internal error: the split matmul does not parse:\n{text}")))?;
                work.extend(
                    moved
                        .into_iter()
                        .filter(|&o| matches!(raw::name(o).as_str(), "linalg.matmul" | "linalg.batch_matmul"))
                        .map(|o| (o, true)),
                );
            } else {
                let text = template(&p, mr, nr, fill.is_some());
                splice_writing_into_output(mm, &text, &args, "the packed matmul")?;
            }
            // The transpose the packing read through, now unused.
            if let Some(t) = transpose.filter(|&t| raw::results(t).iter().all(|&v| raw::uses(v).is_empty())) {
                // SAFETY: `t` is the live transpose generic that produced B; it lies outside the
                // matmul, so the splice left it alive. None of its results has a use left (checked
                // just above), so destroying it leaves no dangling operand, and it is not used
                // again.
                unsafe { mlirOperationDestroy(t) };
            }
        }
        Ok(())
    }
}

/// A contraction's loops in a matmul's roles: batch (indexed by A, B and
/// C), M (A and C), N (B and C), each in C's order, and K (A and B,
/// reduced) in A's order; `size` of every loop.
struct Roles {
    batch: Vec<usize>,
    m: Vec<usize>,
    n: Vec<usize>,
    k: Vec<usize>,
    size: Vec<i64>,
}

/// The roles of the loops of a multiply-accumulate contraction generic
/// whose operand dims are `dims` (A, B, C) and shapes `shapes` (static), when
/// it is a (batch) matmul up to operand layouts: C is [batch, M, N] (the
/// order a `dot_general` result has), M, N and K not empty.
fn roles(g: MlirOperation, dims: &[Vec<usize>; 3], shapes: &[Vec<i64>; 3]) -> Option<Roles> {
    let its = maps::parallel_iterators(g)?;
    let mut size = vec![-1; its.len()];
    for (ds, sh) in dims.iter().zip(shapes) {
        if ds.len() != sh.len() {
            return None;
        }
        for (&d, &n) in ds.iter().zip(sh) {
            if *size.get(d)? != -1 && size[d] != n {
                return None;
            }
            size[d] = n;
        }
    }
    let [a, b, c] = dims;
    let (in_a, in_b, in_c) = (|d: &usize| a.contains(d), |d: &usize| b.contains(d), |d: &usize| c.contains(d));
    let batch: Vec<usize> = c.iter().copied().filter(|d| in_a(d) && in_b(d)).collect();
    let m: Vec<usize> = c.iter().copied().filter(|d| in_a(d) && !in_b(d)).collect();
    let n: Vec<usize> = c.iter().copied().filter(|d| !in_a(d) && in_b(d)).collect();
    let k: Vec<usize> = a.iter().copied().filter(|d| !in_c(d)).collect();
    let every_loop_once = (0..its.len()).all(|d| its[d] == in_c(&d) && size[d] > 0);
    let k_in_both = k.len() == b.iter().filter(|d| !in_c(d)).count() && k.iter().all(in_b);
    let c_in_order = *c == [batch.as_slice(), &m, &n].concat();
    (every_loop_once && k_in_both && c_in_order && !m.is_empty() && !n.is_empty() && !k.is_empty()).then_some(Roles {
        batch,
        m,
        n,
        k,
        size,
    })
}

/// `0, 1, ..., rank-1` with the last two swapped.
fn minor_swap(rank: usize) -> Vec<usize> {
    (0..rank - 2).chain([rank - 1, rank - 2]).collect()
}

/// Appends `%{res}`, a copy of `v` (shape `from`) into shape `to` as a
/// `linalg.generic` whose input map reads input dim j at loop `reads[j]`
/// (a generic, not `linalg.transpose`: the schedule tiles and vectorizes
/// transposing generic copies).
fn transpose_copy(s: &mut String, res: &str, v: &str, from: &[i64], to: &[i64], reads: &[usize], e: &str) {
    let (tin, tout) = (tensor_ty(from, e), tensor_ty(to, e));
    s.push_str(&copy(res, v, &tin, &tout, &map(false, to.len(), reads), to.len(), e));
}

fn tensor_ty(shape: &[i64], e: &str) -> String {
    format!("tensor<{}x{e}>", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

/// Appends `v` (dims `have`, element `e`) transposed into the loop order of
/// the concatenated `groups` (a `linalg.transpose`, none when already in
/// it), then collapsed to one dim per non-empty group; the value and its
/// shape.
fn arrange(s: &mut String, name: &str, v: &str, have: &[usize], groups: &[&[usize]], r: &Roles, e: &str) -> (String, Vec<i64>) {
    let want: Vec<usize> = groups.concat();
    let shape: Vec<i64> = want.iter().map(|&d| r.size[d]).collect();
    let mut v = v.to_string();
    if want != have {
        let from: Vec<i64> = have.iter().map(|&d| r.size[d]).collect();
        // Input dim j is loop `want.position(have[j])` of the copy.
        let reads: Vec<usize> = have.iter().map(|d| want.iter().position(|w| w == d).unwrap_or(0)).collect();
        transpose_copy(s, &format!("{name}_t"), &v, &from, &shape, &reads, e);
        v = format!("%{name}_t");
    }
    let groups: Vec<&[usize]> = groups.iter().copied().filter(|g| !g.is_empty()).collect();
    if groups.iter().all(|g| g.len() == 1) {
        return (v, shape);
    }
    let (mut at, mut assoc) = (0, Vec::new());
    for g in &groups {
        assoc.push(format!("[{}]", (at..at + g.len()).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")));
        at += g.len();
    }
    let collapsed: Vec<i64> = groups.iter().map(|g| g.iter().map(|&d| r.size[d]).product()).collect();
    s.push_str(&format!(
        "  %{name}_c = tensor.collapse_shape {v} [{}] : {} into {}\n",
        assoc.join(", "),
        tensor_ty(&shape, e),
        tensor_ty(&collapsed, e)
    ));
    (format!("%{name}_c"), collapsed)
}

/// Every multiply-accumulate contraction generic with an f32 accumulator
/// (what the shared lowering gives a `dot_general` that is not a plain
/// f32 (batch) matmul: transposed operands — `A·Bᵀ` as in `q @ k.T` —,
/// batch dims anywhere, several free or contracting dims, f16/bf16
/// operands) becomes an f32 `linalg.matmul` / `linalg.batch_matmul` on
/// [batch, M, K] × [batch, K, N], which the packing below or the matmul
/// schedule take; left alone, no schedule vectorizes it (a scalar loop
/// nest: the 512×512×64 `A·Bᵀ` ran 20× slower than the same matmul).
/// Operands not in that layout are transposed (`linalg.transpose`), except
/// that a B whose innermost dim is contracted is arranged [batch, N, K] (as
/// it is stored, for `A·Bᵀ`) and then swapped by a transpose of its last two
/// dims that the packing folds into its copy of B; several dims of a role
/// are collapsed into one (free reshapes); f16/bf16 operands are widened
/// by `extf` copies, the accumulation XLA:CPU does. The copies cost
/// O(MK + KN) next to the product's O(MNK).
fn canonicalize_contractions(op: &OperationRef<'_, '_>, vnni_target: bool) -> Result<(), PassFailure> {
    let candidates = floors_ir::ir::collect_ops(op, |o| floors_ir::ir::op_name(&o) == "linalg.generic");
    for g in candidates {
        let Some(dims) = maps::mac_contraction_dims(g) else { continue };
        let ops = raw::operands(g);
        // SAFETY: `v` is one of the three operands of the live generic `g`. The element-type getter
        // needs a shaped type: they are the tensors A, B and C of the contraction
        // `mac_contraction_dims` accepted (the shared lowering's form; a scalar operand is not
        // ruled out here).
        let elem = |v: MlirValue| raw::type_text(unsafe { mlirShapedTypeGetElementType(mlirValueGetType(v)) });
        let (ea, eb, ec) = (elem(ops[0]), elem(ops[1]), elem(ops[2]));
        let ok = |e: &str| matches!(e, "f16" | "bf16" | "f32");
        if ec != "f32" || !ok(&ea) || !ok(&eb) || raw::results(g).len() != 1 {
            continue;
        }
        let (Some(sa), Some(sb), Some(sc)) = (raw::shape(ops[0]), raw::shape(ops[1]), raw::shape(ops[2])) else { continue };
        let shapes = [sa, sb, sc];
        if shapes.iter().any(|s| s.iter().any(|&d| d < 0)) {
            continue;
        }
        let Some(r) = roles(g, &dims, &shapes) else { continue };
        // bf16 × bf16 on a target with AVX-512 BF16 stays bf16: the packing
        // makes it the VNNI contraction (`vdpbf16ps`, two K steps per
        // instruction) when K pairs up and the product is worth packing.
        let k_size: i64 = r.k.iter().map(|&d| r.size[d]).product();
        let macs: i64 = r.size.iter().product();
        let vnni = vnni_target && ea == "bf16" && eb == "bf16" && k_size % 2 == 0 && macs >= MIN_MACS;
        let we = if vnni { "bf16" } else { "f32" };
        let fill = fill_of(ops[2]);
        let tc = tensor_ty(&shapes[2], "f32");
        let mut s = format!(
            "func.func @floors_canonical_contraction(%a: {}, %b: {}, %c: {tc}{}) -> {tc} {{\n",
            tensor_ty(&shapes[0], &ea),
            tensor_ty(&shapes[1], &eb),
            if fill.is_some() { ", %fill: f32" } else { "" }
        );
        // f16/bf16 operands widened into f32 copies.
        let widen = |s: &mut String, name: &str, v: String, shape: &[i64], e: &str| {
            if e == "f32" || vnni {
                return v;
            }
            let (narrow, wide) = (tensor_ty(shape, e), tensor_ty(shape, "f32"));
            let id = map(false, shape.len(), &(0..shape.len()).collect::<Vec<_>>());
            let par = iterators(false, &vec!["parallel"; shape.len()]);
            s.push_str(&format!(
                "  %{name}_w_init = tensor.empty() : {wide}\n  \
                 %{name}_w = linalg.generic {{indexing_maps = [{id}, {id}], iterator_types = {par}}} ins({v} : {narrow}) outs(%{name}_w_init : {wide}) {{\n  \
                 ^bb0(%x: {e}, %y: f32):\n    %e = arith.extf %x : {e} to f32\n    linalg.yield %e : f32\n  }} -> {wide}\n"
            ));
            format!("%{name}_w")
        };
        let (a, ashape) = arrange(&mut s, "a", "%a", &dims[0], &[&r.batch, &r.m, &r.k], &r, &ea);
        let a = widen(&mut s, "a", a, &ashape, &ea);
        let (b, bshape) = if dims[1].last().is_some_and(|d| r.k.contains(d)) {
            // K innermost: B arranged [batch, N, K] (no copy when it is stored
            // so), widened, then its two minor dims swapped by a transpose
            // the packing reads through: B is copied once, by the packing.
            let (bt, sh) = arrange(&mut s, "b", "%b", &dims[1], &[&r.batch, &r.n, &r.k], &r, &eb);
            let bt = widen(&mut s, "b", bt, &sh, &eb);
            let rank = sh.len();
            let mut swapped = sh.clone();
            swapped.swap(rank - 2, rank - 1);
            transpose_copy(&mut s, "b_s", &bt, &sh, &swapped, &minor_swap(rank), we);
            ("%b_s".to_string(), swapped)
        } else {
            let (b, sh) = arrange(&mut s, "b", "%b", &dims[1], &[&r.batch, &r.k, &r.n], &r, &eb);
            (widen(&mut s, "b", b, &sh, &eb), sh)
        };
        // C (already [batch, M, N]) collapsed to one dim per role; a fill is
        // redone on the collapsed init, where the packing looks for it.
        let (c, cshape) = arrange(&mut s, "c", "%c", &dims[2], &[&r.batch, &r.m, &r.n], &r, "f32");
        let tcc = tensor_ty(&cshape, "f32");
        let c = if fill.is_some() {
            s.push_str(&format!("  %c_f = linalg.fill ins(%fill : f32) outs({c} : {tcc}) -> {tcc}\n"));
            "%c_f".to_string()
        } else {
            c
        };
        let named = if r.batch.is_empty() { "linalg.matmul" } else { "linalg.batch_matmul" };
        s.push_str(&format!(
            "  %mm = {named} ins({a}, {b} : {}, {}) outs({c} : {tcc}) -> {tcc}\n",
            tensor_ty(&ashape, we),
            tensor_ty(&bshape, we)
        ));
        if cshape == shapes[2] {
            s.push_str(&format!("  func.return %mm : {tc}\n}}\n"));
        } else {
            let groups: Vec<&Vec<usize>> = [&r.batch, &r.m, &r.n].into_iter().filter(|g| !g.is_empty()).collect();
            let (mut at, mut assoc) = (0, Vec::new());
            for g in groups {
                assoc.push(format!("[{}]", (at..at + g.len()).map(|i| i.to_string()).collect::<Vec<_>>().join(", ")));
                at += g.len();
            }
            s.push_str(&format!(
                "  %r = tensor.expand_shape %mm [{}] output_shape {} : {tcc} into {tc}\n  func.return %r : {tc}\n}}\n",
                assoc.join(", "),
                output_shape(None, &shapes[2])
            ));
        }
        let mut args = ops.clone();
        if let Some((init, value)) = fill {
            args[2] = init;
            args.push(value);
        }
        // SAFETY: `g` is a live generic collected just before, `args` its
        // operands (the fill's init and value dominate it); `g` is not used again.
        unsafe { raw::parse_and_splice(g, &s, &args, "floors-cpu-pack-matmul") }
            .map_err(|text| fail(g, format!("internal error: the canonical contraction does not parse:\n{text}")))?;
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
    // SAFETY: `root` is the live op the pass runs on.
    let ctx = unsafe { mlirOperationGetContext(root) };
    let contract = floors_ir::attrs::arith::fastmath(ctx, &[floors_ir::attrs::arith::FastMath::Contract])
        .ok_or_else(|| fail(root, "internal error: no #arith.fastmath<contract>"))?;
    for g in floors_ir::ir::collect_ops(op, |o| raw::attr(o.to_raw(), TAG).is_some()) {
        // SAFETY: `g` is a live op, just collected by its tag after the script ran, and the ops of
        // its body are live; `contract` is an attribute of the same context (built from `root`'s);
        // the names are Rust strings that outlive the calls.
        unsafe {
            mlirOperationRemoveAttributeByName(g, sref(TAG));
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
