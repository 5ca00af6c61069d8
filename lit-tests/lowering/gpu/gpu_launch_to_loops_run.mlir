// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-gpu-emit-kernels,floors-gpu-launch-to-loops,canonicalize,convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' | %run-main | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90},floors-gpu-emit-kernels)' | FileCheck %s --check-prefix=CODEGEN

// The concatenate and input-slices emitters' launches, run without a GPU:
// floors-gpu-launch-to-loops runs each launch's blocks and threads one
// after another on the host (faithful: their threads do not communicate),
// so the outputs check the launches' index arithmetic. The kernel
// functions are what floors-linalg-lower-stablehlo, bufferization and
// convert-linalg-to-parallel-loops make of (lit-tests/lowering/gpu/
// emit_concatenate.mlir, emit_input_slices.mlir):
//   @concat_minor: concatenate(a, negate(b), c, dim = 1), 4x8 + 4x16 + 4x8
//   @concat_major: concatenate(negate(a), broadcast(b), reverse(c), a, dim = 0), 4x8 + 1x8 + 3x8 + 4x8
//   @slices:       add(x, y)[0:8, 0:4] and [2:6, 4:16:2] of 8x16
//   @vec_add:      a + b + j (4x16 + 16, iota j), 4 points per thread
//   @odd:          -x of 3x5, one point per thread
//   @copies:       a 4x4 copied to columns 4-7 of 4x8 (vector), 2x4 of it to columns 2-5 (scalar)
// Inputs: a = 1 + 100i + j, b = 1000 + 100i + j (1-D: 1000 + j),
// c = 5000 + 100i + j, x = 100i + j, y = 10000 + 100i + j.

// CODEGEN: func.func @concat_minor({{.*}}floors.gpu_codegen = "concatenate(largest operand 4x16, 3 operands)"
// CODEGEN: func.func @concat_major({{.*}}floors.gpu_codegen = "concatenate(largest operand 4x8, 4 operands)"
// CODEGEN: func.func @slices({{.*}}floors.gpu_codegen = "input-slices(2 slices of 8x16)"
// CODEGEN: func.func @vec_add({{.*}}floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4)"
// CODEGEN: func.func @odd({{.*}}floors.gpu_codegen = "loop(grid-stride) [scalar: innermost extent 5 is not a multiple of 4]"
// CODEGEN: func.func @copies({{.*}}floors.gpu_codegen = "loop(grid-stride, 4 per thread, v4); loop(grid-stride) [scalar: memref<2x4xf32, strided<[8, 1], offset: 2>> is not contiguous in aligned runs of 4]"

// concat_minor (4x32): a | -b | c per row.
// CHECK: sizes = [4, 32]
// CHECK-NEXT: {{\[\[}}1,   2,   3,   4,   5,   6,   7,   8,   -1000,   -1001,   -1002,   -1003,   -1004,   -1005,   -1006,   -1007,   -1008,   -1009,   -1010,   -1011,   -1012,   -1013,   -1014,   -1015,   5000,   5001,   5002,   5003,   5004,   5005,   5006,   5007],
// CHECK-NEXT: [101,   102,   103,   104,   105,   106,   107,   108,   -1100,   -1101,   -1102,   -1103,   -1104,   -1105,   -1106,   -1107,   -1108,   -1109,   -1110,   -1111,   -1112,   -1113,   -1114,   -1115,   5100,   5101,   5102,   5103,   5104,   5105,   5106,   5107],
// CHECK-NEXT: [201,
// CHECK-NEXT: [301,   302,   303,   304,   305,   306,   307,   308,   -1300,   -1301,   -1302,   -1303,   -1304,   -1305,   -1306,   -1307,   -1308,   -1309,   -1310,   -1311,   -1312,   -1313,   -1314,   -1315,   5300,   5301,   5302,   5303,   5304,   5305,   5306,   5307]]

// concat_major (12x8): -a (rows 0-3), b (row 4), c reversed (rows 5-7), a (rows 8-11).
// CHECK: sizes = [12, 8]
// CHECK-NEXT: {{\[\[}}-1,   -2,   -3,   -4,   -5,   -6,   -7,   -8],
// CHECK-NEXT: [-101,
// CHECK-NEXT: [-201,
// CHECK-NEXT: [-301,   -302,   -303,   -304,   -305,   -306,   -307,   -308],
// CHECK-NEXT: [1000,   1001,   1002,   1003,   1004,   1005,   1006,   1007],
// CHECK-NEXT: [5200,   5201,   5202,   5203,   5204,   5205,   5206,   5207],
// CHECK-NEXT: [5100,
// CHECK-NEXT: [5000,
// CHECK-NEXT: [1,   2,   3,   4,   5,   6,   7,   8],
// CHECK-NEXT: [101,
// CHECK-NEXT: [201,
// CHECK-NEXT: [301,   302,   303,   304,   305,   306,   307,   308]]

// slices: x + y = 10000 + 200i + 2j; [0:8, 0:4] (8x4), then [2:6, 4:16:2] (4x6).
// CHECK: sizes = [8, 4]
// CHECK-NEXT: {{\[\[}}10000,   10002,   10004,   10006],
// CHECK-NEXT: [10200,   10202,   10204,   10206],
// CHECK-NEXT: [10400,   10402,   10404,   10406],
// CHECK-NEXT: [10600,
// CHECK-NEXT: [10800,
// CHECK-NEXT: [11000,
// CHECK-NEXT: [11200,   11202,   11204,   11206],
// CHECK-NEXT: [11400,   11402,   11404,   11406]]
// CHECK: sizes = [4, 6]
// CHECK-NEXT: {{\[\[}}10408,   10412,   10416,   10420,   10424,   10428],
// CHECK-NEXT: [10608,   10612,   10616,   10620,   10624,   10628],
// CHECK-NEXT: [10808,
// CHECK-NEXT: [11008,   11012,   11016,   11020,   11024,   11028]]

// vec_add: 1 + 100i + j + 1000 + j + j = 1001 + 100i + 3j (a: fill 1, b: fill 1000 as 1x16).
// CHECK: sizes = [4, 16]
// CHECK-NEXT: {{\[\[}}1001,   1004,   1007,   1010,   1013,   1016,   1019,   1022,   1025,   1028,   1031,   1034,   1037,   1040,   1043,   1046],
// CHECK-NEXT: [1101,
// CHECK-NEXT: [1201,
// CHECK-NEXT: [1301,   1304,   1307,   1310,   1313,   1316,   1319,   1322,   1325,   1328,   1331,   1334,   1337,   1340,   1343,   1346]]

// odd: -(100i + j).
// CHECK: sizes = [3, 5]
// CHECK-NEXT: {{\[\[}}-0,   -1,   -2,   -3,   -4],
// CHECK-NEXT: [-100,   -101,   -102,   -103,   -104],
// CHECK-NEXT: [-200,   -201,   -202,   -203,   -204]]

// copies: the output starts as 100i + j; a (1 + 100i + j) goes to
// columns 4-7, then its rows 0-1 columns 0-3 to columns 2-5.
// CHECK: sizes = [4, 8]
// CHECK-NEXT: {{\[\[}}0,   1,   1,   2,   3,   4,   3,   4],
// CHECK-NEXT: [100,   101,   101,   102,   103,   104,   103,   104],
// CHECK-NEXT: [200,   201,   202,   203,   201,   202,   203,   204],
// CHECK-NEXT: [300,   301,   302,   303,   301,   302,   303,   304]]

module {
  func.func @concat_minor(%arg0: memref<4x16xf32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>, %arg3: memref<4x32xf32>) attributes {floors.kernel, floors.kind = #floors.kind<concatenate>, floors.num_inputs = 3 : i64} {
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %subview = memref.subview %arg3[0, 0] [4, 8] [1, 1] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 1]>>
    memref.copy %arg1, %subview : memref<4x8xf32> to memref<4x8xf32, strided<[32, 1]>>
    %subview_0 = memref.subview %arg3[0, 8] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 8>>
    scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%c4, %c16) step (%c1, %c1) {
      %0 = memref.load %arg0[%arg4, %arg5] : memref<4x16xf32>
      %1 = arith.negf %0 : f32
      memref.store %1, %subview_0[%arg4, %arg5] : memref<4x16xf32, strided<[32, 1], offset: 8>>
      scf.reduce
    }
    %subview_1 = memref.subview %arg3[0, 24] [4, 8] [1, 1] : memref<4x32xf32> to memref<4x8xf32, strided<[32, 1], offset: 24>>
    memref.copy %arg2, %subview_1 : memref<4x8xf32> to memref<4x8xf32, strided<[32, 1], offset: 24>>
    return
  }
  func.func @concat_major(%arg0: memref<8xf32>, %arg1: memref<3x8xf32>, %arg2: memref<4x8xf32>, %arg3: memref<12x8xf32>) attributes {floors.kernel, floors.kind = #floors.kind<concatenate>, floors.num_inputs = 3 : i64} {
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<12x8xf32>
    %subview = memref.subview %alloc[0, 0] [4, 8] [1, 1] : memref<12x8xf32> to memref<4x8xf32, strided<[8, 1]>>
    scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %0 = memref.load %arg2[%arg4, %arg5] : memref<4x8xf32>
      %1 = arith.negf %0 : f32
      memref.store %1, %subview[%arg4, %arg5] : memref<4x8xf32, strided<[8, 1]>>
      scf.reduce
    }
    %subview_0 = memref.subview %arg3[0, 0] [4, 8] [1, 1] : memref<12x8xf32> to memref<4x8xf32, strided<[8, 1]>>
    memref.copy %subview, %subview_0 : memref<4x8xf32, strided<[8, 1]>> to memref<4x8xf32, strided<[8, 1]>>
    %subview_1 = memref.subview %arg3[4, 0] [1, 8] [1, 1] : memref<12x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 32>>
    scf.parallel (%arg4) = (%c0) to (%c8) step (%c1) {
      %0 = memref.load %arg0[%arg4] : memref<8xf32>
      memref.store %0, %subview_1[%c0, %arg4] : memref<1x8xf32, strided<[8, 1], offset: 32>>
      scf.reduce
    }
    %subview_2 = memref.subview %arg3[5, 0] [3, 8] [1, 1] : memref<12x8xf32> to memref<3x8xf32, strided<[8, 1], offset: 40>>
    scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%c3, %c8) step (%c1, %c1) {
      %0 = affine.apply affine_map<(d0) -> (-d0 + 2)>(%arg4)
      %1 = memref.load %arg1[%0, %arg5] : memref<3x8xf32>
      memref.store %1, %subview_2[%arg4, %arg5] : memref<3x8xf32, strided<[8, 1], offset: 40>>
      scf.reduce
    }
    %subview_3 = memref.subview %arg3[8, 0] [4, 8] [1, 1] : memref<12x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 64>>
    memref.copy %arg2, %subview_3 : memref<4x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 64>>
    return
  }
  func.func @slices(%arg0: memref<8x16xf32>, %arg1: memref<8x16xf32>, %arg2: memref<8x4xf32>, %arg3: memref<4x6xf32>) attributes {floors.kernel, floors.kind = #floors.kind<input_slices>, floors.num_inputs = 2 : i64} {
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
    scf.parallel (%arg4, %arg5) = (%c0, %c0) to (%c8, %c16) step (%c1, %c1) {
      %0 = memref.load %arg0[%arg4, %arg5] : memref<8x16xf32>
      %1 = memref.load %arg1[%arg4, %arg5] : memref<8x16xf32>
      %2 = arith.addf %0, %1 : f32
      memref.store %2, %alloc[%arg4, %arg5] : memref<8x16xf32>
      scf.reduce
    }
    %subview = memref.subview %alloc[0, 0] [8, 4] [1, 1] : memref<8x16xf32> to memref<8x4xf32, strided<[16, 1]>>
    %subview_0 = memref.subview %alloc[2, 4] [4, 6] [1, 2] : memref<8x16xf32> to memref<4x6xf32, strided<[16, 2], offset: 36>>
    memref.copy %subview, %arg2 : memref<8x4xf32, strided<[16, 1]>> to memref<8x4xf32>
    memref.copy %subview_0, %arg3 : memref<4x6xf32, strided<[16, 2], offset: 36>> to memref<4x6xf32>
    return
  }
  func.func @vec_add(%arg0: memref<4x16xf32>, %arg1: memref<16xf32>, %arg2: memref<4x16xf32>) attributes {floors.kernel, floors.kind = #floors.kind<loop>, floors.num_inputs = 2 : i64} {
    %c16 = arith.constant 16 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%c4, %c16) step (%c1, %c1) {
      %0 = memref.load %arg0[%arg3, %arg4] : memref<4x16xf32>
      %1 = memref.load %arg1[%arg4] : memref<16xf32>
      %2 = arith.addf %0, %1 : f32
      %3 = arith.index_cast %arg4 : index to i64
      %4 = arith.sitofp %3 : i64 to f32
      %5 = arith.addf %2, %4 : f32
      memref.store %5, %arg2[%arg3, %arg4] : memref<4x16xf32>
      scf.reduce
    }
    return
  }
  func.func @odd(%arg0: memref<3x5xf32>, %arg1: memref<3x5xf32>) attributes {floors.kernel, floors.kind = #floors.kind<loop>, floors.num_inputs = 1 : i64} {
    %c5 = arith.constant 5 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    scf.parallel (%arg2, %arg3) = (%c0, %c0) to (%c3, %c5) step (%c1, %c1) {
      %0 = memref.load %arg0[%arg2, %arg3] : memref<3x5xf32>
      %1 = arith.negf %0 : f32
      memref.store %1, %arg1[%arg2, %arg3] : memref<3x5xf32>
      scf.reduce
    }
    return
  }
  func.func @copies(%arg0: memref<4x4xf32>, %arg1: memref<4x8xf32>) attributes {floors.kernel, floors.kind = #floors.kind<loop>, floors.num_inputs = 1 : i64} {
    %subview = memref.subview %arg1[0, 4] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
    memref.copy %arg0, %subview : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
    %src = memref.subview %arg0[0, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1]>>
    %dst = memref.subview %arg1[0, 2] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 2>>
    memref.copy %src, %dst : memref<2x4xf32, strided<[4, 1]>> to memref<2x4xf32, strided<[8, 1], offset: 2>>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // m[i][j] = base + 100i + j
  func.func @fill(%m: memref<?x?xf32>, %base: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %rows = memref.dim %m, %c0 : memref<?x?xf32>
    %cols = memref.dim %m, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %r = arith.muli %i, %c100 : index
        %k = arith.addi %r, %j : index
        %k64 = arith.index_cast %k : index to i64
        %f = arith.sitofp %k64 : i64 to f32
        %v = arith.addf %f, %base : f32
        memref.store %v, %m[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }

  func.func @main() {
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32
    %f1000 = arith.constant 1000.0 : f32
    %f5000 = arith.constant 5000.0 : f32
    %f10000 = arith.constant 10000.0 : f32
    %a = memref.alloc() : memref<4x8xf32>
    %b = memref.alloc() : memref<4x16xf32>
    %c = memref.alloc() : memref<4x8xf32>
    %ad = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
    %bd = memref.cast %b : memref<4x16xf32> to memref<?x?xf32>
    %cd = memref.cast %c : memref<4x8xf32> to memref<?x?xf32>
    call @fill(%ad, %f1) : (memref<?x?xf32>, f32) -> ()
    call @fill(%bd, %f1000) : (memref<?x?xf32>, f32) -> ()
    call @fill(%cd, %f5000) : (memref<?x?xf32>, f32) -> ()
    %o1 = memref.alloc() : memref<4x32xf32>
    call @concat_minor(%b, %a, %c, %o1) : (memref<4x16xf32>, memref<4x8xf32>, memref<4x8xf32>, memref<4x32xf32>) -> ()
    %p1 = memref.cast %o1 : memref<4x32xf32> to memref<*xf32>
    call @printMemrefF32(%p1) : (memref<*xf32>) -> ()

    %b1 = memref.alloc() : memref<1x8xf32>
    %b1d = memref.cast %b1 : memref<1x8xf32> to memref<?x?xf32>
    call @fill(%b1d, %f1000) : (memref<?x?xf32>, f32) -> ()
    %bv = memref.collapse_shape %b1 [[0, 1]] : memref<1x8xf32> into memref<8xf32>
    %c3 = memref.alloc() : memref<3x8xf32>
    %c3d = memref.cast %c3 : memref<3x8xf32> to memref<?x?xf32>
    call @fill(%c3d, %f5000) : (memref<?x?xf32>, f32) -> ()
    %o2 = memref.alloc() : memref<12x8xf32>
    call @concat_major(%bv, %c3, %a, %o2) : (memref<8xf32>, memref<3x8xf32>, memref<4x8xf32>, memref<12x8xf32>) -> ()
    %p2 = memref.cast %o2 : memref<12x8xf32> to memref<*xf32>
    call @printMemrefF32(%p2) : (memref<*xf32>) -> ()

    %x = memref.alloc() : memref<8x16xf32>
    %y = memref.alloc() : memref<8x16xf32>
    %xd = memref.cast %x : memref<8x16xf32> to memref<?x?xf32>
    %yd = memref.cast %y : memref<8x16xf32> to memref<?x?xf32>
    call @fill(%xd, %f0) : (memref<?x?xf32>, f32) -> ()
    call @fill(%yd, %f10000) : (memref<?x?xf32>, f32) -> ()
    %s0 = memref.alloc() : memref<8x4xf32>
    %s1 = memref.alloc() : memref<4x6xf32>
    call @slices(%x, %y, %s0, %s1) : (memref<8x16xf32>, memref<8x16xf32>, memref<8x4xf32>, memref<4x6xf32>) -> ()
    %q0 = memref.cast %s0 : memref<8x4xf32> to memref<*xf32>
    %q1 = memref.cast %s1 : memref<4x6xf32> to memref<*xf32>
    call @printMemrefF32(%q0) : (memref<*xf32>) -> ()
    call @printMemrefF32(%q1) : (memref<*xf32>) -> ()

    // 64-byte aligned, as the runtime's buffers.
    %va = memref.alloc() {alignment = 64} : memref<4x16xf32>
    %vb = memref.alloc() {alignment = 64} : memref<1x16xf32>
    %vad = memref.cast %va : memref<4x16xf32> to memref<?x?xf32>
    %vbd = memref.cast %vb : memref<1x16xf32> to memref<?x?xf32>
    call @fill(%vad, %f1) : (memref<?x?xf32>, f32) -> ()
    call @fill(%vbd, %f1000) : (memref<?x?xf32>, f32) -> ()
    %vb1 = memref.collapse_shape %vb [[0, 1]] : memref<1x16xf32> into memref<16xf32>
    %vo = memref.alloc() {alignment = 64} : memref<4x16xf32>
    call @vec_add(%va, %vb1, %vo) : (memref<4x16xf32>, memref<16xf32>, memref<4x16xf32>) -> ()
    %r1 = memref.cast %vo : memref<4x16xf32> to memref<*xf32>
    call @printMemrefF32(%r1) : (memref<*xf32>) -> ()

    %ox = memref.alloc() {alignment = 64} : memref<3x5xf32>
    %oxd = memref.cast %ox : memref<3x5xf32> to memref<?x?xf32>
    call @fill(%oxd, %f0) : (memref<?x?xf32>, f32) -> ()
    %oo = memref.alloc() {alignment = 64} : memref<3x5xf32>
    call @odd(%ox, %oo) : (memref<3x5xf32>, memref<3x5xf32>) -> ()
    %r2 = memref.cast %oo : memref<3x5xf32> to memref<*xf32>
    call @printMemrefF32(%r2) : (memref<*xf32>) -> ()

    %ca = memref.alloc() {alignment = 64} : memref<4x4xf32>
    %cad = memref.cast %ca : memref<4x4xf32> to memref<?x?xf32>
    call @fill(%cad, %f1) : (memref<?x?xf32>, f32) -> ()
    %co = memref.alloc() {alignment = 64} : memref<4x8xf32>
    %cod = memref.cast %co : memref<4x8xf32> to memref<?x?xf32>
    call @fill(%cod, %f0) : (memref<?x?xf32>, f32) -> ()
    call @copies(%ca, %co) : (memref<4x4xf32>, memref<4x8xf32>) -> ()
    %r3 = memref.cast %co : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%r3) : (memref<*xf32>) -> ()
    return
  }
}
