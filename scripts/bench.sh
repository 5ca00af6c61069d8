#!/usr/bin/env bash
# Benchmark (not a test): floors vs XLA:CPU (JAX from PyPI) vs IREE (llvm-cpu,
# from PyPI) side by side on ../shared/corpus/bench, in one run. On a fresh
# Debian 12 machine, as root:
#
#   scripts/bench.sh [--programs matmul,softmax] [--reps R] [--warmup W] [--threads N] [--skip-iree] ...
#
# Installs what is missing (scripts/setup.sh; python3-venv), builds floors in
# release, makes .venv-bench/ with the pinned PyPI packages below (jax, jaxlib,
# numpy, iree-base-compiler, iree-base-runtime), then runs scripts/bench.py
# with the venv's python; every argument is passed through
# (`scripts/bench.sh --help` lists them). `scripts/bench.sh --setup-only`
# stops after the set-up (scripts/scale_bench.sh uses the same venv).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

echo "bench: cargo build --release -p floors" >&2
cargo build --release -p floors

VENV=.venv-bench
JAX_VERSION=0.10.2
IREE_VERSION=3.13.0
PINS=(jax==$JAX_VERSION jaxlib==$JAX_VERSION numpy
      iree-base-compiler==$IREE_VERSION iree-base-runtime==$IREE_VERSION)
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
# Prints the versions; fails unless the pinned ones are installed.
versions() {
  "$VENV/bin/python" - "$JAX_VERSION" "$IREE_VERSION" <<'EOF'
import sys
from importlib.metadata import version
import jax, jaxlib, numpy, iree.compiler, iree.runtime
print("bench: python %s, jax %s, jaxlib %s, numpy %s, iree-base-compiler %s, iree-base-runtime %s"
      % (sys.version.split()[0], jax.__version__, jaxlib.__version__, numpy.__version__,
         version("iree-base-compiler"), version("iree-base-runtime")))
assert jax.__version__ == jaxlib.__version__ == sys.argv[1]
assert version("iree-base-compiler") == version("iree-base-runtime") == sys.argv[2]
EOF
}
if ! versions >/dev/null 2>&1; then
  echo "bench: pip install ${PINS[*]} into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}" >&2
fi
versions >&2

[[ ${1:-} == --setup-only ]] && exit 0
exec "$VENV/bin/python" scripts/bench.py --floors target/release/floors "$@"
