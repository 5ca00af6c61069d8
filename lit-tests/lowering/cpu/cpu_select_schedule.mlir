// The schedules floors-cpu-select-schedule writes, for the programs whose
// application cpu_tile_and_vectorize.mlir checks (x86-64-v3: 8 f32 lanes).
// RUN: %floors-opt %S/cpu_tile_and_vectorize.mlir --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=x86-64-v3},func.func(floors-cpu-select-schedule))' | FileCheck %s
// With AVX-512 the register tile of a matmul is twice as wide.
// RUN: %floors-opt %S/cpu_tile_and_vectorize.mlir --pass-pipeline='builtin.module(floors-cpu-attach-target{cpu=skylake-avx512},func.func(floors-cpu-select-schedule))' | FileCheck %s --check-prefix=AVX512

// Cache tile, register tile (MR x NR x 1), K the third loop.
// CHECK-LABEL: func.func @matmul
// CHECK: floors.cpu_schedule = #floors.cpu_schedule<kind = "matmul", tile = [64, 128, 128], inner = [8, 8, 1], k = 2, peel = false, rows = []>
// AVX512-LABEL: func.func @matmul
// AVX512: floors.cpu_schedule = #floors.cpu_schedule<kind = "matmul", tile = [64, 128, 128], inner = [8, 32, 1], k = 2, peel = false, rows = []>

// Rows by 1, the innermost by 4L counted in the widest element's lanes.
// CHECK-LABEL: func.func @elementwise
// CHECK: #floors.cpu_schedule<kind = "elementwise", tile = [1, 32], inner = [], k = 0, peel = false, rows = []>
// CHECK-LABEL: func.func @elementwise_i8
// CHECK: #floors.cpu_schedule<kind = "elementwise", tile = [1, 128], inner = [], k = 0, peel = false, rows = []>
// CHECK-LABEL: func.func @elementwise_f16_to_f64
// CHECK: #floors.cpu_schedule<kind = "elementwise", tile = [1, 16], inner = [], k = 0, peel = false, rows = []>

// A row reduction: one row, the reduced loop split by the vector width.
// CHECK-LABEL: func.func @row_sum_of_squares
// CHECK: #floors.cpu_schedule<kind = "row_reduction", tile = [1, 0], inner = [0, 32], k = 0, peel = false, rows = []>

// Softmax: the root that writes the output carries the row fusion.
// CHECK-LABEL: func.func @softmax
// CHECK: #floors.cpu_schedule<kind = "row_reduction"
// CHECK: #floors.cpu_schedule<kind = "elementwise", tile = [1, 32], inner = [], k = 0, peel = false, rows = [1, 0]>

// 100 columns: tiled by 32 and peeled.
// CHECK-LABEL: func.func @peeled_tail
// CHECK: #floors.cpu_schedule<kind = "elementwise", tile = [1, 32], inner = [], k = 0, peel = true, rows = []>
