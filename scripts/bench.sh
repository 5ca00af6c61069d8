#!/usr/bin/env bash
# Benchmark (not a test): floors vs XLA:CPU (JAX from PyPI) side by side on
# ../shared/corpus/bench, in one run. On a fresh Debian 12 machine, as root:
#
#   scripts/bench.sh [--programs matmul,softmax] [--reps R] [--warmup W] [--threads N] ...
#
# Installs what is missing (scripts/setup.sh; python3-venv), builds floors in
# release, makes .venv-bench/ with jax + numpy from PyPI, then runs
# scripts/bench.py with the venv's python; every argument is passed through
# (`scripts/bench.sh --help` lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

echo "bench: cargo build --release -p floors" >&2
cargo build --release -p floors

VENV=.venv-bench
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  echo "bench: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-venv python3-pip >/dev/null
fi
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  echo "bench: creating $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import jax, numpy' >/dev/null 2>&1; then
  echo "bench: pip install jax numpy into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q jax numpy
fi
"$VENV/bin/python" -c 'import sys, jax, jaxlib, numpy; print(f"bench: python {sys.version.split()[0]}, jax {jax.__version__}, jaxlib {jaxlib.__version__}, numpy {numpy.__version__}")' >&2

exec "$VENV/bin/python" scripts/bench.py --floors target/release/floors "$@"
