#!/usr/bin/env bash
# Compile time and peak memory against program size (not a test): a chain of
# N elementwise ops that reuse earlier values (so fusion cannot swallow it:
# about N/1.4 kernels) at 1x, 10x and 100x a base size, through each stage:
#   fused     parse, HLO cleanup, fusion              (floors compile --emit fused)
#   llvm      + stablehlo→linalg, kernels, LLVM dialect (--emit llvm)
#   artifact  + LLVM -O3, object, link                (-o X.floors)
# and a program of dense constants (10 MB at 100x).
#   scripts/size_bench.sh [BASE=200] [FLOORS=target/release/floors]
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-200}
FLOORS=${2:-target/release/floors}
[[ -x "$FLOORS" ]] || cargo build --release -p floors
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chain() { # N -> program text
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1])
print("func.func public @main(%a: tensor<16xf32>) -> tensor<16xf32> {")
print("  %v0 = stablehlo.add %a, %a : tensor<16xf32>")
for i in range(1, n):
    j = i - 1 - min((i * 7) % 5, i - 1)
    op = "multiply" if i % 2 else "add"
    print(f"  %v{i} = stablehlo.{op} %v{i-1}, %v{j} : tensor<16xf32>")
print(f"  return %v{n-1} : tensor<16xf32>")
print("}")
PY
}
constants() { # K -> K constants of 64 Ki f32 (~0.5 MB of text each)
  python3 - "$1" <<'PY'
import sys, struct
k = int(sys.argv[1])
hexs = "".join(struct.pack("<f", i * 0.5).hex().upper() for i in range(65536))
print("func.func public @main(%a: tensor<65536xf32>) -> tensor<65536xf32> {")
print("  %acc0 = stablehlo.add %a, %a : tensor<65536xf32>")
for i in range(k):
    print(f'  %c{i} = stablehlo.constant dense<"0x{hexs}"> : tensor<65536xf32>')
    print(f"  %acc{i+1} = stablehlo.add %acc{i}, %c{i} : tensor<65536xf32>")
print(f"  return %acc{k} : tensor<65536xf32>")
print("}")
PY
}
measure() { # file stage -> "seconds MB"
  local out
  case $2 in
    fused) out=$( { /usr/bin/time -f "%e %M" "$FLOORS" compile "$1" --emit fused > /dev/null; } 2>&1 | tail -1) ;;
    llvm) out=$( { /usr/bin/time -f "%e %M" "$FLOORS" compile "$1" --emit llvm > /dev/null; } 2>&1 | tail -1) ;;
    artifact) out=$( { /usr/bin/time -f "%e %M" "$FLOORS" compile "$1" -o "$work/x.floors"; } 2>&1 | tail -1) ;;
  esac
  awk '{printf "%.2f s, %d MB", $1, $2 / 1024}' <<< "$out"
}
echo "| program | size | fused | llvm | artifact |"
echo "|---|---|---|---|---|"
for mult in 1 10 100; do
  n=$((BASE * mult))
  chain "$n" > "$work/chain.mlir"
  stages=(fused llvm artifact)
  row="| chain | $n ops |"
  for s in "${stages[@]}"; do row="$row $(measure "$work/chain.mlir" "$s") |"; done
  echo "$row"
done
for k in 1 10 20; do
  constants "$k" > "$work/const.mlir"
  size=$(du -h "$work/const.mlir" | cut -f1)
  echo "| constants | $size |  $(measure "$work/const.mlir" fused) | $(measure "$work/const.mlir" llvm) | $(measure "$work/const.mlir" artifact) |"
done
