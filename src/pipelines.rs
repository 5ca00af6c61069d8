//! Named pipelines: short lists of passes, the way IREE and Triton name their
//! stages. Each is registered in MLIR's registry, so the same name works in
//! `mlir-opt --pass-pipeline='builtin.module(NAME)'` and from Rust.

use std::sync::Once;

use melior::StringRef;

use crate::pass;

/// A named pipeline and the textual pass list it expands to.
#[derive(Clone, Copy, Debug)]
pub struct Pipeline {
    pub name: &'static str,
    pub description: &'static str,
    pub body: &'static str,
}

/// HLO cleanup before fusion: JAX's helpers inlined, chlo and
/// rng_bit_generator expanded into stablehlo, StableHLO folds, then upstream canonicalization (dead code) and
/// CSE, then locations for what the folder left without one.
pub const FLOORS_HLO_CLEANUP: Pipeline = Pipeline {
    name: "floors-hlo-cleanup",
    description: "Inline private helpers, legalize chlo to stablehlo, expand rng_bit_generator, fold, canonicalize, CSE",
    body: "floors-hlo-inline,floors-hlo-legalize-chlo,floors-hlo-expand-rng-bit-generator,floors-hlo-simplify,floors-hlo-eliminate-zero-sized,canonicalize,cse,floors-hlo-restore-locations",
};

/// StableHLO → the fused module every floor reads.
pub const FLOORS_FUSE: Pipeline = Pipeline {
    name: "floors-fuse",
    description: "One-device shardings dropped, tokens as empty tensors, one-device collectives as their operands, FFTs as runtime calls, custom calls' layouts as transposes, HLO cleanup, known loop trip counts recorded, then fusion into floors.fusion ops",
    body: "floors-hlo-inline,floors-hlo-spmd-partition,floors-hlo-drop-one-device-shardings,floors-hlo-tokens-to-zero-sized,floors-hlo-single-device-collectives,floors-hlo-collectives-to-calls,floors-hlo-fft-to-call,floors-hlo-custom-call-layouts,floors-hlo-cleanup,floors-hlo-annotate-trip-counts,floors-hlo-fuse",
};

/// CPU floor, on the kernel module `@floors_kernels` alone (kernels on
/// tensors → LLVM dialect): elementwise producers fused into their consumers,
/// kernels with a grid split into workgroup chunks, matmul operands packed
/// (CSE then merges the identical B packs of a matmul split into pieces),
/// the schedule of `floors-cpu-tile-and-vectorize` (matmuls tiled for caches
/// and registers down to FMAs, elementwise ops vectorized, vectorized
/// transcendental functions as polynomials), one-shot bufferization (outputs
/// written in place, no copies), temporaries of static size allocated once
/// before the loops that use them (`buffer-loop-hoisting`: a row fusion's
/// row buffers are not a malloc/free per row), ownership-based deallocation
/// (every temporary freed per call), the kernel ABI entry points, the unscheduled ops
/// as loops, vector transfers fully unrolled (no stack temporaries), loops
/// that only move data kept rolled (`floors-cpu-roll-copy-loops`), bf16
/// conversions as integer bit operations (LLVM would call compiler-rt's
/// `__truncsfbf2`, which the JIT does not have), then everything to the LLVM
/// dialect. Passes that work one function at a time are nested under
/// `func.func`, so the pass manager runs them on the kernels in parallel;
/// only the ones that need the module (bufferization across function
/// boundaries, deallocation, the ABI, inlining, the final conversions) run
/// on it whole.
pub const FLOORS_CPU_KERNELS_TO_LLVM: Pipeline = Pipeline {
    name: "floors-cpu-kernels-to-llvm",
    description: "Tile and vectorize the outlined CPU kernels, bufferize them, free temporaries, emit the kernel ABI entry points, lower to the LLVM dialect",
    body: "func.func(linalg-fuse-elementwise-ops,floors-linalg-scalarize-extracts),floors-linalg-distribute-workgroups,floors-cpu-pack-matmul,cse,func.func(floors-cpu-select-schedule,floors-cpu-tile-and-vectorize),canonicalize,cse,\
           func.func(floors-linalg-isolate-output-chains),eliminate-empty-tensors,\
           one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
           func.func(buffer-loop-hoisting),buffer-deallocation-pipeline,floors-cpu-emit-kernel-abi,\
           func.func(convert-linalg-to-loops,convert-vector-to-scf{full-unroll=true}),floors-cpu-nontemporal-stores,inline{default-pipeline=},\
           func.func(floors-cpu-roll-copy-loops,convert-complex-to-standard,convert-scf-to-cf,expand-strided-metadata,lower-affine,arith-expand{include-bf16=true},convert-math-to-llvm{approximate-log1p=false}),\
           finalize-memref-to-llvm{use-generic-functions=true},convert-math-to-libm,\
           convert-vector-to-llvm{enable-x86vector=true},convert-to-llvm,reconcile-unrealized-casts,floors-cpu-legalize-bf16-vectors",
};

/// CPU floor, on the fused module: transposes folded into the dots that
/// read them, fusions lowered to linalg and outlined as
/// kernels into `@floors_kernels` (the first half of [`FLOORS_LOWER_CPU`];
/// the driver runs [`FLOORS_CPU_KERNELS_TO_LLVM`] on the kernels in parts,
/// `Compiler::lower_kernels_in_parts`).
pub const CPU_KERNEL_OUTLINE: &str = "floors-cpu-fold-transposes,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels";

/// CPU floor: fused module (transposes folded into dots) → host program (tensors, fusions tagged with
/// `floors.kernel`) + nested kernel module `@floors_kernels` in the LLVM dialect.
pub const FLOORS_LOWER_CPU: Pipeline = Pipeline {
    name: "floors-lower-cpu",
    description: "CPU floor: fold transposes into dots, lower fusions to linalg, outline them as kernels, lower the kernel module to the LLVM dialect",
    body: "floors-cpu-fold-transposes,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module(floors-cpu-kernels-to-llvm)",
};

/// TPU floor: fused module → host program (fusions tagged with
/// `floors.kernel` and their `floors.tpu_plan`) + the Mosaic kernel modules
/// in `@floors_tpu_kernels`, checked against Mosaic's rules.
pub const FLOORS_LOWER_TPU: Pipeline = Pipeline {
    name: "floors-lower-tpu",
    description: "TPU floor: lower fusions to linalg, choose each kernel's grid and blocks, emit Mosaic kernels, check them",
    body: "floors-linalg-lower-stablehlo{keep-sorts=true keep-scatters=true conv-as-dots=true windows-as-slices=true},floors-tpu-select-blocks,floors-tpu-emit-kernels,floors-tpu-check-legality",
};

/// GPU floor, on the kernel module `@floors_kernels` alone (kernels on
/// tensors → gpu dialect): elementwise producers fused into consumers,
/// one-shot bufferization, the matmuls of `gemm` kernels as tiled GEMM
/// launches (`floors-gpu-emit-gemm`), every other structured op as an
/// `scf.parallel` nest,
/// the nests as `gpu.launch` ops (`floors-gpu-emit-kernels`: grid-stride or
/// single-block, transcendental functions as polynomials), outlined into
/// `gpu.module`s, NVVM targets and the launch manifest recorded.
pub const FLOORS_GPU_KERNELS_TO_GPU: Pipeline = Pipeline {
    name: "floors-gpu-kernels-to-gpu",
    description: "Bufferize the outlined GPU kernels, turn their loop nests into gpu.launch ops, outline them into gpu.modules, record the manifest",
    body: "func.func(linalg-fuse-elementwise-ops,floors-linalg-scalarize-extracts,floors-linalg-isolate-output-chains),eliminate-empty-tensors,\
           one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
           canonicalize,cse,floors-gpu-emit-gemm,func.func(convert-linalg-to-parallel-loops),canonicalize,floors-gpu-emit-kernels,canonicalize,cse,func.func(gpu-launch-sink-index-computations),\
           gpu-kernel-outlining,floors-gpu-record-kernels",
};

/// GPU floor, on the kernel module after [`FLOORS_GPU_KERNELS_TO_GPU`]: each
/// `gpu.module` to NVVM (the tensor-core GEMM's `nvgpu` ops first; bare
/// pointers: one pointer per buffer) and to PTX
/// (`gpu-module-to-binary{format=isa}`; no CUDA toolkit needed).
pub const FLOORS_GPU_KERNELS_TO_PTX: Pipeline = Pipeline {
    name: "floors-gpu-kernels-to-ptx",
    description: "Lower the gpu.modules to NVVM and serialize them to PTX",
    body: "gpu.module(convert-nvgpu-to-nvvm,convert-scf-to-cf,convert-nvvm-to-llvm,expand-strided-metadata,lower-affine,arith-expand{include-bf16=true},\
           convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-math-to-llvm,floors-gpu-resolve-libdevice,canonicalize,cse,reconcile-unrealized-casts),\
           gpu-module-to-binary{format=isa}",
};

/// GPU floor: fused module → host program (dots cuBLAS takes as library
/// fusions, `floors-gpu-rewrite-gemm`; the other fusions tagged with
/// `floors.kernel` and `floors.gpu_emitter`) + the kernel module with host
/// functions of `gpu.launch_func` ops, the PTX in `gpu.binary` ops and the
/// manifest `floors.gpu_kernels`.
pub const FLOORS_LOWER_GPU: Pipeline = Pipeline {
    name: "floors-lower-gpu",
    description: "GPU floor: send dots to cuBLAS, choose each fusion's emitter, lower fusions to linalg, outline them, emit gpu kernels, lower them to PTX",
    body: "floors-gpu-rewrite-gemm,floors-gpu-select-emitter,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,\
           builtin.module(floors-gpu-kernels-to-gpu),builtin.module(floors-gpu-kernels-to-ptx)",
};

/// Every pipeline floors registers (in dependency order: a body may name an
/// earlier pipeline).
pub const PIPELINES: &[Pipeline] = &[
    FLOORS_HLO_CLEANUP,
    FLOORS_FUSE,
    FLOORS_CPU_KERNELS_TO_LLVM,
    FLOORS_LOWER_CPU,
    FLOORS_LOWER_TPU,
    FLOORS_GPU_KERNELS_TO_GPU,
    FLOORS_GPU_KERNELS_TO_PTX,
    FLOORS_LOWER_GPU,
];

static REGISTERED: Once = Once::new();
static UPSTREAM: Once = Once::new();

/// Registers upstream's passes, then floors' passes and pipelines, once per
/// process: what the driver does before it builds a pass manager. (Creating
/// a context registers nothing; the mlir-opt plugin calls
/// [`register_floors_passes_and_pipelines`] alone, mlir-opt having
/// registered upstream's.)
pub fn register_all() {
    UPSTREAM.call_once(melior::utility::register_all_passes);
    register_floors_passes_and_pipelines();
}

/// Registers every pass of every crate in MLIR's registry: the shared
/// layers, then each floor.
fn register_passes() {
    floors_hlo::register_passes();
    floors_linalg::register_passes();
    floors_cpu::register_passes();
    floors_gpu::register_passes();
    floors_tpu::register_passes();
}

/// Registers floors' own passes, then its pipelines (whose bodies may name
/// upstream passes, so upstream's must be registered before this runs).
pub fn register_floors_passes_and_pipelines() {
    REGISTERED.call_once(|| {
        register_passes();
        // SAFETY: registers the C++ passes of floors' Mosaic dialect (the
        // wire form) in MLIR's global registry; takes no arguments.
        unsafe { crate::capi::floorsTpuRegisterPasses() };
        for p in PIPELINES {
            // SAFETY: `p` is an entry of the static `PIPELINES`, so the three strings are `'static`; the shim copies
            // the body, and `PassPipelineRegistration` copies the name and description.
            let ok = unsafe {
                crate::capi::floorsRegisterPassPipeline(
                    StringRef::new(p.name).to_raw(),
                    StringRef::new(p.description).to_raw(),
                    StringRef::new(p.body).to_raw(),
                )
            };
            if !ok {
                tracing::error!("pipeline {} has a body that does not parse: {}", p.name, p.body);
            }
        }
    });
}

/// Re-export so callers can add a single Rust pass without naming lowering/.
pub use pass::create as create_pass;
