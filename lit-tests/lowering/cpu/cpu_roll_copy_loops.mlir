// RUN: %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-cpu-roll-copy-loops))' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(func.func(floors-cpu-roll-copy-loops),convert-scf-to-cf)' -split-input-file | FileCheck %s --check-prefix=CF

// A packed matmul's panel copy: a nest of row copies computes nothing, so
// every loop of it stays rolled; convert-scf-to-cf carries the annotation
// to the back edge.

// CHECK:       #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK:       #[[$ROLLED:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: func.func @panel_copy
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             memref.copy
// CHECK:           } {loop_annotation = #[[$ROLLED]]}
// CHECK:         } {loop_annotation = #[[$ROLLED]]}
// CF-LABEL:    func.func @panel_copy
// CF-COUNT-2:    cf.br ^{{.*}} {loop_annotation = #{{.*}}}
func.func @panel_copy(%b: memref<1024x16x32xf32>, %p: memref<16x1024x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  scf.for %j = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c1024 step %c1 {
      %src = memref.subview %b[%k, %j, 0] [1, 1, 32] [1, 1, 1] : memref<1024x16x32xf32> to memref<32xf32, strided<[1], offset: ?>>
      %dst = memref.subview %p[%j, %k, 0] [1, 1, 32] [1, 1, 1] : memref<16x1024x32xf32> to memref<32xf32, strided<[1], offset: ?>>
      memref.copy %src, %dst : memref<32xf32, strided<[1], offset: ?>> to memref<32xf32, strided<[1], offset: ?>>
    }
  }
  return
}

// -----

// A zero fill (scalar stores of a constant, index arithmetic for the
// address) moves data only.

// CHECK-LABEL: func.func @zero_fill
// CHECK:         memref.store
// CHECK:       } {loop_annotation = #{{.*}}}
// CHECK:       } {loop_annotation = #{{.*}}}
func.func @zero_fill(%c: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %jj = arith.muli %j, %c2 : index
      memref.store %zero, %c[%i, %jj] : memref<64x128xf32>
    }
  }
  return
}

// -----

// Loops that compute are LLVM's to unroll, and so is a data-only loop that
// yields a value (a convolution's gather of eight inputs into a vector:
// rolled, its dynamic insert positions would go through memory). Integer
// vector arithmetic (hashing, PRNG bit mixing) computes too.

// CHECK-LABEL: func.func @compute
// CHECK-NOT:     loop_annotation
// CHECK:         return
func.func @compute(%x: memref<8x64xf32>, %y: memref<64xf32>, %h: memref<64xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %acc0 = arith.constant dense<0.0> : vector<8xf32>
  %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %acc0) -> (vector<8xf32>) {
    %g = scf.for %i = %c0 to %c8 step %c1 iter_args(%v = %acc0) -> (vector<8xf32>) {
      %e = memref.load %x[%i, %k] : memref<8x64xf32>
      %w = vector.insert %e, %v [%i] : f32 into vector<8xf32>
      scf.yield %w : vector<8xf32>
    }
    %n = arith.addf %acc, %g : vector<8xf32>
    scf.yield %n : vector<8xf32>
  }
  %m = arith.constant dense<-1640531535> : vector<16xi32>
  scf.for %j = %c0 to %c64 step %c16 {
    %v = vector.load %h[%j] : memref<64xi32>, vector<16xi32>
    %mixed = arith.xori %v, %m : vector<16xi32>
    vector.store %mixed, %h[%j] : memref<64xi32>, vector<16xi32>
  }
  return
}

// -----

// A data-only loop that yields nothing stays rolled inside a computing loop
// too: a matmul's C tile zeroed, one vector row per step, before its K loop
// (unrolled, 512 stores in one block took the post-RA scheduler most of the
// compile). The computing loop around it is LLVM's.

// CHECK-LABEL: func.func @fill_in_tile
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.store
// CHECK:           } {loop_annotation = #{{.*}}}
// CHECK:           vector.fma
// CHECK-NEXT:      vector.store
// CHECK-NEXT:    }{{$}}
// CHECK-NEXT:    return
func.func @fill_in_tile(%c: memref<64x16xf32>, %b: memref<64x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  scf.for %t = %c0 to %c64 step %c8 {
    scf.for %i = %c0 to %c8 step %c1 {
      %r = arith.addi %t, %i : index
      vector.store %zero, %c[%r, %c0] : memref<64x16xf32>, vector<16xf32>
    }
    %x = vector.load %b[%t, %c0] : memref<64x16xf32>, vector<16xf32>
    %y = vector.load %c[%t, %c0] : memref<64x16xf32>, vector<16xf32>
    %z = vector.fma %x, %x, %y : vector<16xf32>
    vector.store %z, %c[%t, %c0] : memref<64x16xf32>, vector<16xf32>
  }
  return
}

// -----

// An annotation already there (floors-cpu-tile-and-vectorize's, or a
// user's) is kept as it is.

// CHECK:       #[[COUNT4:.*]] = #llvm.loop_unroll<count = 4 : i32>
// CHECK:       #[[$UNROLL4:.*]] = #llvm.loop_annotation<unroll = #[[COUNT4]]>
// CHECK-LABEL: func.func @annotated
// CHECK:         } {loop_annotation = #[[$UNROLL4]]}
#unroll4 = #llvm.loop_annotation<unroll = #llvm.loop_unroll<count = 4 : i32>>
func.func @annotated(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %e = memref.load %a[%i] : memref<64xf32>
    memref.store %e, %b[%i] : memref<64xf32>
  } {loop_annotation = #unroll4}
  return
}
