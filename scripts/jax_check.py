#!/usr/bin/env python3
"""Check floors on JAX programs that are not in the corpus (not part of CI).

Lowers each jax function below with `jax.jit(f).lower(...).as_text()`, runs it
with `floors run --threads N` on random inputs, and compares with JAX's own
outputs. With `--artifact`, each program is instead compiled to a `.floors`
artifact by `floors compile -o` and run by `floors-run` in another process
(the runtime binary, no compiler in it). Needs jax + numpy: run it with `.venv-bench/bin/python` (made by
scripts/bench.sh). Exit 1 if any program fails or mismatches.

    .venv-bench/bin/python scripts/jax_check.py [--threads 1,2,3] [--only NAME,..] [--floors PATH] [--artifact]
"""
import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

REPO = Path(__file__).resolve().parent.parent
rng = np.random.default_rng(0)


def f32(*s):
    return rng.standard_normal(s).astype(np.float32)


def i32(*s, hi=10):
    return rng.integers(0, hi, s).astype(np.int32)


def _switch(i, x):
    return jax.lax.switch(i, [lambda v: v * 2, lambda v: jnp.sin(v), lambda v: v @ v.T[:, : v.shape[1]]], x)


def _while_dynamic_slice(x):
    def body(c):
        i, acc = c
        return i + 1, acc + jax.lax.dynamic_slice(x, (i * 4, 0), (4, 64)).sum(0)

    return jax.lax.while_loop(lambda c: c[0] < 16, body, (0, jnp.zeros(64, jnp.float32)))[1]


def _maxpool_grad(x):
    f = lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (2, 2), (2, 2), "VALID").sum()
    return jax.grad(f)(x)


def _conv(lhs, rhs, strides, padding):
    return lambda x, w: jax.lax.conv_general_dilated(x, w, strides, padding, dimension_numbers=(lhs, rhs, lhs))


# name: (function, inputs, tolerance)
PROGRAMS = {
    "bmm_transposed": (lambda a, b: jnp.einsum("bij,bkj->bik", a, b), [f32(4, 64, 32), f32(4, 48, 32)], 2e-4),
    "matmul_bias_relu": (lambda a, b, c: jax.nn.relu(a @ b + c), [f32(256, 128), f32(128, 192), f32(192)], 2e-4),
    "matmul_odd_shapes": (lambda a, b: a @ b, [f32(130, 70), f32(70, 50)], 2e-4),
    "matmul_reshaped_out": (lambda a, b: (a @ b).reshape(64, 4, 48), [f32(64, 96), f32(96, 192)], 2e-4),
    "matmul_int": (lambda a, b: a @ b, [i32(64, 32), i32(32, 48)], 0),
    "matmul_bf16": (lambda a, b: (a.astype(jnp.bfloat16) @ b.astype(jnp.bfloat16)).astype(jnp.float32), [f32(64, 64), f32(64, 64)], 1e-2),
    "matvec": (lambda a, v: a @ v, [f32(512, 256), f32(256)], 2e-4),
    "batch_matmul_broadcast": (lambda a, b: jnp.matmul(a, b), [f32(8, 64, 32), f32(32, 64)], 2e-4),
    "gelu_mlp": (lambda x, w1, w2: jax.nn.gelu(x @ w1) @ w2, [f32(128, 256), f32(256, 512), f32(512, 128)], 2e-4),
    "attention_heads": (lambda q, k, v: jax.nn.softmax(jnp.einsum("hqd,hkd->hqk", q, k) / 8.0, axis=-1) @ v, [f32(4, 128, 64)] * 3, 2e-4),
    "conv_nhwc_stride2": (_conv("NHWC", "HWIO", (2, 2), "SAME"), [f32(2, 32, 32, 16), f32(3, 3, 16, 32)], 2e-4),
    "conv_nchw": (_conv("NCHW", "OIHW", (1, 1), "VALID"), [f32(1, 8, 20, 20), f32(16, 8, 3, 3)], 2e-4),
    "conv_bias_relu": (lambda x, w, b: jax.nn.relu(_conv("NHWC", "HWIO", (1, 1), "SAME")(x, w) + b), [f32(1, 28, 28, 32), f32(3, 3, 32, 64), f32(64)], 2e-4),
    "softmax_axis0": (lambda x: jax.nn.softmax(x, axis=0), [f32(300, 64)], 2e-4),
    "double_softmax": (lambda x: jax.nn.softmax(jax.nn.softmax(x, -1) * 3, -1), [f32(128, 256)], 2e-4),
    "logsumexp": (lambda x: jax.scipy.special.logsumexp(x, axis=-1), [f32(128, 512)], 2e-4),
    "layernorm_3d": (lambda x, g, b: (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b, [f32(4, 64, 256), f32(256), f32(256)], 2e-4),
    "rms_norm": (lambda x: x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6), [f32(64, 768)], 2e-4),
    "reduce_middle_axis": (lambda x: x.sum(axis=1), [f32(32, 100, 48)], 2e-4),
    "mean_axis0_3d": (lambda x: x.mean(axis=0), [f32(16, 64, 128)], 2e-4),
    "mean_var_columns": (lambda x: (x.mean(0), x.var(0)), [f32(1024, 96)], 2e-4),
    "column_norm": (lambda x: x / jnp.linalg.norm(x, axis=0, keepdims=True), [f32(512, 256)], 2e-4),
    "min_minus": (lambda x: jnp.min(x, axis=1, keepdims=True) - x, [f32(300, 128)], 2e-4),
    "sum_all": (lambda x: x.sum(), [f32(1024, 512)], 2e-4),
    "argmax_rows": (lambda x: jnp.argmax(x, axis=-1), [f32(256, 300)], 0),
    "top_k": (lambda x: jax.lax.top_k(x, 5)[0], [f32(32, 100)], 2e-4),
    "cumsum": (lambda x: jnp.cumsum(x, axis=-1), [f32(64, 128)], 2e-4),
    "max_pool": (lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), [f32(2, 32, 32, 16)], 2e-4),
    "max_pool_grad": (_maxpool_grad, [f32(64, 64)], 2e-4),
    "transpose_add": (lambda x, y: x.T + y, [f32(256, 384), f32(384, 256)], 2e-4),
    "flip_scale": (lambda x: jnp.flip(x, axis=1) * 2.0, [f32(512, 300)], 2e-4),
    "pad_negative": (lambda x: jax.lax.pad(x, 0.0, [(2, -1, 1), (-2, 3, 0)]), [f32(16, 16)], 0),
    "iota_reverse": (lambda x: jnp.flip(x + jnp.arange(x.shape[1], dtype=jnp.float32), 0), [f32(128, 96)], 2e-4),
    "concat": (lambda x, y: jnp.concatenate([x, y * 2], axis=1), [f32(256, 128), f32(256, 64)], 2e-4),
    "sigmoid_tanh_exp": (lambda x, y: jax.nn.sigmoid(x) * jnp.tanh(y) + jnp.exp(-x * x), [f32(512, 512), f32(512, 512)], 2e-4),
    "erf_log1p": (lambda x: jax.scipy.special.erf(x) + jnp.log1p(jnp.abs(x)), [f32(256, 256)], 2e-4),
    "where_clip": (lambda x, y: jnp.where(x > 0, jnp.clip(y, -0.5, 0.5), x * y), [f32(300, 200), f32(300, 200)], 2e-4),
    "int_ops": (lambda a, b: (a // (b + 1)) + (a % (b + 1)) + jnp.left_shift(a, 2) + jnp.clip(a, 2, 5), [i32(128, 64, hi=100), i32(128, 64, hi=7)], 0),
    "scatter_add": (lambda x, idx, u: x.at[idx].add(u), [f32(100, 16), i32(40, hi=100), f32(40, 16)], 2e-4),
    "gather_rows": (lambda x, idx: x[idx], [f32(500, 64), i32(200, hi=500)], 0),
    "sort_rows": (lambda x: jnp.sort(x, axis=-1), [f32(64, 100)], 0),
    "fori_loop": (lambda x: jax.lax.fori_loop(0, 5, lambda i, c: c * 0.9 + jnp.sin(c), x), [f32(256, 256)], 2e-4),
    "while_dynamic_slice": (_while_dynamic_slice, [f32(64, 64)], 2e-4),
    "switch": (_switch, [np.int32(2), f32(32, 32)], 2e-4),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", default="1,2", help="comma-separated --threads values to run each program with")
    p.add_argument("--only", default="", help="comma-separated program names")
    p.add_argument("--floors", type=Path, default=REPO / "target" / "release" / "floors")
    p.add_argument("--artifact", action="store_true", help="compile to .floors with `floors compile -o`, run with floors-run")
    p.add_argument(
        "--target",
        default="cpu",
        choices=["cpu", "tpu"],
        help="the floor (tpu: kernels in the Mosaic interpreter; a program the TPU floor cannot lower yet must be a located error, counted apart)",
    )
    a = p.parse_args()
    floors_run = a.floors.with_name("floors-run")
    names = [n for n in PROGRAMS if not a.only or n in a.only.split(",")]
    failures = 0
    not_yet = 0
    target = ["--target", a.target]
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            f, args, tol = PROGRAMS[name]
            prog = Path(tmp) / f"{name}.mlir"
            prog.write_text(jax.jit(f).lower(*args).as_text())
            want = jax.jit(f)(*args)
            want = want if isinstance(want, tuple) else (want,)
            inputs = []
            for i, x in enumerate(args):
                inputs += ["--input", str(Path(tmp) / f"{name}.in{i}.npy")]
                np.save(inputs[-1], np.asarray(x))
            for t in a.threads.split(","):
                out = Path(tmp) / f"{name}.t{t}"
                if a.artifact:
                    art = Path(tmp) / f"{name}.t{t}.floors"
                    r = subprocess.run([str(a.floors), "compile", str(prog), *target, "--workgroups", t, "-o", str(art)], capture_output=True, text=True)
                    if r.returncode == 0:
                        r = subprocess.run([str(floors_run), str(art), "--output-dir", str(out), "--threads", t] + inputs, capture_output=True, text=True)
                else:
                    r = subprocess.run([str(a.floors), "run", str(prog), *target, "--output-dir", str(out), "--threads", t] + inputs, capture_output=True, text=True)
                # The TPU floor refuses what it cannot lower yet with a located error (exit 1).
                if a.target == "tpu" and r.returncode == 1 and "has no TPU lowering" in r.stderr and f"{name}.mlir:" in r.stderr:
                    print(f"{name} --threads {t}: not on the TPU floor yet: {r.stderr.strip().splitlines()[0][:300]}")
                    not_yet += 1
                    continue
                if r.returncode != 0:
                    print(f"{name} --threads {t}: FAIL {r.stderr.strip()[:400]}")
                    failures += 1
                    continue
                bad = []
                for k, w in enumerate(want):
                    w, g = np.asarray(w), np.load(out / f"out{k}.npy")
                    if w.shape != g.shape or (w.dtype != g.dtype and w.dtype.kind != "V"):
                        bad.append(f"out{k}: {g.dtype}{g.shape} vs {w.dtype}{w.shape}")
                    elif not np.allclose(g, w, rtol=tol, atol=tol, equal_nan=True):
                        bad.append(f"out{k}: max abs diff {np.max(np.abs(g.astype(np.float64) - w)):.3g}")
                print(f"{name} --threads {t}: {'ok' if not bad else 'MISMATCH ' + '; '.join(bad)}")
                failures += bool(bad)
    print(f"{len(names)} programs, {failures} failures" + (f", {not_yet} not on the TPU floor yet" if a.target == "tpu" else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
