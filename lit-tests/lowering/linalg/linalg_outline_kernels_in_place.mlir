// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-linalg-outline-kernels)' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},floors-linalg-outline-kernels,builtin.module(floors-cpu-kernels-to-llvm))' -split-input-file | FileCheck %s --check-prefix=LLVM

// A dynamic_update_slice of a loop's carried buffer that nothing reads
// afterwards is computed in place (XLA's in-place DUS fusion): the fusion
// gets floors.in_place = [result, operand], the kernel reads the operand
// through its output (bufferization.to_tensor restrict writable), and after
// bufferization it writes only the updated row — no copy of the whole
// buffer, so a scan stacking its outputs is O(n), not O(n²).

// CHECK-LABEL: module @scan
// CHECK: scf.while
// CHECK: floors.fusion loop (%{{.*}} = %{{.*}} : tensor<16x64xf32>, %{{.*}} = %{{.*}} : tensor<1x64xf32>, %{{.*}} = %{{.*}} : tensor<index>) -> tensor<16x64xf32> attributes {floors.in_place = array<i64: 0, 0>, floors.kernel = "fusion_0"}
// CHECK: func.func @fusion_0(%{{.*}}: tensor<16x64xf32> {bufferization.writable = false}, %[[U:.*]]: tensor<1x64xf32> {bufferization.writable = false}, %[[I:.*]]: tensor<index> {bufferization.writable = false}, %[[OUT:.*]]: memref<16x64xf32>)
// CHECK-NEXT: %[[VIEW:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<16x64xf32> to tensor<16x64xf32>
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[U]] into %[[VIEW]]
// CHECK: bufferization.materialize_in_destination %[[NEW]] in restrict writable %[[OUT]]

// LLVM-LABEL: module @scan
// LLVM: llvm.func @fusion_0_kernel
// LLVM: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// LLVM-NOT: "llvm.intr.memcpy"
// LLVM: llvm.return
module @scan {
  func.func @main(%init: tensor<16x64xf32>, %row: tensor<1x64xf32>) -> tensor<16x64xf32> {
    %c0 = arith.constant dense<0> : tensor<index>
    %w:2 = scf.while (%i = %c0, %acc = %init) : (tensor<index>, tensor<16x64xf32>) -> (tensor<index>, tensor<16x64xf32>) {
      %iv = tensor.extract %i[] : tensor<index>
      %c16 = arith.constant 16 : index
      %lt = arith.cmpi slt, %iv, %c16 : index
      scf.condition(%lt) %i, %acc : tensor<index>, tensor<16x64xf32>
    } do {
    ^bb0(%i: tensor<index>, %acc: tensor<16x64xf32>):
      %new = floors.fusion loop (%a = %acc : tensor<16x64xf32>, %u = %row : tensor<1x64xf32>, %ii = %i : tensor<index>) -> tensor<16x64xf32> {
        %k = tensor.extract %ii[] : tensor<index>
        %r = tensor.insert_slice %u into %a[%k, 0] [1, 64] [1, 1] : tensor<1x64xf32> into tensor<16x64xf32>
        floors.yield %r : tensor<16x64xf32>
      }
      %n = floors.fusion loop (%ii = %i : tensor<index>) -> tensor<index> {
        %e = tensor.empty() : tensor<index>
        %one = arith.constant 1 : index
        %r = linalg.map ins(%ii : tensor<index>) outs(%e : tensor<index>) (%in: index, %out: index) {
          %s = arith.addi %in, %one : index
          linalg.yield %s : index
        }
        floors.yield %r : tensor<index>
      }
      scf.yield %n, %new : tensor<index>, tensor<16x64xf32>
    }
    return %w#1 : tensor<16x64xf32>
  }
}

// -----

// Not in place: the buffer is a parameter (the caller's), or it is read
// after the update (the second fusion reads %acc), or the update happens
// inside a loop while the buffer is defined outside it (the next iteration
// reads it again).
// CHECK-LABEL: module @kept
// CHECK-NOT: floors.in_place
// CHECK: module @floors_kernels
// CHECK-NOT: bufferization.to_tensor
module @kept {
  func.func @main(%p: tensor<4xf32>, %u: tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %a = floors.fusion loop (%x = %p : tensor<4xf32>, %y = %u : tensor<1xf32>) -> tensor<4xf32> {
      %r = tensor.insert_slice %y into %x[0] [1] [1] : tensor<1xf32> into tensor<4xf32>
      floors.yield %r : tensor<4xf32>
    }
    %b = floors.fusion loop (%x = %a : tensor<4xf32>, %y = %u : tensor<1xf32>) -> tensor<4xf32> {
      %r = tensor.insert_slice %y into %x[1] [1] [1] : tensor<1xf32> into tensor<4xf32>
      floors.yield %r : tensor<4xf32>
    }
    %c = floors.fusion loop (%x = %a : tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %s = linalg.map { arith.addf } ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
      floors.yield %s : tensor<4xf32>
    }
    %c0 = arith.constant dense<0> : tensor<index>
    %w:2 = scf.while (%i = %c0, %z = %c) : (tensor<index>, tensor<4xf32>) -> (tensor<index>, tensor<4xf32>) {
      %iv = tensor.extract %i[] : tensor<index>
      %c4 = arith.constant 4 : index
      %lt = arith.cmpi slt, %iv, %c4 : index
      scf.condition(%lt) %i, %z : tensor<index>, tensor<4xf32>
    } do {
    ^bb0(%i: tensor<index>, %z: tensor<4xf32>):
      %d = floors.fusion loop (%x = %c : tensor<4xf32>, %y = %u : tensor<1xf32>) -> tensor<4xf32> {
        %r = tensor.insert_slice %y into %x[2] [1] [1] : tensor<1xf32> into tensor<4xf32>
        floors.yield %r : tensor<4xf32>
      }
      scf.yield %i, %d : tensor<index>, tensor<4xf32>
    }
    return %b, %w#1, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// A loop's elementwise update of its carried state reuses the state's
// buffer as its destination (no copy back into the carried buffer): the
// generic's empty init becomes the operand, read through the output. A
// transposing read of the state is not in place (writing element i could
// clobber an element read later), nor is a read inside a reduction.
// CHECK-LABEL: module @elementwise
// CHECK: floors.fusion loop (%{{.*}} = %{{.*}} : tensor<8x8xf32>) -> tensor<8x8xf32> attributes {floors.in_place = array<i64: 0, 0>, floors.kernel = "fusion_0"}
// CHECK: floors.fusion loop (%{{.*}} = %{{.*}} : tensor<8x8xf32>) -> tensor<8x8xf32> attributes {floors.kernel = "fusion_1"}
// CHECK: func.func @fusion_0(%{{.*}}: tensor<8x8xf32> {bufferization.writable = false}, %[[OUT:.*]]: memref<8x8xf32>)
// CHECK-NEXT: %[[VIEW:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: linalg.generic {{.*}} ins(%[[VIEW]] : tensor<8x8xf32>) outs(%[[VIEW]] : tensor<8x8xf32>)
// CHECK: func.func @fusion_1(
// CHECK-NOT: bufferization.to_tensor
// CHECK: return
module @elementwise {
  func.func @main(%init: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %c0 = arith.constant dense<0> : tensor<index>
    %w:2 = scf.while (%i = %c0, %acc = %init) : (tensor<index>, tensor<8x8xf32>) -> (tensor<index>, tensor<8x8xf32>) {
      %iv = tensor.extract %i[] : tensor<index>
      %c4 = arith.constant 4 : index
      %lt = arith.cmpi slt, %iv, %c4 : index
      scf.condition(%lt) %i, %acc : tensor<index>, tensor<8x8xf32>
    } do {
    ^bb0(%i: tensor<index>, %acc: tensor<8x8xf32>):
      %a = floors.fusion loop (%x = %acc : tensor<8x8xf32>) -> tensor<8x8xf32> {
        %e = tensor.empty() : tensor<8x8xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
        ^bb0(%in: f32, %out: f32):
          %two = arith.constant 2.0 : f32
          %m = arith.mulf %in, %two : f32
          linalg.yield %m : f32
        } -> tensor<8x8xf32>
        floors.yield %r : tensor<8x8xf32>
      }
      %t = floors.fusion loop (%x = %a : tensor<8x8xf32>) -> tensor<8x8xf32> {
        %e = tensor.empty() : tensor<8x8xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
        ^bb0(%in: f32, %out: f32):
          linalg.yield %in : f32
        } -> tensor<8x8xf32>
        floors.yield %r : tensor<8x8xf32>
      }
      %n = floors.fusion loop (%ii = %i : tensor<index>) -> tensor<index> {
        %e = tensor.empty() : tensor<index>
        %one = arith.constant 1 : index
        %r = linalg.map ins(%ii : tensor<index>) outs(%e : tensor<index>) (%in: index, %out: index) {
          %s = arith.addi %in, %one : index
          linalg.yield %s : index
        }
        floors.yield %r : tensor<index>
      }
      scf.yield %n, %t : tensor<index>, tensor<8x8xf32>
    }
    return %w#1 : tensor<8x8xf32>
  }
}

// -----

// Not in place: the state is read by an elementwise op whose value reaches an
// op after the written one (elementwise fusion would recompute that read
// after the write), nor when the written value has another user.
// CHECK-LABEL: module @escaping
// CHECK-NOT: floors.in_place
// CHECK: module @floors_kernels
module @escaping {
  func.func @main(%p: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %s = floors.fusion loop (%x = %p : tensor<4xf32>) -> tensor<4xf32> {
      %e = tensor.empty() : tensor<4xf32>
      %r = linalg.map { arith.addf } ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
      floors.yield %r : tensor<4xf32>
    }
    %o:2 = floors.fusion loop (%x = %s : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %e0 = tensor.empty() : tensor<4xf32>
      %a = linalg.map { arith.mulf } ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e0 : tensor<4xf32>)
      %e1 = tensor.empty() : tensor<4xf32>
      %b = linalg.map { arith.addf } ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>)
      %e2 = tensor.empty() : tensor<4xf32>
      %c = linalg.map { arith.subf } ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>)
      floors.yield %b, %c : tensor<4xf32>, tensor<4xf32>
    }
    return %o#0, %o#1 : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// A loop-state update that only the yield reads (a counter's `i + 1`) is
// moved after the body's other reads of the state, to just before the yield
// (XLA's scheduler does the same), and is then computed in place: the
// update of `acc`, which reads `i`, now runs first (fusion_0), the counter
// last (fusion_1, its empty init replaced by its operand).
// CHECK-LABEL: module @sink
// CHECK: } do {
// CHECK: floors.fusion loop (%{{.*}} = %{{.*}} : tensor<4xf32>, %{{.*}} = %[[I:.*]] : tensor<f32>) -> tensor<4xf32> attributes {floors.in_place = array<i64: 0, 0>, floors.kernel = "fusion_0"}
// CHECK: floors.fusion loop (%[[X:.*]] = %[[I]] : tensor<f32>) -> tensor<f32> attributes {floors.in_place = array<i64: 0, 0>, floors.kernel = "fusion_1"}
// CHECK: linalg.map { arith.addf } ins(%[[X]], %[[X]] : tensor<f32>, tensor<f32>) outs(%[[X]] : tensor<f32>)
// CHECK: scf.yield
module @sink {
  func.func @main(%init: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant dense<0.0> : tensor<f32>
    %w:2 = scf.while (%i = %c0, %acc = %init) : (tensor<f32>, tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
      %iv = tensor.extract %i[] : tensor<f32>
      %c4 = arith.constant 4.0 : f32
      %lt = arith.cmpf olt, %iv, %c4 : f32
      scf.condition(%lt) %i, %acc : tensor<f32>, tensor<4xf32>
    } do {
    ^bb0(%i: tensor<f32>, %acc: tensor<4xf32>):
      %next = floors.fusion loop (%x = %i : tensor<f32>) -> tensor<f32> {
        %e = tensor.empty() : tensor<f32>
        %s = linalg.map { arith.addf } ins(%x, %x : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>)
        floors.yield %s : tensor<f32>
      }
      %a = floors.fusion loop (%x = %acc : tensor<4xf32>, %y = %i : tensor<f32>) -> tensor<4xf32> {
        %e = tensor.empty() : tensor<4xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<f32>) outs(%e : tensor<4xf32>) {
        ^bb0(%p: f32, %q: f32, %o: f32):
          %m = arith.addf %p, %q : f32
          linalg.yield %m : f32
        } -> tensor<4xf32>
        floors.yield %r : tensor<4xf32>
      }
      scf.yield %next, %a : tensor<f32>, tensor<4xf32>
    }
    return %w#1 : tensor<4xf32>
  }
}
