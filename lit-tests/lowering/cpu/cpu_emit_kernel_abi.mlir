// RUN: %floors-opt %s --pass-pipeline='builtin.module(builtin.module(floors-cpu-emit-kernel-abi))' -split-input-file -verify-diagnostics | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(builtin.module(floors-cpu-emit-kernel-abi,convert-scf-to-cf,finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts))' -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=LLVM

// The ABI entry point of a bufferized kernel: checks the argument count, the
// grid (1x1x1 for a kernel without floors.grid), the workgroup id and each argument's
// byte size and pointer, each failure returning a static KernelError; then
// memref descriptors (allocated = aligned = ptr, offset 0, static
// sizes/strides) and the call; NULL on success.

// CHECK-LABEL: module @floors_kernels
// CHECK:       func.func private @fusion_0(%{{.*}}: memref<2x3xf32>, %{{.*}}: memref<f32>, %{{.*}}: memref<2x3xi1>)
// CHECK:       llvm.mlir.global private constant @fusion_0_error_0_msg("fusion_0: expected 3 arguments (2 inputs, then 1 outputs)\00")
// CHECK:       llvm.mlir.global private constant @fusion_0_error_0() {{.*}} : !llvm.struct<(ptr)>
// CHECK:       @fusion_0_error_1_msg("fusion_0: the grid must be 1x1x1 (the kernel was compiled for 1 workgroup(s))\00")
// CHECK:       @fusion_0_error_2_msg("fusion_0: the workgroup id must be below the grid size 1\00")
// CHECK:       @fusion_0_error_3_msg("fusion_0: argument 0 (input 0, memref<2x3xf32>) must be 24 bytes\00")
// CHECK:       @fusion_0_error_4_msg("fusion_0: argument 0 (input 0, memref<2x3xf32>) is NULL\00")
// CHECK:       @fusion_0_error_5_msg("fusion_0: argument 1 (input 1, memref<f32>) must be 4 bytes\00")
// CHECK:       @fusion_0_error_7_msg("fusion_0: argument 2 (output 0, memref<2x3xi1>) must be 6 bytes\00")
// CHECK:       func.func @fusion_0_kernel(%[[F:.*]]: !llvm.ptr) -> !llvm.ptr {
// CHECK:         %[[N:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[NP:.*]] = llvm.getelementptr %[[F]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i64>, array<3 x i64>, i64, ptr)>
// CHECK:         llvm.load %[[NP]] : !llvm.ptr -> i64
// CHECK:         cf.cond_br %{{.*}}, ^[[OK:.*]], ^[[BAD:.*]]
// CHECK:       ^[[BAD]]:
// CHECK:         %[[E:.*]] = llvm.mlir.addressof @fusion_0_error_0 : !llvm.ptr
// CHECK:         return %[[E]] : !llvm.ptr
// CHECK:         llvm.getelementptr %[[F]][0, 0, 2]
// CHECK:         %[[ARGS:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.getelementptr %[[ARGS]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i64)>
// CHECK:         arith.constant 24 : i64
// CHECK:         %[[P0:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.insertvalue %[[P0]], %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         llvm.insertvalue %[[P0]], %{{.*}}[1]
// CHECK:         %[[M0:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<2x3xf32>
// CHECK:         %[[M1:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<f32>
// CHECK:         %[[M2:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<2x3xi1>
// CHECK:         call @fusion_0(%[[M0]], %[[M1]], %[[M2]]) : (memref<2x3xf32>, memref<f32>, memref<2x3xi1>) -> ()
// CHECK-NEXT:    return %[[N]] : !llvm.ptr
// A func without floors.kernel gets no entry point.
// CHECK-NOT:   @helper_kernel

// Lowered to the LLVM dialect the casts are gone: the C symbol
// fusion_0_kernel(ptr) -> ptr calls the expanded-descriptor @fusion_0.
// LLVM-LABEL: module @floors_kernels
// LLVM:       llvm.func @fusion_0_kernel(%{{.*}}: !llvm.ptr) -> !llvm.ptr {
// LLVM-NOT:   unrealized_conversion_cast
// LLVM:         llvm.call @fusion_0(
// LLVM:         llvm.return
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<2x3xf32>, %s: memref<f32>, %o: memref<2x3xi1>) attributes {floors.kernel, floors.num_inputs = 2 : i64} {
      %c0 = arith.constant 0 : index
      %v = memref.load %s[] : memref<f32>
      %e = memref.load %x[%c0, %c0] : memref<2x3xf32>
      %b = arith.cmpf olt, %e, %v : f32
      memref.store %b, %o[%c0, %c0] : memref<2x3xi1>
      return
    }
    func.func @helper(%x: memref<2xf32>) {
      return
    }
  }
}

// -----

module @host {
  module @floors_kernels {
    // expected-error @below {{floors-cpu-emit-kernel-abi: fusion_0: argument 0 has type tensor<2xf32>, expected a memref (run after bufferization)}}
    func.func @fusion_0(%x: tensor<2xf32>, %o: memref<2xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      return
    }
  }
}

// -----

module @host {
  module @floors_kernels {
    // expected-error @below {{floors-cpu-emit-kernel-abi: fusion_0: argument 1 has a non-identity layout memref<2xf32, strided<[2]>>}}
    func.func @fusion_0(%x: memref<2xf32>, %o: memref<2xf32, strided<[2]>>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      return
    }
  }
}

// -----

module @host {
  module @floors_kernels {
    // expected-error @below {{floors-cpu-emit-kernel-abi: fusion_0: argument 0 has a dynamic shape memref<?xf32>, not supported yet}}
    func.func @fusion_0(%x: memref<?xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64} {
      return
    }
  }
}

// -----

// A kernel split into workgroups: the floors.workgroups loop's body becomes
// the kernel's body and its induction variable a trailing index argument,
// which the entry point fills with the frame's workgroup x (checked against
// the grid 4x1x1).
// CHECK-LABEL: module @floors_kernels
// CHECK:       func.func private @fusion_0(%[[X:.*]]: memref<8xf32>, %[[O:.*]]: memref<8xf32>, %[[WG:.*]]: index)
// CHECK-NOT:     scf.forall
// CHECK:         %[[STEP:.*]] = arith.constant 2 : index
// CHECK:         %[[I:.*]] = arith.muli %[[WG]], %[[STEP]] : index
// CHECK:         memref.subview %[[O]][%[[I]]] [2] [1]
// CHECK:       @fusion_0_error_1_msg("fusion_0: the grid must be 4x1x1 (the kernel was compiled for 4 workgroup(s))\00")
// CHECK:       @fusion_0_error_2_msg("fusion_0: the workgroup id must be below the grid size 4\00")
// CHECK:       func.func @fusion_0_kernel(%[[F:.*]]: !llvm.ptr) -> !llvm.ptr {
// CHECK:         %[[WP:.*]] = llvm.getelementptr %[[F]][0, 1, 0]
// CHECK:         %[[W:.*]] = llvm.load %[[WP]] : !llvm.ptr -> i64
// CHECK:         %[[WI:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK:         call @fusion_0(%{{.*}}, %{{.*}}, %[[WI]]) : (memref<8xf32>, memref<8xf32>, index) -> ()
// LLVM-LABEL: module @floors_kernels
// LLVM:       llvm.func @fusion_0_kernel(
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<8xf32>, %o: memref<8xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.grid = 4 : i64} {
      scf.forall (%i) = (0) to (8) step (2) {
        %xs = memref.subview %x[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
        %os = memref.subview %o[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
        memref.copy %xs, %os : memref<2xf32, strided<[1], offset: ?>> to memref<2xf32, strided<[1], offset: ?>>
      } {floors.workgroups}
      return
    }
  }
}

// -----

// An output written outside the workgroup's chunk: splitting would be wrong.
module @host {
  module @floors_kernels {
    func.func @fusion_0(%x: memref<8xf32>, %o: memref<8xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.grid = 2 : i64} {
      %c0 = arith.constant 0 : index
      %z = arith.constant 0.0 : f32
      // expected-error @below {{floors-cpu-emit-kernel-abi: @fusion_0: output 0 is written outside its workgroup chunk by 'memref.store'; the kernel cannot be split}}
      memref.store %z, %o[%c0] : memref<8xf32>
      scf.forall (%i) in (2) {
      } {floors.workgroups}
      return
    }
  }
}

// -----

module @host {
  module @floors_kernels {
    // expected-error @below {{floors-cpu-emit-kernel-abi: @fusion_0 has floors.grid = 2 but 0 workgroup loops (run floors-linalg-distribute-workgroups)}}
    func.func @fusion_0(%x: memref<8xf32>, %o: memref<8xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.grid = 2 : i64} {
      return
    }
  }
}
