#!/usr/bin/env bash
# Prepares the GPU check on THIS machine (Rust, LLVM/MLIR, no GPU needed):
# everything scripts/gpu_check.sh needs on a GPU machine that has only an
# NVIDIA driver and Python with JAX, packed into one folder (default
# gpu-check/, git-ignored) to carry there:
#
#   gpu-check/floors-run             release build of the runtime alone (no MLIR, no LLVM;
#                                    libcuda and cuBLAS are dlopened at run time)
#   gpu-check/selftest/NAME.floors   the runtime's own GPU artifacts (hand-written PTX, cuBLAS
#                                    gemms, four streams with events, a while loop and a
#                                    conditional) with NAME.inK.npy and expected NAME.outK.npy
#   gpu-check/public/NAME.floors     every public corpus program, `floors compile --target gpu
#                                    --gpu sm_90`, with its inputs, expected outputs, manifest.json
#   gpu-check/bench/NAME.floors      every bench corpus program, and its .stablehlo.mlir (the
#                                    check makes the inputs from @main's signature, fixed seed)
#   gpu-check/emitter/NAME.CHIP.floors  floors' own GEMMs (`--gpu-gemm emitter`) for sm_90
#                                    (mma.sync) and sm_90a (wgmma): tests/inputs/tensorcore and
#                                    public/matmul, random inputs, the CPU floor's outputs
#   gpu-check/stress/NAME.floors     the ragged GPU stress set (corpus gpu-stress/), random
#                                    inputs, the CPU floor's outputs
#   gpu-check/compile-failures.txt   programs that did not compile for the GPU, first error line
#   gpu-check/PREPARED               commit, date, chip, counts
#
#   scripts/gpu_prepare.sh [--gpu sm_90] [--out gpu-check] [--corpus ../shared/corpus] [--floors PATH]
#
# --floors uses an already built compiler (e.g. target/debug/floors) instead
# of building the release one; the artifacts are the same. A program that
# does not compile for the GPU is listed, not fatal: the check reports it.
set -euo pipefail
cd "$(dirname "$0")/.."

CHIP=sm_90
OUT=gpu-check
CORPUS=../shared/corpus
FLOORS=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --gpu) CHIP=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --floors) FLOORS=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "gpu_prepare: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

echo "gpu_prepare: cargo build --release -p floors-runtime (floors-run, the self-test writer)" >&2
cargo build --release -p floors-runtime --bin floors-run --example gpu_selftest
if [[ -z "$FLOORS" ]]; then
  echo "gpu_prepare: cargo build --release -p floors" >&2
  cargo build --release -p floors
  FLOORS=target/release/floors
fi

rm -rf "$OUT"
mkdir -p "$OUT/selftest" "$OUT/public" "$OUT/bench"
cp target/release/floors-run "$OUT/"
target/release/examples/gpu_selftest "$OUT/selftest" >/dev/null

: > "$OUT/compile-failures.txt"
compiled=0
failed=0
compile() { # SRC DEST NAME KIND [COMPILE ARGS (default: --gpu $CHIP)]
  local log src=$1 dest=$2 name=$3 kind=$4
  shift 4
  (( $# )) || set -- --gpu "$CHIP"
  if log=$("$FLOORS" compile "$src" --target gpu "$@" -o "$dest" 2>&1) \
     && { log=$("$OUT/floors-run" --info "$dest" 2>&1) && grep -q '^target: gpu' <<<"$log" \
          || { log="error: not a GPU artifact ($(grep -m1 '^target:' <<<"$log"))"; false; }; }; then
    compiled=$((compiled + 1))
  else
    failed=$((failed + 1))
    rm -f "$dest"
    printf '%s/%s\t%s\n' "$kind" "$name" "$(printf '%s\n' "$log" | grep -m1 -i 'error' || printf '%s\n' "$log" | head -n1)" >> "$OUT/compile-failures.txt"
  fi
}

for src in "$CORPUS"/public/*.stablehlo.mlir; do
  name=$(basename "$src" .stablehlo.mlir)
  cp "$CORPUS"/public/"$name".in*.npy "$OUT/public/" 2>/dev/null || true
  cp "$CORPUS"/public/"$name".out*.npy "$OUT/public/"
  compile "$src" "$OUT/public/$name.floors" "$name" public
done
cp "$CORPUS/public/manifest.json" "$OUT/public/"
for src in "$CORPUS"/bench/*.stablehlo.mlir; do
  name=$(basename "$src" .stablehlo.mlir)
  cp "$src" "$OUT/bench/"
  compile "$src" "$OUT/bench/$name.floors" "$name" bench
done

# floors' own GEMM kernels (`--gpu-gemm emitter`): the f16/bf16 test
# programs and the public matmul, mma.sync (sm_90) and wgmma (sm_90a, which
# the H200 runs), on random inputs with the CPU floor's outputs as the
# reference (emitter/NAME.CHIP.*); the same for the stress set (stress/).
# Both need numpy (FLOORS_PYTHON or .venv-test): without it the check
# would silently shrink, so it is an error.
PY=${FLOORS_PYTHON:-.venv-test/bin/python}
if ! [[ -x "$PY" ]] || ! "$PY" -c 'import numpy' 2>/dev/null; then
  echo "gpu_prepare: error: no Python with numpy ($PY; set FLOORS_PYTHON or run scripts/test.sh once to make .venv-test): the emitter GEMM and stress checks need it" >&2
  exit 1
fi
# with_reference SRC KIND NAME [COMPILE ARGS]: random inputs for SRC's
# @main, the CPU floor's outputs as the expected ones, and the GPU artifact,
# all as $OUT/KIND/NAME.*; a failed reference run is listed, not fatal.
with_reference() {
  local src=$1 kind=$2 name=$3 ref
  shift 3
  "$PY" scripts/gpu_emitter_inputs.py "$src" "$OUT/$kind/$name"
  local inputs=()
  for i in "$OUT/$kind/$name".in*.npy; do inputs+=(--input "$i"); done
  ref=$(mktemp -d)
  if "$FLOORS" run "$src" --target cpu "${inputs[@]}" --output-dir "$ref" >/dev/null 2>&1; then
    for o in "$ref"/out*.npy; do mv "$o" "$OUT/$kind/$name.$(basename "$o")"; done
    compile "$src" "$OUT/$kind/$name.floors" "$name" "$kind" "$@"
  else
    printf '%s/%s\t%s\n' "$kind" "$name" "the CPU floor's reference run failed" >> "$OUT/compile-failures.txt"
  fi
  rm -rf "$ref"
}
mkdir -p "$OUT/stress" "$OUT/emitter"
for src in "$CORPUS"/gpu-stress/*.stablehlo.mlir; do
  with_reference "$src" stress "$(basename "$src" .stablehlo.mlir)"
done
for src in tests/inputs/tensorcore/*.stablehlo.mlir "$CORPUS"/public/matmul.stablehlo.mlir; do
  for chip in sm_90 sm_90a; do
    with_reference "$src" emitter "$(basename "$src" .stablehlo.mlir).$chip" --gpu "$chip" --gpu-gemm emitter
  done
done

{
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "prepared: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "chip: $CHIP"
  echo "compiled: $compiled, not compiled: $failed (compile-failures.txt)"
  echo "selftest: $(ls "$OUT"/selftest/*.floors | wc -l) artifacts"
} > "$OUT/PREPARED"

echo "gpu_prepare: floors-run needs only:" >&2
ldd "$OUT/floors-run" | sed 's/^/  /' >&2
bytes=$(du -sb "$OUT" | cut -f1)
cat "$OUT/PREPARED" >&2
if [[ -s "$OUT/compile-failures.txt" ]]; then
  echo "gpu_prepare: not compiled for the GPU:" >&2
  sed 's/^/  /' "$OUT/compile-failures.txt" >&2
fi
echo "gpu_prepare: $OUT is $((bytes / 1024)) KiB; carry it to the GPU machine and run: bash scripts/gpu_check.sh" >&2
if (( bytes > 60 * 1024 * 1024 )); then
  echo "gpu_prepare: warning: $OUT is over 60 MiB (the device machine takes 64 MiB of carried files)" >&2
fi
