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
