//! Elementwise ops → `linalg.generic` with identity maps, and `stablehlo.map`.

use super::common::*;
use super::scalar;

/// One elementwise op: the payload comes from [`scalar::emit`]; 0-d operands
/// (clamp's bounds, select's predicate) are broadcast by their indexing map.
pub fn lower(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let short = op.name.strip_prefix("stablehlo.").unwrap_or(&op.name).to_string();
    let out = op.results[0].clone();
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
