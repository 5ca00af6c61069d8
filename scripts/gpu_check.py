#!/usr/bin/env python3
"""The GPU check's body (scripts/gpu_check.sh runs it on the GPU machine).

1. Self-tests and public programs: `floors-run NAME.floors --input ... --output-dir`,
   outputs compared with the expected ones (self-tests exactly; public programs
   with rtol/atol 1e-4, bf16 1e-2). A failure is rerun with --gpu-streams 1.
2. Bench programs: inputs from @main's signature (numpy, seed 0), the same for
   both; floors `floors-run --bench W,R` (device time, inputs resident) and
   XLA:GPU (jax.jit, inputs on the device, block_until_ready; default and
   `highest` matmul precision); floors' outputs checked against XLA's.
Everything stops at --deadline (epoch seconds); what is left is reported skipped.
"""

import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("--dir", default="gpu-check")
p.add_argument("--deadline", type=float, default=time.time() + 270)
p.add_argument("--streams", type=int, default=4, help="--gpu-streams for floors-run (default 4)")
p.add_argument("--warmup", type=int, default=5)
p.add_argument("--reps", type=int, default=20)
ARGS = p.parse_args()

FLOORS_RUN = os.path.join(ARGS.dir, "floors-run")
ENV = dict(os.environ)
if os.environ.get("FLOORS_LD_LIBRARY_PATH"):
    ENV["LD_LIBRARY_PATH"] = os.environ["FLOORS_LD_LIBRARY_PATH"]
TMP = tempfile.mkdtemp(prefix="floors-gpu-check-")


def left():
    return ARGS.deadline - time.time()


def floors_run(args, timeout=60):
    """(returncode, stdout, stderr); returncode None when out of time."""
    t = min(timeout, left())
    if t <= 1:
        return None, "", "skipped: out of time"
    try:
        r = subprocess.run([FLOORS_RUN] + args, capture_output=True, text=True, timeout=t, env=ENV)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %.0f s" % t


def as_float(a, dtype_name):
    if dtype_name == "bfloat16" and a.dtype == np.uint16:
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a


def tf32_gemms(artifact):
    """Whether the artifact has a TF32 cuBLAS gemm (`floors-run --info` lists its gemms)."""
    rc, out, _ = floors_run([artifact, "--info"])
    return rc == 0 and any(l.startswith("gemms:") and "TF32" in l for l in out.splitlines())


def compare(got, want, dtype_name, exact, tol=None):
    """None when equal enough, else a short reason."""
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if exact or got.dtype.kind in "biu" and dtype_name != "bfloat16":
        if np.array_equal(got, want):
            return None
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        return "%d of %d elements differ (first at %d: %r, expected %r)" % (
            len(bad), got.size, bad[0], got.reshape(-1)[bad[0]], want.reshape(-1)[bad[0]])
    g = as_float(got, dtype_name).astype(np.float64)
    w = as_float(want, dtype_name).astype(np.float64)
    tol = tol or (1e-2 if dtype_name in ("bfloat16", "float16") else 1e-4)
    # The absolute tolerance scales with the output's magnitude: a softmax
    # row of 1024 entries ~1e-3 each must not pass whatever it holds.
    finite = np.abs(w[np.isfinite(w)])
    scale = float(finite.max()) if finite.size else 1.0
    atol = tol * scale if scale > 0 else tol
    if np.allclose(g, w, rtol=tol, atol=atol, equal_nan=True) and np.array_equal(np.isnan(g), np.isnan(w)):
        return None
    both_nan = np.isnan(g) & np.isnan(w)
    err = np.where(both_nan, 0.0, np.abs(g - w))
    err = np.where(np.isnan(err), np.inf, err)
    i = int(np.argmax(err))
    return "max abs error %.3g at %d (%r, expected %r), tolerance %g (atol %.3g)" % (
        err.reshape(-1)[i], i, g.reshape(-1)[i], w.reshape(-1)[i], tol, atol)


def check_program(folder, name, manifest, exact):
    inputs = sorted(glob.glob(os.path.join(folder, name + ".in*.npy")), key=lambda s: int(re.search(r"\.in(\d+)\.npy$", s).group(1)))
    expected = sorted(glob.glob(os.path.join(folder, name + ".out*.npy")), key=lambda s: int(re.search(r"\.out(\d+)\.npy$", s).group(1)))
    out_dtypes = [o["dtype"] for o in manifest.get(name, {}).get("outputs", [])] or [""] * len(expected)
    # f32 dots of precision DEFAULT run on TF32 tensor cores (cuBLAS, as
    # XLA:GPU does): 11 significant bits per operand element.
    tf32 = 5e-3 if tf32_gemms(os.path.join(folder, name + ".floors")) else None

    def attempt(streams, extra=()):
        out = os.path.join(TMP, "%s-%s-%d%s" % (os.path.basename(folder), name, streams, "".join(extra)))
        args = [os.path.join(folder, name + ".floors"), "--gpu-streams", str(streams), "--output-dir", out, *extra]
        for i in inputs:
            args += ["--input", i]
        t0 = time.time()
        rc, _, err = floors_run(args)
        ms = (time.time() - t0) * 1e3
        if rc != 0:
            return (err.strip().splitlines() or ["exit %s" % rc])[-1][:300], ms
        for k, e in enumerate(expected):
            path = os.path.join(out, "out%d.npy" % k)
            if not os.path.exists(path):
                return "no out%d.npy" % k, ms
            why = compare(np.load(path), np.load(e), out_dtypes[k] if k < len(out_dtypes) else "", exact, tf32)
            if why:
                return "out%d: %s" % (k, why), ms
        return None, ms

    why, ms = attempt(ARGS.streams)
    note = ""
    if why and ARGS.streams != 1 and not why.startswith("skipped"):
        why1, _ = attempt(1)
        note = " (on 1 stream: %s)" % ("passes" if why1 is None else "fails too")
    if why and not why.startswith("skipped"):
        # Rerun synchronizing after every thunk: the error names the thunk and kernel that failed.
        why_sync, _ = attempt(1, ["--gpu-sync"])
        if why_sync and why_sync != why:
            note += " (with --gpu-sync: %s)" % why_sync
    return why, note, ms


def section(title):
    print("\n== " + title, flush=True)


# --- 1. self-tests and public programs ---------------------------------------------------

failures = {}
for line in open(os.path.join(ARGS.dir, "compile-failures.txt")):
    if line.strip():
        k, _, v = line.rstrip("\n").partition("\t")
        failures[k] = v

manifest = json.load(open(os.path.join(ARGS.dir, "public", "manifest.json")))["programs"]
counts = {"passed": 0, "failed": 0, "skipped": 0, "not compiled": 0}
# "emitter": floors' own GEMM kernels against the CPU floor; "stress": the
# ragged GPU stress set against the CPU floor (absent from folders an older
# gpu_prepare.sh made).
for kind, exact in (("selftest", True), ("public", False), ("emitter", False), ("stress", False)):
    folder = os.path.join(ARGS.dir, kind)
    if kind in ("emitter", "stress"):
        path = os.path.join(folder, "manifest.json")
        manifest = json.load(open(path))["programs"] if os.path.exists(path) else {}
    names = sorted(os.path.basename(f)[:-len(".floors")] for f in glob.glob(os.path.join(folder, "*.floors")))
    if kind in ("public", "emitter", "stress"):
        names = sorted(set(names) | {k.split("/", 1)[1] for k in failures if k.startswith(kind + "/")})
    section("%s programs on the GPU (floors-run, --gpu-streams %d)" % (kind, ARGS.streams))
    for name in names:
        if "%s/%s" % (kind, name) in failures:
            counts["not compiled"] += 1
            print("  %-24s NOT COMPILED  %s" % (name, failures["%s/%s" % (kind, name)][:200]), flush=True)
            continue
        why, note, ms = check_program(folder, name, manifest if kind != "selftest" else {}, exact)
        if why is None:
            counts["passed"] += 1
            print("  %-24s ok            %7.0f ms (process)" % (name, ms), flush=True)
        elif why.startswith("skipped"):
            counts["skipped"] += 1
            print("  %-24s SKIPPED       out of time" % name, flush=True)
        else:
            counts["failed"] += 1
            print("  %-24s FAILED        %s%s" % (name, why, note), flush=True)
print("\n%d passed, %d failed, %d skipped, %d not compiled" % (counts["passed"], counts["failed"], counts["skipped"], counts["not compiled"]), flush=True)

# --- 2. bench: floors vs XLA:GPU -----------------------------------------------------------

section("bench programs: floors vs XLA:GPU (median ms of %d runs after %d warmup)" % (ARGS.reps, ARGS.warmup))
try:
    import jax
    import jax.numpy as jnp
    from jax import lax
    print("  jax %s, devices %s" % (jax.__version__, jax.devices()), flush=True)
    if not any(d.platform == "gpu" for d in jax.devices()):
        print("  warning: JAX sees no GPU: the XLA column is not XLA:GPU", flush=True)
except Exception as e:  # noqa: BLE001 - any import failure only drops the XLA column
    jax = None
    print("  JAX unavailable (%s): no XLA column" % e, flush=True)

# The bench programs in jax.numpy (as scripts/bench.py has them).
JAX_FNS = {}
if jax is not None:
    JAX_FNS = {
        "matmul": lambda a, b: a @ b,
        "mlp": lambda x, w1, b1, w2, b2: jax.nn.softmax(jax.nn.relu(x @ w1 + b1) @ w2 + b2, axis=-1),
        "softmax": lambda x: jax.nn.softmax(x, axis=-1),
        "layernorm": lambda x, g, b: (x - jnp.mean(x, -1, keepdims=True))
        * lax.rsqrt(jnp.mean(jnp.square(x - jnp.mean(x, -1, keepdims=True)), -1, keepdims=True) + 1e-5) * g + b,
        "attention": lambda q, k, v: jax.nn.softmax(q @ k.T / jnp.sqrt(np.float32(64.0)), axis=-1) @ v,
        "elementwise_chain": lambda a, b: jnp.tanh(a * b + jnp.exp(-a)),
        "row_sum": lambda x: jnp.sum(x, axis=1),
        "conv2d_nhwc": lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
    }

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "i32": np.int32, "i64": np.int64, "i8": np.int8, "i1": np.bool_}


def signature(text):
    m = re.search(r"func\.func\s+public\s+@main\((.*?)\)\s*->", text, re.S)
    shapes = []
    for t in re.findall(r"%\w+:\s*tensor<([^>]*)>", m.group(1)):
        parts = t.split("x")
        shapes.append((tuple(int(d) for d in parts[:-1]), parts[-1]))
    return shapes


def make_inputs(sig, rng):
    out = []
    for shape, dt in sig:
        if dt.startswith("f"):
            out.append(rng.standard_normal(shape).astype(DTYPES[dt]))
        elif dt == "i1":
            out.append(rng.integers(0, 2, shape).astype(np.bool_))
        else:
            out.append(rng.integers(-8, 8, shape).astype(DTYPES[dt]))
    return out


def time_xla(f, arrays, precision):
    with jax.default_matmul_precision(precision):
        dev = [jax.device_put(a) for a in arrays]
        compiled = jax.jit(f).lower(*dev).compile()
        out = None
        for _ in range(max(1, ARGS.warmup)):
            out = jax.block_until_ready(compiled(*dev))
        times = []
        for _ in range(ARGS.reps):
            t = time.perf_counter()
            jax.block_until_ready(compiled(*dev))
            times.append((time.perf_counter() - t) * 1e3)
    outs = out if isinstance(out, (tuple, list)) else [out]
    return float(np.median(times)), [np.asarray(o) for o in outs]


def fmt(v):
    return "%.4f" % v if isinstance(v, float) else v


rows = []
bench_dir = os.path.join(ARGS.dir, "bench")
for src in sorted(glob.glob(os.path.join(bench_dir, "*.stablehlo.mlir"))):
    name = os.path.basename(src)[: -len(".stablehlo.mlir")]
    row = {"name": name, "floors": "-", "xla": "-", "xla_hi": "-", "ratio": "-", "check": ""}
    rows.append(row)
    if left() < 10:
        row["check"] = "skipped: out of time"
        continue
    arrays = make_inputs(signature(open(src).read()), np.random.default_rng(0))
    paths = []
    for k, a in enumerate(arrays):
        paths.append(os.path.join(TMP, "%s.in%d.npy" % (name, k)))
        np.save(paths[-1], a)
    floors_out = None
    if "bench/" + name in failures:
        row["check"] = "not compiled: " + failures["bench/" + name][:120]
    else:
        art = os.path.join(bench_dir, name + ".floors")
        ins = sum((["--input", q] for q in paths), [])
        out = os.path.join(TMP, "bench-" + name)
        rc, _, err = floors_run([art, "--gpu-streams", str(ARGS.streams), "--output-dir", out] + ins)
        if rc != 0:
            row["check"] = "floors failed: " + ((err.strip().splitlines() or ["?"])[-1][:160])
        else:
            floors_out = [np.load(os.path.join(out, "out%d.npy" % k)) for k in range(len(glob.glob(os.path.join(out, "out*.npy"))))]
            rc, so, err = floors_run([art, "--gpu-streams", str(ARGS.streams), "--bench", "%d,%d" % (ARGS.warmup, ARGS.reps)] + ins)
            m = re.search(r"median_ms=([\d.]+)", so)
            if m:
                row["floors"] = float(m.group(1))
            else:
                row["check"] = "floors --bench failed: " + ((err.strip().splitlines() or ["?"])[-1][:160])
    f = JAX_FNS.get(name)
    if f is not None and left() > 10:
        try:
            row["xla"], xla_out = time_xla(f, arrays, "default")
            if left() > 10:
                row["xla_hi"], xla_out = time_xla(f, arrays, "highest")
            if floors_out is not None and not row["check"]:
                # GPU against GPU, different summation orders (and TF32 when only the default ran).
                tol = 1e-3 if isinstance(row["xla_hi"], float) else 1e-2
                bad = [compare(g, w.astype(g.dtype), "", False, tol) for g, w in zip(floors_out, xla_out)]
                bad = [b for b in bad if b]
                row["check"] = "matches XLA" if not bad else "differs from XLA: " + bad[0][:120]
        except Exception as e:  # noqa: BLE001 - one program's XLA failure is reported, not fatal
            row["check"] = (row["check"] + "; " if row["check"] else "") + "XLA failed: %s" % str(e).splitlines()[0][:120]
    if isinstance(row["floors"], float) and isinstance(row["xla"], float):
        row["ratio"] = "%.2fx" % (row["floors"] / row["xla"])
    print("  %-18s floors %s  xla %s  %s" % (name, fmt(row["floors"]), fmt(row["xla"]), row["check"]), flush=True)



print("\n| program | floors ms (device) | XLA:GPU ms | XLA:GPU highest ms | floors / XLA | outputs |")
print("|---|---:|---:|---:|---:|---|")
for r in rows:
    print("| %s | %s | %s | %s | %s | %s |" % (r["name"], fmt(r["floors"]), fmt(r["xla"]), fmt(r["xla_hi"]), r["ratio"], r["check"]))
print("\nfloors: device time between events around the thunks (inputs resident); XLA: host wall time of a jitted call on "
      "device arrays with block_until_ready.", flush=True)
sys.exit(0 if counts["failed"] == 0 and counts["skipped"] == 0 else 1)
