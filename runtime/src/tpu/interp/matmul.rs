//! `tpu.matmul`: a contraction per dot dimension numbers, summed in f64
//! (i64) and added to the accumulator.

use super::*;

/// Offsets (row-major, in elements of `shape` with `strides`) of every
/// multi-index over `dims`, in row-major order of those dims.
fn group_offsets(shape: &[i64], strides: &[i64], dims: &[usize]) -> Vec<usize> {
    let sizes: Vec<i64> = dims.iter().map(|&d| shape[d]).collect();
    let n: i64 = sizes.iter().product();
    let mut idx = vec![0i64; dims.len()];
    let mut out = Vec::with_capacity(n.max(0) as usize);
    for _ in 0..n {
        out.push(dims.iter().zip(&idx).map(|(&d, &i)| i * strides[d]).sum::<i64>() as usize);
        for k in (0..dims.len()).rev() {
            idx[k] += 1;
            if idx[k] < sizes[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

/// `tpu.matmul`: acc + contraction of lhs and rhs per the dimension numbers
/// (default: lhs [M, K] (or [K, M] with transpose_lhs) · rhs [K, N] (or
/// [N, K] with transpose_rhs)). Products are summed in f64 (i64) and the sum
/// added to acc and rounded once.
pub(super) fn matmul(
    l: &Tensor,
    r: &Tensor,
    acc: &Tensor,
    dn: Option<&DotDimensionNumbers>,
    transpose_lhs: bool,
    transpose_rhs: bool,
) -> std::result::Result<Tensor, String> {
    let default;
    let dn = match dn {
        Some(d) => d,
        None => {
            default = default_dimension_numbers(l, r, transpose_lhs, transpose_rhs)?;
            &default
        }
    };
    let plan = Plan::new(l, r, acc, dn)?;
    let (b, m, n, k) = (checked_count(&plan.bsz)?, checked_count(&plan.msz)?, checked_count(&plan.nsz)?, checked_count(&plan.ksz)?);
    if (b as u64) * (m as u64) * (n as u64) * (k as u64) > (1u64 << 40) {
        return Err("matmul too large to interpret".into());
    }
    let (canon, canon_i) = contract(l, r, &plan, [b, m, n, k], acc.ty.is_float());
    Ok(scatter(acc, &plan, &canon, &canon_i, m, n))
}

/// The dimension numbers of a matmul that gives none: rank-2 operands,
/// lhs [M, K] (or [K, M] with `transpose_lhs`) · rhs [K, N] (or [N, K] with
/// `transpose_rhs`), result [M, N].
fn default_dimension_numbers(
    l: &Tensor,
    r: &Tensor,
    transpose_lhs: bool,
    transpose_rhs: bool,
) -> std::result::Result<DotDimensionNumbers, String> {
    if l.shape.len() != 2 || r.shape.len() != 2 {
        return Err("matmul without dimension_numbers needs rank-2 operands".into());
    }
    let (lc, lm) = if transpose_lhs { (0, 1) } else { (1, 0) };
    let (rc, rn) = if transpose_rhs { (1, 0) } else { (0, 1) };
    Ok(DotDimensionNumbers {
        lhs_contracting_dims: vec![lc],
        rhs_contracting_dims: vec![rc],
        lhs_non_contracting_dims: vec![lm],
        rhs_non_contracting_dims: vec![rn],
        output_dim_order: vec![(0, lm), (1, rn)],
        lhs_batch_dims: vec![],
        rhs_batch_dims: vec![],
    })
}

/// `shape`'s dims in each of `groups` (batch, contracting, non-contracting),
/// checked: every dim in range and in exactly one group. `what` names the
/// operand in errors.
fn dim_groups(shape: &[i64], groups: [&[i64]; 3], what: &str) -> std::result::Result<[Vec<usize>; 3], String> {
    let mut seen = vec![false; shape.len()];
    let mut out: [Vec<usize>; 3] = Default::default();
    for (g, dims) in groups.iter().enumerate() {
        for &d in *dims {
            if d < 0 || d as usize >= shape.len() || std::mem::replace(&mut seen[d as usize], true) {
                return Err(format!("{what} dim {d} is out of range or listed twice (shape {shape:?})"));
            }
            out[g].push(d as usize);
        }
    }
    if seen.iter().any(|s| !s) {
        return Err(format!("{what} dims are not all batch, contracting or non-contracting (shape {shape:?})"));
    }
    Ok(out)
}

/// The sizes of `s`'s dims `d`.
fn sizes(s: &[i64], d: &[usize]) -> Vec<i64> {
    d.iter().map(|&i| s[i]).collect()
}

/// A matmul's dims, checked against its operands and accumulator: the dims
/// of each group and where each output dim comes from.
struct Plan {
    /// lhs batch, contracting and non-contracting (M) dims.
    lb: Vec<usize>,
    lk: Vec<usize>,
    lm: Vec<usize>,
    /// rhs batch, contracting and non-contracting (N) dims.
    rb: Vec<usize>,
    rk: Vec<usize>,
    rn: Vec<usize>,
    /// (group 0 batch / 1 M / 2 N, position in group) per output dim.
    place: Vec<(usize, usize)>,
    /// Sizes of the batch, M, N and K dims.
    bsz: Vec<i64>,
    msz: Vec<i64>,
    nsz: Vec<i64>,
    ksz: Vec<i64>,
    out_shape: Vec<i64>,
}

impl Plan {
    fn new(l: &Tensor, r: &Tensor, acc: &Tensor, dn: &DotDimensionNumbers) -> std::result::Result<Plan, String> {
        let [lb, lk, lm] = dim_groups(&l.shape, [&dn.lhs_batch_dims, &dn.lhs_contracting_dims, &dn.lhs_non_contracting_dims], "lhs")?;
        let [rb, rk, rn] = dim_groups(&r.shape, [&dn.rhs_batch_dims, &dn.rhs_contracting_dims, &dn.rhs_non_contracting_dims], "rhs")?;
        if sizes(&l.shape, &lb) != sizes(&r.shape, &rb) || sizes(&l.shape, &lk) != sizes(&r.shape, &rk) {
            return Err(format!("lhs {:?} and rhs {:?} disagree on batch or contracting sizes", l.shape, r.shape));
        }
        if l.ty != r.ty && (l.ty.is_float() != r.ty.is_float()) {
            return Err(format!("lhs {} and rhs {} mix floats and integers", l.describe(), r.describe()));
        }
        let place = output_places(dn, [&lb, &lm], [&rb, &rn])?;
        let (bsz, msz, nsz, ksz) = (sizes(&l.shape, &lb), sizes(&l.shape, &lm), sizes(&r.shape, &rn), sizes(&l.shape, &lk));
        let mut covered = [vec![false; bsz.len()], vec![false; msz.len()], vec![false; nsz.len()]];
        let mut out_shape = Vec::new();
        for &(g, i) in &place {
            if std::mem::replace(&mut covered[g][i], true) {
                return Err("output_dim_order lists a dim twice".into());
            }
            out_shape.push([&bsz, &msz, &nsz][g][i]);
        }
        if covered.iter().any(|c| c.iter().any(|x| !x)) {
            return Err("output_dim_order leaves out a batch or non-contracting dim".into());
        }
        if out_shape != acc.shape {
            return Err(format!("result shape {out_shape:?} differs from the accumulator {}", acc.describe()));
        }
        Ok(Plan { lb, lk, lm, rb, rk, rn, place, bsz, msz, nsz, ksz, out_shape })
    }
}

/// (group 0 batch / 1 M / 2 N, position in group) per output dim. Each
/// output dim (operand, dim) must be a batch dim or a non-contracting dim
/// of `lhs` ([batch, M]) or `rhs` ([batch, N]); the default order is batch,
/// M, N.
fn output_places(dn: &DotDimensionNumbers, lhs: [&[usize]; 2], rhs: [&[usize]; 2]) -> std::result::Result<Vec<(usize, usize)>, String> {
    let ([lb, lm], [rb, rn]) = (lhs, rhs);
    let order: Vec<(i64, i64)> = if dn.output_dim_order.is_empty() {
        lb.iter().map(|&d| (0, d as i64)).chain(lm.iter().map(|&d| (0, d as i64))).chain(rn.iter().map(|&d| (1, d as i64))).collect()
    } else {
        dn.output_dim_order.clone()
    };
    let mut place = Vec::new();
    for &(o, d) in &order {
        let d = d as usize;
        let p = match o {
            0 if lb.contains(&d) => (0, lb.iter().position(|&x| x == d).unwrap_or(0)),
            0 if lm.contains(&d) => (1, lm.iter().position(|&x| x == d).unwrap_or(0)),
            1 if rb.contains(&d) => (0, rb.iter().position(|&x| x == d).unwrap_or(0)),
            1 if rn.contains(&d) => (2, rn.iter().position(|&x| x == d).unwrap_or(0)),
            _ => return Err(format!("output_dim_order entry ({o}, {d}) is not a batch or non-contracting dim")),
        };
        place.push(p);
    }
    Ok(place)
}

/// The products summed over K, in canonical [b][m][n] order: in f64 (the
/// first vector) for a float accumulator, else wrapping in i64 (the second).
fn contract(l: &Tensor, r: &Tensor, plan: &Plan, [b, m, n, k]: [usize; 4], float: bool) -> (Vec<f64>, Vec<i64>) {
    let (ls, rs) = (row_major_strides(&l.shape), row_major_strides(&r.shape));
    let (lbo, lko, lmo) =
        (group_offsets(&l.shape, &ls, &plan.lb), group_offsets(&l.shape, &ls, &plan.lk), group_offsets(&l.shape, &ls, &plan.lm));
    let (rbo, rko, rno) =
        (group_offsets(&r.shape, &rs, &plan.rb), group_offsets(&r.shape, &rs, &plan.rk), group_offsets(&r.shape, &rs, &plan.rn));
    let to_f = |e: &Elems| -> Vec<f64> {
        match e {
            Elems::F(v) => v.clone(),
            Elems::I(v) => v.iter().map(|&x| x as f64).collect(),
        }
    };
    let mut canon = vec![0f64; b * m * n];
    let mut canon_i = vec![0i64; if float { 0 } else { b * m * n }];
    let (lf, rf) = (to_f(&l.data), to_f(&r.data));
    for bi in 0..b {
        // Pack lhs [m][k] and rhs [n][k] contiguously.
        let (lbo, lmo, rbo, rno) = (&lbo, &lmo, &rbo, &rno);
        let lp: Vec<f64> = (0..m).flat_map(|mi| lko.iter().map(move |&ko| lbo[bi] + lmo[mi] + ko)).map(|o| lf[o]).collect();
        let rp: Vec<f64> = (0..n).flat_map(|ni| rko.iter().map(move |&ko| rbo[bi] + rno[ni] + ko)).map(|o| rf[o]).collect();
        for mi in 0..m {
            let lrow = &lp[mi * k..(mi + 1) * k];
            for ni in 0..n {
                let rrow = &rp[ni * k..(ni + 1) * k];
                let c = (bi * m + mi) * n + ni;
                if float {
                    canon[c] = lrow.iter().zip(rrow).map(|(x, y)| x * y).sum();
                } else {
                    canon_i[c] = lrow.iter().zip(rrow).fold(0i64, |s, (x, y)| s.wrapping_add((*x as i64).wrapping_mul(*y as i64)));
                }
            }
        }
    }
    (canon, canon_i)
}

/// The canonical [b][m][n] results (from [`contract`]) in the output order,
/// added to `acc` and rounded (wrapped) to its type.
fn scatter(acc: &Tensor, plan: &Plan, canon: &[f64], canon_i: &[i64], m: usize, n: usize) -> Tensor {
    let float = acc.ty.is_float();
    let total = acc.data.len();
    let bst = row_major_strides(&plan.bsz);
    let mst = row_major_strides(&plan.msz);
    let nst = row_major_strides(&plan.nsz);
    let mut idx = vec![0i64; plan.out_shape.len()];
    let mut data_f = Vec::with_capacity(if float { total } else { 0 });
    let mut data_i = Vec::with_capacity(if float { 0 } else { total });
    for e in 0..total {
        let (mut bi, mut mi, mut ni) = (0i64, 0i64, 0i64);
        for (d, &(g, i)) in plan.place.iter().enumerate() {
            match g {
                0 => bi += idx[d] * bst[i],
                1 => mi += idx[d] * mst[i],
                _ => ni += idx[d] * nst[i],
            }
        }
        let c = ((bi as usize * m) + mi as usize) * n + ni as usize;
        match &acc.data {
            Elems::F(a) => data_f.push(round_to(acc.ty, a[e] + canon[c])),
            Elems::I(a) => data_i.push(wrap(acc.ty, a[e].wrapping_add(canon_i[c]))),
        }
        next_index(&mut idx, &plan.out_shape);
    }
    let data = if float { Elems::F(data_f) } else { Elems::I(data_i) };
    Tensor { ty: acc.ty, shape: plan.out_shape.clone(), data }
}
