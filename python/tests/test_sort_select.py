"""Sorts and top-k on floors through the PJRT plugin, bit-exact against
XLA:CPU: ties (stability), NaNs of both signs, ±0.0, ±inf, integers of every
width at their extremes, several operands sorted by one or two keys, every
dimension of a 3-D array, and the sizes where a merge sort's runs are ragged.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax


def _on(dev, f, *args):
    return [np.asarray(x) for x in jax.tree.leaves(jax.jit(f)(*jax.device_put(args, dev)))]


def _bits(x):
    x = np.asarray(x)
    if x.dtype.kind == "f" or x.dtype == jnp.bfloat16:
        return x.view(f"u{x.dtype.itemsize}")
    return x


def _same(f, args, devices):
    floors, cpu = devices
    got, want = _on(floors, f, *args), _on(cpu, f, *args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(_bits(g), _bits(w))


def _floats(n, dtype=np.float32, seed=0):
    r = np.random.default_rng(seed)
    x = r.integers(-4, 4, n).astype(np.float32)  # many ties
    for v, frac in ((np.nan, 8), (-0.0, 8), (0.0, 8), (np.inf, 16), (-np.inf, 16)):
        x[r.integers(0, n, max(1, n // frac))] = v
    x[r.integers(0, n, max(1, n // 16))] = -np.nan
    return x.astype(dtype)


FLOATS = [np.float32, np.float64, np.float16, jnp.bfloat16]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("n", [2, 3, 17, 64, 1000, 4097])
@pytest.mark.parametrize("dtype", FLOATS)
def test_sort_and_argsort_floats(devices, n, dtype):
    x = _floats(n, dtype, seed=n)
    _same(lambda x: (jnp.sort(x), jnp.argsort(x), jnp.argsort(x, descending=True)), (x,), devices)


def _int_extremes(dtype):
    """301 integers of `dtype` over its whole range, its maximum and minimum
    seven times each (ties); booleans at random."""
    r = np.random.default_rng(1)
    if dtype == np.bool_:
        return r.integers(0, 2, 301).astype(bool)
    info = np.iinfo(dtype)
    x = r.integers(info.min, info.max, 301, dtype=dtype, endpoint=True)
    x[:7], x[7:14] = info.max, info.min
    return x


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
def test_sort_integers_at_their_extremes(devices, dtype):
    _same(lambda x: (jnp.sort(x), jnp.argsort(x), jnp.argsort(x, descending=True)), (_int_extremes(dtype),), devices)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_sort_every_dimension(devices, axis):
    x = _floats(5 * 33 * 7).reshape(5, 33, 7)
    _same(lambda x: (jnp.sort(x, axis=axis), jnp.argsort(x, axis=axis)), (x,), devices)


def test_several_operands_two_keys(devices):
    r = np.random.default_rng(2)
    a = r.integers(0, 3, 257).astype(np.int32)
    b = _floats(257)
    c = r.normal(size=257).astype(np.float32)
    _same(lambda a, b, c: lax.sort((a, b, c, jnp.arange(257)), num_keys=2), (a, b, c), devices)
    # An unstable sort orders equal keys as it likes (XLA's std::sort too):
    # compared on distinct keys only.
    u = np.random.default_rng(5).permutation(257).astype(np.float32)
    _same(lambda u, a, c: lax.sort((u, a, c), num_keys=1, is_stable=False), (u, a, c), devices)
    _same(lambda b: lax.sort((b, b, -b), num_keys=1), (b,), devices)


def test_sort_key_val_and_empty_and_single(devices):
    k, v = _floats(100), np.arange(100, dtype=np.float32)
    _same(lax.sort_key_val, (k, v), devices)
    _same(jnp.sort, (np.zeros((0,), np.float32),), devices)
    _same(lambda x: jnp.sort(x, axis=0), (np.zeros((3, 0), np.int32),), devices)
    _same(jnp.sort, (np.array([np.nan], np.float32),), devices)


def _top_k_input(k, dtype):
    """1000 elements with ties: small integers with the type's extremes
    sprinkled in, or floats with NaNs, ±0 and ±inf."""
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        x = np.random.default_rng(k).integers(0, 9, 1000).astype(dtype)
        x[::97], x[1::89] = info.max, info.min
        return x
    return _floats(1000, dtype, seed=k)


@pytest.mark.parametrize("k", [1, 5, 16, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, jnp.bfloat16, np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_top_k(devices, k, dtype):
    _same(lambda x: lax.top_k(x, k), (_top_k_input(k, dtype),), devices)


def test_top_k_batched_and_median(devices):
    x = _floats(7 * 129).reshape(7, 129)
    _same(lambda x: lax.top_k(x, 9), (x,), devices)
    _same(lambda x: lax.top_k(x, 0), (x,), devices)
    _same(lambda x: lax.top_k(x, 2), (_floats(2 * 3 * 5).reshape(2, 3, 5),), devices)
    ascending = np.arange(3000, dtype=np.float32)  # every element replaces the root
    _same(lambda x: lax.top_k(x, 700), (ascending,), devices)
    # Medians and quantiles interpolate after the sort: the arithmetic may
    # round an ulp apart (contraction), the sort underneath is checked exactly.
    y = np.random.default_rng(3).normal(size=(64, 48)).astype(np.float32)
    _same(lambda y: jnp.sort(y, axis=0), (y,), devices)
    f = lambda y: (jnp.median(y), jnp.median(y, axis=0), jnp.quantile(y, 0.3, axis=1))
    floors, cpu = devices
    for g, w in zip(_on(floors, f, y), _on(cpu, f, y)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=0)
