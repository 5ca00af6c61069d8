#!/usr/bin/env bash
# Scaling benchmark (not a test): floors vs XLA:CPU (JAX from PyPI) per op
# family (sort, argsort, top_k, cumsum, scan, loops, pooling, dot, conv,
# gather/scatter, data movement, ...) at growing sizes, with fitted exponents
# and flags, plus floors' compile time on long elementwise chains. On a fresh
# Debian 12 machine, as root:
#
#   scripts/scale_bench.sh [--sizes 1024,16384] [--quick] [--families sort,dot] [--timeout S] [--out docs/scaling.md] ...
#
# The set-up is scripts/bench.sh's (`--setup-only`: scripts/setup.sh,
# python3-venv, floors built in release, .venv-bench/ with the pinned JAX),
# plus GNU time for the peak RSS; then scripts/scale_bench.py runs with the
# venv's python; every argument is passed through
# (`scripts/scale_bench.sh --help` lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bench.sh --setup-only
if [[ ! -x /usr/bin/time ]]; then
  echo "scale_bench: installing time" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends time >/dev/null
fi
exec .venv-bench/bin/python scripts/scale_bench.py --floors target/release/floors "$@"
