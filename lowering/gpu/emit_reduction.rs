//! The reduction emitters (XLA:GPU's row and column reductions) for
//! `floors-gpu-emit-kernels`.
//!
//! Input: a loop nest as `convert-linalg-to-parallel-loops` leaves a
//! reduction: `scf.parallel` over kept dimensions and `scf.for` over reduced
//! ones, whose innermost body loads the accumulator(s) from the output
//! buffer(s) (initialised by an earlier fill nest, an earlier launch),
//! combines them with an element and stores them back. The analysis
//! ([`analyze`]) splits that body into *element* ops (independent of the
//! accumulators: loads of the inputs, fused elementwise producers, index
//! casts of the reduced induction variable) and *combiner* ops (those that
//! depend on an accumulator). The combiner reads the accumulators and the
//! *frontier*: the element values it uses, one per accumulator (same types,
//! in order). Because a reduction's body is associative and commutative
//! (what XLA assumes too), the same combiner cloned with another partial
//! accumulator in place of the element combines two partial results: that
//! is how lanes, warps and tile rows are merged.
//!
//! - **Row** (`Par* For+`, the reduced loops innermost): a warp per row (a
//!   block of 32 × 8 handles 8 rows), or a block of 256 threads per row when
//!   the row is longer than 1024 elements. Lanes stride over the row (lane
//!   `l` takes elements `l, l+T, ...`: consecutive lanes read consecutive
//!   addresses), accumulating in registers from their first element (never
//!   from the init value, which is folded in exactly once at the end by
//!   thread 0: `out = combine(init, total)`, the serial order's left
//!   operand). A butterfly of `gpu.shuffle xor` 16, 8, 4, 2, 1 leaves the
//!   total in every lane. Rows shorter than 32: lanes `l ≥ n` read element
//!   `n-1` (in bounds) and carry a "has value" flag that is shuffled along;
//!   a step combines only when both sides have a value, else keeps the side
//!   that has one. Block per row: each warp's total goes to workgroup
//!   memory, a barrier, then every warp reads the 8 partials (lane `l`
//!   takes partial `l mod 8`) and a butterfly of 4, 2, 1 combines them
//!   (all 8 are values: n > 1024 ≥ 256 threads), a barrier before the
//!   buffer is reused.
//! - **Column** (`Par* For+ Par+`, a kept dimension innermost): tiles of 32
//!   kept columns × 8 slices of the reduced range, block 32 × 8: thread
//!   `(x, y)` reduces column `x` of the tile over reduced indices `y, y+8,
//!   ...` in registers (consecutive `x` read consecutive addresses), writes
//!   its partial to workgroup memory `[8][32]`, a barrier, then row `y = 0`
//!   combines the `min(8, n)` partials of its column (a static count:
//!   partials of threads with no element are never read; such threads read
//!   a clamped, in-bounds element), folds the init once and stores; a
//!   barrier before the next tile.
//!
//! Checked on paper (no GPU here), warp per row, n = row length:
//! n = 1: every lane reads element 0, only lane 0 has a value; the
//! butterfly keeps lane 0's value wherever one side lacks one, so the
//! total is element 0 once; thread 0 stores `combine(init, e0)`.
//! n = 31: lanes 0..30 have one element, lane 31 none (flag off); the
//! flags make every combine step skip it. n = 32: one element per lane, no
//! flags (static), no loop. n = 33: lane 0 also takes element 32 in its
//! loop, no flags. n = 1000: lanes 0..7 take 32 elements, the others 31.
//! Several rows per block: warp `y` of the block owns row `bid·8 + y` (and
//! every `grid·8`-th after it); the row loop's trip count is the same for
//! the 32 lanes of a warp, so the shuffles are always warp-convergent, and
//! the warp-per-row kernel has no barrier.
//!
//! - **Ordered** (a variadic reduction, [`Reduction::ordered`]): the same
//!   launches, but each thread (row) or slice (column) takes a contiguous
//!   chunk of the reduced range and partials combine lower chunk first
//!   (butterflies from offset 1 up, column partials in slice order), so a
//!   non-commutative comparator (JAX's argmax keeps its first operand's NaN)
//!   gives the serial order's answer; empty chunks carry "has value" flags.
//!
//! Anything else (dynamic bounds, nested regions in the body, an
//! accumulator stored at indices that depend on the reduced loops, a
//! combiner whose elements are not one per accumulator, a type that cannot
//! be shuffled) is reported as not applicable, with the reason, and the
//! nest goes to the generic code.

use mlir_sys::*;

use super::{
    builder::{Builder, region_arg},
    launch::{
        Dim, Names, ValueMap, clone_mapped, cmpi, create_for, create_if, create_launch, delinearize, loop_dims, select, set_yield,
        shufflable, shuffle_xor, wave_grid, workgroup_arg, workgroup_memref,
    },
};
use floors_ir::{ir::raw, pass::PassFailure, target::GpuTarget};

/// Row or column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    Row,
    Column,
}

/// One accumulator: its load and store in the body.
struct Acc {
    load: MlirOperation,
    store: MlirOperation,
}

/// A matched reduction nest.
pub struct Reduction {
    pub shape: Shape,
    root: MlirOperation,
    /// Kept dimensions outside the reduced loops.
    outer: Vec<Dim>,
    /// The reduced dimensions.
    reduced: Vec<Dim>,
    /// Kept dimensions inside the reduced loops (column reductions).
    inner: Vec<Dim>,
    accs: Vec<Acc>,
    /// Element ops (body order).
    element: Vec<MlirOperation>,
    /// Combiner ops (body order), stores excluded.
    combiner: Vec<MlirOperation>,
    frontier: Vec<MlirValue>,
}

/// Whether `op` is a loop nest with an `scf.for` in it (worth reporting as a
/// reduction that no emitter took).
pub fn looks_like_reduction(op: MlirOperation) -> bool {
    super::builder::all_ops(op).iter().any(|&o| raw::name(o) == "scf.for") || raw::name(op) == "scf.for"
}

fn is_loop(op: MlirOperation) -> bool {
    matches!(raw::name(op).as_str(), "scf.parallel" | "scf.for")
}

/// Matches a reduction nest rooted at the top-level op `root`.
pub fn analyze(root: MlirOperation) -> Result<Reduction, String> {
    let (levels, body) = perfect_nest(root)?;
    let kinds: Vec<bool> = levels.iter().map(|(f, _)| *f).collect();
    let first_for = kinds.iter().position(|&f| f).ok_or("no reduced loop")?;
    let last_for = kinds.iter().rposition(|&f| f).unwrap_or(first_for);
    if kinds[first_for..=last_for].iter().any(|&f| !f) {
        return Err("kept and reduced loops alternate".into());
    }
    let flat = |r: &[Level]| r.iter().flat_map(|(_, d)| d.clone()).collect::<Vec<Dim>>();
    let outer = flat(&levels[..first_for]);
    let reduced = flat(&levels[first_for..=last_for]);
    let inner = flat(&levels[last_for + 1..]);
    let shape = if inner.is_empty() { Shape::Row } else { Shape::Column };
    if outer.iter().chain(&reduced).chain(&inner).any(|d| d.extent == 0) {
        return Err("an empty loop".into());
    }
    let ops = raw::block_ops(body);
    let ops = &ops[..ops.len() - 1];
    let kept_ivs: Vec<MlirValue> = outer.iter().chain(&inner).map(|d| d.iv).collect();
    let accs = accumulators(root, ops, &kept_ivs)?;
    let (element, combiner) = split_body(ops, &accs)?;
    check_coalesced(&element, &reduced, &inner, shape)?;
    let frontier = frontier(&element, &combiner, &reduced, &accs)?;
    Ok(Reduction { shape, root, outer, reduced, inner, accs, element, combiner, frontier })
}

/// One level of a loop nest: whether it is an `scf.for`, and its dims.
type Level = (bool, Vec<Dim>);

/// The perfect nest at `root`: levels of loops (whether an `scf.for`, its
/// dims), each the only op of its parent's body, and the innermost body.
fn perfect_nest(root: MlirOperation) -> Result<(Vec<Level>, MlirBlock), String> {
    let mut levels: Vec<Level> = Vec::new();
    let mut op = root;
    let body = loop {
        if !is_loop(op) {
            return Err(format!("'{}' is not a loop", raw::name(op)));
        }
        levels.push((raw::name(op) == "scf.for", loop_dims(op)?));
        // SAFETY: `op` is a live scf.for/scf.parallel (`is_loop` above), whose region 0 holds its body block.
        let block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        let ops = raw::block_ops(block);
        let inner: Vec<MlirOperation> = ops[..ops.len() - 1].to_vec();
        match inner.as_slice() {
            [one] if is_loop(*one) => op = *one,
            _ if inner.iter().any(|&o| is_loop(o)) => return Err("the loop nest is not perfect".into()),
            _ => break block,
        }
    };
    Ok((levels, body))
}

/// The accumulators of the innermost body `ops` (of the nest at `root`,
/// whose kept induction variables are `kept_ivs`): each store with its
/// matching load, stored at indices invariant along a row. The body may
/// hold no regions, no other memref or gpu ops, no calls.
fn accumulators(root: MlirOperation, ops: &[MlirOperation], kept_ivs: &[MlirValue]) -> Result<Vec<Acc>, String> {
    let is_kept = |v: MlirValue| kept_ivs.iter().any(|&k| raw::same_value(k, v));
    // Defined outside the nest, or a kept induction variable: invariant along a row.
    let invariant = |v: MlirValue| {
        is_kept(v)
            || match raw::producer(v) {
                Some(p) => !raw::is_within(p, root),
                None => {
                    // SAFETY: `v` is a live operand with no producer, hence a block argument; a block's parent op may be
                    // null, which is checked.
                    let owner = unsafe { mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v)) };
                    !owner.ptr.is_null() && !raw::is_within(owner, root) && owner.ptr != root.ptr
                }
            }
    };
    let mut accs = Vec::new();
    for &o in ops {
        if !raw::region_blocks(o).is_empty() {
            return Err(format!("the body holds '{}' with a region", raw::name(o)));
        }
        let n = raw::name(o);
        if n != "memref.store" && n != "memref.load" && (n.starts_with("memref.") || n.starts_with("gpu.") || n == "func.call") {
            return Err(format!("the body holds '{n}'"));
        }
        if n == "memref.store" {
            let s = raw::operands(o);
            if !s[2..].iter().all(|&i| invariant(i)) {
                return Err("an accumulator is stored at indices that vary along the reduction".into());
            }
            let load = ops.iter().copied().find(|&l| {
                raw::name(l) == "memref.load" && {
                    let lo = raw::operands(l);
                    lo.len() + 1 == s.len() && lo.iter().zip(&s[1..]).all(|(&a, &b)| raw::same_value(a, b))
                }
            });
            let Some(load) = load else { return Err("a store with no matching accumulator load".into()) };
            accs.push(Acc { load, store: o });
        }
    }
    if accs.is_empty() {
        return Err("no accumulator".into());
    }
    Ok(accs)
}

/// The body's element ops and combiner ops (those that depend on an
/// accumulator), in order, without the accumulators' loads and stores.
fn split_body(ops: &[MlirOperation], accs: &[Acc]) -> Result<(Vec<MlirOperation>, Vec<MlirOperation>), String> {
    let acc_buffers: Vec<MlirValue> = accs.iter().map(|a| raw::operands(a.store)[1]).collect();
    // Accumulator-dependent ops, in order.
    let mut dep: Vec<MlirValue> = accs.iter().map(|a| raw::results(a.load)[0]).collect();
    let is_dep = |dep: &Vec<MlirValue>, v: MlirValue| dep.iter().any(|&d| raw::same_value(d, v));
    let (mut element, mut combiner) = (Vec::new(), Vec::new());
    for &o in ops {
        let n = raw::name(o);
        if n == "memref.store" || accs.iter().any(|a| a.load.ptr == o.ptr) {
            continue;
        }
        if n == "memref.load" && acc_buffers.iter().any(|&b| raw::same_value(b, raw::operands(o)[0])) {
            return Err("an accumulator buffer is read at other indices".into());
        }
        if raw::operands(o).iter().any(|&v| is_dep(&dep, v)) {
            dep.extend(raw::results(o));
            combiner.push(o);
        } else {
            element.push(o);
        }
    }
    for a in accs {
        if !is_dep(&dep, raw::operands(a.store)[0]) {
            return Err("a stored value does not depend on the accumulator".into());
        }
    }
    Ok((element, combiner))
}

/// Coalescing: a load that varies along the reduction must have the
/// dimension consecutive threads take as its minor index (the innermost
/// reduced loop for rows, the innermost kept loop for columns); else this
/// is not XLA's row/column reduction (a matmul's nest, say).
fn check_coalesced(element: &[MlirOperation], reduced: &[Dim], inner: &[Dim], shape: Shape) -> Result<(), String> {
    let mut varies: Vec<MlirValue> = reduced.iter().map(|d| d.iv).collect();
    let lanes_iv = match shape {
        Shape::Row => reduced.last().map(|d| d.iv),
        Shape::Column => inner.last().map(|d| d.iv),
    };
    for &e in element {
        let operands = raw::operands(e);
        let varying = operands.iter().any(|&v| varies.iter().any(|&w| raw::same_value(v, w)));
        if varying {
            varies.extend(raw::results(e));
        }
        if varying && raw::name(e) == "memref.load" {
            let minor = operands.last().copied();
            if !matches!((minor, lanes_iv), (Some(m), Some(l)) if operands.len() > 1 && raw::same_value(m, l)) {
                return Err(format!(
                    "a load of {} is not contiguous along the dimension threads stride over",
                    // SAFETY: `operands[0]` is the memref of a live memref.load of the body.
                    raw::type_text(unsafe { mlirValueGetType(operands[0]) })
                ));
            }
        }
    }
    Ok(())
}

/// The frontier: the element values (reduced induction variables first,
/// then element results) the combiner reads, one per accumulator, of its
/// type, which a warp can shuffle.
fn frontier(element: &[MlirOperation], combiner: &[MlirOperation], reduced: &[Dim], accs: &[Acc]) -> Result<Vec<MlirValue>, String> {
    let reduced_ivs: Vec<MlirValue> = reduced.iter().map(|d| d.iv).collect();
    let mut frontier: Vec<MlirValue> = Vec::new();
    let mut push = |v: MlirValue| {
        if !frontier.iter().any(|&f| raw::same_value(f, v)) {
            frontier.push(v);
        }
    };
    for &iv in &reduced_ivs {
        if combiner.iter().any(|&c| raw::operands(c).iter().any(|&v| raw::same_value(v, iv))) {
            push(iv);
        }
    }
    for &e in element {
        for r in raw::results(e) {
            if combiner.iter().any(|&c| raw::operands(c).iter().any(|&v| raw::same_value(v, r))) {
                push(r);
            }
        }
    }
    if frontier.len() != accs.len() {
        return Err(format!("the combiner reads {} element values for {} accumulators", frontier.len(), accs.len()));
    }
    for (f, a) in frontier.iter().zip(accs) {
        // SAFETY: `f` is a live frontier value and `a.load` a live memref.load, which has one result.
        let (ft, at) = unsafe { (mlirValueGetType(*f), mlirValueGetType(raw::results(a.load)[0])) };
        // SAFETY: `ft` and `at` are the types just read.
        if !unsafe { mlirTypeEqual(ft, at) } {
            return Err("the combiner's element values do not match the accumulators' types".into());
        }
        if !shufflable(at) {
            return Err(format!("no warp shuffle for {}", raw::type_text(at)));
        }
    }
    Ok(frontier)
}

impl Reduction {
    fn acc_types(&self) -> Vec<MlirType> {
        // SAFETY: every `a.load` is a live memref.load of the nest, which has one result.
        self.accs.iter().map(|a| unsafe { mlirValueGetType(raw::results(a.load)[0]) }).collect()
    }

    /// The element values at reduced position `j` (linear) for kept ivs `kept` (outer then inner).
    fn element_at(&self, b: &Builder, j: MlirValue, kept: &[MlirValue]) -> Vec<MlirValue> {
        let mut map = ValueMap::default();
        for (d, v) in self.outer.iter().chain(&self.inner).zip(kept) {
            map.insert(d.iv, *v);
        }
        for (d, v) in self.reduced.iter().zip(delinearize(b, j, &self.reduced)) {
            map.insert(d.iv, v);
        }
        for &o in &self.element {
            clone_mapped(b, o, &mut map);
        }
        self.frontier.iter().map(|&f| map.map(f)).collect()
    }

    /// `combine(acc, other)`: the combiner with `acc` as the accumulators and `other` as the elements.
    fn combine(&self, b: &Builder, acc: &[MlirValue], other: &[MlirValue], kept: &[MlirValue]) -> Vec<MlirValue> {
        let mut map = ValueMap::default();
        for (d, v) in self.outer.iter().chain(&self.inner).zip(kept) {
            map.insert(d.iv, *v);
        }
        for (a, &v) in self.accs.iter().zip(acc) {
            map.insert(raw::results(a.load)[0], v);
        }
        for (&f, &v) in self.frontier.iter().zip(other) {
            map.insert(f, v);
        }
        for &o in &self.combiner {
            clone_mapped(b, o, &mut map);
        }
        self.accs.iter().map(|a| map.map(raw::operands(a.store)[0])).collect()
    }

    /// Reads the init values, folds `total` into them once and stores the result.
    fn fold_and_store(&self, b: &Builder, total: &[MlirValue], kept: &[MlirValue]) {
        let mut map = ValueMap::default();
        for (d, v) in self.outer.iter().chain(&self.inner).zip(kept) {
            map.insert(d.iv, *v);
        }
        let init: Vec<MlirValue> = self
            .accs
            .iter()
            .map(|a| {
                let c = clone_mapped(b, a.load, &mut map);
                raw::results(c)[0]
            })
            .collect();
        let res = self.combine(b, &init, total, kept);
        for (a, v) in self.accs.iter().zip(res) {
            let c = clone_mapped(b, a.store, &mut map);
            // SAFETY: `c` is the clone of a memref.store just made at `b`; operand 0 is its stored value and `v` a live
            // value of the launch.
            unsafe { mlirOperationSetOperand(c, 0, v) };
        }
    }

    /// Registers: `acc = e(first)`, then `acc = combine(acc, e(j))` for
    /// `j = first + stride, ... < n`.
    fn accumulate(&self, b: &Builder, start: MlirValue, first: MlirValue, stride: i64, kept: &[MlirValue]) -> Vec<MlirValue> {
        let n: i64 = self.reduced.iter().map(|d| d.extent).product();
        let init = self.element_at(b, first, kept);
        if n <= stride {
            return init;
        }
        let s = b.index_const(stride);
        let lb = b.index_binop("arith.addi", start, s);
        let ub = b.index_const(n);
        let (for_op, fb, j, iters) = create_for(b, lb, ub, s, &init);
        let e = self.element_at(&fb, j, kept);
        let next = self.combine(&fb, &iters, &e, kept);
        set_yield(&fb, &next);
        raw::results(for_op)
    }
}

impl Reduction {
    /// Whether partial results must be combined in the serial order: a
    /// variadic reduction (argmax/argmin's value and index) may not be
    /// commutative — JAX's comparator keeps its first operand's NaN — so
    /// each thread takes a contiguous chunk of the reduced range and the
    /// partials combine left to right (lower chunk as the accumulator). A
    /// single accumulator keeps the strided, coalesced order.
    fn ordered(&self) -> bool {
        self.accs.len() > 1
    }

    /// Registers over the contiguous chunk `[lo, min(lo + chunk, n))`:
    /// `acc = e(min(lo, n − 1))`, then `acc = combine(acc, e(j))` in order.
    fn accumulate_chunk(&self, b: &Builder, lo: MlirValue, chunk: i64, kept: &[MlirValue]) -> Vec<MlirValue> {
        let n: i64 = self.reduced.iter().map(|d| d.extent).product();
        let last = b.index_const(n - 1);
        let first = b.index_binop("arith.minui", lo, last);
        let init = self.element_at(b, first, kept);
        if chunk <= 1 {
            return init;
        }
        let one = b.index_const(1);
        let lb = b.index_binop("arith.addi", lo, one);
        let c = b.index_const(chunk);
        let end = b.index_binop("arith.addi", lo, c);
        let nn = b.index_const(n);
        let ub = b.index_binop("arith.minui", end, nn);
        let (for_op, fb, j, iters) = create_for(b, lb, ub, one, &init);
        let e = self.element_at(&fb, j, kept);
        let next = self.combine(&fb, &iters, &e, kept);
        set_yield(&fb, &next);
        raw::results(for_op)
    }
}

/// Row length above which a block (not a warp) takes a row.
const WARP_ROW_LIMIT: i64 = 1024;
const ROW_BLOCK_THREADS: i64 = 256;
const ROWS_PER_BLOCK: i64 = 8;

/// Emits a row reduction before `r.root` and erases the nest; returns the launch.
pub fn emit_row(r: &Reduction, target: &GpuTarget, names: &mut Names) -> Result<MlirOperation, PassFailure> {
    let rows: i64 = r.outer.iter().map(|d| d.extent).product();
    let n: i64 = r.reduced.iter().map(|d| d.extent).product();
    let per_block = n > WARP_ROW_LIMIT;
    let (threads, rows_per_block) = if per_block { (ROW_BLOCK_THREADS, 1) } else { (32, ROWS_PER_BLOCK.min(rows)) };
    let warps = threads / 32;
    let types = r.acc_types();
    let b0 = Builder::before(r.root);
    let smem: Vec<MlirType> =
        if per_block { types.iter().map(|&t| workgroup_memref(&b0, &[warps], t)).collect::<Result<_, _>>()? } else { vec![] };
    let shared: u64 = types.iter().map(|&t| raw::element_bytes(t) * warps as u64).sum::<u64>() * per_block as u64;
    let grid = wave_grid((rows + rows_per_block - 1) / rows_per_block, threads * rows_per_block, shared, target);
    let strategy = if per_block { "row-reduction(block)" } else { "row-reduction(warp)" };
    let (launch, b) = create_launch(r.root, [grid, 1, 1], [threads, rows_per_block, 1], &smem, names, strategy.into());
    let (bid, tx, ty) = (region_arg(launch, 0, 0), region_arg(launch, 0, 3), region_arg(launch, 0, 4));
    // for row = bid·R + y; row < rows; row += grid·R (uniform across a warp; across the block when R = 1)
    let rpb = b.index_const(rows_per_block);
    let start = b.index_binop("arith.muli", bid, rpb);
    let start = b.index_binop("arith.addi", start, ty);
    let (ub, step) = (b.index_const(rows), b.index_const(grid * rows_per_block));
    let (_, rb, row, _) = create_for(&b, start, ub, step, &[]);
    let kept = delinearize(&rb, row, &r.outer);
    // Ordered (see `Reduction::ordered`): thread t takes the chunk
    // [t·c, (t+1)·c) and the butterflies run from offset 1 up, so thread 0
    // combines lower chunks first; otherwise lanes stride over the row.
    let ordered = r.ordered();
    let chunk = if ordered { (n + threads - 1) / threads } else { 1 };
    // Threads with an element: all but those past the end (n < T, or short chunks).
    let with_value = (n + chunk - 1) / chunk;
    let lo = if ordered {
        let c = rb.index_const(chunk);
        rb.index_binop("arith.muli", tx, c)
    } else {
        tx
    };
    let mut acc = if ordered {
        r.accumulate_chunk(&rb, lo, chunk, &kept)
    } else {
        // Lanes with no element (n < T) read element n-1 and carry has = tx < n.
        let first = if n < threads {
            let last = rb.index_const(n - 1);
            rb.index_binop("arith.minui", tx, last)
        } else {
            tx
        };
        r.accumulate(&rb, tx, first, threads, &kept)
    };
    let mut has = (with_value < threads).then(|| {
        let nn = rb.index_const(n);
        cmpi(&rb, 6, lo, nn)
    });
    let lane_offsets: &[i64] = if ordered { &[1, 2, 4, 8, 16] } else { &[16, 8, 4, 2, 1] };
    acc = butterfly(r, &rb, acc, &mut has, lane_offsets, &kept)?;
    if per_block {
        // Unordered, n > 1024 ≥ threads: every thread had a value (no
        // flags); ordered, a warp has a value when its first chunk starts
        // before n.
        let c32 = rb.index_const(32);
        let lane = rb.index_binop("arith.remui", tx, c32);
        let warp = rb.index_binop("arith.divui", tx, c32);
        let zero = rb.index_const(0);
        let is_lane0 = cmpi(&rb, 0, lane, zero);
        let ib = create_if(&rb, is_lane0);
        for (k, &v) in acc.iter().enumerate() {
            ib.op("memref.store", &[v, workgroup_arg(launch, k), warp], &[], &[]);
        }
        rb.op("gpu.barrier", &[], &[], &[]);
        let w = rb.index_const(warps);
        let slot = rb.index_binop("arith.remui", lane, w);
        let partials: Vec<MlirValue> =
            types.iter().enumerate().map(|(k, &t)| rb.value("memref.load", &[workgroup_arg(launch, k), slot], t, &[])).collect();
        let mut offsets: Vec<i64> = std::iter::successors(Some(warps / 2), |&o| (o > 1).then_some(o / 2)).filter(|&o| o >= 1).collect();
        let mut warp_has = None;
        if ordered {
            offsets.reverse();
            if with_value < threads {
                let span = rb.index_const(32 * chunk);
                let start = rb.index_binop("arith.muli", slot, span);
                let nn = rb.index_const(n);
                warp_has = Some(cmpi(&rb, 6, start, nn));
            }
        }
        acc = butterfly(r, &rb, partials, &mut warp_has, &offsets, &kept)?;
        rb.op("gpu.barrier", &[], &[], &[]);
    }
    let zero = rb.index_const(0);
    let is0 = cmpi(&rb, 0, tx, zero);
    let wb = create_if(&rb, is0);
    r.fold_and_store(&wb, &acc, &kept);
    // SAFETY: `r.root` is the live, matched nest, which has no results (`loop_dims` rejects loops that yield); the
    // launch holds clones of its ops, and nothing refers to it afterwards.
    unsafe { mlirOperationDestroy(r.root) };
    Ok(launch)
}

/// Butterfly over `offsets` (every lane ends with the combination of its
/// group); with `has` flags, a step combines only when both sides have a
/// value and otherwise keeps the side that has one.
fn butterfly(
    r: &Reduction,
    b: &Builder,
    mut acc: Vec<MlirValue>,
    has: &mut Option<MlirValue>,
    offsets: &[i64],
    kept: &[MlirValue],
) -> Result<Vec<MlirValue>, PassFailure> {
    for &o in offsets {
        let other: Vec<MlirValue> = acc.iter().map(|&v| shuffle_xor(b, v, o)).collect::<Result<_, _>>()?;
        let c = r.combine(b, &acc, &other, kept);
        acc = match *has {
            None => c,
            Some(h) => {
                let hb = shuffle_xor(b, h, o)?;
                // SAFETY: `h` is a live i1 flag of the launch being built.
                let both = b.value("arith.andi", &[h, hb], unsafe { mlirValueGetType(h) }, &[]);
                let next = acc
                    .iter()
                    .zip(&other)
                    .zip(&c)
                    .map(|((&mine, &theirs), &comb)| {
                        let one = select(b, h, mine, theirs);
                        select(b, both, comb, one)
                    })
                    .collect();
                // SAFETY: as above: `h` is live.
                *has = Some(b.value("arith.ori", &[h, hb], unsafe { mlirValueGetType(h) }, &[]));
                next
            }
        };
    }
    Ok(acc)
}

const COL_TILE: i64 = 32;
const COL_SLICES: i64 = 8;

/// Emits a column reduction before `r.root` and erases the nest; returns the launch.
pub fn emit_column(r: &Reduction, target: &GpuTarget, names: &mut Names) -> Result<MlirOperation, PassFailure> {
    let outer: i64 = r.outer.iter().map(|d| d.extent).product();
    let cols: i64 = r.inner.iter().map(|d| d.extent).product();
    let n: i64 = r.reduced.iter().map(|d| d.extent).product();
    let col_tiles = (cols + COL_TILE - 1) / COL_TILE;
    let tiles = outer * col_tiles;
    let types = r.acc_types();
    let b0 = Builder::before(r.root);
    let smem: Vec<MlirType> = types.iter().map(|&t| workgroup_memref(&b0, &[COL_SLICES, COL_TILE], t)).collect::<Result<_, _>>()?;
    let shared: u64 = types.iter().map(|&t| raw::element_bytes(t) * (COL_SLICES * COL_TILE) as u64).sum();
    let grid = wave_grid(tiles, COL_TILE * COL_SLICES, shared, target);
    let strategy = "column-reduction(shared)";
    let (launch, b) = create_launch(r.root, [grid, 1, 1], [COL_TILE, COL_SLICES, 1], &smem, names, strategy.into());
    let (bid, tx, ty) = (region_arg(launch, 0, 0), region_arg(launch, 0, 3), region_arg(launch, 0, 4));
    // for tile = bid; tile < tiles; tile += grid (uniform across the block: barriers inside are safe)
    let (ub, step) = (b.index_const(tiles), b.index_const(grid));
    let (_, tb, tile, _) = create_for(&b, bid, ub, step, &[]);
    let ct = tb.index_const(col_tiles);
    let o = tb.index_binop("arith.divui", tile, ct);
    let kt = tb.index_binop("arith.remui", tile, ct);
    let c32 = tb.index_const(COL_TILE);
    let col = tb.index_binop("arith.muli", kt, c32);
    let col = tb.index_binop("arith.addi", col, tx);
    // Columns past the end read the last column (in bounds) and never store.
    let ragged = cols % COL_TILE != 0;
    let col_read = if ragged {
        let last = tb.index_const(cols - 1);
        tb.index_binop("arith.minui", col, last)
    } else {
        col
    };
    let mut kept = delinearize(&tb, o, &r.outer);
    kept.extend(delinearize(&tb, col_read, &r.inner));
    // Ordered (see `Reduction::ordered`): slice y takes the contiguous rows
    // [y·c, (y+1)·c) and the partials combine in y order; otherwise slices
    // stride over the reduced range.
    let chunk = if r.ordered() { (n + COL_SLICES - 1) / COL_SLICES } else { 1 };
    let acc = if r.ordered() {
        let c = tb.index_const(chunk);
        let lo = tb.index_binop("arith.muli", ty, c);
        r.accumulate_chunk(&tb, lo, chunk, &kept)
    } else {
        let first = if n < COL_SLICES {
            let last = tb.index_const(n - 1);
            tb.index_binop("arith.minui", ty, last)
        } else {
            ty
        };
        r.accumulate(&tb, ty, first, COL_SLICES, &kept)
    };
    for (k, &v) in acc.iter().enumerate() {
        tb.op("memref.store", &[v, workgroup_arg(launch, k), ty, tx], &[], &[]);
    }
    tb.op("gpu.barrier", &[], &[], &[]);
    let zero = tb.index_const(0);
    let mut cond = cmpi(&tb, 0, ty, zero);
    if ragged {
        let cn = tb.index_const(cols);
        let inside = cmpi(&tb, 6, col, cn);
        // SAFETY: `cond` is the live i1 comparison just built.
        cond = tb.value("arith.andi", &[cond, inside], unsafe { mlirValueGetType(cond) }, &[]);
    }
    let wb = create_if(&tb, cond);
    let load = |y: i64| -> Vec<MlirValue> {
        let yc = wb.index_const(y);
        types.iter().enumerate().map(|(k, &t)| wb.value("memref.load", &[workgroup_arg(launch, k), yc, tx], t, &[])).collect()
    };
    // Only the partials of slices that had an element (static: y < min(8, n)
    // strided, y < ceil(n / c) in chunks), in y order.
    let mut total = load(0);
    for y in 1..COL_SLICES.min((n + chunk - 1) / chunk) {
        let p = load(y);
        total = r.combine(&wb, &total, &p, &kept);
    }
    r.fold_and_store(&wb, &total, &kept);
    tb.op("gpu.barrier", &[], &[], &[]);
    // SAFETY: as for the row reduction: `r.root` is the live, result-less nest, cloned into the launch and not used
    // afterwards.
    unsafe { mlirOperationDestroy(r.root) };
    Ok(launch)
}
