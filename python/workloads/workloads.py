"""Realistic JAX workloads, as people write them with flax, optax, equinox
and diffrax: each one is a jitted function and its inputs, run on floors and
on XLA:CPU by `python/tests/test_user_workloads.py` (results compared) and
`scripts/workload_bench.py` (steady-state times, docs/workloads.md).

`WORKLOADS[name] = Workload(fn, make_args, rtol, atol)`: `fn` is jitted by
the caller; `make_args()` builds NumPy inputs (fixed seeds); results are
pytrees of arrays compared leaf by leaf.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import numpy as np


@dataclasses.dataclass
class Workload:
    fn: Callable[..., Any]
    make_args: Callable[[], tuple]
    rtol: float = 2e-3
    atol: float = 2e-3
    about: str = ""


def _rng(seed=0):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- flax CNN + Adam


def _cnn():
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
    import optax

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x, train: bool = True):
            x = nn.Conv(16, (3, 3))(x)
            x = nn.BatchNorm(use_running_average=not train, momentum=0.9)(x)
            x = nn.relu(x)
            x = nn.max_pool(x, (2, 2), strides=(2, 2))
            x = nn.Conv(32, (3, 3))(x)
            x = nn.relu(x)
            x = nn.avg_pool(x, (2, 2), strides=(2, 2))
            x = x.reshape(x.shape[0], -1)
            return nn.Dense(10)(x)

    model = CNN()
    tx = optax.adam(1e-3)
    x0 = np.zeros((8, 16, 16, 3), np.float32)
    variables = model.init(jax.random.key(0), x0)
    params, stats = variables["params"], variables["batch_stats"]
    opt_state = tx.init(params)

    def step(params, stats, opt_state, x, y):
        def loss_fn(p):
            logits, updates = model.apply({"params": p, "batch_stats": stats}, x, mutable=["batch_stats"])
            loss = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
            return loss, updates["batch_stats"]

        (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        updates, new_opt = tx.update(grads, opt_state, params)
        return loss, optax.apply_updates(params, updates), new_stats, new_opt

    def make_args():
        r = _rng(1)
        x = r.standard_normal((8, 16, 16, 3)).astype(np.float32)
        y = r.integers(0, 10, 8).astype(np.int32)
        return (jax.tree.map(np.asarray, params), jax.tree.map(np.asarray, stats), jax.tree.map(np.asarray, opt_state), x, y)

    return Workload(step, make_args, about="flax CNN (conv, BatchNorm, max/avg pool, dense) training step with optax Adam")


# ---------------------------------------------------------------- flax transformer block under grad


def _transformer():
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    class Block(nn.Module):
        heads: int = 4

        @nn.compact
        def __call__(self, x):
            h = nn.LayerNorm()(x)
            mask = nn.make_causal_mask(jnp.ones(x.shape[:2]))
            h = nn.MultiHeadDotProductAttention(num_heads=self.heads, qkv_features=x.shape[-1])(h, h, mask=mask)
            x = x + h
            h = nn.Dense(4 * x.shape[-1])(nn.LayerNorm()(x))
            return x + nn.Dense(x.shape[-1])(nn.gelu(h))

    model = Block()
    x0 = np.zeros((2, 32, 64), np.float32)
    params = model.init(jax.random.key(1), x0)

    def loss_and_grad(params, x):
        return jax.value_and_grad(lambda p: jnp.mean(model.apply(p, x) ** 2))(params)

    return Workload(loss_and_grad, lambda: (jax.tree.map(np.asarray, params), _rng(2).standard_normal((2, 32, 64)).astype(np.float32)),
                    about="flax causal-attention transformer block under value_and_grad")


# ---------------------------------------------------------------- equinox MLP + GRU under scan


def _equinox():
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    k1, k2 = jax.random.split(jax.random.key(2))
    cell = eqx.nn.GRUCell(8, 32, key=k1)
    mlp = eqx.nn.MLP(32, 4, width_size=64, depth=2, key=k2)
    params, static = eqx.partition((cell, mlp), eqx.is_array)

    def loss_and_grad(params, xs):
        def loss(params):
            cell, mlp = eqx.combine(params, static)

            def step(h, x):
                h = cell(x, h)
                return h, mlp(h)

            _, ys = jax.lax.scan(step, jnp.zeros(32), xs)
            return jnp.mean(ys ** 2)

        return jax.value_and_grad(loss)(params)

    return Workload(loss_and_grad, lambda: (jax.tree.map(np.asarray, params), _rng(3).standard_normal((24, 8)).astype(np.float32)),
                    about="equinox GRU cell + MLP over 24 steps of lax.scan, value_and_grad")


# ---------------------------------------------------------------- diffrax adaptive ODE


def _diffrax():
    import diffrax
    import jax.numpy as jnp

    def vector_field(t, y, args):
        a, b, c, d = args
        prey, pred = y
        return jnp.stack([a * prey - b * prey * pred, -c * pred + d * prey * pred])

    def solve(y0, args):
        sol = diffrax.diffeqsolve(
            diffrax.ODETerm(vector_field), diffrax.Tsit5(), t0=0.0, t1=10.0, dt0=0.05, y0=y0, args=args,
            stepsize_controller=diffrax.PIDController(rtol=1e-6, atol=1e-8),
            saveat=diffrax.SaveAt(ts=jnp.linspace(0.0, 10.0, 11)), max_steps=4096)
        return sol.ys, sol.stats["num_accepted_steps"]

    return Workload(solve, lambda: (np.array([10.0, 5.0], np.float32), np.array([1.1, 0.4, 0.4, 0.1], np.float32)),
                    rtol=2e-3, atol=1e-3, about="diffrax Tsit5 with a PID step-size controller (adaptive, Lotka-Volterra)")


# ---------------------------------------------------------------- optax L-BFGS


def _lbfgs():
    import jax
    import jax.numpy as jnp
    import optax

    def rosenbrock(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)

    opt = optax.lbfgs()

    def run(x0):
        value_and_grad = optax.value_and_grad_from_state(rosenbrock)

        def step(_, carry):
            x, state = carry
            value, grad = value_and_grad(x, state=state)
            updates, state = opt.update(grad, state, x, value=value, grad=grad, value_fn=rosenbrock)
            return optax.apply_updates(x, updates), state

        x, _ = jax.lax.fori_loop(0, 40, step, (x0, opt.init(x0)))
        return x, rosenbrock(x)

    # Well-conditioned near the end, so both sides reach the minimum; the
    # path there may differ in the last bits.
    return Workload(run, lambda: (np.array([-1.2, 1.0, -0.5, 0.8, 1.1], np.float32),), rtol=1e-2, atol=1e-3,
                    about="optax L-BFGS with zoom line search, 40 steps on a 5-D Rosenbrock (lax.fori_loop)")


# ---------------------------------------------------------------- jax.random samplers


def _random():
    import jax
    import jax.numpy as jnp

    def sample(seed):
        k = jax.random.split(jax.random.key(seed), 6)
        return (
            jax.random.normal(k[0], (256,)),
            jax.random.permutation(k[1], 100),
            jax.random.categorical(k[2], jnp.log(jnp.arange(1.0, 9.0)), shape=(64,)),
            jax.random.gamma(k[3], jnp.array([0.5, 1.0, 3.0]), shape=(32, 3)),
            jax.random.truncated_normal(k[4], -1.0, 2.0, (128,)),
            jax.random.bernoulli(k[5], 0.3, (64,)),
        )

    return Workload(sample, lambda: (np.uint32(42),), rtol=1e-4, atol=1e-5,
                    about="jax.random: normal, permutation, categorical, gamma, truncated normal, bernoulli")


# ---------------------------------------------------------------- linear algebra and FFT


def _linalg_fft():
    import jax.numpy as jnp

    def linalg(a, b):
        spd = a @ a.T + 8 * jnp.eye(a.shape[0])
        q, r = jnp.linalg.qr(a)
        w, v = jnp.linalg.eigh(spd)
        return (jnp.linalg.solve(a, b), jnp.linalg.cholesky(spd), jnp.abs(r), w, jnp.linalg.svd(a, compute_uv=False),
                jnp.linalg.inv(spd), jnp.linalg.slogdet(a), jnp.abs(jnp.fft.rfft(b, axis=0)), jnp.fft.ifft(jnp.fft.fft(a)).real)

    def make_args():
        r = _rng(4)
        return r.standard_normal((16, 16)).astype(np.float32), r.standard_normal((16, 4)).astype(np.float32)

    return Workload(linalg, make_args, about="jnp.linalg (solve, cholesky, qr, eigh, svd, inv, slogdet) and jnp.fft")


# ---------------------------------------------------------------- jax.numpy grab-bag


def _numpy_bag():
    import jax
    import jax.numpy as jnp

    def bag(x, idx, seg):
        return (
            jnp.sort(x), jnp.argsort(x), jnp.cumsum(x), jax.lax.top_k(x, 5), jnp.take(x, idx),
            jax.ops.segment_sum(x, seg, num_segments=4), jnp.median(x), jnp.cumprod(1 + x / 100),
            jnp.bincount(seg, length=4), jnp.roll(x, 3), jnp.pad(x.reshape(8, 8), 2, mode="reflect"),
        )

    def make_args():
        r = _rng(5)
        return (r.standard_normal(64).astype(np.float32), r.integers(0, 64, 16).astype(np.int32), r.integers(0, 4, 64).astype(np.int32))

    return Workload(bag, make_args, rtol=1e-5, atol=1e-5,
                    about="sort, argsort, cumsum, top_k, take, segment_sum, median, cumprod, bincount, roll, reflect pad")


BUILDERS = {
    "flax_cnn_adam_step": _cnn,
    "flax_transformer_grad": _transformer,
    "equinox_gru_scan_grad": _equinox,
    "diffrax_adaptive_ode": _diffrax,
    "optax_lbfgs": _lbfgs,
    "jax_random_samplers": _random,
    "linalg_and_fft": _linalg_fft,
    "numpy_grab_bag": _numpy_bag,
}


def workload(name: str) -> Workload:
    return BUILDERS[name]()
