#!/usr/bin/env python3
"""JAX programs on the simulated GPU: each function below is lowered with
`jax.jit(f).lower(*args).as_text()`, compiled with `floors run --target gpu
--device sim` (every check on) for every chip and gemm mode, and its outputs
compared with JAX's own (XLA:CPU) on the same inputs.

The kinds a JAX user runs: attention (f32, bf16), convolutions in several
layouts, strides, dilations and groups, scans, while loops and cumulative
sums, scatter-add and gathers, sorts, argsort, top-k, argmax, f16/bf16
matmuls with f32 accumulation, unsigned-integer hashing and jax.random
(threefry), batch norm, layer norm, cross-entropy, GELU.

Usage: scripts/gpu_sim_jax.py [--floors target/release/floors]
       [--chips sm_80,sm_90,sm_90a] [--gemm library,emitter] [--only NAME,...]
       [--out FILE.md]
Exit status 1 when a run fails or mismatches.
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import jax
import jax.numpy as jnp
from jax import lax

ROOT = Path(__file__).resolve().parent.parent
jax.config.update("jax_platforms", "cpu")

rng = np.random.default_rng(0)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def conv(lhs_spec, rhs_spec, out_spec, strides=(1, 1), padding="SAME", rhs_dil=(1, 1), lhs_dil=(1, 1), groups=1):
    dn = (lhs_spec, rhs_spec, out_spec)

    def f(x, w):
        return lax.conv_general_dilated(x, w, strides, padding, lhs_dilation=lhs_dil, rhs_dilation=rhs_dil,
                                        dimension_numbers=dn, feature_group_count=groups)
    return f


def attention(q, k, v):
    s = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(s, axis=-1) @ v


def attention_bf16(q, k, v):
    s = jnp.dot(q, k.T, preferred_element_type=jnp.float32) / 8.0
    p = jax.nn.softmax(s, axis=-1).astype(jnp.bfloat16)
    return jnp.dot(p, v, preferred_element_type=jnp.float32)


def rnn_scan(xs, h0, w):
    def step(h, x):
        h = jnp.tanh(h @ w + x)
        return h, h
    return lax.scan(step, h0, xs)


def while_loop(x):
    def cond(c):
        return c[0] < 37

    def body(c):
        return c[0] + 1, c[1] * 0.97 + jnp.sin(c[1])
    return lax.while_loop(cond, body, (jnp.int32(0), x))[1]


def hash_u32(x):
    # murmur3's finalizer on uint32
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


def random_normal(seed):
    key = jax.random.key(seed)
    return jax.random.normal(key, (64, 33)), jax.random.bits(key, (100,), jnp.uint32)


def batch_norm(x, g, b):
    m = x.mean(axis=(0, 1, 2))
    v = x.var(axis=(0, 1, 2))
    return (x - m) * lax.rsqrt(v + 1e-5) * g + b


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g + b


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, labels[:, None], axis=-1).mean()


# f32 dots of precision DEFAULT run on TF32 tensor cores (cuBLAS, as
# XLA:GPU's do): programs with one compare at 5e-3.
PROGRAMS = {
    "attention_f32": (attention, lambda: (f32(64, 32), f32(64, 32), f32(64, 32)), 5e-3),
    "attention_bf16": (attention_bf16, lambda: (f32(64, 64).astype(jnp.bfloat16), f32(64, 64).astype(jnp.bfloat16),
                                                f32(64, 64).astype(jnp.bfloat16)), 2e-2),
    "conv_nhwc_same": (conv("NHWC", "HWIO", "NHWC"), lambda: (f32(2, 13, 11, 8), f32(3, 3, 8, 16)), 1e-4),
    "conv_nchw_stride2": (conv("NCHW", "OIHW", "NCHW", strides=(2, 2), padding="VALID"), lambda: (f32(2, 6, 15, 14), f32(5, 6, 3, 3)), 1e-4),
    "conv_dilated_grouped": (conv("NHWC", "HWIO", "NHWC", rhs_dil=(2, 2), groups=2), lambda: (f32(1, 17, 17, 8), f32(3, 3, 4, 6)), 1e-4),
    "conv_transposed": (conv("NHWC", "HWIO", "NHWC", lhs_dil=(2, 2), padding=((2, 2), (2, 2))), lambda: (f32(1, 7, 7, 4), f32(3, 3, 4, 4)), 1e-4),
    "conv1d_nwc": (lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
                   lambda: (f32(3, 50, 7), f32(5, 7, 9)), 1e-4),
    "rnn_scan": (rnn_scan, lambda: (f32(20, 4, 16, scale=0.5), f32(4, 16), f32(16, 16, scale=0.3)), 5e-3),
    "while_loop": (while_loop, lambda: (f32(300),), 1e-4),
    "cumsum_cumprod": (lambda x: (jnp.cumsum(x, axis=1), jnp.cumprod(1 + 0.01 * x, axis=0)), lambda: (f32(33, 257),), 1e-4),
    "scatter_add": (lambda x, i, u: x.at[i].add(u), lambda: (f32(100, 8), rng.integers(0, 100, 300).astype(np.int32), f32(300, 8)), 1e-4),
    "gather_take": (lambda x, i: (jnp.take(x, i, axis=0), x[i, 3]), lambda: (f32(77, 19), rng.integers(0, 77, 123).astype(np.int32)), 0.0),
    "segment_sum": (lambda x, s: jax.ops.segment_sum(x, s, num_segments=10), lambda: (f32(200, 5), rng.integers(0, 10, 200).astype(np.int32)), 1e-4),
    "sort_rows": (lambda x: jnp.sort(x, axis=-1), lambda: (f32(33, 100),), 0.0),
    "argsort_topk": (lambda x: (jnp.argsort(x, axis=-1), lax.top_k(x, 7)), lambda: (f32(17, 64),), 0.0),
    "argmax_argmin": (lambda x: (jnp.argmax(x, axis=0), jnp.argmin(x, axis=1)), lambda: (f32(45, 301),), 0.0),
    "matmul_f16": (lambda a, b: jnp.dot(a, b, preferred_element_type=jnp.float32),
                   lambda: (f32(96, 200).astype(np.float16), f32(200, 72).astype(np.float16)), 1e-3),
    "matmul_bf16_batched": (lambda a, b: jnp.einsum("bij,bjk->bik", a, b, preferred_element_type=jnp.float32),
                            lambda: (f32(3, 40, 48).astype(jnp.bfloat16), f32(3, 48, 24).astype(jnp.bfloat16)), 1e-3),
    "hash_u32": (hash_u32, lambda: (rng.integers(0, 2**32, 1000, dtype=np.uint64).astype(np.uint32),), 0.0),
    "random_threefry": (random_normal, lambda: (np.int32(42),), 1e-5),
    "batch_norm": (batch_norm, lambda: (f32(4, 9, 9, 24), f32(24), f32(24)), 1e-4),
    "layer_norm_gelu": (lambda x, g, b: jax.nn.gelu(layer_norm(x, g, b)), lambda: (f32(64, 384), f32(384), f32(384)), 1e-4),
    "cross_entropy": (cross_entropy, lambda: (f32(128, 1000), rng.integers(0, 1000, 128).astype(np.int32)), 1e-4),
    "unsigned_reduce_shift": (lambda x: ((x >> 3).sum(dtype=jnp.uint32), x.max(), (x % 7).astype(jnp.uint8)),
                              lambda: (rng.integers(0, 2**32, 999, dtype=np.uint64).astype(np.uint32),), 0.0),
}


def save(path, a):
    a = np.asarray(a)
    if a.dtype == jnp.bfloat16:
        a = a.view(np.uint16)
    np.save(path, a)


def compare(got, want, tol):
    if got.shape != want.shape:
        return f"shape {got.shape} vs {want.shape}"
    if want.dtype == jnp.bfloat16:
        want = want.astype(np.float32)
        got = (got.astype(np.uint32) << 16).view(np.float32)
    if tol == 0.0 or not np.issubdtype(want.dtype, np.floating):
        bad = int(np.sum(got != want))
        return None if bad == 0 else f"{bad} elements differ"
    g, w = got.astype(np.float64), want.astype(np.float64)
    scale = max(1.0, float(np.max(np.abs(w[np.isfinite(w)]))) if np.isfinite(w).any() else 1.0)
    err = np.abs(g - w)
    ok = np.array_equal(np.isnan(g), np.isnan(w)) and np.all((err <= tol * scale) | (g == w))
    return None if ok else f"max abs err {np.nanmax(err):.3g} (tolerance {tol * scale:.3g})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--floors", default=str(ROOT / "target" / "release" / "floors"))
    ap.add_argument("--chips", default="sm_80,sm_90,sm_90a")
    ap.add_argument("--gemm", default="library,emitter")
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    only = [o for o in a.only.split(",") if o]
    work = Path(tempfile.mkdtemp(prefix="gpu_sim_jax_"))
    rows, bad, total = [], 0, 0.0
    for name, (fn, make, tol) in PROGRAMS.items():
        if only and name not in only:
            continue
        args = make()
        jf = jax.jit(fn)
        text = jf.lower(*args).as_text()
        wants = [np.asarray(w) for w in jax.tree_util.tree_leaves(jf(*args))]
        case = work / name
        case.mkdir()
        (case / "program.mlir").write_text(text)
        flags = []
        for k, x in enumerate(args):
            save(case / f"in{k}.npy", x)
            flags += ["--input", str(case / f"in{k}.npy")]
        for chip in a.chips.split(","):
            for gemm in a.gemm.split(","):
                out = case / f"{chip}_{gemm}"
                cmd = [a.floors, "run", "--target", "gpu", "--gpu", chip, "--gpu-gemm", gemm, "--device", "sim",
                       "--counters", str(case / "program.mlir"), *flags, "--output-dir", str(out)]
                t = time.time()
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
                    rc, log = p.returncode, p.stdout + p.stderr
                except subprocess.TimeoutExpired:
                    rc, log = 124, f"timeout after {a.timeout} s"
                dt = time.time() - t
                total += dt
                if rc != 0:
                    lines = [ln for ln in log.splitlines() if ln.strip()]
                    verdict, detail = "FAIL", (lines[-1] if lines else f"exit {rc}")[:300]
                else:
                    why = []
                    for k, w in enumerate(wants):
                        r = compare(np.load(out / f"out{k}.npy"), w, tol)
                        if r:
                            why.append(f"out{k}: {r}")
                    verdict = "ok" if not why else "MISMATCH"
                    detail = "; ".join(why) or next((ln for ln in log.splitlines() if ln.startswith("device:")), "")
                bad += verdict != "ok"
                rows.append((name, f"{chip} {gemm}", verdict, detail, dt))
                print(f"{name} [{chip} {gemm}] {verdict} {dt:.1f}s {detail if verdict != 'ok' else ''}", flush=True)
    lines = ["| program | chip, gemm | result | detail | s |", "|---|---|---|---|---|"]
    lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3].replace('device: ', '')} | {r[4]:.1f} |" for r in rows]
    summary = f"{len(rows)} runs of {len({r[0] for r in rows})} programs, {bad} failed or mismatched, {total:.1f} s"
    print(summary)
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n\n" + summary + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
