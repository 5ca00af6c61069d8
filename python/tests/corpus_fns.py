"""The jax functions behind floors' public corpus (`shared/corpus/public`).

`jax.jit(f).lower(*inputs).as_text()` of each function below, on the CPU
backend, is the corpus program `<name>.stablehlo.mlir` (locations aside):
`test_floors_jax.py::test_public_corpus_functions_lower_to_the_corpus` checks it.
"""

import jax
import jax.numpy as jnp
from jax import lax


def elementwise_chain(a, b):
    return jnp.tanh(a * b + jnp.exp(-a))


def bias_add(x, b):
    return x + b


def relu(x):
    return jax.nn.relu(x)


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def row_sum(x):
    return jnp.sum(x, axis=1)


def col_max(x):
    return jnp.max(x, axis=0)


def transpose2d(x):
    return x.T


def matmul(a, b):
    return a @ b


@jax.jit
def _dense(x, w, b):
    return x @ w + b


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.relu(_dense(x, w1, b1))
    return jax.nn.softmax(_dense(h, w2, b2), axis=-1)


def gather_rows(x, idx):
    return jnp.take(x, idx, axis=0)


def dynamic_slice_update(x, i, u):
    s = lax.dynamic_slice(x, (i, jnp.int32(0)), (4, 8))
    y = lax.dynamic_update_slice(x, u, (i, jnp.int32(2)))
    return s * 2.0, y


def argmax(x):
    return jnp.argmax(x, axis=1)


def int_ops(a, b):
    s, d, m = a + b, a - b, a * 3
    w = jnp.where(a > b, s, d)
    return w, jnp.maximum(m, b), (a & 7) ^ (b >> 1), a == b


def fori_loop(x):
    return lax.fori_loop(0, 5, lambda i, v: v * 0.5 + i, x)


def sort_rows(x):
    return jnp.sort(x, axis=-1)


def shape_ops(a, b):
    c = jnp.concatenate([a, b], axis=0)
    p = jnp.pad(c, ((1, 2), (0, 3)))
    f = jnp.flip(p[2:10:2, 1:7], axis=1)
    return (f + jnp.arange(6, dtype=jnp.float32)).reshape(24), jnp.clip(c, -0.5, 0.5)


def unary_math(x):
    t = jnp.abs(x) + 0.1
    r = jnp.log(t) + jnp.sqrt(t)
    r = r + jnp.sign(x) * jnp.floor(x)
    r = r + 1.0 / (1.0 + jnp.exp(-x))
    r = r + t ** 1.5
    r = r + jnp.log1p(t)
    r = r + jnp.ceil(x)
    r = r + jnp.round(x)
    r = r - jnp.expm1(-t)
    r = r + jnp.square(x)
    r = r + lax.rsqrt(t)
    r = r + jnp.sin(x) * jnp.cos(x)
    return r + lax.clamp(-0.5, x, 0.5)


def gelu_erf(x):
    return jax.nn.gelu(x, approximate=False)


PUBLIC = {f.__name__: f for f in [
    elementwise_chain, bias_add, relu, softmax, row_sum, col_max, transpose2d, matmul, mlp, gather_rows,
    dynamic_slice_update, argmax, int_ops, fori_loop, sort_rows, shape_ops, unary_math, gelu_erf]}
