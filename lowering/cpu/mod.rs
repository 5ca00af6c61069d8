//! The CPU floor: fusion bodies → linalg/tensor → tile/vectorize →
//! bufferize → LLVM.

pub mod cpu_distribute_workgroups;
pub mod cpu_emit_kernel_abi;
pub mod cpu_lower_to_linalg;
pub mod cpu_outline_kernels;
pub mod cpu_pack_matmul;
pub mod cpu_tile_and_vectorize;

pub use cpu_distribute_workgroups::CpuDistributeWorkgroups;
pub use cpu_emit_kernel_abi::CpuEmitKernelAbi;
pub use cpu_lower_to_linalg::CpuLowerToLinalg;
pub use cpu_outline_kernels::CpuOutlineKernels;
pub use cpu_pack_matmul::CpuPackMatmul;
pub use cpu_tile_and_vectorize::CpuTileAndVectorize;

pub fn register_passes() {
    crate::pass::register::<CpuLowerToLinalg>();
    crate::pass::register::<CpuOutlineKernels>();
    crate::pass::register::<CpuEmitKernelAbi>();
    crate::pass::register::<CpuDistributeWorkgroups>();
    crate::pass::register::<CpuPackMatmul>();
    crate::pass::register::<CpuTileAndVectorize>();
}
