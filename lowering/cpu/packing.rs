//! The packed matmul layout of the CPU floor (IREE's data tiling for mmt4d):
//! written by `floors-cpu-pack-matmul`, recognised by
//! `floors-cpu-tile-and-vectorize`. Declared once here so the two agree; the
//! recognition compares indexing maps structurally ([`maps::indexing_maps_are`]).

use mlir_sys::MlirOperation;

use floors_linalg::maps;

/// Loops of the packed contraction: (m1, n1, m0, n0, k), with a batch loop in
/// front for a batch matmul.
pub const PACKED_LOOPS: usize = 5;

/// The loops each operand of the packed contraction indexes (batch loop
/// excluded): A viewed as [M1, MR, K], Bp[N1, K, NR], C viewed as [M1, MR, N1, NR].
pub const PACKED_MAPS: [&[usize]; 3] = [&[0, 2, 4], &[1, 4, 3], &[0, 2, 1, 3]];

/// Loops of the bf16 packed contraction in VNNI layout (AVX-512 BF16's
/// `vdpbf16ps` multiplies pairs of consecutive K): (m1, n1, m0, n0, k2, p)
/// with K = 2·k2 + p, a batch loop in front for a batch matmul.
pub const VNNI_LOOPS: usize = 6;

/// The loops each operand of the VNNI contraction indexes: A viewed as
/// [M1, MR, K/2, 2], Bp[N1, K/2, NR, 2] (each column's K pairs adjacent),
/// C viewed as [M1, MR, N1, NR].
pub const VNNI_MAPS: [&[usize]; 3] = [&[0, 2, 4, 5], &[1, 4, 3, 5], &[0, 2, 1, 3]];

/// `results` of a map over the packed loops with the batch loop (d0) put in
/// front when `batch`: every loop shifts by one and d0 leads.
pub fn with_batch(batch: bool, results: &[usize]) -> Vec<usize> {
    let off = batch as usize;
    (0..off).chain(results.iter().map(|r| r + off)).collect()
}

/// Whether `op` is the packed contraction (its maps exactly
/// [`PACKED_MAPS`]): `Some(batch)`, or None for any other op.
pub fn packed_contraction(op: MlirOperation) -> Option<bool> {
    contraction_with(op, PACKED_LOOPS, &PACKED_MAPS)
}

/// Whether `op` is the VNNI contraction (its maps exactly [`VNNI_MAPS`]):
/// `Some(batch)`, or None for any other op.
pub fn vnni_contraction(op: MlirOperation) -> Option<bool> {
    contraction_with(op, VNNI_LOOPS, &VNNI_MAPS)
}

fn contraction_with(op: MlirOperation, loops: usize, maps_of: &[&[usize]; 3]) -> Option<bool> {
    [false, true].into_iter().find(|&batch| {
        let results: Vec<Vec<usize>> = maps_of.iter().map(|r| with_batch(batch, r)).collect();
        let results: Vec<&[usize]> = results.iter().map(Vec::as_slice).collect();
        maps::indexing_maps_are(op, (loops + batch as usize, &results))
    })
}

/// MR×NR accumulators of the packed matmul's register tile for `lanes` f32
/// lanes. AVX2 (16 ymm): 4×2L = 8 accumulators + 2 B vectors + 1 broadcast,
/// measured best of 4×2L, 8×L, 8×2L, 2×4L on 1024³ (43 ms vs 53–93 ms, one
/// core); AVX-512 (32 zmm): 8×2L = 16 accumulators.
pub fn register_tile(lanes: i64) -> (i64, i64) {
    if lanes >= 16 { (8, 2 * lanes) } else { (4, 2 * lanes) }
}
