//! `stablehlo.sort` → per-slice stable bubble sort in `scf.for` loops on
//! tensors (all operands permuted together; the comparator becomes scalar
//! code). Simple and stable; O(n²) per slice — the performance version
//! (merge sort / library call) comes with the CPU runtime.

use super::common::*;
use super::scalar;

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
    let raw = op.raw;
    let region = op.region(0);
    let res = if len <= 1 {
        xs.clone()
    } else {
        t.for_nest(&outer, &xs, |t, outer_ivs, cur| {
            t.for_nest(&[len - 1], cur, |t, _, cur| {
                t.for_nest(&[len - 1], cur, |t, jv, cur| {
                    let j = jv[0].clone();
                    let one = t.cst_index(1);
                    let j1 = t.v(format!("arith.addi {j}, {one} : index"));
                    let idx = |pos: &str| -> Vec<String> {
                        let mut v = outer_ivs.to_vec();
                        v.insert(d, pos.to_string());
                        v
                    };
                    let (ij, ij1) = (idx(&j), idx(&j1));
                    let mut args = Vec::new();
                    let mut pairs = Vec::new();
                    for x in cur {
                        let hi = t.extract(x, &ij1);
                        let lo = t.extract(x, &ij);
                        args.push(hi.clone());
                        args.push(lo.clone());
                        pairs.push((hi, lo));
                    }
                    // comparator(x[j+1], x[j]) → swap (strictly less: stable)
                    let c = scalar::scalarize_region(t, raw, region, &args)?;
                    let mut out = Vec::new();
                    for (x, (hi, lo)) in cur.iter().zip(pairs) {
                        let a = t.v(format!("arith.select {}, {hi}, {lo} : {}", c[0], x.ty.s()));
                        let b = t.v(format!("arith.select {}, {lo}, {hi} : {}", c[0], x.ty.s()));
                        let y = t.insert(&a, x, &ij);
                        out.push(t.insert(&b, &y, &ij1));
                    }
                    Ok(out)
                })
            })
        })?
    };
    splice(op, &t, &res)?;
    Ok(())
}
