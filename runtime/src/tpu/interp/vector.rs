//! Vector value ops: `exec_vector`, positions into vectors, and
//! broadcasts, reductions, transposes, slices and `iota` on [`Tensor`]s.
//! `tpu.matmul`'s arithmetic is in [`super::matmul`].

use super::matmul::matmul;
use super::*;

impl Machine<'_> {
    /// `vector` and `tpu` value ops: broadcasts, reshapes, reductions,
    /// transposes, extracts and inserts, `iota`, `matmul`, `all_reduce`.
    pub(super) fn exec_vector(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::DynamicRotate { .. }
            | OpKind::ReduceIndex { .. }
            | OpKind::DynamicGather { .. }
            | OpKind::IterationBound { .. }
            | OpKind::Concatenate { .. }
            | OpKind::VectorBitcast { .. } => return self.exec_tpu_vector(fr, op),
            OpKind::Broadcast { source } => {
                let v = self.tensor(fr, op, *source)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let t = broadcast(t, ty, &shape).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::ShapeCast { source } => {
                let v = self.tensor(fr, op, *source)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let n = checked_count(&shape).map_err(|m| self.bad(op, m))?;
                if ty != t.ty || n != t.data.len() {
                    return Err(self.bad(op, format!("cannot reshape {} to {}", t.describe(), self.result_type(op, 0)?.describe())));
                }
                self.set1(fr, op, Tensor { ty, shape, data: t.data.clone() })?;
            }
            OpKind::MultiReduction { kind, source, acc, dims } => {
                let (s, a) = (self.tensor(fr, op, *source)?, self.tensor(fr, op, *acc)?);
                let (Value::T(s), Value::T(a)) = (&*s, &*a) else { return unreachable_ref() };
                let t = multi_reduce(*kind, s, a, dims).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Reduction { kind, vector, acc } => {
                let s = self.tensor(fr, op, *vector)?;
                let Value::T(s) = &*s else { return unreachable_ref() };
                let dims: Vec<i64> = (0..s.shape.len() as i64).collect();
                let a = match acc {
                    Some(a) => {
                        let a = self.tensor(fr, op, *a)?;
                        let Value::T(a) = &*a else { return unreachable_ref() };
                        Some(a.clone())
                    }
                    None => None,
                };
                let t = match a {
                    Some(a) => multi_reduce(*kind, s, &a, &dims),
                    None => reduce_all(*kind, s),
                }
                .map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Transpose { vector, permutation } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = transpose(t, permutation).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Extract { vector, position, dynamic } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let pos = self.positions(fr, op, position, dynamic)?;
                let (start, count) = self.subvector(op, t, &pos)?;
                let shape = t.shape[pos.len()..].to_vec();
                let idx: Vec<usize> = (start..start + count).collect();
                self.set1(fr, op, Tensor { ty: t.ty, shape, data: t.data.gather(&idx) })?;
            }
            OpKind::Insert { value, dest, position, dynamic } => {
                let (v, d) = (self.tensor(fr, op, *value)?, self.tensor(fr, op, *dest)?);
                let (Value::T(v), Value::T(d)) = (&*v, &*d) else { return unreachable_ref() };
                let pos = self.positions(fr, op, position, dynamic)?;
                let (start, count) = self.subvector(op, d, &pos)?;
                if v.ty != d.ty || v.shape[..] != d.shape[pos.len()..] || v.data.len() != count {
                    return Err(self.bad(op, format!("cannot insert {} into {} at {pos:?}", v.describe(), d.describe())));
                }
                let mut out = d.clone();
                match (&mut out.data, &v.data) {
                    (Elems::F(o), Elems::F(x)) => o[start..start + count].copy_from_slice(x),
                    (Elems::I(o), Elems::I(x)) => o[start..start + count].copy_from_slice(x),
                    _ => return Err(self.bad(op, "element kinds differ")),
                }
                self.set1(fr, op, out)?;
            }
            OpKind::ExtractStridedSlice { vector, offsets, sizes, strides } => {
                let v = self.tensor(fr, op, *vector)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = strided_slice(t, offsets, sizes, strides).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::InsertStridedSlice { value, dest, offsets, strides } => {
                let v = self.tensor(fr, op, *value)?;
                let d = self.tensor(fr, op, *dest)?;
                let (Value::T(v), Value::T(d)) = (&*v, &*d) else { return unreachable_ref() };
                let t = insert_strided_slice(v, d, offsets, strides).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Iota { dimensions } => {
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let t = iota(ty, &shape, dimensions).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Matmul { lhs, rhs, acc, dimension_numbers, transpose_lhs, transpose_rhs } => {
                let (l, r, a) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?, self.tensor(fr, op, *acc)?);
                let (Value::T(l), Value::T(r), Value::T(a)) = (&*l, &*r, &*a) else { return unreachable_ref() };
                let t = matmul(l, r, a, dimension_numbers.as_ref(), *transpose_lhs, *transpose_rhs).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::AllReduce { input, dim, kind } => {
                let v = self.tensor(fr, op, *input)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let red = reduce_dims(*kind, t, &[*dim], None).map_err(|m| self.bad(op, m))?;
                // Put the reduced dim back as size 1, then broadcast.
                let mut kept = t.shape.clone();
                if let Some(k) = kept.get_mut(*dim as usize) {
                    *k = 1;
                }
                let red = Tensor { shape: kept, ..red };
                let out = broadcast(&red, t.ty, &t.shape).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, out)?;
            }
            _ => return misrouted(op),
        }
        Ok(())
    }

    /// The `tpu` dialect's own vector ops: rotations (`pltpu.roll`),
    /// `reduce_index`, `dynamic_gather`, `iteration_bound`, concatenation
    /// (and `repeat`), bitcasts across widths.
    fn exec_tpu_vector(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::DynamicRotate { value, amount, dimension, stride } => {
                let v = self.tensor(fr, op, *value)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let amount = self.int(fr, op, *amount)?;
                let t = rotate(t, amount, *dimension, *stride).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::ReduceIndex { input, axis, arg_max } => {
                let v = self.tensor(fr, op, *input)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = reduce_index(t, *axis, *arg_max).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::DynamicGather { source, indices, dimension } => {
                let (v, i) = (self.tensor(fr, op, *source)?, self.tensor(fr, op, *indices)?);
                let (Value::T(v), Value::T(i)) = (&*v, &*i) else { return unreachable_ref() };
                let t = dynamic_gather(v, i, *dimension).map_err(|m| self.op_err(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::IterationBound { dim } => {
                let n = usize::try_from(*dim).ok().and_then(|d| self.kernel.iteration_bounds.get(d)).copied();
                let n = n.ok_or_else(|| self.bad(op, format!("dim {dim} of a grid of rank {}", self.kernel.iteration_bounds.len())))?;
                let (ty, _) = self.result_tensor_type(op, 0)?;
                self.set1(fr, op, Tensor::scalar_int(ty, n))?;
            }
            OpKind::Concatenate { sources, dimension } => {
                let parts: Vec<Rc<Value>> = sources.iter().map(|&s| self.tensor(fr, op, s)).collect::<R<_>>()?;
                let parts: Vec<&Tensor> =
                    parts.iter().map(|v| if let Value::T(t) = &**v { Ok(t) } else { unreachable_ref() }).collect::<R<_>>()?;
                let t = concatenate(&parts, *dimension).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::VectorBitcast { source } => {
                let v = self.tensor(fr, op, *source)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let t = super::elementwise::bitcast_vector(t, ty, &shape).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            _ => return misrouted(op),
        }
        Ok(())
    }

    fn positions(&self, fr: &Frame, op: &Op, position: &[Option<i64>], dynamic: &[ValueId]) -> R<Vec<i64>> {
        let mut dyns = dynamic.iter();
        position
            .iter()
            .map(|p| match p {
                Some(v) => Ok(*v),
                None => {
                    let id = dyns.next().ok_or_else(|| self.bad(op, "fewer dynamic positions than the op names"))?;
                    self.int(fr, op, *id)
                }
            })
            .collect()
    }

    /// (first flat index, element count) of `t[pos]`.
    fn subvector(&self, op: &Op, t: &Tensor, pos: &[i64]) -> R<(usize, usize)> {
        if pos.len() > t.shape.len() {
            return Err(self.bad(op, format!("position {pos:?} for {}", t.describe())));
        }
        let strides = row_major_strides(&t.shape);
        let mut start = 0i64;
        for (d, &p) in pos.iter().enumerate() {
            if p < 0 || p >= t.shape[d] {
                return Err(self.op_err(op, format!("position {p} out of bounds for dim {d} of {}", t.describe())));
            }
            start += p * strides[d];
        }
        let count = checked_count(&t.shape[pos.len()..]).map_err(|m| self.bad(op, m))?;
        Ok((start as usize, count))
    }
}

fn broadcast(t: &Tensor, ty: ScalarType, shape: &[i64]) -> std::result::Result<Tensor, String> {
    if t.ty != ty {
        return Err(format!("broadcasts {} to {}", t.describe(), ty.name()));
    }
    let n = checked_count(shape)?;
    let r = shape.len();
    if t.shape.len() > r {
        return Err(format!("cannot broadcast {} to {shape:?}", t.describe()));
    }
    let lead = r - t.shape.len();
    for (d, &s) in t.shape.iter().enumerate() {
        if s != 1 && s != shape[lead + d] {
            return Err(format!("cannot broadcast {} to {shape:?}", t.describe()));
        }
    }
    let src_strides = row_major_strides(&t.shape);
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        let mut o = 0i64;
        for (d, &s) in t.shape.iter().enumerate() {
            if s != 1 {
                o += idx[lead + d] * src_strides[d];
            }
        }
        offs.push(o as usize);
        next_index(&mut idx, shape);
    }
    Ok(Tensor { ty, shape: shape.to_vec(), data: t.data.gather(&offs) })
}

fn combine_f(kind: CombiningKind, a: f64, b: f64) -> std::result::Result<f64, String> {
    use CombiningKind::*;
    Ok(match kind {
        Add => a + b,
        Mul => a * b,
        MinNumF => a.min(b),
        MaxNumF => a.max(b),
        MinimumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        }
        MaximumF => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        }
        k => return Err(format!("reduction <{k:?}> on floats")),
    })
}

fn combine_i(kind: CombiningKind, ty: ScalarType, a: i64, b: i64) -> std::result::Result<i64, String> {
    use CombiningKind::*;
    let (ua, ub) = (unsigned(ty, a), unsigned(ty, b));
    Ok(wrap(
        ty,
        match kind {
            Add => a.wrapping_add(b),
            Mul => a.wrapping_mul(b),
            MinSI => a.min(b),
            MaxSI => a.max(b),
            MinUI => ua.min(ub) as i64,
            MaxUI => ua.max(ub) as i64,
            And => a & b,
            Or => a | b,
            Xor => a ^ b,
            k => return Err(format!("reduction <{k:?}> on integers")),
        },
    ))
}

/// Reduces `dims` of `t`, starting from `acc` (same shape as the result) or
/// from the first element along the dims.
fn reduce_dims(kind: CombiningKind, t: &Tensor, dims: &[i64], acc: Option<&Tensor>) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let mut reduced = vec![false; r];
    for &d in dims {
        if d < 0 || d as usize >= r || reduced[d as usize] {
            return Err(format!("bad reduction dims {dims:?} for {}", t.describe()));
        }
        reduced[d as usize] = true;
    }
    let out_shape: Vec<i64> = (0..r).filter(|&d| !reduced[d]).map(|d| t.shape[d]).collect();
    let out_n = checked_count(&out_shape)?;
    let out_strides = row_major_strides(&out_shape);
    if let Some(a) = acc
        && (a.shape != out_shape || a.ty != t.ty)
    {
        return Err(format!("accumulator {} for a result of shape {out_shape:?}", a.describe()));
    }
    let n = t.data.len();
    let mut idx = vec![0i64; r];
    // Map each source element to its output position.
    let mut target = Vec::with_capacity(n);
    for _ in 0..n {
        let mut o = 0i64;
        let mut k = 0;
        for d in 0..r {
            if !reduced[d] {
                o += idx[d] * out_strides[k];
                k += 1;
            }
        }
        target.push(o as usize);
        next_index(&mut idx, &t.shape);
    }
    let ty = t.ty;
    let data = match &t.data {
        Elems::F(v) => {
            let mut out: Vec<Option<f64>> = match acc {
                Some(Tensor { data: Elems::F(a), .. }) => a.iter().map(|&x| Some(x)).collect(),
                Some(_) => return Err("accumulator kind differs".into()),
                None => vec![None; out_n],
            };
            for (&x, &o) in v.iter().zip(&target) {
                out[o] = Some(match out[o] {
                    Some(a) => round_to(ty, combine_f(kind, a, x)?),
                    None => x,
                });
            }
            Elems::F(out.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
        }
        Elems::I(v) => {
            let mut out: Vec<Option<i64>> = match acc {
                Some(Tensor { data: Elems::I(a), .. }) => a.iter().map(|&x| Some(x)).collect(),
                Some(_) => return Err("accumulator kind differs".into()),
                None => vec![None; out_n],
            };
            for (&x, &o) in v.iter().zip(&target) {
                out[o] = Some(match out[o] {
                    Some(a) => combine_i(kind, ty, a, x)?,
                    None => x,
                });
            }
            Elems::I(out.into_iter().map(|x| x.unwrap_or(0)).collect())
        }
    };
    Ok(Tensor { ty, shape: out_shape, data })
}

fn multi_reduce(kind: CombiningKind, s: &Tensor, acc: &Tensor, dims: &[i64]) -> std::result::Result<Tensor, String> {
    reduce_dims(kind, s, dims, Some(acc))
}

fn reduce_all(kind: CombiningKind, s: &Tensor) -> std::result::Result<Tensor, String> {
    if s.data.is_empty() {
        return Err("reduction of an empty vector without an accumulator".into());
    }
    let dims: Vec<i64> = (0..s.shape.len() as i64).collect();
    reduce_dims(kind, s, &dims, None)
}

fn transpose(t: &Tensor, perm: &[i64]) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let mut seen = vec![false; r];
    if perm.len() != r || perm.iter().any(|&p| p < 0 || p as usize >= r || std::mem::replace(&mut seen[p as usize], true)) {
        return Err(format!("bad permutation {perm:?} for {}", t.describe()));
    }
    let shape: Vec<i64> = perm.iter().map(|&p| t.shape[p as usize]).collect();
    let src = row_major_strides(&t.shape);
    let n = t.data.len();
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        offs.push(idx.iter().zip(perm).map(|(i, &p)| i * src[p as usize]).sum::<i64>() as usize);
        next_index(&mut idx, &shape);
    }
    Ok(Tensor { ty: t.ty, shape, data: t.data.gather(&offs) })
}

fn strided_slice(t: &Tensor, offsets: &[i64], sizes: &[i64], strides: &[i64]) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let k = offsets.len();
    if k > r || sizes.len() != k || (strides.len() != k && !strides.is_empty()) {
        return Err(format!("bad slice offsets {offsets:?} sizes {sizes:?} strides {strides:?} of {}", t.describe()));
    }
    let mut start = vec![0i64; r];
    let mut shape = t.shape.clone();
    let mut step = vec![1i64; r];
    for d in 0..k {
        let s = if strides.is_empty() { 1 } else { strides[d] };
        let last = offsets[d] + (sizes[d] - 1).max(0) * s;
        if offsets[d] < 0 || sizes[d] < 0 || s < 1 || (sizes[d] > 0 && last >= t.shape[d]) {
            return Err(format!("slice offsets {offsets:?} sizes {sizes:?} out of bounds of {}", t.describe()));
        }
        start[d] = offsets[d];
        shape[d] = sizes[d];
        step[d] = s;
    }
    let n = checked_count(&shape)?;
    let src = row_major_strides(&t.shape);
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(n);
    for _ in 0..n {
        offs.push((0..r).map(|d| (start[d] + idx[d] * step[d]) * src[d]).sum::<i64>() as usize);
        next_index(&mut idx, &shape);
    }
    Ok(Tensor { ty: t.ty, shape, data: t.data.gather(&offs) })
}

/// `dest` with `value` written at `offsets` (one per dim of `dest`; `value`
/// may have fewer dims: it is aligned with the trailing ones) every `strides`.
fn insert_strided_slice(value: &Tensor, dest: &Tensor, offsets: &[i64], strides: &[i64]) -> std::result::Result<Tensor, String> {
    let r = dest.shape.len();
    let lead = r.checked_sub(value.shape.len()).ok_or_else(|| format!("inserting {} into {}", value.describe(), dest.describe()))?;
    if offsets.len() != r || !(strides.is_empty() || strides.len() == value.shape.len()) || value.ty != dest.ty {
        return Err(format!("bad insert offsets {offsets:?} strides {strides:?} of {} into {}", value.describe(), dest.describe()));
    }
    let step = |d: usize| if d < lead || strides.is_empty() { 1 } else { strides[d - lead] };
    for d in 0..r {
        let n = if d < lead { 1 } else { value.shape[d - lead] };
        let s = step(d);
        if offsets[d] < 0 || s < 1 || (n > 0 && offsets[d] + (n - 1) * s >= dest.shape[d]) {
            return Err(format!("insert offsets {offsets:?} put {} out of bounds of {}", value.describe(), dest.describe()));
        }
    }
    let n = checked_count(&value.shape)?;
    let dst = row_major_strides(&dest.shape);
    let mut idx = vec![0i64; value.shape.len()];
    let mut out = dest.data.clone();
    for k in 0..n {
        let off: i64 = (0..r).map(|d| (offsets[d] + if d < lead { 0 } else { idx[d - lead] * step(d) }) * dst[d]).sum();
        match (&mut out, &value.data) {
            (Elems::F(o), Elems::F(v)) => o[off as usize] = v[k],
            (Elems::I(o), Elems::I(v)) => o[off as usize] = v[k],
            _ => return Err("element kinds differ".into()),
        }
        next_index(&mut idx, &value.shape);
    }
    Ok(Tensor { ty: dest.ty, shape: dest.shape.clone(), data: out })
}

fn iota(ty: ScalarType, shape: &[i64], dims: &[i64]) -> std::result::Result<Tensor, String> {
    let r = shape.len();
    if dims.is_empty() || dims.iter().any(|&d| d < 0 || d as usize >= r) {
        return Err(format!("iota dimensions {dims:?} for shape {shape:?}"));
    }
    let n = checked_count(shape)?;
    let mut idx = vec![0i64; r];
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut v = 0i64;
        for &d in dims {
            v = v * shape[d as usize] + idx[d as usize];
        }
        out.push(v);
        next_index(&mut idx, shape);
    }
    let data = if ty.is_float() {
        Elems::F(out.into_iter().map(|v| round_to(ty, v as f64)).collect())
    } else {
        Elems::I(out.into_iter().map(|v| wrap(ty, v)).collect())
    };
    Ok(Tensor { ty, shape: shape.to_vec(), data })
}

/// `tpu.dynamic_rotate`: `jnp.roll(t, amount, dim)`, i.e. result[i] =
/// t[(i − amount) mod n] along `dim`; with a stride (s, sd), the slice j
/// along `sd` rolls by amount + j·s (Pallas' `roll(..., stride, stride_axis)`).
fn rotate(t: &Tensor, amount: i64, dim: i64, stride: Option<(i64, i64)>) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    let in_range = |d: i64| d >= 0 && (d as usize) < r;
    if !in_range(dim) || stride.is_some_and(|(_, sd)| !in_range(sd) || sd == dim) {
        return Err(format!(
            "rotates {} along dim {dim}{}",
            t.describe(),
            stride.map_or(String::new(), |(s, sd)| format!(" with stride {s} along {sd}"))
        ));
    }
    let d = dim as usize;
    let n = t.shape[d];
    if n == 0 {
        return Ok(t.clone());
    }
    let strides = row_major_strides(&t.shape);
    let count = t.data.len();
    let mut idx = vec![0i64; r];
    let mut src = Vec::with_capacity(count);
    for _ in 0..count {
        let shift = match stride {
            Some((s, sd)) => amount.wrapping_add(idx[sd as usize].wrapping_mul(s)),
            None => amount,
        };
        let from = (idx[d] - shift.rem_euclid(n)).rem_euclid(n);
        let mut off = 0i64;
        for k in 0..r {
            off += if k == d { from } else { idx[k] } * strides[k];
        }
        src.push(off as usize);
        next_index(&mut idx, &t.shape);
    }
    Ok(Tensor { ty: t.ty, shape: t.shape.clone(), data: t.data.gather(&src) })
}

/// `tpu.concatenate` of `parts` along `dim` (`tpu.repeat` is the same part
/// several times).
fn concatenate(parts: &[&Tensor], dim: i64) -> std::result::Result<Tensor, String> {
    let first = parts.first().ok_or("concatenates nothing")?;
    let r = first.shape.len();
    if dim < 0 || dim as usize >= r {
        return Err(format!("concatenates along dim {dim} of {}", first.describe()));
    }
    let d = dim as usize;
    let mut shape = first.shape.clone();
    shape[d] = 0;
    for p in parts {
        let same = p.ty == first.ty && p.shape.len() == r && (0..r).all(|k| k == d || p.shape[k] == first.shape[k]);
        if !same {
            return Err(format!("concatenates {} with {} along dim {d}", first.describe(), p.describe()));
        }
        shape[d] += p.shape[d];
    }
    let outer: usize = first.shape[..d].iter().product::<i64>() as usize;
    let mut data = match first.data {
        Elems::F(_) => Elems::F(Vec::new()),
        Elems::I(_) => Elems::I(Vec::new()),
    };
    for o in 0..outer {
        for p in parts {
            let inner = (p.shape[d..].iter().product::<i64>()) as usize;
            match (&mut data, &p.data) {
                (Elems::F(out), Elems::F(x)) => out.extend_from_slice(&x[o * inner..(o + 1) * inner]),
                (Elems::I(out), Elems::I(x)) => out.extend_from_slice(&x[o * inner..(o + 1) * inner]),
                _ => return Err("element kinds differ".into()),
            }
        }
    }
    Ok(Tensor { ty: first.ty, shape, data })
}

/// `tpu.reduce_index`: per position of the other dims, the first index
/// along `axis` of the largest (`arg_max`) or smallest element; a NaN wins
/// over any number, the first NaN over later ones (`jnp.argmax`).
fn reduce_index(t: &Tensor, axis: i64, arg_max: bool) -> std::result::Result<Tensor, String> {
    let r = t.shape.len();
    if axis < 0 || axis as usize >= r || t.shape[axis as usize] == 0 {
        return Err(format!("reduces an index along dim {axis} of {}", t.describe()));
    }
    let a = axis as usize;
    let (outer, n, inner) =
        (t.shape[..a].iter().product::<i64>() as usize, t.shape[a] as usize, t.shape[a + 1..].iter().product::<i64>() as usize);
    let better = |x: f64, best: f64| {
        if best.is_nan() {
            false
        } else if x.is_nan() {
            true
        } else if arg_max {
            x > best
        } else {
            x < best
        }
    };
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let mut best = 0usize;
            for k in 1..n {
                let wins = match &t.data {
                    Elems::F(v) => better(v[at(k)], v[at(best)]),
                    Elems::I(v) => {
                        if arg_max {
                            v[at(k)] > v[at(best)]
                        } else {
                            v[at(k)] < v[at(best)]
                        }
                    }
                };
                if wins {
                    best = k;
                }
            }
            out.push(best as i64);
        }
    }
    let mut shape = t.shape.clone();
    shape.remove(a);
    Ok(Tensor { ty: ScalarType::I32, shape, data: Elems::I(out) })
}

/// `tpu.dynamic_gather`: result[i] = source[i with coordinate `dim`
/// replaced by indices[i]]; an index outside the dimension is an error.
fn dynamic_gather(source: &Tensor, indices: &Tensor, dim: i64) -> std::result::Result<Tensor, String> {
    let r = source.shape.len();
    let Elems::I(ix) = &indices.data else { return Err(format!("gathers with {} indices", indices.describe())) };
    if dim < 0 || dim as usize >= r || indices.shape != source.shape {
        return Err(format!("gathers {} along dim {dim} with {} indices", source.describe(), indices.describe()));
    }
    let d = dim as usize;
    let strides = row_major_strides(&source.shape);
    let mut idx = vec![0i64; r];
    let mut offs = Vec::with_capacity(ix.len());
    for &k in ix {
        if k < 0 || k >= source.shape[d] {
            return Err(format!("gather index {k} is outside dim {d} of {} (at {idx:?})", source.describe()));
        }
        offs.push((0..r).map(|q| if q == d { k } else { idx[q] } * strides[q]).sum::<i64>() as usize);
        next_index(&mut idx, &source.shape);
    }
    Ok(Tensor { ty: source.ty, shape: source.shape.clone(), data: source.data.gather(&offs) })
}
