"""The workloads of `python/workloads/workloads.py` (flax, optax, equinox,
diffrax, jax.random, jnp.linalg + jnp.fft, a jax.numpy grab-bag) on floors
against XLA:CPU, leaf by leaf within each workload's tolerance.
"""

import sys
from pathlib import Path

import jax
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "workloads"))
import workloads  # noqa: E402

pytest.importorskip("flax")
pytest.importorskip("equinox")
pytest.importorskip("diffrax")


@pytest.mark.parametrize("name", sorted(workloads.BUILDERS))
def test_workload_matches_xla_cpu(devices, name):
    floors, cpu = devices
    with jax.default_device(cpu):
        w = workloads.workload(name)
        args = w.make_args()
    f = jax.jit(w.fn)
    want = jax.tree.leaves(f(*jax.device_put(args, cpu)))
    got = jax.tree.leaves(f(*jax.device_put(args, floors)))
    assert len(got) == len(want)
    for g, x in zip(got, want):
        g, x = np.asarray(g), np.asarray(x)
        assert g.shape == x.shape and g.dtype == x.dtype, (g.shape, g.dtype, x.shape, x.dtype)
        if g.dtype.kind in "biu":
            np.testing.assert_array_equal(g, x)
        else:
            np.testing.assert_allclose(g, x, rtol=w.rtol, atol=w.atol)
