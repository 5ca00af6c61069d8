"""Zero-size, rank-0 and size-1 values on floors through the PJRT plugin
against XLA:CPU (what nn_test's zero-size initializers reach): every result
an empty array of the right shape and dtype, or the init/padding/zero
values an op over empty operands computes."""

import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_sort_select import _on


def Z(*s):
    return np.ones(s, np.float32)


CASES = {
    "dot_0x0": (lambda a, b: a @ b, [Z(0, 0), Z(0, 0)]),
    "dot_k0": (lambda a, b: a @ b, [Z(3, 0), Z(0, 4)]),
    "dot_m0": (lambda a, b: a @ b, [Z(0, 3), Z(3, 4)]),
    "batched_dot_b0": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), [Z(0, 2, 3), Z(0, 3, 4)]),
    "sum_empty_axis": (lambda a: a.sum(axis=1), [Z(3, 0)]),
    "max_empty_initial": (lambda a: a.max(axis=0, initial=-1.0), [Z(0, 5)]),
    "pad_empty": (lambda a: jnp.pad(a, ((1, 1), (2, 0)), constant_values=3.0), [Z(0, 3)]),
    "concat_empty": (lambda a, b: jnp.concatenate([a, b], axis=0), [Z(0, 3), Z(2, 3)]),
    "sort_empty": (lambda a: jnp.sort(a, axis=1), [Z(0, 7)]),
    "cumsum_empty": (lambda a: jnp.cumsum(a, axis=0), [Z(0, 4)]),
    "top_k_empty": (lambda a: lax.top_k(a, 2), [Z(0, 5)]),
    "conv_empty_batch": (lambda x, w: lax.conv(x, w, (1, 1), "SAME"), [Z(0, 2, 5, 5), Z(3, 2, 3, 3)]),
    "conv_empty_channels": (lambda x, w: lax.conv(x, w, (1, 1), "SAME"), [Z(1, 0, 5, 5), Z(3, 0, 3, 3)]),
    "while_empty": (lambda a: lax.fori_loop(0, 3, lambda i, c: c * 2.0, a), [Z(0, 3)]),
    "update_empty": (lambda a, u: lax.dynamic_update_slice(a, u, (1, 0)), [Z(4, 3), Z(0, 3)]),
    "window_all_padding": (lambda a: lax.reduce_window(a, 0.0, lax.add, (2,), (1,), ((2, 2),)), [Z(0)]),
    "rank0": (lambda a: a * 2 + jnp.sin(a), [np.float32(1.5)]),
    "size1": (lambda a, b: (a @ b, a.sum(0), jnp.sort(a, axis=0)), [Z(1, 1), Z(1, 1)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_zero_size(devices, name):
    f, args = CASES[name]
    floors, cpu = devices
    for g, w in zip(_on(floors, f, *args), _on(cpu, f, *args)):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6)
