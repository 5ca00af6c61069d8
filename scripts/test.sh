#!/usr/bin/env bash
# The whole test suite: Rust unit/integration tests, insta snapshots, and the
# lit suite (run by plugin/tests/lit.rs against the freshly built plugin and CLI).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Only `cargo test`: a separate `cargo build` would build the MLIR crates twice
# (dev-dependencies change feature sets).
cargo test --workspace "$@"
