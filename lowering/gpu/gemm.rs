//! The GPU floor's own tiled GEMM (applied by `floors-gpu-emit-gemm`,
//! `gpu_emit_gemm.rs`). In a kernel
//! function whose fusion is a `gemm` (`floors.kind = #floors.kind<gemm>`,
//! the fusions `floors-gpu-select-emitter` gives the `gemm` emitter), each
//! top-level matmul on memrefs (right after bufferization, before
//! `convert-linalg-to-parallel-loops`) becomes one `gpu.launch` of a
//! shared-memory tiled kernel; the rest of the function is left to
//! `floors-gpu-emit-kernels`, whose launches keep program order around it.
//!
//! **What is a matmul here.** `linalg.matmul` / `linalg.batch_matmul` with
//! the default maps, and the contraction `linalg.generic` the shared
//! lowering gives a dot whose operands are narrower than its accumulator
//! (JAX's f16/bf16 dots: `acc + extf(a) * extf(b)` over the matmul or
//! batch-matmul maps, see [`is_matmul`]) — the same product with the
//! operands converted to f32. Neither the shared lowering nor the CPU floor
//! changes: the GPU pass reads both forms.
//!
//! **Which kernel.** A and B both f16 or both bf16: on sm_90a the
//! warpgroup kernel ([`super::emit_gemm_wgmma`]: `wgmma.mma_async
//! m64n64k16` from shared-memory descriptors, one warpgroup per 64×64
//! tile), `gemm(wgmma m64n64k16 bf16, 64x64x32, 1 warpgroup)`; on other
//! chips with `mma.sync` (sm_80, sm_90) the tensor-core kernel
//! ([`super::emit_gemm_mma`]: `nvgpu.ldmatrix` + `mma.sync.m16n8k16`,
//! 64×64×32 block tiles, 4 warps, fragment layout in its module doc),
//! `gemm(mma.sync m16n8k16 f16, 64x64x32, 4 warps)`. Anything else (f32,
//! mixed operand types) takes the SIMT kernel below,
//! `gemm(simt 64x64x16, 4x4 per thread)`.
//!
//! **Folded fill, fused epilogue** (both kernels). The `linalg.fill` of C
//! right before the matmul becomes the accumulators' initial value (no
//! launch, no read of C: the kernel stores every element of C). An
//! elementwise `linalg.generic` right after it that reads C at the same
//! index (identity map), other inputs at projections of that index (a
//! bias row, a broadcast scalar) and writes its output at the identity,
//! with a plain arith/math body, is applied to the final accumulators
//! before the store ([`store_result`]) when C is a temporary only the
//! fill, the matmul and that generic use: the truncation of an f16 dot,
//! bias + relu. The plan then ends in `, fused epilogue`; otherwise the
//! consumer stays a launch of its own.
//!
//! **The SIMT tiling (every chip, every float type).** A block of 256 threads computes a
//! BM×BN = 64×64 tile of C, stepping over K in BK = 16 slices; grid =
//! (⌈N/64⌉, ⌈M/64⌉, batch). Thread `t` has `tx = t % 16`, `ty = t / 16` and
//! a 4×4 register tile of f32 accumulators: rows `ty + 16·i`, columns
//! `tx + 16·j` (i, j < 4) of the block tile — strided rather than
//! contiguous so a half-warp's C accesses and B-tile reads touch 16
//! consecutive words. Accumulators start from the folded fill's value, else
//! from C in memory (`C += A·B` is linalg's semantics). Per K slice:
//! 1. every thread loads 4 elements of the A slice (64×16) and 4 of the B
//!    slice (16×64) from global memory — consecutive threads read
//!    consecutive addresses of a row (coalesced) — converts them to f32 and
//!    stores them to workgroup memory: A transposed as `As[k][m]`
//!    (16×66 f32), B as `Bs[k][n]` (16×64 f32);
//! 2. `gpu.barrier`;
//! 3. 16 steps of 4 + 4 shared-memory reads and 16 FMAs;
//! 4. `gpu.barrier` (the next slice overwrites the tiles).
//!
//! Then each in-range accumulator is stored (truncated to C's type), or
//! goes through the fused epilogue.
//!
//! **Bank conflicts.** A warp stores the A slice as `As[tx][r]` for rows
//! `r ∈ {2w, 2w+1} (+16l)`: with a row stride of 66 words the bank is
//! `(2·tx + r) mod 32` — 16 distinct banks of r's parity for each of the
//! two rows, so the 2 words of padding make the stores conflict-free (a
//! stride of 64 would put all 16 `tx` in one bank). Reads `As[k][ty+16i]`
//! touch 2 words per warp (broadcast). B needs no padding: a warp stores 32
//! consecutive words of one `Bs` row and reads 16 consecutive words.
//!
//! **Bounds.** M, N, K need not divide the tile: an out-of-range A/B element
//! is read at a clamped (valid) index and replaced by 0 (a select, no
//! branch; along a dimension the tile divides there is no check at all), so for `k ≥ K` both factors are 0 and in-range outputs only get
//! `0·0` terms (an inf or NaN past the edge cannot leak in); out-of-range
//! rows/columns of C are neither read usefully nor stored (`scf.if`).
//! Every thread runs every K iteration (the loop bounds are uniform), so
//! all threads reach both barriers.
//!
//! Operands f32/f16/bf16 (each converted to f32 when staged), f32
//! accumulation, C f32/f16/bf16. Shared memory: 8320 bytes, checked against
//! the device description's per-block limit.
//!
//! **Fallbacks are reported.** A matmul this pass does not take (dynamic
//! shapes, other element types, non-default indexing maps, a contraction
//! that is not matmul-shaped, a grid beyond the launch limits, a function
//! with serial code that needs the single-block codegen) stays on the
//! generic path, and the function's `floors.gpu_codegen` says
//! `gemm fallback (REASON)`; a taken one records its plan (then
//! `floors-gpu-emit-kernels` appends its strategy for the rest).
//!
//! **Not done.** `cp.async` copies, double buffering and vectorized global
//! loads (all three kernels stage with scalar loads and wait for each
//! slice); TMA and swizzled layouts for wgmma (TMA descriptors are made on
//! the host, `nvgpu.tma.create.descriptor`, and the runtime's launch ABI
//! passes buffers only); TF32 for f32 operands. None of the kernels has
//! run on a GPU yet: ptxas assembles them (no spills), the numerics wait
//! for scripts/gpu_check.sh on an H200.

use mlir_sys::*;

use super::{
    builder::{Builder, region_arg},
    launch::{ValueMap, clone_mapped, create_for, create_if, memref_shape, named_launch, set_yield, workgroup_memref},
};
use floors_ir::{ir::raw, pass::PassFailure, target::GpuTarget};

/// Block tile rows (M).
pub const BM: i64 = 64;
/// Block tile columns (N).
pub const BN: i64 = 64;
/// K slice per shared-memory stage.
pub const BK: i64 = 16;
/// Accumulator rows per thread.
pub const TM: i64 = 4;
/// Accumulator columns per thread.
pub const TN: i64 = 4;
/// Threads per block: (BM/TM) × (BN/TN).
pub const THREADS: i64 = (BM / TM) * (BN / TN);
/// Padding (words) of an `As` row: see the module doc (bank conflicts).
const A_PAD: i64 = 2;
/// The plan as `floors.gpu_codegen` records it.
pub const PLAN: &str = "gemm(simt 64x64x16, 4x4 per thread)";

// The thread mapping below relies on these.
const _: () = assert!(THREADS == 256 && (BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0 && THREADS % BK == 0 && THREADS % BN == 0);

/// Workgroup memory of one block, in bytes.
pub const fn shared_bytes() -> i64 {
    (BK * (BM + A_PAD) + BK * BN) * 4
}

/// The launch grid for a `batch × M×N` output.
pub fn grid(batch: i64, m: i64, n: i64) -> [i64; 3] {
    [(n + BN - 1) / BN, (m + BM - 1) / BM, batch]
}

/// A matmul the tiled kernel takes: operands, sizes, element types.
pub(super) struct Gemm {
    pub a: MlirValue,
    pub b: MlirValue,
    pub c: MlirValue,
    pub batched: bool,
    pub batch: i64,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    /// Tensor cores (`mma.sync`) for f16/bf16 operands on sm_80+, else SIMT.
    pub mma: Option<MmaElem>,
    /// With `mma`: warpgroup MMA (`wgmma`) instead of `mma.sync` (sm_90a).
    pub wgmma: bool,
    /// The `linalg.fill` of C right before the matmul, folded into the
    /// accumulators' initial value (its scalar): one launch less.
    pub fill: Option<(MlirOperation, MlirValue)>,
    /// The elementwise consumer applied to the accumulators before the
    /// store (C is then a temporary nobody else reads).
    pub epilogue: Option<Epilogue>,
}

/// The operand type of a tensor-core GEMM.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MmaElem {
    F16,
    Bf16,
}

impl MmaElem {
    pub fn name(self) -> &'static str {
        match self {
            Self::F16 => "f16",
            Self::Bf16 => "bf16",
        }
    }
}

/// An elementwise `linalg.generic` after the matmul whose input `acc_input`
/// is C at the same index (identity map) and whose other inputs are read
/// at projections of the output index (`None`: the constant 0 of a size-1
/// dimension); its output has the identity map.
pub(super) struct Epilogue {
    pub op: MlirOperation,
    pub acc_input: usize,
    pub inputs: Vec<(MlirValue, Vec<Option<usize>>)>,
    pub out: MlirValue,
    /// C's `memref.alloc` and deallocations, erased with the epilogue.
    pub temp: Vec<MlirOperation>,
}

impl Gemm {
    /// The plan as `floors.gpu_codegen` records it.
    pub fn plan(&self) -> String {
        let mut p = match self.mma {
            Some(e) if self.wgmma => super::emit_gemm_wgmma::plan(e),
            Some(e) => super::emit_gemm_mma::plan(e),
            None => PLAN.to_string(),
        };
        if self.epilogue.is_some() {
            p.insert_str(p.len() - 1, ", fused epilogue");
        }
        p
    }
}

/// Whether `op` is a matmul this pass reads: `linalg.matmul` /
/// `linalg.batch_matmul`, or the contraction `linalg.generic` the shared
/// lowering gives a dot whose operands are narrower than its accumulator
/// (f16/bf16 operands accumulating in f32): matmul or batch-matmul maps,
/// `acc + extf(a) * extf(b)` (each `extf` optional) — linalg.matmul's
/// semantics with the operands converted to the accumulator type.
pub(super) fn is_matmul(op: MlirOperation) -> bool {
    match raw::name(op).as_str() {
        "linalg.matmul" | "linalg.batch_matmul" => true,
        "linalg.generic" => floors_linalg::maps::mac_contraction_rank(op).is_some(),
        _ => false,
    }
}

pub(super) fn element_type(v: MlirValue) -> MlirType {
    // SAFETY: every caller passes a live memref operand of a matmul or epilogue (or a workgroup buffer), and a memref
    // type is shaped.
    unsafe { mlirShapedTypeGetElementType(mlirValueGetType(v)) }
}

pub(super) fn is_f32(t: MlirType) -> bool {
    // SAFETY: type predicates accept any live type handle; `t` is one.
    unsafe { mlirTypeIsAF32(t) }
}

fn is_supported_float(t: MlirType) -> bool {
    // SAFETY: as above: predicates on a live type.
    unsafe { mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t) }
}

/// The next op after `op` that is not an `arith.constant` (None at the end).
fn next_significant(op: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: `op` is a live matmul in its function's block; the next op is null at the end, which the loop checks.
    let mut o = unsafe { mlirOperationGetNextInBlock(op) };
    while !o.ptr.is_null() && raw::name(o) == "arith.constant" {
        // SAFETY: `o` is the live, non-null op just found.
        o = unsafe { mlirOperationGetNextInBlock(o) };
    }
    (!o.ptr.is_null()).then_some(o)
}

/// The `linalg.fill` of exactly `c` right before `mm` (constants between
/// allowed), with its scalar. Folding it is sound because the kernel stores
/// every element of C.
fn fill_before(mm: MlirOperation, c: MlirValue) -> Option<(MlirOperation, MlirValue)> {
    let ops = raw::block_ops(raw::block_of(mm));
    let at = ops.iter().position(|o| o.ptr == mm.ptr)?;
    let o = *ops[..at].iter().rev().find(|&&o| raw::name(o) != "arith.constant")?;
    if raw::name(o) != "linalg.fill" {
        return None;
    }
    let [value, out] = raw::operands(o)[..] else { return None };
    // SAFETY: `value` is the live scalar operand of the linalg.fill `o`.
    (raw::same_value(out, c) && unsafe { mlirTypeIsAFloat(mlirValueGetType(value)) }).then_some((o, value))
}

/// The elementwise generic right after `mm` that can run on the
/// accumulators (see [`Epilogue`]), or None. C must be a `memref.alloc`
/// used only by the fill, the matmul, that generic and deallocations, so
/// that not storing it loses nothing.
fn epilogue_after(mm: MlirOperation, c: MlirValue, shape: &[i64]) -> Option<Epilogue> {
    let e = next_significant(mm)?;
    if raw::name(e) != "linalg.generic" || !raw::results(e).is_empty() {
        return None;
    }
    // Without a folded fill the kernel reads C's initial value: C stays.
    fill_before(mm, c)?;
    let alloc = raw::producer(c).filter(|&p| raw::name(p) == "memref.alloc")?;
    let mut temp = vec![alloc];
    for (user, _) in raw::uses(c) {
        match raw::name(user).as_str() {
            "memref.dealloc" => temp.push(user),
            "linalg.fill" if fill_before(mm, c).is_some_and(|(f, _)| f.ptr == user.ptr) => {}
            _ if user.ptr == mm.ptr || user.ptr == e.ptr => {}
            _ => return None,
        }
    }
    let its = floors_linalg::maps::parallel_iterators(e)?;
    if its.len() != shape.len() || its.iter().any(|p| !p) {
        return None;
    }
    let operands = raw::operands(e);
    let maps = floors_linalg::maps::maps_of(raw::attr(e, "indexing_maps")?)?;
    if maps.len() != operands.len() || operands.len() < 2 {
        return None;
    }
    let n_in = operands.len() - 1;
    let out = operands[n_in];
    if memref_shape(out)? != shape {
        return None;
    }
    let dims_of = |m: MlirAffineMap| -> Option<Vec<Option<usize>>> {
        // SAFETY: `m` is an indexing map of the live generic `e`; the result positions are below the count just read,
        // and each expression getter follows the matching `IsA` check.
        unsafe {
            if mlirAffineMapGetNumDims(m) != shape.len() as isize || mlirAffineMapGetNumSymbols(m) != 0 {
                return None;
            }
            (0..mlirAffineMapGetNumResults(m))
                .map(|i| {
                    let x = mlirAffineMapGetResult(m, i);
                    if mlirAffineExprIsADim(x) {
                        Some(Some(mlirAffineDimExprGetPosition(x) as usize))
                    } else if mlirAffineExprIsAConstant(x) && mlirAffineConstantExprGetValue(x) == 0 {
                        Some(None)
                    } else {
                        None
                    }
                })
                .collect()
        }
    };
    let identity: Vec<Option<usize>> = (0..shape.len()).map(Some).collect();
    if dims_of(maps[n_in])? != identity {
        return None;
    }
    // Other blocks still read A and B while a block stores its epilogue
    // results, and an input read at another index than the one written is
    // a race: the output must not share their buffer.
    let out_root = root_buffer(out);
    let mm_ops = raw::operands(mm);
    if mm_ops[..2].iter().any(|&v| raw::same_value(root_buffer(v), out_root)) {
        return None;
    }
    let mut acc_input = None;
    let mut inputs = Vec::new();
    for (i, (&v, &m)) in operands[..n_in].iter().zip(&maps).enumerate() {
        let dims = dims_of(m)?;
        if raw::same_value(v, c) {
            if acc_input.is_some() || dims != identity {
                return None;
            }
            acc_input = Some(i);
        }
        memref_shape(v)?;
        if raw::same_value(root_buffer(v), out_root) && dims != identity {
            return None;
        }
        inputs.push((v, dims));
    }
    // The body: plain arithmetic (no regions, nothing that touches memory).
    let block = *raw::region_blocks(e).first()?;
    for o in raw::block_ops(block) {
        let n = raw::name(o);
        if n == "linalg.yield" {
            continue;
        }
        // SAFETY: `o` is a live op of the generic's body.
        if !(n.starts_with("arith.") || n.starts_with("math.")) || unsafe { mlirOperationGetNumRegions(o) } != 0 {
            return None;
        }
    }
    Some(Epilogue { op: e, acc_input: acc_input?, inputs, out, temp })
}

/// The buffer `v` is a view of (through subviews, reshapes and casts).
fn root_buffer(v: MlirValue) -> MlirValue {
    let mut v = v;
    while let Some(p) = raw::producer(v) {
        match raw::name(p).as_str() {
            "memref.subview" | "memref.expand_shape" | "memref.collapse_shape" | "memref.cast" | "memref.reinterpret_cast" => {
                v = raw::operands(p)[0]
            }
            _ => break,
        }
    }
    v
}

/// The matmul as a [`Gemm`], or why the tiled kernel does not take it.
pub(super) fn check(mm: MlirOperation, target: &GpuTarget) -> Result<Gemm, String> {
    let name = raw::name(mm);
    let batched = name == "linalg.batch_matmul" || floors_linalg::maps::mac_contraction_rank(mm) == Some(3);
    let ops = raw::operands(mm);
    if ops.len() != 3 {
        return Err(format!("{name} with {} operands", ops.len()));
    }
    let (a, b, c) = (ops[0], ops[1], ops[2]);
    let (Some(sa), Some(sb), Some(sc)) = (memref_shape(a), memref_shape(b), memref_shape(c)) else {
        return Err(format!("{name} with dynamic shapes"));
    };
    let rank = if batched { 3 } else { 2 };
    if sa.len() != rank || sb.len() != rank || sc.len() != rank {
        return Err(format!("{name} operands of unexpected rank"));
    }
    if name != "linalg.generic" && !floors_linalg::maps::is_plain_matmul(mm) {
        let maps = raw::attr(mm, "indexing_maps").map(raw::attr_text).unwrap_or_default();
        return Err(format!("{name} with transposed or broadcast indexing maps {maps}"));
    }
    for v in [a, b, c] {
        let t = element_type(v);
        if !is_supported_float(t) {
            return Err(format!("{name} on {} (the tiled kernel takes f32, f16, bf16)", raw::type_text(t)));
        }
    }
    let off = rank - 2;
    let (batch, m, k, n) = (if batched { sc[0] } else { 1 }, sc[off], sa[off + 1], sc[off + 1]);
    if sa[off] != m || sb[off] != k || sb[off + 1] != n || (batched && (sa[0] != batch || sb[0] != batch)) {
        return Err(format!("{name} with inconsistent shapes"));
    }
    let (ta, tb) = (element_type(a), element_type(b));
    // SAFETY: `ta` and `tb` are the live element types of A and B.
    let mma = if !target.device.has_mma_sync() || !unsafe { mlirTypeEqual(ta, tb) } {
        None
    // SAFETY: as above: a predicate on the live type `ta`.
    } else if unsafe { mlirTypeIsAF16(ta) } {
        Some(MmaElem::F16)
    // SAFETY: as above.
    } else if unsafe { mlirTypeIsABF16(ta) } {
        Some(MmaElem::Bf16)
    } else {
        None
    };
    let wgmma = mma.is_some() && target.device.has_wgmma();
    // Every kernel tiles C in BM×BN blocks (open_tile_launch's grid).
    let g = grid(batch, m, n);
    let (shared, threads) = match mma {
        Some(_) if wgmma => (super::emit_gemm_wgmma::shared_bytes(), super::emit_gemm_wgmma::THREADS),
        Some(_) => (super::emit_gemm_mma::shared_bytes(), super::emit_gemm_mma::THREADS),
        None => (shared_bytes(), THREADS),
    };
    if g[1] > 65535 || g[2] > 65535 || g[0] > i32::MAX as i64 {
        return Err(format!("{name}: grid {g:?} beyond the launch limits"));
    }
    let d = &target.device;
    if shared as u64 > d.shared_memory_per_block || threads as u64 > d.max_threads_per_block as u64 {
        return Err(format!("{name}: {shared} B of shared memory and {threads} threads exceed the device's per-block limits"));
    }
    // An empty product leaves C as the fill made it: nothing is folded.
    let empty = batch == 0 || m == 0 || n == 0 || k == 0;
    let fill = if empty { None } else { fill_before(mm, c) };
    let epilogue = if empty { None } else { epilogue_after(mm, c, &sc) };
    Ok(Gemm { a, b, c, batched, batch, m, n, k, mma, wgmma, fill, epilogue })
}

/// The accumulator's initial value at C index `idx` (f32): the folded
/// fill's scalar, else C's element if `ok` (None: always), else 0.
pub(super) fn initial_value(ir: &Ir, g: &Gemm, idx: &[MlirValue], ok: Option<MlirValue>) -> MlirValue {
    match g.fill {
        Some((_, v)) => {
            // SAFETY: `v` is the live scalar of the folded linalg.fill.
            let t = unsafe { mlirValueGetType(v) };
            if is_f32(t) { v } else { ir.b.value("arith.extf", &[v], ir.f32, &[]) }
        }
        None => ir.load_f32_or_zero(g.c, idx, ok),
    }
}

/// Writes the final accumulator `acc` (f32) of C index `idx` (valid, in
/// range) at `b`: through the fused epilogue into its output, else
/// converted to C's type into C.
pub(super) fn store_result(b: Builder, g: &Gemm, idx: &[MlirValue], acc: MlirValue) {
    // SAFETY: `b.ctx` is the live context of the launch being built.
    let f32 = unsafe { mlirF32TypeGet(b.ctx) };
    // SAFETY: as above.
    let i1 = unsafe { mlirIntegerTypeGet(b.ctx, 1) };
    let ir = Ir { b, f32, i1 };
    let c_elem = element_type(g.c);
    let v = if is_f32(c_elem) { acc } else { ir.b.value("arith.truncf", &[acc], c_elem, &[]) };
    let Some(e) = &g.epilogue else {
        ir.store(v, g.c, idx);
        return;
    };
    let block = raw::region_blocks(e.op)[0];
    let mut map = ValueMap::default();
    for (i, (mem, dims)) in e.inputs.iter().enumerate() {
        // SAFETY: `block` is the body of the live epilogue generic, which has one argument per operand; `i` is below the
        // number of inputs.
        let arg = unsafe { mlirBlockGetArgument(block, i as isize) };
        let x = if i == e.acc_input {
            v
        } else {
            let at: Vec<MlirValue> = dims.iter().map(|d| d.map_or_else(|| ir.c(0), |d| idx[d])).collect();
            ir.load(*mem, &at)
        };
        map.insert(arg, x);
    }
    // SAFETY: as above: the output's argument follows the `e.inputs.len()` inputs'.
    let out_arg = unsafe { mlirBlockGetArgument(block, e.inputs.len() as isize) };
    if !raw::uses(out_arg).is_empty() {
        map.insert(out_arg, ir.load(e.out, idx));
    }
    let mut result = None;
    for o in raw::block_ops(block) {
        if raw::name(o) == "linalg.yield" {
            result = raw::operands(o).first().map(|&y| map.map(y));
        } else {
            clone_mapped(&ir.b, o, &mut map);
        }
    }
    if let Some(r) = result {
        ir.store(r, e.out, idx);
    }
}

/// Erases what the launch replaced: the matmul, the folded fill, the
/// fused epilogue and C's temporary.
pub(super) fn erase_replaced(mm: MlirOperation, g: &Gemm) {
    // SAFETY: `mm`, the fill and the epilogue are live, result-less ops on memrefs (the launch replaces them and nothing
    // uses them afterwards); the epilogue's temporary goes last: its deallocations, then its allocation, whose every
    // other user (fill, matmul, generic) is already gone.
    unsafe {
        mlirOperationDestroy(mm);
        if let Some((fill, _)) = g.fill {
            mlirOperationDestroy(fill);
        }
        if let Some(e) = &g.epilogue {
            mlirOperationDestroy(e.op);
            // Deallocations first, then the alloc.
            for &t in e.temp.iter().rev() {
                mlirOperationDestroy(t);
            }
        }
    }
}

/// One dimension of an operand slice staged into workgroup memory
/// ([`Ir::stage`]).
#[derive(Clone, Copy)]
pub(super) struct Span {
    /// The slice's extent.
    pub tile: i64,
    /// Where the slice starts in the operand.
    pub origin: MlirValue,
    /// The operand's extent, and whether the slices divide it (no guard).
    pub dim: i64,
    pub exact: bool,
}

/// Index and float arithmetic at a builder.
pub(super) struct Ir {
    pub b: Builder,
    pub f32: MlirType,
    pub i1: MlirType,
}

impl Ir {
    pub fn c(&self, v: i64) -> MlirValue {
        self.b.index_const(v)
    }
    pub fn add(&self, x: MlirValue, y: MlirValue) -> MlirValue {
        self.b.index_binop("arith.addi", x, y)
    }
    pub fn mul(&self, x: MlirValue, y: MlirValue) -> MlirValue {
        self.b.index_binop("arith.muli", x, y)
    }
    /// `x / d` and `x % d` for a constant `d` (unsigned: indices are ≥ 0).
    pub fn div(&self, x: MlirValue, d: i64) -> MlirValue {
        self.b.index_binop("arith.divui", x, self.c(d))
    }
    pub fn rem(&self, x: MlirValue, d: i64) -> MlirValue {
        self.b.index_binop("arith.remui", x, self.c(d))
    }
    /// `x < bound` (unsigned: every index here is ≥ 0).
    pub fn lt(&self, x: MlirValue, bound: MlirValue) -> MlirValue {
        // SAFETY: `self.b.ctx` is the live context of the launch being built.
        let ult = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.b.ctx, 64), 6) };
        self.b.value("arith.cmpi", &[x, bound], self.i1, &[("predicate", ult)])
    }
    /// Both conditions; None is "always true".
    pub fn and(&self, x: Option<MlirValue>, y: Option<MlirValue>) -> Option<MlirValue> {
        match (x, y) {
            (Some(x), Some(y)) => Some(self.b.value("arith.andi", &[x, y], self.i1, &[])),
            (x, None) => x,
            (None, y) => y,
        }
    }
    /// Index `x` into a dimension of size `dim` ≥ 1 that the tile along it
    /// divides (`exact`) or not: (`x < dim`, or None when it always holds,
    /// and a valid index: `x`, or `min(x, dim - 1)`). With an exact tile
    /// `x` = tile origin + offset ≤ (dim/tile − 1)·tile + tile − 1 = dim − 1.
    pub fn guard(&self, x: MlirValue, dim: i64, exact: bool) -> (Option<MlirValue>, MlirValue) {
        if exact {
            return (None, x);
        }
        let last = self.c(dim - 1);
        (Some(self.lt(x, self.c(dim))), self.b.index_binop("arith.minui", x, last))
    }
    pub fn zero(&self) -> MlirValue {
        // SAFETY: `self.f32` is the f32 type of `self.b.ctx`, a float type as the attribute requires.
        self.b.value("arith.constant", &[], self.f32, &[("value", unsafe { mlirFloatAttrDoubleGet(self.b.ctx, self.f32, 0.0) })])
    }
    pub fn load(&self, mem: MlirValue, idx: &[MlirValue]) -> MlirValue {
        let mut operands = vec![mem];
        operands.extend(idx);
        self.b.value("memref.load", &operands, element_type(mem), &[])
    }
    pub fn store(&self, v: MlirValue, mem: MlirValue, idx: &[MlirValue]) {
        let mut operands = vec![v, mem];
        operands.extend(idx);
        self.b.op("memref.store", &operands, &[], &[]);
    }
    /// `mem[idx]` if `ok` (None: always), else 0, in `mem`'s element type.
    pub fn load_or_zero(&self, mem: MlirValue, idx: &[MlirValue], ok: Option<MlirValue>) -> MlirValue {
        let v = self.load(mem, idx);
        let Some(ok) = ok else { return v };
        let t = element_type(mem);
        // SAFETY: `t` is `mem`'s element type, a float type (`check` accepts f32, f16 and bf16 operands only).
        let z = self.b.value("arith.constant", &[], t, &[("value", unsafe { mlirFloatAttrDoubleGet(self.b.ctx, t, 0.0) })]);
        self.b.value("arith.select", &[ok, v, z], t, &[])
    }
    /// Stages the `rows`×`cols` slice of an operand into workgroup memory
    /// with the block's `threads` threads: element tid + threads·l of the
    /// slice is (tid / cols.tile + l·threads/cols.tile, tid % cols.tile), so
    /// consecutive threads read consecutive words of a row. `load(row, col,
    /// in_range)` reads the operand (valid indices; 0 out of range) and
    /// `store(v, row, col)` places the element by its place in the slice.
    pub fn stage(
        &self,
        tid: MlirValue,
        threads: i64,
        (rows, cols): (Span, Span),
        load: impl Fn(&Ir, MlirValue, MlirValue, Option<MlirValue>) -> MlirValue,
        store: impl Fn(&Ir, MlirValue, MlirValue, MlirValue),
    ) {
        let (col, row0) = (self.rem(tid, cols.tile), self.div(tid, cols.tile));
        let (col_ok, gcol) = self.guard(self.add(cols.origin, col), cols.dim, cols.exact);
        for l in 0..(rows.tile * cols.tile / threads) {
            let row = self.add(row0, self.c(l * (threads / cols.tile)));
            let (row_ok, grow) = self.guard(self.add(rows.origin, row), rows.dim, rows.exact);
            let v = load(self, grow, gcol, self.and(row_ok, col_ok));
            store(self, v, row, col);
        }
    }
    /// `mem[idx]` in f32 if `ok` (None: always), else 0.0; `idx` is valid.
    pub fn load_f32_or_zero(&self, mem: MlirValue, idx: &[MlirValue], ok: Option<MlirValue>) -> MlirValue {
        let v = self.load(mem, idx);
        let v = if is_f32(element_type(mem)) { v } else { self.b.value("arith.extf", &[v], self.f32, &[]) };
        let Some(ok) = ok else { return v };
        let z = self.zero();
        self.b.value("arith.select", &[ok, v, z], self.f32, &[])
    }
}

impl Gemm {
    /// An index into A, B or C: the batch block id first when batched.
    /// The M, N and K spans of the block tile at (`m0`, `n0`) and the K
    /// step at `k0` ([`Ir::stage`]); `bk` is the kernel's K step.
    pub fn spans(&self, (m0, n0, k0): (MlirValue, MlirValue, MlirValue), bk: i64) -> (Span, Span, Span) {
        let span = |tile: i64, origin, dim: i64| Span { tile, origin, dim, exact: dim % tile == 0 };
        (span(BM, m0, self.m), span(BN, n0, self.n), span(bk, k0, self.k))
    }
    pub fn at(&self, bz: MlirValue, rest: &[MlirValue]) -> Vec<MlirValue> {
        self.batched.then_some(bz).into_iter().chain(rest.iter().copied()).collect()
    }
}

/// What every GEMM kernel starts from: its launch (`grid`, `threads` per
/// block, the A and B tiles in workgroup memory), the block and thread ids,
/// and the block tile's origin (`m0`, `n0`).
pub(super) struct TileLaunch {
    pub launch: MlirOperation,
    pub ir: Ir,
    pub bz: MlirValue,
    pub tid: MlirValue,
    pub a_s: MlirValue,
    pub b_s: MlirValue,
    pub m0: MlirValue,
    pub n0: MlirValue,
}

/// Opens the launch that replaces `mm` (entry `F_gemmI` in the fusion's
/// gpu.module, apart from emit-kernels' `F_kI`), with workgroup buffers of
/// `tiles` (shape, element type) for A and B. None, with `mm` erased, when
/// the product is empty (nothing to add to C).
pub(super) fn open_tile_launch(
    mm: MlirOperation,
    g: &Gemm,
    index: usize,
    threads: i64,
    tiles: [(&[i64], MlirType); 2],
) -> Result<Option<TileLaunch>, PassFailure> {
    // SAFETY: `mm` is a live op in its kernel function's entry block, so it has a block, and that block a parent.
    let f = unsafe { mlirBlockGetParentOperation(mlirOperationGetBlock(mm)) };
    let function = raw::str_attr(f, "sym_name").unwrap_or_default();
    if g.m == 0 || g.n == 0 || g.k == 0 || g.batch == 0 {
        erase_replaced(mm, g);
        return Ok(None);
    }
    let b = Builder::before(mm);
    let [a_tile, b_tile] = tiles;
    let shared = [workgroup_memref(&b, a_tile.0, a_tile.1)?, workgroup_memref(&b, b_tile.0, b_tile.1)?];
    let (launch, inner) =
        named_launch(mm, grid(g.batch, g.m, g.n), [threads, 1, 1], &shared, &function, &format!("{function}_gemm{index}"));
    let (bx, by, bz, tid) = (region_arg(launch, 0, 0), region_arg(launch, 0, 1), region_arg(launch, 0, 2), region_arg(launch, 0, 3));
    let (a_s, b_s) = (region_arg(launch, 0, 12), region_arg(launch, 0, 13));
    // SAFETY: `b.ctx` is the live context of `mm`'s function.
    let (f32, i1) = unsafe { (mlirF32TypeGet(b.ctx), mlirIntegerTypeGet(b.ctx, 1)) };
    let ir = Ir { b: inner, f32, i1 };
    // by < ⌈M/64⌉ and bx < ⌈N/64⌉, so m0 < M and n0 < N; the last tile may
    // overhang (M = 1000: by = 15 covers rows 960..1023, 1000..1023 masked).
    let (m0, n0) = (ir.mul(by, ir.c(BM)), ir.mul(bx, ir.c(BN)));
    Ok(Some(TileLaunch { launch, ir, bz, tid, a_s, b_s, m0, n0 }))
}

/// Replaces `mm` by the launch of the tiled kernel.
pub(super) fn emit(mm: MlirOperation, g: &Gemm, index: usize) -> Result<(), PassFailure> {
    // SAFETY: `mm` is the live matmul being replaced.
    let f32 = unsafe { mlirF32TypeGet(mlirOperationGetContext(mm)) };
    let Some(TileLaunch { launch, ir, bz, tid, a_s, b_s, m0, n0 }) =
        open_tile_launch(mm, g, index, THREADS, [(&[BK, BM + A_PAD], f32), (&[BK, BN], f32)])?
    else {
        return Ok(());
    };
    let (f32, i1) = (ir.f32, ir.i1);
    let (tx_n, ty_m) = (BN / TN, BM / TM); // 16 × 16 threads
    let (tx, ty) = (ir.rem(tid, tx_n), ir.div(tid, tx_n));
    // Which dimensions the tile divides (no bounds checks along those).
    let (xm, xn) = (g.m % BM == 0, g.n % BN == 0);
    let with_batch = |rest: &[MlirValue]| g.at(bz, rest);
    // The thread's accumulator rows `m0 + ty + 16i` and columns `n0 + tx + 16j`.
    let rows: Vec<MlirValue> = (0..TM).map(|i| ir.add(m0, ir.add(ty, ir.c(ty_m * i)))).collect();
    let cols: Vec<MlirValue> = (0..TN).map(|j| ir.add(n0, ir.add(tx, ir.c(tx_n * j)))).collect();
    let rows_g: Vec<_> = rows.iter().map(|&r| ir.guard(r, g.m, xm)).collect();
    let cols_g: Vec<_> = cols.iter().map(|&c| ir.guard(c, g.n, xn)).collect();
    // Accumulators from C (0 where out of range: never stored).
    let mut init = Vec::new();
    for (row_ok, row) in &rows_g {
        for (col_ok, col) in &cols_g {
            let ok = ir.and(*row_ok, *col_ok);
            init.push(initial_value(&ir, g, &with_batch(&[*row, *col]), ok));
        }
    }
    // K slices: k0 = 0, 16, ... < K, ⌈K/16⌉ iterations (K = 1: one; K = 1000:
    // 63, the last with k0 = 992 and columns 992..999 in range). Uniform for
    // every thread of the block, so all of them reach both barriers.
    let (kloop, kb, k0, accs) = create_for(&ir.b, ir.c(0), ir.c(g.k), ir.c(BK), &init);
    let kir = Ir { b: kb, f32, i1 };
    // Stage A (64×16, stored transposed as As[k][m]): 16 consecutive threads
    // read 16 consecutive words of a row of A. Stage B (16×64): a warp reads
    // 32 consecutive words of a row of B and writes a row of Bs.
    let (m, n, k) = g.spans((m0, n0, k0), BK);
    kir.stage(
        tid,
        THREADS,
        (m, k),
        |ir, r, c, ok| ir.load_f32_or_zero(g.a, &with_batch(&[r, c]), ok),
        |ir, v, r, c| ir.store(v, a_s, &[c, r]),
    );
    kir.stage(
        tid,
        THREADS,
        (k, n),
        |ir, r, c, ok| ir.load_f32_or_zero(g.b, &with_batch(&[r, c]), ok),
        |ir, v, r, c| ir.store(v, b_s, &[r, c]),
    );
    kir.b.op("gpu.barrier", &[], &[], &[]);
    // Compute: for k < 16, acc[i][j] += As[k][ty + 16i] · Bs[k][tx + 16j].
    let (inner_loop, ib, k, iaccs) = create_for(&kir.b, kir.c(0), kir.c(BK), kir.c(1), &accs);
    let iir = Ir { b: ib, f32, i1 };
    let a_vals: Vec<MlirValue> = (0..TM).map(|i| iir.load(a_s, &[k, iir.add(ty, iir.c(ty_m * i))])).collect();
    let b_vals: Vec<MlirValue> = (0..TN).map(|j| iir.load(b_s, &[k, iir.add(tx, iir.c(tx_n * j))])).collect();
    let mut next = Vec::new();
    for i in 0..TM as usize {
        for j in 0..TN as usize {
            next.push(iir.b.value("math.fma", &[a_vals[i], b_vals[j], iaccs[i * TN as usize + j]], f32, &[]));
        }
    }
    set_yield(&ib, &next);
    // The next slice overwrites As/Bs: everyone must be done reading.
    kir.b.op("gpu.barrier", &[], &[], &[]);
    let inner_results = raw::results(inner_loop);
    set_yield(&kb, &inner_results);
    // Store the in-range accumulators (rows/cols are valid where `ok` holds).
    let finals = raw::results(kloop);
    for (i, (row_ok, row)) in rows_g.iter().enumerate() {
        for (j, (col_ok, col)) in cols_g.iter().enumerate() {
            let tb = match ir.and(*row_ok, *col_ok) {
                Some(ok) => create_if(&ir.b, ok),
                None => ir.b,
            };
            store_result(tb, g, &with_batch(&[*row, *col]), finals[i * TN as usize + j]);
        }
    }
    erase_replaced(mm, g);
    // Views and constants the launch uses from outside go inside it.
    super::kernel_body::finish_launch(launch)
}
