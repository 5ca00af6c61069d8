//! `stablehlo.sort` → a stable bottom-up merge sort per slice, O(n log n)
//! comparator calls (XLA:CPU sorts with `std::stable_sort`/`std::sort` in its
//! sort thunk; the algorithm class is the same). Each slice along the sort
//! dimension is copied into a contiguous 1-D tensor per operand; passes of
//! widths 1, 2, 4, ... merge runs from one buffer into the other and back (two
//! passes per loop iteration, so the carried buffers stay where they are); the
//! sorted slice is written back. The comparator region becomes scalar code
//! inlined into the merge step, evaluated as `comp(right, left)`: an element
//! of the right run goes first only when it is strictly less, so equal
//! elements keep their order (every sort is stable, `is_stable` or not). All
//! operands move together. The merge step is branch-free: both heads are read
//! at clamped indices and selected.

use super::common::*;
use super::scalar;
use mlir_sys::{MlirOperation, MlirRegion};

pub fn sort(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let n_ops = op.operands.len();
    let shape = op.operands[0].shape.clone();
    let r = shape.len() as i64;
    let mut d = op.i64_attr("dimension").unwrap_or(-1);
    if d < 0 {
        d += r;
    }
    let d = d as usize;
    let len = shape[d];
    let xs: Vec<TV> = (0..n_ops).map(|i| t.operand(op, i)).collect();
    let outer: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| *i != d).map(|(_, &s)| s).collect();
    let cmp = Comparator { raw: op.raw, region: op.region(0) };
    let res = if len <= 1 {
        xs.clone()
    } else {
        t.for_nest(&outer, &xs, |t, outer_ivs, cur| {
            let rows: Vec<TV> = cur.iter().map(|x| extract_row(t, x, outer_ivs, d)).collect();
            let sorted = merge_sort(t, &rows, &cmp)?;
            Ok(cur.iter().zip(&sorted).map(|(x, row)| insert_row(t, row, x, outer_ivs, d)).collect())
        })?
    };
    splice(op, &t, &res)?;
    Ok(())
}

/// The sort's comparator region, scalarized at each use.
struct Comparator {
    raw: MlirOperation,
    region: MlirRegion,
}

/// The offsets of one slice along `d` (the outer induction variables, 0 at
/// `d`) and its sizes (1, `len` at `d`).
fn slice_geometry(x: &TV, outer_ivs: &[String], d: usize) -> (String, String, String) {
    let mut offs: Vec<String> = outer_ivs.to_vec();
    offs.insert(d, "0".to_string());
    let sizes: Vec<String> = x.ty.shape.iter().enumerate().map(|(i, &s)| if i == d { s.to_string() } else { "1".into() }).collect();
    let strides = vec!["1".to_string(); x.ty.rank()];
    (join(&offs), join(&sizes), join(&strides))
}

/// The slice of `x` along `d` at the outer indices, as a 1-D tensor.
fn extract_row(t: &mut Tpl, x: &TV, outer_ivs: &[String], d: usize) -> TV {
    let row = Ty::new(&[x.ty.shape[d]], &x.ty.elem);
    let (offs, sizes, strides) = slice_geometry(x, outer_ivs, d);
    let v = t.v(format!("tensor.extract_slice {}[{offs}] [{sizes}] [{strides}] : {} to {}", x.v, x.ty.t(), row.t()));
    TV::new(v, row)
}

/// `row` written back into `x` along `d` at the outer indices.
fn insert_row(t: &mut Tpl, row: &TV, x: &TV, outer_ivs: &[String], d: usize) -> TV {
    let (offs, sizes, strides) = slice_geometry(x, outer_ivs, d);
    let v = t.v(format!("tensor.insert_slice {} into {}[{offs}] [{sizes}] [{strides}] : {} into {}", row.v, x.v, row.ty.t(), x.ty.t()));
    TV::new(v, x.ty.clone())
}

/// Sorts the 1-D `rows` (one per operand, equal lengths ≥ 2) together.
fn merge_sort(t: &mut Tpl, rows: &[TV], cmp: &Comparator) -> R<Vec<TV>> {
    let n = rows.len();
    let len = rows[0].ty.shape[0];
    // ⌈log2 len⌉ merge passes, two per iteration; an odd count's last pass
    // merges one run that covers everything: a copy back into the first buffer.
    let passes = 64 - (len as u64 - 1).leading_zeros() as i64;
    // Scratch buffers that CSE cannot merge (a shared `tensor.empty` would
    // become one buffer behind two carried values).
    let scratch: Vec<TV> =
        rows.iter().map(|r| TV::new(t.v(format!("bufferization.alloc_tensor() : {}", r.ty.t())), r.ty.clone())).collect();
    let carried: Vec<TV> = rows.iter().chain(&scratch).cloned().collect();
    let out = t.for_nest(&[(passes + 1) / 2], &carried, |t, pv, cur| {
        let (a, b) = cur.split_at(n);
        let two = t.cst_index(2);
        let c1 = t.cst_index(1);
        let shift = t.v(format!("arith.muli {}, {two} : index", pv[0]));
        let w = t.v(format!("arith.shli {c1}, {shift} : index"));
        let b2 = merge_pass(t, a, b, &w, cmp)?;
        let w2 = t.v(format!("arith.addi {w}, {w} : index"));
        let a2 = merge_pass(t, &b2, a, &w2, cmp)?;
        Ok(a2.into_iter().chain(b2).collect())
    })?;
    Ok(out[..n].to_vec())
}

/// One pass: the runs of width `w` in `src` merged pairwise into `dst`.
fn merge_pass(t: &mut Tpl, src: &[TV], dst: &[TV], w: &str, cmp: &Comparator) -> R<Vec<TV>> {
    let len = src[0].ty.shape[0];
    let c0 = t.cst_index(0);
    let clen = t.cst_index(len);
    let w2 = t.v(format!("arith.addi {w}, {w} : index"));
    let inits: Vec<(String, String)> = dst.iter().map(|x| (x.v.clone(), x.ty.t())).collect();
    let out = t.for_range(&c0, &clen, &w2, &inits, |t, s, cur| {
        let m = t.v(format!("arith.addi {s}, {w} : index"));
        let mid = t.v(format!("arith.minsi {m}, {clen} : index"));
        let e = t.v(format!("arith.addi {s}, {w2} : index"));
        let end = t.v(format!("arith.minsi {e}, {clen} : index"));
        let dst: Vec<TV> = cur.iter().zip(src).map(|(v, x)| TV::new(v.clone(), x.ty.clone())).collect();
        merge_runs(t, src, &dst, [s, &mid, &end], cmp)
    })?;
    Ok(out.into_iter().zip(src).map(|(v, x)| TV::new(v, x.ty.clone())).collect())
}

/// `src[s..mid]` and `src[mid..end]` merged into `dst[s..end]`: one output
/// element per step, the left head unless the right one is strictly less.
fn merge_runs(t: &mut Tpl, src: &[TV], dst: &[TV], [s, mid, end]: [&str; 3], cmp: &Comparator) -> R<Vec<String>> {
    let len = src[0].ty.shape[0];
    let c1 = t.cst_index(1);
    let last = t.cst_index(len - 1);
    let mut inits = vec![(s.to_string(), "index".to_string()), (mid.to_string(), "index".to_string())];
    inits.extend(dst.iter().map(|x| (x.v.clone(), x.ty.t())));
    let out = t.for_range(s, end, &c1, &inits, |t, k, cur| {
        let (i, j) = (cur[0].clone(), cur[1].clone());
        let ic = t.v(format!("arith.minsi {i}, {last} : index"));
        let jc = t.v(format!("arith.minsi {j}, {last} : index"));
        let mut args = Vec::new();
        let mut heads = Vec::new();
        for x in src {
            let right = t.extract(x, std::slice::from_ref(&jc));
            let left = t.extract(x, std::slice::from_ref(&ic));
            args.push(right.clone());
            args.push(left.clone());
            heads.push((right, left));
        }
        let less = scalar::scalarize_region(t, cmp.raw, cmp.region, &args)?;
        let left_done = t.v(format!("arith.cmpi sge, {i}, {mid} : index"));
        let right_open = t.v(format!("arith.cmpi slt, {j}, {end} : index"));
        let prefer = t.v(format!("arith.ori {left_done}, {} : i1", less[0]));
        let take = t.v(format!("arith.andi {right_open}, {prefer} : i1"));
        let i1 = t.v(format!("arith.addi {i}, {c1} : index"));
        let j1 = t.v(format!("arith.addi {j}, {c1} : index"));
        let mut next = vec![t.v(format!("arith.select {take}, {i}, {i1} : index")), t.v(format!("arith.select {take}, {j1}, {j} : index"))];
        for ((x, (right, left)), v) in src.iter().zip(heads).zip(&cur[2..]) {
            let pick = t.v(format!("arith.select {take}, {right}, {left} : {}", x.ty.s()));
            let d = TV::new(v.clone(), x.ty.clone());
            next.push(t.insert(&pick, &d, std::slice::from_ref(&k.to_string())).v);
        }
        Ok(next)
    })?;
    Ok(out[2..].to_vec())
}
