"""Block selection on the TPU floor against XLA:CPU, through `floors run --target
tpu`: arrays whose row count no legal block divides (1009 rows of 4096 f32,
16 MiB, over the scoped VMEM whole) take a grid of ⌈n/b⌉ with a partial last
block, as Pallas' `pl.cdiv` grids: elementwise, a row softmax, row sums and
values that depend on the row index all match.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from test_tpu_conv import _close

X = np.random.default_rng(0).standard_normal((1009, 4096)).astype(np.float32)

CASES = {
    "elementwise": lambda x: jnp.tanh(x) * 2 + 1,
    "softmax": lambda x: jax.nn.softmax(x, axis=-1),
    "row_sums": lambda x: jnp.sum(x, axis=1),
    "row_index": lambda x: x + jnp.arange(1009, dtype=jnp.float32)[:, None],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rows_no_block_divides(tmp_path, name):
    _close(tmp_path, CASES[name], (X,), 1e-5, 1e-4)
