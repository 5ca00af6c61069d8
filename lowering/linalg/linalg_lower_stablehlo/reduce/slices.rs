//! `reduce_window` without window-indexed maps (the pass option
//! `windows-as-slices=true`, which the TPU floor's pipeline sets: its
//! vectors are indexed by projections only), as a Pallas author writes a
//! pooling or a cumulative sum:
//!
//! - **a fold over window positions** (pooling): the accumulators start as
//!   the init values; per window position, in the window's row-major order
//!   (the order the direct form folds each window in), the padded input's
//!   slice at that offset (strided by the window stride) is combined
//!   elementwise into them: `acc = body(acc..., x...)`. At most
//!   [`MAX_POSITIONS`] positions; more is refused at the op.
//! - **a doubling scan** (the cumulative window JAX emits for cumsum,
//!   cumprod, cummax, ...): ⌈log₂ n⌉ steps, step k combining each element
//!   with the partial result k before it (after it, reversed) — the
//!   associative scan XLA rewrites such windows into — then the init value
//!   once, on the left.

use super::*;

/// The most window positions a windowed reduction is unrolled over.
pub(super) const MAX_POSITIONS: i64 = 1024;

/// A windowed reduction of the padded inputs `xs` (window `wd`, strides
/// `ws`, window dilations `wdil`) as a fold over its window positions,
/// starting from the init scalars `inits`.
pub(super) fn fold_positions(op: &Op, mut t: Tpl, xs: &[TV], inits: &[String], (wd, ws, wdil): (&[i64], &[i64], &[i64])) -> R<()> {
    let positions: i64 = wd.iter().product();
    if positions > MAX_POSITIONS {
        return Err(op.fail(format!(
            "a reduce_window over {positions} window positions cannot be written as slices (windows-as-slices folds at most {MAX_POSITIONS})"
        )));
    }
    let n = xs.len();
    let r = op.results[0].rank();
    let sizes = op.results[0].shape.clone();
    let mut accs: Vec<TV> = (0..n).map(|j| t.fill(&inits[j], &op.results[j])).collect();
    let (raw, region) = (op.raw, op.region(0));
    for w in multi_indices(wd) {
        let offs: Vec<i64> = w.iter().zip(wdil).map(|(w, d)| w * d).collect();
        let ins: Vec<(TV, String)> =
            xs.iter().map(|x| (shape::extract_slice(&mut t, x, &shape::nums(&offs), &sizes, ws), identity_map(r))).collect();
        let outs: Vec<(TV, String)> = accs.iter().map(|a| (a.clone(), identity_map(r))).collect();
        accs = t.generic(r, &vec!["parallel"; r], &ins, &outs, |t, a| {
            let mut args = a[n..].to_vec();
            args.extend_from_slice(&a[..n]);
            scalar::scalarize_region(t, raw, region, &args)
        })?;
    }
    splice(op, &t, &accs)?;
    Ok(())
}

/// A cumulative reduce_window ([`Scan`]) as a doubling scan along its
/// dimension, then the init values combined in on the left.
pub(super) fn doubling_scan(op: &Op, mut t: Tpl, scan: &Scan) -> R<()> {
    let n = op.operands.len() / 2;
    let xs: Vec<TV> = (0..n).map(|j| t.operand(op, j)).collect();
    if xs.iter().zip(&op.results).any(|(x, r)| x.ty.elem != r.elem) {
        return Err(op.fail("a cumulative reduce_window whose result type differs from its input's cannot be written as slices yet"));
    }
    let inits: Vec<String> = (0..n)
        .map(|j| {
            let init = t.operand(op, n + j);
            t.extract0(&init)
        })
        .collect();
    let shape = xs[0].ty.shape.clone();
    let (r, d, len) = (shape.len(), scan.dim, shape[scan.dim]);
    let (raw, region) = (op.raw, op.region(0));
    let id = identity_map(r);
    let mut ys = xs;
    let mut k = 1;
    while k < len {
        // Forward: y[i] = body(y[i - k], y[i]) for i ≥ k; reversed:
        // y[i] = body(y[i + k], y[i]) for i < len − k.
        let (acc_at, x_at) = if scan.reverse { (k, 0) } else { (0, k) };
        let mut sizes = shape.clone();
        sizes[d] = len - k;
        let at = |o: i64| -> Vec<String> { shape::nums(&(0..r).map(|i| if i == d { o } else { 0 }).collect::<Vec<_>>()) };
        let mut ins: Vec<(TV, String)> = Vec::new();
        for at_ in [acc_at, x_at] {
            for y in &ys {
                ins.push((shape::extract_slice(&mut t, y, &at(at_), &sizes, &vec![1; r]), id.clone()));
            }
        }
        let outs: Vec<(TV, String)> = ys.iter().map(|y| (t.empty(&y.ty.with_shape(&sizes)), id.clone())).collect();
        let combined = t.generic(r, &vec!["parallel"; r], &ins, &outs, |t, a| scalar::scalarize_region(t, raw, region, &a[..2 * n]))?;
        ys = ys.iter().zip(&combined).map(|(y, c)| shape::insert_slice(&mut t, c, y, &at(x_at), &vec![1; r])).collect();
        k *= 2;
    }
    let mut ins: Vec<(TV, String)> = (0..n).map(|j| (t.fill(&inits[j], &op.results[j]), id.clone())).collect();
    ins.extend(ys.iter().map(|y| (y.clone(), id.clone())));
    let outs: Vec<(TV, String)> = op.results.iter().map(|ty| (t.empty(ty), id.clone())).collect();
    let res = t.generic(r, &vec!["parallel"; r], &ins, &outs, |t, a| scalar::scalarize_region(t, raw, region, &a[..2 * n]))?;
    splice(op, &t, &res)?;
    Ok(())
}
