//! The transpose emitter (XLA:GPU's shared-memory transpose) for
//! `floors-gpu-emit-kernels`.
//!
//! Input: an `scf.parallel` nest (no inner loops) whose innermost induction
//! variable `l` is the stores' minor index while some load's minor index is
//! another induction variable `m` (and `l` indexes that load elsewhere):
//! one thread per point would either read or write with a stride. Output:
//! 32×32 tiles of the (`m`, `l`) plane (other dimensions one tile each),
//! block 32×8, each transposed load staged through a workgroup buffer
//! `[32][33]`:
//! 1. read: thread `(x, y)` loads the points `m = m0 + x`, `l = l0 + y + 8k`
//!    (k = 0..3): consecutive `x`, consecutive input addresses; it writes
//!    `tile[y + 8k][x]`;
//! 2. `gpu.barrier`;
//! 3. write: thread `(x, y)` computes the points `l = l0 + x`,
//!    `m = m0 + y + 8k`, the transposed loads replaced by `tile[x][y + 8k]`
//!    (a column of the tile: the 33-element rows put the 32 lanes in 32
//!    different banks), the rest of the body (other loads, elementwise ops,
//!    stores) as it was: consecutive `x`, consecutive output addresses;
//! 4. `gpu.barrier` before the next tile (tiles are a block-uniform
//!    grid-stride loop, so every barrier is reached by the whole block).
//!
//! Edge tiles: points outside the plane are skipped in both phases (the
//! guards are inside the barriers); a tile element written in phase 1 is
//! read in phase 3 only for an in-bounds point, i.e. one phase 1 wrote.

use mlir_sys::*;

use super::{
    builder::{Builder, region_arg},
    launch::{
        Dim, Names, ValueMap, clone_mapped, cmpi, create_for, create_if, create_launch, delinearize, loop_dims, wave_grid, workgroup_arg,
        workgroup_memref,
    },
};
use floors_ir::{ir::raw, pass::PassFailure, target::GpuTarget};

const TILE: i64 = 32;
const ROWS: i64 = 8;

/// A matched transpose nest.
pub struct Transpose {
    root: MlirOperation,
    dims: Vec<Dim>,
    /// Positions of `m` and `l` in `dims`.
    m: usize,
    l: usize,
    /// The loads staged through workgroup memory.
    loads: Vec<MlirOperation>,
    /// The body's ops (terminator excluded).
    body: Vec<MlirOperation>,
}

/// Matches a transpose nest rooted at the top-level `scf.parallel` `root`:
/// Ok(None) when no load moves the minor dimension (not a transpose at all),
/// Err(reason) when one does but the nest does not fit the emitter.
pub fn analyze(root: MlirOperation) -> Result<Option<Transpose>, String> {
    let Ok(dims) = loop_dims(root) else { return Ok(None) };
    if dims.len() < 2 {
        return Ok(None);
    }
    if dims.iter().any(|d| d.extent == 0) {
        return Err("an empty nest".into());
    }
    // SAFETY: `root` is a live scf.parallel that `loop_dims` accepted, whose region 0 holds its body block.
    let block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0)) };
    let ops = raw::block_ops(block);
    let body: Vec<MlirOperation> = ops[..ops.len() - 1].to_vec();
    if let Some(o) = body.iter().find(|&&o| !raw::region_blocks(o).is_empty()) {
        return Err(format!("the body holds '{}' with a region", raw::name(*o)));
    }
    let l = dims.len() - 1;
    let pos = |v: MlirValue| dims.iter().position(|d| raw::same_value(d.iv, v));
    let invariant = |v: MlirValue| raw::producer(v).is_some_and(|p| !raw::is_within(p, root));
    let mut loads = Vec::new();
    let mut m = None;
    let mut stores_along_l = false;
    for &o in &body {
        let name = raw::name(o);
        let operands = raw::operands(o);
        if name == "memref.store" {
            stores_along_l |= operands.len() > 2 && operands.last().is_some_and(|&v| pos(v) == Some(l));
            continue;
        }
        if name != "memref.load" || operands.len() < 3 {
            continue;
        }
        let idx = &operands[1..];
        let minor = idx.last().and_then(|&v| pos(v));
        let uses_l = idx.iter().any(|&v| pos(v) == Some(l));
        let Some(mm) = minor.filter(|&p| p != l && uses_l) else { continue };
        if !idx.iter().all(|&v| pos(v).is_some() || invariant(v)) {
            return Err("a transposed load's indices are not induction variables".into());
        }
        if m.is_some_and(|x| x != mm) {
            return Err("loads transposed along different dimensions".into());
        }
        m = Some(mm);
        loads.push(o);
    }
    let Some(m) = m else { return Ok(None) };
    if !stores_along_l {
        return Ok(None);
    }
    Ok(Some(Transpose { root, dims, m, l, loads, body }))
}

/// Emits the tiled transpose before `t.root` and erases the nest; returns the launch.
pub fn emit(t: &Transpose, target: &GpuTarget, names: &mut Names) -> Result<MlirOperation, PassFailure> {
    let (em, el) = (t.dims[t.m].extent, t.dims[t.l].extent);
    let others: Vec<Dim> = t.dims.iter().enumerate().filter(|(i, _)| *i != t.m && *i != t.l).map(|(_, d)| *d).collect();
    let (tiles_m, tiles_l) = ((em + TILE - 1) / TILE, (el + TILE - 1) / TILE);
    let tiles = others.iter().map(|d| d.extent).product::<i64>() * tiles_m * tiles_l;
    let b0 = Builder::before(t.root);
    // SAFETY: every `o` in `t.loads` is a live memref.load of the nest, which has one result.
    let types: Vec<MlirType> = t.loads.iter().map(|&o| unsafe { mlirValueGetType(raw::results(o)[0]) }).collect();
    let smem: Vec<MlirType> = types.iter().map(|&ty| workgroup_memref(&b0, &[TILE, TILE + 1], ty)).collect::<Result<_, _>>()?;
    let shared: u64 = types.iter().map(|&ty| raw::element_bytes(ty) * (TILE * (TILE + 1)) as u64).sum();
    let grid = wave_grid(tiles, TILE * ROWS, shared, target);
    let strategy = "transpose(shared 32x33)";
    let (launch, b) = create_launch(t.root, [grid, 1, 1], [TILE, ROWS, 1], &smem, names, strategy.into());
    let (bid, tx, ty) = (region_arg(launch, 0, 0), region_arg(launch, 0, 3), region_arg(launch, 0, 4));
    let (ub, step) = (b.index_const(tiles), b.index_const(grid));
    let (_, tb, tile, _) = create_for(&b, bid, ub, step, &[]);
    let c_tl = tb.index_const(tiles_l);
    let c_tm = tb.index_const(tiles_m);
    let c_tile = tb.index_const(TILE);
    let tl = tb.index_binop("arith.remui", tile, c_tl);
    let rest = tb.index_binop("arith.divui", tile, c_tl);
    let tm = tb.index_binop("arith.remui", rest, c_tm);
    let o = tb.index_binop("arith.divui", rest, c_tm);
    let m0 = tb.index_binop("arith.muli", tm, c_tile);
    let l0 = tb.index_binop("arith.muli", tl, c_tile);
    let other_ivs = delinearize(&tb, o, &others);
    // The induction values of the point (mi, li) (tile-plane positions), guarded when the plane has ragged edges.
    let point = |b: &Builder, mi: MlirValue, li: MlirValue| -> (Builder, ValueMap) {
        let mut guard = None;
        for (v, e) in [(mi, em), (li, el)] {
            if e % TILE != 0 {
                let ec = b.index_const(e);
                let c = cmpi(b, 6, v, ec);
                guard = Some(match guard {
                    None => c,
                    // SAFETY: `c` is the live i1 comparison just built.
                    Some(g) => b.value("arith.andi", &[g, c], unsafe { mlirValueGetType(c) }, &[]),
                });
            }
        }
        let inner = match guard {
            Some(g) => create_if(b, g),
            None => *b,
        };
        let mut map = ValueMap::default();
        let mut k = 0;
        for (i, d) in t.dims.iter().enumerate() {
            let v = if i == t.m {
                scale(&inner, mi, d)
            } else if i == t.l {
                scale(&inner, li, d)
            } else {
                k += 1;
                other_ivs[k - 1]
            };
            map.insert(d.iv, v);
        }
        (inner, map)
    };
    // Phase 1: tile[y + 8k][x] = load(m0 + x, l0 + y + 8k).
    let mi = tb.index_binop("arith.addi", m0, tx);
    for k in 0..TILE / ROWS {
        let yk = offset(&tb, ty, k * ROWS);
        let li = tb.index_binop("arith.addi", l0, yk);
        let (pb, mut map) = point(&tb, mi, li);
        for (s, &ld) in t.loads.iter().enumerate() {
            let c = clone_mapped(&pb, ld, &mut map);
            pb.op("memref.store", &[raw::results(c)[0], workgroup_arg(launch, s), yk, tx], &[], &[]);
        }
    }
    tb.op("gpu.barrier", &[], &[], &[]);
    // Phase 3: the body at (m0 + y + 8k, l0 + x), transposed loads from tile[x][y + 8k].
    let li = tb.index_binop("arith.addi", l0, tx);
    for k in 0..TILE / ROWS {
        let yk = offset(&tb, ty, k * ROWS);
        let mi = tb.index_binop("arith.addi", m0, yk);
        let (pb, mut map) = point(&tb, mi, li);
        for (s, &ld) in t.loads.iter().enumerate() {
            let v = pb.value("memref.load", &[workgroup_arg(launch, s), tx, yk], types[s], &[]);
            map.insert(raw::results(ld)[0], v);
        }
        for &op in &t.body {
            if !t.loads.iter().any(|l| l.ptr == op.ptr) {
                clone_mapped(&pb, op, &mut map);
            }
        }
    }
    tb.op("gpu.barrier", &[], &[], &[]);
    // SAFETY: `t.root` is the live, matched nest, which has no results (`loop_dims`); the launch holds clones of its
    // ops, and nothing refers to it afterwards.
    unsafe { mlirOperationDestroy(t.root) };
    Ok(launch)
}

/// `v + k` (`v` itself for k = 0).
fn offset(b: &Builder, v: MlirValue, k: i64) -> MlirValue {
    if k == 0 {
        return v;
    }
    let c = b.index_const(k);
    b.index_binop("arith.addi", v, c)
}

/// `lb + i · step` of dimension `d`.
fn scale(b: &Builder, i: MlirValue, d: &Dim) -> MlirValue {
    let mut v = i;
    if d.step != 1 {
        let s = b.index_const(d.step);
        v = b.index_binop("arith.muli", v, s);
    }
    if d.lb != 0 {
        let l = b.index_const(d.lb);
        v = b.index_binop("arith.addi", v, l);
    }
    v
}
