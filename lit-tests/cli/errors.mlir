// REQUIRES: floors-cli
// Bad input gives `file:line:col: error: ...` and exit 1, never a crash.

// RUN: not %floors compile %S/Inputs/syntax_error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: syntax_error.mlir:3:23: error: expected ','
// SYNTAX-NOT: panicked

// RUN: not %floors compile %S/Inputs/verify_error.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: verify_error.mlir:4:5: error: 'func.return' op has 2 operands, but enclosing function (@f) returns 1

// RUN: not %floors compile %S/Inputs/unknown_op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown_op.mlir:3:10: error: Dialect `nosuch' not found for custom op 'nosuch.op'

// RUN: not %floors compile %S/Inputs/does_not_exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: does_not_exist.mlir: error: No such file or directory

// RUN: printf 'module {\0}' > %t.nul.mlir
// RUN: not %floors compile %t.nul.mlir 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: nul.mlir:1:9: error: NUL byte in input

// RUN: printf 'module {\n \377 }' > %t.utf8.mlir
// RUN: not %floors compile %t.utf8.mlir 2>&1 | FileCheck %s --check-prefix=UTF8
// UTF8: utf8.mlir:2:2: error: input is not valid UTF-8

// A bare func is wrapped in a module by the parser, as mlir-opt does.
// RUN: %floors compile %S/Inputs/implicit_module.mlir | FileCheck %s --check-prefix=IMPLICIT
// IMPLICIT: func.func @f

// An error in an inlined helper points at the op's own line (the innermost
// frame of its call-site location), not at the call.
// RUN: not %floors compile %S/Inputs/inlined_error.mlir --emit llvm 2>&1 | FileCheck %s --check-prefix=INLINED
// INLINED: inlined_error.mlir:7:8: error: floors-linalg-lower-stablehlo: cannot lower 'stablehlo.convert' on element type f8E4M3FN
