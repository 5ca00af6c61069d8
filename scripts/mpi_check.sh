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
echo "mpi_check: 4 and 2 MPI processes match the in-process runs; a dead rank, bad inputs and a wrong job size fail with their error"
