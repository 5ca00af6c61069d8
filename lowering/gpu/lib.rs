//! The GPU floor: each fusion (chosen an emitter in XLA:GPU's order) becomes
//! one or more CUDA kernels through MLIR's gpu dialect → NVVM → PTX, with
//! the host side left as `gpu.launch_func` ops the manifest
//! `floors.gpu_kernels` describes for the runtime.
//!
//! Passes (`floors-lower-gpu` runs them on the fused module):
//! `floors-gpu-attach-target` (lit/mlir-opt; the driver sets the target),
//! `floors-gpu-rewrite-gemm` (dots cuBLAS takes become library fusions,
//! `floors.library_call`; their epilogues loop fusions),
//! `floors-gpu-select-emitter` (the emitter per fusion, `floors.gpu_emitter`),
//! then the shared `floors-linalg-lower-stablehlo` and
//! `floors-linalg-outline-kernels` (both leave library fusions alone: the
//! host program makes them `ThunkSpec::Gemm`), and on the kernel module
//! (`floors-gpu-kernels-to-gpu`): bufferization, `floors-gpu-emit-gemm`
//! (the tiled GEMM of `gemm` kernels), loops, `floors-gpu-emit-kernels`
//! (launches: the reduction, transpose, scatter, concatenate and
//! input-slices emitters in `emit_*.rs`, else grid-stride), `gpu-kernel-outlining`,
//! `floors-gpu-record-kernels` (NVVM targets, manifest); then
//! `floors-gpu-kernels-to-ptx` (NVVM, `floors-gpu-resolve-libdevice`,
//! `gpu-module-to-binary{format=isa}`).
//! `floors-gpu-launch-to-loops` is a test pass (launches as host loops,
//! for numerics checks with `mlir-runner` in lit).
//! Shared helpers: [`builder`], [`launch`].

pub mod artifact;
pub mod builder;
pub mod emit_concatenate;
pub mod emit_gemm_mma;
pub mod emit_gemm_wgmma;
pub mod emit_input_slices;
pub mod emit_reduction;
pub mod emit_scatter;
pub mod emit_transpose;
pub mod gemm;
pub mod gpu_attach_target;
pub mod gpu_emit_gemm;
pub mod gpu_emit_kernels;
pub mod gpu_launch_to_loops;
pub mod gpu_record_kernels;
pub mod gpu_resolve_libdevice;
pub mod gpu_rewrite_gemm;
pub mod gpu_select_emitter;
pub mod kernel_body;
pub mod launch;
pub mod manifest;
pub mod plan;

use mlir_sys::*;

pub use gpu_attach_target::GpuAttachTarget;
pub use gpu_emit_gemm::GpuEmitGemm;
pub use gpu_emit_kernels::GpuEmitKernels;
pub use gpu_launch_to_loops::GpuLaunchToLoops;
pub use gpu_record_kernels::GpuRecordKernels;
pub use gpu_resolve_libdevice::GpuResolveLibdevice;
pub use gpu_rewrite_gemm::{GemmMode, GpuRewriteGemm};
pub use gpu_select_emitter::GpuSelectEmitter;

use floors_ir::contract::KERNEL_MODULE_NAME;

pub fn register_passes() {
    floors_ir::pass::register::<GpuAttachTarget>();
    floors_ir::pass::register::<GpuRewriteGemm>();
    floors_ir::pass::register::<GpuSelectEmitter>();
    floors_ir::pass::register::<GpuEmitGemm>();
    floors_ir::pass::register::<GpuEmitKernels>();
    floors_ir::pass::register::<GpuLaunchToLoops>();
    floors_ir::pass::register::<GpuRecordKernels>();
    floors_ir::pass::register::<GpuResolveLibdevice>();
}

/// Whether `op` is the module holding this floor's kernels.
pub fn is_kernel_container(op: MlirOperation) -> bool {
    floors_linalg::is_module_named(op, KERNEL_MODULE_NAME)
}

/// Fusions in pre-order (inside host control flow too), not looking into
/// the kernel container.
pub fn collect_fusions(root: MlirOperation) -> Vec<MlirOperation> {
    floors_linalg::collect_fusions(root, KERNEL_MODULE_NAME)
}

/// The module's `#floors.gpu_target`, or the located error every GPU pass
/// gives without one.
pub fn required_target(root: MlirOperation) -> Result<floors_ir::target::GpuTarget, floors_ir::pass::PassFailure> {
    floors_ir::target::GpuTarget::of_operation(root).ok_or_else(|| {
        floors_ir::pass::fail_at(root, "the module has no #floors.gpu_target (run floors-gpu-attach-target or compile with --target gpu)")
    })
}

/// The first op under `root` (fusion bodies included) with a complex value:
/// the GPU floor does not compile complex numbers yet (the CPU floor does),
/// so its first pass refuses them at the op.
pub fn refuse_complex(root: MlirOperation) -> Result<(), floors_ir::pass::PassFailure> {
    use floors_ir::ir::raw;
    use mlir_sys::*;
    fn walk(op: MlirOperation) -> Option<(MlirOperation, String)> {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                for v in raw::operands(o).into_iter().chain(raw::results(o)) {
                    // SAFETY: `v` is an operand or result of the live op `o`; the element type is read only of a
                    // shaped type.
                    let e = unsafe {
                        let t = mlirValueGetType(v);
                        if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t }
                    };
                    // SAFETY: `e` is a live type.
                    if unsafe { mlirTypeIsAComplex(e) } {
                        return Some((o, raw::type_text(e)));
                    }
                }
                if let Some(found) = walk(o) {
                    return Some(found);
                }
            }
        }
        None
    }
    match walk(root) {
        Some((op, t)) => Err(floors_ir::pass::fail_at(
            op,
            format!("'{}' on element type {t}: the GPU floor does not compile complex numbers yet (the CPU floor does)", raw::name(op)),
        )),
        None => Ok(()),
    }
}

/// Whether kernel function `f` was outlined from a fusion of `kind`: its
/// `floors.kind` is `#floors.kind<KIND>`.
pub fn kernel_kind_is(f: MlirOperation, kind: floors_ir::dialects::FusionKind) -> bool {
    floors_ir::ir::raw::attr(f, "floors.kind").and_then(floors_ir::dialects::FusionKind::from_attribute) == Some(kind)
}
