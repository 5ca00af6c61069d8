//===- FloorsOps.td - the fusion container dialect ----------*- tablegen -*-===//
//
// `floors.fusion` is what every floor consumes: a group of ops that becomes one
// kernel. It is isolated from above so a floor can lower its body without
// looking outside, and its block arguments are its operands (one-to-one).
//
//===----------------------------------------------------------------------===//

#ifndef FLOORS_OPS_TD
#define FLOORS_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Floors_Dialect : Dialect {
  let name = "floors";
  let cppNamespace = "::floors::fusion";
  let summary = "Fusion containers: the unit every floor lowers to one kernel";
  let useDefaultAttributePrinterParser = 1;
  // Verifies the discardable attribute `floors.target` (see CpuTargetAttr).
  let hasOperationAttrVerify = 1;
}

class Floors_Op<string mnemonic, list<Trait> traits = []>
    : Op<Floors_Dialect, mnemonic, traits>;

// The emitter kinds of XLA's GPU backend plus the library-call kinds; the CPU
// and TPU floors read the same tag.
def Floors_FusionKind : I32EnumAttr<"FusionKind", "kind of a fusion", [
    I32EnumAttrCase<"loop", 0>,
    I32EnumAttrCase<"reduction", 1>,
    I32EnumAttrCase<"transpose", 2>,
    I32EnumAttrCase<"concatenate", 3>,
    I32EnumAttrCase<"input_slices", 4>,
    I32EnumAttrCase<"scatter", 5>,
    I32EnumAttrCase<"gemm", 6>,
    I32EnumAttrCase<"convolution", 7>,
    I32EnumAttrCase<"custom", 8>
  ]> {
  let cppNamespace = "::floors::fusion";
  let genSpecializedAttr = 0;
}

def Floors_FusionKindAttr : EnumAttr<Floors_Dialect, Floors_FusionKind, "kind"> {
  // #floors.kind<loop>
  let assemblyFormat = "`<` $value `>`";
}

// The target as data: what the CPU floor compiles for, resolved once by the
// driver (or pinned by floors-cpu-attach-target) and carried on the module as
// `floors.target`, so passes read it instead of probing the machine.
def Floors_CpuTargetAttr : AttrDef<Floors_Dialect, "CpuTarget"> {
  let mnemonic = "cpu_target";
  let summary = "an LLVM CPU target: triple, CPU, features and vector width";
  let description = [{
    ```mlir
    module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu",
        cpu = "x86-64-v3", features = "", vector_bits = 256>} { ... }
    ```
    `cpu` is an LLVM CPU name (never `host`: the driver resolves the host
    before the IR sees it); `features` is an LLVM feature string (`+avx2,...`;
    empty = the CPU's defaults); `vector_bits` is the widest vector register
    the schedules may use: 128, 256 or 512.
  }];
  let parameters = (ins
    StringRefParameter<"LLVM target triple">:$triple,
    StringRefParameter<"LLVM CPU name">:$cpu,
    StringRefParameter<"LLVM feature string">:$features,
    "unsigned":$vector_bits
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The TPU floor's target: a TPU generation and the facts its kernels are
// sized by (the driver fills them from the generation's table in
// src/target.rs, or floors-tpu-attach-target does in lit tests).
def Floors_TpuTargetAttr : AttrDef<Floors_Dialect, "TpuTarget"> {
  let mnemonic = "tpu_target";
  let summary = "a TPU generation: VMEM budget and MXU size";
  let description = [{
    ```mlir
    module attributes {floors.target = #floors.tpu_target<chip = "v5e",
        vmem_limit_bytes = 16777216, vmem_bytes = 134217728, mxu = 128>} { ... }
    ```
    `chip` is a TPU generation (`v5e`, `v5p`, `v6e`); `vmem_limit_bytes` is
    the scoped VMEM a kernel may use (its windows double-buffered plus its
    scratch), at most `vmem_bytes`, the VMEM of one TensorCore; `mxu` is the
    systolic array's side (128 or 256).
  }];
  let parameters = (ins
    StringRefParameter<"TPU generation">:$chip,
    "uint64_t":$vmem_limit_bytes,
    "uint64_t":$vmem_bytes,
    "unsigned":$mxu
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The GPU floor's target: a CUDA chip and the device description every
// codegen question is answered from (the driver fills it from the runtime's
// presets, `floors_runtime::gpu::device`, or floors-gpu-attach-target does in
// lit tests).
def Floors_GpuTargetAttr : AttrDef<Floors_Dialect, "GpuTarget"> {
  let mnemonic = "gpu_target";
  let summary = "a CUDA device: chip and the device description";
  let description = [{
    ```mlir
    module attributes {floors.target = #floors.gpu_target<chip = "sm_90",
        sm_count = 132, warp_size = 32, max_threads_per_block = 1024,
        max_threads_per_sm = 2048, shared_memory_per_block = 49152,
        shared_memory_per_block_optin = 232448, shared_memory_per_sm = 233472,
        registers_per_block = 65536, registers_per_thread = 255,
        l2_cache_bytes = 52428800, clock_khz = 1980000,
        memory_bandwidth = 3350000000000>} { ... }
    ```
    `chip` is what ptxas and NVVM take (`sm_80`, `sm_90`, `sm_90a`); sizes
    are bytes, `memory_bandwidth` bytes per second.
  }];
  let parameters = (ins
    StringRefParameter<"CUDA chip (sm_XY)">:$chip,
    "unsigned":$sm_count,
    "unsigned":$warp_size,
    "unsigned":$max_threads_per_block,
    "unsigned":$max_threads_per_sm,
    "uint64_t":$shared_memory_per_block,
    "uint64_t":$shared_memory_per_block_optin,
    "uint64_t":$shared_memory_per_sm,
    "unsigned":$registers_per_block,
    "unsigned":$registers_per_thread,
    "uint64_t":$l2_cache_bytes,
    "unsigned":$clock_khz,
    "uint64_t":$memory_bandwidth
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The GPU floor's plan for a fusion, written by floors-gpu-select-emitter
// (XLA's emitter order) on the `floors.fusion` op as `floors.gpu_emitter`
// and read by the fusion report and the graph.
def Floors_GpuEmitterAttr : AttrDef<Floors_Dialect, "GpuEmitter"> {
  let mnemonic = "gpu_emitter";
  let summary = "the emitter and launch dimensions chosen for a fusion";
  let description = [{
    ```mlir
    %0 = floors.fusion reduction hero "stablehlo.reduce" (...) -> tensor<8xf32>
        attributes {floors.gpu_emitter = #floors.gpu_emitter<kind = "reduction",
          reason = "row reduction of 8 rows x 16", block = [32, 8, 1],
          grid = [1, 1, 1]>} { ... }
    ```
    `kind` is one of `loop`, `reduction`, `transpose`, `concatenate`,
    `input_slices`, `scatter`, `gemm` (floors' own tiled GEMM) and `cublas`
    (a library call); `block` and `grid` are (x, y, z), each at least 1
    (0 for `cublas`, which launches no kernel of floors').
  }];
  let parameters = (ins
    StringRefParameter<"emitter kind">:$kind,
    StringRefParameter<"why XLA's order picks it">:$reason,
    "::mlir::DenseI64ArrayAttr":$block,
    "::mlir::DenseI64ArrayAttr":$grid
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// A fusion's TPU kernel plan: `floors-tpu-select-blocks` writes it on each
// `floors.fusion` as `floors.tpu_plan`, `floors-tpu-emit-kernels` applies it.
def Floors_TpuPlanAttr : AttrDef<Floors_Dialect, "TpuPlan"> {
  let mnemonic = "tpu_plan";
  let summary = "a fusion's TPU kernel strategy, grid and block sizes";
  let description = [{
    ```mlir
    floors.tpu_plan = #floors.tpu_plan<strategy = "rows", grid = [4],
                                       block = [256]>
    ```
    `strategy` is `rows` (one grid axis), `matmul` (three: m, n, k) or
    `whole` (none); `grid` (iterations per axis) and `block` (elements per
    axis) have the strategy's number of axes, each at least 1.
  }];
  let parameters = (ins
    StringRefParameter<"rows, matmul or whole">:$strategy,
    "::mlir::DenseI64ArrayAttr":$grid,
    "::mlir::DenseI64ArrayAttr":$block
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// A fusion a runtime library computes (`floors-gpu-rewrite-gemm` writes it
// as `floors.library_call`; the host program reads it into the runtime's
// `GemmSpec`, whose shape fields it holds one for one).
def Floors_LibraryCallAttr : AttrDef<Floors_Dialect, "LibraryCall"> {
  let mnemonic = "library_call";
  let summary = "a library call (a row-major batched gemm) computing a fusion";
  let description = [{
    ```mlir
    floors.library_call = #floors.library_call<call = "gemm", batch = 1,
        m = 64, n = 32, k = 128, transpose_lhs = false, transpose_rhs = true,
        lhs_batch_stride = 8192, rhs_batch_stride = 4096>
    ```
    `call` is `gemm` (the one call the runtime has): per batch, `out` (m×n)
    = `lhs` (m×k, stored k×m when `transpose_lhs`) · `rhs` (k×n, stored n×k
    when `transpose_rhs`). A batch stride (elements between batches of an
    operand) is 0 (one matrix for every batch) or at least the matrix.
  }];
  let parameters = (ins
    StringRefParameter<"the library call">:$call,
    "uint64_t":$batch,
    "uint64_t":$m,
    "uint64_t":$n,
    "uint64_t":$k,
    "::mlir::BoolAttr":$transpose_lhs,
    "::mlir::BoolAttr":$transpose_rhs,
    "uint64_t":$lhs_batch_stride,
    "uint64_t":$rhs_batch_stride
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// One argument of a GPU kernel launch: a buffer of the fusion (`in` K or
// `out` K in the kernel table's order) or a temporary between its launches.
def Floors_LaunchArgAttr : AttrDef<Floors_Dialect, "LaunchArg"> {
  let mnemonic = "launch_arg";
  let summary = "a launch argument: an input, output or temporary buffer";
  let description = [{
    `#floors.launch_arg<"in", 0>`, `#floors.launch_arg<"out", 1>`,
    `#floors.launch_arg<"tmp", 0>`.
  }];
  let parameters = (ins
    StringRefParameter<"in, out or tmp">:$kind,
    "uint64_t":$index
  );
  let assemblyFormat = "`<` $kind `,` $index `>`";
  let genVerifyDecl = 1;
}

// One launch of a GPU kernel function.
def Floors_GpuLaunchAttr : AttrDef<Floors_Dialect, "GpuLaunch"> {
  let mnemonic = "gpu_launch";
  let summary = "one kernel launch: entry, grid, block and arguments";
  let description = [{
    ```mlir
    #floors.gpu_launch<module = "fusion_0_gpu", entry = "fusion_0_k0",
        grid = [4, 1, 1], block = [256, 1, 1],
        args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"out", 0>]>
    ```
    `grid` and `block` are (x, y, z), each at least 1; `args` are
    `#floors.launch_arg`s.
  }];
  let parameters = (ins
    StringRefParameter<"the gpu.module">:$module,
    StringRefParameter<"the kernel entry">:$entry,
    "::mlir::DenseI64ArrayAttr":$grid,
    "::mlir::DenseI64ArrayAttr":$block,
    "::mlir::ArrayAttr":$args
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The GPU launch manifest of one kernel (fusion): `floors-gpu-record-kernels`
// writes the module's `floors.gpu_kernels`, an array of these, which the GPU
// artifact reads.
def Floors_GpuKernelAttr : AttrDef<Floors_Dialect, "GpuKernel"> {
  let mnemonic = "gpu_kernel";
  let summary = "a kernel's launches and the temporaries between them";
  let description = [{
    ```mlir
    #floors.gpu_kernel<fusion = "fusion_0", temps = [1024],
        launches = [#floors.gpu_launch<...>, ...]>
    ```
    `temps` are the bytes of each temporary (at least 0); every
    `#floors.launch_arg<"tmp", K>` of a launch has K below their number.
  }];
  let parameters = (ins
    StringRefParameter<"the kernel (fusion) name">:$fusion,
    "::mlir::DenseI64ArrayAttr":$temps,
    "::mlir::ArrayAttr":$launches
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

// The CPU schedule of one linalg op of a kernel: `floors-cpu-select-schedule`
// writes it as `floors.cpu_schedule`, `floors-cpu-tile-and-vectorize` applies
// it (and falls back to scalar loops, with a remark, where it cannot).
def Floors_CpuScheduleAttr : AttrDef<Floors_Dialect, "CpuSchedule"> {
  let mnemonic = "cpu_schedule";
  let summary = "how the CPU floor tiles and vectorizes one linalg op";
  let description = [{
    ```mlir
    floors.cpu_schedule = #floors.cpu_schedule<kind = "matmul",
        tile = [64, 128, 128], inner = [8, 32, 1], k = 2, peel = false,
        rows = []>
    ```
    `kind`, and what `tile` and `inner` are for it (one size per loop of
    the op, 0 = not tiled):
    - `matmul`: `tile` the cache tile, `inner` the register tile (same
      length); `k` the loop tiled by K steps;
    - `elementwise`: `tile` the vectorized tile, `peel` the innermost loop
      peeled into full tiles and one remainder; `inner` empty;
    - `row_reduction`: `tile` the rows (1 per parallel loop), `inner` the
      split of the reduced loop (same length);
    - `conv`: `tile` the tile of a direct convolution; `inner` empty;
      with `peel`, `k` names the loop whose tile does not divide its extent,
      peeled into full tiles and one remainder.
    `rows` (an elementwise root only): the row tile its row-reduction
    producers are fused under (softmax, layernorm); empty otherwise.
  }];
  let parameters = (ins
    StringRefParameter<"matmul, elementwise, row_reduction or conv">:$kind,
    "::mlir::DenseI64ArrayAttr":$tile,
    "::mlir::DenseI64ArrayAttr":$inner,
    "uint64_t":$k,
    "::mlir::BoolAttr":$peel,
    "::mlir::DenseI64ArrayAttr":$rows
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Floors_FusionOp : Floors_Op<"fusion", [
    IsolatedFromAbove,
    SingleBlock,
    RecursiveMemoryEffects
  ]> {
  let summary = "a group of ops compiled as one kernel";
  let description = [{
    ```mlir
    %r = floors.fusion reduction hero "stablehlo.reduce" (%x = %arg0 : tensor<8x16xf32>) -> tensor<8xf32> {
      ...
      floors.yield %v : tensor<8xf32>
    }
    ```
    The block arguments are the operands, in order and with the same types,
    and `floors.yield` gives values of the result types, except that a
    lowered body (floors-linalg-lower-stablehlo) computes on signless
    integers where the operands and results are unsigned
    (`%x = %arg0 : tensor<8xui32> as tensor<8xi32>`).
    `hero` names the op that decides the emitter (XLA's "hero").
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    Floors_FusionKindAttr:$kind,
    OptionalAttr<StrAttr>:$hero
  );
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Floors_YieldOp : Floors_Op<"yield", [
    Pure, HasParent<"FusionOp">, Terminator
  ]> {
  let summary = "the results of a fusion";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // FLOORS_OPS_TD
