// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_90a})' | FileCheck %s
// RUN: %floors-opt %s --pass-pipeline='builtin.module(floors-gpu-attach-target)' | FileCheck %s --check-prefix=DEFAULT
// RUN: %floors-opt %s -verify-diagnostics --pass-pipeline='builtin.module(floors-gpu-attach-target{gpu=sm_75})' -split-input-file

// The preset's device description, for the chip ptxas and NVVM take.
// CHECK: floors.target = #floors.gpu_target<chip = "sm_90a", sm_count = 132, warp_size = 32, max_threads_per_block = 1024, max_threads_per_sm = 2048, shared_memory_per_block = 49152, shared_memory_per_block_optin = 232448, shared_memory_per_sm = 233472, registers_per_block = 65536, registers_per_thread = 255, l2_cache_bytes = 52428800, clock_khz = 1980000, memory_bandwidth = 3350000000000>
// DEFAULT: #floors.gpu_target<chip = "sm_90",
// An unsupported chip is an error naming the choices, before any NVVM pass.
// expected-error @+1 {{unsupported GPU 'sm_75': expected one of sm_80, sm_90, sm_90a, a100, h100, h200}}
module {
  func.func @f() {
    return
  }
}
