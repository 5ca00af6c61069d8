// RUN: %floors-opt %s -split-input-file -verify-diagnostics

func.func @unknown_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.gpu_emitter: unknown emitter kind 'warp'}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "warp", reason = "", block = [32, 1, 1], grid = [1, 1, 1]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @zero_block(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.gpu_emitter: block must be three dimensions of at least 1}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "loop", reason = "", block = [0, 1, 1], grid = [1, 1, 1]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @two_dims(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.gpu_emitter: grid must be three dimensions of at least 1}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "loop", reason = "", block = [32, 1, 1], grid = [1, 1]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// The plan belongs on a fusion, and must be the typed attribute.
func.func @untyped(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'floors.gpu_emitter' must be a #floors.gpu_emitter, got {kind = "loop"}}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.gpu_emitter = {kind = "loop"}} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @not_a_fusion() {
  // expected-error @+1 {{'floors.gpu_emitter' must be on a floors.fusion}}
  "test.op"() {floors.gpu_emitter = #floors.gpu_emitter<kind = "loop", reason = "", block = [32, 1, 1], grid = [1, 1, 1]>} : () -> ()
  return
}

// -----

func.func @tpu_plan_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.tpu_plan: a 'matmul' plan has 3 grid and block axes}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "matmul", grid = [2], block = [4]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @tpu_plan_strategy(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.tpu_plan: unknown strategy 'columns' (rows, matmul or whole)}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "columns", grid = [2], block = [4]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @tpu_plan_zero(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.tpu_plan: grid and block sizes must be at least 1}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [0], block = [4]>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @tpu_plan_untyped(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'floors.tpu_plan' must be a #floors.tpu_plan, got}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.tpu_plan = {strategy = "rows", grid = array<i64: 2>, block = array<i64: 4>}} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @library_call_unknown(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.library_call: unknown call 'conv' (gemm is the one the runtime has)}}
  %0 = floors.fusion gemm (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.library_call = #floors.library_call<call = "conv", batch = 1, m = 8, n = 1, k = 1, transpose_lhs = false, transpose_rhs = false, lhs_batch_stride = 8, rhs_batch_stride = 1>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @library_call_overlap(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{#floors.library_call: lhs_batch_stride 4 is neither 0 nor at least m*k}}
  %0 = floors.fusion gemm (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.library_call = #floors.library_call<call = "gemm", batch = 2, m = 4, n = 1, k = 2, transpose_lhs = false, transpose_rhs = false, lhs_batch_stride = 4, rhs_batch_stride = 2>} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

func.func @library_call_untyped(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'floors.library_call' must be a #floors.library_call, got}}
  %0 = floors.fusion gemm (%a = %arg0 : tensor<8xf32>) -> tensor<8xf32> attributes {floors.library_call = {call = "gemm"}} {
    floors.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{#floors.launch_arg: kind 'scratch' is not in, out or tmp}}
module attributes {test.arg = #floors.launch_arg<"scratch", 0>} {
}

// -----

// expected-error @+1 {{#floors.gpu_kernel: launch argument tmp 1 of 'f' names no temporary (it has 1)}}
module attributes {floors.gpu_kernels = [#floors.gpu_kernel<fusion = "f", temps = [16], launches = [#floors.gpu_launch<module = "m", entry = "e", grid = [1, 1, 1], block = [1, 1, 1], args = [#floors.launch_arg<"tmp", 1>]>]>]} {
}

// -----

// expected-error @+1 {{#floors.gpu_launch: grid and block must be three dimensions of at least 1}}
module attributes {test.launch = #floors.gpu_launch<module = "m", entry = "e", grid = [1, 1], block = [1, 1, 1], args = []>} {
}

// -----

// expected-error @+1 {{'floors.gpu_kernels' must be an array of #floors.gpu_kernel, got}}
module attributes {floors.gpu_kernels = [{fusion = "f", launches = [{args = ["in0"]}]}]} {
}
