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
