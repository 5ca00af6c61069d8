// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(floors-hlo-legalize-chlo))' --mlir-print-op-generic | FileCheck %s
// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-hlo-legalize-chlo)' | FileCheck %s --check-prefix=NOCHLO

// floors-hlo-legalize-chlo: one case per chlo op. The output is checked in
// the generic form, which depends only on op and attribute names (not on
// the stablehlo dialect's custom printers). Each case checks the shape of
// the expansion of dialects/chlo/APPROXIMATIONS.md: the key ops and the first
// coefficients. The "Known values" lines are the reference values (f32) for
// the end-to-end tests once a floor can run the output; they come from
// APPROXIMATIONS.md. The second RUN line checks that the module-anchored
// pass leaves no chlo op behind.
// NOCHLO-NOT: chlo.

// square: multiply x x (ints and floats).
// Known values: 3 -> 9; -1.5 -> 2.25; 1e20 -> +inf (f32); NaN -> NaN.
// CHECK-LABEL: sym_name = "square"}>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "stablehlo.multiply"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "stablehlo.multiply"(%arg1, %arg1) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @square(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.square %i : tensor<4xi32> -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

// is_inf: compare EQ |x|, +inf; is_pos_inf / is_neg_inf: compare EQ x, ±inf (FLOAT).
// Known values: is_inf(-inf) = 1, is_inf(NaN) = 0, is_inf(3.4e38) = 0, is_pos_inf(-inf) = 0, is_neg_inf(-inf) = 1.
// CHECK-LABEL: sym_name = "is_inf"}>
// CHECK-NOT: "chlo.
// CHECK: %[[A:.*]] = "stablehlo.abs"(%arg0)
// CHECK: %[[INF:.*]] = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<4xf32>}>
// CHECK: "stablehlo.compare"(%[[A]], %[[INF]]) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}>
// CHECK: %[[PINF:.*]] = "stablehlo.constant"() <{value = dense<0x7F800000>
// CHECK: "stablehlo.compare"(%arg0, %[[PINF]]) {{.*}}comparison_direction EQ
// CHECK: %[[NINF:.*]] = "stablehlo.constant"() <{value = dense<0xFF800000>
// CHECK: "stablehlo.compare"(%arg0, %[[NINF]]) {{.*}}comparison_direction EQ
// CHECK-NOT: "chlo.
func.func @is_inf(%x: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %1 = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  %2 = chlo.is_neg_inf %x : tensor<4xf32> -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// erf (f32): Cephes erff, x*T(x^2) for |x| < 1, else sign(x)*clamp(0, 1 - erfc(|x|), 1).
// Known values: 0.5 -> 0.520499878; -1 -> -0.842700793; 2 -> 0.995322265; 4 -> 0.999999985.
// CHECK-LABEL: sym_name = "erf"}>
// CHECK-NOT: "chlo.
// CHECK: %[[XX:.*]] = "stablehlo.multiply"(%arg0, %arg0)
// CHECK-NEXT: %[[T0:.*]] = "stablehlo.constant"() <{value = dense<7.85386146E-5> : tensor<4xf32>}>
// CHECK-NEXT: "stablehlo.multiply"(%[[T0]], %[[XX]])
// CHECK: dense<1.12837911>
// CHECK: "stablehlo.sign"(%arg0)
// CHECK: "stablehlo.bitcast_convert"
// CHECK: "stablehlo.exponential"
// CHECK: "stablehlo.clamp"
// CHECK: %[[R:.*]] = "stablehlo.select"
// CHECK-NEXT: "func.return"(%[[R]])
func.func @erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// erf (f64): Cephes ndtr.c rationals (erf 1 ulp, erfc 2 ulp in f64).
// CHECK-LABEL: sym_name = "erf_f64"}>
// CHECK-NOT: "chlo.
// CHECK: dense<2.4619698147353052E-10> : tensor<4xf64>
// CHECK: "stablehlo.divide"
// CHECK: dense<9.6049737398705161> : tensor<4xf64>
// CHECK-NOT: "chlo.
func.func @erf_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.erf %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// erfc (f32): Cephes erfcf, e^{-x^2} from a 12-bit split of x (mask 0xFFFFF000 = -4096).
// Known values: 0.5 -> 0.479500122; -1 -> 1.84270079; 3 -> 2.2090497e-5; 9 -> 4.13703175e-37; -inf -> 2.
// CHECK-LABEL: sym_name = "erfc"}>
// CHECK-NOT: "chlo.
// CHECK: %[[AX:.*]] = "stablehlo.abs"(%arg0)
// CHECK-NEXT: %[[MASK:.*]] = "stablehlo.constant"() <{value = dense<-4096> : tensor<4xi32>}>
// CHECK-NEXT: %[[BITS:.*]] = "stablehlo.bitcast_convert"(%[[AX]]) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: %[[HEAD:.*]] = "stablehlo.and"(%[[BITS]], %[[MASK]])
// CHECK-NEXT: "stablehlo.bitcast_convert"(%[[HEAD]]) : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: "stablehlo.exponential"
// CHECK: "stablehlo.exponential"
// CHECK: dense<2.326820e-02>
// CHECK: dense<-10.477664>
// CHECK: dense<88.7228394>
// CHECK: dense<7.85386146E-5>
// CHECK-NOT: "chlo.
func.func @erfc(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erfc %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// erf_inv (f32): Giles (2011), w = -log((1-x)(1+x)).
// Known values: 0.5 -> 0.476936276; -0.9 -> -1.16308715; 1e-7 -> 8.86226925e-8; 1 -> +inf; 1.5 -> NaN.
// CHECK-LABEL: sym_name = "erf_inv"}>
// CHECK-NOT: "chlo.
// CHECK: "stablehlo.log"
// CHECK: "stablehlo.negate"
// CHECK: dense<2.81022636E-8>
// CHECK: "stablehlo.sqrt"
// CHECK: dense<-2.00214257E-4>
// CHECK: dense<0x7F800000>
// CHECK-NOT: "chlo.
func.func @erf_inv(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.erf_inv %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// erf_inv (f64): Giles' guess in f64, then 4 Newton steps using the f64 erf/erfc.
// CHECK-LABEL: sym_name = "erf_inv_f64"}>
// CHECK-NOT: "chlo.
// CHECK: dense<2.81022636E-8> : tensor<4xf64>
// CHECK-COUNT-4: dense<1.1283791670955126> : tensor<4xf64>
// CHECK: "stablehlo.sign"(%arg0)
// CHECK-NOT: "chlo.
func.func @erf_inv_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.erf_inv %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// lgamma: Lanczos g = 7, n = 9, with reflection.
// Known values: 0.5 -> 0.572364943; 3.5 -> 1.2009736; -2.5 -> -0.0562437165; 0 -> +inf; -3 -> +inf.
// CHECK-LABEL: sym_name = "lgamma"}>
// CHECK-NOT: "chlo.
// CHECK: dense<2.01490307>
// CHECK: "stablehlo.log_plus_one"
// CHECK: dense<1.000000e+00>
// CHECK: dense<676.520386>
// CHECK: dense<1.50563267E-7>
// CHECK: dense<0.918938517>
// CHECK: "stablehlo.floor"
// CHECK: "stablehlo.sine"
// CHECK: dense<1.14472985>
// CHECK-NOT: "chlo.
func.func @lgamma(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// digamma: derivative of the Lanczos sum, reflection through tan.
// Known values: 1 -> -0.577215665; 0.5 -> -1.96351003; -2.5 -> 1.10315664; 0 -> NaN.
// CHECK-LABEL: sym_name = "digamma"}>
// CHECK-NOT: "chlo.
// CHECK: dense<676.520386>
// CHECK: dense<7.000000e+00>
// CHECK: "stablehlo.tan"
// CHECK: dense<0x7FC00000>
// CHECK-NOT: "chlo.
func.func @digamma(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.digamma %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// sinh: expm1 for |x| < log(FLT_MAX), (e^{|x|/2}/2)*e^{|x|/2} above.
// Known values: 0.5 -> 0.521095305; -2 -> -3.62686041; 89 -> 2.24480641e38; 90 -> +inf.
// CHECK-LABEL: sym_name = "sinh"}>
// CHECK-NOT: "chlo.
// CHECK: "stablehlo.exponential_minus_one"
// CHECK: "stablehlo.exponential"
// CHECK: "stablehlo.sign"(%arg0)
// CHECK: dense<88.7228394>
// CHECK-NOT: "chlo.
func.func @sinh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.sinh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// cosh (f64): the same tail switch at log(DBL_MAX).
// Known values: 0 -> 1; 0.5 -> 1.12762597; -2 -> 3.76219569; 10 -> 11013.2329.
// CHECK-LABEL: sym_name = "cosh"}>
// CHECK-NOT: "chlo.
// CHECK: "stablehlo.exponential"
// CHECK: dense<709.78271289338397> : tensor<4xf64>
// CHECK-NOT: "chlo.
func.func @cosh(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = chlo.cosh %x : tensor<4xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// tan: stablehlo.tan, 1:1 (complex too).
// Known values: 0.5 -> 0.54630249; -1 -> -1.55740772; 1.5 -> 14.1014199.
// CHECK-LABEL: sym_name = "tan"}>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "stablehlo.tan"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "stablehlo.tan"(%arg1) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
func.func @tan(%x: tensor<4xf32>, %z: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xcomplex<f32>>) {
  %0 = chlo.tan %x : tensor<4xf32> -> tensor<4xf32>
  %1 = chlo.tan %z : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0, %1 : tensor<4xf32>, tensor<4xcomplex<f32>>
}

// -----

// asin = 2*atan2(x, 1 + sqrt((1-x)(1+x))).
// Known values: 0.5 -> 0.523598776; -1 -> -1.57079633; 1e-5 -> 1e-5.
// CHECK-LABEL: sym_name = "asin"}>
// CHECK: %[[S:.*]] = "stablehlo.sqrt"
// CHECK: %[[D:.*]] = "stablehlo.add"(%{{.*}}, %[[S]])
// CHECK: %[[A:.*]] = "stablehlo.atan2"(%arg0, %[[D]])
// CHECK: "stablehlo.multiply"(%{{.*}}, %[[A]])
func.func @asin(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.asin %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// acos = 2*atan2(sqrt((1-x)(1+x)), 1 + x), and pi at x = -1.
// Known values: 0.5 -> 1.04719755; -1 -> 3.14159265; 1 -> 0.
// CHECK-LABEL: sym_name = "acos"}>
// CHECK: %[[S:.*]] = "stablehlo.sqrt"
// CHECK: "stablehlo.atan2"(%[[S]], %{{.*}})
// CHECK: dense<3.14159274>
func.func @acos(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.acos %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// atan = atan2(x, 1).  Known values: 1 -> 0.785398163; -0.5 -> -0.463647609.
// CHECK-LABEL: sym_name = "atan"}>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[ONE:.*]] = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}>
// CHECK-NEXT: "stablehlo.atan2"(%arg0, %[[ONE]])
func.func @atan(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.atan %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// asinh: log1p form, log(|x|) + log 2 above sqrt(FLT_MAX).
// Known values: 0.5 -> 0.481211825; -2 -> -1.44363548; 1e20 -> 46.744849.
// CHECK-LABEL: sym_name = "asinh"}>
// CHECK: "stablehlo.log_plus_one"
// CHECK: dense<0.693147182>
// CHECK: "stablehlo.sign"(%arg0)
// CHECK: dense<1.84467419E+19>
func.func @asinh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.asinh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// acosh: log1p near 1, log(x + s) in the middle, log x + log 2 above sqrt(FLT_MAX), NaN below 1.
// Known values: 1 -> 0; 1.5 -> 0.96242365; 10 -> 2.99322285; 0.5 -> NaN.
// CHECK-LABEL: sym_name = "acosh"}>
// CHECK: "stablehlo.log_plus_one"
// CHECK: "stablehlo.log"
// CHECK: dense<1.84467419E+19>
// CHECK: dense<0x7FC00000>
func.func @acosh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.acosh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// atanh = (log1p(x) - log1p(-x))/2, NaN for |x| > 1.
// Known values: 0.5 -> 0.549306144; -0.9 -> -1.47221949; 1 -> +inf; 2 -> NaN.
// CHECK-LABEL: sym_name = "atanh"}>
// CHECK: %[[P:.*]] = "stablehlo.log_plus_one"(%arg0)
// CHECK: %[[N:.*]] = "stablehlo.negate"(%arg0)
// CHECK: %[[M:.*]] = "stablehlo.log_plus_one"(%[[N]])
// CHECK: "stablehlo.subtract"(%[[P]], %[[M]])
// CHECK: dense<0x7FC00000>
func.func @atanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.atanh %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// next_after (f32): integer steps on the i32 bit pattern.
// Known values (bits): (1, 2) -> 0x3f800001; (1, 0) -> 0x3f7fffff; (0, -1) -> 0x80000001; (NaN, 1) -> NaN.
// CHECK-LABEL: sym_name = "next_after"}>
// CHECK: dense<-2147483648> : tensor<4xi32>
// CHECK: dense<2147483647> : tensor<4xi32>
// CHECK: "stablehlo.bitcast_convert"(%arg0) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: "stablehlo.bitcast_convert"(%arg1) : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: comparison_type UNSIGNED
// CHECK: "stablehlo.bitcast_convert"(%{{.*}}) : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: dense<0x7FC00000>
func.func @next_after(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// next_after (bf16): natively, on i16 bits (not through f32).
// CHECK-LABEL: sym_name = "next_after_bf16"}>
// CHECK-NOT: "stablehlo.convert"
// CHECK: dense<-32768> : tensor<4xi16>
// CHECK: "stablehlo.bitcast_convert"(%arg0) : (tensor<4xbf16>) -> tensor<4xi16>
// CHECK-NOT: "stablehlo.convert"
// CHECK: "func.return"
func.func @next_after_bf16(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = chlo.next_after %x, %y : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

// zeta (Hurwitz): Euler-Maclaurin, 9 direct terms + 6 Bernoulli corrections.
// Known values: (2, 1) -> 1.64493407; (4.5, 0.5) -> 22.8105991; (10, 3) -> 1.80126278e-5; (1, q) -> +inf; (0.5, 1) -> NaN.
// CHECK-LABEL: sym_name = "zeta"}>
// CHECK-NOT: "chlo.
// CHECK: %[[NX:.*]] = "stablehlo.negate"(%arg0)
// CHECK-COUNT-10: "stablehlo.power"(%{{.*}}, %[[NX]])
// CHECK-NOT: "stablehlo.power"
// CHECK: dense<1.200000e+01>
// CHECK: dense<-7.200000e+02>
// CHECK: dense<-1.89243763E+9>
// CHECK-NOT: dense<7.47242496E+10>
// CHECK: "func.return"
func.func @zeta(%x: tensor<4xf32>, %q: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// polygamma: digamma for n = 0, (-1)^(n+1) n! zeta(n+1, x) otherwise, NaN unless n is a non-negative integer.
// Known values: (1, 1) -> 1.64493407; (2, 1) -> -2.40411381; (3, 3.5) -> 0.0703058488; (0.5, 1) -> NaN.
// CHECK-LABEL: sym_name = "polygamma"}>
// CHECK-NOT: "chlo.
// CHECK: "stablehlo.remainder"
// CHECK: "stablehlo.sine"
// CHECK: "stablehlo.power"
// CHECK: "stablehlo.tan"
// CHECK: "func.return"
func.func @polygamma(%n: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.polygamma %n, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// bessel_i1e: Chebyshev series (Clenshaw) fitted for floors, split at |x| = 8.
// Known values: 0.5 -> 0.156420803; -1 -> -0.207910415; 8 -> 0.134142493; 1000 -> 0.0126109303; +inf -> 0.
// CHECK-LABEL: sym_name = "bessel_i1e"}>
// CHECK: dense<-6.4650743E-11>
// CHECK: dense<0.1262936>
// CHECK: dense<1.600000e+01>
// CHECK: dense<3.04906864E-11>
// CHECK: dense<0.389288127>
// CHECK: "stablehlo.sqrt"
// CHECK: "stablehlo.sign"(%arg0)
// CHECK: dense<8.000000e+00>
func.func @bessel_i1e(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.bessel_i1e %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Narrow floats are computed in f32: convert in, expand, convert out.
// CHECK-LABEL: sym_name = "erf_bf16"}>
// CHECK: %[[W:.*]] = "stablehlo.convert"(%arg0) : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK: dense<7.85386146E-5> : tensor<2x3xf32>
// CHECK: %[[N:.*]] = "stablehlo.convert"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xbf16>
// CHECK-NEXT: "func.return"(%[[N]])
func.func @erf_bf16(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = chlo.erf %x : tensor<2x3xbf16> -> tensor<2x3xbf16>
  return %0 : tensor<2x3xbf16>
}

// -----

// constant_like: a splat of the operand's shape; constant: the same value.
// CHECK-LABEL: sym_name = "constants"}>
// CHECK: "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<2x3xf32>}>
// CHECK: "stablehlo.constant"() <{value = dense<[7, 8]> : tensor<2xi32>}>
func.func @constants(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi32>) {
  %0 = "chlo.constant_like"(%x) <{value = 1.5 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.constant dense<[7, 8]> : tensor<2xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2xi32>
}

// -----

// broadcast_*: numpy (right-aligned) broadcasting without broadcast_dimensions.
// CHECK-LABEL: sym_name = "broadcast_numpy"}>
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.add"(%arg0, %[[B]])
func.func @broadcast_numpy(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// With broadcast_dimensions, the lower-rank operand uses them.
// CHECK-LABEL: sym_name = "broadcast_dims"}>
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2xf32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.subtract"(%arg0, %[[B]])
func.func @broadcast_dims(%a: tensor<2x3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_subtract %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Size-1 dimensions on both sides: both operands are broadcast.
// CHECK-LABEL: sym_name = "broadcast_both"}>
// CHECK: %[[A:.*]] = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.multiply"(%[[A]], %[[B]])
func.func @broadcast_both(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = chlo.broadcast_multiply %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// broadcast_compare keeps direction and compare_type (default: SIGNED for signless ints).
// CHECK-LABEL: sym_name = "broadcast_compare"}>
// CHECK: %[[B:.*]] = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<2x3xi32>
// CHECK: "stablehlo.compare"(%arg0, %[[B]]) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}>
// CHECK: %[[D:.*]] = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}>
// CHECK: "stablehlo.compare"(%arg2, %[[D]]) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}>
func.func @broadcast_compare(%a: tensor<2x3xi32>, %b: tensor<i32>, %c: tensor<2x3xf32>, %d: tensor<3xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction GE>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi1>
  %1 = chlo.broadcast_compare %c, %d {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type TOTALORDER>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0, %1 : tensor<2x3xi1>, tensor<2x3xi1>
}

// -----

// broadcast_select broadcasts all three operands; a scalar predicate stays scalar.
// CHECK-LABEL: sym_name = "broadcast_select"}>
// CHECK: %[[P:.*]] = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xi1>) -> tensor<2x3xi1>
// CHECK: %[[F:.*]] = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x3xf32>
// CHECK: "stablehlo.select"(%[[P]], %arg1, %[[F]])
// CHECK: "stablehlo.select"(%arg3, %arg1, %arg1) : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @broadcast_select(%p: tensor<3xi1>, %a: tensor<2x3xf32>, %b: tensor<f32>, %s: tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_select %p, %a, %b : (tensor<3xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_select %s, %a, %a : (tensor<i1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Every other broadcast_* op maps to its stablehlo op (no broadcast when shapes agree).
// CHECK-LABEL: sym_name = "broadcast_all"}>
// CHECK-NOT: "stablehlo.broadcast_in_dim"
// CHECK: "stablehlo.divide"
// CHECK: "stablehlo.maximum"
// CHECK: "stablehlo.minimum"
// CHECK: "stablehlo.power"
// CHECK: "stablehlo.atan2"
// CHECK: "stablehlo.remainder"
// CHECK: "stablehlo.and"
// CHECK: "stablehlo.or"
// CHECK: "stablehlo.xor"
// CHECK: "stablehlo.shift_left"
// CHECK: "stablehlo.shift_right_arithmetic"
// CHECK: "stablehlo.shift_right_logical"
// CHECK-NOT: "chlo.
func.func @broadcast_all(%f: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = chlo.broadcast_divide %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = chlo.broadcast_maximum %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = chlo.broadcast_minimum %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = chlo.broadcast_power %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = chlo.broadcast_atan2 %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = chlo.broadcast_remainder %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = chlo.broadcast_and %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %7 = chlo.broadcast_or %p, %p : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %8 = chlo.broadcast_xor %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %9 = chlo.broadcast_shift_left %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %10 = chlo.broadcast_shift_right_arithmetic %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %11 = chlo.broadcast_shift_right_logical %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
