// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-gpu-rewrite-gemm{mode=library})' | FileCheck %s --check-prefixes=CHECK,LIB
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-gpu-rewrite-gemm)' | FileCheck %s --check-prefixes=AUTO
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-fuse,floors-gpu-rewrite-gemm{mode=emitter})' | FileCheck %s --check-prefixes=EMIT

// An eligible dot: a library fusion carrying the GemmSpec (less buffers).
// CHECK-LABEL: func.func @plain
// AUTO-LABEL: func.func @plain
// EMIT-LABEL: func.func @plain
// LIB: floors.fusion gemm hero "stablehlo.dot_general" (%{{.*}} = %arg0 : tensor<64x32xf32>, %{{.*}} = %arg1 : tensor<32x16xf32>) -> tensor<64x16xf32> attributes {floors.gpu_gemm = "library", floors.gpu_gemm_reason = "library: cuBLAS gemm f32 1x64x16x32", floors.library_call = #floors.library_call<call = "gemm", batch = 1, m = 64, n = 16, k = 32, transpose_lhs = false, transpose_rhs = false, lhs_batch_stride = 2048, rhs_batch_stride = 512>}
// LIB-NEXT: stablehlo.dot_general
// LIB-NEXT: floors.yield
// AUTO: floors.gpu_gemm = "library", floors.gpu_gemm_reason = "auto: cuBLAS gemm f32 1x64x16x32, (m+n)*k = 2560 >= 100"
// EMIT: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "--gpu-gemm emitter: floors' GEMM emitter for every dot"
// EMIT-NOT: floors.library_call
func.func @plain(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

// Contracting lhs dim 0 and rhs dim 1: both operands transposed, no copy.
// CHECK-LABEL: func.func @transposed
// EMIT-LABEL: func.func @transposed
// CHECK: floors.library_call = #floors.library_call<call = "gemm", batch = 1, m = 64, n = 16, k = 32, transpose_lhs = true, transpose_rhs = true, lhs_batch_stride = 2048, rhs_batch_stride = 512>
func.func @transposed(%a: tensor<32x64xf32>, %b: tensor<16x32xf32>) -> tensor<64x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [1] : (tensor<32x64xf32>, tensor<16x32xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

// Leading batch dimensions: a strided batched gemm.
// CHECK-LABEL: func.func @batched
// CHECK: floors.library_call = #floors.library_call<call = "gemm", batch = 4, m = 8, n = 16, k = 32, transpose_lhs = false, transpose_rhs = false, lhs_batch_stride = 256, rhs_batch_stride = 512>
func.func @batched(%a: tensor<4x8x32xf32>, %b: tensor<4x32x16xf32>) -> tensor<4x8x16xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// A weight broadcast over the batch: the library reads the one matrix
// (batch stride 0); the broadcast stays in the body (what the call computes).
// CHECK-LABEL: func.func @broadcast_rhs
// CHECK: floors.fusion gemm {{.*}}(%{{.*}} = %arg0 : tensor<4x8x32xf32>, %{{.*}} = %arg1 : tensor<32x16xf32>) -> tensor<4x8x16xf32> {{.*}}rhs_batch_stride = 0>
// CHECK-NEXT: stablehlo.broadcast_in_dim
// CHECK-NEXT: stablehlo.dot_general
func.func @broadcast_rhs(%a: tensor<4x8x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x8x16xf32> {
  %b = stablehlo.broadcast_in_dim %w, dims = [1, 2] : (tensor<32x16xf32>) -> tensor<4x32x16xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// The bias add and relu become a loop fusion reading the product.
// CHECK-LABEL: func.func @epilogue
// CHECK: %[[P:.*]] = floors.fusion gemm {{.*}}(%{{.*}} = %arg0 : tensor<8x32xf32>, %{{.*}} = %arg1 : tensor<32x64xf32>) -> tensor<8x64xf32> attributes {floors.gpu_gemm = "library"
// CHECK-NEXT: stablehlo.dot_general
// CHECK-NEXT: floors.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[E:.*]] = floors.fusion loop hero "stablehlo.maximum" (%{{.*}} = %arg2 : tensor<64xf32>, %[[A:.*]] = %[[P]] : tensor<8x64xf32>) -> tensor<8x64xf32> {
// CHECK-NOT: dot_general
// CHECK: stablehlo.add %[[A]]
// CHECK: return %[[E]]
func.func @epilogue(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>, %bias: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<8x64xf32>
  %3 = stablehlo.maximum %2, %z : tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}

// -----

// Ineligible: the batch dimension does not lead; the emitter, with the reason.
// CHECK-LABEL: func.func @batch_not_leading
// CHECK: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "not a cuBLAS gemm: batch dimensions [1] x [0] do not lead in order (a GemmSpec's batch is the leading dimensions)"
// CHECK-NOT: floors.library_call
func.func @batch_not_leading(%a: tensor<8x4x32xf32>, %b: tensor<4x32x16xf32>) -> tensor<4x8x16xf32> {
  %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [2] x [1] : (tensor<8x4x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// Ineligible: bf16 operands with an f32 result (a GemmSpec has one element type).
// CHECK-LABEL: func.func @mixed
// CHECK: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "not a cuBLAS gemm: mixed element types bf16 x bf16 -> f32 (a GemmSpec has one)"
func.func @mixed(%a: tensor<8x32xbf16>, %b: tensor<32x16xbf16>) -> tensor<8x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xbf16>, tensor<32x16xbf16>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// Ineligible: integers.
// CHECK-LABEL: func.func @int
// CHECK: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "not a cuBLAS gemm: element type i32 (cuBLAS gemms here: f32, f64, f16, bf16)"
func.func @int(%a: tensor<8x32xi32>, %b: tensor<32x16xi32>) -> tensor<8x16xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xi32>, tensor<32x16xi32>) -> tensor<8x16xi32>
  return %0 : tensor<8x16xi32>
}

// -----

// Eligible but tiny: library takes it, auto leaves it to the emitter (XLA's threshold).
// CHECK-LABEL: func.func @small
// AUTO-LABEL: func.func @small
// LIB: floors.gpu_gemm = "library"
// AUTO: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "auto: f32 1x2x4x3 is small, (m+n)*k = 18 < 100 (XLA's rewrite threshold)"
// AUTO-NOT: floors.library_call
func.func @small(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// The product is also a result: its users read the library fusion; the
// epilogue fusion computes only the rest.
// CHECK-LABEL: func.func @both_outputs
// AUTO-LABEL: func.func @both_outputs
// CHECK: %[[P:.*]] = floors.fusion gemm {{.*}} -> tensor<8x64xf32> attributes {floors.gpu_gemm = "library"
// CHECK: %[[E:.*]] = floors.fusion loop hero "stablehlo.exponential" (%{{.*}} = %[[P]] : tensor<8x64xf32>) -> tensor<8x64xf32>
// CHECK: return %[[P]], %[[E]]
func.func @both_outputs(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %1 = stablehlo.exponential %0 : tensor<8x64xf32>
  return %0, %1 : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// Without a mode option the module's floors.gpu_gemm_mode (the driver's
// --gpu-gemm) decides; an option wins over it.
// CHECK-LABEL: func.func @module_mode
// LIB: floors.gpu_gemm = "library"
// AUTO-LABEL: func.func @module_mode
// AUTO: floors.gpu_gemm = "emitter", floors.gpu_gemm_reason = "--gpu-gemm emitter
module attributes {floors.gpu_gemm_mode = "emitter"} {
  func.func @module_mode(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
    return %0 : tensor<64x16xf32>
  }
}

// -----

// XLA's TransposeFolding: attention's transpose(K) fusion folds into the
// call (rhs read as stored, 16x32, with transpose_rhs) and goes; the
// transpose is kept in the library fusion's body (what the call computes).
// CHECK-LABEL: func.func @folded_transpose
// EMIT-LABEL: func.func @folded_transpose
// LIB-NOT: floors.fusion transpose
// LIB: floors.fusion gemm {{.*}}(%{{.*}} = %arg0 : tensor<64x32xf32>, %{{.*}} = %arg1 : tensor<16x32xf32>) -> tensor<64x16xf32> {{.*}}transpose_lhs = false, transpose_rhs = true,
// LIB-NEXT: stablehlo.transpose
// LIB-NEXT: stablehlo.dot_general
// EMIT: floors.fusion transpose
// EMIT: floors.fusion gemm
func.func @folded_transpose(%q: tensor<64x32xf32>, %k: tensor<16x32xf32>) -> tensor<64x16xf32> {
  %kt = stablehlo.transpose %k, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
  %0 = stablehlo.dot_general %q, %kt, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0 : tensor<64x16xf32>
}

// -----

// A transpose something else also reads stays (the call still folds it).
// CHECK-LABEL: func.func @shared_transpose
// LIB: floors.fusion transpose
// LIB: floors.fusion gemm {{.*}}transpose_rhs = true,
func.func @shared_transpose(%q: tensor<64x32xf32>, %k: tensor<16x32xf32>) -> (tensor<64x16xf32>, tensor<32x16xf32>) {
  %kt = stablehlo.transpose %k, dims = [1, 0] : (tensor<16x32xf32>) -> tensor<32x16xf32>
  %0 = stablehlo.dot_general %q, %kt, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  return %0, %kt : tensor<64x16xf32>, tensor<32x16xf32>
}
