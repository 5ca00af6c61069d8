// REQUIRES: floors-cli
// RUN: %floors compile --target tpu %S/Inputs/tpu_bools.mlir | FileCheck %s
// RUN: %floors compile --target tpu --emit tpu-handoff %S/Inputs/tpu_bools.mlir | FileCheck %s --check-prefix=HANDOFF

// Booleans cross a kernel's boundary as i32, as Pallas widens them around
// every pallas_call (Mosaic has no i1 memrefs): a bool input is an i32 ref
// loaded and compared with 0, a bool result is extended to i32 and stored.
// CHECK: func.func @fusion_0(%{{.*}}: i32, %[[M:.*]]: memref<8x128xi32, #tpu.memory_space<vmem>>,
// CHECK: %[[W:.*]] = vector.load %[[M]]{{.*}} : memref<8x128xi32, #tpu.memory_space<vmem>>, vector<8x128xi32>
// CHECK: arith.cmpi ne, %[[W]], %{{.*}} : vector<8x128xi32>
// CHECK: func.func @fusion_1(%{{.*}}: i32, %{{.*}}: memref<8x128xf32, #tpu.memory_space<vmem>>, %[[OUT:.*]]: memref<8x128xi32, #tpu.memory_space<vmem>>)
// CHECK: %[[E:.*]] = arith.extui %{{.*}} : vector<8x128xi1> to vector<8x128xi32>
// CHECK: tpu.vector_store %[[OUT]][%{{.*}}], %[[E]]

// The hand-off converts around each call, as Pallas' wrapper does.
// HANDOFF: %[[IN:.*]] = stablehlo.convert %arg1 : (tensor<8x128xi1>) -> tensor<8x128xi32>
// HANDOFF: stablehlo.custom_call @tpu_custom_call(%[[IN]], %arg0)
// HANDOFF: %[[R:.*]] = stablehlo.custom_call @tpu_custom_call(%arg0) {{.*}} : (tensor<8x128xf32>) -> tensor<8x128xi32>
// HANDOFF: stablehlo.convert %[[R]] : (tensor<8x128xi32>) -> tensor<8x128xi1>
