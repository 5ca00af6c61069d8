// REQUIRES: floors-cli
// RUN: %floors compile --target tpu --fusion-report %S/Inputs/tpu_report.mlir | FileCheck %s
// RUN: %floors compile --target tpu --tpu v6e --fusion-report %S/Inputs/tpu_report.mlir | FileCheck %s --check-prefix=V6E
// RUN: %floors compile --target tpu --emit tpu-handoff %S/Inputs/tpu_report.mlir | FileCheck %s --check-prefix=HANDOFF

// The TPU fusion report: per kernel its plan, the VMEM of every buffer
// (windows twice when the grid pipelines them, the accumulator scratch
// once), the cost estimate — the matmul's MXU flops are 2·256·256·1024, its
// tanh epilogue runs once per output block (at the last k), the softmax has
// one exp per element — and the MXU and HBM time at the generation's peaks.
// CHECK: fusion 0 (fusion_0): plan matmul, grid [1, 1, 2], block [256, 256, 512]
// CHECK-NEXT: VMEM: in0 f32[256x512] 1.00 MiB (2 buffers), in1 f32[512x256] 1.00 MiB (2 buffers), out0 f32[256x256] 512.0 KiB (2 buffers), scratch0 f32[256x256] 256.0 KiB = 2.75 MiB of the 16.00 MiB scoped limit (v5e)
// CHECK-NEXT: cost_estimate: flops=134348800 transcendentals=65536 bytes_accessed=2621440 (MXU flops 134217728)
// CHECK-NEXT: v5e: MXU 0.68 µs at 197 TFLOP/s bf16 {{.*}}, HBM 3.20 µs at 819 GB/s → HBM-bound, ≥ 3.20 µs
// CHECK: fusion 1 (fusion_1): plan rows, grid [1], block [64]
// CHECK: cost_estimate: flops=1048576 transcendentals=262144 bytes_accessed=2097152 (MXU flops 0)
// CHECK: totals: flops=135397376 transcendentals=327680 bytes_accessed=4718592
// V6E: of the 32.00 MiB scoped limit (v6e)
// V6E: v6e: MXU {{.*}} at 918 TFLOP/s bf16 {{.*}} at 1638 GB/s

// The hand-off carries the same estimate in each call's backend_config, as
// Pallas writes its CostEstimate.
// HANDOFF: \22cost_estimate\22: {\22flops\22: 134348800, \22transcendentals\22: 65536, \22bytes_accessed\22: 2621440, \22remote_bytes_transferred\22: 0}, \22serialization_format\22: 1
// HANDOFF: \22cost_estimate\22: {\22flops\22: 1048576, \22transcendentals\22: 262144, \22bytes_accessed\22: 2097152, \22remote_bytes_transferred\22: 0}
