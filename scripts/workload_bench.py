#!/usr/bin/env python3
"""Steady-state time of each workload of python/workloads/workloads.py on
floors and on XLA:CPU, in one run on the same machine; writes the table to
--out (docs/workloads.md) whole.

    .venv-test/bin/python scripts/workload_bench.py --out docs/workloads.md

Each workload is checked against XLA:CPU first (as the test does), which
also compiles it on both sides; then per side 3 warm-up calls and the
median of max(10, 1 s worth) calls (at most 500), each waited for
(`block_until_ready`). Compile time is not measured here (both sides cache
compiled programs in the process). Not a test: numbers only.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("JAX_PLATFORMS", "cpu,floors")
sys.path[:0] = [str(REPO / "python"), str(REPO / "python" / "workloads")]

import jax  # noqa: E402
import numpy as np  # noqa: E402

import workloads  # noqa: E402


def timed(f, args, min_time):
    for _ in range(3):
        jax.block_until_ready(f(*args))
    times = []
    start = time.perf_counter()
    while len(times) < 10 or (time.perf_counter() - start < min_time and len(times) < 500):
        t0 = time.perf_counter()
        jax.block_until_ready(f(*args))
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--min-time", type=float, default=1.0)
    ap.add_argument("--only", default="", help="comma-separated workload names")
    a = ap.parse_args()
    floors, cpu = jax.devices("floors")[0], jax.devices("cpu")[0]
    names = [n for n in workloads.BUILDERS if not a.only or n in a.only.split(",")]
    rows = []
    for name in names:
        with jax.default_device(cpu):
            w = workloads.workload(name)
            args = w.make_args()
        f = jax.jit(w.fn)
        on = {d: jax.device_put(args, d) for d in (floors, cpu)}
        got, want = jax.tree.leaves(f(*on[floors])), jax.tree.leaves(f(*on[cpu]))
        ok = all(np.allclose(np.asarray(g), np.asarray(x), rtol=w.rtol, atol=w.atol) for g, x in zip(got, want))
        ff, fx = timed(f, on[floors], a.min_time), timed(f, on[cpu], a.min_time)
        rows.append((name, w.about, ff, fx, ok))
        print(f"{name}: floors {ff * 1e3:.3f} ms, XLA {fx * 1e3:.3f} ms ({ff / fx:.2f}x), {'match' if ok else 'MISMATCH'}", flush=True)
    lines = [
        "# Workloads: floors vs XLA:CPU",
        "",
        "Not a test: `.venv-test/bin/python scripts/workload_bench.py --out docs/workloads.md`",
        "regenerates this page whole. The workloads are `python/workloads/workloads.py`",
        "(`python/tests/test_user_workloads.py` checks each against XLA:CPU in the test suite).",
        "Per side: the median steady-state time of max(10, 1 s worth) calls after 3 warm-ups,",
        "each waited for (compile time is not measured: both sides cache compiled programs).",
        "",
        f"- Machine: {platform.machine()}, {os.cpu_count()} cores online; floors' executor: FLOORS_PJRT_THREADS={os.environ.get('FLOORS_PJRT_THREADS', '1 (default)')}, XLA:CPU on its default thread pool",
        f"- Versions: python {platform.python_version()}, jax {jax.__version__}" + "".join(
            f", {m} {__import__(m).__version__}" for m in ("flax", "optax", "equinox", "diffrax") if _has(m)),
        "",
        "| workload | what | floors ms | XLA ms | floors/XLA | matches |",
        "|---|---|---|---|---|---|",
    ]
    for name, about, ff, fx, ok in rows:
        lines.append(f"| {name} | {about} | {ff * 1e3:.3f} | {fx * 1e3:.3f} | {ff / fx:.2f}x | {'yes' if ok else '**MISMATCH**'} |")
    text = "\n".join(lines) + "\n"
    if a.out:
        a.out.write_text(text)
    print(text)
    return 0 if all(r[-1] for r in rows) else 1


def _has(m):
    try:
        __import__(m)
        return True
    except ImportError:
        return False


if __name__ == "__main__":
    sys.exit(main())
