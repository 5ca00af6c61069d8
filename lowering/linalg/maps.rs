//! Indexing maps and iterator types of linalg ops, read structurally through
//! MLIR's C API (never by printing a map and comparing text): the plain maps
//! of the named contractions, projections built from dim lists and compared
//! with `mlirAffineMapEqual`, which loops are parallel, and whether tiling
//! computes an op's operand slices right. Shared by the target-neutral
//! lowering and every floor's schedules.

use mlir_sys::*;

use floors_ir::ir::raw;

/// The loops each operand of `linalg.matmul` (d0, d1, d2) = (m, n, k) indexes
/// with its default maps: A[m, k], B[k, n], C[m, n].
pub const MATMUL_MAPS: (usize, [&[usize]; 3]) = (3, [&[0, 2], &[2, 1], &[0, 1]]);

/// The default maps of `linalg.batch_matmul` over (b, m, n, k): A[b, m, k],
/// B[b, k, n], C[b, m, n].
pub const BATCH_MATMUL_MAPS: (usize, [&[usize]; 3]) = (4, [&[0, 1, 3], &[0, 3, 2], &[0, 1, 2]]);

/// The affine map `(d0, ..., d{num_dims-1}) -> (d{results[0]}, ...)` in `ctx`.
pub fn projection(ctx: MlirContext, num_dims: usize, results: &[usize]) -> MlirAffineMap {
    // SAFETY: `ctx` is a live context (callers pass an op's or an attribute's); `exprs` lives for
    // the call, which copies it into the uniqued map.
    unsafe {
        let mut exprs: Vec<MlirAffineExpr> = results.iter().map(|&d| mlirAffineDimExprGet(ctx, d as isize)).collect();
        mlirAffineMapGet(ctx, num_dims as isize, 0, exprs.len() as isize, exprs.as_mut_ptr())
    }
}

/// The affine maps of an array attribute of `AffineMapAttr`s (None if it is
/// not one).
pub fn maps_of(maps: MlirAttribute) -> Option<Vec<MlirAffineMap>> {
    // SAFETY: `maps` is checked non-null before `mlirAttributeIsAArray`; elements are read at
    // indices below the count, and as maps only after `mlirAttributeIsAAffineMap`.
    unsafe {
        if maps.ptr.is_null() || !mlirAttributeIsAArray(maps) {
            return None;
        }
        (0..mlirArrayAttrGetNumElements(maps))
            .map(|i| {
                let m = mlirArrayAttrGetElement(maps, i);
                mlirAttributeIsAAffineMap(m).then(|| mlirAffineMapAttrGetValue(m))
            })
            .collect()
    }
}

/// The number of loops of a linalg op: the dims of its indexing maps (the
/// implicit ones of `linalg.matmul` / `linalg.batch_matmul`); None for an
/// op without them.
pub fn num_loops(op: MlirOperation) -> Option<usize> {
    if let Some(first) = raw::attr(op, "indexing_maps").and_then(maps_of).and_then(|m| m.first().copied()) {
        // SAFETY: `first` is a live affine map of the op's attribute.
        return Some(unsafe { mlirAffineMapGetNumDims(first) } as usize);
    }
    match raw::name(op).as_str() {
        "linalg.matmul" => Some(MATMUL_MAPS.0),
        "linalg.batch_matmul" => Some(BATCH_MATMUL_MAPS.0),
        _ => None,
    }
}

/// Whether `maps` (an array of affine map attributes) is exactly the
/// projections `results` over `num_dims` dims, compared map by map with
/// `mlirAffineMapEqual`.
pub fn maps_are(maps: MlirAttribute, num_dims: usize, results: &[&[usize]]) -> bool {
    let Some(got) = maps_of(maps) else { return false };
    if got.len() != results.len() {
        return false;
    }
    // SAFETY: `maps` is a live, non-null attribute (`maps_of` returned Some).
    let ctx = unsafe { mlirAttributeGetContext(maps) };
    // SAFETY: `m` is a live map from `maps_of`; the projection is built in the attribute's context.
    got.iter().zip(results).all(|(&m, r)| unsafe { mlirAffineMapEqual(m, projection(ctx, num_dims, r)) })
}

/// Whether `op`'s `indexing_maps` attribute is exactly `expected`
/// (`(num_dims, results per operand)`); false when the op has none.
pub fn indexing_maps_are(op: MlirOperation, expected: (usize, &[&[usize]])) -> bool {
    raw::attr(op, "indexing_maps").is_some_and(|a| maps_are(a, expected.0, expected.1))
}

/// Whether a `linalg.matmul` / `linalg.batch_matmul` is the plain
/// (un-transposed, un-broadcast) contraction: no `indexing_maps` attribute,
/// or the default ones. False for any other op.
pub fn is_plain_matmul(op: MlirOperation) -> bool {
    let (n, maps) = match raw::name(op).as_str() {
        "linalg.matmul" => MATMUL_MAPS,
        "linalg.batch_matmul" => BATCH_MATMUL_MAPS,
        _ => return false,
    };
    raw::attr(op, "indexing_maps").is_none_or(|a| maps_are(a, n, &maps))
}

/// Per loop of a structured op with an `iterator_types` attribute: parallel
/// (true) or not. Each entry is compared with the `#linalg.iterator_type<parallel>`
/// attribute (built once per call; attributes are uniqued, so the comparison
/// is structural). None without the attribute.
pub fn parallel_iterators(op: MlirOperation) -> Option<Vec<bool>> {
    let its = raw::attr(op, "iterator_types")?;
    // SAFETY: `its` is a live attribute of `op`, read only after the array check; `parallel` lives in its context.
    unsafe {
        if !mlirAttributeIsAArray(its) {
            return None;
        }
        let parallel =
            floors_ir::attrs::linalg::iterator_type(mlirAttributeGetContext(its), floors_ir::attrs::linalg::IteratorType::Parallel)?;
        Some((0..mlirArrayAttrGetNumElements(its)).map(|i| mlirAttributeEqual(mlirArrayAttrGetElement(its, i), parallel)).collect())
    }
}

/// Whether the index computed by `e` grows with every dim it uses: no
/// negative constant anywhere (which is how `-d0`, `5 - d0` and `d0 - 1` are
/// built) and no `mod`, `floordiv` or `ceildiv`.
pub fn is_increasing(e: MlirAffineExpr) -> bool {
    // SAFETY: `e` is a live affine expression; the constant value and the binary operands are read
    // only after the matching kind check.
    unsafe {
        if mlirAffineExprIsAConstant(e) {
            return mlirAffineConstantExprGetValue(e) >= 0;
        }
        if mlirAffineExprIsAMod(e) || mlirAffineExprIsAFloorDiv(e) || mlirAffineExprIsACeilDiv(e) {
            return false;
        }
        if mlirAffineExprIsABinary(e) {
            return is_increasing(mlirAffineBinaryOpExprGetLHS(e)) && is_increasing(mlirAffineBinaryOpExprGetRHS(e));
        }
        true
    }
}

/// Whether tiling computes `op`'s operand slices right: upstream's slice
/// computation assumes indices grow with the loop (it gives a flip's
/// `5 - d1` a slice of size 1), so ops whose maps have negative, modulo or
/// division terms are not tiled. True for ops without `indexing_maps`.
pub fn tileable(op: MlirOperation) -> bool {
    let Some(a) = raw::attr(op, "indexing_maps") else { return true };
    let Some(maps) = maps_of(a) else { return false };
    // SAFETY: `m` is a live map from `maps_of`; `r` is below its result count.
    maps.iter().all(|&m| unsafe { (0..mlirAffineMapGetNumResults(m)).all(|r| is_increasing(mlirAffineMapGetResult(m, r))) })
}

/// The rank of C (2: matmul, 3: batch matmul) when `op` is a
/// multiply-accumulate contraction `linalg.generic` over the matmul or
/// batch-matmul maps (`acc + x * y`, x and y the operands or their `extf`):
/// what the shared lowering gives a dot whose operands are narrower than
/// its accumulator (f16/bf16 accumulating in f32). Both floors' GEMM paths
/// take it as a matmul.
pub fn mac_contraction_rank(op: MlirOperation) -> Option<usize> {
    let its = parallel_iterators(op)?;
    let rank = match its.as_slice() {
        [true, true, false] if indexing_maps_are(op, (MATMUL_MAPS.0, &MATMUL_MAPS.1)) => 2,
        [true, true, true, false] if indexing_maps_are(op, (BATCH_MATMUL_MAPS.0, &BATCH_MATMUL_MAPS.1)) => 3,
        _ => return None,
    };
    (raw::operands(op).len() == 3 && is_mac_body(op)).then_some(rank)
}

/// The loops each operand of a multiply-accumulate contraction
/// `linalg.generic` (A, B, C; body as [`mac_contraction_rank`]) indexes,
/// when every map is a projected permutation (distinct plain dims): what
/// the shared lowering gives a `dot_general` of any dimension numbers
/// (`[Aᵀ]·B`, `A·Bᵀ`, batch dims anywhere). None for any other op.
pub fn mac_contraction_dims(op: MlirOperation) -> Option<[Vec<usize>; 3]> {
    if raw::name(op) != "linalg.generic" || raw::operands(op).len() != 3 || !is_mac_body(op) {
        return None;
    }
    let maps = maps_of(raw::attr(op, "indexing_maps")?)?;
    let dims = |m: MlirAffineMap| -> Option<Vec<usize>> {
        // SAFETY: `m` is a live map from `maps_of`; `r` is below its result count, and the dim
        // position is read only after `mlirAffineExprIsADim`.
        let d: Vec<usize> = unsafe {
            (0..mlirAffineMapGetNumResults(m))
                .map(|r| {
                    let e = mlirAffineMapGetResult(m, r);
                    mlirAffineExprIsADim(e).then(|| mlirAffineDimExprGetPosition(e) as usize)
                })
                .collect::<Option<_>>()?
        };
        let mut sorted = d.clone();
        sorted.sort_unstable();
        sorted.dedup();
        (sorted.len() == d.len()).then_some(d)
    };
    let [a, b, c] = maps.as_slice() else { return None };
    Some([dims(*a)?, dims(*b)?, dims(*c)?])
}

/// Whether the body of a 2-input generic is `acc + x * y` with x = a or
/// `extf(a)`, y = b or `extf(b)` (either order), all f32 or all the
/// accumulator's type.
fn is_mac_body(op: MlirOperation) -> bool {
    let blocks = raw::region_blocks(op);
    let [block] = blocks.as_slice() else { return false };
    // SAFETY: `block` is the single block of the live op `op`.
    if unsafe { mlirBlockGetNumArguments(*block) } != 3 {
        return false;
    }
    // SAFETY: called with 0, 1 and 2 only, below the argument count (3, checked above).
    let arg = |i| unsafe { mlirBlockGetArgument(*block, i) };
    let (a, b, acc) = (arg(0), arg(1), arg(2));
    let ops = raw::block_ops(*block);
    let Some(&yield_op) = ops.last() else { return false };
    let [sum] = raw::operands(yield_op)[..] else { return false };
    let def = |v: MlirValue, name: &str| raw::producer(v).filter(|&p| raw::name(p) == name && raw::is_within(p, op));
    // `v` is `x` or `extf(x)`.
    let reads =
        |v: MlirValue, x: MlirValue| raw::same_value(v, x) || def(v, "arith.extf").is_some_and(|e| raw::same_value(raw::operands(e)[0], x));
    let Some(add) = def(sum, "arith.addf") else { return false };
    let [p, q] = raw::operands(add)[..] else { return false };
    let prod = if raw::same_value(p, acc) {
        q
    } else if raw::same_value(q, acc) {
        p
    } else {
        return false;
    };
    let Some(mul) = def(prod, "arith.mulf") else { return false };
    let [x, y] = raw::operands(mul)[..] else { return false };
    let extfs = ops.iter().filter(|&&o| raw::name(o) == "arith.extf").count();
    ((reads(x, a) && reads(y, b)) || (reads(x, b) && reads(y, a))) && ops.len() == 3 + extfs
}
