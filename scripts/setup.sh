#!/usr/bin/env bash
# Installs what floors needs on a fresh Debian 12 machine (as root), and
# nothing when it is all there: LLVM/MLIR 22 (tools, headers, libMLIR.so,
# clang for the C++), lit and FileCheck of LLVM 22, cmake, Graphviz, Open
# MPI, and a
# Rust toolchain check.
set -euo pipefail

need=()
have() { [[ -e "$1" ]]; }
have /usr/lib/llvm-22/bin/mlir-opt      || need+=(mlir-22-tools)
have /usr/lib/llvm-22/bin/mlir-tblgen   || need+=(mlir-22-tools)
have /usr/lib/llvm-22/lib/libMLIR.so    || need+=(libmlir-22-dev)
have /usr/lib/llvm-22/include/mlir/IR/Operation.h || need+=(libmlir-22-dev)
have /usr/lib/llvm-22/bin/llvm-config   || need+=(llvm-22-dev)
have /usr/lib/llvm-22/bin/FileCheck     || need+=(llvm-22-tools)
have /usr/lib/llvm-22/bin/lit           || need+=(llvm-22-tools)
have /usr/lib/llvm-22/bin/clang++       || need+=(clang-22)
have /usr/lib/llvm-22/lib/libclang.so   || need+=(libclang-22-dev)
have /usr/lib/llvm-22/lib/libPolly.a    || need+=(libpolly-22-dev)
command -v cmake >/dev/null             || need+=(cmake)
# The CPU floor links kernel objects into shared objects with a C compiler
# driver (`cc`); tests read objects with objdump.
command -v cc >/dev/null                || need+=(gcc)
command -v objdump >/dev/null           || need+=(binutils)
command -v python3 >/dev/null           || need+=(python3)
# `floors compile --emit svg` renders the fusion graph with Graphviz's `dot`;
# a test checks that `dot` parses the `--emit dot` graph of every program.
command -v dot >/dev/null               || need+=(graphviz)
# Collectives across processes: `floors-run --mpi` (feature `mpi`) runs
# under Open MPI's mpirun; the `mpi` crate builds against its headers.
command -v mpirun >/dev/null            || need+=(openmpi-bin)
have /usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h || need+=(libopenmpi-dev)
for dev in libzstd-dev zlib1g-dev libxml2-dev libedit-dev libffi-dev libncurses-dev; do
  dpkg -s "$dev" >/dev/null 2>&1 || need+=("$dev")
done

if (( ${#need[@]} )); then
  echo "setup: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null; then
  echo "setup: cargo not found; install Rust (rustup) first" >&2
  exit 1
fi
for component in rustfmt clippy; do
  if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
    echo "setup: rustup component add $component" >&2
    rustup component add "$component"
  fi
done
