//! dot_general → `linalg.matmul` / `linalg.batch_matmul` when the dimension
//! numbers are already canonical, otherwise a contraction `linalg.generic`
//! (batch, lhs free, rhs free | contracting); convolution → operands
//! transposed into one canonical layout, then the named
//! `linalg.conv_2d_nhwc_hwcf` or a direct `linalg.generic` (see
//! [`convolution`]). Low-precision (bf16/f16) results accumulate in f32 and
//! are truncated at the end; integer products wrap (unsigned operands are
//! zero-extended to a wider accumulator).

use super::common::*;
use super::{scalar, shape};
use floors_ir::dialects::stablehlo::{ConvolutionOp, DotGeneralOp};

mod as_dots;

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
    if scalar::complex_part(sem).is_some() {
        let m = t.v(format!("complex.mul {x}, {y} : {ce}"));
        return Ok(t.v(format!("complex.add {acc}, {m} : {ce}")));
    }
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

/// The contraction's [`PRECISION_ATTR`] from the op's `precision_config`:
/// `("floors.precision", "\"highest\"")` when an operand asks for
/// `HIGHEST`, `"high"` for `HIGH`; none for `DEFAULT` (or no config).
fn precision_attrs(raw: mlir_sys::MlirOperation) -> Vec<(&'static str, String)> {
    use floors_ir::dialects::stablehlo::{Precision, precision_config};
    let p = precision_config(raw).unwrap_or_default();
    let level = if p.contains(&Precision::Highest) {
        "highest"
    } else if p.contains(&Precision::High) {
        "high"
    } else {
        return vec![];
    };
    vec![(floors_ir::contract::PRECISION_ATTR, format!("\"{level}\""))]
}

/// The `{name = value, ...}` attribute dictionary of `attrs` (empty: "").
fn attr_dict(attrs: &[(&str, String)]) -> String {
    if attrs.is_empty() {
        return String::new();
    }
    format!("{{{}}} ", attrs.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", "))
}

pub fn dot_general(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let precision = precision_attrs(op.raw);
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
            "linalg.matmul {}ins({}, {} : {}, {}) outs({} : {}) -> {}",
            attr_dict(&precision),
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
            "linalg.batch_matmul {}ins({}, {} : {}, {}) outs({} : {}) -> {}",
            attr_dict(&precision),
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
    let acc = t.generic_attrs(nd, &iters, &[(lhs, lmap), (rhs, rmap)], &[(init, omap)], &precision, |t, a| {
        Ok(vec![mac(t, raw, &a[0], &le, &a[1], &re, &a[2], &cec)?])
    })?;
    let r = finish(&mut t, raw, acc.into_iter().next().unwrap(), &out)?;
    splice(op, &t, &[r])?;
    Ok(())
}

/// `linalg.transpose` (result dim i = operand dim `perm[i]`), or `x` when
/// `perm` is the identity. A named op, not a generic: elementwise fusion
/// does not fold it into the convolution, which then reads its operands in
/// one canonical layout.
fn transpose_named(t: &mut Tpl, x: TV, perm: &[usize]) -> TV {
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return x;
    }
    let shape: Vec<i64> = perm.iter().map(|&p| x.ty.shape[p]).collect();
    let e = t.empty(&x.ty.with_shape(&shape));
    let v = t.v(format!(
        "linalg.transpose ins({} : {}) outs({} : {}) permutation = [{}]",
        x.v,
        x.ty.t(),
        e.v,
        e.ty.t(),
        perm.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
    ));
    TV::new(v, e.ty)
}

/// [`transpose_named`] as an index-mapping generic (the form the TPU floor
/// takes).
fn transpose_generic(t: &mut Tpl, x: TV, perm: &[usize]) -> R<TV> {
    if perm.iter().enumerate().all(|(i, &p)| i == p) {
        return Ok(x);
    }
    let shape: Vec<i64> = perm.iter().map(|&p| x.ty.shape[p]).collect();
    let perm: Vec<i64> = perm.iter().map(|&p| p as i64).collect();
    let out = x.ty.with_shape(&shape);
    shape::transpose(t, &x, &perm, &out)
}

/// `tensor.expand_shape` of `x` into `shape` by `groups` (lists of result dims).
fn expand(t: &mut Tpl, x: &TV, groups: &[Vec<usize>], shape: &[i64]) -> TV {
    let ty = x.ty.with_shape(shape);
    let g: Vec<String> = groups.iter().map(|g| format!("[{}]", g.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))).collect();
    let v = t.v(format!(
        "tensor.expand_shape {} [{}] output_shape [{}] : {} into {}",
        x.v,
        g.join(", "),
        shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "),
        x.ty.t(),
        ty.t()
    ));
    TV::new(v, ty)
}

/// `tensor.collapse_shape` of `x` by `groups` (lists of operand dims).
fn collapse(t: &mut Tpl, x: &TV, groups: &[Vec<usize>]) -> TV {
    let shape: Vec<i64> = groups.iter().map(|g| g.iter().map(|&d| x.ty.shape[d]).product()).collect();
    let ty = x.ty.with_shape(&shape);
    let g: Vec<String> = groups.iter().map(|g| format!("[{}]", g.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))).collect();
    let v = t.v(format!("tensor.collapse_shape {} [{}] : {} into {}", x.v, g.join(", "), x.ty.t(), ty.t()));
    TV::new(v, ty)
}

/// Groups of an expand_shape that splits dim `at` of a rank-`rank` tensor in two.
fn split_groups(rank: usize, at: usize) -> Vec<Vec<usize>> {
    (0..rank)
        .map(|d| {
            if d < at {
                vec![d]
            } else if d == at {
                vec![d, d + 1]
            } else {
                vec![d + 1]
            }
        })
        .collect()
}

/// The kernel read backwards in the dims `rev` (`window_reversal`), as a
/// `tensor.generate` (not a linalg op: nothing fuses the reversed reads into
/// the convolution, whose tiles then stay plain slices).
fn reverse_dims(t: &mut Tpl, x: TV, rev: &[bool]) -> TV {
    if !rev.iter().any(|&r| r) {
        return x;
    }
    let n = x.ty.rank();
    let idx: Vec<String> = (0..n).map(|_| t.fresh()).collect();
    let res = t.fresh();
    t.line(format!("{res} = tensor.generate {{"));
    t.line(format!("^bb0({}):", idx.iter().map(|i| format!("{i}: index")).collect::<Vec<_>>().join(", ")));
    let mut at = idx.clone();
    for d in 0..n {
        if rev[d] {
            let last = t.cst_index(x.ty.shape[d] - 1);
            at[d] = t.v(format!("arith.subi {last}, {} : index", idx[d]));
        }
    }
    let e = t.extract(&x, &at);
    t.line(format!("tensor.yield {e} : {}", x.ty.s()));
    t.line(format!("}} : {}", x.ty.t()));
    TV::new(res, x.ty)
}

/// `stablehlo.convolution` in any layout, 1-D to N-D, grouped (feature or
/// batch groups), strided, dilated on either side, padded (negative padding
/// cuts), reversed, on every element type. The operands are transposed into
/// one canonical layout (input [N, spatial..., C], kernel [spatial..., I, O],
/// `linalg.transpose`, a no-op when already so), the input padded and
/// dilated by tensor ops and the kernel reversed, then:
///
/// - no groups, one element type with no wider accumulator, 1-D or 2-D: the
///   named `linalg.conv_2d_nhwc_hwcf` (1-D as a 2-D with a unit height),
///   which `floors-cpu-pack-matmul` turns into im2col + a packed matmul after
///   elementwise fusion (before it, the im2col copy would be fused back into
///   a naive loop nest) or into the direct form below;
/// - otherwise the direct form: a `linalg.generic` over (batch, output
///   spatial..., [group,] output feature in group | window..., input feature
///   in group), input [N, S..., G, Cg] (batch groups: [B, N/B, S..., C]),
///   kernel [K..., Cg, G, O/G], output [N, S..., G, O/G]. Floats multiply-add
///   with `contract` (an FMA in machine code). `floors-cpu-tile-and-vectorize`
///   recognises it by its maps and vectorizes it over features and output
///   columns.
///
/// With `as_dots` (the pass option `conv-as-dots`), every convolution is
/// instead a sum of dots over window or output positions ([`as_dots`]), its
/// layout changes index-mapping generics.
///
/// The result is transposed back into the output layout.
pub fn convolution(op: &Op, as_dots: bool) -> R<()> {
    let mut t = Tpl::new(op);
    let lhs = t.operand(op, 0);
    let rhs = t.operand(op, 1);
    let out = op.results[0].clone();
    let mut c = Conv::read(op, lhs.ty.rank(), rhs.ty.rank(), out.rank())?;
    // Canonical layouts.
    let in_perm: Vec<usize> = std::iter::once(c.lb).chain(c.ls.iter().copied()).chain([c.lf]).collect();
    let k_perm: Vec<usize> = c.ks.iter().copied().chain([c.ki, c.ko]).collect();
    let out_perm: Vec<usize> = std::iter::once(c.ob).chain(c.os.iter().copied()).chain([c.of]).collect();
    let cout = out.with_shape(&out_perm.iter().map(|&d| out.shape[d]).collect::<Vec<_>>());
    // Nothing to compute: a zero-size result, or a sum over nothing.
    let empty_sum = lhs.ty.shape[c.lf] == 0 || c.ks.iter().any(|&d| rhs.ty.shape[d] == 0);
    if out.shape.contains(&0) || empty_sum {
        let z = t.cst(zero_lit(&out.elem), &out.elem);
        let res = t.fill(&z, &out);
        splice(op, &t, &[res])?;
        return Ok(());
    }
    let (lhs, rhs) = if as_dots {
        (transpose_generic(&mut t, lhs, &in_perm)?, transpose_generic(&mut t, rhs, &k_perm)?)
    } else {
        let lhs = transpose_named(&mut t, lhs, &in_perm);
        let rhs = transpose_named(&mut t, rhs, &k_perm);
        let rev: Vec<bool> = c.rev.iter().copied().chain([false, false]).collect();
        (lhs, reverse_dims(&mut t, rhs, &rev))
    };
    // No spatial dims: one of size 1 (the rest of the lowering then has a window).
    let point = c.ns == 0;
    let (lhs, rhs, cout) = if point {
        let l = expand(&mut t, &lhs, &[vec![0, 1], vec![2]], &[lhs.ty.shape[0], 1, lhs.ty.shape[1]]);
        let k = expand(&mut t, &rhs, &[vec![0, 1], vec![2]], &[1, rhs.ty.shape[0], rhs.ty.shape[1]]);
        let o = cout.with_shape(&[cout.shape[0], 1, cout.shape[1]]);
        (c.ns, c.strides, c.pad, c.ldil, c.rdil, c.rev) = (1, vec![1], vec![0, 0], vec![1], vec![1], vec![false]);
        (l, k, o)
    } else {
        (lhs, rhs, cout)
    };
    let lhs = pad_input(&mut t, lhs, &c);
    let same = lhs.ty.elem == out.elem && rhs.ty.elem == out.elem && acc_elem(&out.elem) == out.elem;
    let res = if as_dots {
        as_dots::convolution(&mut t, op.raw, lhs, rhs, &cout, &c)?
    } else if c.g == 1 && c.bg == 1 && (c.ns == 1 || c.ns == 2) && same {
        named_conv(&mut t, lhs, rhs, &cout, &c)
    } else {
        direct_conv(&mut t, op.raw, lhs, rhs, &cout, &c)?
    };
    let res = if point { collapse(&mut t, &res, &[vec![0, 1], vec![2]]) } else { res };
    let res = output_layout(&mut t, res, &out_perm, &out)?;
    splice(op, &t, &[res])?;
    Ok(())
}

/// A convolution's attributes, checked: the position of each role in the
/// input (lhs), kernel (rhs) and output layouts, every one within its
/// operand's rank; the window, one entry per spatial dim; the groups.
struct Conv {
    /// Spatial dims.
    ns: usize,
    /// Input batch, feature and spatial dims.
    lb: usize,
    lf: usize,
    ls: Vec<usize>,
    /// Kernel input feature, output feature and spatial dims.
    ki: usize,
    ko: usize,
    ks: Vec<usize>,
    /// Output batch, feature and spatial dims.
    ob: usize,
    of: usize,
    os: Vec<usize>,
    strides: Vec<i64>,
    /// (low, high) per spatial dim.
    pad: Vec<i64>,
    ldil: Vec<i64>,
    rdil: Vec<i64>,
    rev: Vec<bool>,
    /// `feature_group_count`, `batch_group_count` (not both above 1).
    g: i64,
    bg: i64,
}

impl Conv {
    fn read(op: &Op, lrank: usize, krank: usize, r: usize) -> R<Conv> {
        let dn = ConvolutionOp::cast(op.raw)
            .and_then(|c| c.dimension_numbers())
            .ok_or_else(|| op.fail("convolution without dimension_numbers"))?;
        let ns = r - 2;
        let g = op.i64_attr("feature_group_count").unwrap_or(1);
        let bg = op.i64_attr("batch_group_count").unwrap_or(1);
        let strides = op.i64s_or("window_strides", ns, 1);
        let pad = op.i64s_or("padding", 2 * ns, 0);
        let ldil = op.i64s_or("lhs_dilation", ns, 1);
        let rdil = op.i64s_or("rhs_dilation", ns, 1);
        let rev = op.bools("window_reversal").unwrap_or_else(|| vec![false; ns]);
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
        let (lb, lf, ls) = (dim(dn.input_batch_dim, lrank)?, dim(dn.input_feature_dim, lrank)?, dims(&dn.input_spatial_dims, lrank)?);
        let (ki, ko, ks) =
            (dim(dn.kernel_input_feature_dim, krank)?, dim(dn.kernel_output_feature_dim, krank)?, dims(&dn.kernel_spatial_dims, krank)?);
        let (ob, of, os) = (dim(dn.output_batch_dim, r)?, dim(dn.output_feature_dim, r)?, dims(&dn.output_spatial_dims, r)?);
        if strides.len() != ns || pad.len() != 2 * ns || ldil.len() != ns || rdil.len() != ns || rev.len() != ns {
            return Err(op.fail("convolution window attributes do not match its number of spatial dimensions"));
        }
        if g < 1 || bg < 1 || (g > 1 && bg > 1) {
            return Err(op.unsupported(&format!("with feature_group_count = {g} and batch_group_count = {bg}")));
        }
        Ok(Conv { ns, lb, lf, ls, ki, ko, ks, ob, of, os, strides, pad, ldil, rdil, rev, g, bg })
    }
}

/// The canonical input [N, spatial..., C] padded and dilated in its spatial
/// dims (1..=ns), with zeros; as is when there is nothing to do.
fn pad_input(t: &mut Tpl, lhs: TV, c: &Conv) -> TV {
    let needs_pad = c.pad.iter().any(|&p| p != 0) || c.ldil.iter().any(|&d| d != 1);
    if !needs_pad {
        return lhs;
    }
    let rank = lhs.ty.rank();
    let mut lo = vec![0; rank];
    let mut hi = vec![0; rank];
    let mut interior = vec![0; rank];
    for s in 0..c.ns {
        lo[1 + s] = c.pad[2 * s];
        hi[1 + s] = c.pad[2 * s + 1];
        interior[1 + s] = c.ldil[s] - 1;
    }
    let shape: Vec<i64> = (0..rank)
        .map(|i| {
            let m = lhs.ty.shape[i];
            lo[i] + hi[i] + if m == 0 { 0 } else { (m - 1) * (interior[i] + 1) + 1 }
        })
        .collect();
    let ze = lhs.ty.elem.clone();
    let z = t.cst(zero_lit(&ze), &ze);
    shape::pad_with(t, &lhs, &z, &lo, &hi, &interior, &lhs.ty.with_shape(&shape))
}

/// The named 2-D channels-last convolution `linalg.conv_2d_nhwc_hwcf` (1-D:
/// a unit height) of the canonical operands, into the canonical result
/// `cout`.
fn named_conv(t: &mut Tpl, lhs: TV, rhs: TV, cout: &Ty, c: &Conv) -> TV {
    let (strides, rdil) = (&c.strides, &c.rdil);
    let (lhs, rhs, cout2, st, dl) = if c.ns == 1 {
        let l = expand(t, &lhs, &[vec![0, 1], vec![2], vec![3]], &[lhs.ty.shape[0], 1, lhs.ty.shape[1], lhs.ty.shape[2]]);
        let k = expand(t, &rhs, &[vec![0, 1], vec![2], vec![3]], &[1, rhs.ty.shape[0], rhs.ty.shape[1], rhs.ty.shape[2]]);
        let o = cout.with_shape(&[cout.shape[0], 1, cout.shape[1], cout.shape[2]]);
        (l, k, o, [1, strides[0]], [1, rdil[0]])
    } else {
        (lhs, rhs, cout.clone(), [strides[0], strides[1]], [rdil[0], rdil[1]])
    };
    let z = t.cst(zero_lit(&cout.elem), &cout.elem);
    let init = t.fill(&z, &cout2);
    let v = t.v(format!(
        "linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{}, {}]> : tensor<2xi64>, strides = dense<[{}, {}]> : tensor<2xi64>}} \
         ins({}, {} : {}, {}) outs({} : {}) -> {}",
        dl[0],
        dl[1],
        st[0],
        st[1],
        lhs.v,
        rhs.v,
        lhs.ty.t(),
        rhs.ty.t(),
        init.v,
        cout2.t(),
        cout2.t()
    ));
    let res = TV::new(v, cout2);
    if c.ns == 1 { collapse(t, &res, &[vec![0, 1], vec![2], vec![3]]) } else { res }
}

/// The direct form: a `linalg.generic` over (batch, output spatial...,
/// [group,] output feature in group | window..., input feature in group) of
/// the canonical operands, accumulated in the accumulator type and converted
/// to the canonical result `cout`.
fn direct_conv(t: &mut Tpl, raw: mlir_sys::MlirOperation, lhs: TV, rhs: TV, cout: &Ty, c: &Conv) -> R<TV> {
    let (ns, g, bg) = (c.ns, c.g, c.bg);
    let gt = g * bg; // groups
    let cg = rhs.ty.shape[ns]; // input features per group
    let o = rhs.ty.shape[ns + 1];
    let og = o / gt; // output features per group
    let grouped = gt > 1;
    let lhs = if bg > 1 {
        let mut shape = lhs.ty.shape.clone();
        shape[0] /= bg;
        shape.insert(0, bg);
        expand(t, &lhs, &split_groups(lhs.ty.rank(), 0), &shape)
    } else if g > 1 {
        let mut shape = lhs.ty.shape.clone();
        shape[ns + 1] = cg;
        shape.insert(ns + 1, g);
        expand(t, &lhs, &split_groups(lhs.ty.rank(), ns + 1), &shape)
    } else {
        lhs
    };
    let rhs = if grouped {
        let mut shape = rhs.ty.shape.clone();
        shape[ns + 1] = og;
        shape.insert(ns + 1, gt);
        expand(t, &rhs, &split_groups(rhs.ty.rank(), ns + 1), &shape)
    } else {
        rhs
    };
    // Loops: n, output spatial 1..=ns, [group,] feature | window..., input feature.
    let np = ns + 2 + grouped as usize;
    let nd = np + ns + 1;
    let (lexpr, kexpr) = direct_maps(c, np, grouped);
    let mut acc_shape: Vec<i64> = cout.shape[..ns + 1].to_vec();
    if grouped {
        acc_shape.extend([gt, og]);
    } else {
        acc_shape.push(o);
    }
    let ce = acc_elem(&cout.elem);
    let acc_ty = cout.with_elem(&ce).with_shape(&acc_shape);
    let z = t.cst(zero_lit(&ce), &ce);
    let init = t.fill(&z, &acc_ty);
    let mut iters = vec!["parallel"; np];
    iters.extend(vec!["reduction"; ns + 1]);
    let (le, re) = (lhs.ty.elem.clone(), rhs.ty.elem.clone());
    let cec = ce.clone();
    let omap = amap(nd, &(0..np).map(|i| format!("d{i}")).collect::<Vec<_>>());
    let acc = t.generic(nd, &iters, &[(lhs, amap(nd, &lexpr)), (rhs, amap(nd, &kexpr))], &[(init, omap)], |t, a| {
        Ok(vec![mac_contract(t, raw, &a[0], &le, &a[1], &re, &a[2], &cec)?])
    })?;
    let mut res = acc.into_iter().next().unwrap();
    if grouped {
        res = collapse(t, &res, &(0..ns + 2).map(|d| if d <= ns { vec![d] } else { vec![d, d + 1] }).collect::<Vec<_>>());
    }
    finish(t, raw, res, cout)
}

/// The input and kernel index expressions of the direct form, over its
/// `np` parallel loops then the window and input-feature loops.
fn direct_maps(c: &Conv, np: usize, grouped: bool) -> (Vec<String>, Vec<String>) {
    let ns = c.ns;
    let nd = np + ns + 1;
    let (dg, dof, dc) = (ns + 1, np - 1, nd - 1);
    let term = |d: usize, k: i64| if k == 1 { format!("d{d}") } else { format!("d{d} * {k}") };
    let spatial: Vec<String> = (0..ns).map(|s| format!("{} + {}", term(1 + s, c.strides[s]), term(np + s, c.rdil[s]))).collect();
    let mut lexpr: Vec<String> = Vec::new();
    if c.bg > 1 {
        lexpr.push(format!("d{dg}"));
    }
    lexpr.push("d0".into());
    lexpr.extend(spatial);
    if c.g > 1 {
        lexpr.push(format!("d{dg}"));
    }
    lexpr.push(format!("d{dc}"));
    let mut kexpr: Vec<String> = (0..ns).map(|s| format!("d{}", np + s)).collect();
    kexpr.push(format!("d{dc}"));
    if grouped {
        kexpr.push(format!("d{dg}"));
    }
    kexpr.push(format!("d{dof}"));
    (lexpr, kexpr)
}

/// The canonical result [N, spatial..., O] transposed back into the output
/// layout (`out_perm[j]` is the output dim of canonical dim j); as is when
/// they agree.
fn output_layout(t: &mut Tpl, v: TV, out_perm: &[usize], out: &Ty) -> R<TV> {
    // canonical dim j is output dim out_perm[j]: result dim i = canonical dim inv[i].
    let mut inv = vec![0i64; out.rank()];
    for (j, &d) in out_perm.iter().enumerate() {
        inv[d] = j as i64;
    }
    if inv.iter().enumerate().all(|(i, &p)| i as i64 == p) {
        return Ok(v);
    }
    shape::transpose(t, &v, &inv, out)
}

/// [`mac`], with floats multiplied and added under `fastmath<contract>` (one
/// FMA in machine code).
#[allow(clippy::too_many_arguments)]
fn mac_contract(t: &mut Tpl, raw: mlir_sys::MlirOperation, a: &str, ae: &str, b: &str, be: &str, acc: &str, ce: &str) -> R<String> {
    if !matches!(kind(ce), Kind::Float(_)) {
        return mac(t, raw, a, ae, b, be, acc, ce);
    }
    let x = scalar::convert(t, raw, a, ae, ce)?;
    let y = scalar::convert(t, raw, b, be, ce)?;
    let ce = &storage(ce);
    let m = t.v(format!("arith.mulf {x}, {y} fastmath<contract> : {ce}"));
    Ok(t.v(format!("arith.addf {acc}, {m} fastmath<contract> : {ce}")))
}
