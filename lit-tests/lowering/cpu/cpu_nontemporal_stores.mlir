// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},builtin.module(floors-cpu-emit-kernel-abi,func.func(convert-linalg-to-loops),convert-vector-to-scf{full-unroll=true},floors-cpu-nontemporal-stores))' -split-input-file | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},builtin.module(floors-cpu-emit-kernel-abi,func.func(convert-linalg-to-loops),convert-vector-to-scf{full-unroll=true},floors-cpu-nontemporal-stores,inline{default-pipeline=},convert-scf-to-cf,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-vector-to-llvm,convert-to-llvm,reconcile-unrealized-casts))' -split-input-file | FileCheck %s --check-prefix=LLVM

// A 16 MiB output written only by vector transfers: the kernel gets a
// streaming clone @fusion_0_nt whose writes of it are non-temporal stores;
// the entry point calls the clone only when the output is 64-byte aligned
// (assumed there, then an sfence), the plain kernel otherwise.

// CHECK-LABEL: module @floors_kernels
// CHECK:       func.func private @fusion_0(
// CHECK-NOT:     nontemporal
// CHECK:         vector.transfer_write
// CHECK:       func.func @fusion_0_kernel(
// CHECK:         %[[ADDR:.*]] = llvm.ptrtoint %[[P:.*]] : !llvm.ptr to i64
// CHECK:         %[[LOW:.*]] = arith.andi %[[ADDR]], %{{.*}} : i64
// CHECK:         %[[AL:.*]] = arith.cmpi eq, %[[LOW]], %{{.*}} : i64
// CHECK:         cf.cond_br %{{.*}}, ^[[STREAM:.*]], ^[[PLAIN:.*]]
// CHECK:       ^[[STREAM]]:
// CHECK:         llvm.intr.assume %{{.*}} ["align"(%[[P]], %{{.*}} : !llvm.ptr, i64)] : i1
// CHECK:         call @fusion_0_nt(
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK:       ^[[PLAIN]]:
// CHECK:         call @fusion_0(
// CHECK:       func.func private @fusion_0_nt(
// CHECK-NOT:     floors.nontemporal
// CHECK-NOT:     vector.transfer_write
// CHECK:         vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {nontemporal = true} : memref<4096x1024xf32>, vector<16xf32>
// CHECK-NOT:     vector.transfer_write
// CHECK:         return

// LLVM-LABEL: module @floors_kernels
// LLVM:       llvm.func @fusion_0_kernel(
// LLVM:         llvm.intr.assume
// LLVM:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// LLVM:         llvm.call_intrinsic "llvm.x86.sse.sfence"()
// LLVM:         llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<4096x1024xf32>, %o: memref<4096x1024xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %c4096 = arith.constant 4096 : index
      %pad = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c4096 step %c1 {
        scf.for %j = %c0 to %c1024 step %c16 {
          %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true, true]} : memref<4096x1024xf32>, vector<1x16xf32>
          %w = arith.addf %v, %v : vector<1x16xf32>
          vector.transfer_write %w, %o[%i, %j] {in_bounds = [true, true]} : vector<1x16xf32>, memref<4096x1024xf32>
        }
      }
      return
    }
  }
}

// -----

// A small output (16 KiB, below the threshold) keeps plain stores: no clone.

// CHECK-LABEL: module @floors_kernels
// CHECK-NOT:   _nt
// CHECK-NOT:   nontemporal
// CHECK:       vector.transfer_write
// CHECK-NOT:   _nt
// CHECK-NOT:   nontemporal
// LLVM-LABEL: module @floors_kernels
// LLVM-NOT:   nontemporal
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<64x64xf32>, %o: memref<64x64xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %pad = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c64 step %c1 {
        scf.for %j = %c0 to %c64 step %c16 {
          %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<1x16xf32>
          vector.transfer_write %v, %o[%i, %j] {in_bounds = [true, true]} : vector<1x16xf32>, memref<64x64xf32>
        }
      }
      return
    }
  }
}

// -----

// A big output the kernel reads back (an accumulator) must stay in the
// cache: no clone.

// CHECK-LABEL: module @floors_kernels
// CHECK-NOT:   _nt
// CHECK-NOT:   nontemporal
// CHECK:       return
// LLVM-LABEL: module @floors_kernels
// LLVM-NOT:   nontemporal
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<4096x1024xf32>, %o: memref<4096x1024xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %c4096 = arith.constant 4096 : index
      %pad = arith.constant 0.0 : f32
      scf.for %i = %c0 to %c4096 step %c1 {
        scf.for %j = %c0 to %c1024 step %c16 {
          %v = vector.transfer_read %x[%i, %j], %pad {in_bounds = [true, true]} : memref<4096x1024xf32>, vector<1x16xf32>
          %a = vector.transfer_read %o[%i, %j], %pad {in_bounds = [true, true]} : memref<4096x1024xf32>, vector<1x16xf32>
          %w = arith.addf %v, %a : vector<1x16xf32>
          vector.transfer_write %w, %o[%i, %j] {in_bounds = [true, true]} : vector<1x16xf32>, memref<4096x1024xf32>
        }
      }
      return
    }
  }
}
