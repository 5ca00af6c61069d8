"""Workloads as people write them, on floors through the PJRT plugin against
XLA:CPU: a flax transformer block under `jax.value_and_grad`.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from test_floors_jax import assert_close

nn = pytest.importorskip("flax.linen")


class Block(nn.Module):
    """Pre-LayerNorm transformer block: causal self-attention, then a
    Dense/gelu MLP, each with a residual."""

    heads: int = 4
    hidden: int = 256

    @nn.compact
    def __call__(self, x):
        h = nn.LayerNorm()(x)
        mask = nn.make_causal_mask(jnp.ones(x.shape[:2]))
        h = nn.MultiHeadDotProductAttention(num_heads=self.heads, qkv_features=x.shape[-1])(h, h, mask=mask)
        x = x + h
        h = nn.LayerNorm()(x)
        h = nn.Dense(self.hidden)(h)
        h = nn.gelu(h)
        return x + nn.Dense(x.shape[-1])(h)


def test_flax_block_value_and_grad(devices):
    """value_and_grad of LayerNorm + causal MultiHeadDotProductAttention +
    Dense/gelu MLP, f32, batch 2 × 32 × 64 (a compile failure at
    flax/linen/normalization.py before the schedule fallback)."""
    floors, cpu = devices
    x = np.random.default_rng(0).standard_normal((2, 32, 64)).astype(np.float32)
    with jax.default_device(cpu):
        params = Block().init(jax.random.key(0), x)
    loss = lambda p, x: jnp.mean(Block().apply(p, x) ** 2)
    step = jax.jit(jax.value_and_grad(loss))
    got = jax.tree.leaves(step(*jax.device_put((params, x), floors)))
    want = jax.tree.leaves(step(*jax.device_put((params, x), cpu)))
    assert all(g.devices() == {floors} for g in got)
    assert_close([np.asarray(g) for g in got], [np.asarray(w) for w in want], rtol=2e-4, atol=2e-5)
