"""Loops that update a carried buffer (scan stacking its outputs,
dynamic_update_slice and scatter in fori_loops) on floors through the PJRT
plugin against XLA:CPU. These fusions run in place (floors.in_place): the
cases cover updates whose value is read from the same buffer at overlapping,
shifted and reversed positions, a buffer read again after its update, nested
loops, updates of a parameter (never in place), and elementwise updates of a
loop's state next to transposed, reversed, rolled and reducing ones."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

from test_sort_select import _on


def scan_stack(x):
    def step(c, xs):
        c = jnp.tanh(c + xs)
        return c, c * 2
    return lax.scan(step, jnp.zeros(x.shape[1], x.dtype), x)


def scan_reverse(x):
    return lax.scan(lambda c, xs: (c + xs, c * xs), jnp.zeros(x.shape[1], x.dtype), x, reverse=True)


def update_from_self(x):
    def body(i, a):
        a = a.at[i].set(a[i] * 2 + 1)
        return a.at[(i + 3) % a.shape[0]].add(a[i])
    return lax.fori_loop(0, x.shape[0], body, x)


def read_after_update(x):
    def body(i, c):
        a, s = c
        b = a.at[i].set(s)
        return b, s + a[i].sum() + b[i].sum()
    return lax.fori_loop(0, x.shape[0], body, (x, jnp.zeros(x.shape[1], x.dtype)))


def parameter_and_twice(x):
    y = x * 2
    return x.at[2].set(7.0), y.at[1].set(5.0), y.at[2].set(6.0), x


def nested(x):
    def outer(i, a):
        return lax.fori_loop(0, 3, lambda j, b: b.at[(i + j) % b.shape[0]].add(1.0), a)
    return lax.fori_loop(0, 5, outer, x)


def shifted(x, by, reverse=False):
    v = x.reshape(-1)

    def body(i, a):
        u = lax.dynamic_slice(a, (i,), (9,))
        u = lax.rev(u, (0,)) if reverse else u * 2.0 + 1.0
        return lax.dynamic_update_slice(a, u, (i + by,))
    return lax.fori_loop(0, 20, body, v)


def carried(body, n=2):
    def f(x):
        init = tuple(x * (j + 1.0) for j in range(n)) if n > 1 else x
        return lax.fori_loop(0, 5, lambda i, c: body(c), init)
    return f


CASES = {
    # Elementwise updates of a carried state reuse its buffer; transposed,
    # reversed, shifted and reducing reads of it must not.
    "carry_elementwise": carried(lambda c: c * 1.5 + 0.25, n=1),
    "carry_transposed": lambda x: lax.fori_loop(0, 5, lambda i, c: c.T * 2.0 + 1.0, x[:8, :8]),
    "carry_reversed": carried(lambda c: c[::-1] + 1.0, n=1),
    "carry_rolled": carried(lambda c: jnp.roll(c, 1, axis=0) * 0.5 + c, n=1),
    "carry_minus_mean": carried(lambda c: c - c.mean(axis=0) * 0.5, n=1),
    "carry_cumsum": carried(lambda c: jnp.cumsum(c, axis=0) * 0.1, n=1),
    "carry_two_mixed": carried(lambda c: (c[0] * 2.0 + c[1], c[0] - c[1])),
    "carry_swapped": carried(lambda c: (c[1] + 1.0, c[0] * 2.0)),
    "while_growing": lambda x: lax.while_loop(lambda c: c[0, 0] < 100.0, lambda c: c * 1.5 + 0.1, jnp.abs(x) + 0.01),
    "scan_stack": scan_stack,
    "scan_reverse": scan_reverse,
    "update_from_self": update_from_self,
    "read_after_update": read_after_update,
    "parameter_and_twice": parameter_and_twice,
    "nested": nested,
    "shift_forward": lambda x: shifted(x, 1),
    "shift_back": lambda x: shifted(x, -1),
    "shift_reversed": lambda x: shifted(x, 2, reverse=True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loop_updates(devices, name):
    x = np.random.default_rng(0).normal(size=(16, 8)).astype(np.float32)
    floors, cpu = devices
    for g, w in zip(_on(floors, CASES[name], x), _on(cpu, CASES[name], x)):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
