//! reduce / reduce_window → `linalg.generic` with reduction iterators; the
//! body becomes scalar code with arguments (accumulators..., elements...),
//! the order XLA:CPU calls the reducer in.

use super::common::*;
use super::scalar;
use super::shape;

pub fn reduce(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let n = op.operands.len() / 2;
    let dims = op.i64s("dimensions").unwrap_or_default();
    let in_ty = op.operands[0].clone();
    let r = in_ty.rank();
    let out_exprs: Vec<String> = (0..r).filter(|i| !dims.contains(&(*i as i64))).map(|i| format!("d{i}")).collect();
    let iters: Vec<&str> = (0..r).map(|i| if dims.contains(&(i as i64)) { "reduction" } else { "parallel" }).collect();
    let ins: Vec<(TV, String)> = (0..n).map(|i| (t.operand(op, i), identity_map(r))).collect();
    let mut outs = Vec::new();
    for j in 0..n {
        let init = t.operand(op, n + j);
        let s = t.extract0(&init);
        let f = t.fill(&s, &op.results[j]);
        outs.push((f, amap(r, &out_exprs)));
    }
    let raw = op.raw;
    let region = op.region(0);
    let res = t.generic(r, &iters, &ins, &outs, |t, a| {
        let mut args: Vec<String> = a[n..].to_vec();
        args.extend_from_slice(&a[..n]);
        scalar::scalarize_region(t, raw, region, &args)
    })?;
    splice(op, &t, &res)?;
    Ok(())
}

pub fn reduce_window(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let n = op.operands.len() / 2;
    let in_ty = op.operands[0].clone();
    let r = in_ty.rank();
    let wd = op.i64s("window_dimensions").ok_or_else(|| op.fail("reduce_window without window_dimensions"))?;
    let ws = op.i64s_or("window_strides", r, 1);
    let bd = op.i64s_or("base_dilations", r, 1);
    let wdil = op.i64s_or("window_dilations", r, 1);
    let pad = op.i64s_or("padding", 2 * r, 0);
    let lo: Vec<i64> = (0..r).map(|i| pad[2 * i]).collect();
    let hi: Vec<i64> = (0..r).map(|i| pad[2 * i + 1]).collect();
    let interior: Vec<i64> = bd.iter().map(|b| b - 1).collect();
    let needs_pad = pad.iter().any(|&p| p != 0) || bd.iter().any(|&b| b != 1);
    let mut ins = Vec::new();
    let mut inits = Vec::new();
    for j in 0..n {
        let x = t.operand(op, j);
        let init = t.operand(op, n + j);
        let s = t.extract0(&init);
        let x = if needs_pad {
            let shape: Vec<i64> = (0..r)
                .map(|i| {
                    let m = x.ty.shape[i];
                    lo[i] + hi[i] + if m == 0 { 0 } else { (m - 1) * bd[i] + 1 }
                })
                .collect();
            shape::pad_with(&mut t, &x, &s, &lo, &hi, &interior, &x.ty.with_shape(&shape))
        } else {
            x
        };
        let in_exprs: Vec<String> = (0..r).map(|i| format!("d{i} * {} + d{} * {}", ws[i], r + i, wdil[i])).collect();
        ins.push((x, amap(2 * r, &in_exprs)));
        inits.push(s);
    }
    let win = t.empty(&Ty::new(&wd, "i8"));
    ins.push((win, amap(2 * r, &(r..2 * r).map(|i| format!("d{i}")).collect::<Vec<_>>())));
    let out_map = amap(2 * r, &(0..r).map(|i| format!("d{i}")).collect::<Vec<_>>());
    let outs: Vec<(TV, String)> = (0..n).map(|j| (t.fill(&inits[j], &op.results[j]), out_map.clone())).collect();
    let mut iters = vec!["parallel"; r];
    iters.extend(vec!["reduction"; r]);
    let raw = op.raw;
    let region = op.region(0);
    let res = t.generic(2 * r, &iters, &ins, &outs, |t, a| {
        // a = inputs(n), window(1), accumulators(n)
        let mut args: Vec<String> = a[n + 1..].to_vec();
        args.extend_from_slice(&a[..n]);
        scalar::scalarize_region(t, raw, region, &args)
    })?;
    splice(op, &t, &res)?;
    Ok(())
}
