// RUN: %floors-opt %s -split-input-file -verify-diagnostics

func.func @wrong_arg_count(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'floors.fusion' op body has 2 arguments but the fusion has 1 operands}}
  %0 = "floors.fusion"(%arg0) <{kind = #floors.kind<loop>}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    "floors.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_arg_type(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'floors.fusion' op body argument #0 has type 'tensor<4xi32>' but operand #0 has type 'tensor<4xf32>'}}
  %0 = "floors.fusion"(%arg0) <{kind = #floors.kind<loop>}> ({
  ^bb0(%a: tensor<4xi32>):
    %c = "arith.constant"() <{value = dense<0.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    "floors.yield"(%c) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Only unsigned vs signless integers of one width may differ (a lowered body).
func.func @wrong_width(%arg0: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'floors.fusion' op body argument #0 has type 'tensor<4xi16>' but operand #0 has type 'tensor<4xui32>'}}
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xui32> as tensor<4xi16>) -> tensor<4xui32> {
    %c = arith.constant dense<0> : tensor<4xi32>
    floors.yield %c : tensor<4xi32>
  }
  return %0 : tensor<4xui32>
}

// -----

func.func @wrong_yield_signedness(%arg0: tensor<4xui32>) -> tensor<4xui32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xui32>) -> tensor<4xui32> {
    %c = arith.constant dense<0> : tensor<4xi64>
    // expected-error @+1 {{'floors.yield' op value #0 has type 'tensor<4xi64>' but fusion result #0 has type 'tensor<4xui32>'}}
    floors.yield %c : tensor<4xi64>
  }
  return %0 : tensor<4xui32>
}

// -----

func.func @yield_count(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'floors.yield' op yields 2 values but the enclosing fusion has 1 results}}
    floors.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_type(%arg0: tensor<4xf32>) -> tensor<4xi32> {
  %0 = floors.fusion loop (%a = %arg0 : tensor<4xf32>) -> tensor<4xi32> {
    // expected-error @+1 {{'floors.yield' op value #0 has type 'tensor<4xf32>' but fusion result #0 has type 'tensor<4xi32>'}}
    floors.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xi32>
}

// -----

func.func @unknown_kind(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{unknown fusion kind 'fancy'}}
  %0 = floors.fusion fancy (%a = %arg0 : tensor<4xf32>) -> tensor<4xf32> {
    floors.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @empty_hero(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'floors.fusion' op hero must name an op, got an empty string}}
  %0 = floors.fusion loop hero "" (%a = %arg0 : tensor<4xf32>) -> tensor<4xf32> {
    floors.yield %a : tensor<4xf32>
  }
  return
}

// -----

func.func @not_isolated(%arg0: tensor<4xf32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = floors.fusion loop () -> tensor<4xf32> {
    // expected-error @+1 {{'floors.yield' op using value defined outside the region}}
    floors.yield %arg0 : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_outside(%arg0: tensor<4xf32>) {
  // expected-error @+1 {{'floors.yield' op expects parent op 'floors.fusion'}}
  floors.yield %arg0 : tensor<4xf32>
}
