//! The CPU floor: outlined kernels on linalg/tensor (from the target-neutral
//! `lowering/linalg`) → packed, tiled and vectorized → bufferized → the host
//! kernel ABI → LLVM.
//!
//! Besides one file per pass, the floor's shared helpers: [`packing`] (the
//! packed matmul layout both the packing and the schedule read),
//! [`target_f32_lanes`] and [`keep_rolled`] (the loop annotation two passes set).

pub mod artifact;
pub mod codegen;
pub mod cpu_attach_target;
pub mod cpu_emit_kernel_abi;
pub mod cpu_fold_transposes;
pub mod cpu_legalize_bf16_vectors;
pub mod cpu_nontemporal_stores;
pub mod cpu_pack_matmul;
pub mod cpu_roll_copy_loops;
pub mod cpu_select_schedule;
pub mod cpu_tile_and_vectorize;
pub mod packing;
pub mod schedule;
pub mod streaming;

pub use cpu_attach_target::CpuAttachTarget;
pub use cpu_emit_kernel_abi::CpuEmitKernelAbi;
pub use cpu_fold_transposes::CpuFoldTransposes;
pub use cpu_legalize_bf16_vectors::CpuLegalizeBf16Vectors;
pub use cpu_nontemporal_stores::CpuNontemporalStores;
pub use cpu_pack_matmul::CpuPackMatmul;
pub use cpu_roll_copy_loops::CpuRollCopyLoops;
pub use cpu_select_schedule::CpuSelectSchedule;
pub use cpu_tile_and_vectorize::CpuTileAndVectorize;

pub fn register_passes() {
    floors_ir::pass::register::<CpuAttachTarget>();
    floors_ir::pass::register::<CpuEmitKernelAbi>();
    floors_ir::pass::register::<CpuFoldTransposes>();
    floors_ir::pass::register::<CpuLegalizeBf16Vectors>();
    floors_ir::pass::register::<CpuNontemporalStores>();
    floors_ir::pass::register::<CpuPackMatmul>();
    floors_ir::pass::register::<CpuRollCopyLoops>();
    floors_ir::pass::register::<CpuSelectSchedule>();
    floors_ir::pass::register::<CpuTileAndVectorize>();
}

/// The f32 lanes of the `floors.target` that encloses `op` (the schedules'
/// vector width); a pass failure at `op` when there is none.
pub fn target_f32_lanes(op: mlir_sys::MlirOperation) -> Result<i64, floors_ir::pass::PassFailure> {
    floors_ir::target::CpuTarget::of_operation(op)
        .map(|t| t.f32_lanes())
        .ok_or_else(|| floors_ir::pass::fail_at(op, "no floors.target on the module: compile with --cpu or run floors-cpu-attach-target"))
}

/// The attribute on `scf.for` that `convert-scf-to-cf` carries to the loop's
/// back edge as LLVM loop metadata.
pub const LOOP_ANNOTATION: &str = "loop_annotation";

/// Tells LLVM not to unroll the `scf.for` `loop_op` (partly or fully), for
/// loops whose unrolled code would cost more compile time than it saves.
pub fn keep_rolled(loop_op: mlir_sys::MlirOperation) -> Result<(), floors_ir::pass::PassFailure> {
    // SAFETY: `loop_op` is a live op; the annotation is built in its context.
    let ctx = unsafe { mlir_sys::mlirOperationGetContext(loop_op) };
    let a = floors_ir::attrs::llvm::loop_annotation_no_unroll(ctx)
        .ok_or_else(|| floors_ir::pass::fail_at(loop_op, "internal error: no #llvm.loop_annotation to keep the loop rolled"))?;
    // SAFETY: `loop_op` is a live op and `a` an attribute of its context.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(loop_op, floors_ir::ir::raw::sref(LOOP_ANNOTATION), a) };
    Ok(())
}
