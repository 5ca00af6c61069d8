//! Elementwise ops (`arith`, `math`): `exec_elementwise` and the
//! arithmetic on [`Tensor`]s, rounded to the result type.

use super::*;

impl Machine<'_> {
    /// `arith` and `math` ops: constants, elementwise arithmetic, comparisons,
    /// `select` and casts.
    pub(super) fn exec_elementwise(&mut self, fr: &mut Frame, op: &Op) -> R<()> {
        match &op.kind {
            OpKind::Constant(c) => {
                let (ty, shape) = self.result_tensor_type(op, 0)?;
                let n = checked_count(&shape).map_err(|m| self.bad(op, m))?;
                let data = match (c, ty.is_float()) {
                    (Constant::Int(v), false) => Elems::I(vec![wrap(ty, *v); n]),
                    (Constant::Float(v), true) => Elems::F(vec![round_to(ty, *v); n]),
                    (Constant::Ints(v), false) if v.len() == n => Elems::I(v.iter().map(|&x| wrap(ty, x)).collect()),
                    (Constant::Floats(v), true) if v.len() == n => Elems::F(v.iter().map(|&x| round_to(ty, x)).collect()),
                    _ => return Err(self.bad(op, format!("constant does not fit its type {}", self.result_type(op, 0)?.describe()))),
                };
                self.set1(fr, op, Tensor { ty, shape, data })?;
            }
            OpKind::Binary { op: b, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = binary(*b, l, r).map_err(|m| self.op_err(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Unary { op: u, operand } => {
                let v = self.tensor(fr, op, *operand)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let t = unary(*u, t).map_err(|m| self.op_err(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Fma { a, b, c } => {
                let (a, b, c) = (self.tensor(fr, op, *a)?, self.tensor(fr, op, *b)?, self.tensor(fr, op, *c)?);
                let (Value::T(a), Value::T(b), Value::T(c)) = (&*a, &*b, &*c) else { return unreachable_ref() };
                match (&a.data, &b.data, &c.data) {
                    (Elems::F(x), Elems::F(y), Elems::F(z)) if a.shape == b.shape && b.shape == c.shape && a.ty == b.ty && b.ty == c.ty => {
                        let d = x.iter().zip(y).zip(z).map(|((x, y), z)| round_to(a.ty, x.mul_add(*y, *z))).collect();
                        self.set1(fr, op, Tensor { ty: a.ty, shape: a.shape.clone(), data: Elems::F(d) })?;
                    }
                    _ => return Err(self.bad(op, "operands must be floats of one type and shape")),
                }
            }
            OpKind::CmpI { predicate, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = cmpi(*predicate, l, r).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::CmpF { predicate, lhs, rhs } => {
                let (l, r) = (self.tensor(fr, op, *lhs)?, self.tensor(fr, op, *rhs)?);
                let (Value::T(l), Value::T(r)) = (&*l, &*r) else { return unreachable_ref() };
                let t = cmpf(*predicate, l, r).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            OpKind::Select { condition, true_value, false_value } => {
                let c = self.tensor(fr, op, *condition)?;
                let (a, b) = (self.get(fr, op, *true_value)?, self.get(fr, op, *false_value)?);
                let Value::T(c) = &*c else { return unreachable_ref() };
                let Elems::I(cd) = &c.data else { return Err(self.bad(op, "condition must be i1")) };
                if c.shape.is_empty() {
                    let v = if cd.first().is_some_and(|&x| x != 0) { a } else { b };
                    self.set_results(fr, op, vec![v])?;
                } else {
                    let (Value::T(a), Value::T(b)) = (&*a, &*b) else { return Err(self.bad(op, "elementwise select of memrefs")) };
                    if a.shape != c.shape || b.shape != c.shape || a.ty != b.ty {
                        return Err(self.bad(op, format!("select of {} and {} on {}", a.describe(), b.describe(), c.describe())));
                    }
                    let data = match (&a.data, &b.data) {
                        (Elems::F(x), Elems::F(y)) => {
                            Elems::F(cd.iter().zip(x.iter().zip(y)).map(|(&c, (x, y))| if c != 0 { *x } else { *y }).collect())
                        }
                        (Elems::I(x), Elems::I(y)) => {
                            Elems::I(cd.iter().zip(x.iter().zip(y)).map(|(&c, (x, y))| if c != 0 { *x } else { *y }).collect())
                        }
                        _ => return Err(self.bad(op, "operands of different kinds")),
                    };
                    self.set1(fr, op, Tensor { ty: a.ty, shape: a.shape.clone(), data })?;
                }
            }
            OpKind::Cast { op: c, operand } => {
                let v = self.tensor(fr, op, *operand)?;
                let Value::T(t) = &*v else { return unreachable_ref() };
                let (to, shape) = self.result_tensor_type(op, 0)?;
                if shape != t.shape {
                    return Err(self.bad(op, format!("casts {} to shape {}", t.describe(), shape_str(&shape))));
                }
                let t = cast(*c, t, to).map_err(|m| self.bad(op, m))?;
                self.set1(fr, op, t)?;
            }
            _ => return misrouted(op),
        }
        Ok(())
    }
}

fn same(l: &Tensor, r: &Tensor) -> std::result::Result<(), String> {
    if l.ty != r.ty || l.shape != r.shape {
        return Err(format!("operands {} and {} differ", l.describe(), r.describe()));
    }
    Ok(())
}

fn binary(op: BinaryOp, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use BinaryOp::*;
    same(l, r)?;
    let ty = l.ty;
    let data = match (&l.data, &r.data) {
        (Elems::F(a), Elems::F(b)) => {
            let f = |x: f64, y: f64| -> std::result::Result<f64, String> {
                Ok(match op {
                    AddF => x + y,
                    SubF => x - y,
                    MulF => x * y,
                    DivF => x / y,
                    RemF => x % y,
                    MaximumF => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else if x == y {
                            if x.is_sign_negative() { y } else { x }
                        } else {
                            x.max(y)
                        }
                    }
                    MinimumF => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else if x == y {
                            if x.is_sign_negative() { x } else { y }
                        } else {
                            x.min(y)
                        }
                    }
                    MaxNumF => x.max(y),
                    MinNumF => x.min(y),
                    PowF => x.powf(y),
                    Atan2 => x.atan2(y),
                    CopySign => x.copysign(y),
                    _ => return Err(format!("{op:?} on floats")),
                })
            };
            Elems::F(a.iter().zip(b).map(|(&x, &y)| f(x, y).map(|v| round_to(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        (Elems::I(a), Elems::I(b)) => {
            let w = ty.bits();
            let f = |x: i64, y: i64| -> std::result::Result<i64, String> {
                let (ux, uy) = (unsigned(ty, x), unsigned(ty, y));
                Ok(match op {
                    AddI => x.wrapping_add(y),
                    SubI => x.wrapping_sub(y),
                    MulI => x.wrapping_mul(y),
                    DivSI | RemSI | FloorDivSI | CeilDivSI if y == 0 => return Err("integer division by zero".into()),
                    DivUI | RemUI | CeilDivUI if uy == 0 => return Err("integer division by zero".into()),
                    DivSI => x.wrapping_div(y),
                    RemSI => x.wrapping_rem(y),
                    FloorDivSI => {
                        let q = x.wrapping_div(y);
                        if (x % y != 0) && ((x < 0) != (y < 0)) { q - 1 } else { q }
                    }
                    CeilDivSI => {
                        let q = x.wrapping_div(y);
                        if (x % y != 0) && ((x < 0) == (y < 0)) { q + 1 } else { q }
                    }
                    DivUI => (ux / uy) as i64,
                    RemUI => (ux % uy) as i64,
                    CeilDivUI => ux.div_ceil(uy) as i64,
                    AndI => x & y,
                    OrI => x | y,
                    XOrI => x ^ y,
                    ShLI => {
                        if uy >= w as u64 {
                            0
                        } else {
                            ((ux as u128) << uy) as i64
                        }
                    }
                    ShRUI => {
                        if uy >= w as u64 {
                            0
                        } else {
                            (ux >> uy) as i64
                        }
                    }
                    ShRSI => x >> uy.min(63),
                    MaxSI => x.max(y),
                    MinSI => x.min(y),
                    MaxUI => ux.max(uy) as i64,
                    MinUI => ux.min(uy) as i64,
                    _ => return Err(format!("{op:?} on integers")),
                })
            };
            Elems::I(a.iter().zip(b).map(|(&x, &y)| f(x, y).map(|v| wrap(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        _ => return Err("operands of different kinds".into()),
    };
    Ok(Tensor { ty, shape: l.shape.clone(), data })
}

fn erf(x: f64) -> f64 {
    // Abramowitz-Stegun 7.1.26 is too coarse for f32; use the series /
    // continued fraction split, accurate to ~1e-15.
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let r = if ax < 2.5 {
        // Maclaurin series.
        let mut sum = ax;
        let mut term = ax;
        let x2 = ax * ax;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let t = term / (2.0 * n + 1.0);
            sum += t;
            if t.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else if ax > 6.0 {
        1.0
    } else {
        // Continued fraction for erfc (Lentz).
        let x2 = ax * ax;
        let mut f = ax;
        let mut c = ax;
        let mut d = 0.0;
        for k in 1..200 {
            let a = k as f64 / 2.0;
            d = ax + a * d;
            d = 1.0 / d;
            c = ax + a / c;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-x2).exp() / (f * std::f64::consts::PI.sqrt())
    };
    if x < 0.0 { -r } else { r }
}

fn unary(op: UnaryOp, t: &Tensor) -> std::result::Result<Tensor, String> {
    use UnaryOp::*;
    let ty = t.ty;
    let data = match &t.data {
        Elems::F(a) => {
            let f = |x: f64| -> std::result::Result<f64, String> {
                Ok(match op {
                    NegF => -x,
                    AbsF => x.abs(),
                    Exp => x.exp(),
                    Exp2 => x.exp2(),
                    ExpM1 => x.exp_m1(),
                    Log => x.ln(),
                    Log2 => x.log2(),
                    Log10 => x.log10(),
                    Log1p => x.ln_1p(),
                    Tanh => x.tanh(),
                    Sqrt => x.sqrt(),
                    Rsqrt => 1.0 / x.sqrt(),
                    Erf => erf(x),
                    Sin => x.sin(),
                    Cos => x.cos(),
                    Tan => x.tan(),
                    Atan => x.atan(),
                    Floor => x.floor(),
                    Ceil => x.ceil(),
                    Round => x.round(),
                    RoundEven => x.round_ties_even(),
                    Trunc => x.trunc(),
                    Reciprocal => 1.0 / x,
                    _ => return Err(format!("{op:?} on floats")),
                })
            };
            Elems::F(a.iter().map(|&x| f(x).map(|v| round_to(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
        Elems::I(a) => {
            let w = ty.bits();
            let f = |x: i64| -> std::result::Result<i64, String> {
                let u = unsigned(ty, x);
                Ok(match op {
                    AbsI => x.wrapping_abs(),
                    CountLeadingZeros => (u.leading_zeros() - (64 - w)) as i64,
                    CountTrailingZeros => u.trailing_zeros().min(w) as i64,
                    PopCount => u.count_ones() as i64,
                    _ => return Err(format!("{op:?} on integers")),
                })
            };
            Elems::I(a.iter().map(|&x| f(x).map(|v| wrap(ty, v))).collect::<std::result::Result<_, _>>()?)
        }
    };
    Ok(Tensor { ty, shape: t.shape.clone(), data })
}

fn cmpi(p: CmpIPredicate, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use CmpIPredicate::*;
    same(l, r)?;
    let (Elems::I(a), Elems::I(b)) = (&l.data, &r.data) else { return Err("cmpi on floats".into()) };
    let ty = l.ty;
    let d = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let (ux, uy) = (unsigned(ty, x), unsigned(ty, y));
            let c = match p {
                Eq => x == y,
                Ne => x != y,
                Slt => x < y,
                Sle => x <= y,
                Sgt => x > y,
                Sge => x >= y,
                Ult => ux < uy,
                Ule => ux <= uy,
                Ugt => ux > uy,
                Uge => ux >= uy,
            };
            if c { -1 } else { 0 }
        })
        .collect();
    Ok(Tensor { ty: ScalarType::I1, shape: l.shape.clone(), data: Elems::I(d) })
}

fn cmpf(p: CmpFPredicate, l: &Tensor, r: &Tensor) -> std::result::Result<Tensor, String> {
    use CmpFPredicate::*;
    same(l, r)?;
    let (Elems::F(a), Elems::F(b)) = (&l.data, &r.data) else { return Err("cmpf on integers".into()) };
    let d = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| {
            let uno = x.is_nan() || y.is_nan();
            let c = match p {
                False => false,
                True => true,
                Oeq => !uno && x == y,
                Ogt => !uno && x > y,
                Oge => !uno && x >= y,
                Olt => !uno && x < y,
                Ole => !uno && x <= y,
                One => !uno && x != y,
                Ord => !uno,
                Ueq => uno || x == y,
                Ugt => uno || x > y,
                Uge => uno || x >= y,
                Ult => uno || x < y,
                Ule => uno || x <= y,
                Une => uno || x != y,
                Uno => uno,
            };
            if c { -1 } else { 0 }
        })
        .collect();
    Ok(Tensor { ty: ScalarType::I1, shape: l.shape.clone(), data: Elems::I(d) })
}

/// Float to integer toward zero, saturating, NaN → 0.
fn fp_to_int(x: f64, to: ScalarType, signed: bool) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let w = to.bits().min(64);
    let t = x.trunc();
    if signed {
        let (lo, hi) =
            if w >= 64 { (i64::MIN as f64, i64::MAX as f64) } else { (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0) };
        if t <= lo {
            wrap(to, lo as i64)
        } else if t >= hi {
            wrap(to, hi as i64)
        } else {
            wrap(to, t as i64)
        }
    } else {
        let hi = if w >= 64 { u64::MAX as f64 } else { 2f64.powi(w as i32) - 1.0 };
        let u = if t <= 0.0 {
            0u64
        } else if t >= hi {
            if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
        } else {
            t as u64
        };
        wrap(to, u as i64)
    }
}

pub(super) fn float_bits(ty: ScalarType, x: f64) -> i64 {
    match ty {
        ScalarType::F32 => (x as f32).to_bits() as i32 as i64,
        ScalarType::F64 => x.to_bits() as i64,
        ScalarType::F16 => half::f16::from_f64(x).to_bits() as i16 as i64,
        _ => half::bf16::from_f64(x).to_bits() as i16 as i64,
    }
}

pub(super) fn bits_float(ty: ScalarType, b: i64) -> f64 {
    match ty {
        ScalarType::F32 => f32::from_bits(b as u32) as f64,
        ScalarType::F64 => f64::from_bits(b as u64),
        ScalarType::F16 => half::f16::from_bits(b as u16).to_f64(),
        _ => half::bf16::from_bits(b as u16).to_f64(),
    }
}

fn cast(op: CastOp, t: &Tensor, to: ScalarType) -> std::result::Result<Tensor, String> {
    use CastOp::*;
    let from = t.ty;
    let bad = || format!("{op:?} from {} to {}", from.name(), to.name());
    let data = match (&t.data, op) {
        (Elems::I(a), ExtSI | TruncI | IndexCast | Bitcast) if !to.is_float() => Elems::I(a.iter().map(|&x| wrap(to, x)).collect()),
        (Elems::I(a), ExtUI | IndexCastUI) if !to.is_float() => Elems::I(a.iter().map(|&x| wrap(to, unsigned(from, x) as i64)).collect()),
        (Elems::I(a), SIToFP) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, x as f64)).collect()),
        (Elems::I(a), UIToFP) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, unsigned(from, x) as f64)).collect()),
        (Elems::F(a), FPToSI) if !to.is_float() => Elems::I(a.iter().map(|&x| fp_to_int(x, to, true)).collect()),
        (Elems::F(a), FPToUI) if !to.is_float() => Elems::I(a.iter().map(|&x| fp_to_int(x, to, false)).collect()),
        (Elems::F(a), ExtF | TruncF) if to.is_float() => Elems::F(a.iter().map(|&x| round_to(to, x)).collect()),
        (Elems::F(a), Bitcast) if from.bits() == to.bits() && !to.is_float() => {
            Elems::I(a.iter().map(|&x| wrap(to, float_bits(from, x))).collect())
        }
        (Elems::I(a), Bitcast) if from.bits() == to.bits() && to.is_float() => Elems::F(a.iter().map(|&x| bits_float(to, x)).collect()),
        (Elems::F(a), Bitcast) if from.bits() == to.bits() => Elems::F(a.iter().map(|&x| bits_float(to, float_bits(from, x))).collect()),
        _ => return Err(bad()),
    };
    Ok(Tensor { ty: to, shape: t.shape.clone(), data })
}

/// The raw bits of every element of `t`, low `bits` of each, unsigned.
fn raw_bits(t: &Tensor) -> Vec<u64> {
    let w = t.ty.bits();
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    match &t.data {
        Elems::F(v) => v.iter().map(|&x| float_bits(t.ty, x) as u64 & mask).collect(),
        Elems::I(v) => v.iter().map(|&x| x as u64 & mask).collect(),
    }
}

/// Elements of type `ty` from their raw bits.
fn from_raw_bits(ty: ScalarType, bits: &[u64]) -> Elems {
    if ty.is_float() {
        Elems::F(bits.iter().map(|&b| bits_float(ty, b as i64)).collect())
    } else {
        Elems::I(bits.iter().map(|&b| wrap(ty, b as i64)).collect())
    }
}

/// `tpu.bitcast` (`pltpu.bitcast`) of a vector to element type `to` and
/// `shape`: equal widths reinterpret each element; otherwise the
/// second-minor dimension scales with the width ratio p as Pallas defines
/// it: narrowing, element (i·p + k, j) is bits [k·w, (k+1)·w) of element
/// (i, j) (k = 0 the lowest); widening packs rows i·p .. i·p+p−1 the same way.
pub(super) fn bitcast_vector(t: &Tensor, to: ScalarType, shape: &[i64]) -> std::result::Result<Tensor, String> {
    let (wi, wo) = (t.ty.bits() as u64, to.bits() as u64);
    let r = t.shape.len();
    let bad = || format!("cannot bitcast {} to {}", t.describe(), Type::Vector { shape: shape.to_vec(), element: to }.describe());
    if r < 2 || shape.len() != r || t.shape[..r - 2] != shape[..r - 2] || t.shape[r - 1] != shape[r - 1] {
        return Err(bad());
    }
    if (t.shape[r - 2] as u64).saturating_mul(wi) != (shape[r - 2] as u64).saturating_mul(wo) || wi == 0 || wo == 0 {
        return Err(bad());
    }
    let src = raw_bits(t);
    let n = t.shape[r - 1] as usize;
    let bits = if wi == wo {
        src
    } else if wi > wo {
        // Narrowing: each source row becomes p rows.
        let p = (wi / wo) as usize;
        let mask = (1u64 << wo) - 1;
        let rows = src.len() / n.max(1);
        let mut out = vec![0u64; src.len() * p];
        for i in 0..rows {
            for k in 0..p {
                for j in 0..n {
                    out[(i * p + k) * n + j] = (src[i * n + j] >> (k as u64 * wo)) & mask;
                }
            }
        }
        out
    } else {
        // Widening: p source rows pack into one.
        let p = (wo / wi) as usize;
        let rows = src.len() / n.max(1) / p;
        let mut out = vec![0u64; rows * n];
        for i in 0..rows {
            for j in 0..n {
                out[i * n + j] = (0..p).fold(0u64, |acc, k| acc | (src[(i * p + k) * n + j] << (k as u64 * wi)));
            }
        }
        out
    };
    Ok(Tensor { ty: to, shape: shape.to_vec(), data: from_raw_bits(to, &bits) })
}
