#!/usr/bin/env bash
# The GPU check, ON A MACHINE WITH AN NVIDIA GPU: a driver and Python with
# JAX (its CUDA plugin); no Rust, no LLVM. Run from the repository root with
# the folder scripts/gpu_prepare.sh made on the dev machine carried along:
#
#   bash scripts/gpu_check.sh [gpu-check] [--streams N] [--warmup W] [--reps R] [--budget SECONDS]
#
# It prints the device (nvidia-smi, `floors-run --gpu-info`, jax.devices()),
# then runs the runtime's self-tests, every public program and floors' own
# GEMM kernels (emitter/: mma.sync for sm_90, wgmma for sm_90a, against the
# CPU floor's outputs) on the GPU
# with `floors-run` and compares with the expected outputs (a failure is
# rerun on one stream, to tell stream/event bugs from code bugs), then times
# every bench program with floors (`floors-run --bench`: device time, inputs
# resident) and with XLA:GPU (jax.jit on the same inputs, block_until_ready;
# default and `highest` matmul precision) and prints the table. Everything
# runs under one time budget (default 270 s, so it ends within 5 minutes);
# what does not fit is reported as skipped. Exit 0 when every self-test and
# every compiled public program matched.
set -uo pipefail
cd "$(dirname "$0")/.."

DIR=gpu-check
if [[ $# -gt 0 && "$1" != --* ]]; then DIR=$1; shift; fi
START=$(date +%s)

chmod +x "$DIR/floors-run" 2>/dev/null
if [[ ! -x "$DIR/floors-run" ]]; then
  echo "gpu_check: no $DIR/floors-run: run scripts/gpu_prepare.sh on the dev machine and carry $DIR here" >&2
  exit 2
fi
echo "== prepared"
sed 's/^/  /' "$DIR/PREPARED"
echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader 2>&1 | sed 's/^/  nvidia-smi: /'

# cuBLAS for the gemm thunks: floors-run dlopens libcublas.so (or .so.12).
# Found in the Python packages JAX's CUDA plugin brought, or a CUDA toolkit;
# a .so.13 only is linked as libcublas.so in a private folder.
PY=${PYTHON:-python3}
cublas=
roots=$("$PY" -c 'import site, sys; print(" ".join(site.getsitepackages() + [site.getusersitepackages()]))' 2>/dev/null)
for pattern in 'libcublas.so.12' 'libcublas.so.13' 'libcublas.so'; do
  # shellcheck disable=SC2086
  cublas=$(find $roots /usr/local/cuda*/lib64 /usr/local/cuda*/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu \
             -name "$pattern" 2>/dev/null | head -n1)
  [[ -n "$cublas" ]] && break
done
FLOORS_LD=
if [[ -n "$cublas" ]]; then
  link=$(mktemp -d /tmp/floors-cublas.XXXX)
  ln -s "$cublas" "$link/libcublas.so"
  FLOORS_LD="$link:$(dirname "$cublas")"
  echo "  cuBLAS: $cublas"
else
  echo "  cuBLAS: not found (gemm thunks will fail with 'no cuBLAS library found')"
fi
export FLOORS_LD_LIBRARY_PATH="$FLOORS_LD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

LD_LIBRARY_PATH="$FLOORS_LD_LIBRARY_PATH" "$DIR/floors-run" --gpu-info 2>&1 | grep -E 'name:|cc_|sm_count|chip:|source|error' | sed 's/^ */  floors-run --gpu-info: /'

BUDGET=270
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --budget) BUDGET=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
DEADLINE=$((START + BUDGET))
timeout $((BUDGET + 15)) "$PY" scripts/gpu_check.py --dir "$DIR" --deadline "$DEADLINE" "${args[@]}"
rc=$?
echo "gpu_check: $(( $(date +%s) - START )) s in all"
exit $rc
