//! `select_and_scatter` without loops (the pass option
//! `windows-as-slices=true`, the TPU floor's form: max pooling's gradient as
//! a Pallas author writes it), in two folds over the window's positions
//! (row-major, the order the loop form visits a window in):
//!
//! 1. **select**: per source element, the selected value, whether any
//!    in-bounds element was seen, and the selected position: for each
//!    position w, the padded operand's slice at w (strided by the window
//!    stride) and the matching slice of an in-bounds mask; an in-bounds
//!    candidate is taken when nothing was selected yet or `select(best,
//!    candidate)` is false — the loop form's rule;
//! 2. **scatter**: for each position w, the padded result's slice at w gets
//!    `scatter(old, source)` where w was selected, and is put back (a
//!    strided insert); the padding is cut off at the end.
//!
//! At most [`MAX_POSITIONS`] window positions; more is refused at the op.

use super::super::shape;
use super::*;

/// The most window positions the folds unroll.
const MAX_POSITIONS: i64 = 1024;

pub(super) fn select_and_scatter(op: &Op, mut t: Tpl, (wd, ws, pad): (&[i64], &[i64], &[i64])) -> R<()> {
    let positions: i64 = wd.iter().product();
    if positions > MAX_POSITIONS {
        return Err(op.fail(format!(
            "a select_and_scatter over {positions} window positions cannot be written as slices (windows-as-slices folds at most {MAX_POSITIONS})"
        )));
    }
    let operand = t.operand(op, 0);
    let source = t.operand(op, 1);
    let init = t.operand(op, 2);
    let r = operand.ty.rank();
    let (elem, id) = (operand.ty.elem.clone(), identity_map(r));
    let s0 = t.extract0(&init);
    let lo: Vec<i64> = (0..r).map(|d| pad[2 * d]).collect();
    let hi: Vec<i64> = (0..r).map(|d| pad[2 * d + 1]).collect();
    let padded_ty = operand.ty.with_shape(&(0..r).map(|d| lo[d] + operand.ty.shape[d] + hi[d]).collect::<Vec<_>>());
    let none = vec![0; r];
    let x = shape::pad_with(&mut t, &operand, &s0, &lo, &hi, &none, &padded_ty);
    let tru = t.cst("true", "i1");
    let fls = t.cst("false", "i1");
    let inside = t.fill(&tru, &operand.ty.with_elem("i1"));
    let mask = shape::pad_with(&mut t, &inside, &fls, &lo, &hi, &none, &padded_ty.with_elem("i1"));
    let sizes = source.ty.shape.clone();
    let (raw, select_region, scatter_region) = (op.raw, op.region(0), op.region(1));
    let zero = t.cst("0", "i32");
    let mut state = vec![
        t.fill(&s0, &source.ty.with_elem(&elem)),
        t.fill(&fls, &source.ty.with_elem("i1")),
        t.fill(&zero, &source.ty.with_elem("i32")),
    ];
    let windows = multi_indices(wd);
    for (k, w) in windows.iter().enumerate() {
        let at = shape::nums(w);
        let val = shape::extract_slice(&mut t, &x, &at, &sizes, ws);
        let inb = shape::extract_slice(&mut t, &mask, &at, &sizes, ws);
        let outs: Vec<(TV, String)> = state.iter().map(|s| (s.clone(), id.clone())).collect();
        let e = storage(&elem);
        state = t.generic(r, &vec!["parallel"; r], &[(val, id.clone()), (inb, id.clone())], &outs, |t, a| {
            let (val, inb, best, has, sel) = (&a[0], &a[1], &a[2], &a[3], &a[4]);
            let keep = scalar::scalarize_region(t, raw, select_region, &[best.clone(), val.clone()])?;
            let tru = t.v("arith.constant true");
            let nkeep = t.v(format!("arith.xori {}, {tru} : i1", keep[0]));
            let nhas = t.v(format!("arith.xori {has}, {tru} : i1"));
            let better = t.v(format!("arith.ori {nhas}, {nkeep} : i1"));
            let take = t.v(format!("arith.andi {inb}, {better} : i1"));
            let here = t.v(format!("arith.constant {k} : i32"));
            Ok(vec![
                t.v(format!("arith.select {take}, {val}, {best} : {e}")),
                t.v(format!("arith.ori {has}, {inb} : i1")),
                t.v(format!("arith.select {take}, {here}, {sel} : i32")),
            ])
        })?;
    }
    let (has, sel) = (state[1].clone(), state[2].clone());
    let mut result = t.fill(&s0, &padded_ty.with_elem(&op.results[0].elem));
    for (k, w) in windows.iter().enumerate() {
        let at = shape::nums(w);
        let cur = shape::extract_slice(&mut t, &result, &at, &sizes, ws);
        let ins = [(source.clone(), id.clone()), (has.clone(), id.clone()), (sel.clone(), id.clone())];
        let out = t.empty(&cur.ty);
        let e = storage(&cur.ty.elem);
        let cur_in = (cur, id.clone());
        let ins: Vec<(TV, String)> = std::iter::once(cur_in).chain(ins).collect();
        let new = t.generic(r, &vec!["parallel"; r], &ins, &[(out, id.clone())], |t, a| {
            let (old, src, has, sel) = (&a[0], &a[1], &a[2], &a[3]);
            let y = scalar::scalarize_region(t, raw, scatter_region, &[old.clone(), src.clone()])?;
            let here = t.v(format!("arith.constant {k} : i32"));
            let eq = t.v(format!("arith.cmpi eq, {sel}, {here} : i32"));
            let hit = t.v(format!("arith.andi {has}, {eq} : i1"));
            Ok(vec![t.v(format!("arith.select {hit}, {}, {old} : {e}", y[0]))])
        })?;
        result = shape::insert_slice(&mut t, &new[0], &result, &at, ws);
    }
    let res = shape::extract_slice(&mut t, &result, &shape::nums(&lo), &operand.ty.shape, &vec![1; r]);
    splice(op, &t, &[res])?;
    Ok(())
}
