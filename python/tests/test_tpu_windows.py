"""Windowed reductions on the TPU floor (`floors-linalg-lower-stablehlo{windows-as-slices=true}`:
pooling as a fold over shifted, strided slices; cumulative windows as a doubling
scan) against XLA:CPU, through `floors run --target tpu` (Mosaic kernels run by
the interpreter): every cumulative op of test_cumulative.py forward and reversed
along every axis (NaNs included), integer scans exactly, max/average pooling with
SAME/VALID padding, strides, window and base dilations, a two-operand argmax
pool, 16-bit and integer pools, and the refusal of a window with too many
positions; the gradients of max and min pooling (select_and_scatter: the selected
element per window, ties to the first, padding never selected, overlapping
windows adding up).
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_cumulative import OPS
from test_tpu_conv import _close
from test_tpu_sort import _run_tpu


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("op", sorted(OPS))
def test_cumulative_floats(tmp_path, op, axis, reverse):
    x = np.random.default_rng(axis).normal(size=(3, 67, 5)).astype(np.float32)
    x[0, 3, :] = np.nan
    _close(tmp_path, lambda x: OPS[op](x, axis=axis, reverse=reverse), (x,), 1e-5, 1e-5)


@pytest.mark.parametrize("dtype", [np.int8, np.int32])
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
def test_cumulative_integers(tmp_path, op, dtype):
    x = np.random.default_rng(1).integers(-5, 5, size=(4, 300)).astype(dtype)
    _close(tmp_path, lambda x: (OPS[op](x, axis=1, reverse=False), OPS[op](x, axis=1, reverse=True)), (x,), 0, 0)


def _pool(init, op, window, strides, padding, **kw):
    return lambda x: lax.reduce_window(x, init, op, window, strides, padding, **kw)


POOLS = {
    "max_same": (_pool(-jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"), np.float32),
    "max_valid": (_pool(-jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), np.float32),
    "avg": (lambda x: _pool(0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")(x) / 9, np.float32),
    "dilated": (
        _pool(-jnp.inf, lax.max, (1, 2, 3, 1), (1, 1, 2, 1), ((0, 0), (1, 2), (0, 1), (0, 0)), base_dilation=(1, 2, 1, 1), window_dilation=(1, 1, 2, 1)),
        np.float32,
    ),
    "min_bf16": (_pool(jnp.inf, lax.min, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), jnp.bfloat16),
    "sum_int32": (_pool(0, lax.add, (1, 3, 2, 1), (1, 2, 1, 1), "VALID"), np.int32),
}


@pytest.mark.parametrize("name", sorted(POOLS))
def test_pooling(tmp_path, name):
    f, dtype = POOLS[name]
    r = np.random.default_rng(sorted(POOLS).index(name))
    x = (r.integers(-50, 50, (2, 11, 12, 3)) if dtype == np.int32 else r.normal(size=(2, 11, 12, 3))).astype(dtype)
    # Sums in another order than XLA's: to rounding; max/min exactly.
    tol = 1e-6 if name == "avg" else 0
    _close(tmp_path, f, (x,), tol, tol)


def test_argmax_pool_of_two_operands(tmp_path):
    def pool(x, i):
        def body(a, b):
            return jnp.maximum(a[0], b[0]), jnp.where(a[0] >= b[0], a[1], b[1])

        return lax.reduce_window((x, i), (-jnp.inf, jnp.int32(0)), body, (3, 3), (2, 2), "VALID")

    r = np.random.default_rng(5)
    x = r.normal(size=(9, 9)).astype(np.float32)
    x[2, 2] = x[2, 3]  # a tie: the first position wins
    _close(tmp_path, pool, (x, np.arange(81, dtype=np.int32).reshape(9, 9)), 0, 0)


GRADS = {
    "max_valid": (lax.max, -jnp.inf, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
    "max_same_overlapping": (lax.max, -jnp.inf, (1, 3, 3, 1), (1, 2, 2, 1), "SAME"),
    "max_stride_1": (lax.max, -jnp.inf, (1, 3, 3, 1), (1, 1, 1, 1), "SAME"),
    "min_padded": (lax.min, jnp.inf, (1, 2, 3, 1), (1, 2, 1, 1), ((0, 0), (1, 1), (1, 1), (0, 0))),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_pooling_gradients(tmp_path, name):
    op, init, window, strides, padding = GRADS[name]
    r = np.random.default_rng(sorted(GRADS).index(name))
    x = np.round(2 * r.normal(size=(2, 9, 10, 3))).astype(np.float32)  # many ties

    def loss(x):
        y = lax.reduce_window(x, init, op, window, strides, padding)
        return jnp.sum(jnp.sin(y) * jnp.arange(y.size, dtype=np.float32).reshape(y.shape))

    _close(tmp_path, jax.grad(loss), (x,), 1e-5, 1e-4)


def test_too_many_window_positions_is_refused(tmp_path):
    out = _run_tpu(tmp_path, _pool(0.0, lax.add, (33, 33), (1, 1), "VALID"), np.ones((40, 40), np.float32))
    assert out.returncode != 0
    assert "1089 window positions" in out.stderr and "p.mlir:" in out.stderr, out.stderr
