// REQUIRES: floors-cli
// Ops of the spec (or element types) that no floor compiles yet parse and verify, then stop at
// floors-fuse with `file:line:col: error: ... is not supported yet` and exit
// 1, whatever the target; never a parse error, a crash or a wrong answer.

// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir 2>&1 | FileCheck %s --check-prefix=TSOLVE
// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=TSOLVE
// RUN: not %floors compile %S/Inputs/unsupported_triangular_solve.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=TSOLVE
// TSOLVE: unsupported_triangular_solve.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.triangular_solve' is not supported yet: floors cannot compile this op
// TSOLVE-NOT: panicked

// stablehlo.fft is a call of the CPU floor's built-in FFT; the GPU and TPU
// floors refuse its complex values at the op.
// RUN: %floors compile %S/Inputs/fft_rfft.mlir --emit thunks | FileCheck %s --check-prefix=FFT
// FFT: custom_call @floors.fft {fft_length = array<i64: 8>, fft_type = "RFFT"} (handler: built-in)
// RUN: not %floors compile %S/Inputs/fft_rfft.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=FFTGPU
// FFTGPU: fft_rfft.mlir:3:8: error: floors-gpu-rewrite-gemm: 'stablehlo.custom_call' on element type complex<f32>: the GPU floor does not compile complex numbers yet (the CPU floor does)
// RUN: not %floors compile %S/Inputs/fft_rfft.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=FFTTPU
// FFTTPU: fft_rfft.mlir:4:8: error: floors-tpu-select-blocks: cannot put this fusion on the TPU floor yet: 'complex.re' inside a linalg.generic has no TPU lowering

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

// RUN: not %floors compile %S/Inputs/unsupported_complex_atan2.mlir 2>&1 | FileCheck %s --check-prefix=COMPLEX
// COMPLEX: unsupported_complex_atan2.mlir:3:8: error: floors-hlo-fuse: 'stablehlo.atan2' on element type complex<f32> is not supported yet: floors cannot compile complex numbers
// RUN: not %floors compile %S/Inputs/unsupported_complex_add.mlir --target gpu 2>&1 | FileCheck %s --check-prefix=COMPLEXGPU
// COMPLEXGPU: unsupported_complex_add.mlir:3:8: error: floors-gpu-rewrite-gemm: 'floors.fusion' on element type complex<f32>: the GPU floor does not compile complex numbers yet (the CPU floor does)
// RUN: not %floors compile %S/Inputs/unsupported_complex_add.mlir --target tpu 2>&1 | FileCheck %s --check-prefix=COMPLEXTPU
// COMPLEXTPU: unsupported_complex_add.mlir:3:8: error: floors-tpu-select-blocks: cannot put this fusion on the TPU floor yet: 'complex.add' inside a linalg.generic has no TPU lowering

// The cleaned-up StableHLO still prints the fft (it becomes a call at fusion).
// RUN: %floors compile %S/Inputs/fft_rfft.mlir --emit hlo | FileCheck %s --check-prefix=HLO
// HLO: stablehlo.fft %arg0, type =  RFFT, length = [8] : (tensor<8xf32>) -> tensor<5xcomplex<f32>>
