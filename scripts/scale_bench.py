#!/usr/bin/env python3
"""Scaling benchmark (not a test): floors vs XLA:CPU per op family at growing sizes.

For every family (a small jax function: sort, argsort, top_k, cumsum, scan,
fori_loop, max pool, median, elementwise, reduction, dot, conv, gather,
scatter-add, concatenate, pad, transpose, dynamic slices, select_and_scatter,
while) and every size n (about n input elements): the function is lowered
with `jax.jit(f).lower(*args).as_text()` to NAME_n.mlir, its inputs (fixed
seed) saved as .npy; XLA:CPU runs the jitted function (warm-ups, then the
median of max(--reps, --min-time worth) runs); floors runs `floors bench` on
the same files, first once with --output-dir to check its outputs against
JAX's (exact for sort, argsort, top_k, data movement and integer outputs;
rtol = atol = 1e-4 otherwise, with a float64 second opinion), then timed;
the timing alternates the sides for --rounds rounds, each side keeping its
lowest round median.
Per family: floors ms, XLA ms and floors/XLA per size, the fitted exponent
(slope of log time against log n) of each side, and a FLAG when floors scales
worse than XLA. Then compile time and peak RSS of `floors compile -o` on
elementwise chains of 100 to 100k ops.

Run it through scripts/scale_bench.sh (builds floors in release, makes the
venv), or directly with a python that has jax and numpy. Exit status: 0
unless floors failed for real (an error, or outputs that do not match JAX's);
slow numbers and timeouts are not failures (they are flagged).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SIZES = "1024,16384,262144,1048576"
QUICK_SIZES = "1024,16384,65536"
DEFAULT_COMPILE_SIZES = "100,1000,10000,100000,200000"
DEFAULT_DISTINCT_SIZES = "100,1000,10000,50000"
RTOL = 1e-4
ATOL = 1e-4


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--floors", type=Path, default=REPO / "target" / "release" / "floors",
                   help="floors binary (default: %(default)s)")
    p.add_argument("--sizes", default=None,
                   help="comma-separated sizes n (default: %s)" % DEFAULT_SIZES)
    p.add_argument("--quick", action="store_true", help="sizes %s (unless --sizes)" % QUICK_SIZES)
    p.add_argument("--families", default="",
                   help="comma-separated subset of the families (default: all; --list shows them)")
    p.add_argument("--list", action="store_true", help="print the families and exit")
    p.add_argument("--reps", type=int, default=10, help="minimum timed runs per side (default: %(default)s)")
    p.add_argument("--min-time", type=float, default=0.5,
                   help="time at least this many seconds of runs per side and case (default: %(default)s)")
    p.add_argument("--max-reps", type=int, default=2000,
                   help="never more timed runs than this (default: %(default)s)")
    p.add_argument("--warmup", type=int, default=3, help="untimed runs first (default: %(default)s)")
    p.add_argument("--rounds", type=int, default=3,
                   help="timing rounds per case, alternating XLA and floors; each side's lowest "
                        "median counts (default: %(default)s)")
    ncpu = len(os.sched_getaffinity(0))
    p.add_argument("--threads", type=int, default=ncpu,
                   help="floors --threads and the cores XLA:CPU may use (default: all %d)" % ncpu)
    p.add_argument("--timeout", type=float, default=120,
                   help="seconds allowed to one floors process (default: %(default)s)")
    p.add_argument("--xla-limit", type=float, default=2.0,
                   help="skip a size (and the larger ones) of a family when one XLA run takes longer "
                        "(default: %(default)s s)")
    p.add_argument("--fit-from", type=int, default=16384,
                   help="fit exponents over sizes >= this when there are 2 such (default: %(default)s)")
    p.add_argument("--flag-exponent", type=float, default=0.15,
                   help="FLAG when floors' exponent exceeds XLA's by more (default: %(default)s)")
    p.add_argument("--flag-ratio", type=float, default=2.0,
                   help="FLAG when floors/XLA exceeds this at a size >= --fit-from (default: %(default)s)")
    p.add_argument("--compile-sizes", default=DEFAULT_COMPILE_SIZES,
                   help="op counts of the compile-time chains (default: %(default)s)")
    p.add_argument("--distinct-sizes", default=DEFAULT_DISTINCT_SIZES,
                   help="op counts of the chains whose kernels all differ (default: %(default)s; '' to skip)")
    p.add_argument("--compile-timeout", type=float,
                   help="seconds allowed to one `floors compile` of a chain (default: --timeout)")
    p.add_argument("--skip-compile", action="store_true", help="leave out the compile-time section")
    p.add_argument("--seed", type=int, default=0, help="numpy seed of the inputs (default: 0)")
    p.add_argument("--work-dir", type=Path,
                   help="keep the NAME_n.mlir programs and .npy inputs here (default: a temporary folder)")
    p.add_argument("--out", type=Path, help="write the markdown report here (e.g. docs/scaling.md)")
    p.add_argument("--json", type=Path, help="also write every measurement to this JSON file")
    a = p.parse_args()
    a.size_list = [int(s) for s in (a.sizes or (QUICK_SIZES if a.quick else DEFAULT_SIZES)).split(",") if s]
    a.compile_list = [int(s) for s in a.compile_sizes.split(",") if s]
    return a


ARGS = parse_args()

# XLA:CPU's threads are fixed before jax is imported (scripts/xla_threads.py).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from xla_threads import limit_threads  # noqa: E402

_ALL_CPUS = limit_threads(ARGS.threads, "scale_bench")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

# --- The families. build(n, rng) -> (jax function, list of numpy inputs).


def f32(rng, *shape):
    return rng.standard_normal(shape, dtype=np.float32)


def square(n):
    """(a, b), a*b ~ n, a a power of two near sqrt(n): 1024 -> (32, 32), 2048 -> (32, 64)."""
    a = 2 ** (max(0, int(math.log2(max(n, 1)))) // 2)
    return a, max(1, n // a)


def image(n, c):
    """NHWC shape (1, h, h, c) with about n elements."""
    h = max(4, round(math.sqrt(n / c)))
    return (1, h, h, c)


def maxpool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "VALID")


def scan_stack(xs):
    def step(c, x):
        c = c * 0.9 + x
        return c, jnp.tanh(c)
    return lax.scan(step, jnp.zeros(xs.shape[1], xs.dtype), xs)[1]


def fori(x):
    return lax.fori_loop(0, 1000, lambda i, c: c * 0.9 + 0.1, x)


def while_loop(x):
    return lax.while_loop(lambda s: s[0] < 100, lambda s: (s[0] + 1, s[1] * 0.9 + 0.1),
                          (jnp.int32(0), x))[1]


def dyn_slices(x, u, i):
    y = lax.dynamic_update_slice(x, u * 2.0, (i, jnp.int32(0)))
    return y, lax.dynamic_slice(x, (lax.div(i, jnp.int32(2)), jnp.int32(0)), u.shape)


def conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))


def b_dyn(n, rng):
    r, c = square(n)
    return dyn_slices, [f32(rng, r, c), f32(rng, max(1, r // 2), c), np.array(r // 4, np.int32)]


def b_concat(n, rng):
    r, c = square(n)
    return (lambda a, b: jnp.concatenate([a, b], axis=1)), [f32(rng, r, c // 2), f32(rng, r, c - c // 2)]


@dataclass
class Family:
    name: str
    build: Callable
    exact: bool  # outputs compared bit for bit (integer outputs always are)
    what: str    # the jax source, for the families table


FAMILIES = [
    Family("sort", lambda n, g: (jnp.sort, [f32(g, n)]), True, "jnp.sort(x), x f32[n]"),
    Family("argsort", lambda n, g: (jnp.argsort, [f32(g, n)]), True, "jnp.argsort(x), x f32[n]"),
    Family("top_k", lambda n, g: ((lambda x: lax.top_k(x, 16)), [f32(g, n)]), True,
           "lax.top_k(x, 16), x f32[n]"),
    Family("cumsum", lambda n, g: (jnp.cumsum, [f32(g, n)]), False, "jnp.cumsum(x), x f32[n]"),
    Family("scan", lambda n, g: (scan_stack, [f32(g, max(1, n // 64), 64)]), False,
           "lax.scan over n/64 steps (carry f32[64], c*0.9+x), tanh(c) stacked to f32[n/64,64]"),
    Family("fori_loop", lambda n, g: (fori, [f32(g, 16)]), False,
           "lax.fori_loop(0, 1000, c*0.9+0.1) on f32[16] (size-independent)"),
    Family("max_pool", lambda n, g: (maxpool, [f32(g, *image(n, 4))]), True,
           "lax.reduce_window max 3x3 stride 2 VALID, x f32[1,h,h,4], h*h*4 ~ n"),
    Family("median", lambda n, g: (jnp.median, [f32(g, n)]), False, "jnp.median(x), x f32[n]"),
    Family("elementwise", lambda n, g: ((lambda x: jnp.tanh(x) * 2 + 1), [f32(g, n)]), False,
           "jnp.tanh(x) * 2 + 1, x f32[n]"),
    Family("reduction", lambda n, g: ((lambda x: jnp.sum(x, axis=1)), [f32(g, *square(n))]), False,
           "jnp.sum(x, axis=1), x f32[r,c], r*c = n"),
    Family("dot", lambda n, g: ((lambda a, b: a @ b), [f32(g, *square(n)), f32(g, *square(n)[::-1])]),
           False, "a @ b, a f32[m,k], b f32[k,m], m*k = n"),
    Family("conv", lambda n, g: (conv, [f32(g, *image(n, 8)), f32(g, 3, 3, 8, 8)]), False,
           "lax.conv_general_dilated SAME NHWC/HWIO, x f32[1,h,h,8] (~n), w f32[3,3,8,8]"),
    Family("gather", lambda n, g: ((lambda x, i: x[i]), [f32(g, n), g.integers(0, n, n, dtype=np.int32)]),
           True, "x[idx], x f32[n], idx i32[n]"),
    Family("scatter_add", lambda n, g: ((lambda x, i, v: x.at[i].add(v)),
                                        [f32(g, n), g.integers(0, n, n, dtype=np.int32), f32(g, n)]),
           False, "x.at[idx].add(v), x f32[n], idx i32[n], v f32[n]"),
    Family("concatenate", b_concat, True, "jnp.concatenate([a, b], axis=1), a, b f32[r,c/2], r*c = n"),
    Family("pad", lambda n, g: ((lambda x: jnp.pad(x, ((1, 2), (3, 4)))), [f32(g, *square(n))]), True,
           "jnp.pad(x, ((1, 2), (3, 4))), x f32[r,c], r*c = n"),
    Family("transpose", lambda n, g: ((lambda x: x.T), [f32(g, *square(n))]), True,
           "x.T, x f32[r,c], r*c = n"),
    Family("dynamic_slice", b_dyn, True,
           "lax.dynamic_update_slice(x, 2u, (i, 0)), lax.dynamic_slice(x, (i/2, 0), u.shape); "
           "x f32[r,c] (r*c = n), u f32[r/2,c], i i32 = r/4"),
    Family("select_and_scatter", lambda n, g: (jax.grad(lambda x: jnp.sum(maxpool(x))), [f32(g, *image(n, 4))]),
           False, "jax.grad(sum(max_pool(x))), x f32[1,h,h,4] (~n)"),
    Family("while", lambda n, g: (while_loop, [f32(g, n)]), False,
           "lax.while_loop, 100 trips of x*0.9+0.1 on an f32[n] carry"),
]
BY_NAME = {f.name: f for f in FAMILIES}

# --- XLA side.


def time_xla(fn, args):
    """(timer, reps, outputs): timer() runs one round (warm-ups, then the timed
    runs) and returns its median ms; timer is None when one run exceeds
    --xla-limit."""
    dev = [jax.device_put(a) for a in args]
    compiled = jax.jit(fn).lower(*dev).compile()
    t = time.perf_counter()
    out = jax.block_until_ready(compiled(*dev))
    est = time.perf_counter() - t
    outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(out)]
    if est > ARGS.xla_limit:
        return None, 0, outs
    n = min(ARGS.max_reps, max(ARGS.reps, math.ceil(ARGS.min_time / max(est, 1e-6))))

    def timer():
        for _ in range(ARGS.warmup):
            jax.block_until_ready(compiled(*dev))
        times = []
        for _ in range(n):
            t = time.perf_counter()
            jax.block_until_ready(compiled(*dev))
            times.append((time.perf_counter() - t) * 1e3)
        return float(np.median(times))
    return timer, n, outs

# --- floors side.


class FloorsTimeout(Exception):
    pass


class FloorsError(Exception):
    pass


def floors_bench(prog, inputs, warmup, reps, out_dir=None):
    cmd = [str(ARGS.floors), "bench", str(prog)]
    for i in inputs:
        cmd += ["--input", str(i)]
    if out_dir is not None:
        cmd += ["--output-dir", str(out_dir)]
    cmd += ["--threads", str(ARGS.threads), "--warmup", str(warmup), "--reps", str(reps)]
    rc, stdout, stderr = run_child(cmd, ARGS.timeout)
    if rc != 0:
        raise FloorsError("exit %d: %s\n%s" % (rc, " ".join(cmd), stderr.strip()[-2000:]))
    lines = [l for l in stdout.splitlines() if l.strip().startswith("{")]
    if not lines:
        raise FloorsError("no JSON line on stdout: %s\n%s" % (" ".join(cmd), stderr[-1000:]))
    return json.loads(lines[-1])


def run_child(cmd, timeout):
    """(exit code, stdout, stderr); on a timeout the child's whole process
    group (floors and the linker it may run) is killed and FloorsTimeout raised."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise FloorsTimeout("timeout (> %g s)" % timeout)
    return p.returncode, out, err


def time_floors(prog, inputs, first_ms):
    """Median ms and reps of a timed `floors bench`, its runs sized from the
    checked run (first_ms); a case slower than a quarter of --timeout keeps
    the checked run's one cold run (reps 0 says so)."""
    est = max(first_ms, 1e-3) * 1e-3
    if est > ARGS.timeout / 4:
        return first_ms, 0
    n = min(ARGS.max_reps, max(ARGS.reps, math.ceil(ARGS.min_time / est)))
    n = max(1, min(n, int(ARGS.timeout / 2 / est) - ARGS.warmup))
    r = floors_bench(prog, inputs, ARGS.warmup, n)
    return r["median_ms"], r["reps"]


def short_reason(text, limit=80):
    lines = [l.strip() for l in str(text).splitlines() if l.strip()]
    errs = [l.split("error:", 1)[1].strip() for l in lines if "error:" in l]
    msg = errs[0] if errs else (lines[-1] if lines else "?")
    msg = msg.replace("|", "/").replace("`", "'")
    return msg if len(msg) <= limit else msg[:limit - 1] + "…"

# --- Checking floors' outputs.


def check(fam, fn, args, got, exp):
    """(ok, detail) for floors' outputs against XLA's."""
    if len(got) != len(exp) or any(g.shape != e.shape for g, e in zip(got, exp)):
        return False, "shapes %s vs %s" % ([g.shape for g in got], [e.shape for e in exp])
    bad = []
    for k, (g, e) in enumerate(zip(got, exp)):
        if fam.exact or not np.issubdtype(e.dtype, np.floating):
            if not np.array_equal(g, e):
                bad.append("out%d: %d of %d elements differ" % (k, int(np.sum(g != e)), e.size))
        elif not np.allclose(g, e, rtol=RTOL, atol=ATOL):
            bad.append(k)
    if bad and all(isinstance(b, int) for b in bad):
        return check_f64(fn, args, got, exp)
    return not bad, "; ".join(b if isinstance(b, str) else "out%d: not within 1e-4" % b for b in bad)


def check_f64(fn, args, got, exp):
    """Second opinion (as scripts/bench.py): long f32 sums round apart in every
    order, so floors passes if within rtol + atol*max|ref| of the float64 result."""
    with jax.enable_x64(True):
        ref = jax.jit(fn)(*[a.astype(np.float64) if a.dtype == np.float32 else a for a in args])
        ref = [np.asarray(r) for r in jax.tree_util.tree_leaves(ref)]
    err_f = max(float(np.max(np.abs(g - r))) for g, r in zip(got, ref))
    err_x = max(float(np.max(np.abs(e - r))) for e, r in zip(exp, ref))
    ok = all(np.allclose(g, r, rtol=RTOL, atol=ATOL * max(1.0, float(np.max(np.abs(r)))))
             for g, r in zip(got, ref))
    return ok, "off XLA by > 1e-4; vs float64: floors err %.1e, XLA err %.1e" % (err_f, err_x)

# --- One family.


@dataclass
class Cell:
    n: int
    shapes: str = ""
    xla_ms: float | None = None
    xla_reps: int = 0
    floors_ms: float | None = None
    floors_reps: int = 0
    floors_compile_s: float | None = None
    status: str = "ok"  # ok, mismatch, error, timeout, xla-skip, skip
    detail: str = ""


@dataclass
class Result:
    family: Family
    cells: list = field(default_factory=list)
    ops: str = ""
    exp_floors: float | None = None
    exp_xla: float | None = None
    flags: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def hlo_ops(text):
    """The distinct stablehlo (and chlo) ops of a program, in order, leaving out the trivial ones."""
    trivial = {"constant", "return", "broadcast_in_dim", "convert", "reshape"}
    seen = []
    for d, op in re.findall(r"\b(stablehlo|chlo)\.(\w+)", text):
        op = op if d == "stablehlo" else "chlo." + op
        if op not in trivial and op not in seen:
            seen.append(op)
    return ", ".join(seen)


def run_case(fam, n, work):
    """Lower, time XLA, check and time floors at one size."""
    fn, args = fam.build(n, np.random.default_rng(ARGS.seed))
    cell = Cell(n, shapes=" , ".join("x".join(map(str, a.shape)) or "scalar" for a in args))
    text = jax.jit(fn).lower(*args).as_text()
    prog = work / ("%s_%d.mlir" % (fam.name, n))
    prog.write_text(text)
    inputs = []
    for k, a in enumerate(args):
        inputs.append(work / ("%s_%d.in%d.npy" % (fam.name, n, k)))
        np.save(inputs[-1], a)
    xla_timer, cell.xla_reps, exp = time_xla(fn, args)
    if xla_timer is None:
        cell.status, cell.detail = "xla-skip", "one XLA run > %g s" % ARGS.xla_limit
        return cell, text
    cell.xla_ms = xla_timer()
    out_dir = work / ("%s_%d.out" % (fam.name, n))
    out_dir.mkdir(exist_ok=True)
    try:
        first = floors_bench(prog, inputs, 0, 1, out_dir)
        cell.floors_compile_s = first.get("compile_s")
        got = [np.load(out_dir / ("out%d.npy" % k)) for k in range(len(exp))]
        ok, cell.detail = check(fam, fn, args, got, exp)
        if not ok:
            cell.status = "mismatch"
        # Rounds alternate the sides, so a slow stretch of a shared machine
        # does not fall on one side only; each side keeps its lowest median.
        cell.floors_ms, cell.floors_reps = time_floors(prog, inputs, first["median_ms"])
        for _ in range(ARGS.rounds - 1):
            if cell.floors_reps == 0:
                break
            cell.xla_ms = min(cell.xla_ms, xla_timer())
            cell.floors_ms = min(cell.floors_ms, time_floors(prog, inputs, first["median_ms"])[0])
    except FloorsTimeout as e:
        cell.status, cell.detail = "timeout", str(e)
    except (FloorsError, OSError, ValueError, KeyError) as e:
        cell.status, cell.detail = "error", str(e)
    return cell, text


def fit_exponent(points):
    """Least-squares slope of log(ms) against log(n) over the points with
    n >= --fit-from when there are two, else over all; None under two points."""
    pts = [(n, t) for n, t in points if t and t > 0]
    big = [(n, t) for n, t in pts if n >= ARGS.fit_from]
    use = big if len(big) >= 2 else pts
    if len(use) < 2:
        return None
    return float(np.polyfit(np.log([n for n, _ in use]), np.log([t for _, t in use]), 1)[0])


def run_family(fam, work):
    res = Result(fam)
    stop = None  # why the larger sizes are skipped
    for n in ARGS.size_list:
        if stop:
            res.cells.append(Cell(n, status="skip", detail=stop))
            continue
        print("scale_bench: %s n=%d ..." % (fam.name, n), file=sys.stderr, flush=True)
        cell, text = run_case(fam, n, work)
        res.cells.append(cell)
        res.ops = res.ops or hlo_ops(text)
        if cell.status == "xla-skip":
            stop = "XLA > %g s at a smaller n" % ARGS.xla_limit
        elif cell.status == "timeout":
            stop = "floors timed out at a smaller n"
    both = [c for c in res.cells if c.floors_ms and c.xla_ms]
    res.exp_floors = fit_exponent([(c.n, c.floors_ms) for c in both])
    res.exp_xla = fit_exponent([(c.n, c.xla_ms) for c in both])
    if res.exp_floors is not None and res.exp_xla is not None and \
            res.exp_floors - res.exp_xla > ARGS.flag_exponent:
        fitted = [c for c in both if c.n >= ARGS.fit_from] or both
        if all(c.floors_ms < c.xla_ms for c in fitted):
            # Faster at every fitted size: the steeper slope is XLA's fixed
            # per-call cost amortizing over n, not a costlier algorithm.
            res.notes.append("exponent %.2f vs XLA %.2f, faster at every size" % (res.exp_floors, res.exp_xla))
        else:
            res.flags.append("exponent %.2f vs XLA %.2f" % (res.exp_floors, res.exp_xla))
    for c in both:
        if c.n >= ARGS.fit_from and c.floors_ms / c.xla_ms > ARGS.flag_ratio:
            res.flags.append("%.1fx XLA at n=%d" % (c.floors_ms / c.xla_ms, c.n))
    res.flags += ["%s at n=%d" % (c.status, c.n) for c in res.cells if c.status in ("timeout", "error", "mismatch")]
    return res

# --- Compile time.


def chain_text(k, distinct=False):
    """@main(%arg0: tensor<1024xf32>) with a chain of k elementwise ops: add,
    multiply, tanh, subtract in turn, each on the previous value and %arg0
    (its fusions of 256 ops are alike, so their kernels are compiled once);
    with `distinct`, every add and subtract takes its own constant instead of
    %arg0, so no two kernels are alike and each is compiled."""
    ty = "tensor<1024xf32>"
    ops = ["add", "multiply", "tanh", "subtract"]
    lines = ["module @chain_%d {" % k, "  func.func public @main(%%arg0: %s) -> %s {" % (ty, ty)]
    prev = "%arg0"
    for i in range(k):
        op = ops[i % len(ops)]
        rhs = "" if op == "tanh" else ", %arg0"
        if distinct and op in ("add", "subtract"):
            lines.append("    %%c%d = stablehlo.constant dense<%d.0> : %s" % (i, i + 1, ty))
            rhs = ", %%c%d" % i
        lines.append("    %%%d = stablehlo.%s %s%s : %s" % (i, op, prev, rhs, ty))
        prev = "%%%d" % i
    lines += ["    return %s : %s" % (prev, ty), "  }", "}"]
    return "\n".join(lines) + "\n"


def run_measured(cmd, timeout):
    """(wall s, peak RSS MB or None, exit code, stderr) of one floors process.
    The RSS comes from GNU time (/usr/bin/time -f %M): this process's own
    rusage would not do, as a child's ru_maxrss keeps the RSS of the python
    (with jax loaded) it was forked from."""
    gnu_time = Path("/usr/bin/time")
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        pre = [str(gnu_time), "-f", "%M", "-o", rss.name] if gnu_time.exists() else []
        t0 = time.perf_counter()
        rc, _, err = run_child(pre + cmd, timeout)
        wall = time.perf_counter() - t0
        kb = rss.read().strip().splitlines()
    mb = int(kb[-1]) / 1024 if pre and kb and kb[-1].isdigit() else None
    return wall, mb, rc, err


def compile_rows(work, sizes, distinct):
    rows = []
    for k in sizes:
        kind = "distinct" if distinct else "repeating"
        print("scale_bench: compile %s chain of %d ops ..." % (kind, k), file=sys.stderr, flush=True)
        prog = work / ("chain_%s_%d.mlir" % (kind, k))
        prog.write_text(chain_text(k, distinct))
        row = {"ops": k, "kind": kind, "status": "ok", "detail": "", "wall_s": None, "rss_mb": None}
        try:
            cmd = [str(ARGS.floors), "compile", str(prog), "-o", str(work / "chain.floors")]
            row["wall_s"], row["rss_mb"], rc, err = run_measured(cmd, ARGS.compile_timeout or ARGS.timeout)
            if rc != 0:
                row.update(status="error", detail="exit %d: %s" % (rc, err.strip()[-2000:]), wall_s=None)
        except FloorsTimeout as e:
            row.update(status="timeout", detail=str(e))
        rows.append(row)
    pts = [(r["ops"], r["wall_s"]) for r in rows if r["wall_s"]]
    big = [p for p in pts if p[0] >= 1000]
    use = big if len(big) >= 2 else pts
    exp = float(np.polyfit(np.log([p[0] for p in use]), np.log([p[1] for p in use]), 1)[0]) \
        if len(use) >= 2 else None
    return rows, exp


def compile_section(work):
    """(rows, exponent) of the repeating chains, then of the distinct ones."""
    distinct = [int(x) for x in ARGS.distinct_sizes.split(",") if x.strip()]
    return compile_rows(work, ARGS.compile_list, False), compile_rows(work, distinct, True)

# --- Report.


def fmt_ms(ms):
    if ms is None:
        return "-"
    return "%.0f" % ms if ms >= 100 else "%.3g" % ms


def cell_text(c):
    x = fmt_ms(c.xla_ms)
    if c.status in ("skip", "xla-skip"):
        return "skipped (%s)" % c.detail
    if c.status == "timeout":
        return "**floors %s** / %s" % (c.detail, x)
    if c.status == "error":
        return "**floors error**: %s / %s" % (short_reason(c.detail), x)
    ratio = c.floors_ms / c.xla_ms if c.floors_ms and c.xla_ms else None
    r = "-" if ratio is None else ("%.2fx" % ratio if ratio < 10 else "%.0fx" % ratio)
    cold = "¹" if c.floors_reps == 0 else ""
    s = "%s%s / %s (%s)" % (fmt_ms(c.floors_ms), cold, x, r)
    return ("**MISMATCH** " + s) if c.status == "mismatch" else s


def machine_lines():
    model = "?"
    try:
        model = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    import jaxlib
    try:
        fv = subprocess.run([str(ARGS.floors), "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        fv = "?"
    return [
        "- Machine: %s, %s, %d cores online (%d usable by this process); threads: floors --threads %d, "
        "XLA:CPU on %d core(s)" % (platform.machine(), model, os.cpu_count(), len(_ALL_CPUS),
                                   ARGS.threads, min(ARGS.threads, len(_ALL_CPUS))),
        "- Versions: python %s, jax %s, jaxlib %s, numpy %s; %s (%s)"
        % (sys.version.split()[0], jax.__version__, jaxlib.__version__, np.__version__, fv or "floors",
           ARGS.floors),
        "- Timing: %d rounds per case alternating the sides (XLA, floors, XLA, ...), each side's lowest "
        "round median counting; a round is %d warm-ups, then the median of max(%d, %g s worth) runs "
        "(at most %d); floors per-process timeout %g s; a size (and the larger ones) is skipped when one "
        "XLA run takes more than %g s, and floors' larger sizes after a floors timeout."
        % (ARGS.rounds, ARGS.warmup, ARGS.reps, ARGS.min_time, ARGS.max_reps, ARGS.timeout, ARGS.xla_limit),
    ]


def family_table(results):
    out = ["| family | " + " | ".join("n=%d" % n for n in ARGS.size_list) +
           " | exponent floors | exponent XLA | flag |",
           "|---|" + "---|" * len(ARGS.size_list) + "---|---|---|"]
    for r in results:
        e = lambda v: "-" if v is None else "%.2f" % v  # noqa: E731
        flag = "**FLAG**: " + "; ".join(r.flags) if r.flags else ""
        if r.notes:
            flag = "; ".join([flag] * bool(flag) + ["(%s)" % n for n in r.notes])
        out.append("| %s | %s | %s | %s | %s |" % (r.family.name, " | ".join(cell_text(c) for c in r.cells),
                                                   e(r.exp_floors), e(r.exp_xla), flag))
    return out


def families_table(results):
    out = ["| family | jax | input shapes at n=%d | StableHLO ops |" % ARGS.size_list[0], "|---|---|---|---|"]
    for r in results:
        shapes = r.cells[0].shapes if r.cells else "-"
        out.append("| %s | `%s` | %s | %s |" % (r.family.name, r.family.what, shapes, r.ops or "-"))
    return out


def compile_table(rows, exp):
    out = ["| ops | wall s | peak RSS MB |", "|---|---|---|"]
    for r in rows:
        if r["status"] != "ok":
            out.append("| %d | **%s**: %s | - |" % (r["ops"], r["status"], short_reason(r["detail"])))
        else:
            rss = "- (no /usr/bin/time)" if r["rss_mb"] is None else "%.0f" % r["rss_mb"]
            out.append("| %d | %.2f | %s |" % (r["ops"], r["wall_s"], rss))
    out += ["", "Fitted exponent of wall time against op count (sizes >= 1000 when two, else all): %s"
            % ("-" if exp is None else "%.2f" % exp)]
    return out


HEADER = """# Scaling: floors vs XLA:CPU per op family

Not a test: `scripts/scale_bench.sh --out docs/scaling.md` regenerates this page
whole (no history). For each op family (a small jax function, lowered with
`jax.jit(f).lower(*args).as_text()`) and each size n (about n input elements),
XLA:CPU and `floors bench` run the same program on the same inputs (fixed seed).
floors' outputs are checked against JAX's first: exact for sort, argsort, top_k,
data movement and integer outputs; rtol = atol = 1e-4 otherwise, with a float64
second opinion; a MISMATCH is shown in its cell.

Flags (`scripts/scale_bench.py --help`): `--sizes 1024,16384` (default
%s), `--quick` (sizes %s), `--families sort,dot` (`--list`
names them), `--reps`, `--min-time`, `--warmup`, `--rounds`, `--threads`, `--timeout S` (per
floors process; a timeout shows in its cell and floors' larger sizes are skipped),
`--xla-limit S` (a size is skipped when one XLA run takes longer), `--compile-sizes`,
`--compile-timeout S`, `--skip-compile`, `--work-dir DIR` (keeps the NAME_n.mlir programs and .npy
inputs), `--out FILE`, `--json FILE`, `--floors PATH`. Exit status 1 only when
floors fails (an error) or mismatches; slow numbers and timeouts are flagged.

Each cell: floors ms / XLA ms (floors/XLA; > 1: floors is slower); ¹: one cold
floors run (a case slower than a quarter of the timeout is not re-timed).
Exponents: least-squares slope of log(time) against log(n) over the sizes >= %d
where both sides have a time (over all such sizes when fewer than two). FLAG:
floors' exponent exceeds XLA's by more than %g (unless floors is faster at every
fitted size: then XLA's steeper fall is its fixed per-call cost amortizing, and
the exponents are noted in parentheses, not flagged), floors/XLA > %g at a size
>= %d, or a floors timeout, error or mismatch.
"""


def report(results, comp):
    lines = (HEADER % (DEFAULT_SIZES, QUICK_SIZES, ARGS.fit_from, ARGS.flag_exponent, ARGS.flag_ratio,
                       ARGS.fit_from)).splitlines()
    lines += [""] + machine_lines() + ["", "## Time per family", ""] + family_table(results)
    lines += ["", "## What each family lowers to", ""] + families_table(results)
    if comp is not None:
        (rep, rep_exp), (dis, dis_exp) = comp
        lines += ["", "## Compile time: `floors compile PROG -o out.floors` on elementwise chains", "",
                  "`@main(%arg0: tensor<1024xf32>)` with a chain of k ops (add, multiply, tanh, subtract "
                  "in turn, each on the previous value and `%arg0`); wall time and peak RSS of the floors "
                  "process. Fusion cuts the chain into fusions of 256 ops that are all alike, and "
                  "`floors-linalg-outline-kernels` compiles identical kernels once, so past a few "
                  "thousand ops the time is that of the passes before code generation.", ""]
        lines += compile_table(rep, rep_exp)
        if dis:
            lines += ["", "The same chains with every add and subtract taking a constant of its own, so "
                      "that no two kernels are alike and each is generated by LLVM (the cost of a program "
                      "without repeated layers):", ""]
            lines += compile_table(dis, dis_exp)
    notes = ["- %s n=%d: %s %s" % (r.family.name, c.n, c.status, c.detail.replace("\n", "\n    "))
             for r in results for c in r.cells if c.status in ("error", "mismatch") and c.detail]
    notes += ["- compile %s chain %d ops: %s" % (r["kind"], r["ops"], r["detail"].replace("\n", "\n    "))
              for part in (comp or ()) for r in part[0] if r["status"] == "error"]
    if notes:
        lines += ["", "## Failures", ""] + notes
    return "\n".join(lines) + "\n"


def main():
    if ARGS.list:
        for f in FAMILIES:
            print("%-20s %s" % (f.name, f.what))
        return 0
    want = [s.strip() for s in ARGS.families.split(",") if s.strip()] or [f.name for f in FAMILIES]
    unknown = [w for w in want if w not in BY_NAME]
    if unknown:
        sys.exit("scale_bench: unknown families %s (have: %s)" % (", ".join(unknown), ", ".join(BY_NAME)))
    if not ARGS.floors.exists():
        sys.exit("scale_bench: %s not found (cargo build --release -p floors, or --floors PATH)" % ARGS.floors)
    jax.block_until_ready(jax.jit(lambda x: x + 1)(np.zeros(4, np.float32)))  # start the backend
    with tempfile.TemporaryDirectory(prefix="floors-scale-") as tmp:
        work = ARGS.work_dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        results = [run_family(BY_NAME[w], work) for w in want]
        comp = None if ARGS.skip_compile else compile_section(work)
    text = report(results, comp)
    print()
    print(text)
    if ARGS.out:
        ARGS.out.write_text(text)
    if ARGS.json:
        ARGS.json.write_text(json.dumps({
            "families": [{"family": r.family.name, "ops": r.ops, "exp_floors": r.exp_floors,
                          "exp_xla": r.exp_xla, "flags": r.flags, "cells": [c.__dict__ for c in r.cells]}
                         for r in results],
            "compile": comp and {"rows": comp[0][0], "exponent": comp[0][1],
                                 "distinct_rows": comp[1][0], "distinct_exponent": comp[1][1]}}, indent=1))
    flagged = [r for r in results if r.flags]
    if flagged:
        print("scale_bench: FLAGGED: " + "; ".join("%s (%s)" % (r.family.name, ", ".join(r.flags))
                                                    for r in flagged), file=sys.stderr)
    failed = any(c.status in ("error", "mismatch") for r in results for c in r.cells) or \
        any(r["status"] == "error" for part in (comp or ()) for r in part[0])
    if failed:
        print("scale_bench: floors FAILED or MISMATCHED somewhere (see the table)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
