#!/usr/bin/env bash
# The whole test suite: formatting and lints, Rust unit/integration tests,
# insta snapshots, the lit suite (run by plugin/tests/lit.rs against the
# freshly built plugin and CLI), and JAX on floors through the PJRT plugin
# (python/tests, pytest in the venv, against the plugin cargo test built).
set -euo pipefail
cd "$(dirname "$0")/.."
# The build needs a few GB: say how much there is before it starts (a full
# disk shows up later as a linker's bus error).
df -h . | awk 'NR == 2 { print "disk: " $4 " free on " $6 }'
bash scripts/setup.sh
# Reference clients for tests (jax/jaxlib 0.10.2, numpy) in .venv-test/.
FLOORS_PYTHON=$(bash scripts/pyenv.sh)
export FLOORS_PYTHON
cargo fmt --all --check
# clippy builds in check mode (no codegen): cheap next to the test build.
cargo clippy --workspace --all-targets -- -D warnings
# Only `cargo test` for the build itself: a separate `cargo build` would build
# the MLIR crates twice (dev-dependencies change feature sets).
cargo test --workspace "$@"
# JAX through the PJRT plugin (libfloors_pjrt.so, built by `cargo test` into
# target/debug/deps). CI=1: a plugin that cannot be loaded fails the tests.
FLOORS_PJRT_LIBRARY="$PWD/target/debug/deps/libfloors_pjrt.so" CI=1 \
  "$FLOORS_PYTHON" -m pytest -q -p no:cacheprovider python/tests
# A fixed-seed sample of the generated shape sweep (scripts/shape_sweep.py, about
# 2 minutes on 2 cores): 300 small JAX programs over the shape grid and every
# element type, on XLA:CPU against the CPU and TPU floors and the GPU compile.
# Findings are kept in target/shape-sweep/repro/; the full sweep's latest counts
# are in docs/shape-sweep.md.
"$FLOORS_PYTHON" scripts/shape_sweep.py --limit 300 --seed 1 --floors target/debug/floors \
  --out target/shape-sweep/test-subset.md
# Collectives across processes: floors-run built with MPI, 4- and 2-process
# runs of shard_map programs against the in-process run, and failing ranks
# ending the job (scripts/mpi_check.sh).
FLOORS_PYTHON="$FLOORS_PYTHON" scripts/mpi_check.sh
