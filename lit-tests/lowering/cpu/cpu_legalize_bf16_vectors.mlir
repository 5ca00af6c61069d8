// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-legalize-bf16-vectors)' -split-input-file | FileCheck %s

// Odd-length bf16 vectors that are only moved become i16 vectors (LLVM's
// x86 backend aborts on moving <25 x bfloat> when the target has AVX-512
// BF16): loads, stores, selects, arrays of them, loop-carried values.
// CHECK-LABEL: llvm.func @moves
// CHECK:       %[[L:.*]] = llvm.load %arg0 {alignment = 2 : i64} : !llvm.ptr -> vector<25xi16>
// CHECK:       %[[S:.*]] = llvm.select %arg2, %[[L]], %[[L]] : vector<25xi1>, vector<25xi16>
// CHECK:       %[[A:.*]] = llvm.insertvalue %[[S]], %{{.*}}[0] : !llvm.array<1 x vector<25xi16>>
// CHECK:       %[[E:.*]] = llvm.extractvalue %[[A]][0] : !llvm.array<1 x vector<25xi16>>
// CHECK:       llvm.br ^bb1(%[[E]] : vector<25xi16>)
// CHECK:       ^bb1(%[[X:.*]]: vector<25xi16>):
// CHECK:       llvm.store %[[X]], %arg1 {alignment = 2 : i64} : vector<25xi16>, !llvm.ptr
llvm.func @moves(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: vector<25xi1>) {
  %0 = llvm.load %arg0 {alignment = 2 : i64} : !llvm.ptr -> vector<25xbf16>
  %1 = llvm.select %arg2, %0, %0 : vector<25xi1>, vector<25xbf16>
  %2 = llvm.mlir.poison : !llvm.array<1 x vector<25xbf16>>
  %3 = llvm.insertvalue %1, %2[0] : !llvm.array<1 x vector<25xbf16>>
  %4 = llvm.extractvalue %3[0] : !llvm.array<1 x vector<25xbf16>>
  llvm.br ^bb1(%4 : vector<25xbf16>)
^bb1(%5: vector<25xbf16>):
  llvm.store %5, %arg1 {alignment = 2 : i64} : vector<25xbf16>, !llvm.ptr
  llvm.return
}

// -----

// Elements go in and out as bf16 scalars (bitcast at the boundary), an
// op that computes on bf16 keeps it through bitcasts, a constant keeps its
// bits, and power-of-two lengths are left alone.
// CHECK-LABEL: llvm.func @boundaries
// CHECK:       %[[C:.*]] = llvm.mlir.constant(dense<16256> : vector<7xi16>) : vector<7xi16>
// CHECK:       %[[XB:.*]] = llvm.bitcast %arg1 : bf16 to i16
// CHECK:       %[[I:.*]] = llvm.insertelement %[[XB]], %[[C]][%{{.*}} : i32] : vector<7xi16>
// CHECK:       %[[EL:.*]] = llvm.extractelement %[[I]][%{{.*}} : i32] : vector<7xi16>
// CHECK:       %[[EB:.*]] = llvm.bitcast %[[EL]] : i16 to bf16
// CHECK:       %[[IB:.*]] = llvm.bitcast %[[I]] : vector<7xi16> to vector<7xbf16>
// CHECK:       %[[F:.*]] = llvm.fpext %[[IB]] : vector<7xbf16> to vector<7xf32>
// CHECK:       llvm.load %arg0 : !llvm.ptr -> vector<16xbf16>
// CHECK:       llvm.return %[[EB]] : bf16
llvm.func @boundaries(%arg0: !llvm.ptr, %arg1: bf16) -> bf16 {
  %c = llvm.mlir.constant(dense<1.000000e+00> : vector<7xbf16>) : vector<7xbf16>
  %i3 = llvm.mlir.constant(3 : i32) : i32
  %0 = llvm.insertelement %arg1, %c[%i3 : i32] : vector<7xbf16>
  %1 = llvm.extractelement %0[%i3 : i32] : vector<7xbf16>
  %2 = llvm.fpext %0 : vector<7xbf16> to vector<7xf32>
  llvm.store %2, %arg0 : vector<7xf32>, !llvm.ptr
  %3 = llvm.load %arg0 : !llvm.ptr -> vector<16xbf16>
  llvm.store %3, %arg0 : vector<16xbf16>, !llvm.ptr
  llvm.return %1 : bf16
}

// -----

// A constant array of odd-length bf16 vectors (an n-D vector constant
// lowered): its dense attribute rebuilt with i16 elements, same bits.
// CHECK-LABEL: llvm.func @array_constant
// CHECK:       llvm.mlir.constant(dense<{{\[\[}}16256, 0, 16256, 0, 16256, 0, 16256], [0, 16256, 0, 16256, 0, 16256, 0]]> : vector<2x7xi16>) : !llvm.array<2 x vector<7xi16>>
// CHECK:       llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<7xi16>>
llvm.func @array_constant(%arg0: !llvm.ptr) {
  %c = llvm.mlir.constant(dense<[[1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]]> : vector<2x7xbf16>) : !llvm.array<2 x vector<7xbf16>>
  %0 = llvm.extractvalue %c[1] : !llvm.array<2 x vector<7xbf16>>
  llvm.store %0, %arg0 : vector<7xbf16>, !llvm.ptr
  llvm.return
}

// -----

// A shuffle between an odd length and 2^k lanes (an interleave of two
// 5-lane rows cut into pairs): the 2^k side goes through i16 too, and its
// users see bf16 again.
// CHECK-LABEL: llvm.func @shuffle_to_pairs
// CHECK:       %[[W:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 5, 1, 6, 2, 7, 3, 8, 4, 9] : vector<5xi16>
// CHECK:       %[[P:.*]] = llvm.shufflevector %[[W]], %[[W]] [0, 1] : vector<10xi16>
// CHECK:       %[[B:.*]] = llvm.bitcast %[[P]] : vector<2xi16> to vector<2xbf16>
// CHECK:       llvm.insertvalue %[[B]], %{{.*}}[0] : !llvm.array<5 x vector<2xbf16>>
// CHECK:       llvm.bitcast %arg1 : vector<2xbf16> to vector<2xi16>
// CHECK:       llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 0, 1, 0] : vector<2xi16>
llvm.func @shuffle_to_pairs(%arg0: !llvm.ptr, %arg1: vector<2xbf16>) -> !llvm.array<5 x vector<2xbf16>> {
  %a = llvm.load %arg0 : !llvm.ptr -> vector<5xbf16>
  %w = llvm.shufflevector %a, %a [0, 5, 1, 6, 2, 7, 3, 8, 4, 9] : vector<5xbf16>
  %p = llvm.shufflevector %w, %w [0, 1] : vector<10xbf16>
  %arr = llvm.mlir.poison : !llvm.array<5 x vector<2xbf16>>
  %r = llvm.insertvalue %p, %arr[0] : !llvm.array<5 x vector<2xbf16>>
  %x = llvm.shufflevector %arg1, %arg1 [0, 1, 0, 1, 0] : vector<2xbf16>
  llvm.store %x, %arg0 : vector<5xbf16>, !llvm.ptr
  llvm.return %r : !llvm.array<5 x vector<2xbf16>>
}
