#!/usr/bin/env bash
# Mutation sweep of the floors CLI over the corpus (fuzz/sweep/, std-only Rust):
# seeded mutations of ../shared/corpus/{public,bench}/*.stablehlo.mlir (lines,
# bytes, numbers, shapes, element types, op and attribute names, dense
# literals, truncation, deep nesting, splices of other programs, NUL bytes and
# invalid UTF-8), of the programs' .npy inputs and of compiled artifacts, run
# through `floors compile --emit llvm` (1 in 8 also `--emit fused`, 1 in 8
# `floors run`, 1 in 16 a mutated artifact through `floors-run`), each with a
# timeout and an address-space limit. Prints counts per class (ok, located,
# usage, unlocated, crash, timeout, long-run) and keeps every crash, timeout,
# long run, unlocated and usage case under OUT/<class>/<case>/ (the mutant,
# info.txt, stderr.txt, repro.sh; with --minimize also min-*.mlir).
#
#   scripts/fuzz.sh [--seed S] [--count N] [--out DIR] [--jobs J] [--timeout SECS]
#                   [--max-depth D] [--minimize] [--quiet]
#
# Defaults: seed 1, 1000 mutants, OUT = target/fuzz-sweep/seed-S, jobs = cores,
# timeout 20 s. Uses the debug build (target/debug/floors, floors-run), built
# first unless FLOORS_NO_BUILD=1; FLOORS_BIN / FLOORS_RUN_BIN pick other
# binaries. Exit 1 if a crash or timeout was found.
set -euo pipefail
cd "$(dirname "$0")/.."
FLOORS_BIN=${FLOORS_BIN:-target/debug/floors}
FLOORS_RUN_BIN=${FLOORS_RUN_BIN:-$(dirname "$FLOORS_BIN")/floors-run}
if [[ "${FLOORS_NO_BUILD:-0}" != 1 ]]; then
    cargo build -p floors -p floors-runtime --bins
fi
cargo build --release --quiet --manifest-path fuzz/sweep/Cargo.toml --target-dir target/fuzz-sweep
seed=1
out=
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --seed) seed=$2; args+=("$1" "$2"); shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
out=${out:-target/fuzz-sweep/seed-$seed}
exec target/fuzz-sweep/release/floors-sweep --floors "$FLOORS_BIN" --floors-run "$FLOORS_RUN_BIN" \
    --corpus ../shared/corpus --out "$out" "${args[@]}"
