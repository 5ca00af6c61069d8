#!/usr/bin/env bash
# Lays out an install tree: bin/floors, lib/libfloors_plugin.so,
# lib/cmake/Floors/, include/floors/ (C API headers), share/floors/lit-tests/.
#   scripts/install.sh PREFIX            builds with `cargo build --release` first
#   FLOORS_ARTIFACTS=DIR scripts/install.sh PREFIX
#                                        takes floors and libfloors_plugin.so from DIR
#                                        (or DIR/deps) instead of building
set -euo pipefail
prefix=${1:?usage: scripts/install.sh PREFIX}
repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "${FLOORS_ARTIFACTS:-}" ]]; then
  (cd "$repo" && cargo build --release --workspace)
  FLOORS_ARTIFACTS="$repo/target/release"
fi
find_artifact() {
  for c in "$FLOORS_ARTIFACTS/$1" "$FLOORS_ARTIFACTS/deps/$1"; do
    [[ -f "$c" ]] && { echo "$c"; return; }
  done
  echo "install.sh: $1 not found in $FLOORS_ARTIFACTS" >&2; exit 1
}
mkdir -p "$prefix/bin" "$prefix/lib/cmake/Floors" "$prefix/include/floors" "$prefix/share/floors"
install -m 755 "$(find_artifact floors)" "$prefix/bin/floors"
install -m 755 "$(find_artifact libfloors_plugin.so)" "$prefix/lib/libfloors_plugin.so"
install -m 644 "$repo"/cmake/FloorsConfig.cmake "$repo"/cmake/FloorsConfigVersion.cmake "$prefix/lib/cmake/Floors/"
for h in "$repo"/dialects/*/*CAPI.h "$repo"/ir/cxx/*.h; do
  d="$prefix/include/floors/$(basename "$(dirname "$h")")"
  [[ "$(basename "$(dirname "$h")")" == cxx ]] && d="$prefix/include/floors"
  mkdir -p "$d" && install -m 644 "$h" "$d/"
done
rm -rf "$prefix/share/floors/lit-tests" && cp -r "$repo/lit-tests" "$prefix/share/floors/lit-tests"
echo "installed floors into $prefix"
