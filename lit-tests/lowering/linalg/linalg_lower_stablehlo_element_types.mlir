// RUN: %floors-opt %s -split-input-file --pass-pipeline='builtin.module(floors-linalg-lower-stablehlo)' | FileCheck %s

// Unsigned integers compute on their signless storage type with the unsigned
// form of each op; a function the pass lowers whole becomes signless,
// signature included.
// CHECK-LABEL: func.func @unsigned_ops(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi32>, tensor<4xf32>, tensor<4xi64>)
// CHECK: arith.divui %{{.*}} : i32
// CHECK: arith.remui %{{.*}} : i32
// CHECK: arith.cmpi ult, %{{.*}} : i32
// CHECK: arith.maxui %{{.*}} : i32
// CHECK: arith.uitofp %{{.*}} : i32 to f32
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK-NOT: ui32
// CHECK-NOT: stablehlo
func.func @unsigned_ops(%a: tensor<4xui32>, %b: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xi1>, tensor<4xui32>, tensor<4xf32>, tensor<4xui64>) {
  %0 = stablehlo.divide %a, %b : tensor<4xui32>
  %1 = stablehlo.remainder %a, %b : tensor<4xui32>
  %2 = stablehlo.compare LT, %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %3 = stablehlo.maximum %a, %b : tensor<4xui32>
  %4 = stablehlo.convert %a : (tensor<4xui32>) -> tensor<4xf32>
  %5 = stablehlo.convert %a : (tensor<4xui32>) -> tensor<4xui64>
  return %0, %1, %2, %3, %4, %5 : tensor<4xui32>, tensor<4xui32>, tensor<4xi1>, tensor<4xui32>, tensor<4xf32>, tensor<4xui64>
}

// -----

// A lowered producer's result is signless: its consumer still reads the
// stablehlo type (zero extension of ui8, not sign extension), and unsigned
// constants keep their bits as signless constants.
// CHECK-LABEL: func.func @chain
// CHECK: arith.constant dense<-56> : tensor<4xi8>
// CHECK: arith.addi %{{.*}} : i8
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK-NOT: arith.extsi
func.func @chain(%a: tensor<4xui8>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<200> : tensor<4xui8>
  %0 = stablehlo.add %a, %c : tensor<4xui8>
  %1 = stablehlo.convert %0 : (tensor<4xui8>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// float → unsigned saturates (NaN and x <= 0 → 0, >= 2^32 → all ones).
// CHECK-LABEL: func.func @to_unsigned
// CHECK: arith.cmpf ule
// CHECK: arith.cmpf oge
// CHECK: arith.fptoui %{{.*}} : f32 to i32
// CHECK: arith.select
func.func @to_unsigned(%a: tensor<4xf32>) -> tensor<4xui32> {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// In a fused program the host keeps the program's types (the host program
// reads them: a uint32 parameter stays uint32); each fusion body computes on
// signless integers (`as`), and the scf.while that carries ui32 values stays
// ui32.
// CHECK-LABEL: func.func @host(%arg0: tensor<4xui32>, %arg1: tensor<i64>) -> tensor<4xui32>
// CHECK: floors.fusion loop (%{{.*}} = %arg0 : tensor<4xui32> as tensor<4xi32>) -> tensor<4xui32>
// CHECK: arith.shrui %{{.*}} : i32
// CHECK: floors.yield %{{.*}} : tensor<4xi32>
// CHECK: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<4xui32>, tensor<i64>) -> (tensor<4xui32>, tensor<i64>)
// CHECK: floors.fusion loop (%{{.*}} = %{{.*}} : tensor<4xui32> as tensor<4xi32>, %{{.*}} = %{{.*}} : tensor<i64>) -> (tensor<4xui32>, tensor<i64>)
// CHECK: arith.xori %{{.*}} : i32
// CHECK: return %{{.*}} : tensor<4xui32>
func.func @host(%arg0: tensor<4xui32>, %n: tensor<i64>) -> tensor<4xui32> {
  %0 = floors.fusion loop (%x = %arg0 : tensor<4xui32>) -> tensor<4xui32> {
    %c = stablehlo.constant dense<16> : tensor<4xui32>
    %1 = stablehlo.shift_right_logical %x, %c : tensor<4xui32>
    floors.yield %1 : tensor<4xui32>
  }
  %2:2 = stablehlo.while(%v = %0, %i = %n) : tensor<4xui32>, tensor<i64>
  cond {
    %p = floors.fusion loop (%j = %i : tensor<i64>) -> tensor<i1> {
      %z = stablehlo.constant dense<0> : tensor<i64>
      %q = stablehlo.compare GT, %j, %z, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      floors.yield %q : tensor<i1>
    }
    stablehlo.return %p : tensor<i1>
  } do {
    %w, %k = floors.fusion loop (%y = %v : tensor<4xui32>, %j = %i : tensor<i64>) -> (tensor<4xui32>, tensor<i64>) {
      %c = stablehlo.constant dense<2654435769> : tensor<4xui32>
      %m = stablehlo.xor %y, %c : tensor<4xui32>
      %one = stablehlo.constant dense<1> : tensor<i64>
      %d = stablehlo.subtract %j, %one : tensor<i64>
      floors.yield %m, %d : tensor<4xui32>, tensor<i64>
    }
    stablehlo.return %w, %k : tensor<4xui32>, tensor<i64>
  }
  return %2#0 : tensor<4xui32>
}

// -----

// Booleans: add is or, maximum is maxui (or); a compare without type is
// unsigned (false < true).
// CHECK-LABEL: func.func @bools
// CHECK: arith.ori %{{.*}} : i1
// CHECK: arith.maxui %{{.*}} : i1
// CHECK: arith.cmpi ult, %{{.*}} : i1
func.func @bools(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.add %a, %b : tensor<4xi1>
  %1 = stablehlo.maximum %a, %b : tensor<4xi1>
  %2 = stablehlo.compare LT, %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// f16 computes in f32 and rounds back; f64 stays f64.
// CHECK-LABEL: func.func @floats
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: arith.mulf %{{.*}} : f64
func.func @floats(%a: tensor<4xf16>, %b: tensor<4xf64>) -> (tensor<4xf16>, tensor<4xf64>) {
  %0 = stablehlo.multiply %a, %a : tensor<4xf16>
  %1 = stablehlo.multiply %b, %b : tensor<4xf64>
  return %0, %1 : tensor<4xf16>, tensor<4xf64>
}

// -----

// Complex numbers: arithmetic and functions as complex dialect ops, parts
// with complex.re/im/create, EQ/NE as complex.eq/neq, conversions part by
// part (a real value gets imaginary 0, a complex one to a real type keeps
// its real part), and a dot accumulating from a complex zero with
// complex.mul/add.
// CHECK-LABEL: func.func @complex_ops
// CHECK: complex.mul %{{.*}} : complex<f32>
// CHECK: complex.div %{{.*}} : complex<f32>
// CHECK: complex.exp %{{.*}} : complex<f32>
// CHECK: complex.abs %{{.*}} : complex<f32>
// CHECK: complex.re %{{.*}} : complex<f32>
// CHECK: complex.im %{{.*}} : complex<f32>
// CHECK: complex.create %{{.*}}, %{{.*}} : complex<f32>
// CHECK: complex.neq %{{.*}} : complex<f32>
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: complex.create %{{.*}}, %{{.*}} : complex<f64>
// CHECK: complex.constant [0.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK: complex.mul
// CHECK: complex.add
// CHECK-NOT: stablehlo.
func.func @complex_ops(%a: tensor<4xcomplex<f32>>, %b: tensor<4xcomplex<f32>>, %m: tensor<2x4xcomplex<f32>>) -> (tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xi1>, tensor<4xcomplex<f64>>, tensor<2xcomplex<f32>>) {
  %0 = stablehlo.multiply %a, %b : tensor<4xcomplex<f32>>
  %1 = stablehlo.divide %0, %a : tensor<4xcomplex<f32>>
  %2 = stablehlo.exponential %1 : tensor<4xcomplex<f32>>
  %3 = stablehlo.abs %2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %4 = stablehlo.real %2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %5 = stablehlo.imag %2 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %6 = stablehlo.complex %4, %5 : tensor<4xcomplex<f32>>
  %7 = stablehlo.compare NE, %6, %a : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xi1>
  %8 = stablehlo.convert %6 : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f64>>
  %9 = stablehlo.dot_general %m, %a, contracting_dims = [1] x [0] : (tensor<2x4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %2, %3, %4, %5, %6, %7, %8, %9 : tensor<4xcomplex<f32>>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xi1>, tensor<4xcomplex<f64>>, tensor<2xcomplex<f32>>
}
