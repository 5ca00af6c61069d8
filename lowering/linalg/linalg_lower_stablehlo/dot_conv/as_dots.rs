//! A convolution as a sum of dots over positions (the pass option
//! `conv-as-dots=true`, which the TPU floor's pipeline sets): the form a
//! Pallas author writes for the MXU, "shifted matmuls". Starting from the
//! canonical operands of [`super::convolution`] (input [N, spatial..., C]
//! padded, kernel [spatial..., Cg, O] not reversed):
//!
//! - **window positions** (the forward pass, the input gradient): for each
//!   of the kernel's K₁·…·Kₙ positions w, the input slice at offset w·rdil,
//!   stride `window_strides`, of the output's spatial size, collapsed to
//!   [N·S, C], times the kernel's slice at w ([Cg, O]), accumulated into one
//!   [N·S, O] accumulator — one matmul per position;
//! - **output positions** (the kernel gradient, whose window is the whole
//!   image and whose output is the kernel's size): for each output position
//!   p, the input's window at p (stride `rhs_dilation`), collapsed to
//!   [N, K·C], times the whole kernel collapsed to [K·Cg, O], inserted at p.
//!
//! Whichever has fewer positions is used; more than [`MAX_POSITIONS`] is a
//! located refusal. Ungrouped convolutions become 2-D contraction generics
//! (`[M, R] × [R, O]`), which the TPU floor puts on the MXU; grouped ones
//! (feature or batch groups) a contraction per group, loops (m, group, o |
//! [k,] c). Products accumulate as [`super::mac`] does (f32 for 16-bit
//! floats), converted to the result type at the end.

use super::super::shape;
use super::*;

/// The most positions a convolution is unrolled over (each is one dot in
/// the kernel); beyond it the convolution is refused at the op.
pub(super) const MAX_POSITIONS: i64 = 1024;

/// The convolution of canonical `lhs` (padded) and `rhs` (not reversed) into
/// the canonical result `cout`, as dots over positions.
pub(super) fn convolution(t: &mut Tpl, raw: mlir_sys::MlirOperation, lhs: TV, rhs: TV, cout: &Ty, c: &Conv) -> R<TV> {
    let ns = c.ns;
    let ksz: Vec<i64> = rhs.ty.shape[..ns].to_vec();
    let osz: Vec<i64> = cout.shape[1..=ns].to_vec();
    let (kp, opos) = (ksz.iter().product::<i64>(), osz.iter().product::<i64>());
    if kp.min(opos) > MAX_POSITIONS {
        return Err(fail(
            raw,
            format!(
                "a convolution with {kp} window positions and {opos} output positions cannot be written as dots over \
                 positions (conv-as-dots unrolls at most {MAX_POSITIONS} of either)"
            ),
        ));
    }
    let ce = acc_elem(&cout.elem);
    let acc_ty = cout.with_elem(&ce);
    let (n, feat, o) = (lhs.ty.shape[0], lhs.ty.shape[ns + 1], rhs.ty.shape[ns + 1]);
    let nb = cout.shape[0];
    let z = t.cst(zero_lit(&ce), &ce);
    let res = if kp <= opos {
        let mut acc = t.fill(&z, &acc_ty.with_shape(&[nb * opos, o]));
        let sizes: Vec<i64> = std::iter::once(n).chain(osz.iter().copied()).chain([feat]).collect();
        let strides: Vec<i64> = std::iter::once(1).chain(c.strides.iter().copied()).chain([1]).collect();
        let ksizes: Vec<i64> = vec![1; ns].into_iter().chain([rhs.ty.shape[ns], o]).collect();
        for w in multi_indices(&ksz) {
            let offs: Vec<i64> = std::iter::once(0).chain(w.iter().zip(&c.rdil).map(|(w, d)| w * d)).chain([0]).collect();
            let a = shape::extract_slice(t, &lhs, &shape::nums(&offs), &sizes, &strides);
            // A reversed window reads the kernel backwards.
            let kat: Vec<i64> = w.iter().zip(&ksz).zip(&c.rev).map(|((&w, &k), &r)| if r { k - 1 - w } else { w }).chain([0, 0]).collect();
            let b = shape::extract_slice(t, &rhs, &shape::nums(&kat), &ksizes, &vec![1; ns + 2]);
            acc = position_dot(t, raw, &a, &b, acc, true, c)?;
        }
        let groups = vec![(0..=ns).collect::<Vec<_>>(), vec![ns + 1]];
        expand(t, &acc, &groups, &acc_ty.shape)
    } else {
        let rhs = reversed(t, rhs, &c.rev)?;
        let mut out = t.fill(&z, &acc_ty);
        let sizes: Vec<i64> = std::iter::once(n).chain(ksz.iter().copied()).chain([feat]).collect();
        let strides: Vec<i64> = std::iter::once(1).chain(c.rdil.iter().copied()).chain([1]).collect();
        let unit: Vec<i64> = std::iter::once(nb).chain(vec![1; ns]).chain([o]).collect();
        for p in multi_indices(&osz) {
            let offs: Vec<i64> = std::iter::once(0).chain(p.iter().zip(&c.strides).map(|(p, s)| p * s)).chain([0]).collect();
            let a = shape::extract_slice(t, &lhs, &shape::nums(&offs), &sizes, &strides);
            let acc = t.fill(&z, &acc_ty.with_shape(&[nb, o]));
            let d = position_dot(t, raw, &a, &rhs, acc, false, c)?;
            let d = expand(t, &d, &[(0..=ns).collect(), vec![ns + 1]], &unit);
            let at: Vec<i64> = std::iter::once(0).chain(p.iter().copied()).chain([0]).collect();
            out = shape::insert_slice(t, &d, &out, &shape::nums(&at), &vec![1; ns + 2]);
        }
        out
    };
    finish(t, raw, res, cout)
}

/// The kernel read backwards in its reversed spatial dims: an
/// index-mapping generic (`-d + (K - 1)`, what `stablehlo.reverse` lowers to).
fn reversed(t: &mut Tpl, k: TV, rev: &[bool]) -> R<TV> {
    if !rev.iter().any(|&r| r) {
        return Ok(k);
    }
    let n = k.ty.rank();
    let exprs: Vec<String> = (0..n)
        .map(|i| if rev.get(i).copied().unwrap_or(false) { format!("-d{i} + {}", k.ty.shape[i] - 1) } else { format!("d{i}") })
        .collect();
    let e = t.empty(&k.ty);
    let r = t.generic(n, &vec!["parallel"; n], &[(k, amap(n, &exprs))], &[(e, identity_map(n))], |_, a| Ok(vec![a[0].clone()]))?;
    Ok(r.into_iter().next().unwrap())
}

/// `acc [M', O] += a · b` at one position. `a` is an input slice [N, X...,
/// C] (X: the output's spatial positions in the window form, rows of the dot;
/// the window's in the output form, reduced), `b` the kernel [K..., Cg, O]
/// (unit K in the window form).
fn position_dot(t: &mut Tpl, raw: mlir_sys::MlirOperation, a: &TV, b: &TV, acc: TV, window: bool, c: &Conv) -> R<TV> {
    let ns = c.ns;
    let (m_dims, k_dims): (Vec<usize>, Vec<usize>) = if window { ((0..=ns).collect(), vec![]) } else { (vec![0], (1..=ns).collect()) };
    let (ae, be, ce) = (a.ty.elem.clone(), b.ty.elem.clone(), acc.ty.elem.clone());
    let gt = c.g * c.bg;
    if gt == 1 {
        // [M, R] × [R, O] → [M, O], R = (window positions ·) features.
        let a2 = collapse(t, a, &[m_dims, k_dims.into_iter().chain([ns + 1]).collect()]);
        let b2 = collapse(t, b, &[(0..=ns).collect(), vec![ns + 1]]);
        let maps = [amap(3, &["d0".into(), "d2".into()]), amap(3, &["d2".into(), "d1".into()]), amap(3, &["d0".into(), "d1".into()])];
        // The convolution's precision rides on the dot the MXU runs.
        let r = t.generic_attrs(
            3,
            &["parallel", "parallel", "reduction"],
            &[(a2, maps[0].clone()), (b2, maps[1].clone())],
            &[(acc, maps[2].clone())],
            &precision_attrs(raw),
            |t, x| Ok(vec![mac(t, raw, &x[0], &ae, &x[1], &be, &x[2], &ce)?]),
        )?;
        return Ok(r.into_iter().next().unwrap());
    }
    // Grouped: the group split out of the input's batch (batch groups) or
    // features (feature groups), and out of the kernel's and accumulator's
    // output features.
    let rank = ns + 2;
    let (cg, o) = (b.ty.shape[ns], b.ty.shape[ns + 1]);
    let og = o / gt;
    let has_k = !k_dims.is_empty();
    let ga = if c.bg > 1 {
        let mut s = a.ty.shape.clone();
        s[0] /= c.bg;
        s.insert(0, c.bg);
        let x = expand(t, a, &split_groups(rank, 0), &s);
        // [bg, N/bg, X..., C] → [bg, M', (K,) C]
        let mut groups = vec![vec![0], m_dims.iter().map(|d| d + 1).collect()];
        if has_k {
            groups.push(k_dims.iter().map(|d| d + 1).collect());
        }
        groups.push(vec![ns + 2]);
        collapse(t, &x, &groups)
    } else {
        let mut s = a.ty.shape.clone();
        s[ns + 1] = cg;
        s.insert(ns + 1, c.g);
        let x = expand(t, a, &split_groups(rank, ns + 1), &s);
        // [N, X..., G, Cg] → [M, (K,) G, Cg]
        let mut groups = vec![m_dims.clone()];
        if has_k {
            groups.push(k_dims.clone());
        }
        groups.extend([vec![ns + 1], vec![ns + 2]]);
        collapse(t, &x, &groups)
    };
    let mut s = b.ty.shape.clone();
    s[ns + 1] = og;
    s.insert(ns + 1, gt);
    let bx = expand(t, b, &split_groups(rank, ns + 1), &s);
    // [K..., Cg, G, Og] → [(K,) Cg, G, Og] (unit K merged into Cg).
    let groups = if has_k {
        vec![(0..ns).collect(), vec![ns], vec![ns + 1], vec![ns + 2]]
    } else {
        vec![(0..=ns).collect(), vec![ns + 1], vec![ns + 2]]
    };
    let gb = collapse(t, &bx, &groups);
    let m2 = acc.ty.shape[0];
    let gacc = expand(t, &acc, &[vec![0], vec![1, 2]], &[m2, gt, og]);
    // Loops: m, group, o | (k,) c.
    let nd = if has_k { 5 } else { 4 };
    let (k, cc) = ("d3".to_string(), format!("d{}", nd - 1));
    let kk: Vec<String> = if has_k { vec![k] } else { vec![] };
    let a_exprs: Vec<String> = if c.bg > 1 {
        ["d1".to_string(), "d0".to_string()].into_iter().chain(kk.clone()).chain([cc.clone()]).collect()
    } else {
        std::iter::once("d0".to_string()).chain(kk.clone()).chain(["d1".to_string(), cc.clone()]).collect()
    };
    let b_exprs: Vec<String> = kk.into_iter().chain([cc, "d1".to_string(), "d2".to_string()]).collect();
    let mut iters = vec!["parallel"; 3];
    iters.extend(vec!["reduction"; nd - 3]);
    let out_map = amap(nd, &["d0".into(), "d1".into(), "d2".into()]);
    let r = t.generic(nd, &iters, &[(ga, amap(nd, &a_exprs)), (gb, amap(nd, &b_exprs))], &[(gacc, out_map)], |t, x| {
        Ok(vec![mac(t, raw, &x[0], &ae, &x[1], &be, &x[2], &ce)?])
    })?;
    let r = r.into_iter().next().unwrap();
    Ok(collapse(t, &r, &[vec![0], vec![1, 2]]))
}
