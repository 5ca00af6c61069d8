#!/usr/bin/env python3
"""Collective bandwidth in one process: floors' collective thunks between
its device threads vs XLA:CPU's in-process collectives, same machine, same
run. Each collective runs in a `shard_map` over N devices
(`FLOORS_DEVICE_COUNT=N`, `--xla_force_host_platform_device_count=N`),
`--mb` megabytes of f32 per device; prints the median time of `--reps`
runs and the bandwidth per device (bytes of each device's operand / time),
floors/XLA, as a markdown table (`--out FILE` writes it there too).

  .venv-test/bin/python scripts/collective_bench.py [--devices 4] [--mb 64]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--devices", type=int, default=4)
ap.add_argument("--mb", type=float, default=64.0, help="megabytes of f32 per device")
ap.add_argument("--reps", type=int, default=5)
ap.add_argument("--out", type=Path)
args = ap.parse_args()

REPO = Path(__file__).resolve().parents[1]
os.environ["JAX_PLATFORMS"] = "cpu,floors"
os.environ["FLOORS_DEVICE_COUNT"] = str(args.devices)
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_force_host_platform_device_count={args.devices}").strip()
sys.path.insert(0, str(REPO / "python"))

import jax  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

N = args.devices
n = int(args.mb * 2**20) // 4
COLLECTIVES = {
    "all_reduce (psum)": (lambda a: lax.psum(a, "x"), P("x")),
    "all_gather": (lambda a: lax.all_gather(a[: n // N], "x", tiled=True), P("x")),
    "reduce_scatter (psum_scatter)": (lambda a: lax.psum_scatter(a, "x", tiled=True), P("x")),
    "all_to_all": (lambda a: lax.all_to_all(a, "x", 0, 0, tiled=True), P("x")),
    "collective_permute (ring)": (lambda a: lax.ppermute(a, "x", [(i, (i + 1) % N) for i in range(N)]), P("x")),
}


def time_it(platform, f, spec):
    mesh = Mesh(np.array(jax.devices(platform)[:N]), ("x",))
    g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=spec, check_vma=False))
    x = jax.device_put(np.ones(N * n, np.float32), NamedSharding(mesh, P("x")))
    out = g(x)
    out.block_until_ready()
    times = []
    for _ in range(args.reps):
        t = time.perf_counter()
        g(x).block_until_ready()
        times.append(time.perf_counter() - t)
    return statistics.median(times), np.asarray(out)


rows = []
for name, (f, spec) in COLLECTIVES.items():
    tf, of = time_it("floors", f, spec)
    tx, ox = time_it("cpu", f, spec)
    same = of.shape == ox.shape and np.array_equal(of, ox)
    gb = n * 4 / 1e9
    rows.append(f"| {name} | {tf * 1e3:.2f} | {tx * 1e3:.2f} | {gb / tf:.2f} | {gb / tx:.2f} | {tx / tf:.2f} | {'yes' if same else 'NO'} |")

table = "\n".join(
    [
        f"{N} devices, {args.mb:g} MB of f32 per device, median of {args.reps} runs:",
        "",
        "| collective | floors ms | XLA:CPU ms | floors GB/s | XLA GB/s | floors throughput / XLA's | same values |",
        "|---|---:|---:|---:|---:|---:|---|",
        *rows,
    ]
)
print(table)
if args.out:
    args.out.write_text(table + "\n")
