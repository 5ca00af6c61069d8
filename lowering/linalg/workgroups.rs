//! Workgroups: how a kernel is split so the runtime can run it on several
//! threads (XLA:CPU's parallel loop emitter partitions the outer dimension the
//! same way), shared by the passes that decide, perform and bind the split:
//! 1. **Grid** ([`grid_for`], called by `floors-linalg-outline-kernels`): a
//!    kernel with one output whose value comes straight from a linalg op (the
//!    root, [`root_of`]) with a parallel loop that indexes an output dimension
//!    (the first such loop with two or more iterations is split, [`split_of`]:
//!    rows of a matmul — its columns when it has fewer rows than columns, or
//!    not twice as many and a B of 1 MiB or more, so workgroups do not each
//!    pack all of B —, the batch or else the
//!    output rows of a convolution),
//!    and enough work, gets `floors.grid = G` (G divides that loop, G ≤ the
//!    module's `floors.max_workgroups`), on the kernel and on the host's fusion
//!    op (the runtime's grid).
//! 2. **Distribute** (`floors-linalg-distribute-workgroups`, on tensors): the
//!    root is tiled with `scf.forall` into G chunks of that loop.
//! 3. **Bind** ([`bind_workgroups`], called by a floor's kernel ABI pass after
//!    bufferization, e.g. `floors-cpu-emit-kernel-abi`): the forall's body
//!    becomes the kernel's body and its induction variable a trailing `index`
//!    argument, the workgroup id. It checks that the output buffers are
//!    written only inside the chunk, so G workgroups never write the same bytes.

use mlir_sys::*;

use floors_ir::{
    contract::{FORALL_ATTR, GRID_ATTR, SERIAL_ATTR},
    ir::{raw, raw::sref},
    pass::{PassFailure, fail_at as fail},
};

use crate::maps;

/// Below this many iterations of the root, one workgroup is cheaper than a
/// split (a rayon join costs microseconds).
pub const MIN_ITERATIONS: i64 = 1 << 16;

pub use floors_ir::ir::raw::int_attr;

/// The ops of a kernel function's body (one block).
fn body_ops(func: MlirOperation) -> Vec<MlirOperation> {
    raw::region_blocks(func).into_iter().flat_map(raw::block_ops).collect()
}

/// The root of `func`: the linalg op whose result the single output is.
pub fn root_of(func: MlirOperation) -> Option<MlirOperation> {
    let outs: Vec<MlirOperation> =
        body_ops(func).into_iter().filter(|&o| raw::name(o) == "bufferization.materialize_in_destination").collect();
    let [out] = outs.as_slice() else { return None };
    let root = raw::producer(raw::operands(*out)[0])?;
    (raw::name(root).starts_with("linalg.") && raw::results(root).len() == 1).then_some(root)
}

/// How a root is split: its loop bounds and the loop cut into chunks.
pub struct Split {
    /// Every loop's trip count.
    pub bounds: Vec<i64>,
    /// The loop cut into chunks.
    pub dim: usize,
}

/// The loop bounds of `root` and the loops that may be split: parallel loops
/// that index a dimension of the (single) output directly, so each chunk
/// writes its own slab.
fn splittable_loops(root: MlirOperation) -> Option<(Vec<i64>, Vec<usize>)> {
    let name = raw::name(root);
    let result = raw::shape(raw::results(root)[0])?;
    if result.is_empty() {
        return None;
    }
    let ops = raw::operands(root);
    let all = |n: usize| (0..n).collect::<Vec<_>>();
    match name.as_str() {
        "linalg.generic" => {
            let parallel = maps::parallel_iterators(root)?;
            let maps = maps::maps_of(raw::attr(root, "indexing_maps")?)?;
            let (&out_map, _) = maps.split_last()?;
            if parallel.is_empty() {
                return None;
            }
            // SAFETY: `out_map` and `m` are live maps from `maps_of`; `r` is below the result
            // count, for `m` because linalg's verifier gives each operand's map one result per dim
            // of the operand; dim positions are read only after `mlirAffineExprIsADim`.
            unsafe {
                let nloops = mlirAffineMapGetNumDims(out_map) as usize;
                let mut dims = Vec::new();
                for r in 0..mlirAffineMapGetNumResults(out_map) {
                    let e = mlirAffineMapGetResult(out_map, r);
                    if mlirAffineExprIsADim(e) {
                        let d = mlirAffineDimExprGetPosition(e) as usize;
                        if parallel.get(d).copied().unwrap_or(false) {
                            dims.push(d);
                        }
                    }
                }
                dims.sort();
                // The loop bounds: each loop is some operand's dim (static shapes).
                let mut bounds = vec![-1i64; nloops];
                for (&v, &m) in ops.iter().zip(&maps) {
                    let shape = raw::shape(v)?;
                    for (r, &d) in shape.iter().enumerate() {
                        let e = mlirAffineMapGetResult(m, r as isize);
                        if mlirAffineExprIsADim(e) {
                            bounds[mlirAffineDimExprGetPosition(e) as usize] = d;
                        }
                    }
                }
                (bounds.iter().all(|&b| b >= 0)).then_some((bounds, dims))
            }
        }
        // All-parallel ops whose iteration space is the output's shape.
        "linalg.map" | "linalg.fill" | "linalg.transpose" | "linalg.broadcast" => {
            let n = result.len();
            Some((result, all(n)))
        }
        "linalg.reduce" => {
            let reduced = raw::i64_array(root, "dimensions")?;
            let input = raw::shape(ops[0])?;
            let kept = (0..input.len()).filter(|d| !reduced.contains(&(*d as i64))).collect();
            Some((input, kept))
        }
        "linalg.matmul" | "linalg.batch_matmul" if maps::is_plain_matmul(root) => {
            let a = raw::shape(ops[0])?;
            let n = result.len();
            let mut loops = result;
            loops.push(*a.last()?);
            Some((loops, all(n)))
        }
        // (n, oh, ow, f, kh, kw, c)
        "linalg.conv_2d_nhwc_hwcf" => {
            let w = raw::shape(ops[1])?;
            let mut loops = result;
            loops.extend([w[0], w[1], w[2]]);
            Some((loops, all(4)))
        }
        _ => None,
    }
}

/// Columns of a matmul chunk: a multiple of every register tile's width
/// (`NR` is 2·lanes: 32 with AVX-512, 16 with AVX2).
pub const MATMUL_COLUMN_CHUNK: i64 = 32;

/// B's packed bytes (K·N·4) from which a square-ish matmul is split by
/// columns: about a core's L2. A smaller B is cheap to pack twice, and rows
/// keep each workgroup's output rows on its core for a row-wise consumer
/// (attention's softmax after QKᵀ, B = 128 KB: 0.43 ms split by rows, 0.49
/// by columns).
pub const MATMUL_COLUMN_SPLIT_B_BYTES: i64 = 1 << 20;

/// Whether `root` computes an `[M, N]` matmul result (the matmul itself or
/// its elementwise epilogue, identity output map) to split by columns: when
/// `M < N`, or when `M < 2·N` and B is at least
/// [`MATMUL_COLUMN_SPLIT_B_BYTES`]. The CPU floor packs B (K×N, read and
/// written) and reads A in place, so a slab of rows has every workgroup
/// pack all of B, where a slab of columns packs only its share and reads
/// all of A: per workgroup of two, 2·K·N + M·K/2 elements moved against
/// K·N + M·K. The square 1024³ matmul split by rows spent ~5 % of its time
/// in the duplicated copy.
fn matmul_prefers_columns(root: MlirOperation) -> bool {
    let Some(&out) = raw::results(root).first() else { return false };
    let Some(shape) = raw::shape(out) else { return false };
    let [m, n] = shape[..] else { return false };
    if m >= 2 * n || n < 2 * MATMUL_COLUMN_CHUNK {
        return false;
    }
    // SAFETY: `root` is the live root op of a kernel.
    let block = unsafe { mlirOperationGetBlock(root) };
    if block.ptr.is_null() {
        return false;
    }
    // The named f32 matmul, or the multiply-accumulate generic in the same
    // layout a bf16/f16 dot is (B's bytes as stored: a bf16 B is packed as
    // bf16 pairs on AVX-512 BF16).
    let plain_matmul = |o: MlirOperation| {
        (raw::name(o) == "linalg.matmul" && maps::is_plain_matmul(o))
            || (raw::name(o) == "linalg.generic"
                && maps::indexing_maps_are(o, (3, &[&[0, 2], &[2, 1], &[0, 1]]))
                && maps::mac_contraction_dims(o).is_some())
    };
    let identity_out = plain_matmul(root)
        || raw::attr(root, "indexing_maps")
            .and_then(maps::maps_of)
            .and_then(|ms| ms.last().copied())
            // SAFETY: `m` is a live map from `maps_of`.
            .is_some_and(|m| unsafe { mlirAffineMapIsIdentity(m) });
    if !identity_out {
        return false;
    }
    let matmul = raw::block_ops(block)
        .into_iter()
        .find(|&o| plain_matmul(o) && raw::results(o).first().and_then(|&r| raw::shape(r)) == Some(shape.clone()));
    let Some(b) = matmul.and_then(|o| raw::operands(o).get(1).copied()) else { return false };
    let Some(k) = raw::shape(b).and_then(|s| s.first().copied()) else { return false };
    // SAFETY: `b` is an operand of a live matmul in `root`'s block.
    let b_bytes = k * n * raw::element_bytes(unsafe { mlirValueGetType(b) }) as i64;
    m < n || b_bytes >= MATMUL_COLUMN_SPLIT_B_BYTES
}

/// The loop of `root` cut into workgroups: a matmul's columns when
/// [`matmul_prefers_columns`], else the first splittable loop with at least
/// two iterations.
pub fn split_of(root: MlirOperation) -> Option<Split> {
    if !maps::tileable(root) {
        return None;
    }
    let (bounds, dims) = splittable_loops(root)?;
    if matmul_prefers_columns(root) && dims.contains(&1) {
        return Some(Split { bounds, dim: 1 });
    }
    let dim = dims.into_iter().find(|&d| bounds[d] >= 2)?;
    Some(Split { bounds, dim })
}

/// The grid for kernel `func` with at most `max` workgroups and at least
/// `min_iterations` iterations of its root: the largest G ≤ max dividing the
/// split loop (preferring chunks that are a multiple of 8, which keeps
/// matmul register rows whole), or None when the kernel stays one workgroup.
pub fn grid_for(func: MlirOperation, max: i64, min_iterations: i64) -> Option<i64> {
    if max < 2 {
        return None;
    }
    let root = root_of(func)?;
    // Elementwise fusion runs between this decision and the split and folds
    // producers' maps into the root; if every map is tileable now, the
    // composed ones are too.
    let all_tileable =
        raw::region_blocks(func).into_iter().flat_map(raw::block_ops).all(|o| !raw::name(o).starts_with("linalg.") || maps::tileable(o));
    if !all_tileable {
        return None;
    }
    let split = split_of(root)?;
    let iterations: i64 = split.bounds.iter().product();
    let d = split.bounds[split.dim];
    if iterations < min_iterations {
        return None;
    }
    let candidates: Vec<i64> = (2..=max.min(d)).rev().filter(|g| d % g == 0).collect();
    if candidates.is_empty() {
        return oversubscribed(d, max);
    }
    // Chunks of whole register columns (rows) where the sizes allow; else
    // any even split: the CPU packing computes a chunk's partial register
    // tile apart from its whole ones (1000³ had stayed on one core).
    let whole = |unit: i64| candidates.iter().copied().find(|g| (d / g) % unit == 0);
    if matmul_prefers_columns(root) && split.dim == 1 {
        return whole(MATMUL_COLUMN_CHUNK).or_else(|| candidates.first().copied());
    }
    whole(8).or_else(|| candidates.first().copied())
}

/// A grid for a loop of `d` iterations that no G in 2..=max divides (an odd
/// 255 rows on 2 threads: a 3×3/2 max pool of 512 rows): more workgroups
/// than threads, the fewest that divide `d` and keep the threads' loads
/// within 25 % of each other (5 chunks of 51 rows on 2 threads: 3 and 2),
/// at most 16 per thread. None when `d` has no such divisor (a prime): the
/// kernel stays one workgroup.
fn oversubscribed(d: i64, max: i64) -> Option<i64> {
    (max + 1..=(16 * max).min(d)).filter(|g| d % g == 0).find(|&g| {
        let per_thread = (g + max - 1) / max;
        (per_thread * max) as f64 <= 1.25 * g as f64
    })
}

/// Ops that only make another view of a buffer.
const VIEWS: &[&str] = &["memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast", "memref.reinterpret_cast"];

/// How a kernel with a grid sees its workgroup.
pub struct Binding {
    pub grid: i64,
    /// Workgroup 0 runs the whole kernel (it could not be split); the
    /// kernel takes no workgroup argument.
    pub zero_only: bool,
}

/// After bufferization: makes the body of `func`'s `floors.workgroups` forall
/// the function's body, with the induction variable as a new trailing
/// `index` argument. Returns how the kernel is bound, or None when `func` has
/// no grid.
pub fn bind_workgroups(func: MlirOperation, name: &str, num_outputs: usize) -> Result<Option<Binding>, PassFailure> {
    let Some(g) = int_attr(func, GRID_ATTR).filter(|&g| g > 1) else { return Ok(None) };
    if raw::attr(func, SERIAL_ATTR).is_some() {
        return Ok(Some(Binding { grid: g, zero_only: true }));
    }
    let foralls: Vec<MlirOperation> =
        body_ops(func).into_iter().filter(|&o| raw::name(o) == "scf.forall" && raw::attr(o, FORALL_ATTR).is_some()).collect();
    let [forall] = foralls.as_slice() else {
        return Err(fail(
            func,
            format!("@{name} has {GRID_ATTR} = {g} but {} workgroup loops (run floors-linalg-distribute-workgroups)", foralls.len()),
        ));
    };
    let forall = *forall;
    // `scf.forall (%i) = (0) to (G·step) step (step)`: workgroup w runs %i = w·step.
    let bounds =
        (raw::i64_array(forall, "staticLowerBound"), raw::i64_array(forall, "staticUpperBound"), raw::i64_array(forall, "staticStep"));
    let step = match bounds {
        (Some(lb), Some(ub), Some(st)) if lb == [0] && st.len() == 1 && st[0] > 0 && ub == [st[0] * g] => st[0],
        _ => 0,
    };
    if step == 0 || !raw::results(forall).is_empty() {
        return Err(fail(forall, format!("@{name}: the workgroup loop must be one {g}-iteration `scf.forall` from 0 on buffers")));
    }
    // SAFETY: `func` is a live `func.func` (its verifier makes `function_type` a TypeAttr of a
    // FunctionType and `arg_attrs` an ArrayAttr) and `forall` the one-dimensional `scf.forall` in
    // it, whose body block has the induction variable as argument 0 and whose terminator has one
    // region. Indices are below the counts read; arrays passed with their lengths outlive the
    // calls. The created constant and multiply are inserted into the entry block, which owns them.
    // The body's ops move before `forall`, which has no results (checked above) and is then
    // destroyed; `moved` holds only the moved, live ops.
    unsafe {
        let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
        let ctx = mlirOperationGetContext(func);
        let index = mlirIndexTypeGet(ctx);
        let wg = mlirBlockAddArgument(entry, index, mlirOperationGetLocation(func));
        // The function type gains the argument.
        let fty = mlirTypeAttrGetValue(raw::attr(func, "function_type").expect("func.func has a type"));
        let mut ins: Vec<MlirType> = (0..mlirFunctionTypeGetNumInputs(fty)).map(|i| mlirFunctionTypeGetInput(fty, i)).collect();
        ins.push(index);
        let nty = mlirFunctionTypeGet(ctx, ins.len() as isize, ins.as_ptr(), 0, std::ptr::null());
        mlirOperationSetAttributeByName(func, sref("function_type"), mlirTypeAttrGet(nty));
        if let Some(aa) = raw::attr(func, "arg_attrs") {
            let mut all: Vec<MlirAttribute> = (0..mlirArrayAttrGetNumElements(aa)).map(|i| mlirArrayAttrGetElement(aa, i)).collect();
            all.push(mlirDictionaryAttrGet(ctx, 0, std::ptr::null()));
            mlirOperationSetAttributeByName(func, sref("arg_attrs"), mlirArrayAttrGet(ctx, all.len() as isize, all.as_ptr()));
        }
        let fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
        // %i = %wg * step, at the top of the kernel.
        let loc = mlirOperationGetLocation(forall);
        let mut st = mlirOperationStateGet(sref("arith.constant"), loc);
        let value = [mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("value")), mlirIntegerAttrGet(index, step))];
        mlirOperationStateAddAttributes(&mut st, 1, value.as_ptr());
        mlirOperationStateAddResults(&mut st, 1, [index].as_ptr());
        let cst = mlirOperationCreate(&mut st);
        let mut st = mlirOperationStateGet(sref("arith.muli"), loc);
        mlirOperationStateAddOperands(&mut st, 2, [wg, mlirOperationGetResult(cst, 0)].as_ptr());
        mlirOperationStateAddResults(&mut st, 1, [index].as_ptr());
        let mul = mlirOperationCreate(&mut st);
        let first = mlirBlockGetFirstOperation(entry);
        mlirBlockInsertOwnedOperationBefore(entry, first, cst);
        mlirBlockInsertOwnedOperationAfter(entry, cst, mul);
        mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, 0), mlirOperationGetResult(mul, 0));
        let term = mlirBlockGetTerminator(fbody);
        if mlirRegionGetFirstBlock(mlirOperationGetRegion(term, 0)).ptr.is_null()
            || !raw::block_ops(mlirRegionGetFirstBlock(mlirOperationGetRegion(term, 0))).is_empty()
        {
            return Err(fail(forall, format!("@{name}: the workgroup loop still yields tensors (run after bufferization)")));
        }
        let moved: Vec<MlirOperation> = raw::block_ops(fbody).into_iter().filter(|o| o.ptr != term.ptr).collect();
        for &o in &moved {
            mlirOperationMoveBefore(o, forall);
        }
        mlirOperationDestroy(forall);
        // Each workgroup may write only its chunk: every use of an output
        // buffer must be inside what was the loop body.
        let nargs = mlirBlockGetNumArguments(entry) as usize - 1;
        for i in nargs - num_outputs..nargs {
            // Views of the output (reshapes, subviews) count as the output.
            let mut values = vec![mlirBlockGetArgument(entry, i as isize)];
            while let Some(v) = values.pop() {
                for (user, _) in raw::uses(v) {
                    if moved.iter().any(|&m| m.ptr == user.ptr || raw::is_within(user, m)) {
                        continue;
                    }
                    if VIEWS.contains(&raw::name(user).as_str()) {
                        values.extend(raw::results(user));
                        continue;
                    }
                    return Err(fail(
                        user,
                        format!(
                            "@{name}: output {} is written outside its workgroup chunk by '{}'; the kernel cannot be split",
                            i - (nargs - num_outputs),
                            raw::name(user)
                        ),
                    ));
                }
            }
        }
    }
    Ok(Some(Binding { grid: g, zero_only: false }))
}

#[cfg(test)]
mod tests {
    use super::oversubscribed;

    #[test]
    fn odd_loops_split_into_more_chunks_than_threads() {
        // 255 = 3·5·17 on 2 threads: 3 chunks load 2:1, 5 chunks 3:2 (within 25 %).
        assert_eq!(oversubscribed(255, 2), Some(5));
        // 4 threads: 5 chunks load 2:1:1:1, 15 load 4:4:4:3.
        assert_eq!(oversubscribed(255, 4), Some(15));
        // A prime has no divisor: one workgroup.
        assert_eq!(oversubscribed(257, 2), None);
        // 111 = 3·37: on 2 threads 3 chunks load 2:1 and 37 would be more than
        // 16 per thread; on 4 threads 37 load 10:9:9:9.
        assert_eq!(oversubscribed(111, 2), None);
        assert_eq!(oversubscribed(111, 4), Some(37));
        // Never chunks of no rows.
        assert_eq!(oversubscribed(3, 2), None);
    }
}
