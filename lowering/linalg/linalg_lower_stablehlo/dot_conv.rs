//! dot_general → `linalg.matmul` / `linalg.batch_matmul` when the dimension
//! numbers are already canonical, otherwise a contraction `linalg.generic`
//! (batch, lhs free, rhs free | contracting); convolution → a `linalg.generic`
//! over (output dims | input feature in group, window dims), after padding /
//! lhs dilation by `tensor` ops. Low-precision (bf16/f16) results accumulate
//! in f32 and are truncated at the end; integer products wrap (unsigned
//! operands are zero-extended to a wider accumulator).

use super::common::*;
use super::scalar;
use super::shape;
use crate::dialects::stablehlo::{ConvolutionOp, DotGeneralOp};

fn acc_elem(out: &str) -> String {
    if out == "bf16" || out == "f16" { "f32".to_string() } else { out.to_string() }
}

/// `acc += convert(a) * convert(b)` in the accumulator type.
#[allow(clippy::too_many_arguments)]
fn mac(t: &mut Tpl, raw: mlir_sys::MlirOperation, a: &str, ae: &str, b: &str, be: &str, acc: &str, ce: &str) -> R<String> {
    let x = scalar::convert(t, raw, a, ae, ce)?;
    let y = scalar::convert(t, raw, b, be, ce)?;
    let sem = ce;
    let ce = &storage(ce);
    Ok(match kind(sem) {
        Kind::Float(_) => {
            let m = t.v(format!("arith.mulf {x}, {y} : {ce}"));
            t.v(format!("arith.addf {acc}, {m} : {ce}"))
        }
        Kind::Int(1) => {
            let m = t.v(format!("arith.andi {x}, {y} : {ce}"));
            t.v(format!("arith.ori {acc}, {m} : {ce}"))
        }
        _ => {
            let m = t.v(format!("arith.muli {x}, {y} : {ce}"));
            t.v(format!("arith.addi {acc}, {m} : {ce}"))
        }
    })
}

fn zero_lit(e: &str) -> &'static str {
    match kind(e) {
        Kind::Float(_) => "0.0",
        Kind::Int(1) => "false",
        _ => "0",
    }
}

/// Converts an accumulator tensor to the result element type if they differ.
fn finish(t: &mut Tpl, raw: mlir_sys::MlirOperation, acc: TV, out: &Ty) -> R<TV> {
    if acc.ty.elem == out.elem {
        return Ok(acc);
    }
    let from = acc.ty.elem.clone();
    let to = out.elem.clone();
    t.map(&[acc], out, |t, a| scalar::convert(t, raw, &a[0], &from, &to))
}

pub fn dot_general(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let lhs = t.operand(op, 0);
    let rhs = t.operand(op, 1);
    let out = op.results[0].clone();
    let (lb, rb, lc, rc) = if op.name == "stablehlo.dot" {
        (vec![], vec![], vec![lhs.ty.rank() as i64 - 1], vec![0])
    } else {
        let dn = DotGeneralOp::cast(op.raw)
            .and_then(|d| d.dimension_numbers())
            .ok_or_else(|| op.fail("dot_general without dot_dimension_numbers"))?;
        (dn.lhs_batching_dims, dn.rhs_batching_dims, dn.lhs_contracting_dims, dn.rhs_contracting_dims)
    };
    let ce = acc_elem(&out.elem);
    let acc_ty = out.with_elem(&ce);
    let z = t.cst(zero_lit(&ce), &ce);
    let init = t.fill(&z, &acc_ty);
    let same = lhs.ty.elem == out.elem && rhs.ty.elem == out.elem && ce == out.elem;
    // Canonical forms → named ops (what the tiling/vectorization pass wants).
    if same && lhs.ty.rank() == 2 && rhs.ty.rank() == 2 && lb.is_empty() && lc == [1] && rc == [0] {
        let v = t.v(format!(
            "linalg.matmul ins({}, {} : {}, {}) outs({} : {}) -> {}",
            lhs.v,
            rhs.v,
            lhs.ty.t(),
            rhs.ty.t(),
            init.v,
            acc_ty.t(),
            acc_ty.t()
        ));
        splice(op, &t, &[TV::new(v, out)])?;
        return Ok(());
    }
    if same && lhs.ty.rank() == 3 && rhs.ty.rank() == 3 && lb == [0] && rb == [0] && lc == [2] && rc == [1] {
        let v = t.v(format!(
            "linalg.batch_matmul ins({}, {} : {}, {}) outs({} : {}) -> {}",
            lhs.v,
            rhs.v,
            lhs.ty.t(),
            rhs.ty.t(),
            init.v,
            acc_ty.t(),
            acc_ty.t()
        ));
        splice(op, &t, &[TV::new(v, out)])?;
        return Ok(());
    }
    let nb = lb.len();
    let lfree: Vec<usize> = (0..lhs.ty.rank()).filter(|i| !lb.contains(&(*i as i64)) && !lc.contains(&(*i as i64))).collect();
    let rfree: Vec<usize> = (0..rhs.ty.rank()).filter(|i| !rb.contains(&(*i as i64)) && !rc.contains(&(*i as i64))).collect();
    let (nl, nr, nc) = (lfree.len(), rfree.len(), lc.len());
    let nd = nb + nl + nr + nc;
    let map_for = |rank: usize, b: &[i64], c: &[i64], free: &[usize], free_off: usize| -> String {
        let exprs: Vec<String> = (0..rank)
            .map(|j| {
                if let Some(p) = b.iter().position(|&x| x == j as i64) {
                    format!("d{p}")
                } else if let Some(q) = c.iter().position(|&x| x == j as i64) {
                    format!("d{}", nb + nl + nr + q)
                } else {
                    format!("d{}", free_off + free.iter().position(|&f| f == j).unwrap())
                }
            })
            .collect();
        amap(nd, &exprs)
    };
    let lmap = map_for(lhs.ty.rank(), &lb, &lc, &lfree, nb);
    let rmap = map_for(rhs.ty.rank(), &rb, &rc, &rfree, nb + nl);
    let omap = amap(nd, &(0..nb + nl + nr).map(|i| format!("d{i}")).collect::<Vec<_>>());
    let mut iters = vec!["parallel"; nb + nl + nr];
    iters.extend(vec!["reduction"; nc]);
    let (le, re) = (lhs.ty.elem.clone(), rhs.ty.elem.clone());
    let raw = op.raw;
    let cec = ce.clone();
    let acc = t.generic(nd, &iters, &[(lhs, lmap), (rhs, rmap)], &[(init, omap)], |t, a| {
        Ok(vec![mac(t, raw, &a[0], &le, &a[1], &re, &a[2], &cec)?])
    })?;
    let r = finish(&mut t, raw, acc.into_iter().next().unwrap(), &out)?;
    splice(op, &t, &[r])?;
    Ok(())
}

pub fn convolution(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let lhs = t.operand(op, 0);
    let rhs = t.operand(op, 1);
    let out = op.results[0].clone();
    let dn =
        ConvolutionOp::cast(op.raw).and_then(|c| c.dimension_numbers()).ok_or_else(|| op.fail("convolution without dimension_numbers"))?;
    let r = out.rank();
    let ns = r - 2;
    if op.i64_attr("batch_group_count").unwrap_or(1) != 1 {
        return Err(op.unsupported("with batch_group_count > 1"));
    }
    let g = op.i64_attr("feature_group_count").unwrap_or(1);
    let strides = op.i64s_or("window_strides", ns, 1);
    let pad = op.i64s_or("padding", 2 * ns, 0);
    let ldil = op.i64s_or("lhs_dilation", ns, 1);
    let rdil = op.i64s_or("rhs_dilation", ns, 1);
    let rev = op.bools("window_reversal").unwrap_or_else(|| vec![false; ns]);
    // Positions of each role in the input (lhs), kernel (rhs) and output
    // layouts; every one within its operand's rank.
    let bad = || {
        let shown = op.attr("dimension_numbers").map(attr_text).unwrap_or_default();
        op.unsupported(&format!("with dimension numbers {shown}"))
    };
    let dim = |d: i64, rank: usize| usize::try_from(d).ok().filter(|&d| d < rank).ok_or_else(bad);
    let dims = |ds: &[i64], rank: usize| -> R<Vec<usize>> {
        if ds.len() != ns {
            return Err(bad());
        }
        ds.iter().map(|&d| dim(d, rank)).collect()
    };
    let (lrank, krank) = (lhs.ty.rank(), rhs.ty.rank());
    let (lb, lf, ls) = (dim(dn.input_batch_dim, lrank)?, dim(dn.input_feature_dim, lrank)?, dims(&dn.input_spatial_dims, lrank)?);
    let (ki, ko, ks) =
        (dim(dn.kernel_input_feature_dim, krank)?, dim(dn.kernel_output_feature_dim, krank)?, dims(&dn.kernel_spatial_dims, krank)?);
    let (ob, of, os) = (dim(dn.output_batch_dim, r)?, dim(dn.output_feature_dim, r)?, dims(&dn.output_spatial_dims, r)?);
    // Pad / dilate the input in its spatial dims.
    let needs_pad = pad.iter().any(|&p| p != 0) || ldil.iter().any(|&d| d != 1);
    let lhs = if needs_pad {
        let rank = lhs.ty.rank();
        let mut lo = vec![0; rank];
        let mut hi = vec![0; rank];
        let mut interior = vec![0; rank];
        for s in 0..ns {
            lo[ls[s]] = pad[2 * s];
            hi[ls[s]] = pad[2 * s + 1];
            interior[ls[s]] = ldil[s] - 1;
        }
        let shape: Vec<i64> = (0..rank)
            .map(|i| {
                let m = lhs.ty.shape[i];
                lo[i] + hi[i] + if m == 0 { 0 } else { (m - 1) * (interior[i] + 1) + 1 }
            })
            .collect();
        let ze = lhs.ty.elem.clone();
        let z = t.cst(zero_lit(&ze), &ze);
        shape::pad_with(&mut t, &lhs, &z, &lo, &hi, &interior, &lhs.ty.with_shape(&shape))
    } else {
        lhs
    };
    // 2-D, channels-last, kernel [h, w, i, o], no groups: the named
    // `linalg.conv_2d_nhwc_hwcf`, which `floors-cpu-pack-matmul` turns into
    // im2col + a packed matmul after elementwise fusion (before it, the
    // im2col copy would be fused back into a naive loop nest).
    let spatial_in_order = |spatial: &[usize], first: usize| spatial.iter().enumerate().all(|(s, &d)| d == first + s);
    let channels_last = lb == 0 && lf == r - 1 && ob == 0 && of == r - 1 && ki == ns && ko == ns + 1;
    if ns == 2
        && g == 1
        && channels_last
        && spatial_in_order(&ls, 1)
        && spatial_in_order(&os, 1)
        && spatial_in_order(&ks, 0)
        && !rev.iter().any(|&x| x)
        && lhs.ty.elem == out.elem
        && rhs.ty.elem == out.elem
        && acc_elem(&out.elem) == out.elem
        && lhs.ty.shape.iter().chain(&rhs.ty.shape).chain(&out.shape).all(|&d| d > 0)
    {
        let z = t.cst(zero_lit(&out.elem), &out.elem);
        let init = t.fill(&z, &out);
        let v = t.v(format!(
            "linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{}, {}]> : tensor<2xi64>, strides = dense<[{}, {}]> : tensor<2xi64>}} \
             ins({}, {} : {}, {}) outs({} : {}) -> {}",
            rdil[0],
            rdil[1],
            strides[0],
            strides[1],
            lhs.v,
            rhs.v,
            lhs.ty.t(),
            rhs.ty.t(),
            init.v,
            out.t(),
            out.t()
        ));
        splice(op, &t, &[TV::new(v, out)])?;
        return Ok(());
    }
    let cg = rhs.ty.shape[ki]; // input features per group
    let o_per_g = out.shape[of] / g;
    // dims: 0..r output dims (in output layout), r = input feature in group, r+1+s = window s
    let nd = r + 1 + ns;
    let mut lexpr = vec![String::new(); lhs.ty.rank()];
    lexpr[lb] = format!("d{ob}");
    lexpr[lf] = if g == 1 { format!("d{r}") } else { format!("(d{of} floordiv {o_per_g}) * {cg} + d{r}") };
    for s in 0..ns {
        // window_reversal reads the kernel backwards; the input index takes
        // the reversal so every loop dim stays a plain dim of the kernel map.
        lexpr[ls[s]] = if rev.get(s).copied().unwrap_or(false) {
            let k = rhs.ty.shape[ks[s]];
            format!("d{} * {} - d{} * {} + {}", os[s], strides[s], r + 1 + s, rdil[s], (k - 1) * rdil[s])
        } else {
            format!("d{} * {} + d{} * {}", os[s], strides[s], r + 1 + s, rdil[s])
        };
    }
    let mut kexpr = vec![String::new(); rhs.ty.rank()];
    kexpr[ki] = format!("d{r}");
    kexpr[ko] = format!("d{of}");
    for s in 0..ns {
        kexpr[ks[s]] = format!("d{}", r + 1 + s);
    }
    let ce = acc_elem(&out.elem);
    let acc_ty = out.with_elem(&ce);
    let z = t.cst(zero_lit(&ce), &ce);
    let init = t.fill(&z, &acc_ty);
    let win_shape: Vec<i64> = (0..ns).map(|s| rhs.ty.shape[ks[s]]).collect();
    let _ = win_shape;
    let mut iters = vec!["parallel"; r];
    iters.extend(vec!["reduction"; 1 + ns]);
    let (le, re) = (lhs.ty.elem.clone(), rhs.ty.elem.clone());
    let raw = op.raw;
    let cec = ce.clone();
    let omap = amap(nd, &(0..r).map(|i| format!("d{i}")).collect::<Vec<_>>());
    let acc = t.generic(nd, &iters, &[(lhs, amap(nd, &lexpr)), (rhs, amap(nd, &kexpr))], &[(init, omap)], |t, a| {
        Ok(vec![mac(t, raw, &a[0], &le, &a[1], &re, &a[2], &cec)?])
    })?;
    let res = finish(&mut t, raw, acc.into_iter().next().unwrap(), &out)?;
    splice(op, &t, &[res])?;
    Ok(())
}
