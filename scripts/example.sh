#!/usr/bin/env bash
# Compiles the shipped example (a JAX program): prints the fused module and
# the fusion report, then runs it on the CPU floor on the shipped input.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --workspace --quiet
example=${1:-examples/argmax.stablehlo.mlir}
echo "== floors compile $example --emit fused" >&2
target/debug/floors compile "$example" --emit fused
echo "== floors compile $example --fusion-report" >&2
target/debug/floors compile "$example" --fusion-report
if [[ $# -eq 0 ]]; then
  out=$(mktemp -d)
  echo "== floors run $example --input examples/argmax.in0.npy --output-dir $out" >&2
  target/debug/floors run "$example" --input examples/argmax.in0.npy --output-dir "$out"
  python3 scripts/npy_show.py "$out"/out*.npy
  echo "== the same program on the TPU floor (Mosaic kernels, run by the interpreter)" >&2
  target/debug/floors run --target tpu "$example" --input examples/argmax.in0.npy --output-dir "$out/tpu"
  python3 scripts/npy_show.py "$out"/tpu/out*.npy
  cmp "$out/out0.npy" "$out/tpu/out0.npy" && echo "TPU floor: same output" >&2
fi
