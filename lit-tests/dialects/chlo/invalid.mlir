// RUN: %floors-opt %s -split-input-file -verify-diagnostics

// Every chlo verifier rule, one case per split. Malformed input must be
// rejected with a diagnostic (Debian's MLIR has no assertions).

func.func @case1(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.erf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.erf %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case2(%arg0: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'chlo.erf' op result element type 'f64' must equal the operand element type 'f32'}}
  %0 = chlo.erf %arg0 : tensor<4xf32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
// -----
func.func @case3(%arg0: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'chlo.tan' op result shape [5] does not match operand shape [4]}}
  %0 = chlo.tan %arg0 : tensor<4xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
// -----
func.func @case4(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.is_inf' op result #0 must be ranked tensor of pred (i1) values, but got 'tensor<4xf32>'}}
  %0 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @case5(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_inf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.is_inf %arg0 : tensor<4xcomplex<f32>> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @case6(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{custom op 'chlo.erf' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = chlo.erf %arg0 : tensor<*xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
// -----
func.func @case7(%arg0: tensor<8x16xf32>) -> tensor<8x17xf32> {
  // expected-error @+1 {{'chlo.top_k' op attribute 'k' = 17 is larger than the operand's last dimension (16)}}
  %values, %indices = chlo.top_k(%arg0, k = 17) : tensor<8x16xf32> -> (tensor<8x17xf32>, tensor<8x17xi32>)
  return %values : tensor<8x17xf32>
}
// -----
func.func @case8(%arg0: tensor<8x16xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'chlo.top_k' op result #1 must be ranked tensor of 32-bit signless integer values, but got 'tensor<8x3xi64>'}}
  %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi64>)
  return %values : tensor<8x3xf32>
}
// -----
func.func @case9(%arg0: tensor<8x16xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'chlo.top_k' op result 'values' shape [8, 4] must be the operand shape with the last dimension replaced by k: [8, 3]}}
  %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<8x16xf32> -> (tensor<8x4xf32>, tensor<8x3xi32>)
  return %values : tensor<8x4xf32>
}
// -----
func.func @case10(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'chlo.top_k' op operand must have rank >= 1 (top_k works on the last dimension), but it is a rank-0 tensor}}
  %values, %indices = chlo.top_k(%arg0, k = 0) : tensor<f32> -> (tensor<f32>, tensor<i32>)
  return %values : tensor<f32>
}
// -----
func.func @case11(%arg0: tensor<8x16xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'chlo.top_k' op attribute 'k' = -1 must be >= 0}}
  %values, %indices = chlo.top_k(%arg0, k = -1) : tensor<8x16xf32> -> (tensor<8x3xf32>, tensor<8x3xi32>)
  return %values : tensor<8x3xf32>
}
// -----
func.func @case12(%arg0: tensor<2x3xf32>, %arg1: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operands are not broadcast-compatible: lhs has size 3 and rhs has size 4 at result dimension 1 (numpy-style, right-aligned; sizes must be equal or 1)}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case13(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operands are not broadcast-compatible: rhs dimension 0 (size 3) maps to lhs dimension 0 (size 2) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case14(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op broadcast_dimensions[0] = 2 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case15(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op broadcast_dimensions has 2 entries but must have one per dimension of the lower-rank operand (rhs, rank 1)}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case16(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x2xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op broadcast_dimensions must be strictly increasing, but broadcast_dimensions[1] = 0 follows 1}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 1, 0>} : (tensor<2x3x4xf32>, tensor<3x2xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}
// -----
func.func @case17(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op result dimension 0 has size 3 but the broadcast shape [2, 3] has size 2}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
// -----
func.func @case18(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op result rank 1 does not match the broadcast rank 2 (broadcast shape [2, 3])}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case19(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op lhs element type 'f32' and rhs element type 'f64' must be equal}}
  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case20(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_and' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<3xf32>'}}
  %0 = chlo.broadcast_and %arg0, %arg0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case21(%arg0: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op compare_type SIGNED does not fit operand element type 'f32' (expected FLOAT or TOTALORDER or NOTYPE)}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {comparison_direction = #chlo<comparison_direction EQ>, compare_type = #chlo<comparison_type SIGNED>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case22(%arg0: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op requires attribute 'comparison_direction'}}
  %0 = chlo.broadcast_compare %arg0, %arg0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case23(%arg0: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+2 {{expected ::floors::chlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
  // expected-error @+1 {{failed to parse Chlo_ComparisonDirectionAttr parameter 'value' which is to be a `::floors::chlo::ComparisonDirection`}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {comparison_direction = #chlo<comparison_direction XX>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case24(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_compare' op result #0 must be ranked tensor of pred (i1) values, but got 'tensor<3xf32>'}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {comparison_direction = #chlo<comparison_direction EQ>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case25(%p: tensor<3xi1>, %arg0: tensor<3xf32>, %arg1: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op on_true element type 'f32' and on_false element type 'i32' must be equal}}
  %0 = chlo.broadcast_select %p, %arg0, %arg1 : (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case26(%p: tensor<2xi1>, %arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op operands are not broadcast-compatible: pred has size 2 and on_true has size 3 at result dimension 0 (numpy-style, right-aligned; sizes must be equal or 1)}}
  %0 = chlo.broadcast_select %p, %arg0, %arg0 : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case27(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.zeta' op operand 'x' shape [2] and operand 'q' shape [3] must match (this op does not broadcast)}}
  %0 = chlo.zeta %arg0, %arg1 : tensor<2xf32>, tensor<3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @case28(%arg0: tensor<2xf32>, %arg1: tensor<2xf64>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.polygamma' op operand 'n' ('f32') and operand 'x' ('f64') must have the same element type}}
  %0 = chlo.polygamma %arg0, %arg1 : tensor<2xf32>, tensor<2xf64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @case29(%arg0: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'chlo.next_after' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2xi32>'}}
  %0 = chlo.next_after %arg0, %arg0 : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
// -----
func.func @case30() -> vector<2xf32> {
  // expected-error @+1 {{'chlo.constant' op result #0 must be ranked tensor of pred (i1) or integer or floating-point or complex values, but got 'vector<2xf32>'}}
  %0 = chlo.constant dense<1.0> : vector<2xf32>
  return %0 : vector<2xf32>
}
// -----
func.func @case31() -> tensor<2xf32> {
  // expected-error @+1 {{custom op 'chlo.constant' invalid kind of attribute specified}}
  %0 = chlo.constant 1.0 : f32
  return %0 : tensor<2xf32>
}
// -----
func.func @case32() -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "chlo.constant"() <{value = dense<1.0> : tensor<3xf32>}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// -----
func.func @case33(%arg0: tensor<1x2xi64>) -> tensor<1x2xi32> {
  // expected-error @+1 {{'chlo.constant_like' op result element type 'i32' must equal the type of attribute 'value' ('f32')}}
  %0 = "chlo.constant_like"(%arg0) <{value = 3.2 : f32}> : (tensor<1x2xi64>) -> tensor<1x2xi32>
  return %0 : tensor<1x2xi32>
}
// -----
func.func @case34(%arg0: tensor<1x2xi64>) -> tensor<1x2xf32> {
  // expected-error @+1 {{'chlo.constant_like' op attribute 'value' must be a scalar (it is splatted to the operand's shape), got a value of type 'tensor<f32>'}}
  %0 = "chlo.constant_like"(%arg0) <{value = dense<3.2> : tensor<f32>}> : (tensor<1x2xi64>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
// -----
func.func @case35(%arg0: tensor<1x2xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'chlo.constant_like' op result shape [2, 2] does not match operand shape [1, 2]}}
  %0 = "chlo.constant_like"(%arg0) <{value = 3.2 : f32}> : (tensor<1x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
// -----
func.func @case36(%arg0: tensor<1x2xi64>) -> tensor<1x2xf32> {
  // expected-error @+1 {{'chlo.constant_like' op requires attribute 'value'}}
  %0 = "chlo.constant_like"(%arg0) : (tensor<1x2xi64>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
// -----
func.func @case37(%arg0: tensor<8x16xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'chlo.top_k' op requires attribute 'k'}}
  %0:2 = "chlo.top_k"(%arg0) : (tensor<8x16xf32>) -> (tensor<8x3xf32>, tensor<8x3xi32>)
  return %0#0 : tensor<8x3xf32>
}
// -----
func.func @case38(%arg0: tensor<8x16xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'chlo.top_k' op attribute 'k' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0:2 = "chlo.top_k"(%arg0) <{k = 3 : i32}> : (tensor<8x16xf32>) -> (tensor<8x3xf32>, tensor<8x3xi32>)
  return %0#0 : tensor<8x3xf32>
}
// -----
func.func @case39(%arg0: tensor<8x16xf32>) -> tensor<8x3xf32> {
  // expected-error @+1 {{'chlo.top_k' op expected 2 results}}
  %0 = "chlo.top_k"(%arg0) <{k = 3 : i64}> : (tensor<8x16xf32>) -> (tensor<8x3xf32>)
  return %0 : tensor<8x3xf32>
}
// -----
func.func @case40(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{invalid properties {broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>} for op chlo.broadcast_add: Invalid attribute `broadcast_dimensions` in property conversion: dense<[0, 1]> : tensor<2xi64>}}
  %0 = "chlo.broadcast_add"(%arg0, %arg0) <{broadcast_dimensions = dense<[0, 1]> : tensor<2xi64>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
// -----
func.func @case41(%arg0: tensor<8x16xf32>) -> tensor<8x16xi1> {
  // expected-error @+1 {{invalid properties {comparison_direction = 3 : i32} for op chlo.broadcast_compare: Invalid attribute `comparison_direction` in property conversion: 3 : i32}}
  %0 = "chlo.broadcast_compare"(%arg0, %arg0) <{comparison_direction = 3 : i32}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
  return %0 : tensor<8x16xi1>
}
// -----
func.func @case42(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'chlo.erf' op requires a single operand}}
  %0 = "chlo.erf"(%arg0, %arg0) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
// -----
func.func @case43(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'chlo.erf' op requires one result}}
  "chlo.erf"(%arg0) : (tensor<8x16xf32>) -> ()
  return %arg0 : tensor<8x16xf32>
}


// Type errors, one per unary op.
// -----
func.func @case101(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.erf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.erf %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case102(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.erfc' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.erfc %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case103(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.erf_inv' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.erf_inv %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case104(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.lgamma' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.lgamma %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case105(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.digamma' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.digamma %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case106(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.bessel_i1e' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = chlo.bessel_i1e %arg0 : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}
// -----
func.func @case107(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.tan' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.tan %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case108(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.sinh' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.sinh %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case109(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.cosh' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.cosh %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case110(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.asin' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.asin %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case111(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.acos' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.acos %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case112(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.atan' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.atan %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case113(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.asinh' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.asinh %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case114(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.acosh' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.acosh %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case115(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.atanh' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<4xi32>'}}
  %0 = chlo.atanh %arg0 : tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
// -----
func.func @case116(%arg0: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.square' op operand #0 must be ranked tensor of integer or floating-point or complex values, but got 'tensor<4xi1>'}}
  %0 = chlo.square %arg0 : tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @case117(%arg0: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.square' op result element type 'f32' must equal the operand element type 'i32'}}
  %0 = chlo.square %arg0 : tensor<4xi32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// -----
func.func @case118(%arg0: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_inf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.is_inf %arg0 : tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @case119(%arg0: tensor<4xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.is_inf' op result shape [3] does not match operand shape [4]}}
  %0 = chlo.is_inf %arg0 : tensor<4xf32> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case120(%arg0: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_neg_inf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.is_neg_inf %arg0 : tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @case121(%arg0: tensor<4xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.is_neg_inf' op result shape [3] does not match operand shape [4]}}
  %0 = chlo.is_neg_inf %arg0 : tensor<4xf32> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case122(%arg0: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_pos_inf' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.is_pos_inf %arg0 : tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}
// -----
func.func @case123(%arg0: tensor<4xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.is_pos_inf' op result shape [3] does not match operand shape [4]}}
  %0 = chlo.is_pos_inf %arg0 : tensor<4xf32> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// broadcast_dimensions / broadcasting errors, one per broadcast op.
// -----
func.func @case124(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case125(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_add' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_add %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case126(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_subtract' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_subtract %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case127(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_subtract' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_subtract %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case128(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case129(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_multiply' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_multiply %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case130(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_divide' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_divide %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case131(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_divide' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_divide %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case132(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_maximum' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_maximum %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case133(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_maximum' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_maximum %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case134(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_minimum' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_minimum %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case135(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_minimum' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_minimum %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case136(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_power' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_power %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case137(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_power' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_power %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case138(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_remainder' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_remainder %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case139(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_remainder' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_remainder %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case140(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_atan2' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_atan2 %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case141(%arg0: tensor<2x3xf32>, %arg1: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.broadcast_atan2' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_atan2 %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
// -----
func.func @case142(%arg0: tensor<2x3xi32>, %arg1: tensor<2xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'chlo.broadcast_and' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_and %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// -----
func.func @case143(%arg0: tensor<2x3xi32>, %arg1: tensor<2xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'chlo.broadcast_and' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_and %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// -----
func.func @case144(%arg0: tensor<2x3xi1>, %arg1: tensor<2xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'chlo.broadcast_or' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_or %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi1>, tensor<2xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
// -----
func.func @case145(%arg0: tensor<2x3xi1>, %arg1: tensor<2xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'chlo.broadcast_or' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_or %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xi1>, tensor<2xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
// -----
func.func @case146(%arg0: tensor<2x3xui8>, %arg1: tensor<2xui8>) -> tensor<2x3xui8> {
  // expected-error @+1 {{'chlo.broadcast_xor' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_xor %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xui8>, tensor<2xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}
// -----
func.func @case147(%arg0: tensor<2x3xui8>, %arg1: tensor<2xui8>) -> tensor<2x3xui8> {
  // expected-error @+1 {{'chlo.broadcast_xor' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_xor %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xui8>, tensor<2xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}
// -----
func.func @case148(%arg0: tensor<2x3xi32>, %arg1: tensor<2xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'chlo.broadcast_shift_left' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_shift_left %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// -----
func.func @case149(%arg0: tensor<2x3xi32>, %arg1: tensor<2xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'chlo.broadcast_shift_left' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_shift_left %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
// -----
func.func @case150(%arg0: tensor<2x3xi64>, %arg1: tensor<2xi64>) -> tensor<2x3xi64> {
  // expected-error @+1 {{'chlo.broadcast_shift_right_arithmetic' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_shift_right_arithmetic %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}
// -----
func.func @case151(%arg0: tensor<2x3xi64>, %arg1: tensor<2xi64>) -> tensor<2x3xi64> {
  // expected-error @+1 {{'chlo.broadcast_shift_right_arithmetic' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_shift_right_arithmetic %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}
// -----
func.func @case152(%arg0: tensor<2x3xi8>, %arg1: tensor<2xi8>) -> tensor<2x3xi8> {
  // expected-error @+1 {{'chlo.broadcast_shift_right_logical' op operands are not broadcast-compatible: rhs dimension 0 (size 2) maps to lhs dimension 1 (size 3) via broadcast_dimensions; sizes must be equal or 1}}
  %0 = chlo.broadcast_shift_right_logical %arg0, %arg1 {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi8>, tensor<2xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}
// -----
func.func @case153(%arg0: tensor<2x3xi8>, %arg1: tensor<2xi8>) -> tensor<2x3xi8> {
  // expected-error @+1 {{'chlo.broadcast_shift_right_logical' op broadcast_dimensions[0] = -1 is out of range for the higher-rank operand (lhs, rank 2)}}
  %0 = chlo.broadcast_shift_right_logical %arg0, %arg1 {broadcast_dimensions = array<i64: -1>} : (tensor<2x3xi8>, tensor<2xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}
// -----
func.func @case154(%arg0: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_subtract' op operand #0 must be ranked tensor of integer or floating-point or complex values, but got 'tensor<3xi1>'}}
  %0 = chlo.broadcast_subtract %arg0, %arg0 : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case155(%arg0: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'chlo.broadcast_atan2' op operand #0 must be ranked tensor of floating-point or complex values, but got 'tensor<3xi32>'}}
  %0 = chlo.broadcast_atan2 %arg0, %arg0 : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
// -----
func.func @case156(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_or' op operand #0 must be ranked tensor of pred (i1) or integer values, but got 'tensor<3xf32>'}}
  %0 = chlo.broadcast_or %arg0, %arg0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case157(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_shift_left' op operand #0 must be ranked tensor of integer values, but got 'tensor<3xf32>'}}
  %0 = chlo.broadcast_shift_left %arg0, %arg0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case158(%arg0: tensor<3xi32>, %arg1: tensor<2x3xi32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op broadcast_dimensions has 2 entries but must have one per dimension of the lower-rank operand (lhs, rank 1)}}
  %0 = chlo.broadcast_compare %arg0, %arg1 {broadcast_dimensions = array<i64: 0, 1>, comparison_direction = #chlo<comparison_direction LT>} : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
// -----
func.func @case159(%arg0: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op compare_type FLOAT does not fit operand element type 'i32' (expected SIGNED or NOTYPE)}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {compare_type = #chlo<comparison_type FLOAT>, comparison_direction = #chlo<comparison_direction LT>} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case160(%arg0: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op compare_type SIGNED does not fit operand element type 'i1' (expected UNSIGNED or NOTYPE)}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {compare_type = #chlo<comparison_type SIGNED>, comparison_direction = #chlo<comparison_direction EQ>} : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case161(%arg0: tensor<3xcomplex<f32>>) -> tensor<3xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op compare_type TOTALORDER does not fit operand element type 'complex<f32>' (expected FLOAT or NOTYPE)}}
  %0 = chlo.broadcast_compare %arg0, %arg0 {compare_type = #chlo<comparison_type TOTALORDER>, comparison_direction = #chlo<comparison_direction EQ>} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}
// -----
func.func @case162(%p: tensor<3xi32>, %arg0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op operand #0 must be ranked tensor of pred (i1) values, but got 'tensor<3xi32>'}}
  %0 = chlo.broadcast_select %p, %arg0, %arg0 : (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
// -----
func.func @case163(%p: tensor<i1>, %arg0: tensor<3xf32>) -> tensor<3xf16> {
  // expected-error @+1 {{'chlo.broadcast_select' op result element type 'f16' must equal the on_true/on_false element type 'f32'}}
  %0 = chlo.broadcast_select %p, %arg0, %arg0 : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
// -----
func.func @case164(%p: tensor<i1>, %arg0: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.broadcast_select' op result dimension 0 has size 4 but the broadcast shape [3] has size 3}}
  %0 = chlo.broadcast_select %p, %arg0, %arg0 : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// More top_k rules (a dynamic last dim still needs k in the result).
// -----
func.func @case165(%arg0: tensor<2x?xf32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'chlo.top_k' op result 'indices' shape [2, 3] must be the operand shape with the last dimension replaced by k: [2, 4]}}
  %values, %indices = chlo.top_k(%arg0, k = 4) : tensor<2x?xf32> -> (tensor<2x4xf32>, tensor<2x3xi32>)
  return %indices : tensor<2x3xi32>
}
// -----
func.func @case166(%arg0: tensor<2x5xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'chlo.top_k' op result 'values' element type 'f16' must equal the operand element type 'f32'}}
  %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<2x5xf32> -> (tensor<2x3xf16>, tensor<2x3xi32>)
  return %values : tensor<2x3xf16>
}
// -----
func.func @case167(%arg0: tensor<2x5xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.top_k' op result 'values' must have rank 2 like the operand, got 1}}
  %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<2x5xf32> -> (tensor<3xf32>, tensor<2x3xi32>)
  return %values : tensor<3xf32>
}
// -----
func.func @case168(%arg0: tensor<2x5xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{expected attribute value}}
  %values, %indices = chlo.top_k(%arg0, k = x) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %values : tensor<2x3xf32>
}
// -----
func.func @case169(%arg0: tensor<2x5xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{custom op 'chlo.top_k' expected 'k'}}
  %values, %indices = chlo.top_k(%arg0, 3) : tensor<2x5xf32> -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %values : tensor<2x3xf32>
}
