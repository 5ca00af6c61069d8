"""JAX programs on every element type JAX emits, for tests/element_types.rs.

For each program writes, into the directory given as the only argument:
`NAME.mlir` (`jax.jit(f).lower(*args).as_text()`), `NAME.in{i}.npy` (the
inputs) and `NAME.out{i}.npy` (what JAX/XLA:CPU computes). bf16 arrays are
stored as their uint16 bit patterns, as floors reads them. Prints the
program names, one a line.

Needs jax/jaxlib 0.10.2 and numpy (the test venv, scripts/pyenv.sh).
"""
import os
import sys

import jax

jax.config.update("jax_enable_x64", True)  # f64 and 64-bit integers as given
jax.config.update("jax_platforms", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

rng = np.random.default_rng(1234)


def u32(n, lo=0, hi=2**32):
    return rng.integers(lo, hi, size=n, dtype=np.uint64).astype(np.uint32)


# --- unsigned integers -------------------------------------------------------


def hash_mix(x, seed):
    """The murmur3 32-bit finalizer and a threefry-style rotate-add-xor round:
    xor, logical shifts, wrapping multiplies and adds on uint32."""
    h = x ^ seed
    h = h ^ (h >> 16)
    h = h * jnp.uint32(0x85EBCA6B)
    h = h ^ (h >> 13)
    h = h * jnp.uint32(0xC2B2AE35)
    h = h ^ (h >> 16)
    # threefry's rotate_left(v, r) = (v << r) | (v >> (32 - r)), then mix
    y = x + h
    for r in (13, 15, 26, 6):
        h = (h << jnp.uint32(r)) | (h >> jnp.uint32(32 - r))
        h = h ^ y
        y = y + h
    return h, y


def prng_dropout(key_data, x):
    """jax.random.bernoulli (threefry2x32 on uint32, bits → float via
    bitcast_convert, compare) as a dropout mask, applied with where."""
    key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
    keep = jax.random.bernoulli(key, 0.7, x.shape)
    return jnp.where(keep, x / 0.7, 0.0), keep


def prng_draws(key_data):
    """More of jax.random on threefry: split, fold_in, randint (unsigned
    range arithmetic), uniform, normal (erf_inv), permutation (a sort by
    random uint32 keys)."""
    key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
    k1, k2 = jax.random.split(key)
    k3 = jax.random.fold_in(k2, 7)
    return (
        jax.random.randint(k1, (5, 7), 0, 10),
        jax.random.randint(k3, (16,), -(2**31), 2**31 - 1, dtype=jnp.int32),
        jax.random.uniform(k2, (3, 4), dtype=jnp.float32),
        jax.random.normal(k3, (6,), dtype=jnp.float32),
        jax.random.permutation(k1, 12),
        jax.random.key_data(k3),
    )


def dropout_bits(bits, x):
    """A dropout mask from raw uint32 bits compared with a threshold."""
    threshold = jnp.uint32(int(0.3 * 2**32))
    keep = bits >= threshold
    return jnp.where(keep, x * (1.0 / 0.7), jnp.zeros_like(x)), keep


def uint_arith(a8, b8, a16, b16, a64, b64):
    """uint8/16/64: wrapping add/sub/mul, division and remainder (also by 0),
    unsigned max/min/comparison, shifts by more than the width."""
    out = []
    for a, b in ((a8, b8), (a16, b16), (a64, b64)):
        out += [
            a + b,
            a - b,
            a * b,
            lax.div(a, b),
            lax.rem(a, b),
            jnp.maximum(a, b),
            jnp.minimum(a, b),
            a < b,
            a >= b,
            lax.shift_left(a, b),
            lax.shift_right_logical(a, b),
            lax.shift_right_arithmetic(a, b),
            jnp.clip(a, b, b + b // 2),
            ~a,
            -a,
        ]
    return tuple(out)


def uint_dot(a8, b8, a32, b32):
    """Unsigned matmuls: uint8 accumulated in uint32 (zero extension), and
    uint32 wrapping."""
    return jnp.dot(a8, b8, preferred_element_type=jnp.uint32), jnp.dot(a32, b32)


def uint_reduce(a32, a64, a8):
    """Reductions on unsigned: sum (wrapping), max, min, argmax."""
    return (
        jnp.sum(a32, axis=1, dtype=jnp.uint32),
        jnp.max(a32, axis=0),
        jnp.min(a64, axis=1),
        jnp.argmax(a32, axis=1).astype(jnp.int32),
        jnp.sum(a8, axis=1, dtype=jnp.uint8),
        jnp.cumsum(a8, axis=1, dtype=jnp.uint16),
    )


def int_float_converts(u8, u32v, u64, i32v, f32v, f64v):
    """Unsigned ↔ float ↔ signed conversions: uint → float, float → uint
    (in range; out of range is implementation-defined in numpy), widening
    and narrowing between signed and unsigned."""
    return (
        u8.astype(jnp.float32),
        u32v.astype(jnp.float32),
        u32v.astype(jnp.float64),
        u64.astype(jnp.float32),
        u64.astype(jnp.float64),
        u32v.astype(jnp.float16),
        f32v.astype(jnp.uint32),
        f32v.astype(jnp.uint8),
        f64v.astype(jnp.uint64),
        u8.astype(jnp.int32),
        u8.astype(jnp.uint64),
        u32v.astype(jnp.int64),
        u32v.astype(jnp.uint16),
        u32v.astype(jnp.int8),
        i32v.astype(jnp.uint32),
        i32v.astype(jnp.uint64),
        u64.astype(jnp.uint32),
        u32v.astype(jnp.bool_),
    )


def float_to_uint_edges(f32v):
    """float → unsigned outside the range: NaN → 0, negative → 0, too big →
    the maximum (XLA saturates)."""
    return f32v.astype(jnp.uint32), f32v.astype(jnp.uint8), f32v.astype(jnp.uint64)


def popcnt_clz(u8, u16, u32v, u64):
    return (
        lax.population_count(u8),
        lax.population_count(u16),
        lax.population_count(u32v),
        lax.population_count(u64),
        lax.clz(u8),
        lax.clz(u32v),
        lax.clz(u64),
    )


def bitcasts(f32v, u32v, f16v, u16v, f64v):
    return (
        lax.bitcast_convert_type(f32v, jnp.uint32),
        lax.bitcast_convert_type(u32v, jnp.float32),
        lax.bitcast_convert_type(f16v, jnp.uint16),
        lax.bitcast_convert_type(u16v, jnp.float16),
        lax.bitcast_convert_type(f64v, jnp.uint64),
        lax.bitcast_convert_type(u32v, jnp.int32),
    )


def uint_gather_sort(x, idx, keys):
    """uint32 indices into gather/dynamic_slice, a sort by uint32 keys."""
    g = x[idx]
    d = lax.dynamic_slice(x, (idx[0],), (3,))
    return g, d, jnp.sort(keys), jnp.argsort(keys).astype(jnp.int32)


# --- booleans ------------------------------------------------------------------


def bool_logic(a, b, x):
    """i1: and/or/xor/not, compare, select, convert, any/all, count."""
    c = (a & b) | (~a ^ b)
    return (
        c,
        a != b,
        a == b,
        a > b,
        jnp.where(c, x, -x),
        c.astype(jnp.float32),
        c.astype(jnp.int32),
        c.astype(jnp.uint8),
        jnp.any(a, axis=1),
        jnp.all(b, axis=0),
        jnp.sum(c, axis=1, dtype=jnp.int32),
        jnp.logical_and(x > 0, a),
        jnp.maximum(a, b),
        jnp.minimum(a, b),
    )


# --- floats --------------------------------------------------------------------


def f16_matmul(a, b):
    """jnp.dot on f16 inputs: an f16 result and an f32 one."""
    return jnp.dot(a, b), jnp.dot(a, b, preferred_element_type=jnp.float32)


def f16_elementwise(x, y):
    return (
        x + y,
        x * y,
        x / y,
        jnp.exp(x),
        jnp.tanh(y),
        jnp.sqrt(jnp.abs(x)),
        jnp.maximum(x, y),
        x < y,
        jnp.sum(x, axis=1),
        x.astype(jnp.float32),
        x.astype(jnp.float64),
        y.astype(jnp.int32),
        y.astype(jnp.bfloat16),
    )


def f64_reduce(x):
    """f64 reductions: a sum that f32 would round differently, mean,
    max, a log-sum-exp and a sum of squares."""
    return (
        jnp.sum(x, axis=1),
        jnp.mean(x, axis=0),
        jnp.max(x),
        jax.nn.logsumexp(x, axis=1),
        jnp.sum(x * x),
    )


def bf16_mix(x, y):
    """bf16 (one rounding per result: XLA may skip the rounding of a bf16
    intermediate, floors rounds every bf16 value the program has)."""
    return x * y, jnp.dot(x, y.T), x.astype(jnp.float32) + 1.0, jnp.maximum(x, y)


# ---------------------------------------------------------------------------------


def programs():
    f32 = rng.standard_normal(64).astype(np.float32)
    key = np.asarray(jax.random.key_data(jax.random.PRNGKey(42)))
    small8 = lambda n: rng.integers(0, 256, size=n).astype(np.uint8)  # noqa: E731
    small16 = lambda n: rng.integers(0, 2**16, size=n).astype(np.uint16)  # noqa: E731
    u64v = lambda n: rng.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, size=n, dtype=np.uint64)  # noqa: E731
    b8 = small8(32)
    b8[:3] = [0, 1, 200]  # division by zero, shifts by >= 8
    b16 = small16(32)
    b16[:3] = [0, 1, 40]
    b64 = u64v(32)
    b64[:3] = [0, 1, 70]
    fmix = np.concatenate([rng.uniform(0, 300, 20), rng.uniform(0, 5e9, 4)]).astype(np.float32)
    edges = np.array([np.nan, -1.0, -0.5, 0.0, 0.5, 255.5, 256.0, 1e10, 4294967295.0, 4.3e9, np.inf, -np.inf, 1e20, 3.5], np.float32)
    special16 = np.array([0.0, -0.0, 1.0, -1.0, 65504.0, np.inf, -np.inf, np.nan, 6e-8, 0.1], np.float16)
    return {
        "hash_mix": (hash_mix, [u32(256), np.array(0x9E3779B9, np.uint32)]),
        "prng_dropout": (prng_dropout, [key, rng.standard_normal((8, 16)).astype(np.float32)]),
        "prng_draws": (prng_draws, [key]),
        "uint_dot": (uint_dot, [small8((4, 16)), small8((16, 3)), u32((5, 8)), u32((8, 2))]),
        "dropout_bits": (dropout_bits, [u32((4, 32)), rng.standard_normal((4, 32)).astype(np.float32)]),
        "uint_arith": (uint_arith, [small8(32), b8, small16(32), b16, u64v(32), b64]),
        "uint_reduce": (uint_reduce, [u32((6, 10)), u64v((4, 7)), small8((3, 50))]),
        "int_float_converts": (
            int_float_converts,
            [small8(24), u32(24), u64v(24), rng.integers(-1000, 1000, 24).astype(np.int32), fmix, fmix.astype(np.float64) * 3],
        ),
        "float_to_uint_edges": (float_to_uint_edges, [edges]),
        "popcnt_clz": (popcnt_clz, [small8(16), small16(16), u32(16), u64v(16)]),
        "bitcasts": (bitcasts, [f32[:16], u32(16), special16, small16(10), f32[:8].astype(np.float64)]),
        "uint_gather_sort": (uint_gather_sort, [f32[:10], np.array([3, 9, 0, 4, 12], np.uint32), u32(12)]),
        "bool_logic": (bool_logic, [rng.random((4, 8)) < 0.5, rng.random((4, 8)) < 0.5, rng.standard_normal((4, 8)).astype(np.float32)]),
        "f16_matmul": (f16_matmul, [rng.standard_normal((16, 32)).astype(np.float16), rng.standard_normal((32, 8)).astype(np.float16)]),
        "f16_elementwise": (
            f16_elementwise,
            [np.concatenate([special16, rng.standard_normal(14).astype(np.float16)]).reshape(4, 6), rng.uniform(0.5, 3, (4, 6)).astype(np.float16)],
        ),
        "f64_reduce": (f64_reduce, [1e8 + rng.standard_normal((16, 1000))]),
        "bf16_mix": (bf16_mix, [rng.standard_normal((4, 8)).astype(jnp.bfloat16), rng.standard_normal((4, 8)).astype(jnp.bfloat16)]),
    }


def save(path, a):
    a = np.asarray(a)
    if a.dtype == jnp.bfloat16:
        a = a.view(np.uint16)
    np.save(path, a)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, (f, args) in programs().items():
        args = [np.asarray(a) for a in args]
        text = jax.jit(f).lower(*args).as_text()
        with open(os.path.join(out, name + ".mlir"), "w") as fh:
            fh.write(text)
        results = jax.jit(f)(*args)
        if not isinstance(results, tuple):
            results = (results,)
        for i, a in enumerate(args):
            save(os.path.join(out, f"{name}.in{i}.npy"), a)
        for i, r in enumerate(results):
            save(os.path.join(out, f"{name}.out{i}.npy"), r)
        print(name)


if __name__ == "__main__":
    main()
