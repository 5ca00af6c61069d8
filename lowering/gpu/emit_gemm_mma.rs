//! The tensor-core kernel of `floors-gpu-emit-gemm`: f16/bf16 operands, f32
//! accumulation, `mma.sync.m16n8k16` (sm_80 and sm_90). Not a pass: the
//! pass ([`super::emit_gemm`]) picks it for a matmul whose A and B are both
//! f16 or both bf16 on a chip with `mma.sync` but no wgmma; f32 and mixed
//! operands keep the SIMT kernel.
//!
//! **Tiling.** A block of 128 threads (4 warps) computes a BM×BN = 64×64
//! tile of C, stepping over K in BK = 32 slices; grid = (⌈N/64⌉, ⌈M/64⌉,
//! batch). The warps form a 2×2 grid: warp `w` (`w = tid / 32`) owns the
//! 32×32 sub-tile at rows `32·(w / 2)`, columns `32·(w % 2)`, i.e. 2 × 4
//! mma tiles of 16×8 with one `vector<2x2xf32>` accumulator each (32 f32
//! registers per thread). Per K slice:
//! 1. every thread copies 16 elements of the A slice (64×32, row-major
//!    `As[m][k]`, rows padded to 40 elements) and 16 of the B slice (32×64,
//!    `Bs[k][n]`, rows padded to 72) from global to workgroup memory,
//!    unconverted; 32 consecutive threads read 32 (A) or 64 (B) consecutive
//!    elements of a row;
//! 2. `gpu.barrier`;
//! 3. for each of the two k16 steps: 2 `nvgpu.ldmatrix` x4 (A fragments),
//!    4 `nvgpu.ldmatrix` x2 `.trans` (B fragments), 8 mma;
//! 4. `gpu.barrier`.
//!
//! **Fragments** (PTX ISA, "Matrix Fragments for mma.m16n8k16 with floating
//! point type"; lane `l`, `g = l / 4`, `t = l % 4`). MLIR's operand vectors
//! list the registers in order, each register a row of the vector:
//! - A (16×16, row-major), `vector<4x2xT>`: register `i` holds
//!   `A[g + 8·(i % 2)][2t + 8·(i / 2) + {0, 1}]`;
//! - B (16×8, "col": k-pairs), `vector<2x2xT>`: register `i` holds
//!   `B[2t + 8·i + {0, 1}][g]`;
//! - C/D (16×8 f32), `vector<2x2xf32>`: row `r` holds `C[g + 8r][2t + {0, 1}]`.
//!
//! `ldmatrix` x4 loads four 8×8 matrices; lane `l` gives the address of row
//! `l % 8` of matrix `l / 8` and receives, per matrix, elements
//! `[l / 4][2·(l % 4) + {0, 1}]` (with `.trans`, `[2·(l % 4) + {0, 1}][l / 4]`).
//! So the A fragment of the 16×16 tile at (r0, k0) is x4 with lane `l`
//! addressing `As[r0 + l % 16][k0 + 8·(l / 16)]` (matrices: rows 0–7 and
//! 8–15 at k0, then at k0 + 8 — registers 0..3 above), and the B fragment
//! of the 16×8 tile at (k0, n0) is x2 `.trans` with lane `l` addressing
//! `Bs[k0 + l % 16][n0]` (lanes 16–31 repeat valid addresses; x2 reads
//! only lanes 0–15). The accumulator of mma tile (i, j) of warp (wm, wn),
//! element (r, c), is C row `m0 + 32wm + 16i + g + 8r`, column
//! `n0 + 32wn + 8j + 2t + c`.
//!
//! **Alignment and banks.** ldmatrix rows are 16-byte aligned: row strides
//! of 80 and 144 bytes, column offsets multiples of 8 elements, and
//! `floors-gpu-record-kernels` aligns the workgroup buffers of a kernel
//! with `nvgpu.ldmatrix` to 16 bytes. The 8 row addresses of one matrix
//! start at `80·r mod 128` = 0, 80, 32, 112, 64, 16, 96, 48 (A) and
//! `144·r mod 128 = 16r` (B): eight distinct 16-byte bank groups, so the
//! fragment loads are conflict-free.
//!
//! **Bounds** as in the SIMT kernel: out-of-range A/B elements are read at
//! a clamped index and replaced by 0 before they reach workgroup memory
//! (so `k ≥ K` contributes `0·0`), out-of-range C elements are not stored;
//! every thread runs every K iteration (uniform bounds, all reach both
//! barriers, and `mma.sync` / `ldmatrix` are executed by full warps).
//!
//! **bf16.** MLIR 22's `nvgpu.mma.sync` lowering deduces no PTX type for
//! bf16 ("failed to deduce operand PTX types"), so bf16 tiles call
//! `nvvm.mma.sync` directly on the same fragments (each register's two
//! bf16 reinterpreted as one i32) and rebuild the accumulator vector.
//!
//! Shared memory: 9728 bytes. On sm_90a the same matmuls take
//! [`super::emit_gemm_wgmma`] instead. Not done: `cp.async` copies and
//! double buffering, vectorized global loads.

use mlir_sys::*;

use super::{
    builder::Builder,
    gemm::{BM, BN, Gemm, Ir, MmaElem, TileLaunch, element_type, erase_replaced, initial_value, open_tile_launch, store_result},
    launch::{create_for, create_if, set_yield, vector_extract as extract},
};
use floors_ir::{ir::raw, pass::PassFailure};

/// K slice per shared-memory stage.
pub const BK: i64 = 32;
/// Warps along M and N (each owns a 32×32 sub-tile).
const WARPS_M: i64 = 2;
const WARPS_N: i64 = 2;
/// Threads per block.
pub const THREADS: i64 = WARPS_M * WARPS_N * 32;
/// Rows of 16 (A) and columns of 8 (B) mma tiles per warp.
const TILES_M: i64 = BM / WARPS_M / 16;
const TILES_N: i64 = BN / WARPS_N / 8;
/// Padding (elements) of a workgroup row: keeps ldmatrix rows 16-byte
/// aligned and spreads them over the banks (module doc).
const PAD: i64 = 8;

const _: () = assert!(THREADS == 128 && (BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0 && THREADS % BK == 0 && THREADS % BN == 0);
const _: () = assert!(BK % 16 == 0 && TILES_M == 2 && TILES_N == 4);

/// The plan as `floors.gpu_codegen` records it.
pub fn plan(e: MmaElem) -> String {
    format!("gemm(mma.sync m16n8k16 {}, 64x64x32, 4 warps)", e.name())
}

/// Workgroup memory of one block, in bytes (2-byte elements).
pub const fn shared_bytes() -> i64 {
    (BM * (BK + PAD) + BK * (BN + PAD)) * 2
}

/// `!llvm.struct<(f32, ...)>` of `n` fields: what an mma accumulates into.
fn f32_struct(ctx: MlirContext, n: usize) -> MlirType {
    // SAFETY: `ctx` is live; f32 fields are always valid LLVM struct fields.
    unsafe {
        let fields = vec![mlirF32TypeGet(ctx); n];
        mlirLLVMStructTypeLiteralGet(ctx, n as isize, fields.as_ptr(), false)
    }
}

/// `vector.insert x, v[pos]`.
fn insert(b: &Builder, x: MlirValue, v: MlirValue, pos: &[i64]) -> MlirValue {
    // SAFETY: `v` is a live vector value built at `b`.
    b.value("vector.insert", &[x, v], unsafe { mlirValueGetType(v) }, &[("static_position", b.i64_array(pos))])
}

/// The zero `vector<2x2xf32>`.
fn zero_acc(b: &Builder, acc_t: MlirType) -> MlirValue {
    // SAFETY: `acc_t` is `vector<2x2xf32>` (both callers), a shaped type of f32 elements as a float splat requires.
    let z = unsafe { mlirDenseElementsAttrFloatSplatGet(acc_t, 0.0) };
    b.value("arith.constant", &[], acc_t, &[("value", z)])
}

/// `nvgpu.ldmatrix mem[row, col]` of `tiles` 8×8 matrices.
fn ldmatrix(b: &Builder, mem: MlirValue, row: MlirValue, col: MlirValue, tiles: i64, transpose: bool) -> MlirValue {
    let t = b.vector(&[tiles, 2], element_type(mem));
    // SAFETY: `b.ctx` is the live context the kernel is built in; the attribute is interned there.
    let n = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(b.ctx, 32), tiles) };
    b.value("nvgpu.ldmatrix", &[mem, row, col], t, &[("numTiles", n), ("transpose", b.bool_attr(transpose))])
}

/// The attributes of the bf16 `nvvm.mma.sync` (m16n8k16, A row-major, B
/// column-major).
#[derive(Clone, Copy)]
struct MmaAttrs {
    row: MlirAttribute,
    col: MlirAttribute,
    bf16: MlirAttribute,
    shape: MlirAttribute,
}

impl MmaAttrs {
    /// None if one of them cannot be built.
    fn new(ctx: MlirContext) -> Option<Self> {
        use floors_ir::attrs::nvvm::*;
        Some(Self {
            row: mma_layout(ctx, MmaLayout::Row)?,
            col: mma_layout(ctx, MmaLayout::Col)?,
            bf16: mma_type(ctx, MmaType::Bf16)?,
            shape: mma_shape(ctx, 16, 8, 16)?,
        })
    }
}

/// `d = a·b + c` on one m16n8k16 tile.
fn mma(b: &Builder, e: MmaElem, attrs: MmaAttrs, a: MlirValue, bf: MlirValue, c: MlirValue) -> MlirValue {
    // SAFETY: `c` is a live accumulator value (a `vector<2x2xf32>`) of the kernel being built.
    let acc_t = unsafe { mlirValueGetType(c) };
    if e == MmaElem::F16 {
        // SAFETY: `b.ctx` is live; `dims` holds `dims.len()` attributes of it and outlives the call that copies it.
        let shape = unsafe {
            let i64t = mlirIntegerTypeGet(b.ctx, 64);
            let dims = [16, 8, 16].map(|d| mlirIntegerAttrGet(i64t, d));
            mlirArrayAttrGet(b.ctx, dims.len() as isize, dims.as_ptr())
        };
        return b.value("nvgpu.mma.sync", &[a, bf, c], acc_t, &[("mmaShape", shape)]);
    }
    // bf16: nvvm.mma.sync on the registers (module doc).
    let ctx = b.ctx;
    // SAFETY: `ctx` is the builder's live context; these getters only intern types.
    let (i32t, f32t, bf16t) = unsafe { (mlirIntegerTypeGet(ctx, 32), mlirF32TypeGet(ctx), mlirBF16TypeGet(ctx)) };
    let (pair, word) = (b.vector(&[2], bf16t), b.vector(&[1], i32t));
    let regs = |v: MlirValue, n: i64| -> Vec<MlirValue> {
        (0..n)
            .map(|r| {
                let p = extract(b, v, &[r], pair);
                let w = b.value("vector.bitcast", &[p], word, &[]);
                extract(b, w, &[0], i32t)
            })
            .collect()
    };
    let mut operands = regs(a, 4);
    operands.extend(regs(bf, 2));
    let cs: Vec<(i64, i64)> = vec![(0, 0), (0, 1), (1, 0), (1, 1)];
    operands.extend(cs.iter().map(|&(r, col)| extract(b, c, &[r, col], f32t)));
    let st = f32_struct(ctx, 4);
    let d = b.value(
        "nvvm.mma.sync",
        &operands,
        st,
        &[
            ("layoutA", attrs.row),
            ("layoutB", attrs.col),
            ("multiplicandAPtxType", attrs.bf16),
            ("multiplicandBPtxType", attrs.bf16),
            ("shape", attrs.shape),
            ("operandSegmentSizes", b.i32_array(&[4, 2, 4])),
        ],
    );
    let mut out = zero_acc(b, acc_t);
    for (i, &(r, col)) in cs.iter().enumerate() {
        let x = b.value("llvm.extractvalue", &[d], f32t, &[("position", b.i64_array(&[i as i64]))]);
        out = insert(b, x, out, &[r, col]);
    }
    out
}

/// Replaces `mm` by the launch of the tensor-core kernel.
pub(super) fn emit(mm: MlirOperation, g: &Gemm, index: usize) -> Result<(), PassFailure> {
    let Some(e) = g.mma else { return Err(floors_ir::pass::fail_at(mm, "internal error: a tensor-core GEMM without its operand type")) };
    let elem = element_type(g.a);
    let Some(TileLaunch { launch, ir, bz, tid, a_s, b_s, m0, n0 }) =
        open_tile_launch(mm, g, index, THREADS, [(&[BM, BK + PAD], elem), (&[BK, BN + PAD], elem)])?
    else {
        return Ok(());
    };
    let (f32, i1) = (ir.f32, ir.i1);
    let attrs =
        MmaAttrs::new(ir.b.ctx).ok_or_else(|| floors_ir::pass::fail_at(mm, "internal error: the mma.sync attributes cannot be built"))?;
    let (warp, lane) = (ir.div(tid, 32), ir.rem(tid, 32));
    let (wm, wn) = (ir.div(warp, WARPS_N), ir.rem(warp, WARPS_N));
    let (gid, tig) = (ir.div(lane, 4), ir.rem(lane, 4));
    // The warp's sub-tile origin inside the block tile.
    let (wr, wc) = (ir.mul(wm, ir.c(BM / WARPS_M)), ir.mul(wn, ir.c(BN / WARPS_N)));
    let (xm, xn) = (g.m % BM == 0, g.n % BN == 0);
    let with_batch = |rest: &[MlirValue]| g.at(bz, rest);
    // rows[i][r] = m0 + wr + 16i + g + 8r; cols[j][c] = n0 + wc + 8j + 2t + c.
    let row_base = ir.add(m0, ir.add(wr, gid));
    let col_base = ir.add(n0, ir.add(wc, ir.mul(tig, ir.c(2))));
    let rows: Vec<[(Option<MlirValue>, MlirValue); 2]> =
        (0..TILES_M).map(|i| [0, 1].map(|r| ir.guard(ir.add(row_base, ir.c(16 * i + 8 * r)), g.m, xm))).collect();
    let cols: Vec<[(Option<MlirValue>, MlirValue); 2]> =
        (0..TILES_N).map(|j| [0, 1].map(|c| ir.guard(ir.add(col_base, ir.c(8 * j + c)), g.n, xn))).collect();
    let acc_t = ir.b.vector(&[2, 2], f32);
    let mut init = Vec::new();
    for row in &rows {
        for col in &cols {
            let mut v = zero_acc(&ir.b, acc_t);
            for (r, (row_ok, rv)) in row.iter().enumerate() {
                for (c, (col_ok, cv)) in col.iter().enumerate() {
                    let x = initial_value(&ir, g, &with_batch(&[*rv, *cv]), ir.and(*row_ok, *col_ok));
                    v = insert(&ir.b, x, v, &[r as i64, c as i64]);
                }
            }
            init.push(v);
        }
    }
    // K slices: ⌈K/32⌉ uniform iterations.
    let (kloop, kb, k0, accs) = create_for(&ir.b, ir.c(0), ir.c(g.k), ir.c(BK), &init);
    let kir = Ir { b: kb, f32, i1 };
    // Stage A (64×32) and B (32×64), row-major, padded rows.
    let (m, n, k) = g.spans((m0, n0, k0), BK);
    kir.stage(tid, THREADS, (m, k), |ir, r, c, ok| ir.load_or_zero(g.a, &with_batch(&[r, c]), ok), |ir, v, r, c| ir.store(v, a_s, &[r, c]));
    kir.stage(tid, THREADS, (k, n), |ir, r, c, ok| ir.load_or_zero(g.b, &with_batch(&[r, c]), ok), |ir, v, r, c| ir.store(v, b_s, &[r, c]));
    kir.b.op("gpu.barrier", &[], &[], &[]);
    // ldmatrix addresses: lane l gives row l % 16, column 8·(l / 16).
    let (l16, l_hi) = (kir.rem(lane, 16), kir.div(lane, 16));
    let a_col_off = kir.mul(l_hi, kir.c(8));
    let mut accs = accs;
    for kk in (0..BK).step_by(16) {
        let a_frags: Vec<MlirValue> = (0..TILES_M)
            .map(|i| {
                let row = kir.add(wr, kir.add(l16, kir.c(16 * i)));
                ldmatrix(&kir.b, a_s, row, kir.add(a_col_off, kir.c(kk)), 4, false)
            })
            .collect();
        let b_row_k = kir.add(l16, kir.c(kk));
        let b_frags: Vec<MlirValue> = (0..TILES_N).map(|j| ldmatrix(&kir.b, b_s, b_row_k, kir.add(wc, kir.c(8 * j)), 2, true)).collect();
        accs = (0..(TILES_M * TILES_N) as usize)
            .map(|t| mma(&kir.b, e, attrs, a_frags[t / TILES_N as usize], b_frags[t % TILES_N as usize], accs[t]))
            .collect();
    }
    // The next slice overwrites As/Bs: everyone must be done reading.
    kir.b.op("gpu.barrier", &[], &[], &[]);
    set_yield(&kb, &accs);
    let finals = raw::results(kloop);
    for (i, row) in rows.iter().enumerate() {
        for (j, col) in cols.iter().enumerate() {
            let acc = finals[i * TILES_N as usize + j];
            for (r, (row_ok, rv)) in row.iter().enumerate() {
                for (c, (col_ok, cv)) in col.iter().enumerate() {
                    let x = extract(&ir.b, acc, &[r as i64, c as i64], f32);
                    let tb = match ir.and(*row_ok, *col_ok) {
                        Some(ok) => create_if(&ir.b, ok),
                        None => ir.b,
                    };
                    store_result(tb, g, &with_batch(&[*rv, *cv]), x);
                }
            }
        }
    }
    erase_replaced(mm, g);
    super::kernel_body::finish_launch(launch)
}
