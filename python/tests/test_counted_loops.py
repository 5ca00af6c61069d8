"""Counted loops (`floors-hlo-annotate-trip-counts`: the body runs a known
number of times and the condition never) on floors through the PJRT plugin
against XLA:CPU: fori_loops with static bounds of every kind JAX emits
(empty, negative starts, a bound below the start, int64 and unsigned
counters, loops nested in counted and uncounted loops, scans), and loops
the pass must leave to their condition (a traced bound, a while_loop
stepping by two)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_sort_select import _same


@pytest.mark.parametrize("lo,hi", [(0, 1000), (0, 0), (5, 3), (-7, 4), (3, 4)])
def test_fori_static_bounds(devices, lo, hi):
    def f(x):
        return lax.fori_loop(lo, hi, lambda i, c: c * 0.5 + i.astype(c.dtype), x)
    _same(f, (np.linspace(-1, 1, 16, dtype=np.float32),), devices)


def test_counter_is_read_by_the_body(devices):
    def f(x):
        def body(i, c):
            a, s = c
            return a.at[i % a.shape[0]].add(i.astype(a.dtype)), s + i
        return lax.fori_loop(2, 37, body, (x, jnp.int32(0)))
    _same(f, (np.zeros(8, np.float32),), devices)


def test_nested_counted_and_uncounted(devices):
    def f(x, n):
        def outer(i, c):
            c = lax.fori_loop(0, 3, lambda j, d: d + (i * j).astype(d.dtype), c)
            return lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 2, s[1] * 0.5), (0, c))[1]
        return lax.fori_loop(0, 4, outer, x)
    _same(f, (np.ones(5, np.float32), np.int32(5)), devices)


def test_traced_bound_and_scan(devices):
    def f(x, n):
        y = lax.fori_loop(0, n, lambda i, c: c + 1.0, x)
        return lax.scan(lambda c, t: (c * t, c + t), y, jnp.arange(1.0, 7.0))
    _same(f, (np.float32(0.5), np.int32(6)), devices)


def test_wide_counters(devices):
    jax.config.update("jax_enable_x64", True)
    try:
        def f(x):
            a = lax.fori_loop(np.int64(-3), np.int64(9), lambda i, c: c + i, x)
            return lax.fori_loop(np.uint32(1), np.uint32(6), lambda i, c: c * 2 + i.astype(c.dtype), a)
        _same(f, (np.int64(1),), devices)
    finally:
        jax.config.update("jax_enable_x64", False)
