#!/usr/bin/env bash
# Compiles the shipped example (a JAX program) and prints the result.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --workspace --quiet
example=${1:-examples/argmax.stablehlo.mlir}
echo "== floors compile $example --emit hlo" >&2
target/debug/floors compile "$example" --emit hlo
