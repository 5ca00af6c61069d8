// RUN: %floors-opt %s -split-input-file -verify-diagnostics

// Malformed meshes and shardings are located errors.

// expected-error @+1 {{unexpected token in an sdy mesh or sharding}}
sdy.mesh @m = <["x"=1] + >

// -----

func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op result type 'tensor<5xf32>' differs from the operand's 'tensor<4xf32>'}}
  %0 = "sdy.sharding_constraint"(%arg0) <{sharding = "<@m, [{}]>"}> : (tensor<4xf32>) -> tensor<5xf32>
  return %arg0 : tensor<4xf32>
}

// -----

// An unterminated sharding attribute.
// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func @g(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]}) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

// Nesting past the limit is refused, not recursed into.
// expected-error @+1 {{sdy attribute nested deeper than 64 brackets}}
sdy.mesh @m = <[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]>

// -----

func.func @h(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op has 1 operands but 2 in_shardings}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"x"}]>, <@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    sdy.return %a : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @k(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op local operand type 'tensor<2xi32>' does not match its global type 'tensor<8xf32>' in rank and element type}}
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@m, [{"x"}]>] out_shardings=[<@m, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xi32>) {
    %c = stablehlo.constant dense<0.0> : tensor<2xf32>
    sdy.return %c : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
