// REQUIRES: floors-cli
// Ops of the spec that no floor compiles yet parse and verify, then stop at
// floors-fuse with `file:line:col: error: ... is not supported yet` and exit
// 1, whatever the target; never a parse error, a crash or a wrong answer.

// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir 2>&1 | FileCheck %s --check-prefix=TSOLVE
// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=TSOLVE
// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=TSOLVE
// TSOLVE: unsupported_triangular_solve.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.triangular_solve' is not supported yet: floors cannot compile this op
// TSOLVE-NOT: panicked

// RUN: not %floors compile %S/Inputs/unsupported_fft.mlir 2>&1 | FileCheck %s --check-prefix=FFT
// RUN: not %floors compile %S/Inputs/unsupported_fft.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=FFT
// RUN: not %floors compile %S/Inputs/unsupported_fft.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=FFT
// FFT: unsupported_fft.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.fft' is not supported yet: floors cannot compile this op
// FFT-NOT: panicked

// RUN: not %floors compile %S/Inputs/unsupported_all_reduce.mlir 2>&1 | FileCheck %s --check-prefix=ALLREDUCE
// RUN: not %floors compile %S/Inputs/unsupported_all_reduce.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=ALLREDUCE
// RUN: not %floors compile %S/Inputs/unsupported_all_reduce.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=ALLREDUCE
// ALLREDUCE: unsupported_all_reduce.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.all_reduce' is not supported yet: floors cannot compile this op
// ALLREDUCE-NOT: panicked

// RUN: not %floors compile %S/Inputs/unsupported_send_recv.mlir 2>&1 | FileCheck %s --check-prefix=SENDRECV
// RUN: not %floors compile %S/Inputs/unsupported_send_recv.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=SENDRECV
// RUN: not %floors compile %S/Inputs/unsupported_send_recv.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=SENDRECV
// SENDRECV: unsupported_send_recv.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.send' is not supported yet: floors cannot compile this op
// SENDRECV-NOT: panicked

// RUN: not %floors compile %S/Inputs/unsupported_quantized.mlir 2>&1 | FileCheck %s --check-prefix=QUANT
// RUN: not %floors compile %S/Inputs/unsupported_quantized.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=QUANT
// QUANT: unsupported_quantized.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.uniform_quantize' is not supported yet: floors cannot compile this op

// RUN: not %floors compile %S/Inputs/unsupported_complex_add.mlir 2>&1 | FileCheck %s --check-prefix=COMPLEX
// RUN: not %floors compile %S/Inputs/unsupported_complex_add.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: unsupported_complex_add.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.add' on element type complex<f32> is not supported yet: floors cannot compile complex numbers

// The cleaned-up StableHLO still prints: only compiling refuses the op.
// RUN: %floors compile %S/Inputs/unsupported_fft.mlir --emit hlo | FileCheck %s --check-prefix=HLO
// HLO: stablehlo.fft %arg0, type =  RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
