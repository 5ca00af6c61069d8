//! Shape and data-movement ops → tensor ops or index-mapping `linalg.generic`s.

use super::common::*;
use super::scalar;

pub fn lower(op: &Op, short: &str) -> R<()> {
    // A constant keeps its declared type (it may be a host-level value); the
    // pass's final retyping makes the ones it computes on signless.
    let mut t = if short == "constant" { Tpl::new_decl(op) } else { Tpl::new(op) };
    // Every op lowered here has a result by its verifier; say so if not.
    let result = || op.results.first().cloned().ok_or_else(|| op.fail(format!("'{}' has no result", op.name)));
    let results: Vec<TV> = match short {
        "constant" => {
            // The value attribute printed into the template as it is.
            let v = op.attr("value").ok_or_else(|| op.fail("constant without a value"))?;
            vec![TV::new(t.cst_attr(v), result()?)]
        }
        "get_dimension_size" => {
            let d = op.i64_attr("dimension").unwrap_or(0) as usize;
            let n = op.operands[0].shape[d];
            let out = result()?;
            vec![TV::new(t.v(format!("arith.constant dense<{n}> : {}", out.t())), out)]
        }
        "optimization_barrier" => (0..op.operands.len()).map(|i| t.operand(op, i)).collect(),
        "iota" => vec![iota(&mut t, op, &result()?)?],
        "broadcast" => {
            // legacy broadcast: new leading dims, the operand's dims trail.
            let out = result()?;
            let x = t.operand(op, 0);
            let n = out.rank();
            let k = n - x.ty.rank();
            let exprs: Vec<String> = (k..n).map(|d| format!("d{d}")).collect();
            let e = t.empty(&out);
            t.generic(n, &vec!["parallel"; n], &[(x, amap(n, &exprs))], &[(e, identity_map(n))], |_, a| Ok(vec![a[0].clone()]))?
        }
        "batch_norm_inference" => {
            // (x - mean) * scale / sqrt(variance + epsilon) + offset, per feature.
            let out = result()?;
            let n = out.rank();
            let f = op.i64_attr("feature_index").unwrap_or(0);
            // An f32 attribute (`epsilon`, spec: "batch_norm_inference").
            // SAFETY: `a` is a live attribute of the op being lowered.
            let eps = op.attr("epsilon").filter(|&a| unsafe { mlir_sys::mlirAttributeIsAFloat(a) });
            let fmap = amap(n, &[format!("d{f}")]);
            let mut ins = vec![(t.operand(op, 0), identity_map(n))];
            for i in 1..5 {
                ins.push((t.operand(op, i), fmap.clone()));
            }
            let e = t.empty(&out);
            let elem = out.elem.clone();
            let raw = op.raw;
            t.generic(n, &vec!["parallel"; n], &ins, &[(e, identity_map(n))], |t, a| {
                // operands: operand, scale, offset, mean, variance
                let el = |_: usize| elem.clone();
                let (ep, ep_elem) = match eps {
                    Some(a) => {
                        // SAFETY: `a` is a live attribute, checked to be a FloatAttr (`eps`).
                        let e = unsafe { elem_spelling(mlir_sys::mlirAttributeGetType(a)) }
                            .ok_or_else(|| fail(raw, "batch_norm_inference: epsilon is not an f16/bf16/f32/f64 attribute"))?;
                        (t.cst_attr(a), e)
                    }
                    None => (t.cst("0.0", "f32"), "f32".to_string()),
                };
                let ep = super::scalar::convert(t, raw, &ep, &ep_elem, &elem)?;
                let d = super::scalar::emit(t, raw, "subtract", &[a[0].clone(), a[3].clone()], &[el(0), el(0)], &elem)?;
                let ve = super::scalar::emit(t, raw, "add", &[a[4].clone(), ep], &[el(0), el(0)], &elem)?;
                let rs = super::scalar::emit(t, raw, "rsqrt", &[ve], &[el(0)], &elem)?;
                let m = super::scalar::emit(t, raw, "multiply", &[d, a[1].clone()], &[el(0), el(0)], &elem)?;
                let m2 = super::scalar::emit(t, raw, "multiply", &[m, rs], &[el(0), el(0)], &elem)?;
                Ok(vec![super::scalar::emit(t, raw, "add", &[m2, a[2].clone()], &[el(0), el(0)], &elem)?])
            })?
        }
        "broadcast_in_dim" => vec![broadcast_in_dim(&mut t, op, &result()?)?],
        "reshape" => {
            let x = t.operand(op, 0);
            vec![reshape(&mut t, &x, &result()?)]
        }
        "transpose" => {
            let perm = op.i64s("permutation").ok_or_else(|| op.fail("transpose without permutation"))?;
            let x = t.operand(op, 0);
            vec![transpose(&mut t, &x, &perm, &result()?)?]
        }
        "slice" => {
            let x = t.operand(op, 0);
            let start = op.i64s("start_indices").unwrap_or_default();
            let strides = op.i64s_or("strides", x.ty.rank(), 1);
            let out = result()?;
            vec![extract_slice(&mut t, &x, &nums(&start), &out.shape, &strides)]
        }
        "concatenate" => {
            let dim = op.i64_attr("dimension").unwrap_or(0) as usize;
            let out = result()?;
            let mut acc = t.empty(&out);
            let mut off = 0;
            for i in 0..op.operands.len() {
                let x = t.operand(op, i);
                if x.ty.shape.contains(&0) {
                    // Nothing to insert (and a slice of a zero-size result
                    // would be out of bounds at offset 0).
                    continue;
                }
                let mut offs = vec![0; out.rank()];
                offs[dim] = off;
                off += x.ty.shape[dim];
                acc = insert_slice(&mut t, &x, &acc, &nums(&offs), &vec![1; out.rank()]);
            }
            vec![acc]
        }
        "pad" => vec![pad(&mut t, op, &result()?)?],
        "reverse" => {
            let dims = op.i64s("dimensions").unwrap_or_default();
            let x = t.operand(op, 0);
            let out = result()?;
            let n = out.rank();
            let exprs: Vec<String> = (0..n)
                .map(|i| if dims.contains(&(i as i64)) { format!("-d{i} + {}", out.shape[i] - 1) } else { format!("d{i}") })
                .collect();
            let e = t.empty(&out);
            t.generic(n, &vec!["parallel"; n], &[(x, amap(n, &exprs))], &[(e, identity_map(n))], |_, a| Ok(vec![a[0].clone()]))?
        }
        "dynamic_slice" => {
            let x = t.operand(op, 0);
            let out = result()?;
            let sizes = out.shape.clone();
            let offs = dynamic_starts(&mut t, op, 1, &x.ty.shape, &sizes);
            vec![extract_slice(&mut t, &x, &offs, &sizes, &vec![1; sizes.len()])]
        }
        "dynamic_update_slice" => {
            let x = t.operand(op, 0);
            let u = t.operand(op, 1);
            if u.ty.shape.contains(&0) {
                // An empty update changes nothing.
                vec![x]
            } else {
                let offs = dynamic_starts(&mut t, op, 2, &x.ty.shape, &u.ty.shape);
                let n = u.ty.rank();
                vec![insert_slice(&mut t, &u, &x, &offs, &vec![1; n])]
            }
        }
        _ => return Err(op.unsupported("")),
    };
    splice(op, &t, &results)?;
    Ok(())
}

pub fn nums(v: &[i64]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

/// Scalar start indices (0-d operands from `first`), clamped into
/// `[0, dim - size]` as the spec says, as `index` values.
pub fn dynamic_starts(t: &mut Tpl, op: &Op, first: usize, dims: &[i64], sizes: &[i64]) -> Vec<String> {
    let zero = t.cst_index(0);
    (0..dims.len())
        .map(|i| {
            let s = t.operand(op, first + i);
            let v = t.extract0(&s);
            if matches!(kind(&s.ty.elem), Kind::UInt(_)) {
                // Unsigned: clamp before the cast, so no value wraps negative.
                let hi = t.cst(dims[i] - sizes[i], &s.ty.elem);
                let m = t.v(format!("arith.minui {v}, {hi} : {}", s.ty.s()));
                return t.index_cast(&m, &s.ty.elem);
            }
            let idx = t.index_cast(&v, &s.ty.elem);
            let hi = t.cst_index(dims[i] - sizes[i]);
            let a = t.v(format!("arith.minsi {idx}, {hi} : index"));
            t.v(format!("arith.maxsi {a}, {zero} : index"))
        })
        .collect()
}

pub fn extract_slice(t: &mut Tpl, x: &TV, offs: &[String], sizes: &[i64], strides: &[i64]) -> TV {
    let ty = x.ty.with_shape(sizes);
    // A zero-size slice has no elements to read, and its offset may be the
    // dimension's size (`x[5:5]`), which extract_slice's verifier refuses.
    if sizes.contains(&0) {
        return t.empty(&ty);
    }
    let v = t.v(format!(
        "tensor.extract_slice {}[{}] [{}] [{}] : {} to {}",
        x.v,
        join(offs),
        join(&nums(sizes)),
        join(&nums(strides)),
        x.ty.t(),
        ty.t()
    ));
    TV::new(v, ty)
}

pub fn insert_slice(t: &mut Tpl, src: &TV, dst: &TV, offs: &[String], strides: &[i64]) -> TV {
    let v = t.v(format!(
        "tensor.insert_slice {} into {}[{}] [{}] [{}] : {} into {}",
        src.v,
        dst.v,
        join(offs),
        join(&nums(&src.ty.shape)),
        join(&nums(strides)),
        src.ty.t(),
        dst.ty.t()
    ));
    TV::new(v, dst.ty.clone())
}

/// Any static reshape: collapse to 1-D, expand to the target.
pub fn reshape(t: &mut Tpl, x: &TV, out: &Ty) -> TV {
    if x.ty.shape == out.shape {
        return x.clone();
    }
    let flat = x.ty.with_shape(&[x.ty.numel()]);
    let f = match x.ty.rank() {
        1 => x.v.clone(),
        0 => t.v(format!("tensor.expand_shape {} [] output_shape [1] : {} into {}", x.v, x.ty.t(), flat.t())),
        r => t.v(format!(
            "tensor.collapse_shape {} [[{}]] : {} into {}",
            x.v,
            join(&nums(&(0..r as i64).collect::<Vec<_>>())),
            x.ty.t(),
            flat.t()
        )),
    };
    let v = match out.rank() {
        1 => f,
        0 => t.v(format!("tensor.collapse_shape {f} [] : {} into {}", flat.t(), out.t())),
        r => t.v(format!(
            "tensor.expand_shape {f} [[{}]] output_shape [{}] : {} into {}",
            join(&nums(&(0..r as i64).collect::<Vec<_>>())),
            join(&nums(&out.shape)),
            flat.t(),
            out.t()
        )),
    };
    TV::new(v, out.clone())
}

/// Result dim i = operand dim perm[i].
pub fn transpose(t: &mut Tpl, x: &TV, perm: &[i64], out: &Ty) -> R<TV> {
    let n = out.rank();
    let mut inv = vec![0usize; n];
    for (i, &p) in perm.iter().enumerate() {
        inv[p as usize] = i;
    }
    let exprs: Vec<String> = (0..n).map(|j| format!("d{}", inv[j])).collect();
    let e = t.empty(out);
    let r = t.generic(n, &vec!["parallel"; n], &[(x.clone(), amap(n, &exprs))], &[(e, identity_map(n))], |_, a| Ok(vec![a[0].clone()]))?;
    Ok(r.into_iter().next().unwrap())
}

fn broadcast_in_dim(t: &mut Tpl, op: &Op, out: &Ty) -> R<TV> {
    let x = t.operand(op, 0);
    let dims = op.i64s("broadcast_dimensions").unwrap_or_default();
    let n = out.rank();
    if x.ty.shape == out.shape && dims == (0..n as i64).collect::<Vec<_>>() {
        return Ok(x);
    }
    if let Some(splat) = splat_float_constant(op.raw, out) {
        return Ok(TV::new(t.cst_attr(splat), out.clone()));
    }
    let exprs: Vec<String> = dims
        .iter()
        .enumerate()
        .map(|(i, &d)| if x.ty.shape[i] == 1 && out.shape[d as usize] != 1 { "0".to_string() } else { format!("d{d}") })
        .collect();
    let e = t.empty(out);
    let r = t.generic(n, &vec!["parallel"; n], &[(x, amap(n, &exprs))], &[(e, identity_map(n))], |_, a| Ok(vec![a[0].clone()]))?;
    Ok(r.into_iter().next().unwrap())
}

/// Broadcasts of a splat float constant up to this many bytes become splat
/// constants themselves.
const MAX_SPLAT_BROADCAST_BYTES: u64 = 1 << 20;

/// The broadcast of a float splat constant (`1024.0` broadcast to
/// `4096x1`: layernorm's divisor) as a splat `arith.constant` of the result
/// type, which `linalg-fuse-elementwise-ops` folds into its consumers'
/// bodies as a scalar. As a `linalg.generic` it stays an operand of its own:
/// a row fusion then materializes it in a buffer and reads it back per
/// vector, and the division by it stays inside the vector loops. Bounded:
/// a splat left unfolded becomes a global of that size.
fn splat_float_constant(raw: mlir_sys::MlirOperation, out: &Ty) -> Option<mlir_sys::MlirAttribute> {
    use mlir_sys::*;
    // SAFETY: `raw` is the live broadcast being lowered (one operand and one result by its
    // definition). The splat value is read only after `a` is checked to be a splat dense elements
    // attribute; the result type is checked to be a static ranked tensor of floats before its
    // element type is read; the broadcast keeps its operand's element type, so the splat value is
    // of that element type.
    unsafe {
        let v = mlirOperationGetOperand(raw, 0);
        let producer = floors_ir::ir::raw::producer(v)?;
        let name = floors_ir::ir::raw::name(producer);
        if name != "stablehlo.constant" && name != "arith.constant" {
            return None;
        }
        let a = floors_ir::ir::raw::attr(producer, "value")?;
        if !mlirAttributeIsADenseElements(a) || !mlirDenseElementsAttrIsSplat(a) {
            return None;
        }
        let ty = mlirValueGetType(mlirOperationGetResult(raw, 0));
        if !mlirTypeIsARankedTensor(ty) || !mlirShapedTypeHasStaticShape(ty) || !mlirTypeIsAFloat(mlirShapedTypeGetElementType(ty)) {
            return None;
        }
        let elems: i64 = out.shape.iter().product();
        let bytes = elems.max(0) as u64 * floors_ir::ir::raw::element_bytes(ty);
        (bytes <= MAX_SPLAT_BROADCAST_BYTES).then(|| mlirDenseElementsAttrSplatGet(ty, mlirDenseElementsAttrGetSplatValue(a)))
    }
}

fn iota(t: &mut Tpl, op: &Op, out: &Ty) -> R<TV> {
    let d = op.i64_attr("iota_dimension").unwrap_or(0) as usize;
    let raw = op.raw;
    let elem = out.elem.clone();
    t.map(&[], out, |t, _| {
        let i = t.v(format!("linalg.index {d} : index"));
        match kind(&elem) {
            Kind::Int(_) | Kind::UInt(_) => Ok(t.v(format!("arith.index_cast {i} : index to {}", storage(&elem)))),
            _ => {
                let i64v = t.v(format!("arith.index_cast {i} : index to i64"));
                scalar::convert(t, raw, &i64v, "i64", &elem)
            }
        }
    })
}

/// `stablehlo.pad`: fill with the padding value, insert the operand with
/// stride interior+1 at the (non-negative) low padding, then cut away
/// negative padding.
fn pad(t: &mut Tpl, op: &Op, out: &Ty) -> R<TV> {
    let x = t.operand(op, 0);
    let pv = t.operand(op, 1);
    let r = x.ty.rank();
    let lo = op.i64s_or("edge_padding_low", r, 0);
    let hi = op.i64s_or("edge_padding_high", r, 0);
    let interior = op.i64s_or("interior_padding", r, 0);
    let s = t.extract0(&pv);
    Ok(pad_with(t, &x, &s, &lo, &hi, &interior, out))
}

/// Pads `x` with scalar `s` (low/high may be negative; interior ≥ 0).
pub fn pad_with(t: &mut Tpl, x: &TV, s: &str, lo: &[i64], hi: &[i64], interior: &[i64], out: &Ty) -> TV {
    let r = x.ty.rank();
    let lo_p: Vec<i64> = lo.iter().map(|&v| v.max(0)).collect();
    let hi_p: Vec<i64> = hi.iter().map(|&v| v.max(0)).collect();
    let shape: Vec<i64> = (0..r)
        .map(|i| {
            let n = x.ty.shape[i];
            let core = if n == 0 { 0 } else { (n - 1) * (interior[i] + 1) + 1 };
            lo_p[i] + core + hi_p[i]
        })
        .collect();
    let pty = x.ty.with_shape(&shape);
    let filled = t.fill(s, &pty);
    let padded = if x.ty.numel() == 0 {
        filled
    } else {
        let strides: Vec<i64> = interior.iter().map(|v| v + 1).collect();
        insert_slice(t, x, &filled, &nums(&lo_p), &strides)
    };
    if shape == out.shape {
        return padded;
    }
    let offs: Vec<i64> = lo.iter().map(|&v| if v < 0 { -v } else { 0 }).collect();
    extract_slice(t, &padded, &nums(&offs), &out.shape, &vec![1; r])
}
