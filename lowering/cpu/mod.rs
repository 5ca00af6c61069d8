//! The CPU floor: outlined kernels on linalg/tensor (from the target-neutral
//! `lowering/linalg`) → packed, tiled and vectorized → bufferized → the host
//! kernel ABI → LLVM.
//!
//! Besides one file per pass, the floor's shared helpers: [`packing`] (the
//! packed matmul layout both the packing and the schedule read) and
//! [`target_f32_lanes`].

pub mod cpu_attach_target;
pub mod cpu_emit_kernel_abi;
pub mod cpu_nontemporal_stores;
pub mod cpu_pack_matmul;
pub mod cpu_tile_and_vectorize;
pub mod packing;
pub mod streaming;

pub use cpu_attach_target::CpuAttachTarget;
pub use cpu_emit_kernel_abi::CpuEmitKernelAbi;
pub use cpu_nontemporal_stores::CpuNontemporalStores;
pub use cpu_pack_matmul::CpuPackMatmul;
pub use cpu_tile_and_vectorize::CpuTileAndVectorize;

pub fn register_passes() {
    crate::pass::register::<CpuAttachTarget>();
    crate::pass::register::<CpuEmitKernelAbi>();
    crate::pass::register::<CpuNontemporalStores>();
    crate::pass::register::<CpuPackMatmul>();
    crate::pass::register::<CpuTileAndVectorize>();
}

/// The f32 lanes of the `floors.target` that encloses `op` (the schedules'
/// vector width); a pass failure at `op` when there is none.
pub fn target_f32_lanes(op: mlir_sys::MlirOperation) -> Result<i64, crate::pass::PassFailure> {
    crate::target::CpuTarget::of_operation(op)
        .map(|t| t.f32_lanes())
        .ok_or_else(|| crate::pass::fail_at(op, "no floors.target on the module: compile with --cpu or run floors-cpu-attach-target"))
}
