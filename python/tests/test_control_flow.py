"""Control flow and autodiff through it, on floors through the PJRT plugin,
against XLA:CPU: the shapes of JAX's own `lax_control_flow_test.py` that
found wrong numbers or compile failures (scan JVPs, vmapped scans).
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from test_floors_jax import assert_close


def _on(dev, f, *args):
    return [np.asarray(x) for x in jax.tree.leaves(f(*jax.device_put(args, dev)))]


def _both(f, args, devices, rtol=1e-5, atol=1e-6):
    floors, cpu = devices
    got, want = _on(floors, f, *args), _on(cpu, f, *args)
    assert_close(got, want, rtol, atol)
    return got


def _rnn_problem():
    r = np.random.RandomState(0)
    n_in, n_hid, n_out, length = 4, 2, 1, 3
    params = (r.randn(n_hid, n_hid + n_in).astype(np.float32), r.randn(n_out, n_hid + n_in).astype(np.float32))
    inputs = r.randn(length, n_in).astype(np.float32)
    targets = r.randn(length, n_out).astype(np.float32)

    def step(params, state, x):
        w_trans, w_out = params
        stacked = jnp.concatenate([state, x])
        return jnp.tanh(jnp.dot(w_trans, stacked)), jnp.tanh(jnp.dot(w_out, stacked))

    @jax.jit
    def loss(params, inputs, targets):
        _, outputs = lax.scan(partial(step, params), jnp.zeros(n_hid), inputs)
        return jnp.sum((outputs - targets) ** 2)

    return loss, params, inputs, targets


def test_scan_rnn_jvp_matches_linearize_and_xla(devices):
    """testScanRnn: the jvp of a jitted loss over a scan RNN (primal and
    tangent: two sums of one fusion) was the primal twice."""
    loss, params, inputs, targets = _rnn_problem()
    floors, _ = devices
    jvp = lambda p, i, t: jax.jvp(loss, (p, i, t), (p, i, t))
    primal, tangent = _both(jvp, (params, inputs, targets), devices)
    assert not np.allclose(primal, tangent)
    p, i, t = jax.device_put((params, inputs, targets), floors)
    _, linfun = jax.linearize(loss, p, i, t)
    np.testing.assert_allclose(np.asarray(linfun(p, i, t)), tangent, rtol=1e-5)


def test_scan_second_order_jvp(devices):
    """testScanJVP's check_grads(order=2, modes=["fwd"]): the jvp of a jvp
    of a scan."""
    rng = np.random.RandomState(0)
    d = rng.randn(2).astype(np.float32)

    def f(c, a):
        b = jnp.cos(jnp.sum(jnp.sin(a)) + jnp.sum(jnp.cos(c)) + jnp.sum(d))
        return jnp.sin(c * b), b

    scan = lambda c, as_: lax.scan(f, c, as_)
    c, as_ = rng.randn(4).astype(np.float32), rng.randn(5, 3).astype(np.float32)
    first = lambda c, a, tc, ta: jax.jvp(scan, (c, a), (tc, ta))
    second = lambda c, a, tc, ta: jax.jvp(lambda c, a: first(c, a, tc, ta), (c, a), (tc, ta))
    _both(jax.jit(first), (c, as_, c, as_), devices, rtol=1e-4, atol=1e-5)
    _both(jax.jit(second), (c, as_, c, as_), devices, rtol=1e-4, atol=1e-5)


def test_vmapped_scan_of_tuples(devices):
    """testScanVmapTuples: a kernel the vectorizer refuses (a parallel loop
    of extent 1 its output does not index) failed the compile with
    "Attempted to vectorize, but failed"; it is now a scalar loop."""

    def f(c, a):
        a1, a2 = a
        c1, c2 = c
        b = jnp.sum(jnp.cos(a1)) * jnp.sum(c2 * a2)
        return (c1 * jnp.sin(jnp.sum(a1 * a2)), c2 * jnp.cos(jnp.sum(a1))), b

    r = np.random.RandomState(0)
    as_ = (r.randn(3, 7).astype(np.float32), r.randn(3, 4, 7).astype(np.float32))
    c = (r.randn(7, 2).astype(np.float32), r.randn(7).astype(np.float32))
    g = jax.jit(jax.vmap(lambda c, as_: lax.scan(f, c, as_), (0, (1, 2))))
    _both(g, (c, as_), devices, rtol=1e-5, atol=1e-5)


def test_scan_grad(devices):
    """testScanGrad's shape: reverse mode through a scan (the transposed
    scan runs backwards and accumulates)."""
    rng = np.random.RandomState(1)
    d = rng.randn(2).astype(np.float32)

    def f(c, a):
        b = jnp.sin(jnp.sum(jnp.cos(a)) + jnp.sum(jnp.cos(c)) + jnp.sum(jnp.tan(d)))
        return jnp.cos(c * b) * b, b

    loss = lambda c, as_: jnp.sum(jnp.sin(lax.scan(f, c, as_)[0]))
    c, as_ = rng.randn(4).astype(np.float32), rng.randn(5, 3).astype(np.float32)
    _both(jax.jit(jax.grad(loss, argnums=(0, 1))), (c, as_), devices, rtol=1e-4, atol=1e-5)
