"""Complex numbers and FFTs on floors' CPU floor, against XLA:CPU:
complex64/complex128 arithmetic and functions, reductions, dots, data
movement, conversions, sorts and linalg on complex values; `jnp.fft` of
every kind (FFT, IFFT, RFFT, IRFFT) in 1–3 dimensions, batched, at prime,
odd and power-of-two lengths, in both precisions.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax


def _on(dev, f, *args):
    return [np.asarray(x) for x in jax.tree.leaves(jax.jit(f)(*jax.device_put(args, dev)))]


def _close(f, args, devices, rtol=2e-5):
    floors, cpu = devices
    got, want = _on(floors, f, *args), _on(cpu, f, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        tol = 1e-12 if g.dtype in (np.float64, np.complex128) else rtol
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1.0, float(np.max(np.abs(w), initial=0))), equal_nan=True)


def _complex(shape, dtype=np.complex64, seed=0):
    r = np.random.default_rng(seed)
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)


ELEMENTWISE = {
    "add": lambda x: x + x * 2j,
    "mul": lambda x: x * x,
    "div": lambda x: x / (x + 1),
    "neg": lambda x: -x,
    "exp": jnp.exp,
    "log": jnp.log,
    "sqrt": jnp.sqrt,
    "rsqrt": lax.rsqrt,
    "abs": jnp.abs,
    "angle": jnp.angle,
    "real_imag": lambda x: (jnp.real(x), jnp.imag(x)),
    "conj": jnp.conj,
    "sin_cos": lambda x: (jnp.sin(x), jnp.cos(x)),
    "tan_tanh": lambda x: (jnp.tan(x), jnp.tanh(x)),
    "expm1_log1p": lambda x: (jnp.expm1(x), jnp.log1p(x)),
    "pow": lambda x: x ** (0.5 + 0.5j),
    "sign": jnp.sign,
    "eq_ne": lambda x: (x == x[0], x != x[::-1]),
    "isfinite_isnan": lambda x: (jnp.isfinite(x), jnp.isnan(x)),
    "where": lambda x: jnp.where(x.real > 0, x, 1j),
    "mixed_real": lambda x: x * jnp.arange(x.shape[-1], dtype=x.real.dtype),
    "from_real": lambda x: jnp.real(x).astype(x.dtype) + 1j,
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_complex64_elementwise(devices, name):
    _close(ELEMENTWISE[name], (_complex((4, 5)),), devices)


def test_complex_special_values(devices):
    v = np.array([0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 1e30], np.float32)
    x = np.empty((len(v), len(v)), np.complex64)
    x.real, x.imag = v[:, None], v[None, :]
    x = x.ravel()
    # Arithmetic, and functions whose special values both sides take from the
    # same formulas: NaN where either gives NaN, the same numbers elsewhere.
    _close(lambda x: (x + 1, x * 2, -x, jnp.real(x), jnp.imag(x), jnp.conj(x), x == x, jnp.isfinite(x)), (x,), devices)


REDUCE_AND_MOVE = {
    "sum": lambda x: (x.sum(), x.sum(0), x.sum(1)),
    "prod": lambda x: jnp.prod(x, 1),
    "mean": lambda x: x.mean(1),
    "dot": lambda x: x @ x.T,
    "vdot": lambda x: jnp.vdot(x, x),
    "einsum": lambda x: jnp.einsum("ij,kj->ik", x, x.conj()),
    "matvec": lambda x: x @ x[0],
    "transpose_reshape": lambda x: (x.T, x.reshape(-1, 2)),
    "concat_pad_slice": lambda x: (jnp.concatenate([x, x], 1), jnp.pad(x, 1), x[1:3, ::2]),
    "roll_flip": lambda x: (jnp.roll(x, 2), x[::-1]),
    "cumsum": lambda x: jnp.cumsum(x, 1),
    "gather": lambda x: x.ravel()[jnp.array([3, 1, 7])],
    "scatter": lambda x: (x.at[1].set(3 + 4j), x.at[jnp.array([0, 0, 2])].add(1j)),
    "sort": lambda x: jnp.sort(x.ravel()),
    "norm": lambda x: jnp.linalg.norm(x),
    "while": lambda x: lax.fori_loop(0, 3, lambda i, c: c * (1 + 0.5j) + x, x),
    "iota": lambda x: (lax.iota(x.dtype, 4) * x[0], lax.broadcasted_iota(x.dtype, x.shape, 1) + x),
}


@pytest.mark.parametrize("name", sorted(REDUCE_AND_MOVE))
def test_complex64_reductions_dots_and_movement(devices, name):
    _close(REDUCE_AND_MOVE[name], (_complex((4, 4)),), devices, rtol=1e-5)


def test_complex_conversions(devices):
    x = _complex((6,))
    _close(lambda x: (x.astype(jnp.complex64) * 2, jnp.real(x).astype(jnp.int32), jnp.arange(6).astype(jnp.complex64)), (x,), devices)


def test_complex_gradients(devices):
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    _close(jax.grad(lambda z: jnp.sum(jnp.abs(jnp.exp(z * (1 + 1j))) ** 2)), (x,), devices, rtol=1e-4)
    _close(jax.grad(lambda z: jnp.real(jnp.sum(z * jnp.conj(z) * jnp.sin(z)))), (_complex((5,)),), devices, rtol=1e-4)


def test_complex_linalg(devices):
    a = _complex((4, 4))
    _close(lambda a: (jnp.linalg.inv(a), jnp.linalg.det(a), jnp.linalg.svd(a, compute_uv=False)), (a,), devices, rtol=1e-4)
    _close(lambda a: jnp.linalg.eigvalsh(a @ a.conj().T + 4 * jnp.eye(4)), (a,), devices, rtol=1e-4)
    _close(lambda a: jnp.sort(jnp.linalg.eigvals(a.real)), (a,), devices, rtol=1e-4)


FFTS = {
    "fft": lambda x: jnp.fft.fft(x),
    "ifft": lambda x: jnp.fft.ifft(x),
    "rfft": lambda x: jnp.fft.rfft(x.real),
    "irfft": lambda x: jnp.fft.irfft(x),
    "irfft_n": lambda x: jnp.fft.irfft(x, n=2 * x.shape[-1] - 1),
    "fft2": lambda x: jnp.fft.fft2(x),
    "ifft2": lambda x: jnp.fft.ifft2(x),
    "rfft2": lambda x: jnp.fft.rfft2(x.real),
    "irfft2": lambda x: jnp.fft.irfft2(x),
    "fftn3": lambda x: jnp.fft.fftn(jnp.stack([x, 2 * x, x * 1j])),
    "fft_axis0": lambda x: jnp.fft.fft(x, axis=0),
    "ortho": lambda x: jnp.fft.fft(x, norm="ortho"),
    "fftshift": lambda x: jnp.fft.fftshift(jnp.fft.fft(x)),
}


@pytest.mark.parametrize("n", [1, 7, 12, 16, 97])
@pytest.mark.parametrize("name", sorted(FFTS))
def test_fft_matches_xla_cpu(devices, name, n):
    _close(FFTS[name], (_complex((6, n), seed=n),), devices, rtol=2e-4)


def test_fft_against_numpy_in_f64_reference(devices):
    """The same transforms against NumPy's (pocketfft, in f64)."""
    floors, _ = devices
    x = _complex((3, 50), seed=3)
    for f, ref in ((jnp.fft.fft, np.fft.fft), (jnp.fft.ifft, np.fft.ifft)):
        got = _on(floors, f, x)[0]
        np.testing.assert_allclose(got, ref(x.astype(np.complex128)), rtol=1e-4, atol=1e-4)
    got = _on(floors, jnp.fft.rfft, x.real)[0]
    np.testing.assert_allclose(got, np.fft.rfft(x.real.astype(np.float64)), rtol=1e-4, atol=1e-4)


def test_a_large_prime_fft_is_not_quadratic(devices):
    """A prime length of 100,003 through Bluestein's algorithm (a DFT would
    take ~10^10 operations): correct against NumPy."""
    floors, _ = devices
    x = _complex((100_003,), seed=5)
    got = _on(floors, jnp.fft.fft, x)[0]
    want = np.fft.fft(x.astype(np.complex128))
    assert np.max(np.abs(got - want)) / np.max(np.abs(want)) < 1e-4


def test_complex128_and_f64_ffts(devices):
    with jax.enable_x64(True):
        x = _complex((5, 9), np.complex128, seed=9)
        _close(lambda x: (jnp.exp(x) / (x + 2), jnp.abs(x), x @ x.T, jnp.log1p(x), x.astype(jnp.complex64)), (x,), devices)
        _close(lambda x: (jnp.fft.fft(x), jnp.fft.irfft(x), jnp.fft.rfft2(x.real), jnp.fft.ifftn(x)), (x,), devices)
        f, _ = devices
        got = _on(f, jnp.fft.fft, x)[0]
        assert got.dtype == np.complex128
        np.testing.assert_allclose(got, np.fft.fft(x), rtol=1e-12, atol=1e-12)
