// REQUIRES: floors-cli
// RUN: rm -rf %t && %floors compile %S/Inputs/helpers.mlir --dump-to %t --dump-pass-re inline > %t.out
// RUN: ls %t/jit_helpers | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=INPUT < %t/jit_helpers/0000.input.mlir
// RUN: FileCheck %s --check-prefix=INLINED < %t/jit_helpers/0001.floors-hlo-inline.mlir
// RUN: FileCheck %s --check-prefix=INLINED < %t.out

// Only the input and the matching passes are written (floors-hlo-inline runs
// first, before partitioning, and again in the cleanup); the other passes
// ran but do not match the regex.
// FILES: 0000.input.mlir
// FILES-NEXT: 0001.floors-hlo-inline.mlir
// FILES-NEXT: 0009.floors-hlo-inline.mlir
// FILES-NOT: canonicalize
// FILES-NOT: cse

// INPUT: call @square
// INLINED-NOT: call
// INLINED: arith.mulf
// INLINED-NOT: func.func private

// Without a regex every pass is written, in pipeline order.
// RUN: rm -rf %t2 && %floors compile %S/Inputs/helpers.mlir --dump-to %t2 -o %t2.out
// RUN: ls %t2/jit_helpers | FileCheck %s --check-prefix=ALL
// ALL: 0000.input.mlir
// ALL-NEXT: 0001.floors-hlo-inline.mlir
// ALL-NEXT: 0002.floors-hlo-spmd-partition.mlir
// ALL-NEXT: 0003.floors-hlo-drop-one-device-shardings.mlir
// ALL-NEXT: 0004.floors-hlo-tokens-to-zero-sized.mlir
// ALL-NEXT: 0005.floors-hlo-single-device-collectives.mlir
// ALL-NEXT: 0006.floors-hlo-collectives-to-calls.mlir
// ALL-NEXT: 0007.floors-hlo-fft-to-call.mlir
// ALL-NEXT: 0008.floors-hlo-custom-call-layouts.mlir
// ALL-NEXT: 0009.floors-hlo-inline.mlir
// ALL-NEXT: 0010.floors-hlo-legalize-chlo.mlir
// ALL-NEXT: 0011.floors-hlo-expand-rng-bit-generator.mlir
// ALL-NEXT: 0012.floors-hlo-simplify.mlir
// ALL-NEXT: 0013.floors-hlo-eliminate-zero-sized.mlir
// ALL-NEXT: 0014.canonicalize.mlir
// ALL-NEXT: 0015.cse.mlir
// ALL-NEXT: 0016.floors-hlo-restore-locations.mlir
// ALL-NEXT: 0017.floors-hlo-annotate-trip-counts.mlir
// ALL-NEXT: 0018.floors-hlo-fuse.mlir

// FLOORS_FLAGS does the same for library users and the CLI alike.
// RUN: rm -rf %t3 && env FLOORS_FLAGS="--dump-to=%t3 --dump-pass-re=^cse$" %floors compile %S/Inputs/helpers.mlir -o %t3.out
// RUN: ls %t3/jit_helpers | FileCheck %s --check-prefix=ENV
// ENV: 0000.input.mlir
// ENV-NEXT: 0015.cse.mlir

// A bad regex and a bad FLOORS_FLAGS are errors, not ignored.
// RUN: not %floors compile %S/Inputs/helpers.mlir --dump-to %t4 --dump-pass-re '(' 2>&1 | FileCheck %s --check-prefix=BADRE
// BADRE: error: invalid pass regex `(`
// RUN: env FLOORS_FLAGS="--dump-too=x" not %floors compile %S/Inputs/helpers.mlir 2>&1 | FileCheck %s --check-prefix=BADFLAGS
// BADFLAGS: error: FLOORS_FLAGS: unknown flag `--dump-too`
