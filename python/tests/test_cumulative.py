"""Cumulative reductions (the reduce_window form JAX emits, computed as a
prefix scan) on floors through the PJRT plugin against XLA:CPU: every
cumulative op, forward and reverse, along every axis, integer and float;
integers exactly, floats to rounding (XLA sums in a tree, floors in order)."""

import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_sort_select import _on

OPS = {
    "cumsum": lax.cumsum,
    "cumprod": lambda x, axis, reverse: lax.cumprod(x * 0.01 + 1 if x.dtype.kind == "f" else x % 3, axis=axis, reverse=reverse),
    "cummax": lax.cummax,
    "cummin": lax.cummin,
    "cumlogsumexp": lax.cumlogsumexp,
}


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("op", sorted(OPS))
def test_cumulative_floats(devices, op, axis, reverse):
    x = np.random.default_rng(axis).normal(size=(3, 67, 5)).astype(np.float32)
    x[0, 3, :] = np.nan
    f = lambda x: OPS[op](x, axis=axis, reverse=reverse)
    floors, cpu = devices
    np.testing.assert_allclose(_on(floors, f, x)[0], _on(cpu, f, x)[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
def test_cumulative_integers(devices, op, dtype):
    x = np.random.default_rng(1).integers(0, 5, size=(4, 300)).astype(dtype)
    for reverse in (False, True):
        f = lambda x: OPS[op](x, axis=1, reverse=reverse)
        floors, cpu = devices
        np.testing.assert_array_equal(_on(floors, f, x)[0], _on(cpu, f, x)[0])


def test_cumsum_flat_bool_and_long(devices):
    floors, cpu = devices
    b = np.random.default_rng(2).normal(size=(33, 31)) > 0
    np.testing.assert_array_equal(_on(floors, jnp.cumsum, b)[0], _on(cpu, jnp.cumsum, b)[0])
    x = np.random.default_rng(3).uniform(size=100_000).astype(np.float32)
    np.testing.assert_allclose(_on(floors, jnp.cumsum, x)[0], _on(cpu, jnp.cumsum, x)[0], rtol=1e-4)
