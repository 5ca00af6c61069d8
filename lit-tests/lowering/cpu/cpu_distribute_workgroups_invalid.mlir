// RUN: %floors-opt %s --pass-pipeline='builtin.module(builtin.module(floors-cpu-distribute-workgroups))' -verify-diagnostics

// A grid on a kernel that cannot be split is an error, not a silent
// recomputation.
module @bad {
  module @floors_kernels {
    // expected-error @below {{floors-cpu-distribute-workgroups: @fusion_0 has floors.grid = 2 but its output is not the result of one linalg op}}
    func.func @fusion_0(%x: tensor<8xf32> {bufferization.writable = false}, %o: memref<8xf32>) attributes {floors.kernel, floors.num_inputs = 1 : i64, floors.grid = 2 : i64} {
      bufferization.materialize_in_destination %x in restrict writable %o : (tensor<8xf32>, memref<8xf32>) -> ()
      return
    }
  }
}
