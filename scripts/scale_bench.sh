#!/usr/bin/env bash
# Scaling benchmark (not a test): floors vs XLA:CPU (JAX from PyPI) per op
# family (sort, argsort, top_k, cumsum, scan, loops, pooling, dot, conv,
# gather/scatter, data movement, ...) at growing sizes, with fitted exponents
# and flags, plus floors' compile time on long elementwise chains. On a fresh
# Debian 12 machine, as root:
#
#   scripts/scale_bench.sh [--sizes 1024,16384] [--quick] [--families sort,dot] [--timeout S] [--out docs/scaling.md] ...
#
# Installs what is missing (scripts/setup.sh; python3-venv; GNU time for the
# peak RSS), builds floors in release, makes .venv-bench/ with the pinned JAX
# (the same venv and pins as scripts/bench.sh), then runs
# scripts/scale_bench.py with the venv's python; every argument is passed
# through (`scripts/scale_bench.sh --help` lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

echo "scale_bench: cargo build --release -p floors" >&2
cargo build --release -p floors

VENV=.venv-bench
JAX_VERSION=0.10.2
PINS=(jax==$JAX_VERSION jaxlib==$JAX_VERSION numpy)
need=()
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  need+=(python3-venv python3-pip)
fi
[[ -x /usr/bin/time ]] || need+=(time)
if ((${#need[@]})); then
  echo "scale_bench: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  echo "scale_bench: creating $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
fi
# Prints the versions; fails unless the pinned ones are installed.
versions() {
  "$VENV/bin/python" - "$JAX_VERSION" <<'PY'
import sys
import jax, jaxlib, numpy
print("scale_bench: python %s, jax %s, jaxlib %s, numpy %s"
      % (sys.version.split()[0], jax.__version__, jaxlib.__version__, numpy.__version__))
assert jax.__version__ == jaxlib.__version__ == sys.argv[1]
PY
}
if ! versions >/dev/null 2>&1; then
  echo "scale_bench: pip install ${PINS[*]} into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}" >&2
fi
versions >&2

exec "$VENV/bin/python" scripts/scale_bench.py --floors target/release/floors "$@"
