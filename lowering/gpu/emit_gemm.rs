//! `floors-gpu-emit-gemm`: the GPU floor's own tiled GEMM. In a kernel
//! function whose fusion is a `gemm` (`floors.kind = #floors.kind<gemm>`,
//! the fusions `floors-gpu-select-emitter` gives the `gemm` emitter), each
//! top-level `linalg.matmul` / `linalg.batch_matmul` on memrefs (right after
//! bufferization, before `convert-linalg-to-parallel-loops`) becomes one
//! `gpu.launch` of a shared-memory tiled kernel; the rest of the function
//! (the fill before it, epilogue generics after it) is left to
//! `floors-gpu-emit-kernels`, whose launches keep program order around it.
//!
//! **The tiling (SIMT, every chip).** A block of 256 threads computes a
//! BM×BN = 64×64 tile of C, stepping over K in BK = 16 slices; grid =
//! (⌈N/64⌉, ⌈M/64⌉, batch). Thread `t` has `tx = t % 16`, `ty = t / 16` and
//! a 4×4 register tile of f32 accumulators: rows `ty + 16·i`, columns
//! `tx + 16·j` (i, j < 4) of the block tile — strided rather than
//! contiguous so a half-warp's C accesses and B-tile reads touch 16
//! consecutive words. Accumulators start from C's value in memory (the fill
//! ran before: `C += A·B` is linalg's semantics). Per K slice:
//! 1. every thread loads 4 elements of the A slice (64×16) and 4 of the B
//!    slice (16×64) from global memory — consecutive threads read
//!    consecutive addresses of a row (coalesced) — converts them to f32 and
//!    stores them to workgroup memory: A transposed as `As[k][m]`
//!    (16×66 f32), B as `Bs[k][n]` (16×64 f32);
//! 2. `gpu.barrier`;
//! 3. 16 steps of 4 + 4 shared-memory reads and 16 FMAs;
//! 4. `gpu.barrier` (the next slice overwrites the tiles).
//!
//! Then each in-range accumulator is stored (truncated to C's type).
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
//! shapes, other element types, non-default indexing maps, a grid beyond
//! the launch limits, a function with serial code that needs the
//! single-block codegen) stays on the generic path, and the function's
//! `floors.gpu_codegen` says `gemm fallback (REASON)`; a taken one is
//! recorded as `gemm(simt 64x64x16, 4x4 per thread)` (then
//! `floors-gpu-emit-kernels` appends its strategy for the rest).
//!
//! Not done: tensor cores (`nvgpu.mma.sync` for f16/bf16 on sm_80+),
//! vectorized or asynchronous (`cp.async`) copies, double buffering.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::{
    builder::{Builder, region_arg},
    launch::{create_for, memref_shape, named_launch, set_yield, workgroup_memref},
};
use crate::{
    contract::{GPU_CODEGEN_ATTR, KERNEL_ATTR},
    ir::raw::{self, sref},
    pass::{FloorsPass, PassFailure},
    target::GpuTarget,
};

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

#[derive(Clone, Default)]
pub struct GpuEmitGemm;

impl FloorsPass for GpuEmitGemm {
    const ARGUMENT: &'static str = "floors-gpu-emit-gemm";
    const NAME: &'static str = "FloorsGpuEmitGemm";
    const DESCRIPTION: &'static str =
        "Replace the linalg.matmul/batch_matmul of gemm kernels (on memrefs) by gpu.launch ops of a shared-memory tiled GEMM";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![DialectHandle::gpu(), DialectHandle::scf(), DialectHandle::arith(), DialectHandle::memref(), unsafe {
            DialectHandle::from_raw(mlirGetDialectHandle__math__())
        }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let target = super::required_target(root)?;
        for b in raw::region_blocks(root) {
            for f in raw::block_ops(b) {
                if raw::name(f) == "func.func" && raw::attr(f, KERNEL_ATTR).is_some() && super::kernel_kind_is(f, "gemm") {
                    emit_function(f, &target)?;
                }
            }
        }
        Ok(())
    }
}

/// A matmul the tiled kernel takes: operands, sizes, element types.
struct Gemm {
    a: MlirValue,
    b: MlirValue,
    c: MlirValue,
    batched: bool,
    batch: i64,
    m: i64,
    n: i64,
    k: i64,
}

fn set_codegen(f: MlirOperation, text: &str) {
    unsafe { mlirOperationSetAttributeByName(f, sref(GPU_CODEGEN_ATTR), mlirStringAttrGet(mlirOperationGetContext(f), sref(text))) };
}

fn emit_function(f: MlirOperation, target: &GpuTarget) -> Result<(), PassFailure> {
    let Some(&entry) = raw::region_blocks(f).first() else { return Ok(()) };
    let ops = raw::block_ops(entry);
    let matmuls: Vec<MlirOperation> =
        ops.iter().copied().filter(|&o| matches!(raw::name(o).as_str(), "linalg.matmul" | "linalg.batch_matmul")).collect();
    if matmuls.is_empty() {
        let linalg: Vec<String> = ops.iter().map(|&o| raw::name(o)).filter(|n| n.starts_with("linalg.") && n != "linalg.fill").collect();
        set_codegen(
            f,
            &format!(
                "gemm fallback (the dot was lowered to {} (non-canonical dimension numbers, or f16/bf16 accumulating in f32), not linalg.matmul/batch_matmul)",
                linalg.join(", ")
            ),
        );
        return Ok(());
    }
    // The rest must go through floors-gpu-emit-kernels' grid-stride path
    // (every op a loop nest after convert-linalg-to-parallel-loops): its
    // single-block path would move serial code and the fill into one launch
    // after ours.
    let serial = ops.iter().copied().find(|&o| {
        let n = raw::name(o);
        // A generic whose outermost loop is not parallel (a reduction, a
        // 0-d op) becomes serial loops, not an scf.parallel nest; so may a
        // linalg.reduce.
        let loops_parallel = match n.as_str() {
            "linalg.generic" => crate::lowering::linalg::maps::parallel_iterators(o).is_some_and(|p| p.first() == Some(&true)),
            "linalg.reduce" => false,
            _ => true,
        };
        !(n.starts_with("linalg.") && loops_parallel
            || matches!(
                n.as_str(),
                "arith.constant"
                    | "memref.alloc"
                    | "memref.dealloc"
                    | "memref.copy"
                    | "memref.subview"
                    | "memref.expand_shape"
                    | "memref.collapse_shape"
                    | "memref.cast"
                    | "memref.reinterpret_cast"
                    | "memref.get_global"
                    | "func.return"
            ))
    });
    let mut taken = 0;
    let mut reasons = Vec::new();
    for (i, &mm) in matmuls.iter().enumerate() {
        let plan = match serial {
            Some(s) => Err(format!("the kernel holds serial code ('{}'): single-block codegen", raw::name(s))),
            None => check(mm, target),
        };
        match plan {
            Ok(g) => {
                emit(mm, &g, i)?;
                taken += 1;
            }
            Err(r) => reasons.push(r),
        }
    }
    let mut text = String::new();
    if taken > 0 {
        text.push_str(PLAN);
        if taken > 1 {
            text.push_str(&format!(" x{taken}"));
        }
    }
    if !reasons.is_empty() {
        if !text.is_empty() {
            text.push_str(", ");
        }
        text.push_str(&format!("gemm fallback ({})", reasons.join("; ")));
    }
    set_codegen(f, &text);
    Ok(())
}

fn element_type(v: MlirValue) -> MlirType {
    unsafe { mlirShapedTypeGetElementType(mlirValueGetType(v)) }
}

fn is_f32(t: MlirType) -> bool {
    unsafe { mlirTypeIsAF32(t) }
}

fn is_supported_float(t: MlirType) -> bool {
    unsafe { mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t) }
}

/// The matmul as a [`Gemm`], or why the tiled kernel does not take it.
fn check(mm: MlirOperation, target: &GpuTarget) -> Result<Gemm, String> {
    let name = raw::name(mm);
    let batched = name == "linalg.batch_matmul";
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
    if !crate::lowering::linalg::maps::is_plain_matmul(mm) {
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
    let g = grid(batch, m, n);
    if g[1] > 65535 || g[2] > 65535 || g[0] > i32::MAX as i64 {
        return Err(format!("{name}: grid {g:?} beyond the launch limits"));
    }
    let d = &target.device;
    if shared_bytes() as u64 > d.shared_memory_per_block || THREADS as u64 > d.max_threads_per_block as u64 {
        return Err(format!("{name}: {} B of shared memory and {THREADS} threads exceed the device's per-block limits", shared_bytes()));
    }
    Ok(Gemm { a, b, c, batched, batch, m, n, k })
}

/// Index and float arithmetic at a builder.
struct Ir {
    b: Builder,
    f32: MlirType,
    i1: MlirType,
}

impl Ir {
    fn c(&self, v: i64) -> MlirValue {
        self.b.index_const(v)
    }
    fn add(&self, x: MlirValue, y: MlirValue) -> MlirValue {
        self.b.index_binop("arith.addi", x, y)
    }
    fn mul(&self, x: MlirValue, y: MlirValue) -> MlirValue {
        self.b.index_binop("arith.muli", x, y)
    }
    /// `x < bound` (unsigned: every index here is ≥ 0).
    fn lt(&self, x: MlirValue, bound: MlirValue) -> MlirValue {
        let ult = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.b.ctx, 64), 6) };
        self.b.value("arith.cmpi", &[x, bound], self.i1, &[("predicate", ult)])
    }
    /// Both conditions; None is "always true".
    fn and(&self, x: Option<MlirValue>, y: Option<MlirValue>) -> Option<MlirValue> {
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
    fn guard(&self, x: MlirValue, dim: i64, exact: bool) -> (Option<MlirValue>, MlirValue) {
        if exact {
            return (None, x);
        }
        let last = self.c(dim - 1);
        (Some(self.lt(x, self.c(dim))), self.b.index_binop("arith.minui", x, last))
    }
    fn zero(&self) -> MlirValue {
        self.b.value("arith.constant", &[], self.f32, &[("value", unsafe { mlirFloatAttrDoubleGet(self.b.ctx, self.f32, 0.0) })])
    }
    fn load(&self, mem: MlirValue, idx: &[MlirValue]) -> MlirValue {
        let mut operands = vec![mem];
        operands.extend(idx);
        self.b.value("memref.load", &operands, element_type(mem), &[])
    }
    fn store(&self, v: MlirValue, mem: MlirValue, idx: &[MlirValue]) {
        let mut operands = vec![v, mem];
        operands.extend(idx);
        self.b.op("memref.store", &operands, &[], &[]);
    }
    /// `mem[idx]` in f32 if `ok` (None: always), else 0.0; `idx` is valid.
    fn load_f32_or_zero(&self, mem: MlirValue, idx: &[MlirValue], ok: Option<MlirValue>) -> MlirValue {
        let v = self.load(mem, idx);
        let v = if is_f32(element_type(mem)) { v } else { self.b.value("arith.extf", &[v], self.f32, &[]) };
        let Some(ok) = ok else { return v };
        let z = self.zero();
        self.b.value("arith.select", &[ok, v, z], self.f32, &[])
    }
}

/// Replaces `mm` by the launch of the tiled kernel.
fn emit(mm: MlirOperation, g: &Gemm, index: usize) -> Result<(), PassFailure> {
    let f = unsafe { mlirBlockGetParentOperation(mlirOperationGetBlock(mm)) };
    let function = raw::attr(f, "sym_name").map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) })).unwrap_or_default();
    if g.m == 0 || g.n == 0 || g.k == 0 || g.batch == 0 {
        // Nothing to add to C.
        unsafe { mlirOperationDestroy(mm) };
        return Ok(());
    }
    let b = Builder::before(mm);
    let ctx = b.ctx;
    let f32 = unsafe { mlirF32TypeGet(ctx) };
    let as_t = workgroup_memref(&b, &[BK, BM + A_PAD], f32);
    let bs_t = workgroup_memref(&b, &[BK, BN], f32);
    // Two workgroup attributions, named into the fusion's gpu.module
    // (entries `F_gemmI`, apart from emit-kernels' `F_kI`).
    let (launch, inner) =
        named_launch(mm, grid(g.batch, g.m, g.n), [THREADS, 1, 1], &[as_t, bs_t], &function, &format!("{function}_gemm{index}"));
    let (bx, by, bz, tid) = (region_arg(launch, 0, 0), region_arg(launch, 0, 1), region_arg(launch, 0, 2), region_arg(launch, 0, 3));
    let (a_s, b_s) = (region_arg(launch, 0, 12), region_arg(launch, 0, 13));
    let i1 = unsafe { mlirIntegerTypeGet(ctx, 1) };
    let ir = Ir { b: inner, f32, i1 };
    let (tx_n, ty_m) = (BN / TN, BM / TM); // 16 × 16 threads
    let tx = ir.b.index_binop("arith.remui", tid, ir.c(tx_n));
    let ty = ir.b.index_binop("arith.divui", tid, ir.c(tx_n));
    // Tile origin. by < ⌈M/64⌉ and bx < ⌈N/64⌉, so m0 < M and n0 < N; the
    // last tile may overhang (M = 1000: by = 15 covers rows 960..1023,
    // 1000..1023 masked; M = 1 or 17: one tile, rows ≥ M masked).
    let m0 = ir.mul(by, ir.c(BM));
    let n0 = ir.mul(bx, ir.c(BN));
    // Which dimensions the tile divides (no bounds checks along those).
    let (xm, xn, xk) = (g.m % BM == 0, g.n % BN == 0, g.k % BK == 0);
    let batch_idx: Vec<MlirValue> = if g.batched { vec![bz] } else { vec![] };
    let with_batch = |rest: &[MlirValue]| -> Vec<MlirValue> {
        let mut v = batch_idx.clone();
        v.extend(rest);
        v
    };
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
            init.push(ir.load_f32_or_zero(g.c, &with_batch(&[*row, *col]), ok));
        }
    }
    // K slices: k0 = 0, 16, ... < K, ⌈K/16⌉ iterations (K = 1: one; K = 1000:
    // 63, the last with k0 = 992 and columns 992..999 in range). Uniform for
    // every thread of the block, so all of them reach both barriers.
    let (kloop, kb, k0, accs) = create_for(&ir.b, ir.c(0), ir.c(g.k), ir.c(BK), &init);
    let kir = Ir { b: kb, f32, i1 };
    // Stage A: element e = tid + 256·l of the 64×16 slice is row e / 16 =
    // tid / 16 + 16·l, column e % 16 = tid % 16 (256 is a multiple of 16);
    // 16 consecutive threads read 16 consecutive words of a row of A.
    let (a_tx, a_ty) = (kir.b.index_binop("arith.remui", tid, kir.c(BK)), kir.b.index_binop("arith.divui", tid, kir.c(BK)));
    let (gk_a_ok, gk_a) = kir.guard(kir.add(k0, a_tx), g.k, xk);
    for l in 0..(BM * BK / THREADS) {
        let r = kir.add(a_ty, kir.c(l * (THREADS / BK)));
        let (gm_ok, gm) = kir.guard(kir.add(m0, r), g.m, xm);
        let v = kir.load_f32_or_zero(g.a, &with_batch(&[gm, gk_a]), kir.and(gm_ok, gk_a_ok));
        kir.store(v, a_s, &[a_tx, r]);
    }
    // Stage B: element e = tid + 256·l of the 16×64 slice is row e / 64 =
    // tid / 64 + 4·l, column e % 64 = tid % 64; a warp reads 32 consecutive
    // words of a row of B and writes 32 consecutive words of a row of Bs.
    let (b_tx, b_ty) = (kir.b.index_binop("arith.remui", tid, kir.c(BN)), kir.b.index_binop("arith.divui", tid, kir.c(BN)));
    let (gn_b_ok, gn_b) = kir.guard(kir.add(n0, b_tx), g.n, xn);
    for l in 0..(BK * BN / THREADS) {
        let r = kir.add(b_ty, kir.c(l * (THREADS / BN)));
        let (gk_ok, gk) = kir.guard(kir.add(k0, r), g.k, xk);
        let v = kir.load_f32_or_zero(g.b, &with_batch(&[gk, gn_b]), kir.and(gk_ok, gn_b_ok));
        kir.store(v, b_s, &[r, b_tx]);
    }
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
    let c_elem = element_type(g.c);
    let finals = raw::results(kloop);
    for (i, (row_ok, row)) in rows_g.iter().enumerate() {
        for (j, (col_ok, col)) in cols_g.iter().enumerate() {
            let tb = match ir.and(*row_ok, *col_ok) {
                Some(ok) => {
                    let if_op = ir.b.op_regions("scf.if", &[ok], &[], &[], &[Some(vec![]), None]);
                    ir.b.into_region(if_op, 0, "scf.yield")
                }
                None => ir.b,
            };
            let mut v = finals[i * TN as usize + j];
            if !is_f32(c_elem) {
                v = tb.value("arith.truncf", &[v], c_elem, &[]);
            }
            let tir = Ir { b: tb, f32, i1 };
            tir.store(v, g.c, &with_batch(&[*row, *col]));
        }
    }
    unsafe { mlirOperationDestroy(mm) };
    // Views and constants the launch uses from outside go inside it.
    super::gpu_emit_kernels::finish_launch(launch)
}
