//! Matrix products as data: a [`GemmSpec`] is what a `ThunkSpec::Gemm`
//! carries (the GPU floor's dots that go to cuBLAS), the mapping of its
//! row-major operands onto BLAS's column-major call ([`ColumnMajorGemm`]),
//! and reference implementations of both (the CPU's gemm thunk, and what the
//! mapping is tested against).
//!
//! Every array is row-major. Per batch `b`:
//! `out[b] (m×n) = op(lhs[b]) (m×k) · op(rhs[b]) (k×n)`, where `lhs[b]` is
//! stored `m×k` (or `k×m` when `transpose_lhs`) starting at element
//! `b · lhs_batch_stride`, `rhs[b]` is `k×n` (or `n×k` when `transpose_rhs`)
//! at `b · rhs_batch_stride` (a stride of 0 shares one matrix between all
//! batches), and `out[b]` is contiguous at `b · m · n`.
//!
//! cuBLAS is column-major: a row-major `r×c` matrix is, read column-major,
//! its transpose. So row-major `C = A·B` is column-major `Cᵀ = Bᵀ·Aᵀ`:
//! `gemm(B, A)` with m and n swapped, the operands' own transposes kept
//! (see [`GemmSpec::column_major`]).

use serde::{Deserialize, Serialize};

use crate::buffer::BufferSlice;
use crate::npy::ElementType;

/// One (batched) matrix product; see the module docs for the layout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GemmSpec {
    /// Of the operands and the result: `F32`, `F64`, `F16` or `Bf16`
    /// (half types accumulate in f32).
    pub element_type: ElementType,
    pub lhs: BufferSlice,
    pub rhs: BufferSlice,
    pub out: BufferSlice,
    pub shape: GemmShape,
    /// How an f32 product is computed.
    pub compute: GemmCompute,
}

/// How the library computes an f32 gemm (other types ignore it): in full
/// FP32 (`CUBLAS_COMPUTE_32F`), or on TF32 tensor cores
/// (`CUBLAS_COMPUTE_32F_FAST_TF32`: each operand element rounded to 10
/// mantissa bits, products summed in f32), which is what XLA:GPU does with
/// an f32 dot of precision `DEFAULT` on sm_80 and later; `HIGH` and
/// `HIGHEST` keep FP32 (cuBLAS has no 3×TF32).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum GemmCompute {
    #[default]
    Fp32,
    Tf32,
}

/// `x` as a TF32 tensor core reads it: the low 13 mantissa bits rounded
/// away, to nearest with ties away from zero (`cvt.rna.tf32.f32`); NaN and
/// infinities unchanged.
pub fn tf32(x: f32) -> f32 {
    if !x.is_finite() {
        return x;
    }
    f32::from_bits(x.to_bits().wrapping_add(0x1000) & 0xFFFF_E000)
}

/// The shape of a row-major batched gemm: what the compiler's
/// `#floors.library_call` attribute holds, field for field (the compiler
/// builds this type from it), and the runtime's [`GemmSpec`] adds the
/// element type and buffers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GemmShape {
    pub batch: u64,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    /// `lhs` is stored `k×m` per batch.
    pub transpose_lhs: bool,
    /// `rhs` is stored `n×k` per batch.
    pub transpose_rhs: bool,
    /// Elements between batches of `lhs` (0: one matrix for every batch).
    pub lhs_batch_stride: u64,
    /// Elements between batches of `rhs` (0: one matrix for every batch).
    pub rhs_batch_stride: u64,
}

impl GemmShape {
    /// Contiguous operands, no transposes.
    pub fn contiguous(batch: u64, m: u64, n: u64, k: u64) -> Self {
        Self { batch, m, n, k, transpose_lhs: false, transpose_rhs: false, lhs_batch_stride: m * k, rhs_batch_stride: k * n }
    }
}

/// Which row-major operand a column-major argument is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Lhs,
    Rhs,
}

/// The arguments of a column-major (BLAS) strided-batched gemm:
/// `C[b] = op(A[b]) · op(B[b])`, `op(A)` m×k, `op(B)` k×n, C m×n with
/// leading dimension `ldc`; `trans_*` means the stored matrix is the
/// transpose of `op(·)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnMajorGemm {
    pub trans_a: bool,
    pub trans_b: bool,
    pub m: u64,
    pub n: u64,
    pub k: u64,
    pub a: Operand,
    pub lda: u64,
    pub stride_a: u64,
    pub b: Operand,
    pub ldb: u64,
    pub stride_b: u64,
    pub ldc: u64,
    pub stride_c: u64,
    pub batch: u64,
}

impl GemmSpec {
    /// `F32 1x64x64x32 lhsT` (element type, batch×m×n×k, transposes; `TF32`
    /// for an f32 product on TF32 tensor cores): one line for dumps.
    pub fn describe(&self) -> String {
        let tf32 = self.element_type == ElementType::F32 && self.compute == GemmCompute::Tf32;
        format!(
            "{:?}{} {}x{}x{}x{}{}{}",
            self.element_type,
            if tf32 { " TF32" } else { "" },
            self.shape.batch,
            self.shape.m,
            self.shape.n,
            self.shape.k,
            if self.shape.transpose_lhs { " lhsT" } else { "" },
            if self.shape.transpose_rhs { " rhsT" } else { "" }
        )
    }

    /// Contiguous operands, no transposes.
    pub fn contiguous(element_type: ElementType, [lhs, rhs, out]: [BufferSlice; 3], batch: u64, m: u64, n: u64, k: u64) -> Self {
        Self { element_type, lhs, rhs, out, shape: GemmShape::contiguous(batch, m, n, k), compute: GemmCompute::Fp32 }
    }

    /// Elements of the output.
    pub fn out_elements(&self) -> Option<u64> {
        self.shape.batch.checked_mul(self.shape.m)?.checked_mul(self.shape.n)
    }

    /// Checks the element type and that every operand fits its slice (the
    /// output exactly); `Err` says what does not.
    pub fn validate(&self) -> Result<(), String> {
        let elt = match self.element_type {
            ElementType::F32 | ElementType::F64 | ElementType::F16 | ElementType::Bf16 => self.element_type.bytes() as u64,
            t => return Err(format!("gemm of {t:?}: only f32, f64, f16 and bf16 are supported")),
        };
        let need = |stride: u64, rows: u64, cols: u64| -> Option<u64> {
            let one = rows.checked_mul(cols)?;
            if self.shape.batch == 0 || one == 0 {
                return Some(0);
            }
            (self.shape.batch - 1).checked_mul(stride)?.checked_add(one)?.checked_mul(elt)
        };
        let check = |what: &str, slice: &BufferSlice, stride: u64, rows: u64, cols: u64| match need(stride, rows, cols) {
            Some(n) if n <= slice.size => Ok(()),
            Some(n) => Err(format!("gemm {what}: needs {n} bytes, the slice has {}", slice.size)),
            None => Err(format!("gemm {what}: size overflows")),
        };
        check("lhs", &self.lhs, self.shape.lhs_batch_stride, self.shape.m, self.shape.k)?;
        check("rhs", &self.rhs, self.shape.rhs_batch_stride, self.shape.k, self.shape.n)?;
        match self.out_elements().and_then(|e| e.checked_mul(elt)) {
            Some(n) if n == self.out.size => {}
            _ => {
                return Err(format!(
                    "gemm out: {} bytes for {}×{}×{} {:?}",
                    self.out.size, self.shape.batch, self.shape.m, self.shape.n, self.element_type
                ));
            }
        }
        if self.out.overlaps(&self.lhs) || self.out.overlaps(&self.rhs) {
            return Err("gemm out overlaps an operand".into());
        }
        Ok(())
    }

    /// The column-major call that computes this product: `gemm(rhs, lhs)`
    /// with m and n swapped. Row-major `lhs` (m×k, row length k) read
    /// column-major is `lhsᵀ` (k×m, ld k); stored transposed (k×m, row
    /// length m) it is `lhs` itself (m×k, ld m): so BLAS's `trans_b` is
    /// `transpose_lhs`, and likewise for rhs.
    pub fn column_major(&self) -> ColumnMajorGemm {
        ColumnMajorGemm {
            trans_a: self.shape.transpose_rhs,
            trans_b: self.shape.transpose_lhs,
            m: self.shape.n,
            n: self.shape.m,
            k: self.shape.k,
            a: Operand::Rhs,
            lda: if self.shape.transpose_rhs { self.shape.k } else { self.shape.n },
            stride_a: self.shape.rhs_batch_stride,
            b: Operand::Lhs,
            ldb: if self.shape.transpose_lhs { self.shape.m } else { self.shape.k },
            stride_b: self.shape.lhs_batch_stride,
            ldc: self.shape.n,
            stride_c: self.shape.m * self.shape.n,
            batch: self.shape.batch,
        }
    }
}

impl ColumnMajorGemm {
    /// Whether every dimension, leading dimension and count fits cuBLAS's
    /// 32-bit arguments (strides are 64-bit).
    pub fn fits_i32(&self) -> bool {
        [self.m, self.n, self.k, self.lda.max(1), self.ldb.max(1), self.ldc.max(1), self.batch].iter().all(|&v| v <= i32::MAX as u64)
    }
}

/// BLAS's strided-batched gemm on the host, column-major, `beta = 0`: the
/// reference the mapping is checked against, the CPU gemm thunk and the
/// simulated GPU's cuBLAS. Each `c(i, j)` is `Σ_l a(i, l)·b(l, j)` summed in
/// f64 in order of `l` (so the result does not depend on the blocking):
/// `op(A)` is first copied to a contiguous column-major f64 matrix per
/// batch, then the columns of C are computed in parallel (rayon), the inner
/// loop running down a column of A.
pub fn column_major_gemm<T: Copy + Send + Sync>(
    g: &ColumnMajorGemm,
    a: &[T],
    b: &[T],
    c: &mut [T],
    to_f: impl Fn(T) -> f64 + Sync,
    from_f: impl Fn(f64) -> T + Sync,
) {
    use rayon::prelude::*;
    let (m, n, k) = (g.m as usize, g.n as usize, g.k as usize);
    if m == 0 || n == 0 {
        return;
    }
    for batch in 0..g.batch as usize {
        let (ao, bo, co) = (batch * g.stride_a as usize, batch * g.stride_b as usize, batch * g.stride_c as usize);
        let mut at = vec![0f64; m * k];
        for l in 0..k {
            for i in 0..m {
                at[i + l * m] = to_f(if g.trans_a { a[ao + l + i * g.lda as usize] } else { a[ao + i + l * g.lda as usize] });
            }
        }
        let (at, to_f, from_f) = (&at, &to_f, &from_f);
        c[co..].par_chunks_mut(g.ldc as usize).take(n).enumerate().for_each(|(j, col)| {
            let mut acc = vec![0f64; m];
            for l in 0..k {
                let y = to_f(if g.trans_b { b[bo + j + l * g.ldb as usize] } else { b[bo + l + j * g.ldb as usize] });
                for (s, &x) in acc.iter_mut().zip(&at[l * m..(l + 1) * m]) {
                    *s += x * y;
                }
            }
            for (dst, v) in col.iter_mut().zip(acc) {
                *dst = from_f(v);
            }
        });
    }
}

/// The product straight from the row-major definition (the test oracle).
pub fn row_major_gemm_f64(s: &GemmSpec, lhs: &[f64], rhs: &[f64]) -> Vec<f64> {
    let (m, n, k) = (s.shape.m as usize, s.shape.n as usize, s.shape.k as usize);
    let mut out = vec![0.0; s.shape.batch as usize * m * n];
    for b in 0..s.shape.batch as usize {
        let (lo, ro) = (b * s.shape.lhs_batch_stride as usize, b * s.shape.rhs_batch_stride as usize);
        for i in 0..m {
            for j in 0..n {
                let mut acc = 0.0;
                for l in 0..k {
                    let x = if s.shape.transpose_lhs { lhs[lo + l * m + i] } else { lhs[lo + i * k + l] };
                    let y = if s.shape.transpose_rhs { rhs[ro + j * k + l] } else { rhs[ro + l * n + j] };
                    acc += x * y;
                }
                out[b * m * n + i * n + j] = acc;
            }
        }
    }
    out
}

/// Runs `spec` on host bytes through [`column_major_gemm`] (f64 accumulation).
pub fn host_gemm(spec: &GemmSpec, lhs: &[u8], rhs: &[u8], out: &mut [u8]) -> Result<(), String> {
    fn decode<const N: usize>(bytes: &[u8], f: impl Fn([u8; N]) -> f64) -> Vec<f64> {
        bytes.chunks_exact(N).map(|c| f(c.try_into().expect("chunk"))).collect()
    }
    let (lhs, rhs): (Vec<f64>, Vec<f64>) = match spec.element_type {
        ElementType::F32 => (decode(lhs, |b| f32::from_le_bytes(b) as f64), decode(rhs, |b| f32::from_le_bytes(b) as f64)),
        ElementType::F64 => (decode(lhs, f64::from_le_bytes), decode(rhs, f64::from_le_bytes)),
        ElementType::F16 => {
            let f = |b| half::f16::from_le_bytes(b).to_f64();
            (decode(lhs, f), decode(rhs, f))
        }
        ElementType::Bf16 => {
            let f = |b| half::bf16::from_le_bytes(b).to_f64();
            (decode(lhs, f), decode(rhs, f))
        }
        t => return Err(format!("gemm of {t:?}")),
    };
    let g = spec.column_major();
    let (a, b) = (&rhs, &lhs);
    let mut c = vec![0.0f64; spec.out_elements().unwrap_or(0) as usize];
    column_major_gemm(&g, a, b, &mut c, |x| x, |x| x);
    let chunk = spec.element_type.bytes();
    for (dst, v) in out.chunks_exact_mut(chunk).zip(c) {
        match spec.element_type {
            ElementType::F32 => dst.copy_from_slice(&(v as f32).to_le_bytes()),
            ElementType::F64 => dst.copy_from_slice(&v.to_le_bytes()),
            ElementType::F16 => dst.copy_from_slice(&half::f16::from_f64(v).to_le_bytes()),
            _ => dst.copy_from_slice(&half::bf16::from_f64(v).to_le_bytes()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(batch: u64, m: u64, n: u64, k: u64, tl: bool, tr: bool, broadcast_rhs: bool) -> GemmSpec {
        let s = |a, n| BufferSlice::new(a, 0, n * 4);
        let rhs_stride = if broadcast_rhs { 0 } else { k * n };
        GemmSpec {
            element_type: ElementType::F32,
            lhs: s(0, batch * m * k),
            rhs: s(1, if broadcast_rhs { k * n } else { batch * k * n }),
            out: s(2, batch * m * n),
            shape: GemmShape {
                batch,
                m,
                n,
                k,
                transpose_lhs: tl,
                transpose_rhs: tr,
                lhs_batch_stride: m * k,
                rhs_batch_stride: rhs_stride,
            },
            compute: GemmCompute::Fp32,
        }
    }

    #[test]
    fn tf32_rounds_to_ten_mantissa_bits_ties_away() {
        assert_eq!(tf32(1.0), 1.0);
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: away from zero.
        assert_eq!(tf32(1.0 + 2f32.powi(-11)), 1.0 + 2f32.powi(-10));
        assert_eq!(tf32(-(1.0 + 2f32.powi(-11))), -(1.0 + 2f32.powi(-10)));
        assert_eq!(tf32(1.0 + 2f32.powi(-12)), 1.0);
        assert_eq!(tf32(f32::MAX), f32::INFINITY);
        assert!(tf32(f32::NAN).is_nan());
        assert_eq!(tf32(f32::NEG_INFINITY), f32::NEG_INFINITY);
    }

    fn values(n: u64, seed: u64) -> Vec<f64> {
        (0..n).map(|i| (((i * 7 + seed * 13) % 17) as f64 - 8.0) / 4.0).collect()
    }

    /// The column-major call through the reference BLAS gives the row-major product.
    #[test]
    fn column_major_mapping_matches_the_row_major_product() {
        for &(batch, m, n, k) in &[(1, 1, 1, 1), (1, 2, 3, 4), (3, 5, 2, 7), (2, 4, 4, 1), (1, 7, 1, 3), (4, 1, 6, 5)] {
            for tl in [false, true] {
                for tr in [false, true] {
                    for bc in [false, true] {
                        let s = spec(batch, m, n, k, tl, tr, bc);
                        s.validate().unwrap();
                        let lhs = values(batch * m * k, 1);
                        let rhs = values(if bc { k * n } else { batch * k * n }, 2);
                        let want = row_major_gemm_f64(&s, &lhs, &rhs);
                        let g = s.column_major();
                        assert_eq!((g.a, g.b), (Operand::Rhs, Operand::Lhs));
                        let mut got = vec![f64::NAN; want.len()];
                        column_major_gemm(&g, &rhs, &lhs, &mut got, |x| x, |x| x);
                        assert_eq!(got, want, "batch {batch} m {m} n {n} k {k} tl {tl} tr {tr} broadcast {bc}");
                    }
                }
            }
        }
    }

    #[test]
    fn column_major_arguments() {
        // 2×3 · 3×4: column-major 4×2 = (4×3)·(3×2), ld of B (=rhs) is n.
        let g = spec(1, 2, 4, 3, false, false, false).column_major();
        assert_eq!((g.m, g.n, g.k, g.lda, g.ldb, g.ldc), (4, 2, 3, 4, 3, 4));
        assert!(!g.trans_a && !g.trans_b);
        // Transposed operands keep their transposes, with ld their stored row length.
        let g = spec(5, 2, 4, 3, true, true, true).column_major();
        assert_eq!((g.trans_a, g.trans_b, g.lda, g.ldb), (true, true, 3, 2));
        assert_eq!((g.stride_a, g.stride_b, g.stride_c, g.batch), (0, 6, 8, 5));
        assert!(g.fits_i32());
    }

    #[test]
    fn host_gemm_f32_and_bf16() {
        let s = spec(2, 3, 2, 4, false, true, false);
        let lhs = values(24, 3);
        let rhs = values(16, 4);
        let want = row_major_gemm_f64(&s, &lhs, &rhs);
        let enc = |v: &[f64]| v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect::<Vec<u8>>();
        let mut out = vec![0u8; 12 * 4];
        host_gemm(&s, &enc(&lhs), &enc(&rhs), &mut out).unwrap();
        let got: Vec<f64> = out.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64).collect();
        assert_eq!(got, want);
        let mut b = s.clone();
        b.element_type = ElementType::Bf16;
        b.lhs.size /= 2;
        b.rhs.size /= 2;
        b.out.size /= 2;
        b.validate().unwrap();
        let enc = |v: &[f64]| v.iter().flat_map(|&x| half::bf16::from_f64(x).to_le_bytes()).collect::<Vec<u8>>();
        let mut out = vec![0u8; 12 * 2];
        host_gemm(&b, &enc(&lhs), &enc(&rhs), &mut out).unwrap();
        let got: Vec<f64> = out.chunks_exact(2).map(|c| half::bf16::from_le_bytes(c.try_into().unwrap()).to_f64()).collect();
        assert_eq!(got, want, "small quarter-step values are exact in bf16");
    }

    #[test]
    fn validation_names_the_operand() {
        let mut s = spec(2, 3, 2, 4, false, false, false);
        s.rhs.size -= 4;
        assert!(s.validate().unwrap_err().contains("gemm rhs: needs 64 bytes, the slice has 60"));
        let mut s = spec(1, 2, 2, 2, false, false, false);
        s.element_type = ElementType::I32;
        assert!(s.validate().unwrap_err().contains("only f32"));
        let mut s = spec(1, 2, 2, 2, false, false, false);
        s.out = s.lhs;
        assert!(s.validate().is_err());
    }
}
