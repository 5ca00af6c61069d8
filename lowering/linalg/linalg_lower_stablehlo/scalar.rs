//! Scalar semantics of the elementwise stablehlo ops, written as arith/math
//! on scalars. Used for the payload of elementwise `linalg.generic`s and for
//! the bodies of reduce, sort, scatter, map, reduce_window (whose stablehlo
//! ops work on 0-d tensors and become scalar code).
//!
//! Semantics follow the StableHLO spec and XLA:CPU where the spec leaves a
//! choice: integer divide/remainder by zero give -1 / the dividend and
//! INT_MIN / -1 gives INT_MIN / 0 (no trap); shifts by at least the bit width
//! give 0 or the sign fill; maximum/minimum propagate NaN; float → int
//! conversion maps NaN to 0 and saturates; integer power is exponentiation by
//! squaring over the low 6 exponent bits, and a negative exponent gives 1 for
//! base 1 and 0 otherwise (XLA's `EmitIntegerPow`). bf16/f16 arithmetic is
//! done in f32 (extf, compute, truncf).
//!
//! Unsigned integers (`uiN`) are computed on their signless storage type
//! (`iN`) with the unsigned form of each op: divui/remui (by 0: all ones /
//! the dividend), maxui/minui (maximum, minimum, clamp), `cmpi ult...` when
//! a compare has no comparison type, zero extension when widened, uitofp,
//! and float → unsigned saturating to [0, 2^N - 1] with NaN → 0 (XLA's
//! `fptoui.sat`). Shifts are the same bits as for signed integers: a logical
//! shift by ≥ N gives 0, an arithmetic one fills with the top bit (XLA).
//! Booleans (i1): add is or, multiply is and, maximum/minimum are or/and, a
//! compare without type is unsigned (false < true).

use mlir_sys::*;

use super::common::*;
use floors_ir::dialects::stablehlo::{CompareOp, ComparisonDirection, ComparisonType};

/// Ops [`emit`] handles (without the `stablehlo.` prefix).
pub const ELEMENTWISE: &[&str] = &[
    "abs",
    "complex",
    "imag",
    "real",
    "add",
    "and",
    "atan2",
    "cbrt",
    "ceil",
    "clamp",
    "compare",
    "convert",
    "cosine",
    "count_leading_zeros",
    "divide",
    "exponential",
    "exponential_minus_one",
    "floor",
    "is_finite",
    "log",
    "log_plus_one",
    "logistic",
    "maximum",
    "minimum",
    "multiply",
    "negate",
    "not",
    "or",
    "popcnt",
    "power",
    "remainder",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "select",
    "shift_left",
    "shift_right_arithmetic",
    "shift_right_logical",
    "sign",
    "sine",
    "sqrt",
    "subtract",
    "tan",
    "tanh",
    "xor",
    "bitcast_convert",
    "reduce_precision",
];

fn lowp(e: &str) -> bool {
    e == "bf16" || e == "f16"
}

/// Emits the scalar computation of elementwise op `name` on `args` (element
/// types `elems`), producing an element of type `res`. `op` is the stablehlo
/// op (for attributes and diagnostics).
pub fn emit(t: &mut Tpl, op: MlirOperation, name: &str, args: &[String], elems: &[String], res: &str) -> R<String> {
    match name {
        "select" => return Ok(t.v(format!("arith.select {}, {}, {} : {}", args[0], args[1], args[2], storage(res)))),
        "convert" => return convert(t, op, &args[0], &elems[0], res),
        "bitcast_convert" => {
            // ui32 ↔ i32 is the same storage: nothing to do.
            if storage(&elems[0]) == storage(res) {
                return Ok(args[0].clone());
            }
            let (a, b) = (bits(&elems[0]), bits(res));
            if a.is_none() || a != b {
                return Err(fail(
                    op,
                    format!("cannot lower 'stablehlo.bitcast_convert' from {} to {res} (different bit widths) to linalg yet", elems[0]),
                ));
            }
            return Ok(t.v(format!("arith.bitcast {} : {} to {}", args[0], storage(&elems[0]), storage(res))));
        }
        "reduce_precision" => return reduce_precision(t, op, &args[0], res),
        _ => {}
    }
    if elems.iter().any(|e| lowp(e)) {
        let mut a2 = Vec::new();
        let mut e2 = Vec::new();
        for (a, e) in args.iter().zip(elems) {
            if lowp(e) {
                a2.push(t.v(format!("arith.extf {a} : {e} to f32")));
                e2.push("f32".to_string());
            } else {
                a2.push(a.clone());
                e2.push(e.clone());
            }
        }
        let r2 = if lowp(res) { "f32" } else { res };
        let r = core(t, op, name, &a2, &e2, r2)?;
        return Ok(if lowp(res) { t.v(format!("arith.truncf {r} : f32 to {res}")) } else { r });
    }
    core(t, op, name, args, elems, res)
}

/// A two's complement literal of `v`'s low `w` bits (as `arith.constant`
/// of an `iW` wants it: signed).
fn lit(v: u64, w: u32) -> i64 {
    if w >= 64 { v as i64 } else { ((v << (64 - w)) as i64) >> (64 - w) }
}

/// `stablehlo.reduce_precision`: round to `mantissa_bits` (to nearest even),
/// then exponents beyond what `exponent_bits` hold become ±inf (too large)
/// or ±0 (too small, subnormals included); a NaN stays the input's NaN, with
/// no mantissa bits too (what XLA:CPU returns), on the bits of the type
/// itself (bf16/f16 are not widened).
fn reduce_precision(t: &mut Tpl, op: MlirOperation, x: &str, e: &str) -> R<String> {
    let int_attr = |name| floors_ir::ir::raw::int_attr(op, name);
    let (Some(eb), Some(mb)) = (int_attr("exponent_bits"), int_attr("mantissa_bits")) else {
        return Err(fail(op, "'stablehlo.reduce_precision' needs integer exponent_bits and mantissa_bits"));
    };
    let (w, src_m) = match e {
        "f16" => (16u32, 10i64),
        "bf16" => (16, 7),
        "f32" => (32, 23),
        "f64" => (64, 52),
        _ => return Err(fail(op, format!("cannot lower 'stablehlo.reduce_precision' on element type {e} to linalg yet"))),
    };
    if eb < 1 || mb < 0 {
        return Err(fail(op, format!("'stablehlo.reduce_precision' needs exponent_bits >= 1 and mantissa_bits >= 0, got {eb} and {mb}")));
    }
    let src_e = w as i64 - 1 - src_m;
    let it = format!("i{w}");
    let mut xi = t.v(format!("arith.bitcast {x} : {e} to {it}"));
    if mb < src_m {
        let shift = (src_m - mb) as u32;
        let last = 1u64 << shift;
        let sh = t.cst(shift, &it);
        let last_c = t.cst(lit(last, w), &it);
        let bit = t.v(format!("arith.andi {xi}, {last_c} : {it}"));
        let bit = t.v(format!("arith.shrui {bit}, {sh} : {it}"));
        let base = t.cst(lit((last >> 1) - 1, w), &it);
        let bias = t.v(format!("arith.addi {bit}, {base} : {it}"));
        let sum = t.v(format!("arith.addi {xi}, {bias} : {it}"));
        let keep = t.cst(lit(!(last - 1), w), &it);
        xi = t.v(format!("arith.andi {sum}, {keep} : {it}"));
    }
    if eb < src_e {
        let sign = t.cst(lit(1u64 << (w - 1), w), &it);
        let exp_mask = ((1u64 << src_e) - 1) << src_m;
        let exp_c = t.cst(lit(exp_mask, w), &it);
        let bias = (1u64 << (src_e - 1)) - 1;
        let reduced = (1u64 << (eb - 1)) - 1;
        let hi = t.cst(lit((bias + reduced) << src_m, w), &it);
        let lo = t.cst(lit((bias - reduced) << src_m, w), &it);
        let xe = t.v(format!("arith.andi {xi}, {exp_c} : {it}"));
        let over = t.v(format!("arith.cmpi ugt, {xe}, {hi} : {it}"));
        let under = t.v(format!("arith.cmpi ule, {xe}, {lo} : {it}"));
        let zero = t.v(format!("arith.andi {xi}, {sign} : {it}"));
        let inf = t.v(format!("arith.ori {zero}, {exp_c} : {it}"));
        let y = t.v(format!("arith.select {under}, {zero}, {xi} : {it}"));
        xi = t.v(format!("arith.select {over}, {inf}, {y} : {it}"));
    }
    let r = t.v(format!("arith.bitcast {xi} : {it} to {e}"));
    let nan = t.v(format!("arith.cmpf uno, {x}, {x} : {e}"));
    Ok(t.v(format!("arith.select {nan}, {x}, {r} : {e}")))
}

pub(super) fn bits(e: &str) -> Option<u32> {
    match kind(e) {
        Kind::Float(w) | Kind::Int(w) | Kind::UInt(w) => Some(w),
        Kind::Other => None,
    }
}

fn float_inf(e: &str) -> &'static str {
    if e == "f64" { "0x7FF0000000000000" } else { "0x7F800000" }
}

fn int_min(w: u32) -> i64 {
    if w >= 64 { i64::MIN } else { -(1i64 << (w - 1)) }
}

/// The scalar computation of `name` on `a` (element types `elems`; bf16
/// and f16 already widened by [`emit`]), by element kind.
fn core(t: &mut Tpl, op: MlirOperation, name: &str, a: &[String], elems: &[String], res: &str) -> R<String> {
    let sem = elems[0].as_str();
    let k = kind(sem);
    let unsupported = || fail(op, format!("cannot lower 'stablehlo.{name}' on {sem} to linalg yet"));
    if name == "complex" || complex_part(sem).is_some() {
        return complex_op(t, op, name, a, sem, res)?.ok_or_else(unsupported);
    }
    let done = match k {
        Kind::Float(_) => float_op(t, op, name, a, sem)?,
        Kind::Int(w) | Kind::UInt(w) => int_op(t, op, name, a, sem, w, matches!(k, Kind::UInt(_)))?,
        Kind::Other => None,
    };
    done.ok_or_else(unsupported)
}

/// The part type of a complex element type (`f32` of `complex<f32>`).
pub fn complex_part(e: &str) -> Option<&str> {
    e.strip_prefix("complex<")?.strip_suffix('>')
}

/// [`core`] on complex numbers (operands of element type `e`; for
/// `complex`, the parts, giving `res`), as `complex` dialect ops: the CPU
/// floor expands them with MLIR's complex-to-standard patterns (Smith's
/// division, `log1p`/`expm1`/`sqrt`/`atan`-based forms that keep precision
/// near 0 and avoid overflow, as XLA's elemental emitter does). `None` for
/// an op with no complex form.
fn complex_op(t: &mut Tpl, op: MlirOperation, name: &str, a: &[String], e: &str, res: &str) -> R<Option<String>> {
    if name == "complex" {
        return Ok(Some(t.v(format!("complex.create {}, {} : {res}", a[0], a[1]))));
    }
    let bin = |t: &mut Tpl, o: &str| t.v(format!("{o} {}, {} : {e}", a[0], a[1]));
    let un = |t: &mut Tpl, o: &str| t.v(format!("{o} {} : {e}", a[0]));
    Ok(Some(match name {
        "add" => bin(t, "complex.add"),
        "subtract" => bin(t, "complex.sub"),
        "multiply" => bin(t, "complex.mul"),
        "divide" => bin(t, "complex.div"),
        "power" => bin(t, "complex.pow"),
        "negate" => un(t, "complex.neg"),
        "exponential" => un(t, "complex.exp"),
        "exponential_minus_one" => un(t, "complex.expm1"),
        "log" => un(t, "complex.log"),
        "log_plus_one" => un(t, "complex.log1p"),
        "sqrt" => un(t, "complex.sqrt"),
        "rsqrt" => un(t, "complex.rsqrt"),
        "sine" => un(t, "complex.sin"),
        "cosine" => un(t, "complex.cos"),
        "tan" => un(t, "complex.tan"),
        "tanh" => un(t, "complex.tanh"),
        "sign" => un(t, "complex.sign"),
        "abs" => un(t, "complex.abs"),
        "real" => un(t, "complex.re"),
        "imag" => un(t, "complex.im"),
        "compare" => {
            let dir = CompareOp::cast(op).and_then(|c| c.direction());
            match dir {
                Some(ComparisonDirection::Eq) => bin(t, "complex.eq"),
                Some(ComparisonDirection::Ne) => bin(t, "complex.neq"),
                _ => return Err(fail(op, format!("'stablehlo.compare' on {e} takes EQ or NE only (the spec orders no complex numbers)"))),
            }
        }
        _ => return Ok(None),
    }))
}

/// [`core`] on floats (of element type `sem`); `None` for an op with no
/// float form.
fn float_op(t: &mut Tpl, op: MlirOperation, name: &str, a: &[String], sem: &str) -> R<Option<String>> {
    // What the arith ops are spelled on (`i32` for `ui32`).
    let st = storage(sem);
    let e = st.as_str();
    let bin = |t: &mut Tpl, o: &str| t.v(format!("{o} {}, {} : {e}", a[0], a[1]));
    let un = |t: &mut Tpl, o: &str| t.v(format!("{o} {} : {e}", a[0]));
    Ok(Some(match name {
        "add" => bin(t, "arith.addf"),
        "subtract" => bin(t, "arith.subf"),
        "multiply" => bin(t, "arith.mulf"),
        "divide" => bin(t, "arith.divf"),
        "remainder" => bin(t, "arith.remf"),
        "maximum" => bin(t, "arith.maximumf"),
        "minimum" => bin(t, "arith.minimumf"),
        "power" => bin(t, "math.powf"),
        "atan2" => bin(t, "math.atan2"),
        "abs" => un(t, "math.absf"),
        "negate" => un(t, "arith.negf"),
        "exponential" => un(t, "math.exp"),
        // math.expm1 on every float type: the CPU floor computes the f64 one
        // itself (LLVM's lowering is exp(x) − 1, which cancels near 0).
        "exponential_minus_one" => un(t, "math.expm1"),
        "log" => un(t, "math.log"),
        "log_plus_one" => un(t, "math.log1p"),
        "sine" => un(t, "math.sin"),
        "cosine" => un(t, "math.cos"),
        "tan" => un(t, "math.tan"),
        "tanh" => un(t, "math.tanh"),
        "sqrt" => un(t, "math.sqrt"),
        "rsqrt" => un(t, "math.rsqrt"),
        "cbrt" => un(t, "math.cbrt"),
        "floor" => un(t, "math.floor"),
        "ceil" => un(t, "math.ceil"),
        "round_nearest_even" => un(t, "math.roundeven"),
        "round_nearest_afz" => un(t, "math.round"),
        "logistic" => {
            let one = t.cst("1.0", e);
            let n = un(t, "arith.negf");
            let x = t.v(format!("math.exp {n} : {e}"));
            let d = t.v(format!("arith.addf {one}, {x} : {e}"));
            t.v(format!("arith.divf {one}, {d} : {e}"))
        }
        "sign" => {
            // NaN → NaN, ±0 → ±0, otherwise ±1.
            let one = t.cst("1.0", e);
            let zero = t.cst("0.0", e);
            let s = t.v(format!("math.copysign {one}, {} : {e}", a[0]));
            let z = t.v(format!("arith.cmpf ueq, {}, {zero} : {e}", a[0]));
            t.v(format!("arith.select {z}, {}, {s} : {e}", a[0]))
        }
        "is_finite" => {
            let abs = un(t, "math.absf");
            let inf = t.cst(float_inf(e), e);
            t.v(format!("arith.cmpf one, {abs}, {inf} : {e}"))
        }
        "clamp" => {
            // clamp(min, x, max) = min(max(x, min), max)
            let m = t.v(format!("arith.maximumf {}, {} : {e}", a[1], a[0]));
            t.v(format!("arith.minimumf {m}, {} : {e}", a[2]))
        }
        "compare" => compare(t, op, a, e)?,
        _ => return Ok(None),
    }))
}

/// [`core`] on integers of width `w` (element type `sem`; `unsigned` for
/// `uiN`); `None` for an op with no integer form.
fn int_op(t: &mut Tpl, op: MlirOperation, name: &str, a: &[String], sem: &str, w: u32, unsigned: bool) -> R<Option<String>> {
    // What the arith ops are spelled on (`i32` for `ui32`).
    let st = storage(sem);
    let e = st.as_str();
    let bin = |t: &mut Tpl, o: &str| t.v(format!("{o} {}, {} : {e}", a[0], a[1]));
    let un = |t: &mut Tpl, o: &str| t.v(format!("{o} {} : {e}", a[0]));
    // Booleans and unsigned integers order as unsigned.
    let uorder = unsigned || w == 1;
    Ok(Some(match name {
        // Boolean add is or (the spec); multiply (muli on i1) is and.
        "add" => bin(t, if w == 1 { "arith.ori" } else { "arith.addi" }),
        "subtract" => bin(t, "arith.subi"),
        "multiply" => bin(t, "arith.muli"),
        "and" => bin(t, "arith.andi"),
        "or" => bin(t, "arith.ori"),
        "xor" => bin(t, "arith.xori"),
        "maximum" => bin(t, if uorder { "arith.maxui" } else { "arith.maxsi" }),
        "minimum" => bin(t, if uorder { "arith.minui" } else { "arith.minsi" }),
        "divide" | "remainder" if unsigned => unsigned_divide(t, name, a, e),
        "divide" | "remainder" => signed_divide(t, name, a, e, w),
        "shift_left" | "shift_right_logical" | "shift_right_arithmetic" => shift(t, name, a, e, w),
        "power" => int_power(t, a, e),
        "negate" => {
            let zero = t.cst(0, e);
            t.v(format!("arith.subi {zero}, {} : {e}", a[0]))
        }
        // (the spec has no abs of an unsigned integer; it is the identity)
        "abs" if unsigned => a[0].clone(),
        // max(x, 0 - x), not `math.absi`: MathToLLVM leaves an n-D
        // vector absi unconverted (the CPU floor's tiles are n-D);
        // abs(MIN) wraps to MIN as the spec's two's complement says.
        "abs" => {
            let zero = t.cst(0, e);
            let neg = t.v(format!("arith.subi {zero}, {} : {e}", a[0]));
            t.v(format!("arith.maxsi {}, {neg} : {e}", a[0]))
        }
        "not" => {
            let m1 = t.cst(if w == 1 { "true".to_string() } else { "-1".to_string() }, e);
            t.v(format!("arith.xori {}, {m1} : {e}", a[0]))
        }
        "sign" => int_sign(t, a, e, w, unsigned),
        "popcnt" => un(t, "math.ctpop"),
        "count_leading_zeros" => un(t, "math.ctlz"),
        "clamp" => {
            let (mx, mn) = if uorder { ("arith.maxui", "arith.minui") } else { ("arith.maxsi", "arith.minsi") };
            let m = t.v(format!("{mx} {}, {} : {e}", a[1], a[0]));
            t.v(format!("{mn} {m}, {} : {e}", a[2]))
        }
        "compare" => compare(t, op, a, sem)?,
        _ => return Ok(None),
    }))
}

/// Unsigned divide / remainder (`name`): by zero, all ones / the dividend
/// (XLA); no overflow case.
fn unsigned_divide(t: &mut Tpl, name: &str, a: &[String], e: &str) -> String {
    let zero = t.cst(0, e);
    let one = t.cst(1, e);
    let ones = t.cst(-1, e);
    let isz = t.v(format!("arith.cmpi eq, {}, {zero} : {e}", a[1]));
    let safe = t.v(format!("arith.select {isz}, {one}, {} : {e}", a[1]));
    if name == "divide" {
        let q = t.v(format!("arith.divui {}, {safe} : {e}", a[0]));
        t.v(format!("arith.select {isz}, {ones}, {q} : {e}"))
    } else {
        let r = t.v(format!("arith.remui {}, {safe} : {e}", a[0]));
        t.v(format!("arith.select {isz}, {}, {r} : {e}", a[0]))
    }
}

/// Signed divide / remainder (`name`) of width `w`: by zero, -1 / the
/// dividend; INT_MIN / -1 gives INT_MIN / 0.
fn signed_divide(t: &mut Tpl, name: &str, a: &[String], e: &str, w: u32) -> String {
    let zero = t.cst(0, e);
    let one = t.cst(if w == 1 { "true".to_string() } else { "1".to_string() }, e);
    let m1 = t.cst(-1, e);
    let min = t.cst(int_min(w), e);
    let isz = t.v(format!("arith.cmpi eq, {}, {zero} : {e}", a[1]));
    let lmin = t.v(format!("arith.cmpi eq, {}, {min} : {e}", a[0]));
    let rm1 = t.v(format!("arith.cmpi eq, {}, {m1} : {e}", a[1]));
    let ovf = t.v(format!("arith.andi {lmin}, {rm1} : i1"));
    let bad = t.v(format!("arith.ori {isz}, {ovf} : i1"));
    let safe = t.v(format!("arith.select {bad}, {one}, {} : {e}", a[1]));
    if name == "divide" {
        let q = t.v(format!("arith.divsi {}, {safe} : {e}", a[0]));
        let q2 = t.v(format!("arith.select {ovf}, {min}, {q} : {e}"));
        t.v(format!("arith.select {isz}, {m1}, {q2} : {e}"))
    } else {
        let r = t.v(format!("arith.remsi {}, {safe} : {e}", a[0]));
        let r2 = t.v(format!("arith.select {ovf}, {zero}, {r} : {e}"));
        t.v(format!("arith.select {isz}, {}, {r2} : {e}", a[0]))
    }
}

/// Shifts (`name`) of width `w`: by at least the width, 0 (left, logical)
/// or the sign fill (arithmetic).
fn shift(t: &mut Tpl, name: &str, a: &[String], e: &str, w: u32) -> String {
    let width = t.cst(w, e);
    let big = t.v(format!("arith.cmpi uge, {}, {width} : {e}", a[1]));
    if name == "shift_right_arithmetic" {
        let wm1 = t.cst(w - 1, e);
        let amt = t.v(format!("arith.select {big}, {wm1}, {} : {e}", a[1]));
        t.v(format!("arith.shrsi {}, {amt} : {e}", a[0]))
    } else {
        let zero = t.cst(0, e);
        let amt = t.v(format!("arith.select {big}, {zero}, {} : {e}", a[1]));
        let o = if name == "shift_left" { "arith.shli" } else { "arith.shrui" };
        let s = t.v(format!("{o} {}, {amt} : {e}", a[0]));
        t.v(format!("arith.select {big}, {zero}, {s} : {e}"))
    }
}

/// Integer power: exponentiation by squaring over the low 6 exponent bits;
/// a negative exponent gives 1 for base 1 and 0 otherwise.
fn int_power(t: &mut Tpl, a: &[String], e: &str) -> String {
    let one = t.cst(1, e);
    let zero = t.cst(0, e);
    let mut acc = one.clone();
    let mut base = a[0].clone();
    let mut ex = a[1].clone();
    for _ in 0..6 {
        let bit = t.v(format!("arith.andi {ex}, {one} : {e}"));
        let odd = t.v(format!("arith.cmpi eq, {bit}, {one} : {e}"));
        let m = t.v(format!("arith.muli {acc}, {base} : {e}"));
        acc = t.v(format!("arith.select {odd}, {m}, {acc} : {e}"));
        base = t.v(format!("arith.muli {base}, {base} : {e}"));
        ex = t.v(format!("arith.shrui {ex}, {one} : {e}"));
    }
    // XLA:CPU tests the exponent's sign bit for unsigned types too
    // (2^31 and above count as negative).
    let nonneg = t.v(format!("arith.cmpi sge, {}, {zero} : {e}", a[1]));
    let b1 = t.v(format!("arith.cmpi eq, {}, {one} : {e}", a[0]));
    let neg = t.v(format!("arith.select {b1}, {one}, {zero} : {e}"));
    t.v(format!("arith.select {nonneg}, {acc}, {neg} : {e}"))
}

/// Integer sign: -1, 0 or 1 (0 or 1 unsigned; a boolean is itself).
fn int_sign(t: &mut Tpl, a: &[String], e: &str, w: u32, unsigned: bool) -> String {
    if w == 1 {
        a[0].clone()
    } else if unsigned {
        let zero = t.cst(0, e);
        let nz = t.v(format!("arith.cmpi ne, {}, {zero} : {e}", a[0]));
        t.v(format!("arith.extui {nz} : i1 to {e}"))
    } else {
        let zero = t.cst(0, e);
        let gt = t.v(format!("arith.cmpi sgt, {}, {zero} : {e}", a[0]));
        let lt = t.v(format!("arith.cmpi slt, {}, {zero} : {e}", a[0]));
        let g = t.v(format!("arith.extui {gt} : i1 to {e}"));
        let l = t.v(format!("arith.extui {lt} : i1 to {e}"));
        t.v(format!("arith.subi {g}, {l} : {e}"))
    }
}

fn compare(t: &mut Tpl, op: MlirOperation, a: &[String], e: &str) -> R<String> {
    let cmp = CompareOp::cast(op);
    let dir = cmp
        .and_then(|c| c.direction())
        .ok_or_else(|| fail(op, "cannot lower 'stablehlo.compare' without a comparison_direction to linalg yet"))?;
    let ty = cmp.and_then(|c| c.compare_type());
    let (fp, si, ui) = dir.arith_predicates();
    match kind(e) {
        Kind::Float(w) => {
            if ty == Some(ComparisonType::TotalOrder) {
                // Map the bits to a signed integer whose order is the total order.
                let it = format!("i{w}");
                let mut keys = Vec::new();
                for x in &a[..2] {
                    let b = t.v(format!("arith.bitcast {x} : {e} to {it}"));
                    let sh = t.cst(w - 1, &it);
                    let one = t.cst(1, &it);
                    let s = t.v(format!("arith.shrsi {b}, {sh} : {it}"));
                    let m = t.v(format!("arith.shrui {s}, {one} : {it}"));
                    keys.push(t.v(format!("arith.xori {b}, {m} : {it}")));
                }
                Ok(t.v(format!("arith.cmpi {si}, {}, {} : {it}", keys[0], keys[1])))
            } else {
                Ok(t.v(format!("arith.cmpf {fp}, {}, {} : {e}", a[0], a[1])))
            }
        }
        k @ (Kind::Int(_) | Kind::UInt(_)) => {
            // Without a comparison type, the element type decides (spec).
            let unsigned = match ty {
                Some(ComparisonType::Unsigned) => true,
                Some(ComparisonType::Signed) => false,
                _ => matches!(k, Kind::UInt(_) | Kind::Int(1)),
            };
            Ok(t.v(format!("arith.cmpi {}, {}, {} : {}", if unsigned { ui } else { si }, a[0], a[1], storage(e))))
        }
        Kind::Other => Err(fail(op, format!("cannot lower 'stablehlo.compare' on {e} to linalg yet"))),
    }
}

/// `stablehlo.convert` of one element.
pub fn convert(t: &mut Tpl, op: MlirOperation, x: &str, from: &str, to: &str) -> R<String> {
    if from == to {
        return Ok(x.to_string());
    }
    // Complex numbers: part by part between complex types; a real value is
    // the real part (imaginary 0); to a real type, the real part (XLA).
    match (complex_part(from), complex_part(to)) {
        (Some(pf), Some(pt)) => {
            let re = t.v(format!("complex.re {x} : {from}"));
            let im = t.v(format!("complex.im {x} : {from}"));
            let re = convert(t, op, &re, pf, pt)?;
            let im = convert(t, op, &im, pf, pt)?;
            return Ok(t.v(format!("complex.create {re}, {im} : {to}")));
        }
        (None, Some(pt)) => {
            let re = convert(t, op, x, from, pt)?;
            let zero = t.v(format!("arith.constant 0.0 : {pt}"));
            return Ok(t.v(format!("complex.create {re}, {zero} : {to}")));
        }
        (Some(pf), None) => {
            let re = t.v(format!("complex.re {x} : {from}"));
            return convert(t, op, &re, pf, to);
        }
        (None, None) => {}
    }
    let unsupported = || fail(op, format!("cannot lower 'stablehlo.convert' from {from} to {to} to linalg yet"));
    match (kind(from), kind(to)) {
        (Kind::Float(a), Kind::Float(b)) => {
            if a == 16 && b == 16 {
                let f = t.v(format!("arith.extf {x} : {from} to f32"));
                Ok(t.v(format!("arith.truncf {f} : f32 to {to}")))
            } else if a < b {
                Ok(t.v(format!("arith.extf {x} : {from} to {to}")))
            } else if a == 64 && b == 16 {
                // f64 → f32 rounded to odd, then f32 → 16 bits to nearest even:
                // the same as one correct rounding (f32 keeps more than two
                // extra bits), and no libcall (LLVM would call
                // compiler-rt's __truncdfbf2, which libgcc lacks).
                let f = t.v(format!("arith.truncf {x} : f64 to f32"));
                let back = t.v(format!("arith.extf {f} : f32 to f64"));
                let ax = t.v(format!("math.absf {x} : f64"));
                let aback = t.v(format!("math.absf {back} : f64"));
                let away = t.v(format!("arith.cmpf ogt, {aback}, {ax} : f64"));
                let inexact = t.v(format!("arith.cmpf one, {back}, {x} : f64"));
                let bits = t.v(format!("arith.bitcast {f} : f32 to i32"));
                let one = t.cst("1", "i32");
                let toward_zero = t.v(format!("arith.subi {bits}, {one} : i32"));
                let truncated = t.v(format!("arith.select {away}, {toward_zero}, {bits} : i32"));
                let odd = t.v(format!("arith.ori {truncated}, {one} : i32"));
                let rounded = t.v(format!("arith.select {inexact}, {odd}, {bits} : i32"));
                let f = t.v(format!("arith.bitcast {rounded} : i32 to f32"));
                Ok(t.v(format!("arith.truncf {f} : f32 to {to}")))
            } else {
                Ok(t.v(format!("arith.truncf {x} : {from} to {to}")))
            }
        }
        (ka @ (Kind::Int(a) | Kind::UInt(a)), Kind::Float(b)) => {
            let op = if a == 1 || matches!(ka, Kind::UInt(_)) { "arith.uitofp" } else { "arith.sitofp" };
            let from = storage(from);
            if b == 16 {
                let f = t.v(format!("{op} {x} : {from} to f32"));
                Ok(t.v(format!("arith.truncf {f} : f32 to {to}")))
            } else {
                Ok(t.v(format!("{op} {x} : {from} to {to}")))
            }
        }
        (Kind::Float(a), Kind::UInt(b)) => {
            // Saturating, NaN → 0 (XLA's fptoui.sat): ≤ 0 → 0, ≥ 2^b → all ones.
            let (x, from) = if a == 16 { (t.v(format!("arith.extf {x} : {from} to f32")), "f32") } else { (x.to_string(), from) };
            let st = storage(to);
            let zero = t.cst("0.0", from);
            let hi_f = t.cst(format!("{:e}", 2f64.powi(b as i32)), from);
            let low = t.v(format!("arith.cmpf ule, {x}, {zero} : {from}"));
            let ge = t.v(format!("arith.cmpf oge, {x}, {hi_f} : {from}"));
            let out = t.v(format!("arith.ori {low}, {ge} : i1"));
            let x1 = t.v(format!("arith.select {out}, {zero}, {x} : {from}"));
            let i = t.v(format!("arith.fptoui {x1} : {from} to {st}"));
            let ones = t.cst(-1, &st);
            Ok(t.v(format!("arith.select {ge}, {ones}, {i} : {st}")))
        }
        (Kind::Float(a), Kind::Int(b)) => {
            let (x, from) = if a == 16 { (t.v(format!("arith.extf {x} : {from} to f32")), "f32") } else { (x.to_string(), from) };
            let zero = t.cst("0.0", from);
            if b == 1 {
                return Ok(t.v(format!("arith.cmpf une, {x}, {zero} : {from}")));
            }
            // NaN → 0; saturate to [INT_MIN, INT_MAX] (XLA).
            let hi = 2f64.powi(b as i32 - 1);
            let hi_f = t.cst(format!("{hi:e}"), from);
            let lo_f = t.cst(format!("{:e}", -hi), from);
            let nan = t.v(format!("arith.cmpf uno, {x}, {x} : {from}"));
            let ge = t.v(format!("arith.cmpf oge, {x}, {hi_f} : {from}"));
            let le = t.v(format!("arith.cmpf ole, {x}, {lo_f} : {from}"));
            let x0 = t.v(format!("arith.select {nan}, {zero}, {x} : {from}"));
            let x1 = t.v(format!("arith.select {ge}, {zero}, {x0} : {from}"));
            let x2 = t.v(format!("arith.select {le}, {zero}, {x1} : {from}"));
            let i = t.v(format!("arith.fptosi {x2} : {from} to {to}"));
            let max = t.cst(if b >= 64 { i64::MAX } else { (1i64 << (b - 1)) - 1 }, to);
            let min = t.cst(int_min(b), to);
            let i1 = t.v(format!("arith.select {ge}, {max}, {i} : {to}"));
            Ok(t.v(format!("arith.select {le}, {min}, {i1} : {to}")))
        }
        (ka @ (Kind::Int(a) | Kind::UInt(a)), Kind::Int(b) | Kind::UInt(b)) => {
            // Widening extends by the source's signedness; same width is the
            // same bits.
            let (sf, stt) = (storage(from), storage(to));
            if b == 1 {
                let zero = t.cst(0, &sf);
                Ok(t.v(format!("arith.cmpi ne, {x}, {zero} : {sf}")))
            } else if a == 1 || (a < b && matches!(ka, Kind::UInt(_))) {
                Ok(t.v(format!("arith.extui {x} : {sf} to {stt}")))
            } else if a < b {
                Ok(t.v(format!("arith.extsi {x} : {sf} to {stt}")))
            } else if a > b {
                Ok(t.v(format!("arith.trunci {x} : {sf} to {stt}")))
            } else {
                Ok(x.to_string())
            }
        }
        _ => Err(unsupported()),
    }
}

/// The scalar of a 0-d (or splat) `stablehlo.constant` as an
/// `arith.constant` in the template: the splat element attribute
/// (`0xFF800000 : f32`, `3 : i32`, `true`), printed into the template.
pub fn splat_constant(t: &mut Tpl, op: MlirOperation) -> R<String> {
    // SAFETY: `op` is a live `stablehlo.constant`; the name outlives the call.
    let a = unsafe { mlirOperationGetAttributeByName(op, sref("value")) };
    // SAFETY: `a` is non-null (checked first); the splat check runs after
    // `mlirAttributeIsADenseElements`.
    if a.ptr.is_null() || !unsafe { mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a) } {
        return Err(fail(op, "cannot lower a non-splat 'stablehlo.constant' to a scalar"));
    }
    // SAFETY: `a` is a splat dense elements attribute (checked above).
    let e = unsafe { mlirDenseElementsAttrGetSplatValue(a) };
    // SAFETY: `e` is the splat value of a dense elements attribute, which MLIR never returns null
    // (the null check below comes after these predicates).
    let scalar = unsafe { mlirAttributeIsAFloat(e) || mlirAttributeIsAInteger(e) || mlirAttributeIsABool(e) };
    if e.ptr.is_null() || !scalar {
        return Err(fail(op, format!("cannot read constant {}", attr_text(a))));
    }
    // SAFETY: `e` is a live attribute; the unsigned value and the width are read only after
    // `mlirAttributeIsAInteger` and `mlirTypeIsAInteger`.
    unsafe {
        let ty = mlirAttributeGetType(e);
        if mlirAttributeIsAInteger(e) && mlirTypeIsAInteger(ty) && mlirIntegerTypeIsUnsigned(ty) {
            // arith.constant is signless: the same bits as `iN`.
            let v = mlirIntegerAttrGetValueUInt(e);
            return Ok(t.cst(v, &format!("i{}", mlirIntegerTypeGetWidth(ty))));
        }
    }
    Ok(t.cst_attr(e))
}

/// Turns a region of stablehlo ops on 0-d tensors (reduce/sort/scatter
/// bodies) into scalar code. `args` are the scalars standing for the block
/// arguments; returns the scalars `stablehlo.return` gives.
pub fn scalarize_region(t: &mut Tpl, parent: MlirOperation, region: MlirRegion, args: &[String]) -> R<Vec<String>> {
    let bs = blocks(region);
    if bs.len() != 1 {
        return Err(fail(parent, format!("cannot lower '{}' with a multi-block body to linalg yet", op_name_raw(parent))));
    }
    let b = bs[0];
    let mut map = ValueMap::default();
    // SAFETY: `b` is the single block of a live region; `i` is below its argument count (checked
    // equal to `args.len()`).
    unsafe {
        if mlirBlockGetNumArguments(b) as usize != args.len() {
            return Err(fail(
                parent,
                format!("'{}' body has {} arguments, expected {}", op_name_raw(parent), mlirBlockGetNumArguments(b), args.len()),
            ));
        }
        for (i, a) in args.iter().enumerate() {
            map.set(mlirBlockGetArgument(b, i as isize), a.clone());
        }
    }
    for o in block_ops(b) {
        let name = op_name_raw(o);
        // SAFETY: `o` is a live op of that block.
        let nops = unsafe { mlirOperationGetNumOperands(o) };
        let mut vals = Vec::new();
        let mut elems = Vec::new();
        for i in 0..nops {
            // SAFETY: `i` is below the operand count.
            let v = unsafe { mlirOperationGetOperand(o, i) };
            let n = map.get(v).cloned().ok_or_else(|| {
                fail(o, format!("cannot lower '{name}' in the body of '{}': it uses a value defined outside the body", op_name_raw(parent)))
            })?;
            vals.push(n);
            // SAFETY: `v` is an operand of the live op `o`.
            elems.push(tensor_ty(o, unsafe { mlirValueGetType(v) })?.elem);
        }
        if name == "stablehlo.return" {
            return Ok(vals);
        }
        // SAFETY: `o` is a live op.
        let nres = unsafe { mlirOperationGetNumResults(o) };
        if nres != 1 {
            return Err(fail(o, format!("cannot lower '{name}' in the body of '{}' to scalar code yet", op_name_raw(parent))));
        }
        // SAFETY: `o` has exactly one result (checked above).
        let r = unsafe { mlirOperationGetResult(o, 0) };
        // SAFETY: `r` is that live result.
        let rty = tensor_ty(o, unsafe { mlirValueGetType(r) })?;
        if rty.rank() != 0 {
            return Err(fail(o, format!("cannot lower '{name}' with a non-scalar result in the body of '{}' yet", op_name_raw(parent))));
        }
        let short = name.strip_prefix("stablehlo.").unwrap_or("");
        let out = match short {
            "constant" => splat_constant(t, o)?,
            "broadcast_in_dim" | "reshape" | "optimization_barrier" => vals[0].clone(),
            s if ELEMENTWISE.contains(&s) => emit(t, o, s, &vals, &elems, &rty.elem)?,
            _ => return Err(fail(o, format!("cannot lower '{name}' in the body of '{}' to scalar code yet", op_name_raw(parent)))),
        };
        map.set(r, out);
    }
    Err(fail(parent, format!("'{}' body has no stablehlo.return", op_name_raw(parent))))
}
