//! Tensor-core instructions: `ldmatrix`, `mma.sync` and `wgmma.mma_async`,
//! each from the PTX ISA's fragment tables (sections named at each).
//!
//! Products are exact and summed in f64 with the accumulator, rounded once
//! to the accumulator's format: within the hardware's documented error
//! (its internal accumulation order and width are not specified), never
//! a different answer for integer-valued or short sums.

use half::{bf16, f16};

use crate::ir::Ty;

/// `ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16` (PTX ISA §9.7.14.5.15,
/// figures "ldmatrix fragment"): matrix `i` has its 8 rows at the
/// addresses of threads `8i..8i+7` (`rows[t]` are the 8 b16 values thread
/// `t`'s address points at); destination register `i` of lane `t` holds
/// row `t/4`, columns `2(t%4)` (low half) and `2(t%4)+1` (high half) of
/// matrix `i` — or, with `.trans`, those elements of the transpose: column
/// `t/4`, rows `2(t%4)` and `2(t%4)+1`.
pub fn ldmatrix(num: usize, trans: bool, rows: &[[u16; 8]; 32]) -> [[u32; 4]; 32] {
    let mut out = [[0u32; 4]; 32];
    for (t, regs) in out.iter_mut().enumerate() {
        let (r, c) = (t / 4, 2 * (t % 4));
        for (i, reg) in regs.iter_mut().enumerate().take(num) {
            let m = |row: usize, col: usize| rows[8 * i + row][col] as u32;
            *reg = if trans { m(c, r) | (m(c + 1, r) << 16) } else { m(r, c) | (m(r, c + 1) << 16) };
        }
    }
    out
}

fn elem(ty: Ty, bits: u32) -> Result<f64, String> {
    Ok(match ty {
        Ty::F16 => f16::from_bits(bits as u16).to_f64(),
        Ty::Bf16 => bf16::from_bits(bits as u16).to_f64(),
        // tf32: an f32 whose low 13 mantissa bits the tensor core ignores.
        Ty::Tf32 => f32::from_bits(bits & !0x1fff) as f64,
        Ty::F32 => f32::from_bits(bits) as f64,
        t => return Err(format!("tensor-core operands of {t:?} are not simulated")),
    })
}

fn round_to(ty: Ty, x: f64) -> Result<u32, String> {
    Ok(match ty {
        Ty::F32 => {
            if x.is_nan() {
                0x7fff_ffff
            } else {
                (x as f32).to_bits()
            }
        }
        Ty::F16 => {
            if x.is_nan() {
                0x7fff
            } else {
                f16::from_f64(x).to_bits() as u32
            }
        }
        t => return Err(format!("tensor-core accumulators of {t:?} are not simulated")),
    })
}

/// `mma.sync.aligned` (PTX ISA §9.7.14.5.8 for m16n8k16, §9.7.14.5.7 for
/// m16n8k8): `a`, `b`, `c` are each lane's registers of the fragments as
/// written; returns each lane's D registers. `types` = [D, A, B, C].
pub fn mma_sync(
    shape: (u32, u32, u32),
    layouts: (bool, bool),
    types: &[Ty],
    a: &[Vec<u32>],
    b: &[Vec<u32>],
    c: &[Vec<u32>],
) -> Result<Vec<Vec<u32>>, String> {
    let [dty, aty, bty, cty] = match types {
        [d, a, b, c] => [*d, *a, *b, *c],
        _ => return Err(format!("mma with types {types:?}")),
    };
    if layouts != (true, false) {
        return Err("mma layouts other than .row.col are not simulated".into());
    }
    let (m, n, k) = (shape.0 as usize, shape.1 as usize, shape.2 as usize);
    if (m, n) != (16, 8) || !(k == 16 || k == 8) {
        return Err(format!("mma shape m{m}n{n}k{k} is not simulated"));
    }
    let half_in = matches!(aty, Ty::F16 | Ty::Bf16);
    if aty != bty || !(half_in || aty == Ty::Tf32) || (aty == Ty::Tf32 && k != 8) {
        return Err(format!("mma m{m}n{n}k{k} with A {aty:?}, B {bty:?} is not simulated"));
    }
    // The full matrices from the fragments.
    let mut am = vec![[0f64; 16]; 16];
    let mut bm = vec![[0f64; 8]; 16];
    let mut cm = vec![[0f64; 8]; 16];
    let sub = |v: u32, hi: bool| if hi { v >> 16 } else { v & 0xffff };
    for t in 0..32 {
        let (g, tg) = (t / 4, t % 4);
        if half_in {
            // A: a_i, i in 0..2k/8: row g (+8 for i%4 in 2..4), col 2tg + (i&1) (+8 for i ≥ 4).
            for i in 0..(k / 2) {
                let row = g + if (i / 2) % 2 == 1 { 8 } else { 0 };
                let col = 2 * tg + (i & 1) + if i >= 4 { 8 } else { 0 };
                am[row][col] = elem(aty, sub(a[t][i / 2], i % 2 == 1))?;
            }
            // B: b_i, i in 0..k/4: row 2tg + (i&1) (+8 for i ≥ 2), col g.
            for i in 0..(k / 4) {
                let row = 2 * tg + (i & 1) + if i >= 2 { 8 } else { 0 };
                bm[row][g] = elem(bty, sub(b[t][i / 2], i % 2 == 1))?;
            }
        } else {
            // tf32 m16n8k8: a0 (g, tg), a1 (g+8, tg), a2 (g, tg+4), a3 (g+8, tg+4); b0 (tg, g), b1 (tg+4, g).
            for (i, &reg) in a[t].iter().enumerate().take(4) {
                let row = g + if i % 2 == 1 { 8 } else { 0 };
                let col = tg + if i >= 2 { 4 } else { 0 };
                am[row][col] = elem(aty, reg)?;
            }
            for i in 0..2 {
                bm[tg + 4 * i][g] = elem(bty, b[t][i])?;
            }
        }
        // C: c_i, row g (+8 for i ≥ 2), col 2tg + (i&1).
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, 2 * tg + (i & 1));
            cm[row][col] = match cty {
                Ty::F32 => elem(Ty::F32, c[t][i])?,
                Ty::F16 => elem(Ty::F16, sub(c[t][i / 2], i % 2 == 1))?,
                t => return Err(format!("mma accumulator {t:?}")),
            };
        }
    }
    let mut out = vec![vec![0u32; if dty == Ty::F32 { 4 } else { 2 }]; 32];
    for (t, lane_out) in out.iter_mut().enumerate() {
        let (g, tg) = (t / 4, t % 4);
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, 2 * tg + (i & 1));
            let mut acc = cm[row][col];
            for kk in 0..k {
                acc += am[row][kk] * bm[kk][col];
            }
            let bits = round_to(dty, acc)?;
            if dty == Ty::F32 {
                lane_out[i] = bits;
            } else {
                lane_out[i / 2] |= bits << (16 * (i % 2));
            }
        }
    }
    Ok(out)
}

/// One `wgmma.mma_async` with both operands in shared memory.
pub struct Wgmma {
    pub shape: (u32, u32, u32),
    /// [D, A, B].
    pub types: Vec<Ty>,
    pub desc_a: u64,
    pub desc_b: u64,
    pub scale_d: bool,
    pub scale_a: i64,
    pub scale_b: i64,
    pub tnsp_a: bool,
    pub tnsp_b: bool,
}

/// A decoded shared-memory matrix descriptor (PTX ISA §9.7.15.5.1.2.2
/// "Matrix Descriptor Format"): start address bits 13–0, leading-dimension
/// byte offset bits 29–16, stride-dimension byte offset bits 45–32 (each in
/// 16-byte units), base offset bits 51–49, swizzle mode bits 63–62
/// (0 none, 1 128B, 2 64B, 3 32B).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Descriptor {
    pub start: u64,
    pub lbo: u64,
    pub sbo: u64,
    pub base_offset: u64,
    /// Swizzle width in bytes (0: none).
    pub swizzle: u64,
}

impl Descriptor {
    pub fn decode(d: u64) -> Descriptor {
        Descriptor {
            start: (d & 0x3fff) << 4,
            lbo: ((d >> 16) & 0x3fff) << 4,
            sbo: ((d >> 32) & 0x3fff) << 4,
            base_offset: (d >> 49) & 7,
            swizzle: match d >> 62 {
                1 => 128,
                2 => 64,
                3 => 32,
                _ => 0,
            },
        }
    }

    /// The shared address of element (`mn`, `k`) of a 16-bit operand in the
    /// canonical layouts (§9.7.15.5.1.2.1.3, "Canonical Layouts"; 8-row ×
    /// 16-byte core matrices): with no swizzle LBO strides along K and SBO
    /// along M/N (K-major: 8-row groups; MN-major: 8-element groups);
    /// swizzled K-major rows are W bytes (LBO unused, SBO between 8-row
    /// groups); swizzled MN-major atoms are W bytes along M/N (LBO between
    /// atoms, SBO between groups of 8 k). The swizzle XORs address bits
    /// [4, 4 + log2(W/16)) with bits [7, ...) of the absolute address.
    pub fn address(&self, mn: u64, k: u64, k_major: bool) -> u64 {
        let s = 2;
        let w = self.swizzle;
        let l = match (k_major, w) {
            (true, 0) => self.start + (mn / 8) * self.sbo + (mn % 8) * 16 + (k / 8) * self.lbo + (k % 8) * s,
            (true, w) => self.start + (mn / 8) * self.sbo + (mn % 8) * w + k * s,
            (false, 0) => self.start + (mn / 8) * self.sbo + (mn % 8) * s + (k / 8) * self.lbo + (k % 8) * 16,
            (false, w) => self.start + (mn / (w / s)) * self.lbo + (mn % (w / s)) * s + (k / 8) * self.sbo + (k % 8) * w,
        };
        if w == 0 {
            l
        } else {
            let bits = (w / 16).trailing_zeros() as u64;
            l ^ (((l >> 7) & ((1 << bits) - 1)) << 4)
        }
    }
}

/// The part of a `wgmma.mma_async` (PTX ISA §9.7.15.5.2) that warp `warp`
/// (0..4) of its warpgroup holds: rows 16·warp .. 16·warp + 15 of D (the
/// accumulator layout of §9.7.15.5.1.1.1, figure "WGMMA .m64nNk16 D":
/// register `i` of lane `l` is row 16·warp + l/4 + 8·((i/2) mod 2), column
/// 8·(i/4) + 2·(l mod 4) + (i mod 2)). `acc[lane]` are the lane's
/// accumulator registers; `read` reads a b16 of shared memory. The whole
/// operation happens at issue: a program that could observe it before its
/// `wgmma.wait_group` is undefined.
pub fn wgmma(spec: &Wgmma, warp: usize, acc: &[Vec<u32>], read: &dyn Fn(u64) -> Result<u16, String>) -> Result<Vec<Vec<u32>>, String> {
    let (m, n, k) = (spec.shape.0 as usize, spec.shape.1 as usize, spec.shape.2 as usize);
    let [dty, aty, bty] = match spec.types.as_slice() {
        [d, a, b] => [*d, *a, *b],
        t => return Err(format!("wgmma with types {t:?}")),
    };
    if m != 64 || k != 16 || n == 0 || n > 256 || n % 8 != 0 {
        return Err(format!("wgmma shape m{m}n{n}k{k} is not simulated"));
    }
    if aty != bty || !matches!(aty, Ty::F16 | Ty::Bf16) || !matches!(dty, Ty::F32 | Ty::F16) {
        return Err(format!("wgmma with D {dty:?}, A {aty:?}, B {bty:?} is not simulated"));
    }
    let regs = if dty == Ty::F32 { n / 2 } else { n / 4 };
    if acc.iter().any(|a| a.len() != regs) {
        return Err(format!("wgmma m64n{n}k16 needs {regs} accumulator registers"));
    }
    let (da, db) = (Descriptor::decode(spec.desc_a), Descriptor::decode(spec.desc_b));
    if da.base_offset != 0 || db.base_offset != 0 {
        return Err("wgmma descriptors with a non-zero base offset are not simulated".into());
    }
    let (sa, sb) = (spec.scale_a as f64, spec.scale_b as f64);
    // This warp's 16 rows of A and all of B, as f64.
    let mut a = vec![[0f64; 16]; 16];
    for (r, row) in a.iter_mut().enumerate() {
        for (kk, v) in row.iter_mut().enumerate() {
            let bits = read(da.address((16 * warp + r) as u64, kk as u64, !spec.tnsp_a))?;
            *v = sa * elem(aty, bits as u32)?;
        }
    }
    let mut b = vec![[0f64; 16]; n];
    for (col, bcol) in b.iter_mut().enumerate() {
        for (kk, v) in bcol.iter_mut().enumerate() {
            let bits = read(db.address(col as u64, kk as u64, !spec.tnsp_b))?;
            *v = sb * elem(bty, bits as u32)?;
        }
    }
    let mut out = vec![vec![0u32; regs]; 32];
    for (l, lane_out) in out.iter_mut().enumerate() {
        for i in 0..n / 2 {
            let row = (l >> 2) + 8 * ((i >> 1) & 1);
            let col = 8 * (i >> 2) + 2 * (l & 3) + (i & 1);
            let old = if dty == Ty::F32 { elem(Ty::F32, acc[l][i])? } else { elem(Ty::F16, (acc[l][i / 2] >> (16 * (i % 2))) & 0xffff)? };
            let mut sum = if spec.scale_d { old } else { 0.0 };
            for kk in 0..16 {
                sum += a[row][kk] * b[col][kk];
            }
            let bits = round_to(dty, sum)?;
            if dty == Ty::F32 {
                lane_out[i] = bits;
            } else {
                lane_out[i / 2] |= bits << (16 * (i % 2));
            }
        }
    }
    Ok(out)
}
