//! reduce / reduce_window → `linalg.generic` with reduction iterators; the
//! body becomes scalar code with arguments (accumulators..., elements...),
//! the order XLA:CPU calls the reducer in.

use mlir_sys::*;

use super::common::*;
use super::scalar;
use super::shape;

mod slices;

/// A reduce's loops over its rank-`r` input: the output map's results (the
/// kept dims) and each loop's iterator (reduced dims: `reduction`).
fn reduce_loops(op: &Op, r: usize) -> (Vec<String>, Vec<&'static str>) {
    let dims = op.i64s("dimensions").unwrap_or_default();
    let reduced = |i: usize| dims.contains(&(i as i64));
    let out_exprs = (0..r).filter(|&i| !reduced(i)).map(|i| format!("d{i}")).collect();
    let iters = (0..r).map(|i| if reduced(i) { "reduction" } else { "parallel" }).collect();
    (out_exprs, iters)
}

/// `maximum` or `minimum` when `region` is only that op on its two
/// arguments (then `return`).
fn max_or_min_reducer(region: MlirRegion) -> Option<&'static str> {
    let bs = blocks(region);
    let [b] = bs.as_slice() else { return None };
    let ops = block_ops(*b);
    let [combine, ret] = ops.as_slice() else { return None };
    let name = match op_name_raw(*combine).as_str() {
        "stablehlo.maximum" => "maximum",
        "stablehlo.minimum" => "minimum",
        _ => return None,
    };
    // SAFETY: `b` is the single block of a live `stablehlo.reduce` body, which its verifier gives
    // two arguments per input, so arguments 0 and 1 exist even before the count check below.
    // `combine` is a maximum or minimum (two operands, one result); `ret`'s operand 0 is read only
    // after its count is checked.
    unsafe {
        let args = [mlirBlockGetArgument(*b, 0), mlirBlockGetArgument(*b, 1)];
        let uses_args = (0..2).all(|i| args.iter().any(|&a| mlirValueEqual(mlirOperationGetOperand(*combine, i), a)));
        let returns_it = op_name_raw(*ret) == "stablehlo.return"
            && mlirOperationGetNumOperands(*ret) == 1
            && mlirValueEqual(mlirOperationGetOperand(*ret, 0), mlirOperationGetResult(*combine, 0));
        (mlirBlockGetNumArguments(*b) == 2 && uses_args && returns_it).then_some(name)
    }
}

/// A max/min reduction of f16/bf16 accumulated in f32 and rounded once at
/// the end: the same values (max and min are exact in any float type), in
/// the form the CPU floor vectorizes (the accumulator itself combined; a
/// body that widens a bf16 accumulator and rounds it back every step is a
/// scalar loop: bf16 softmax ran 5x slower than XLA's).
fn reduce_half_max_min(op: &Op, name: &str) -> R<()> {
    let mut t = Tpl::new(op);
    let x = t.operand(op, 0);
    let e = x.ty.elem.clone();
    let r = x.ty.rank();
    let (out_exprs, iters) = reduce_loops(op, r);
    let raw = op.raw;
    let init = t.operand(op, 1);
    let s = t.extract0(&init);
    let s32 = scalar::convert(&mut t, raw, &s, &e, "f32")?;
    let f = t.fill(&s32, &op.results[0].with_elem("f32"));
    let wide = t.generic(r, &iters, &[(x, identity_map(r))], &[(f, amap(r, &out_exprs))], |t, a| {
        let x32 = scalar::convert(t, raw, &a[0], &e, "f32")?;
        Ok(vec![scalar::emit(t, raw, name, &[a[1].clone(), x32], &["f32".into(), "f32".into()], "f32")?])
    })?;
    let narrow = t.map(&wide, &op.results[0], |t, a| scalar::convert(t, raw, &a[0], "f32", &e))?;
    splice(op, &t, &[narrow])?;
    Ok(())
}

pub fn reduce(op: &Op) -> R<()> {
    let n = op.operands.len() / 2;
    if n == 1
        && matches!(op.operands[0].elem.as_str(), "f16" | "bf16")
        && let Some(name) = max_or_min_reducer(op.region(0))
    {
        return reduce_half_max_min(op, name);
    }
    let mut t = Tpl::new(op);
    let r = op.operands[0].rank();
    let (out_exprs, iters) = reduce_loops(op, r);
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

/// With `as_slices` (the pass option `windows-as-slices`), no window-indexed
/// maps: a fold over shifted slices or a doubling scan ([`slices`]).
pub fn reduce_window(op: &Op, as_slices: bool) -> R<()> {
    let mut t = Tpl::new(op);
    let n = op.operands.len() / 2;
    let in_ty = op.operands[0].clone();
    let r = in_ty.rank();
    let wd = op.i64s("window_dimensions").ok_or_else(|| op.fail("reduce_window without window_dimensions"))?;
    let ws = op.i64s_or("window_strides", r, 1);
    let bd = op.i64s_or("base_dilations", r, 1);
    let wdil = op.i64s_or("window_dilations", r, 1);
    let pad = op.i64s_or("padding", 2 * r, 0);
    if let Some(scan) = cumulative(&in_ty.shape, &wd, &ws, &bd, &wdil, &pad) {
        return if as_slices { slices::doubling_scan(op, t, &scan) } else { scan_window(op, t, scan) };
    }
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
    if as_slices {
        let xs: Vec<TV> = ins.into_iter().map(|(x, _)| x).collect();
        return slices::fold_positions(op, t, &xs, &inits, (&wd, &ws, &wdil));
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

/// A reduce_window whose window along one dimension covers every element
/// before (or after) each position — the form JAX emits for cumsum, cumprod,
/// cummax, cummin and cumlogsumexp: window ≥ the extent, padding (W−1, 0)
/// (forward) or (0, W−1) (reverse), unit strides and dilations, and a unit
/// window everywhere else.
struct Scan {
    dim: usize,
    reverse: bool,
}

fn cumulative(shape: &[i64], wd: &[i64], ws: &[i64], bd: &[i64], wdil: &[i64], pad: &[i64]) -> Option<Scan> {
    let r = shape.len();
    if ws.iter().chain(bd).chain(wdil).any(|&x| x != 1) {
        return None;
    }
    let unit = |i: usize| wd[i] == 1 && pad[2 * i] == 0 && pad[2 * i + 1] == 0;
    let dims: Vec<usize> = (0..r).filter(|&i| !unit(i)).collect();
    let [dim] = dims.as_slice() else { return None };
    let (w, lo, hi, len) = (wd[*dim], pad[2 * dim], pad[2 * dim + 1], shape[*dim]);
    if len < 2 || w < len {
        return None;
    }
    match (lo, hi) {
        (l, 0) if l == w - 1 => Some(Scan { dim: *dim, reverse: false }),
        (0, h) if h == w - 1 => Some(Scan { dim: *dim, reverse: true }),
        _ => None,
    }
}

/// A cumulative reduce_window as a prefix scan, O(n) (XLA rewrites it into
/// an associative scan; evaluating each window would be O(n²)): per line
/// along the scan dimension, y₋₁ = init and yᵢ = body(yᵢ₋₁, xᵢ) — the order a
/// window's direct evaluation folds in (forward), or from the end (reverse).
fn scan_window(op: &Op, mut t: Tpl, scan: Scan) -> R<()> {
    let n = op.operands.len() / 2;
    let shape = op.operands[0].shape.clone();
    let len = shape[scan.dim];
    let xs: Vec<TV> = (0..n).map(|j| t.operand(op, j)).collect();
    let inits: Vec<String> = (0..n)
        .map(|j| {
            let init = t.operand(op, n + j);
            t.extract0(&init)
        })
        .collect();
    let outs: Vec<TV> = op.results.iter().map(|ty| t.empty(ty)).collect();
    let outer: Vec<i64> = shape.iter().enumerate().filter(|(i, _)| *i != scan.dim).map(|(_, &s)| s).collect();
    let (raw, region) = (op.raw, op.region(0));
    let res = t.for_nest(&outer, &outs, |t, outer_ivs, cur| {
        let mut carried: Vec<(String, String)> = inits.iter().zip(&xs).map(|(v, x)| (v.clone(), x.ty.s())).collect();
        carried.extend(cur.iter().map(|o| (o.v.clone(), o.ty.t())));
        let ys = t.for_nest_raw(&[len], &carried, |t, iv, c| {
            let i = if scan.reverse {
                let last = t.cst_index(len - 1);
                t.v(format!("arith.subi {last}, {} : index", iv[0]))
            } else {
                iv[0].clone()
            };
            let mut at = outer_ivs.to_vec();
            at.insert(scan.dim, i);
            let mut args: Vec<String> = c[..n].to_vec();
            args.extend(xs.iter().map(|x| t.extract(x, &at)));
            let acc = scalar::scalarize_region(t, raw, region, &args)?;
            let mut next = acc.clone();
            for (o, (v, ty)) in c[n..].iter().zip(acc.iter().zip(&op.results)) {
                next.push(t.insert(v, &TV::new(o.clone(), ty.clone()), &at).v);
            }
            Ok(next)
        })?;
        Ok(ys[n..].iter().zip(&op.results).map(|(v, ty)| TV::new(v.clone(), ty.clone())).collect())
    })?;
    splice(op, &t, &res)?;
    Ok(())
}
