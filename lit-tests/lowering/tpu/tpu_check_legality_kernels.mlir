// RUN: %floors-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(floors-tpu-check-legality)'

// Hand-written kernels (the pass checks whatever is in @floors_tpu_kernels):
// the grid arguments, iteration_bounds and dimension_semantics disagree.
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} {
  func.func @grid(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
    // expected-error @+1 {{kernel @fusion_0: 1 grid index argument(s), but iteration_bounds has 2 and dimension_semantics 1 entries}}
    %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<8x128xf32>) -> tensor<8x128xf32> attributes {floors.kernel = "fusion_0"} {
      %1 = stablehlo.negate %x : tensor<8x128xf32>
      floors.yield %1 : tensor<8x128xf32>
    }
    return %0 : tensor<8x128xf32>
  }
  module @floors_tpu_kernels {
    module @fusion_0 attributes {stable_mosaic.version = 11 : i64} {
      func.func @fusion_0(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %y: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 1, 1>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @t, window_bounds = array<i64: 8, 128>}, {transform_indices = @t, window_bounds = array<i64: 8, 128>}]} {
        return
      }
      func.func @t(%i: i32) -> (i32, i32) {
        %c0 = arith.constant 0 : i32
        return %i, %c0 : i32, i32
      }
    }
  }
}

// -----

// An index map that returns one block index for a 2-D array, a window
// whose bounds differ from its kernel argument, and a window naming no function.
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} {
  func.func @maps(%a: tensor<8x128xf32>, %b: tensor<8x128xf32>) -> tensor<8x128xf32> {
    // expected-error @+4 {{operand 0: index map @one takes 1 and returns 1 values; it must take the 1 grid indices and return 2 block indices}}
    // expected-error @+3 {{operand 1: window_bounds [8, 256] differ from the kernel argument's shape [8, 128]}}
    // expected-error @+2 {{operand 1 (array [8, 128], block [8, 256]): dimension 1: block 256 is outside 1..=128}}
    // expected-error @+1 {{result 0: window_params names no index map function in the kernel module}}
    %0 = floors.fusion loop hero "stablehlo.add" (%x = %a : tensor<8x128xf32>, %y = %b : tensor<8x128xf32>) -> tensor<8x128xf32> attributes {floors.kernel = "fusion_0"} {
      %1 = stablehlo.add %x, %y : tensor<8x128xf32>
      floors.yield %1 : tensor<8x128xf32>
    }
    return %0 : tensor<8x128xf32>
  }
  module @floors_tpu_kernels {
    module @fusion_0 attributes {stable_mosaic.version = 11 : i64} {
      func.func @fusion_0(%i: i32, %x: memref<8x128xf32, #tpu.memory_space<vmem>>, %y: memref<8x128xf32, #tpu.memory_space<vmem>>, %z: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>], iteration_bounds = array<i64: 1>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @one, window_bounds = array<i64: 8, 128>}, {transform_indices = @two, window_bounds = array<i64: 8, 256>}, {transform_indices = @missing, window_bounds = array<i64: 8, 128>}]} {
        return
      }
      func.func @one(%i: i32) -> i32 {
        return %i : i32
      }
      func.func @two(%i: i32) -> (i32, i32) {
        %c0 = arith.constant 0 : i32
        return %i, %c0 : i32, i32
      }
    }
  }
}

// -----

// MXU: a hand-written tpu.matmul whose contracting dimension (200) is
// neither a multiple of 128 nor within one tile (floors' own kernels pad it).
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} {
  func.func @mxu(%a: tensor<8x200xf32>, %b: tensor<200x128xf32>) -> tensor<8x128xf32> {
    %0 = floors.fusion gemm hero "stablehlo.dot_general" (%x = %a : tensor<8x200xf32>, %y = %b : tensor<200x128xf32>) -> tensor<8x128xf32> attributes {floors.kernel = "fusion_0"} {
      %1 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<8x200xf32>, tensor<200x128xf32>) -> tensor<8x128xf32>
      floors.yield %1 : tensor<8x128xf32>
    }
    return %0 : tensor<8x128xf32>
  }
  module @floors_tpu_kernels {
    module @fusion_0 attributes {stable_mosaic.version = 11 : i64} {
      func.func @fusion_0(%x: memref<8x200xf32, #tpu.memory_space<vmem>>, %y: memref<200x128xf32, #tpu.memory_space<vmem>>, %z: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
        %c0 = arith.constant 0 : index
        %a = vector.load %x[%c0, %c0] : memref<8x200xf32, #tpu.memory_space<vmem>>, vector<8x200xf32>
        %b = vector.load %y[%c0, %c0] : memref<200x128xf32, #tpu.memory_space<vmem>>, vector<200x128xf32>
        %acc = arith.constant dense<0.000000e+00> : vector<8x128xf32>
        // expected-error @+1 {{tpu.matmul lhs [8, 200]: dimension 1 is 200, neither a multiple of 128 nor within one 128-wide tile (MXU); pad it to 256}}
        %r = tpu.matmul %a, %b, %acc {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>, transpose_lhs_hint = false} : vector<8x200xf32>, vector<200x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
        tpu.vector_store %z[%c0, %c0], %r {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
        return
      }
    }
  }
}

// -----

// Values: a 64-bit vector has no Mosaic layout, and a value larger than the
// scoped VMEM on its own (the broadcast-multiply-reduce form of a 256×512×256
// dot: 128 MiB as f32) cannot exist, however small the windows are.
module attributes {floors.target = #floors.tpu_target<chip = "v5e", vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} {
  func.func @values(%a: tensor<8x128xf64>) -> tensor<8x128xf64> {
    %0 = floors.fusion loop hero "stablehlo.negate" (%x = %a : tensor<8x128xf64>) -> tensor<8x128xf64> attributes {floors.kernel = "fusion_0"} {
      %1 = stablehlo.negate %x : tensor<8x128xf64>
      floors.yield %1 : tensor<8x128xf64>
    }
    return %0 : tensor<8x128xf64>
  }
  module @floors_tpu_kernels {
    module @fusion_0 attributes {stable_mosaic.version = 11 : i64} {
      func.func @fusion_0(%x: memref<8x128xf64, #tpu.memory_space<vmem>>, %z: memref<8x128xf64, #tpu.memory_space<vmem>>) attributes {dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>} {
        %c0 = arith.constant 0 : index
        // expected-error @+1 {{`vector.load` makes a vector<8x128xf64>: Mosaic lays out vectors of 32-bit or narrower elements only (no 64-bit vectors on a TPU)}}
        %a = vector.load %x[%c0, %c0] : memref<8x128xf64, #tpu.memory_space<vmem>>, vector<8x128xf64>
        %c = arith.constant 1.0 : f32
        // expected-error @+1 {{`vector.broadcast` makes a vector<256x256x512xf32> of 134217728 bytes, over the v5e scoped VMEM of 16777216 bytes on its own}}
        %big = vector.broadcast %c : f32 to vector<256x256x512xf32>
        %n = arith.negf %a : vector<8x128xf64>
        tpu.vector_store %z[%c0, %c0], %n {strides = array<i32>} : memref<8x128xf64, #tpu.memory_space<vmem>>, vector<8x128xf64>,
        return
      }
    }
  }
}
