"""Collectives on one device (`floors-hlo-single-device-collectives`):
`shard_map` over a one-device floors mesh with `psum`, `pmean`, `all_gather`,
`psum_scatter`, `all_to_all`, `ppermute` and `axis_index`, matching the
same program on a one-device XLA:CPU mesh bit for bit."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import Mesh, PartitionSpec as P

from test_sort_select import _bits


def _run(device, f, x):
    mesh = Mesh(np.array([device]), ("x",))
    g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
    return [np.asarray(v) for v in jax.tree.leaves(g(jax.device_put(x, device)))]


def _same(devices, f, x):
    floors, cpu = devices
    got, want = _run(floors, f, x), _run(cpu, f, x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(_bits(g), _bits(w))


X = np.linspace(-2.0, 3.0, 24, dtype=np.float32).reshape(8, 3)


def test_psum_pmean_and_axis_index(devices):
    _same(devices, lambda b: (lax.psum(b * 2.0, "x"), lax.pmean(b, "x"), b + lax.axis_index("x").astype(b.dtype)), X)


def test_gathers_scatters_and_permutes(devices):
    def f(b):
        g = lax.all_gather(b, "x", tiled=True)
        s = lax.psum_scatter(b, "x", tiled=True)
        a = lax.all_to_all(b, "x", 0, 0, tiled=True)
        p = lax.ppermute(b, "x", perm=[(0, 0)])
        return g, s, a, p
    _same(devices, f, X)


def test_psum_inside_a_loop(devices):
    def f(b):
        return lax.fori_loop(0, 3, lambda i, c: lax.psum(c, "x") * 0.5 + b, b)
    _same(devices, f, X)
