//! The warpgroup kernel of `floors-gpu-emit-gemm` on sm_90a: f16/bf16
//! operands, f32 accumulation, `wgmma.mma_async.m64n64k16` reading both
//! operands from workgroup memory through 64-bit matrix descriptors. Not a
//! pass: [`super::emit_gemm`] picks it for the matmuls the tensor-core
//! kernel would take when the chip has wgmma (`sm_90a`; PTX 8.0).
//!
//! **Tiling.** A block is one warpgroup (128 threads) computing a 64×64
//! tile of C; grid = (⌈N/64⌉, ⌈M/64⌉, batch); K in slices of 32, two
//! k16 wgmmas per slice. Per slice:
//! 1. every thread copies 16 elements of the A slice (64×32) and 16 of the
//!    B slice (32×64) from global memory (coalesced, zero-filled out of
//!    range as in the other kernels) into the **no-swizzle core-matrix
//!    layout** both operands use K-major (A as is, B transposed): a core
//!    matrix is 8 rows (M or N) × 8 elements of K, 16 bytes a row, 128
//!    contiguous bytes; element (r, k) of a slice sits at byte
//!    `(r / 8)·SBO + (k / 8)·LBO + (r % 8)·16 + (k % 8)·2` with
//!    LBO = 128 (the next core matrix along K) and SBO = 512 (the next 8
//!    rows: 4 core matrices of K per row group);
//! 2. `fence.proxy.async.shared::cta` (the generic-proxy stores become
//!    visible to wgmma's async proxy), `gpu.barrier`, `wgmma.fence`;
//! 3. for k16 step s: descriptors with start address `base + 256·s`
//!    (two core matrices along K per step), LBO, SBO, no swizzle (bits:
//!    address >> 4 at 0–13, LBO >> 4 at 16–29, SBO >> 4 at 32–45, mode 0 at
//!    62–63), `wgmma.mma_async` (scale-d 1: accumulate);
//! 4. `wgmma.commit_group`, `wgmma.wait_group 0`, `gpu.barrier` (the next
//!    slice overwrites the tiles).
//!
//! **Accumulators.** 32 f32 per thread as the `!llvm.struct` wgmma
//! returns; thread `t` (warp `w = t / 32`, `g = (t % 32) / 4`,
//! `q = t % 4`) holds, for n8 chunk `j < 8`, registers `4j + {0, 1}` =
//! C[16w + g][8j + 2q + {0, 1}] and `4j + {2, 3}` = C[16w + g + 8][8j + 2q + {0, 1}]
//! (PTX ISA, "wgmma .m64nNk16 register fragment layout for accumulator
//! matrix D"). Initial values come from the folded fill (or C), results go
//! through the fused epilogue like the other kernels.
//!
//! Workgroup buffers are aligned to 128 bytes (`floors-gpu-record-kernels`);
//! shared memory 8192 bytes. Assembled by ptxas for sm_90a; like every
//! emitter here it has not yet run on a GPU (scripts/gpu_check.sh checks
//! its numerics on an H200). Not done: TMA, swizzled layouts, several
//! slices in flight.

use mlir_sys::*;

use super::{
    builder::Builder,
    gemm::{BM, BN, Gemm, Ir, MmaElem, TileLaunch, element_type, erase_replaced, initial_value, open_tile_launch, store_result},
    launch::{create_for, create_if, set_yield},
};
use floors_ir::{
    ir::raw,
    pass::{PassFailure, fail_at},
};

/// K slice per shared-memory stage (two k16 wgmmas).
pub const BK: i64 = 32;
/// One warpgroup.
pub const THREADS: i64 = 128;
/// Bytes between core matrices adjacent along K.
const LBO: i64 = 128;
/// Bytes between core matrices adjacent along M/N (a row group of BK/8
/// core matrices).
const SBO: i64 = BK / 8 * 128;
/// f32 accumulators per thread.
const ACCS: i64 = BM * BN / THREADS;

// m64n64k16: one wgmma per k16 slice covers the whole block tile.
const _: () = assert!(BM == 64 && BN == 64);
const _: () = assert!(ACCS == 32 && (BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0 && THREADS % BK == 0 && THREADS % BN == 0);

/// The plan as `floors.gpu_codegen` records it.
pub fn plan(e: MmaElem) -> String {
    format!("gemm(wgmma m64n64k16 {}, 64x64x32, 1 warpgroup)", e.name())
}

/// Workgroup memory of one block, in bytes (2-byte elements).
pub const fn shared_bytes() -> i64 {
    (BM * BK + BK * BN) * 2
}

/// The element offset of (r, k) of a slice in the core-matrix layout.
fn core_offset(ir: &Ir, r: MlirValue, k: MlirValue) -> MlirValue {
    let rows = ir.add(ir.mul(ir.div(r, 8), ir.c(SBO / 2)), ir.mul(ir.rem(r, 8), ir.c(8)));
    let ks = ir.add(ir.mul(ir.div(k, 8), ir.c(LBO / 2)), ir.rem(k, 8));
    ir.add(rows, ks)
}

fn i64_const(b: &Builder, v: i64) -> MlirValue {
    // SAFETY: `b.ctx` is the live context the kernel is built in.
    let t = unsafe { mlirIntegerTypeGet(b.ctx, 64) };
    // SAFETY: `t` is the i64 type just built.
    b.value("arith.constant", &[], t, &[("value", unsafe { mlirIntegerAttrGet(t, v) })])
}

/// The shared-memory matrix descriptor of the tile at byte `offset` of
/// workgroup buffer `mem` (module doc).
fn descriptor(b: &Builder, mem: MlirValue, offset: i64) -> MlirValue {
    // SAFETY: `b.ctx` is the live context the kernel is built in.
    let i64t = unsafe { mlirIntegerTypeGet(b.ctx, 64) };
    let base = b.value("memref.extract_aligned_pointer_as_index", &[mem], b.index_type(), &[]);
    let base = b.value("arith.index_cast", &[base], i64t, &[]);
    let addr = b.value("arith.addi", &[base, i64_const(b, offset)], i64t, &[]);
    let addr = b.value("arith.shrui", &[addr, i64_const(b, 4)], i64t, &[]);
    let addr = b.value("arith.andi", &[addr, i64_const(b, 0x3FFF)], i64t, &[]);
    let fields = ((LBO >> 4) << 16) | ((SBO >> 4) << 32);
    b.value("arith.ori", &[addr, i64_const(b, fields)], i64t, &[])
}

/// The attributes of the fence and of `nvvm.wgmma.mma_async` (m64n64k16,
/// operands of type `e`, f32 accumulators, A row-major and B column-major).
struct WgmmaAttrs {
    proxy: MlirAttribute,
    space: MlirAttribute,
    shape: MlirAttribute,
    ty: MlirAttribute,
    ty_d: MlirAttribute,
    scale_d: MlirAttribute,
    scale_in: MlirAttribute,
    row: MlirAttribute,
    col: MlirAttribute,
    overflow: MlirAttribute,
}

impl WgmmaAttrs {
    /// None if one of them cannot be built.
    fn new(ctx: MlirContext, e: MmaElem) -> Option<Self> {
        use floors_ir::attrs::nvvm::*;
        let ty = match e {
            MmaElem::F16 => WgmmaType::F16,
            MmaElem::Bf16 => WgmmaType::Bf16,
        };
        Some(Self {
            proxy: proxy_kind(ctx, ProxyKind::AsyncShared)?,
            space: shared_space(ctx, SharedSpace::Cta)?,
            shape: mma_shape(ctx, BM as i32, BN as i32, 16)?,
            ty: wgmma_type(ctx, ty)?,
            ty_d: wgmma_type(ctx, WgmmaType::F32)?,
            scale_d: wgmma_scale_out(ctx, WgmmaScaleOut::One)?,
            scale_in: wgmma_scale_in(ctx, WgmmaScaleIn::One)?,
            row: mma_layout(ctx, MmaLayout::Row)?,
            col: mma_layout(ctx, MmaLayout::Col)?,
            overflow: mma_int_overflow(ctx, MmaIntOverflow::Wrapped)?,
        })
    }
}

/// Replaces `mm` by the launch of the warpgroup kernel.
pub(super) fn emit(mm: MlirOperation, g: &Gemm, index: usize) -> Result<(), PassFailure> {
    let Some(e) = g.mma else { return Err(floors_ir::pass::fail_at(mm, "internal error: a tensor-core GEMM without its operand type")) };
    let elem = element_type(g.a);
    let Some(TileLaunch { launch, ir, bz, tid, a_s, b_s, m0, n0 }) =
        open_tile_launch(mm, g, index, THREADS, [(&[BM * BK], elem), (&[BK * BN], elem)])?
    else {
        return Ok(());
    };
    let (f32, i1) = (ir.f32, ir.i1);
    let ctx = ir.b.ctx;
    let (warp, lane) = (ir.div(tid, 32), ir.rem(tid, 32));
    let (gid, quad) = (ir.div(lane, 4), ir.rem(lane, 4));
    let (xm, xn) = (g.m % BM == 0, g.n % BN == 0);
    let with_batch = |rest: &[MlirValue]| g.at(bz, rest);
    // Register i: row 16w + g + 8·((i % 4) / 2), column 8·(i / 4) + 2q + i % 2.
    let row_base = ir.add(m0, ir.add(ir.mul(warp, ir.c(16)), gid));
    let col_base = ir.add(n0, ir.mul(quad, ir.c(2)));
    let rows = [0, 1].map(|h| ir.guard(ir.add(row_base, ir.c(8 * h)), g.m, xm));
    let cols: Vec<_> = (0..BN / 4).map(|c| ir.guard(ir.add(col_base, ir.c(8 * (c / 2) + c % 2)), g.n, xn)).collect();
    let at = |i: i64| (rows[((i % 4) / 2) as usize], cols[(2 * (i / 4) + i % 2) as usize]);
    // SAFETY: `ctx` is live; f32 fields are always valid LLVM struct fields.
    let acc_t = unsafe {
        let fields = vec![mlirF32TypeGet(ctx); ACCS as usize];
        mlirLLVMStructTypeLiteralGet(ctx, ACCS as isize, fields.as_ptr(), false)
    };
    let mut init = ir.b.value("llvm.mlir.poison", &[], acc_t, &[]);
    for i in 0..ACCS {
        let ((row_ok, r), (col_ok, c)) = at(i);
        let x = initial_value(&ir, g, &with_batch(&[r, c]), ir.and(row_ok, col_ok));
        init = ir.b.value("llvm.insertvalue", &[init, x], acc_t, &[("position", ir.b.i64_array(&[i]))]);
    }
    let (kloop, kb, k0, accs) = create_for(&ir.b, ir.c(0), ir.c(g.k), ir.c(BK), &[init]);
    let kir = Ir { b: kb, f32, i1 };
    // Stage A (64×32) in core matrices, and B (32×64) transposed to K-major.
    let (m, n, k) = g.spans((m0, n0, k0), BK);
    kir.stage(
        tid,
        THREADS,
        (m, k),
        |ir, r, c, ok| ir.load_or_zero(g.a, &with_batch(&[r, c]), ok),
        |ir, v, r, c| ir.store(v, a_s, &[core_offset(ir, r, c)]),
    );
    kir.stage(
        tid,
        THREADS,
        (k, n),
        |ir, r, c, ok| ir.load_or_zero(g.b, &with_batch(&[r, c]), ok),
        |ir, v, r, c| ir.store(v, b_s, &[core_offset(ir, c, r)]),
    );
    let a = WgmmaAttrs::new(ctx, e).ok_or_else(|| fail_at(launch, "internal error: the wgmma attributes cannot be built"))?;
    kir.b.op("nvvm.fence.proxy", &[], &[], &[("kind", a.proxy), ("space", a.space)]);
    kir.b.op("gpu.barrier", &[], &[], &[]);
    kir.b.op("nvvm.wgmma.fence.aligned", &[], &[], &[]);
    let mut acc = accs[0];
    for step in 0..BK / 16 {
        // Two core matrices along K per k16 step.
        let (da, db) = (descriptor(&kir.b, a_s, step * 2 * LBO), descriptor(&kir.b, b_s, step * 2 * LBO));
        acc = kir.b.value(
            "nvvm.wgmma.mma_async",
            &[acc, da, db],
            acc_t,
            &[
                ("shape", a.shape),
                ("typeA", a.ty),
                ("typeB", a.ty),
                ("typeD", a.ty_d),
                ("scaleD", a.scale_d),
                ("scaleA", a.scale_in),
                ("scaleB", a.scale_in),
                ("layoutA", a.row),
                ("layoutB", a.col),
                ("satfinite", a.overflow),
            ],
        );
    }
    kir.b.op("nvvm.wgmma.commit.group.sync.aligned", &[], &[], &[]);
    // SAFETY: `ctx` is the launch's live context (`ir.b.ctx`).
    let group = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0) };
    kir.b.op("nvvm.wgmma.wait.group.sync.aligned", &[], &[], &[("group", group)]);
    // The next slice overwrites As/Bs: every wgmma of the block is done.
    kir.b.op("gpu.barrier", &[], &[], &[]);
    set_yield(&kb, &[acc]);
    let fin = raw::results(kloop)[0];
    for i in 0..ACCS {
        let ((row_ok, r), (col_ok, c)) = at(i);
        let x = ir.b.value("llvm.extractvalue", &[fin], f32, &[("position", ir.b.i64_array(&[i]))]);
        let tb = match ir.and(row_ok, col_ok) {
            Some(ok) => create_if(&ir.b, ok),
            None => ir.b,
        };
        store_result(tb, g, &with_batch(&[r, c]), x);
    }
    erase_replaced(mm, g);
    super::kernel_body::finish_launch(launch)
}
