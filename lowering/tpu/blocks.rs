//! What the TPU floor's passes share: the plan `floors-tpu-select-blocks`
//! writes on each fusion and the emitter and the legality check read, the
//! analysis that says which dimension of every value a grid axis tiles, and
//! Mosaic's block-shape rules.
//!
//! A plan is one of three strategies (each the way a Pallas author would
//! write the kernel):
//! - `rows`: grid axis 0 walks blocks of the results' leading dimension;
//!   every value that depends on it is computed one block at a time, values
//!   that do not (a bias row, a scalar) whole in every step. Elementwise
//!   fusions, row reductions (softmax, layernorm), column reductions and
//!   transposes (the tiled dimension follows the indexing maps).
//! - `matmul`: a grid (M/bm, N/bn, K/bk), parallel, parallel, arbitrary; a
//!   VMEM f32 accumulator zeroed at k = 0, `tpu.matmul` into it every step,
//!   the elementwise epilogue applied and stored at the last k.
//! - `whole`: no grid; every operand whole in VMEM (reshapes, slices,
//!   concatenations and whatever cannot be tiled), if it fits.
//!
//! The analysis runs backwards from the fusion's results: a result tiled
//! along dimension 0 demands, through each structured op's indexing maps,
//! which dimension of each operand the same axis tiles. A value demanded two
//! ways, an axis that would tile a reduction loop, or an op that cannot be
//! tiled (a reshape of a tiled value) makes the strategy inapplicable, with
//! the op and the reason.

use std::collections::HashMap;

use mlir_sys::*;

use floors_ir::ir::{raw, raw::sref};

use floors_linalg::maps;

/// The fusion attribute holding the plan.
pub use floors_ir::contract::TPU_PLAN_ATTR;

/// Per dimension of a value: the grid axis that tiles it, if any.
pub type Tiling = Vec<Option<usize>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    Rows,
    Matmul,
    Whole,
}

impl Strategy {
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Rows => "rows",
            Strategy::Matmul => "matmul",
            Strategy::Whole => "whole",
        }
    }
    fn from_name(s: &str) -> Option<Self> {
        match s {
            "rows" => Some(Strategy::Rows),
            "matmul" => Some(Strategy::Matmul),
            "whole" => Some(Strategy::Whole),
            _ => None,
        }
    }
}

/// A fusion's plan: the strategy, the grid (iterations per axis) and the
/// block size along each axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub strategy: Strategy,
    pub grid: Vec<i64>,
    pub block: Vec<i64>,
}

impl Plan {
    /// `#floors.tpu_plan<strategy = "rows", grid = [4], block =
    /// [256]>`; None when it does not verify (see [`Plan::check`]).
    pub fn to_attribute(&self, ctx: MlirContext) -> Option<MlirAttribute> {
        if self.grid.len() != self.block.len() {
            return None;
        }
        // SAFETY: `ctx` is live; grid and block have `grid.len()` sizes each,
        // copied by the getter, which returns null when they do not verify.
        let a = unsafe {
            floors_ir::capi::floorsTpuPlanAttrGet(
                ctx,
                sref(self.strategy.name()),
                self.grid.len() as isize,
                self.grid.as_ptr(),
                self.block.as_ptr(),
            )
        };
        (!a.ptr.is_null()).then_some(a)
    }

    /// Why the plan cannot be applied as written: the grid and block sizes
    /// must have the strategy's number of axes (rows 1, matmul 3, whole 0)
    /// and be at least 1 (a pinned plan is checked before anything uses it).
    pub fn check(&self) -> Result<(), String> {
        let axes = match self.strategy {
            Strategy::Rows => 1,
            Strategy::Matmul => 3,
            Strategy::Whole => 0,
        };
        if self.grid.len() != axes || self.block.len() != axes {
            return Err(format!(
                "a `{}` plan has {axes} grid axes, not grid {:?} and block {:?}",
                self.strategy.name(),
                self.grid,
                self.block
            ));
        }
        if self.grid.iter().chain(&self.block).any(|&n| n < 1) {
            return Err(format!("grid {:?} and block {:?} must be at least 1", self.grid, self.block));
        }
        Ok(())
    }

    /// The plan on a fusion op, or None when it has none (or one that is
    /// not a `#floors.tpu_plan`, which the dialect's verifier refuses).
    pub fn of(fusion: MlirOperation) -> Option<Plan> {
        Self::of_attribute(raw::attr(fusion, TPU_PLAN_ATTR)?)
    }

    /// The plan a `#floors.tpu_plan` holds.
    pub fn of_attribute(a: MlirAttribute) -> Option<Plan> {
        use floors_ir::capi;
        // SAFETY: `a` is a live attribute checked to be a #floors.tpu_plan;
        // grid and block are read into buffers of its number of axes.
        unsafe {
            if !capi::floorsAttributeIsATpuPlan(a) {
                return None;
            }
            let n = capi::floorsTpuPlanAttrGetNumAxes(a) as usize;
            let (mut grid, mut block) = (vec![0i64; n], vec![0i64; n]);
            capi::floorsTpuPlanAttrGetGrid(a, grid.as_mut_ptr());
            capi::floorsTpuPlanAttrGetBlock(a, block.as_mut_ptr());
            let strategy = Strategy::from_name(&raw::string(capi::floorsTpuPlanAttrGetStrategy(a)))?;
            Some(Plan { strategy, grid, block })
        }
    }
}

/// How a structured op (generic, matmul, batch_matmul) indexes its operands.
pub struct Structured {
    pub num_loops: usize,
    pub parallel: Vec<bool>,
    /// Per operand (inputs, then outputs): per dimension, the loop it walks
    /// (None for a constant index, a broadcast unit dimension).
    pub maps: Vec<Vec<Option<usize>>>,
    /// Per operand and dimension: indexed backwards (`-d + (n - 1)`, a
    /// `stablehlo.reverse`).
    pub reversed: Vec<Vec<bool>>,
    pub num_inputs: usize,
}

/// The structure of `op` if it is a structured op the TPU floor vectorizes;
/// Err with the reason when its indexing maps are not projections.
pub fn structured(op: MlirOperation) -> Option<Result<Structured, String>> {
    let name = raw::name(op);
    let operands = raw::operands(op);
    match name.as_str() {
        "linalg.matmul" | "linalg.batch_matmul" => {
            if !maps::is_plain_matmul(op) {
                return Some(Err(format!("'{name}' with non-default indexing maps")));
            }
            let (n, m) = if name == "linalg.matmul" { maps::MATMUL_MAPS } else { maps::BATCH_MATMUL_MAPS };
            let mut parallel = vec![true; n];
            parallel[n - 1] = false;
            Some(Ok(Structured {
                num_loops: n,
                parallel,
                maps: m.iter().map(|r| r.iter().map(|&l| Some(l)).collect()).collect(),
                reversed: m.iter().map(|r| vec![false; r.len()]).collect(),
                num_inputs: 2,
            }))
        }
        "linalg.generic" => {
            let Some(parallel) = maps::parallel_iterators(op) else {
                return Some(Err("a linalg.generic without iterator_types".into()));
            };
            let Some(ms) = raw::attr(op, "indexing_maps").and_then(maps::maps_of) else {
                return Some(Err("a linalg.generic without indexing_maps".into()));
            };
            let mut out = Vec::new();
            let mut reversed = Vec::new();
            for (k, m) in ms.into_iter().enumerate() {
                let mut dims = Vec::new();
                let mut rev = Vec::new();
                let shape = operands.get(k).and_then(|&v| raw::shape(v)).unwrap_or_default();
                // SAFETY: `m` is a live affine map of `op`'s `indexing_maps`; `i` stays below its result count, and
                // each expression getter runs only after the `mlirAffineExprIsA...` check of that kind (`reversed_dim`
                // checks its own).
                unsafe {
                    for i in 0..mlirAffineMapGetNumResults(m) {
                        let e = mlirAffineMapGetResult(m, i);
                        if mlirAffineExprIsADim(e) {
                            dims.push(Some(mlirAffineDimExprGetPosition(e) as usize));
                            rev.push(false);
                        } else if mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0 {
                            dims.push(None);
                            rev.push(false);
                        } else if let Some(l) = reversed_dim(e, shape.get(i as usize).copied()) {
                            dims.push(Some(l));
                            rev.push(true);
                        } else {
                            return Some(Err("an indexing map that is not a projection (strided or offset access)".into()));
                        }
                    }
                }
                out.push(dims);
                reversed.push(rev);
            }
            let outs = raw::results(op).len();
            if out.len() != operands.len() || outs > operands.len() {
                return Some(Err("indexing maps that do not match the operands".into()));
            }
            Some(Ok(Structured { num_loops: parallel.len(), parallel, maps: out, reversed, num_inputs: operands.len() - outs }))
        }
        _ => None,
    }
}

/// The loop of `-d + (n - 1)` (or `(n - 1) - d`) over a dimension of size
/// `n`: a whole-dimension reversal.
fn reversed_dim(e: MlirAffineExpr, n: Option<i64>) -> Option<usize> {
    // SAFETY: `e` is a live affine expression of an indexing map; the binary-op getters run only after
    // `IsAAdd`/`IsAMul`, the constant and dim getters only after `IsAConstant`/`IsADim` on the same expression.
    unsafe {
        if !mlirAffineExprIsAAdd(e) {
            return None;
        }
        let (a, b) = (mlirAffineBinaryOpExprGetLHS(e), mlirAffineBinaryOpExprGetRHS(e));
        let (term, c) = if mlirAffineExprIsAConstant(b) {
            (a, b)
        } else if mlirAffineExprIsAConstant(a) {
            (b, a)
        } else {
            return None;
        };
        if Some(mlirAffineConstantExprGetValue(c) + 1) != n || !mlirAffineExprIsAMul(term) {
            return None;
        }
        let (x, y) = (mlirAffineBinaryOpExprGetLHS(term), mlirAffineBinaryOpExprGetRHS(term));
        let (d, k) = if mlirAffineExprIsADim(x) { (x, y) } else { (y, x) };
        (mlirAffineExprIsADim(d) && mlirAffineExprIsAConstant(k) && mlirAffineConstantExprGetValue(k) == -1)
            .then(|| mlirAffineDimExprGetPosition(d) as usize)
    }
}

pub fn key(v: MlirValue) -> usize {
    v.ptr as usize
}

/// Which dimension each grid axis tiles, for every value of a fusion body
/// (absent: untiled), and for each structured op the axis of each loop.
#[derive(Default)]
pub struct Analysis {
    pub tiling: HashMap<usize, Tiling>,
    pub loop_axes: HashMap<usize, Vec<Option<usize>>>,
}

impl Analysis {
    /// The tiling of `v` (untiled when nothing demanded one).
    pub fn of(&self, v: MlirValue) -> Tiling {
        let rank = raw::shape(v).map_or(0, |s| s.len());
        self.tiling.get(&key(v)).cloned().unwrap_or_else(|| vec![None; rank])
    }
}

/// Why a strategy cannot be applied: the op and the reason.
pub struct NotApplicable {
    pub op: MlirOperation,
    pub reason: String,
}

fn na(op: MlirOperation, reason: impl Into<String>) -> NotApplicable {
    NotApplicable { op, reason: reason.into() }
}

/// Runs the analysis over `body` (a fusion's block) with the given demands on
/// the yielded values; ops in `sources` are not looked through (the matmul
/// whose operands the matmul strategy windows itself).
pub fn analyze(body: MlirBlock, yields: &[Tiling], sources: &[MlirOperation]) -> Result<Analysis, NotApplicable> {
    let ops = raw::block_ops(body);
    let mut a = Analysis::default();
    let Some(&terminator) = ops.last() else { return Ok(a) };
    let demand = |a: &mut Analysis, v: MlirValue, t: Tiling, at: MlirOperation| -> Result<(), NotApplicable> {
        match a.tiling.get(&key(v)) {
            Some(old) if *old != t => Err(na(at, format!("a value is needed tiled two ways ({} and {})", describe(old), describe(&t)))),
            _ => {
                a.tiling.insert(key(v), t);
                Ok(())
            }
        }
    };
    for (v, t) in raw::operands(terminator).into_iter().zip(yields) {
        demand(&mut a, v, t.clone(), terminator)?;
    }
    for &op in ops[..ops.len() - 1].iter().rev() {
        if sources.iter().any(|s| s.ptr == op.ptr) {
            continue;
        }
        let results = raw::results(op);
        let result_tilings: Vec<Tiling> = results.iter().map(|&r| a.of(r)).collect();
        let tiled = result_tilings.iter().any(|t| t.iter().any(Option::is_some));
        let name = raw::name(op);
        if let Some(s) = structured(op) {
            let s = s.map_err(|e| na(op, e))?;
            let operands = raw::operands(op);
            let mut loops: Vec<Option<usize>> = vec![None; s.num_loops];
            for (j, t) in result_tilings.iter().enumerate() {
                let map = &s.maps[s.num_inputs + j];
                for (q, axis) in t.iter().enumerate() {
                    if let Some(axis) = axis {
                        let Some(Some(l)) = map.get(q) else {
                            return Err(na(op, "the tiled dimension of a result is a broadcast unit dimension"));
                        };
                        if loops[*l].is_some_and(|x| x != *axis) {
                            return Err(na(op, "two grid axes tile the same loop"));
                        }
                        loops[*l] = Some(*axis);
                    }
                }
            }
            for (j, t) in result_tilings.iter().enumerate() {
                let map = &s.maps[s.num_inputs + j];
                for (q, l) in map.iter().enumerate() {
                    if let Some(l) = l
                        && loops[*l] != t[q]
                    {
                        return Err(na(op, "the results of one op would be tiled differently"));
                    }
                }
            }
            for (l, axis) in loops.iter().enumerate() {
                if axis.is_some() && !s.parallel[l] {
                    return Err(na(op, "the grid would split a reduction loop"));
                }
                let backwards = s.maps.iter().zip(&s.reversed).any(|(m, r)| m.iter().zip(r).any(|(x, &r)| r && *x == Some(l)));
                if axis.is_some() && backwards {
                    return Err(na(op, "the grid would split a reversed dimension"));
                }
            }
            for (i, v) in operands.iter().enumerate() {
                if raw::shape(*v).is_none() {
                    continue;
                }
                let t: Tiling = s.maps[i].iter().map(|l| l.and_then(|l| loops[l])).collect();
                demand(&mut a, *v, t, op)?;
            }
            a.loop_axes.insert(op.ptr as usize, loops);
            continue;
        }
        match name.as_str() {
            "linalg.fill" => {
                let operands = raw::operands(op);
                if let (Some(out), Some(t)) = (operands.get(1), result_tilings.first()) {
                    demand(&mut a, *out, t.clone(), op)?;
                }
            }
            "tensor.empty" => {}
            "stablehlo.sort" => {
                // Each slice along the sort dimension is sorted whole: the
                // grid may tile the other dimensions, all operands alike.
                let d = super::emit_sort::sort_dimension(op);
                let t = result_tilings.first().cloned().unwrap_or_default();
                if result_tilings.iter().any(|r| *r != t) {
                    return Err(na(op, "the results of one sort would be tiled differently"));
                }
                if t.get(d).is_some_and(Option::is_some) {
                    return Err(na(op, "the grid would split the sort dimension"));
                }
                for v in raw::operands(op) {
                    demand(&mut a, v, t.clone(), op)?;
                }
            }
            "arith.constant" => {
                if tiled && !is_splat_constant(op) {
                    return Err(na(op, "a non-splat constant would be tiled"));
                }
            }
            _ => {
                if tiled {
                    return Err(na(op, format!("'{name}' cannot be tiled along the grid")));
                }
                for v in raw::operands(op) {
                    if let Some(s) = raw::shape(v) {
                        demand(&mut a, v, vec![None; s.len()], op)?;
                    }
                }
            }
        }
    }
    Ok(a)
}

fn describe(t: &Tiling) -> String {
    let dims: Vec<String> = t.iter().map(|a| a.map_or("·".into(), |a| format!("axis {a}"))).collect();
    format!("[{}]", dims.join(", "))
}

/// Whether `op` is an `arith.constant` with a splat (or 0-d) dense value.
pub fn is_splat_constant(op: MlirOperation) -> bool {
    // SAFETY: `v` is the non-null `value` of the live op `op`; `IsSplat` runs only once it is known to be dense
    // elements.
    raw::attr(op, "value").is_some_and(|v| unsafe { mlirAttributeIsADenseElements(v) && mlirDenseElementsAttrIsSplat(v) })
}

// ---- Mosaic's block-shape rules --------------------------------------------

/// Rows of one vector register for an element of `bits` bits (8 for 32-bit,
/// 16 for bf16, 32 for 8-bit: narrow types pack along sublanes).
pub fn sublanes(bits: u64) -> i64 {
    8 * (32 / bits.clamp(1, 32)) as i64
}

/// Why a block of `block` over an array of `array` (elements of `bits`
/// bits) breaks Mosaic's tiling rule, naming the dimension and what would
/// fit; None when it is legal. The rule: the last two block dims are
/// divisible by the sublane count and 128, or equal the array's; rank 1:
/// equal, a multiple of 1024, or a power of two ≥ 128·(32/bits).
pub fn block_rule_violation(array: &[i64], block: &[i64], bits: u64) -> Option<String> {
    if array.len() != block.len() {
        return Some(format!("a block of rank {} for an array of rank {}", block.len(), array.len()));
    }
    let r = array.len();
    for (d, (&n, &b)) in array.iter().zip(block).enumerate() {
        if b < 1 || b > n.max(1) {
            return Some(format!("dimension {d}: block {b} is outside 1..={n}"));
        }
    }
    if r == 1 {
        let (n, b) = (array[0], block[0]);
        let min_pow2 = 128 * (32 / bits.clamp(1, 32)) as i64;
        let ok = b == n || b % 1024 == 0 || (b.count_ones() == 1 && b >= min_pow2);
        let legal = |d: i64| d == n || d % 1024 == 0 || (d.count_ones() == 1 && d >= min_pow2);
        return (!ok).then(|| {
            format!(
                "dimension 0 (rank 1): block {b} must equal the array's {n}, be a multiple of 1024, or a power of two ≥ {min_pow2}; \
                 {} would fit",
                fitting(n, b, legal)
            )
        });
    }
    let (n, b) = (array[r - 1], block[r - 1]);
    if b != n && b % 128 != 0 {
        return Some(format!(
            "dimension {} (lanes): block {b} must be a multiple of 128 or equal the array's {n}; {} would fit",
            r - 1,
            fitting(n, b, |d| d == n || d % 128 == 0)
        ));
    }
    let s = sublanes(bits);
    let (n, b) = (array[r - 2], block[r - 2]);
    if b != n && b % s != 0 {
        return Some(format!(
            "dimension {} (sublanes): block {b} must be a multiple of {s} or equal the array's {n}; {} would fit",
            r - 2,
            fitting(n, b, |d| d == n || d % s == 0)
        ));
    }
    None
}

/// The legal block along a dimension of `n` closest to the asked-for `b`
/// (a divisor of `n`, so the grid covers the array exactly; `n` always is).
fn fitting(n: i64, b: i64, legal: impl Fn(i64) -> bool) -> i64 {
    divisors(n).into_iter().filter(|&d| legal(d)).min_by_key(|&d| (d - b).abs()).unwrap_or(n)
}

/// Divisors of `n`, largest first.
pub fn divisors(n: i64) -> Vec<i64> {
    (1..=n.max(1)).rev().filter(|b| n % b == 0).collect()
}

/// Bits of an element type (i1 counts as 8, index as 32: the TPU's).
pub fn element_bits(t: MlirType) -> u64 {
    // SAFETY: `t` is a live type; the element type is read only of a shaped type, the widths only of an integer or a
    // float type.
    unsafe {
        let e = if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t };
        if mlirTypeIsAInteger(e) {
            (mlirIntegerTypeGetWidth(e) as u64).max(8)
        } else if mlirTypeIsAFloat(e) {
            mlirFloatTypeGetWidth(e) as u64
        } else {
            32
        }
    }
}

/// The shape of a value's block under `tiling` and per-axis `block` sizes.
pub fn block_shape(shape: &[i64], tiling: &Tiling, block: &[i64]) -> Vec<i64> {
    shape.iter().zip(tiling).map(|(&n, t)| t.map_or(n, |a| block[a])).collect()
}

/// The body block of a fusion.
pub fn body_of(fusion: MlirOperation) -> MlirBlock {
    // SAFETY: `fusion` is a live floors.fusion (the callers pass ops from `collect_fusions`), which has one region: its
    // body.
    unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0)) }
}

/// What a grid-less kernel leaves in HBM and moves by DMA, as XLA:TPU and
/// Pallas users do for `dynamic_slice` and `dynamic_update_slice`:
/// - `update`: the fusion's one result is a `tensor.insert_slice` at
///   computed offsets (static sizes, unit strides) into a body argument
///   nothing else reads: that input is aliased to the output in HBM and the
///   update DMAed to its offsets (the insert_slice, the input's index);
/// - `reads`: body arguments whose only use is a `tensor.extract_slice` at
///   computed offsets: the slice is DMAed from HBM (the extract_slice, the
///   input's index).
/// - `gathers`: row gathers (below);
/// - `scatter`: the fusion's result is a scatter of rows whose operand, a
///   body argument nothing else reads, is aliased to the output in HBM
///   ([`super::emit_scatter::RowScatter`]).
#[derive(Default)]
pub struct HbmAccess {
    pub update: Option<(MlirOperation, usize)>,
    pub reads: Vec<(MlirOperation, usize)>,
    pub gathers: Vec<RowGather>,
    pub scatter: Option<super::emit_scatter::RowScatter>,
}

/// A gather of whole rows, as `x[idx]` lowers: a linalg.generic over
/// (i, j) yielding `tensor.extract %src[r(i), j]`, where `src` is an input
/// read nowhere else (it stays in HBM) and the row `r(i)` is scalar
/// arithmetic on `linalg.index 0` and inputs indexed by i alone (they go to
/// SMEM, as Pallas' scalar prefetch). The kernel DMAs each row, as Pallas
/// users write a gather.
pub struct RowGather {
    pub generic: MlirOperation,
    pub extract: MlirOperation,
    /// The input gathered from.
    pub src: usize,
    /// The generic's inputs the row reads (their numbers).
    pub index_inputs: Vec<usize>,
    /// The fusion inputs the row indices come from, read in SMEM.
    pub smem_inputs: Vec<usize>,
    /// The fusion's ops that compute the indices from those inputs
    /// (elementwise generics, splat constants): computed per row on the
    /// scalar core instead of as vectors.
    pub absorbed: Vec<MlirOperation>,
    /// The body ops computing the row, in order.
    pub row_ops: Vec<MlirOperation>,
}

impl HbmAccess {
    /// Whether input `i` stays in HBM.
    pub fn in_hbm(&self, i: usize) -> bool {
        self.aliased() == Some(i) || self.reads.iter().any(|&(_, d)| d == i) || self.gathers.iter().any(|g| g.src == i)
    }

    /// Whether input `i` is read as scalars from SMEM.
    pub fn in_smem(&self, i: usize) -> bool {
        self.gathers.iter().any(|g| g.smem_inputs.contains(&i)) || self.scatter.as_ref().is_some_and(|s| s.smem_inputs.contains(&i))
    }

    /// The input aliased to the (only) output in HBM: updated in place, or
    /// scattered into.
    pub fn aliased(&self) -> Option<usize> {
        self.update.map(|(_, d)| d).or(self.scatter.as_ref().and_then(|s| s.operand))
    }
}

/// The [`RowGather`] `op` is, if it is one (see there).
fn row_gather(body: MlirBlock, op: MlirOperation) -> Option<RowGather> {
    let s = structured(op)?.ok()?;
    let results = raw::results(op);
    let rows_cols = |v: MlirValue| raw::shape(v).filter(|s| s.len() == 2);
    let out = rows_cols(*results.first()?)?;
    if raw::name(op) != "linalg.generic" || results.len() != 1 || s.num_loops != 2 || s.parallel != [true, true] {
        return None;
    }
    if s.maps[s.num_inputs].iter().copied().ne([Some(0), Some(1)]) || s.reversed.iter().flatten().any(|&r| r) {
        return None;
    }
    // SAFETY: `op` is a live linalg.generic, which has one region: its body.
    let gbody = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
    let inner = raw::block_ops(gbody);
    let [.., extract, yield_] = inner[..] else { return None };
    if raw::name(extract) != "tensor.extract"
        || raw::operands(yield_).first().map(|v| v.ptr) != raw::results(extract).first().map(|v| v.ptr)
    {
        return None;
    }
    let e = raw::operands(extract);
    let [src, row, col] = e[..] else { return None };
    let src_index = sole_use_argument(body, src)?;
    if rows_cols(src)?[1] != out[1] {
        return None;
    }
    // The column is `linalg.index 1` (plus 0).
    let index_of = |v: MlirValue| raw::producer(v).filter(|&p| raw::name(p) == "linalg.index").and_then(|p| raw::int_attr(p, "dim"));
    let zero = |v: MlirValue| raw::producer(v).is_some_and(|p| raw::name(p) == "arith.constant" && raw::int_attr(p, "value") == Some(0));
    let col_ok = index_of(col) == Some(1)
        || raw::producer(col).is_some_and(|p| {
            raw::name(p) == "arith.addi" && {
                let o = raw::operands(p);
                (zero(o[0]) && index_of(o[1]) == Some(1)) || (zero(o[1]) && index_of(o[0]) == Some(1))
            }
        });
    if !col_ok {
        return None;
    }
    // SAFETY: `gbody` is the generic's live body block; `i` stays below its argument count.
    let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(gbody)).map(|i| mlirBlockGetArgument(gbody, i)).collect() };
    let operands = raw::operands(op);
    // The row's backward slice: scalar arith, linalg.index 0, inputs indexed by i alone.
    let mut needed = std::collections::HashSet::from([row.ptr as usize]);
    let mut row_ops = Vec::new();
    let mut index_inputs = Vec::new();
    for &o in inner[..inner.len() - 2].iter().rev() {
        let res = raw::results(o);
        if !res.iter().any(|r| needed.contains(&(r.ptr as usize))) {
            continue;
        }
        let n = raw::name(o);
        // SAFETY: `o` is a live op of the generic's body; this only counts its regions.
        let scalar = n.starts_with("arith.") && unsafe { mlirOperationGetNumRegions(o) } == 0;
        let ok = scalar || (n == "linalg.index" && index_of(res[0]) == Some(0));
        if !ok {
            return None;
        }
        row_ops.push(o);
        needed.extend(raw::operands(o).iter().map(|v| v.ptr as usize));
    }
    row_ops.reverse();
    for (k, a) in args.iter().enumerate().take(s.num_inputs) {
        if !needed.contains(&(a.ptr as usize)) {
            continue;
        }
        if s.maps[k].contains(&Some(1)) {
            return None;
        }
        index_inputs.push(k);
    }
    // Nothing else of the generic's body may be read from outside it.
    if needed.iter().any(|&p| {
        args.iter().all(|a| a.ptr as usize != p)
            && !row_ops.iter().any(|&o| raw::results(o).iter().any(|r| r.ptr as usize == p))
            && p != row.ptr as usize
    }) {
        return None;
    }
    if args.len() != s.num_inputs + 1 {
        return None;
    }
    // Where the indices come from: fusion inputs, through elementwise
    // generics and splat constants that nothing else reads.
    let (mut smem_inputs, mut absorbed) = (Vec::new(), Vec::new());
    for &k in &index_inputs {
        trace_indices(body, operands[k], &mut smem_inputs, &mut absorbed)?;
    }
    let only_for_gather = |v: MlirValue| raw::uses(v).iter().all(|(u, _)| u.ptr == op.ptr || absorbed.iter().any(|a| a.ptr == u.ptr));
    if absorbed.iter().any(|&a| !raw::results(a).into_iter().all(only_for_gather)) {
        return None;
    }
    for &d in &smem_inputs {
        // SAFETY: `d` is the number of a block argument of `body` (found by `trace_indices`).
        let param = unsafe { mlirBlockGetArgument(body, d as isize) };
        if !only_for_gather(param) {
            return None;
        }
    }
    Some(RowGather { generic: op, extract, src: src_index, index_inputs, smem_inputs, absorbed, row_ops })
}

/// A reshape that only adds or drops unit dimensions (`[16]` ↔ `[16, 1]`):
/// the non-unit dimensions of its operand and result agree in order.
pub fn unit_reshape(op: MlirOperation) -> bool {
    let non_unit = |v: MlirValue| raw::shape(v).map(|s| s.into_iter().filter(|&d| d != 1).collect::<Vec<_>>());
    let (Some(a), Some(b)) = (non_unit(raw::operands(op)[0]), raw::results(op).first().and_then(|&r| non_unit(r))) else { return false };
    a == b
}

/// Follows an index value of a row gather back to fusion inputs (recorded
/// in `inputs`) through splat constants and elementwise generics (recorded
/// in `ops`); None if anything else computes it.
pub(crate) fn trace_indices(body: MlirBlock, v: MlirValue, inputs: &mut Vec<usize>, ops: &mut Vec<MlirOperation>) -> Option<()> {
    // SAFETY: `v` is a live value of the fusion body; its owner and number are read only of a block argument.
    if unsafe { mlirValueIsABlockArgument(v) } {
        // SAFETY: as above.
        let (owner, n) = unsafe { (mlirBlockArgumentGetOwner(v), mlirBlockArgumentGetArgNumber(v) as usize) };
        if owner.ptr != body.ptr {
            return None;
        }
        if !inputs.contains(&n) {
            inputs.push(n);
        }
        return Some(());
    }
    let p = raw::producer(v)?;
    if ops.iter().any(|o| o.ptr == p.ptr) {
        return Some(());
    }
    match raw::name(p).as_str() {
        "arith.constant" if is_splat_constant(p) || raw::shape(v).is_some_and(|s| s.is_empty()) => {
            ops.push(p);
            Some(())
        }
        "tensor.expand_shape" | "tensor.collapse_shape" if unit_reshape(p) => {
            ops.push(p);
            trace_indices(body, raw::operands(p)[0], inputs, ops)
        }
        "linalg.generic" => {
            let s = structured(p)?.ok()?;
            let n_out = raw::results(p).len();
            let out_map = &s.maps[s.num_inputs];
            let identity = out_map.iter().enumerate().all(|(q, l)| *l == Some(q)) && out_map.len() == s.num_loops;
            if n_out != 1 || !s.parallel.iter().all(|&x| x) || !identity || s.reversed.iter().flatten().any(|&r| r) {
                return None;
            }
            // SAFETY: `p` is a live linalg.generic, which has one region: its body; the output's block argument is read
            // only to check that the body does not use it.
            let reads_out = unsafe {
                let gb = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
                !raw::uses(mlirBlockGetArgument(gb, s.num_inputs as isize)).is_empty()
            };
            // The body: scalar arith and loop indices only.
            let gbody_ok = raw::region_blocks(p).into_iter().flat_map(raw::block_ops).all(|o| {
                let n = raw::name(o);
                // SAFETY: `o` is a live op of the generic's body; this only counts its regions.
                (n.starts_with("arith.") && unsafe { mlirOperationGetNumRegions(o) } == 0) || n == "linalg.index" || n == "linalg.yield"
            });
            if reads_out || !gbody_ok {
                return None;
            }
            ops.push(p);
            for &x in raw::operands(p).iter().take(s.num_inputs) {
                trace_indices(body, x, inputs, ops)?;
            }
            Some(())
        }
        _ => None,
    }
}

/// A slice op at computed offsets with static sizes and unit strides.
fn dynamic_slice_op(op: MlirOperation, name: &str) -> bool {
    let tensors = if name == "tensor.extract_slice" { 1 } else { 2 };
    raw::name(op) == name
        && raw::operands(op).len() > tensors
        && raw::i64_array(op, "static_sizes").is_some_and(|s| s.iter().all(|&x| x >= 0))
        && raw::i64_array(op, "static_strides").is_some_and(|s| s.iter().all(|&x| x == 1))
}

/// The index of `v` among `body`'s arguments, when it is one, of rank ≥ 1,
/// used once.
pub(crate) fn sole_use_argument(body: MlirBlock, v: MlirValue) -> Option<usize> {
    // SAFETY: `v` is a live value of the fusion body; its owner block and number are read only once it is known to be
    // a block argument.
    let index = unsafe {
        if !mlirValueIsABlockArgument(v) || mlirBlockArgumentGetOwner(v).ptr != body.ptr {
            return None;
        }
        mlirBlockArgumentGetArgNumber(v) as usize
    };
    (raw::uses(v).len() == 1 && raw::shape(v).is_some_and(|s| !s.is_empty())).then_some(index)
}

/// The [`HbmAccess`] of a fusion body.
pub fn hbm_access(body: MlirBlock) -> HbmAccess {
    let ops = raw::block_ops(body);
    let mut access = HbmAccess::default();
    if let Some(&terminator) = ops.last()
        && let [y] = raw::operands(terminator)[..]
        && let Some(ins) = raw::producer(y).filter(|&o| dynamic_slice_op(o, "tensor.insert_slice"))
        && raw::uses(y).len() == 1
    {
        access.update = sole_use_argument(body, raw::operands(ins)[1]).map(|d| (ins, d));
    }
    for &op in &ops {
        if let Some(g) = row_gather(body, op) {
            access.gathers.push(g);
            continue;
        }
        if raw::name(op) == "stablehlo.scatter" {
            access.scatter = super::emit_scatter::row_scatter(body, op).ok();
            continue;
        }
        if dynamic_slice_op(op, "tensor.extract_slice")
            && let Some(d) = sole_use_argument(body, raw::operands(op)[0])
        {
            access.reads.push((op, d));
        }
    }
    access
}

/// The single plain `linalg.matmul` of a fusion whose A and B are fusion
/// inputs and whose C is a `linalg.fill`.
pub fn the_matmul(body: MlirBlock) -> Option<MlirOperation> {
    let ops = raw::block_ops(body);
    let mut mms = ops.iter().filter(|&&o| {
        let n = raw::name(o);
        n == "linalg.matmul" || n == "linalg.batch_matmul" || n == "linalg.generic" && is_contraction(o)
    });
    let mm = *mms.next()?;
    if mms.next().is_some() || raw::name(mm) != "linalg.matmul" || !maps::is_plain_matmul(mm) {
        return None;
    }
    let operands = raw::operands(mm);
    // SAFETY: `v` is an operand of the live op `mm`; its owner block is read only once it is known to be a block
    // argument.
    let is_arg = |v: MlirValue| unsafe { mlirValueIsABlockArgument(v) && mlirBlockArgumentGetOwner(v).ptr == body.ptr };
    let fill = raw::producer(operands[2]).filter(|&f| raw::name(f) == "linalg.fill");
    (is_arg(operands[0]) && is_arg(operands[1]) && fill.is_some()).then_some(mm)
}

fn is_contraction(op: MlirOperation) -> bool {
    maps::parallel_iterators(op).is_some_and(|p| p.iter().any(|x| !x))
        && raw::operands(op).len() >= 3
        && raw::results(op).len() == 1
        && raw::operands(op).iter().take(2).all(|&v| raw::shape(v).is_some_and(|s| s.len() >= 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_rules() {
        assert!(block_rule_violation(&[512, 512], &[128, 128], 32).is_none());
        assert!(block_rule_violation(&[8, 16], &[8, 16], 32).is_none());
        let e = block_rule_violation(&[512, 512], &[128, 100], 32).unwrap();
        assert!(e.contains("dimension 1 (lanes)") && e.contains("128 would fit"), "{e}");
        let e = block_rule_violation(&[64, 512], &[4, 512], 32).unwrap();
        assert!(e.contains("dimension 0 (sublanes)") && e.contains("multiple of 8"), "{e}");
        assert!(block_rule_violation(&[64, 512], &[8, 512], 16).is_some(), "bf16 packs 16 rows");
        assert!(block_rule_violation(&[4096], &[1024], 32).is_none());
        assert!(block_rule_violation(&[4096], &[256], 32).is_none());
        assert!(block_rule_violation(&[4096], &[100], 32).is_some());
    }
}
