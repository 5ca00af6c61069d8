"""Booleans on the TPU floor cross every kernel boundary as i32 (Pallas widens
them around each pallas_call; Mosaic has no i1 memrefs) and come back as bools:
masks in and out, a bool scalar, reductions and sorts of bools, bool rows
updated in place by DMA, gathered and scattered — equal to XLA:CPU, dtype
included, through `floors run --target tpu`.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from test_tpu_conv import _close

r = np.random.default_rng(0)
X = r.standard_normal((64, 256)).astype(np.float32)
M = r.integers(0, 2, (64, 256)).astype(bool)
ROWS = r.integers(0, 64, 10).astype(np.int32)

CASES = {
    "masks": (lambda x, m: (jnp.where(m, x, 0.0), x > 0, m & (x < 0.5)), (X, M)),
    "scalar": (lambda x, b: jnp.where(b, x, -x), (X, np.bool_(True))),
    "any_rows": (lambda m: jnp.any(m, axis=1), (M,)),
    "sort_rows": (lambda m: jnp.sort(m, axis=1), (M,)),
    "update_slice": (lambda m, u, i: jax.lax.dynamic_update_slice(m, u, (i, 0)), (M, np.ones((4, 256), bool), np.int32(9))),
    "gather_rows": (lambda m, i: m[i], (M, ROWS)),
    "scatter_rows": (lambda m, i, u: m.at[i].set(u), (M, ROWS, np.ones((10, 256), bool))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bools_cross_kernels_as_i32(tmp_path, name):
    f, args = CASES[name]
    _close(tmp_path, f, args, 0, 0)
