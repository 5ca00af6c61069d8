//! `stablehlo.fft` on the host: XLA:CPU's FFT thunk (there over DUCC),
//! here over `rustfft`, which is O(n log n) for every length (mixed radix,
//! Rader and Bluestein for primes). The compiler turns each `stablehlo.fft`
//! into `custom_call @floors.fft` (`floors-hlo-fft-to-call`); the built-in
//! handler [`execute`] computes it on the call's buffers.
//!
//! Semantics (StableHLO spec): with `L = fft_length` of rank 1–3, the
//! transform is over the last `len(L)` dimensions, every leading dimension a
//! batch.
//! - `FFT`: complex → complex, forward (`exp(-2πi jk/n)`), unnormalized.
//! - `IFFT`: complex → complex, inverse, scaled by `1/∏L`.
//! - `RFFT`: real → complex; the last dimension of the result is
//!   `L[-1]/2 + 1` (the non-redundant half), the others full.
//! - `IRFFT`: complex (last dimension `L[-1]/2 + 1`) → real of dims `L`:
//!   the inverse over the leading transformed dimensions, then the
//!   Hermitian extension along the last one (the imaginary parts of its
//!   first and, for even lengths, middle bins are dropped, as a real inverse
//!   does), scaled by `1/∏L`.
//!
//! complex64/f32 are computed in f32, complex128/f64 in f64, as XLA does.

use std::sync::Arc;

use rustfft::num_complex::Complex;
use rustfft::{Fft, FftNum, FftPlanner};

use crate::ffi::{CallFrame, FfiError};
use crate::npy::ElementType;

/// The built-in target `stablehlo.fft` becomes.
pub const TARGET: &str = "floors.fft";

/// Which transform (the spec's `fft_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FftType {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}

impl FftType {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "FFT" => Self::Fft,
            "IFFT" => Self::Ifft,
            "RFFT" => Self::Rfft,
            "IRFFT" => Self::Irfft,
            _ => return None,
        })
    }
}

/// Applies a 1-D transform of length `dims[axis]` along `axis` of the
/// row-major array `data` of shape `dims`, in place.
fn along<T: FftNum>(data: &mut [Complex<T>], dims: &[usize], axis: usize, fft: &Arc<dyn Fft<T>>) {
    let n = dims[axis];
    if n <= 1 || data.is_empty() {
        return;
    }
    let inner: usize = dims[axis + 1..].iter().product();
    let outer: usize = dims[..axis].iter().product();
    let mut scratch = vec![Complex::new(T::zero(), T::zero()); fft.get_inplace_scratch_len()];
    if inner == 1 {
        // Contiguous rows: one batched call.
        fft.process_with_scratch(data, &mut scratch);
        return;
    }
    let mut line = vec![Complex::new(T::zero(), T::zero()); n];
    for o in 0..outer {
        let base = o * n * inner;
        for i in 0..inner {
            for (k, x) in line.iter_mut().enumerate() {
                *x = data[base + k * inner + i];
            }
            fft.process_with_scratch(&mut line, &mut scratch);
            for (k, x) in line.iter().enumerate() {
                data[base + k * inner + i] = *x;
            }
        }
    }
}

/// The transform of `input` (shape `in_dims`) into `out` (shape
/// `out_dims`), both row-major, on the last `len` dimensions.
fn transform<T: FftNum>(
    kind: FftType,
    input: &[Complex<T>],
    in_dims: &[usize],
    out: &mut [Complex<T>],
    out_dims: &[usize],
    lengths: &[usize],
) {
    let rank = in_dims.len();
    let first = rank - lengths.len();
    let mut planner = FftPlanner::<T>::new();
    let zero = Complex::new(T::zero(), T::zero());
    match kind {
        FftType::Fft | FftType::Ifft => {
            out.copy_from_slice(input);
            for axis in first..rank {
                let plan =
                    if kind == FftType::Fft { planner.plan_fft_forward(in_dims[axis]) } else { planner.plan_fft_inverse(in_dims[axis]) };
                along(out, in_dims, axis, &plan);
            }
            if kind == FftType::Ifft {
                scale(out, lengths);
            }
        }
        FftType::Rfft => {
            // The full complex transform of the real input, then the first
            // n/2 + 1 bins of the last axis (the rest are their conjugates).
            let mut full = input.to_vec();
            for axis in first..rank {
                let plan = planner.plan_fft_forward(in_dims[axis]);
                along(&mut full, in_dims, axis, &plan);
            }
            let (n, h) = (in_dims[rank - 1], out_dims[rank - 1]);
            for (row, dst) in out.chunks_exact_mut(h.max(1)).enumerate() {
                dst.copy_from_slice(&full[row * n..row * n + h]);
            }
        }
        FftType::Irfft => {
            // The inverse over the leading transformed axes on the half
            // spectrum, then the Hermitian extension of the last axis and its
            // inverse; the real parts are the result.
            let mut half = input.to_vec();
            for axis in first..rank - 1 {
                let plan = planner.plan_fft_inverse(in_dims[axis]);
                along(&mut half, in_dims, axis, &plan);
            }
            let (h, n) = (in_dims[rank - 1], out_dims[rank - 1]);
            let plan = planner.plan_fft_inverse(n);
            let mut line = vec![zero; n];
            let mut scratch = vec![zero; plan.get_inplace_scratch_len()];
            for (row, dst) in out.chunks_exact_mut(n.max(1)).enumerate() {
                let src = &half[row * h..(row + 1) * h];
                for (k, x) in line.iter_mut().enumerate() {
                    *x = if k < h && k <= n / 2 { src[k] } else { src.get(n - k).map(|c| c.conj()).unwrap_or(zero) };
                }
                // A real signal's first (and even-length middle) bin is real.
                line[0].im = T::zero();
                if n % 2 == 0 && n / 2 < h {
                    line[n / 2] = Complex::new(src[n / 2].re, T::zero());
                }
                if n > 0 {
                    plan.process_with_scratch(&mut line, &mut scratch);
                }
                dst.copy_from_slice(&line);
            }
            scale(out, lengths);
        }
    }
}

fn scale<T: FftNum>(data: &mut [Complex<T>], lengths: &[usize]) {
    let n: usize = lengths.iter().product();
    if n > 1 {
        let s = T::one() / T::from_usize(n).expect("a length is a float");
        data.iter_mut().for_each(|x| *x = *x * s);
    }
}

fn read<T: FftNum, const N: usize>(bytes: &[u8], complex: bool, parse: fn([u8; N]) -> T) -> Vec<Complex<T>> {
    let part = |c: &[u8]| parse(c.try_into().expect("a chunk of the part size"));
    if complex {
        bytes.chunks_exact(2 * N).map(|c| Complex::new(part(&c[..N]), part(&c[N..]))).collect()
    } else {
        bytes.chunks_exact(N).map(|c| Complex::new(part(c), T::zero())).collect()
    }
}

fn write<T: FftNum, const N: usize>(values: &[Complex<T>], out: &mut [u8], complex: bool, bytes: fn(T) -> [u8; N]) {
    if complex {
        for (c, v) in out.chunks_exact_mut(2 * N).zip(values) {
            c[..N].copy_from_slice(&bytes(v.re));
            c[N..].copy_from_slice(&bytes(v.im));
        }
    } else {
        for (c, v) in out.chunks_exact_mut(N).zip(values) {
            c.copy_from_slice(&bytes(v.re));
        }
    }
}

/// Checks the types and shapes of one call against the spec; the transform's
/// working shapes (input, output).
pub fn check(
    kind: FftType,
    in_type: ElementType,
    in_dims: &[usize],
    out_type: ElementType,
    out_dims: &[usize],
    lengths: &[usize],
) -> Result<(), String> {
    let l = lengths.len();
    if !(1..=3).contains(&l) || l > in_dims.len() || in_dims.len() != out_dims.len() {
        return Err(format!("fft_length {lengths:?} must have 1 to 3 entries, at most the operand's rank {}", in_dims.len()));
    }
    let part = |t: ElementType| match t {
        ElementType::C64 | ElementType::F32 => Some(32),
        ElementType::C128 | ElementType::F64 => Some(64),
        _ => None,
    };
    let (want_in, want_out) = match kind {
        FftType::Fft | FftType::Ifft => (true, true),
        FftType::Rfft => (false, true),
        FftType::Irfft => (true, false),
    };
    if in_type.is_complex() != want_in || out_type.is_complex() != want_out || part(in_type).is_none() || part(in_type) != part(out_type) {
        return Err(format!("{kind:?} does not take {} to {}", in_type.mlir_name(), out_type.mlir_name()));
    }
    let r = in_dims.len();
    let batch_ok = in_dims[..r - l] == out_dims[..r - l];
    let (tin, tout) = (&in_dims[r - l..], &out_dims[r - l..]);
    let last = lengths[l - 1];
    let ok = match kind {
        FftType::Fft | FftType::Ifft => tin == lengths && tout == lengths,
        FftType::Rfft => tin == lengths && tout[..l - 1] == lengths[..l - 1] && tout[l - 1] == last / 2 + 1,
        FftType::Irfft => tout == lengths && tin[..l - 1] == lengths[..l - 1] && tin[l - 1] == last / 2 + 1,
    };
    if !batch_ok || !ok {
        return Err(format!("{kind:?} with fft_length {lengths:?} does not take shape {in_dims:?} to {out_dims:?}"));
    }
    Ok(())
}

/// The built-in handler of [`TARGET`]: attributes `fft_type` (a string) and
/// `fft_length` (i64 array).
pub fn execute(frame: &CallFrame<'_>) -> Result<(), FfiError> {
    let kind_name: String = frame.attr("fft_type")?;
    let kind = FftType::parse(&kind_name)
        .ok_or_else(|| FfiError::invalid_argument(format!("fft_type `{kind_name}` is not FFT, IFFT, RFFT or IRFFT")))?;
    let lengths: Vec<i64> = frame.attr("fft_length")?;
    if frame.num_args() != 1 || frame.num_rets() != 1 {
        return Err(FfiError::invalid_argument("an fft takes one operand and gives one result"));
    }
    let (i, o) = (frame.arg_info(0)?, frame.ret_info(0)?);
    let ty = |b: &crate::ffi::BufferInfo<'_>| {
        b.data_type()
            .and_then(|d| ElementType::from_mlir_name(d.mlir_name()))
            .ok_or_else(|| FfiError::invalid_argument(format!("an fft buffer of type {}", b.describe())))
    };
    let (it, ot) = (ty(&i)?, ty(&o)?);
    let dims = |d: &[i64]| d.iter().map(|&x| x.max(0) as usize).collect::<Vec<_>>();
    let (in_dims, out_dims) = (dims(i.dims), dims(o.dims));
    let lengths: Vec<usize> = lengths.iter().map(|&x| x.max(0) as usize).collect();
    check(kind, it, &in_dims, ot, &out_dims, &lengths).map_err(FfiError::invalid_argument)?;
    let input = frame.arg_bytes(0)?;
    let out = frame.ret_bytes(0)?;
    let out_count: usize = out_dims.iter().product();
    if matches!(it, ElementType::C64 | ElementType::F32) {
        let x = read::<f32, 4>(input, it.is_complex(), f32::from_le_bytes);
        let mut y = vec![Complex::new(0.0f32, 0.0); out_count];
        transform(kind, &x, &in_dims, &mut y, &out_dims, &lengths);
        write::<f32, 4>(&y, out, ot.is_complex(), f32::to_le_bytes);
    } else {
        let x = read::<f64, 8>(input, it.is_complex(), f64::from_le_bytes);
        let mut y = vec![Complex::new(0.0f64, 0.0); out_count];
        transform(kind, &x, &in_dims, &mut y, &out_dims, &lengths);
        write::<f64, 8>(&y, out, ot.is_complex(), f64::to_le_bytes);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The O(n²) definition, in f64.
    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                x.iter().enumerate().fold(Complex::new(0.0, 0.0), |acc, (j, v)| {
                    let a = sign * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64;
                    acc + v * Complex::new(a.cos(), a.sin())
                })
            })
            .collect()
    }

    fn close(a: &[Complex<f64>], b: &[Complex<f64>]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).norm() < 1e-9 * (1.0 + y.norm()), "{x} vs {y}");
        }
    }

    fn signal(n: usize) -> Vec<Complex<f64>> {
        (0..n).map(|i| Complex::new((i as f64 * 0.37).sin() + 0.1 * i as f64, (i as f64 * 1.3).cos())).collect()
    }

    #[test]
    fn every_kind_matches_the_definition_on_prime_and_composite_lengths() {
        for n in [1usize, 2, 3, 5, 8, 12, 17, 31, 64] {
            let x = signal(n);
            let mut y = vec![Complex::new(0.0, 0.0); n];
            transform(FftType::Fft, &x, &[n], &mut y, &[n], &[n]);
            close(&y, &dft(&x, false));
            transform(FftType::Ifft, &x, &[n], &mut y, &[n], &[n]);
            close(&y, &dft(&x, true).iter().map(|v| v / n as f64).collect::<Vec<_>>());
            // RFFT of the real parts: the first n/2 + 1 bins.
            let real: Vec<_> = x.iter().map(|v| Complex::new(v.re, 0.0)).collect();
            let mut half = vec![Complex::new(0.0, 0.0); n / 2 + 1];
            transform(FftType::Rfft, &real, &[n], &mut half, &[n / 2 + 1], &[n]);
            close(&half, &dft(&real, false)[..n / 2 + 1]);
            // IRFFT inverts it.
            let mut back = vec![Complex::new(0.0, 0.0); n];
            transform(FftType::Irfft, &half, &[n / 2 + 1], &mut back, &[n], &[n]);
            close(&back, &real);
        }
    }

    #[test]
    fn two_dimensional_transforms_with_a_batch() {
        // [2 batch, 3, 4]: FFT over the last two = DFT of rows then of columns.
        let (b, r, c) = (2, 3, 4);
        let x = signal(b * r * c);
        let mut y = vec![Complex::new(0.0, 0.0); x.len()];
        transform(FftType::Fft, &x, &[b, r, c], &mut y, &[b, r, c], &[r, c]);
        for bi in 0..b {
            let mut want = x[bi * r * c..(bi + 1) * r * c].to_vec();
            for i in 0..r {
                let row = dft(&want[i * c..(i + 1) * c], false);
                want[i * c..(i + 1) * c].copy_from_slice(&row);
            }
            for j in 0..c {
                let col: Vec<_> = (0..r).map(|i| want[i * c + j]).collect();
                for (i, v) in dft(&col, false).into_iter().enumerate() {
                    want[i * c + j] = v;
                }
            }
            close(&y[bi * r * c..(bi + 1) * r * c], &want);
        }
        // RFFT then IRFFT over both axes is the identity on real input.
        let real: Vec<_> = x.iter().map(|v| Complex::new(v.re, 0.0)).collect();
        let mut half = vec![Complex::new(0.0, 0.0); b * r * (c / 2 + 1)];
        transform(FftType::Rfft, &real, &[b, r, c], &mut half, &[b, r, c / 2 + 1], &[r, c]);
        let mut back = vec![Complex::new(0.0, 0.0); real.len()];
        transform(FftType::Irfft, &half, &[b, r, c / 2 + 1], &mut back, &[b, r, c], &[r, c]);
        close(&back, &real);
    }

    #[test]
    fn shapes_and_types_are_checked() {
        use ElementType::*;
        assert!(check(FftType::Rfft, F32, &[4, 8], C64, &[4, 5], &[8]).is_ok());
        assert!(check(FftType::Rfft, F32, &[4, 8], C64, &[4, 8], &[8]).unwrap_err().contains("does not take shape"));
        assert!(check(FftType::Fft, F32, &[8], C64, &[8], &[8]).unwrap_err().contains("does not take f32"));
        assert!(check(FftType::Irfft, C128, &[3, 5], F32, &[3, 8], &[3, 8]).is_err());
        assert!(check(FftType::Fft, C64, &[2, 2, 2, 2], C64, &[2, 2, 2, 2], &[2, 2, 2, 2]).unwrap_err().contains("1 to 3"));
    }
}
