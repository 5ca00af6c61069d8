//! `floors-hlo-expand-rng-bit-generator`: every `stablehlo.rng_bit_generator`
//! becomes the stablehlo ops XLA's `RngBitGeneratorExpander` builds
//! (`xla/hlo/builder/lib/prng.cc`), so each floor fuses and lowers plain
//! integer arithmetic and the bits are XLA:CPU's, bit for bit.
//!
//! The state is `ui64[2]` (or `ui64[3]` for Philox); its first word is the key.
//! - `PHILOX` (and `DEFAULT`, which XLA:CPU resolves to Philox): a 128-bit
//!   counter — `state[1]` low and `state[2]` high, or with two words `state[1]`
//!   low and `state[0]` high (XLA reverses the state) — counts one Philox4x32
//!   block of four 32-bit words per four results; 10 rounds; the words are
//!   taken block by block in order (64-bit results: two words each, low
//!   first). The new state is the key and the counter advanced by the blocks
//!   used (with two words, only its low word).
//! - `THREE_FRY`: Threefry2x32 with 20 rounds on the 64-bit counter
//!   `state[1] + i`. 64-bit results take both halves of one block (low
//!   first); 32-bit results split the shape in two along its first even
//!   dimension (else its largest), result `2h + j` of that dimension being
//!   half `j` of block `h`. The new state is the key and the counter plus the
//!   blocks used.
//! - Results narrower than 32 bits are the low bits of the 32-bit ones; float
//!   and signed results are the unsigned bits bitcast.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::builder::*;
use floors_ir::{
    dialects::stablehlo::RngAlgorithm,
    ir::{collect_ops, op_name},
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloExpandRngBitGenerator;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Algorithm {
    Philox,
    ThreeFry,
}

/// Builds on 1-D `ui32`/`ui64` tensors (and `tensor<ui32>`/`tensor<ui64>` scalars).
struct Gen<'a> {
    b: &'a B,
    u32: MlirType,
    u64: MlirType,
}

impl Gen<'_> {
    fn t64(&self, n: i64) -> MlirType {
        tensor(&[n], self.u64)
    }
    fn len(&self, v: MlirValue) -> i64 {
        shape(value_type(v)).first().copied().unwrap_or(1)
    }
    fn c32(&self, shape_: &[i64], v: u32) -> MlirValue {
        self.b.ci(tensor(shape_, self.u32), v as i64)
    }
    fn c64(&self, shape_: &[i64], v: u64) -> MlirValue {
        self.b.ci(tensor(shape_, self.u64), v as i64)
    }
    /// Same-shape constant for `x`.
    fn like(&self, x: MlirValue, v: u64) -> MlirValue {
        let t = value_type(x);
        self.b.ci(t, v as i64)
    }
    fn xor(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.b.bin("stablehlo.xor", a, b)
    }
    fn shr(&self, x: MlirValue, n: u64) -> MlirValue {
        self.b.bin("stablehlo.shift_right_logical", x, self.like(x, n))
    }
    fn shl(&self, x: MlirValue, n: u64) -> MlirValue {
        self.b.bin("stablehlo.shift_left", x, self.like(x, n))
    }
    fn rotl(&self, x: MlirValue, n: u64) -> MlirValue {
        self.b.or(self.shl(x, n), self.shr(x, 32 - n))
    }
    fn to(&self, x: MlirValue, e: MlirType) -> MlirValue {
        self.b.convert(x, with_elem(value_type(x), e))
    }
    fn lo32(&self, x: MlirValue) -> MlirValue {
        self.to(x, self.u32)
    }
    fn hi32(&self, x: MlirValue) -> MlirValue {
        self.to(self.shr(x, 32), self.u32)
    }
    fn join64(&self, lo: MlirValue, hi: MlirValue) -> MlirValue {
        self.b.or(self.to(lo, self.u64), self.shl(self.to(hi, self.u64), 32))
    }
    fn reshape(&self, x: MlirValue, shape_: &[i64]) -> MlirValue {
        self.b.op("stablehlo.reshape", &[x], with_elem_shape(value_type(x), shape_), &[])
    }
    /// A scalar broadcast to `[n]`.
    fn splat(&self, scalar: MlirValue, n: i64) -> MlirValue {
        let t = tensor(&[n], elem(value_type(scalar)));
        self.b.op("stablehlo.broadcast_in_dim", &[scalar], t, &[("broadcast_dimensions", self.b.i64_array(&[]))])
    }
    /// Word `i` of a 1-D tensor, as a scalar tensor.
    fn word(&self, x: MlirValue, i: i64) -> MlirValue {
        let one = self.slice(x, &[i], &[i + 1]);
        self.reshape(one, &[])
    }
    fn slice(&self, x: MlirValue, start: &[i64], limit: &[i64]) -> MlirValue {
        let sizes: Vec<i64> = start.iter().zip(limit).map(|(s, l)| l - s).collect();
        let strides = vec![1; start.len()];
        self.b.op(
            "stablehlo.slice",
            &[x],
            with_elem_shape(value_type(x), &sizes),
            &[
                ("start_indices", self.b.i64_array(start)),
                ("limit_indices", self.b.i64_array(limit)),
                ("strides", self.b.i64_array(&strides)),
            ],
        )
    }
    fn concat(&self, parts: &[MlirValue], dim: i64) -> MlirValue {
        let mut s = shape(value_type(parts[0]));
        s[dim as usize] = parts.iter().map(|&p| shape(value_type(p))[dim as usize]).sum();
        self.b.op("stablehlo.concatenate", parts, with_elem_shape(value_type(parts[0]), &s), &[("dimension", self.b.i64_attr(dim))])
    }
    fn iota64(&self, n: i64) -> MlirValue {
        self.b.op("stablehlo.iota", &[], self.t64(n), &[("iota_dimension", self.b.i64_attr(0))])
    }
    /// `x[i]` for i < n as one tensor of `parts.len()·n` words, part by part
    /// within each i (XLA's round-robin order), cut to `count`.
    fn interleave(&self, parts: &[MlirValue], count: i64) -> MlirValue {
        let n = self.len(parts[0]);
        let cols: Vec<MlirValue> = parts.iter().map(|&p| self.reshape(p, &[n, 1])).collect();
        let all = self.reshape(self.concat(&cols, 1), &[n * parts.len() as i64]);
        if count == n * parts.len() as i64 { all } else { self.slice(all, &[0], &[count]) }
    }

    /// Philox4x32 with 10 rounds on `x` (four `[n]` words) and the scalar key
    /// words `k` (tensor<ui32>).
    fn philox(&self, mut x: [MlirValue; 4], k: [MlirValue; 2]) -> [MlirValue; 4] {
        const W_A: u32 = 0x9E37_79B9;
        const W_B: u32 = 0xBB67_AE85;
        const M_A: u32 = 0xD251_1F53;
        const M_B: u32 = 0xCD9E_8D57;
        let n = self.len(x[0]);
        let mul = |v: MlirValue, m: u32| {
            let p = self.b.mul(self.to(v, self.u64), self.c64(&[n], m as u64));
            (self.hi32(p), self.lo32(p))
        };
        for round in 0..10u32 {
            let k0 = self.splat(self.b.add(k[0], self.c32(&[], W_A.wrapping_mul(round))), n);
            let k1 = self.splat(self.b.add(k[1], self.c32(&[], W_B.wrapping_mul(round))), n);
            let (hi0, lo0) = mul(x[0], M_A);
            let (hi1, lo1) = mul(x[2], M_B);
            x = [self.xor(self.xor(hi1, x[1]), k0), lo1, self.xor(self.xor(hi0, x[3]), k1), lo0];
        }
        x
    }

    /// Threefry2x32 with 20 rounds on `x` (two `[n]` words) and the scalar key
    /// words `k`.
    fn threefry(&self, x: [MlirValue; 2], k: [MlirValue; 2]) -> [MlirValue; 2] {
        const ROT: [u64; 8] = [13, 15, 26, 6, 17, 29, 16, 24];
        let n = self.len(x[0]);
        let ks2 = self.xor(self.xor(self.c32(&[], 0x1BD1_1BDA), k[0]), k[1]);
        let ks = [self.splat(k[0], n), self.splat(k[1], n), self.splat(ks2, n)];
        let mut v = [self.b.add(x[0], ks[0]), self.b.add(x[1], ks[1])];
        for block in 0..5usize {
            let rots = if block % 2 == 0 { &ROT[0..4] } else { &ROT[4..8] };
            for &r in rots {
                v[0] = self.b.add(v[0], v[1]);
                v[1] = self.xor(v[0], self.rotl(v[1], r));
            }
            // Key injection `block + 1`: ks[(i+1)%3] and ks[(i+2)%3] + i + 1.
            let i = block + 1;
            v[0] = self.b.add(v[0], ks[i % 3]);
            v[1] = self.b.add(self.b.add(v[1], ks[(i + 1) % 3]), self.c32(&[n], i as u32));
        }
        v
    }
}

/// `t`'s element type with shape `s`.
fn with_elem_shape(t: MlirType, s: &[i64]) -> MlirType {
    tensor(s, elem(t))
}

fn int_width(e: MlirType) -> Option<u32> {
    // SAFETY: `e` is a live element type; each width getter runs only after the kind check it assumes.
    unsafe {
        if mlirTypeIsAInteger(e) {
            Some(mlirIntegerTypeGetWidth(e))
        } else if mlirTypeIsAFloat(e) {
            Some(mlirFloatTypeGetWidth(e))
        } else {
            None
        }
    }
}

/// The expansion's results: (new state, output).
fn expand(b: &B, op: MlirOperation, alg: Algorithm) -> Result<(MlirValue, MlirValue), String> {
    // SAFETY: `op` is a live `stablehlo.rng_bit_generator`, whose verified form has one operand (the state) and two
    // results.
    let state_in = unsafe { mlirOperationGetOperand(op, 0) };
    // SAFETY: as above: result 1 (the output) exists.
    let out_t = unsafe { mlirValueGetType(mlirOperationGetResult(op, 1)) };
    let state_t = value_type(state_in);
    if !is_static(out_t) || !is_static(state_t) {
        return Err("a dynamically shaped rng_bit_generator is not supported".into());
    }
    let se = elem(state_t);
    // SAFETY: `se` is the state's element type; the width is read only once it is known to be an integer (`||`
    // short-circuits).
    if unsafe { !mlirTypeIsAInteger(se) || mlirIntegerTypeGetWidth(se) != 64 } {
        return Err(format!("the state must be 64-bit integers (XLA's ui64), not {}", type_str(state_t)));
    }
    let words = shape(state_t)[0];
    let ok_len = match alg {
        Algorithm::Philox => words == 2 || words == 3,
        Algorithm::ThreeFry => words == 2,
    };
    if !ok_len {
        let name = if alg == Algorithm::Philox { "PHILOX (and DEFAULT) takes 2 or 3" } else { "THREE_FRY takes 2" };
        return Err(format!("{name} state words, not {words}"));
    }
    let oe = elem(out_t);
    let width = match int_width(oe) {
        // SAFETY: `oe` is the output's element type; the width is read only once it is known to be an integer (`||`
        // short-circuits).
        Some(w @ (8 | 16 | 32 | 64)) if unsafe { !mlirTypeIsAInteger(oe) || mlirIntegerTypeGetWidth(oe) != 1 } => w,
        _ => return Err(format!("output element type {} is not an integer or float of 8, 16, 32 or 64 bits", type_str(oe))),
    };
    let ctx = b.ctx;
    // SAFETY: `ctx` is the context the pass runs in.
    let g = Gen { b, u32: unsafe { mlirIntegerTypeUnsignedGet(ctx, 32) }, u64: unsafe { mlirIntegerTypeUnsignedGet(ctx, 64) } };
    let ushape = shape(out_t);
    let count: i64 = ushape.iter().product();
    // SAFETY: `se` was checked to be an integer type above.
    let state = if unsafe { mlirIntegerTypeIsUnsigned(se) } { state_in } else { b.bitcast(state_in, g.t64(words)) };
    let key = g.word(state, 0);
    let k = [g.lo32(key), g.hi32(key)];
    if count == 0 {
        // No bits: the state is passed on with the counter unchanged.
        // SAFETY: `ctx` is live; `oe` is a float or an integer type (checked by `int_width` above), and each getter
        // is called only for its kind.
        let zero = unsafe { if mlirTypeIsAFloat(oe) { mlirFloatAttrDoubleGet(ctx, oe, 0.0) } else { mlirIntegerAttrGet(oe, 0) } };
        return Ok((state_in, b.splat(out_t, zero)));
    }

    let (bits, new_state) = match alg {
        Algorithm::Philox => {
            let (lo, hi) = if words == 3 { (g.word(state, 1), g.word(state, 2)) } else { (g.word(state, 1), key) };
            let blocks = if width == 64 { (count + 1) / 2 } else { (count + 3) / 4 };
            let n = blocks.max(1);
            let low = b.add(g.splat(lo, n), g.iota64(n));
            let carry = b.cmp(Dir::Lt, low, g.splat(lo, n));
            let hi1 = b.add(hi, g.c64(&[], 1));
            let high = b.select(carry, g.splat(hi1, n), g.splat(hi, n));
            let x = g.philox([g.lo32(low), g.hi32(low), g.lo32(high), g.hi32(high)], k);
            let bits =
                if width == 64 { g.interleave(&[g.join64(x[0], x[1]), g.join64(x[2], x[3])], count) } else { g.interleave(&x, count) };
            let low2 = b.add(lo, g.c64(&[], blocks as u64));
            let mut new = vec![g.reshape(key, &[1]), g.reshape(low2, &[1])];
            if words == 3 {
                let carry = b.cmp(Dir::Lt, low2, lo);
                new.push(g.reshape(b.select(carry, hi1, hi), &[1]));
            }
            (g.reshape(bits, &ushape), g.concat(&new, 0))
        }
        Algorithm::ThreeFry => {
            let ctr = g.word(state, 1);
            if width == 64 {
                let n = count.max(1);
                let inputs = b.add(g.splat(ctr, n), g.iota64(n));
                let y = g.threefry([g.lo32(inputs), g.hi32(inputs)], k);
                let bits = g.join64(y[0], y[1]);
                let bits = if n == count { bits } else { g.slice(bits, &[0], &[count]) };
                let next = b.add(ctr, g.c64(&[], count as u64));
                (g.reshape(bits, &ushape), g.concat(&[g.reshape(key, &[1]), g.reshape(next, &[1])], 0))
            } else {
                // XLA's SplitShapeIntoHalves and CombineShapePair.
                let split = ushape
                    .iter()
                    .position(|d| d % 2 == 0)
                    .or_else(|| (0..ushape.len()).max_by_key(|&i| (ushape[i], std::cmp::Reverse(i))))
                    .unwrap_or(0);
                let (half, concat_dim) = if ushape.is_empty() {
                    (vec![1], 0)
                } else {
                    let mut h = ushape.clone();
                    h[split] = (ushape[split] + 1) / 2;
                    h.insert(split + 1, 1);
                    (h, split as i64 + 1)
                };
                let hn: i64 = half.iter().product();
                let n = hn.max(1);
                let inputs = b.add(g.splat(ctr, n), g.iota64(n));
                let y = g.threefry([g.lo32(inputs), g.hi32(inputs)], k);
                let bits = if ushape.is_empty() {
                    g.reshape(g.slice(y[0], &[0], &[1]), &[])
                } else {
                    let parts = [g.reshape(y[0], &half), g.reshape(y[1], &half)];
                    let mut even = ushape.clone();
                    even[split] = (ushape[split] + 1) / 2 * 2;
                    let joined = g.reshape(g.concat(&parts, concat_dim), &even);
                    if even == ushape { joined } else { g.slice(joined, &vec![0; ushape.len()], &ushape) }
                };
                let next = b.add(ctr, g.c64(&[], hn as u64));
                (bits, g.concat(&[g.reshape(key, &[1]), g.reshape(next, &[1])], 0))
            }
        }
    };
    // Narrow results are the low bits of 32-bit ones; other types the bits.
    // SAFETY: `ctx` is the context the pass runs in.
    let unsigned = unsafe { mlirIntegerTypeUnsignedGet(ctx, width) };
    let bits = if width < 32 { g.to(bits, unsigned) } else { bits };
    // SAFETY: both types are live types of that context.
    let out = if unsafe { mlirTypeEqual(oe, unsigned) } { bits } else { b.bitcast(bits, out_t) };
    // SAFETY: both types are live types of that context.
    let new_state = if unsafe { mlirTypeEqual(se, g.u64) } { new_state } else { b.bitcast(new_state, state_t) };
    Ok((new_state, out))
}

impl FloorsPass for HloExpandRngBitGenerator {
    const ARGUMENT: &'static str = "floors-hlo-expand-rng-bit-generator";
    const NAME: &'static str = "FloorsHloExpandRngBitGenerator";
    const DESCRIPTION: &'static str =
        "Expand stablehlo.rng_bit_generator into the integer ops XLA's expander builds (Philox for DEFAULT, as XLA:CPU)";
    /// Runs on any op: on the module in `floors-fuse`, or per function.
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let ops = collect_ops(&root, |o| op_name(&o) == "stablehlo.rng_bit_generator");
        expand_each(Self::ARGUMENT, ops, |b, op| {
            // SAFETY: `op` is a live rng_bit_generator; a missing attribute is null, which `from_attr` refuses.
            let attr = unsafe { mlirOperationGetAttributeByName(op, sref("rng_algorithm")) };
            let alg = match RngAlgorithm::from_attr(attr) {
                Some(RngAlgorithm::ThreeFry) => Algorithm::ThreeFry,
                Some(RngAlgorithm::Default | RngAlgorithm::Philox) => Algorithm::Philox,
                None => return Err("rng_bit_generator: unknown rng_algorithm".into()),
            };
            let (state, out) = expand(b, op, alg).map_err(|m| format!("rng_bit_generator: {m}"))?;
            Ok(vec![state, out])
        })
    }
}
