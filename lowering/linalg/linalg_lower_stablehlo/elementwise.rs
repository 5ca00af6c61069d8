//! Elementwise ops → `linalg.generic` with identity maps, and `stablehlo.map`.

use super::common::*;
use super::scalar;

/// One elementwise op: the payload comes from [`scalar::emit`]; 0-d operands
/// (clamp's bounds, select's predicate) are broadcast by their indexing map.
pub fn lower(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let short = op.name.strip_prefix("stablehlo.").unwrap_or(&op.name).to_string();
    let out = op.results[0].clone();
    if short == "bitcast_convert" && op.operands[0].shape != out.shape {
        return bitcast_resize(op);
    }
    for o in &op.operands {
        if o.rank() != 0 && o.shape != out.shape {
            return Err(op.unsupported(&format!("with operand shape {} different from the result {}", o.t_decl(), out.t_decl())));
        }
    }
    let ins: Vec<TV> = (0..op.operands.len()).map(|i| t.operand(op, i)).collect();
    let elems: Vec<String> = op.operands.iter().map(|o| o.elem.clone()).collect();
    let raw = op.raw;
    let r = t.map(&ins, &out, |t, args| scalar::emit(t, raw, &short, args, &elems, &out.elem))?;
    splice(op, &t, &[r])?;
    Ok(())
}

/// `stablehlo.map`: the body applied elementwise (over `dimensions`, which
/// the spec requires to be all dimensions in order).
pub fn map(op: &Op) -> R<()> {
    let out = op.results[0].clone();
    if let Some(d) = op.i64s("dimensions")
        && d != (0..out.rank() as i64).collect::<Vec<_>>()
    {
        return Err(op.unsupported("with non-identity dimensions"));
    }
    let mut t = Tpl::new(op);
    let ins: Vec<TV> = (0..op.operands.len()).map(|i| t.operand(op, i)).collect();
    let raw = op.raw;
    let region = op.region(0);
    let r = t.map(&ins, &out, |t, args| {
        let ys = scalar::scalarize_region(t, raw, region, args)?;
        Ok(ys[0].clone())
    })?;
    splice(op, &t, &[r])?;
    Ok(())
}

/// The integer of an element's bits: `arith.bitcast` for floats (storage
/// integers are their own bits).
fn to_bits(t: &mut Tpl, x: &str, elem: &str, w: u32) -> String {
    match kind(elem) {
        Kind::Float(_) => t.v(format!("arith.bitcast {x} : {elem} to i{w}")),
        _ => x.to_string(),
    }
}

fn from_bits(t: &mut Tpl, x: &str, elem: &str, w: u32) -> String {
    match kind(elem) {
        Kind::Float(_) => t.v(format!("arith.bitcast {x} : i{w} to {elem}")),
        _ => x.to_string(),
    }
}

/// `stablehlo.bitcast_convert` between element types of different widths:
/// the narrower side has an extra minor dimension of size wide/narrow, its
/// element `k` the bits `k·narrow ..` of the wide one (least significant
/// first: XLA's little-endian reinterpretation of memory).
fn bitcast_resize(op: &Op) -> R<()> {
    let (src, out) = (op.operands[0].clone(), op.results[0].clone());
    let width = |e: &str| scalar::bits(e).filter(|&w| w >= 8);
    let (Some(ws), Some(wo)) = (width(&src.elem), width(&out.elem)) else {
        return Err(op.unsupported(&format!("from {} to {}", src.t_decl(), out.t_decl())));
    };
    // Over the narrow side's dims (..., k): the wide side is read at (...),
    // piece k is `narrow` bits shifted by k·narrow.
    let n = src.rank().max(out.rank());
    let wide_map = amap(n, &(0..n - 1).map(|i| format!("d{i}")).collect::<Vec<_>>());
    let shift = |t: &mut Tpl, w: u32, narrow: u32| {
        let k = t.v(format!("linalg.index {} : index", n - 1));
        let k = t.v(format!("arith.index_cast {k} : index to i{w}"));
        let nb = t.cst(narrow, &format!("i{w}"));
        t.v(format!("arith.muli {k}, {nb} : i{w}"))
    };
    let mut t = Tpl::new(op);
    let x = t.operand(op, 0);
    let r = if ws > wo {
        let e = t.empty(&out);
        let (se, oe) = (src.elem.clone(), out.elem.clone());
        let r = t.generic(n, &vec!["parallel"; n], &[(x, wide_map)], &[(e, identity_map(n))], |t, a| {
            let xi = to_bits(t, &a[0], &storage(&se), ws);
            let sh = shift(t, ws, wo);
            let y = t.v(format!("arith.shrui {xi}, {sh} : i{ws}"));
            let y = t.v(format!("arith.trunci {y} : i{ws} to i{wo}"));
            Ok(vec![from_bits(t, &y, &storage(&oe), wo)])
        })?;
        r.into_iter().next().ok_or_else(|| op.fail("bitcast_convert: no result"))?
    } else {
        // Widening: a reduction over the operand's minor dimension OR-ing
        // each piece into place, then the bits as the result type.
        let bits_ty = out.with_elem(&format!("i{wo}"));
        let zero = t.cst(0, &format!("i{wo}"));
        let init = t.fill(&zero, &bits_ty);
        let mut iters = vec!["parallel"; n];
        iters[n - 1] = "reduction";
        let se = src.elem.clone();
        let acc = t.generic(n, &iters, &[(x, identity_map(n))], &[(init, wide_map)], |t, a| {
            let xi = to_bits(t, &a[0], &storage(&se), ws);
            let xi = t.v(format!("arith.extui {xi} : i{ws} to i{wo}"));
            let sh = shift(t, wo, ws);
            let y = t.v(format!("arith.shli {xi}, {sh} : i{wo}"));
            Ok(vec![t.v(format!("arith.ori {}, {y} : i{wo}", a[1]))])
        })?;
        let acc = acc.into_iter().next().ok_or_else(|| op.fail("bitcast_convert: no result"))?;
        match kind(&out.elem) {
            Kind::Float(_) => {
                let oe = out.elem.clone();
                t.map(&[acc], &out, |t, a| Ok(from_bits(t, &a[0], &oe, wo)))?
            }
            _ => acc,
        }
    };
    splice(op, &t, &[r])?;
    Ok(())
}
