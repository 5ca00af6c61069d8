//! Number formats and their arithmetic as PTX defines it.
//!
//! Floating-point results are correctly rounded (round-to-nearest-even
//! unless an instruction names another mode). Binary operations of f32,
//! f16 and bf16 are computed in f64 and rounded once more: for +, −, ×, ÷
//! and √ that second rounding is innocuous because f64's 53 bits are at
//! least 2p + 2 for p = 24, 11 and 8 (Figueroa, "When is double rounding
//! innocuous?", 1995); fma is fused on the host in the operand's format.
//! NaN results are the canonical NaN (PTX ISA §9.7.3 "Floating-Point
//! Instructions": `0x7fffffff` for f32), with `.ftz` subnormal inputs and
//! results flush to zero of the same sign (§9.7.3, "Subnormal numbers").

use half::{bf16, f16};

use crate::ir::{Rnd, Ty};

/// The floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    H,
    B,
    S,
    D,
}

impl F {
    pub fn of(ty: Ty) -> Option<F> {
        Some(match ty {
            Ty::F16 => F::H,
            Ty::Bf16 => F::B,
            Ty::F32 | Ty::Tf32 => F::S,
            Ty::F64 => F::D,
            _ => return None,
        })
    }

    pub fn canonical_nan(self) -> u64 {
        match self {
            F::H | F::B => 0x7fff,
            F::S => 0x7fff_ffff,
            F::D => 0x7fff_ffff_ffff_ffff,
        }
    }

    pub fn to_f64(self, bits: u64) -> f64 {
        match self {
            F::H => f16::from_bits(bits as u16).to_f64(),
            F::B => bf16::from_bits(bits as u16).to_f64(),
            F::S => f32::from_bits(bits as u32) as f64,
            F::D => f64::from_bits(bits),
        }
    }

    /// `x` rounded to nearest even in this format (NaN canonical).
    pub fn round_f64(self, x: f64) -> u64 {
        if x.is_nan() {
            return self.canonical_nan();
        }
        match self {
            F::H => f16::from_f64(x).to_bits() as u64,
            F::B => bf16::from_f64(x).to_bits() as u64,
            F::S => (x as f32).to_bits() as u64,
            F::D => x.to_bits(),
        }
    }

    fn is_subnormal(self, bits: u64) -> bool {
        match self {
            // Exponent field zero, mantissa not.
            F::H => bits & 0x7c00 == 0 && bits & 0x03ff != 0,
            F::B => bits & 0x7f80 == 0 && bits & 0x007f != 0,
            F::S => f32::from_bits(bits as u32).is_subnormal(),
            F::D => f64::from_bits(bits).is_subnormal(),
        }
    }

    fn sign_bit(self) -> u64 {
        match self {
            F::H | F::B => 0x8000,
            F::S => 0x8000_0000,
            F::D => 1 << 63,
        }
    }

    /// Flushes a subnormal to a zero of its sign when `ftz`.
    pub fn ftz(self, bits: u64, ftz: bool) -> u64 {
        if ftz && self.is_subnormal(bits) { bits & self.sign_bit() } else { bits }
    }

    /// The next representable value above (`up`) or below a finite value.
    pub fn step(self, bits: u64, up: bool) -> u64 {
        let sign = self.sign_bit();
        let mag = bits & !sign;
        let neg = bits & sign != 0;
        if mag == 0 {
            // ±0 → the smallest subnormal of the direction's sign.
            return if up { 1 } else { sign | 1 };
        }
        // Away from zero when the direction agrees with the sign.
        if up != neg { bits + 1 } else { bits - 1 }
    }

    /// Rounds the exact value `x` (given as its nearest f64 and whether the
    /// exact value lies above (`Greater`) or below it) to this format in
    /// mode `rnd`.
    pub fn round(self, x: f64, exact_vs_x: std::cmp::Ordering, rnd: Rnd) -> u64 {
        use std::cmp::Ordering::*;
        let r = self.round_f64(x);
        if x.is_nan() || x.is_infinite() {
            return r;
        }
        let rv = self.to_f64(r);
        // Where the exact value lies relative to the rounded one.
        let exact_vs_r = match rv.partial_cmp(&x) {
            Some(Less) => Greater,
            Some(Greater) => Less,
            _ => exact_vs_x,
        };
        match rnd {
            Rnd::Rz => {
                let away = (rv > 0.0 && exact_vs_r == Less) || (rv < 0.0 && exact_vs_r == Greater) || rv.is_infinite();
                if rv.is_infinite() {
                    // The largest finite value of the sign.
                    return self.step(r, rv < 0.0);
                }
                if away { self.step(r, rv < 0.0) } else { r }
            }
            Rnd::Rm => {
                if exact_vs_r == Less || (rv.is_infinite() && rv > 0.0) {
                    self.step(r, false)
                } else {
                    r
                }
            }
            Rnd::Rp => {
                if exact_vs_r == Greater || (rv.is_infinite() && rv < 0.0) {
                    self.step(r, true)
                } else {
                    r
                }
            }
            _ => r,
        }
    }
}

/// Sign-extends the low `bits` bits.
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 { v as i64 } else { ((v << (64 - bits)) as i64) >> (64 - bits) }
}

pub fn zext(v: u64, bits: u32) -> u64 {
    if bits >= 64 { v } else { v & ((1u64 << bits) - 1) }
}

/// The value of an integer type's bits as an i128.
pub fn int_value(ty: Ty, v: u64) -> i128 {
    if ty.is_signed() { sext(v, ty.bits()) as i128 } else { zext(v, ty.bits()) as i128 }
}

/// The range of an integer type.
pub fn int_range(ty: Ty) -> (i128, i128) {
    let b = ty.bits();
    if ty.is_signed() { (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1) } else { (0, (1i128 << b) - 1) }
}

/// Integer to float (`cvt.rnd.f.int`, PTX ISA §9.7.9.21): round-to-nearest
/// unless `rnd` says otherwise.
pub fn int_to_float(f: F, v: i128, rnd: Rnd) -> u64 {
    // An i128 of at most 64 significant bits: f64 holds it exactly when it
    // fits 53 bits; otherwise compare the rounded value with the integer.
    let x = v as f64;
    let back = if x.is_finite() && x.abs() < 1.7e38 { x as i128 } else { v };
    let ord = v.cmp(&back);
    match f {
        // The f64 is the nearest (Rust's `as` rounds to nearest even).
        F::D => F::D.round(x, ord, rnd),
        _ => {
            // Narrowing from f64 again is innocuous only when x is exact.
            if ord == std::cmp::Ordering::Equal {
                f.round(x, ord, rnd)
            } else {
                // Round in f32 directly (`as` from integers is correctly rounded).
                let r = if v < 0 { (v as i64) as f32 } else { (v as u64) as f32 };
                let rv = r as f64;
                let o = v.cmp(&(rv as i128));
                match f {
                    F::S => F::S.round(rv, o, rnd),
                    _ => f.round(rv, o, rnd),
                }
            }
        }
    }
}

/// Float to integer (`cvt.rni/rzi/rmi/rpi.int.f`, PTX ISA §9.7.9.21):
/// rounded to an integer, then clamped to the type's range; NaN is 0.
pub fn float_to_int(x: f64, rnd: Rnd, ty: Ty) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let r = round_integral(x, rnd);
    let (lo, hi) = int_range(ty);
    let v = if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        r as i128
    };
    v as u64 & ty.mask()
}

/// Rounds to an integral value (`.rni`: nearest even, `.rzi`, `.rmi`, `.rpi`).
pub fn round_integral(x: f64, rnd: Rnd) -> f64 {
    match rnd {
        Rnd::Rzi | Rnd::Rz => x.trunc(),
        Rnd::Rmi | Rnd::Rm => x.floor(),
        Rnd::Rpi | Rnd::Rp => x.ceil(),
        _ => x.round_ties_even(),
    }
}

/// `min`/`max` of floats (PTX ISA §9.7.3.10–11): a NaN operand is ignored
/// (NaN only when both are, or with `.NaN` when either is); −0 orders below +0.
pub fn fminmax(f: F, a: u64, b: u64, max: bool, nan: bool) -> u64 {
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => return f.canonical_nan(),
        (true, false) | (false, true) if nan => return f.canonical_nan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    let key = |v: f64, bits: u64| (v, bits & f.sign_bit() == 0);
    let (kx, ky) = (key(x, a), key(y, b));
    let x_less = kx.0 < ky.0 || (kx.0 == ky.0 && !kx.1 && ky.1);
    if x_less != max { a } else { b }
}
