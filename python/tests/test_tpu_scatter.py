"""Scatters on the TPU floor (`floors-linalg-lower-stablehlo{keep-scatters=true}`,
lowering/tpu/emit_scatter.rs: per update on the scalar core, the row index from
SMEM, the row read, combined and written back — by DMA into the input aliased to
the output, or in the output's VMEM window when the operand is computed) against
XLA:CPU, through `floors run --target tpu`: add/set/max/mul of rows with repeated
and out-of-bounds indices (JAX's negative-index wrap absorbed), 1-D element
scatters, 3-D rows, integer rows, computed updates, segment_sum into zeros, and
the named refusals of what is not a row scatter yet.
"""

import jax
import numpy as np
import pytest

from test_tpu_conv import _close
from test_tpu_sort import _run_tpu

r = np.random.default_rng(0)
X = r.standard_normal((100, 16)).astype(np.float32)
U = r.standard_normal((40, 16)).astype(np.float32)
# Repeated indices, negative ones (wrapped by JAX) and ones past the end (dropped).
IDX = r.integers(-100, 110, 40).astype(np.int32)

CASES = {
    "add": (lambda x, i, u: x.at[i].add(u), (X, IDX, U)),
    "set": (lambda x, i, u: x.at[i].set(u), (X, IDX, U)),
    "max": (lambda x, i, u: x.at[i].max(u), (X, IDX, U)),
    "mul": (lambda x, i, u: x.at[i].mul(u), (X, IDX, U)),
    "computed_updates": (lambda x, i, u: x.at[i].add(u * 2 + 1), (X, IDX, U)),
    "elements_1d": (
        lambda x, i, u: x.at[i].add(u),
        (r.standard_normal(50).astype(np.float32), r.integers(0, 50, 200).astype(np.int32), r.standard_normal(200).astype(np.float32)),
    ),
    "int_rows": (
        lambda x, i, u: x.at[i].add(u),
        (r.integers(-9, 9, (30, 8)).astype(np.int32), r.integers(0, 30, 64).astype(np.int32), r.integers(-9, 9, (64, 8)).astype(np.int32)),
    ),
    "rows_3d": (
        lambda x, i, u: x.at[i].add(u),
        (r.standard_normal((10, 4, 8)).astype(np.float32), r.integers(0, 10, 7).astype(np.int32), r.standard_normal((7, 4, 8)).astype(np.float32)),
    ),
    "segment_sum": (
        lambda d, s: jax.ops.segment_sum(d, s, num_segments=12),
        (r.standard_normal((90, 5)).astype(np.float32), r.integers(0, 12, 90).astype(np.int32)),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_scatter_on_the_tpu_floor(tmp_path, name):
    f, args = CASES[name]
    # Updates applied in the spec's order: sums of repeated rows round alike.
    _close(tmp_path, f, args, 1e-6, 1e-6)


def test_element_scatter_of_a_matrix_is_refused_by_name(tmp_path):
    i = r.integers(0, 100, 30).astype(np.int32)
    j = r.integers(0, 16, 30).astype(np.int32)
    out = _run_tpu(tmp_path, lambda x, i, j, u: x.at[i, j].add(u), X, i, j, r.standard_normal(30).astype(np.float32))
    assert out.returncode != 0
    assert "a scatter other than of whole rows along dimension 0" in out.stderr and "p.mlir:" in out.stderr, out.stderr
