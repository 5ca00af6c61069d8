#!/usr/bin/env bash
# Makes .venv-test/ with the pinned Python packages tests use as reference
# clients (jax/jaxlib 0.10.2: the FFI headers and XLA:CPU for custom calls,
# flax 0.12.8 for the workload tests in python/tests/test_workloads.py,
# numpy; equinox 0.13.8 and diffrax 0.7.2 (with optax, from flax) for the
# user workloads of python/workloads; pytest for the PJRT plugin's tests in python/tests; NVIDIA's ptxas
# from nvidia-cuda-nvcc-cu12 for the GPU floor's PTX checks, with libdevice),
# and nothing when it is already there. Prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.venv-test
PINS=(jax==0.10.2 jaxlib==0.10.2 numpy pytest nvidia-cuda-nvcc-cu12==12.9.86 flax==0.12.8 equinox==0.13.8 diffrax==0.7.2)
if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  echo "pyenv: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-venv python3-pip >/dev/null
fi
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "pyenv: creating $VENV" >&2
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import jax, jaxlib, numpy, pytest, flax, equinox, diffrax, importlib.metadata as m; assert jax.__version__ == "0.10.2"; assert m.version("nvidia-cuda-nvcc-cu12") == "12.9.86"; assert m.version("flax") == "0.12.8"; assert m.version("equinox") == "0.13.8"; assert m.version("diffrax") == "0.7.2"' >/dev/null 2>&1; then
  echo "pyenv: pip install ${PINS[*]} into $VENV" >&2
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PINS[@]}" >&2
fi
echo "$PWD/$VENV/bin/python"
