#!/usr/bin/env bash
# Collectives across processes (#36): floors-run built with MPI (feature
# `mpi`, in its own target directory so the workspace's floors-run stays as
# it is) runs a shard_map program lowered for 4 devices (a psum — an
# all-reduce — and a ring ppermute) as 4 MPI processes; its outputs must be
# byte-identical to the same program run whole in one process. A failing
# run must end the job with an error, not hang. Needs mpirun (Open MPI,
# installed by scripts/setup.sh) and the debug `floors` binary.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${FLOORS_PYTHON:-.venv-test/bin/python}"
cargo clippy -q -p floors-runtime --features mpi --all-targets --target-dir target/mpi -- -D warnings
cargo build -q -p floors-runtime --features mpi --bin floors-run --target-dir target/mpi
F=target/debug/floors
R=target/mpi/debug/floors-run
d=target/mpi-check
rm -rf "$d" && mkdir -p "$d"
"$PY" - "$d" <<'PY'
import sys, numpy as np
d = sys.argv[1]
np.save(f"{d}/a.npy", np.arange(32, dtype=np.float32).reshape(8, 4) * 0.37)
np.save(f"{d}/b.npy", np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4))
PY
prog=tests/inputs/shard_map_ring.mlir
"$F" compile "$prog" -o "$d/ring.floors"
"$F" run "$prog" --input "$d/a.npy" --input "$d/b.npy" --output-dir "$d/one"
mpi=(mpirun --allow-run-as-root --oversubscribe -np 4)
timeout 120 "${mpi[@]}" "$R" --mpi "$d/ring.floors" --input "$d/a.npy" --input "$d/b.npy" --output-dir "$d/mpi"
for f in out0.npy out1.npy; do
  cmp "$d/one/$f" "$d/mpi/$f"
done
# Two processes: a psum (all-reduce) and an all_gather of a 2-device program.
p2=tests/inputs/shard_map_psum2.mlir
"$PY" -c "import numpy as np; np.save('$d/c.npy', np.arange(12, dtype=np.float32).reshape(6, 2))"
"$F" compile "$p2" -o "$d/psum2.floors"
"$F" run "$p2" --input "$d/c.npy" --output-dir "$d/one2"
timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$R" --mpi "$d/psum2.floors" --input "$d/c.npy" --output-dir "$d/mpi2"
for f in out0.npy out1.npy; do
  cmp "$d/one2/$f" "$d/mpi2/$f"
done
# One process dies before the collectives (MPMD launch: rank 0 gets a
# missing file) while the others wait in them: the job ends with rank 0's
# error instead of hanging.
if timeout 120 mpirun --allow-run-as-root --oversubscribe -np 1 "$R" --mpi "$d/ring.floors" --input "$d/missing.npy" --input "$d/b.npy" --output-dir "$d/bad3" \
    : -np 3 "$R" --mpi "$d/ring.floors" --input "$d/a.npy" --input "$d/b.npy" --output-dir "$d/bad3" 2>"$d/bad3.log"; then
  echo "mpi_check: a run whose rank 0 failed succeeded" >&2
  exit 1
fi
grep -q "missing.npy" "$d/bad3.log" || { cat "$d/bad3.log" >&2; exit 1; }
# A wrong input: every process fails, the job ends with an error (no hang).
if timeout 120 "${mpi[@]}" "$R" --mpi "$d/ring.floors" --input "$d/a.npy" --output-dir "$d/bad" 2>"$d/bad.log"; then
  echo "mpi_check: a run with a missing input succeeded" >&2
  exit 1
fi
grep -q "the program takes 2 inputs" "$d/bad.log" || { cat "$d/bad.log" >&2; exit 1; }
# A job of the wrong size is refused by name.
if timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$R" --mpi "$d/ring.floors" --input "$d/a.npy" --input "$d/b.npy" --output-dir "$d/bad2" 2>"$d/bad2.log"; then
  echo "mpi_check: a 2-process run of a 4-device program succeeded" >&2
  exit 1
fi
grep -q "this MPI job has 2 processes" "$d/bad2.log" || { cat "$d/bad2.log" >&2; exit 1; }
# JAX across processes: the same programs (scripts/jax_distributed_program.py)
# as a 2-process jax.distributed job on the plugin (one floors device per
# process, collectives over MPI), in one process with 2 floors devices, and on
# XLA:CPU with 2 host devices; every device's shards compared.
plugin="${FLOORS_PJRT_LIBRARY:-$PWD/target/debug/deps/libfloors_pjrt.so}"
jp=scripts/jax_distributed_program.py
timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 \
  env JAX_PLATFORMS=floors FLOORS_PJRT_LIBRARY="$plugin" "$PY" "$jp" --out "$d/jax-mpi"
JAX_PLATFORMS=floors FLOORS_PJRT_LIBRARY="$plugin" FLOORS_DEVICE_COUNT=2 "$PY" "$jp" --out "$d/jax-one"
JAX_PLATFORMS=cpu XLA_FLAGS=--xla_force_host_platform_device_count=2 "$PY" "$jp" --out "$d/jax-xla"
for f in "$d"/jax-one/*.npy; do
  cmp "$f" "$d/jax-mpi/$(basename "$f")"
done
# Against XLA:CPU: the collectives and data movement to the bit; the SGD
# step (tanh, a dot) within 1e-6 relative (last-bit differences of tanh).
"$PY" - "$d" <<'PY'
import glob, os, sys
import numpy as np
d = sys.argv[1]
files = sorted(glob.glob(f"{d}/jax-xla/*.npy"))
assert len(files) >= 10, f"only {len(files)} JAX shards were written"
for f in files:
    x, y = np.load(f), np.load(os.path.join(d, "jax-one", os.path.basename(f)))
    assert x.shape == y.shape and x.dtype == y.dtype, (f, x.shape, y.shape)
    if not os.path.basename(f).startswith("sgd_step"):
        assert np.array_equal(x, y), f
    else:
        np.testing.assert_allclose(y, x, rtol=1e-6, atol=1e-7, err_msg=f)
PY
# A process that dies before its collectives ends the job with the waiting
# process's error naming it, after FLOORS_COLLECTIVE_TIMEOUT_S (no hang).
if timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 \
    env JAX_PLATFORMS=floors FLOORS_PJRT_LIBRARY="$plugin" FLOORS_TEST_DIE_PROCESS=1 FLOORS_COLLECTIVE_TIMEOUT_S=5 \
    "$PY" "$jp" --out "$d/jax-die" >"$d/jax-die.log" 2>&1; then
  echo "mpi_check: a 2-process JAX job whose process 1 died succeeded" >&2
  exit 1
fi
grep -q "waited 5s for rank(s) 1, which never came" "$d/jax-die.log" || { cat "$d/jax-die.log" >&2; exit 1; }
# Two devices per process are refused by name in every process.
if timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 \
    env JAX_PLATFORMS=floors FLOORS_PJRT_LIBRARY="$plugin" FLOORS_DEVICE_COUNT=2 "$PY" "$jp" --out "$d/jax-bad" >"$d/jax-bad.log" 2>&1; then
  echo "mpi_check: a 2-process JAX job with 2 devices per process succeeded" >&2
  exit 1
fi
grep -q "one device per process" "$d/jax-bad.log" || { cat "$d/jax-bad.log" >&2; exit 1; }
echo "mpi_check: 4 and 2 MPI processes match the in-process runs; a dead rank, bad inputs and a wrong job size fail with their error; a 2-process jax.distributed job matches one process and XLA:CPU"
