//! The target-neutral lowering every floor may use: stablehlo → linalg /
//! tensor / scf on tensors, every fusion outlined as a kernel function in a
//! nested kernel module, kernels split into workgroups. It depends on `hlo`
//! and the shared infrastructure only, never on a floor.
//!
//! Passes (one file each) and the helper modules they and the floors share:
//! - [`maps`]: indexing maps and iterator types read structurally;
//! - [`workgroups`]: the grid decision, the split loop, binding the
//!   workgroup loop to a kernel argument after bufferization;
//! - [`destination`]: writing a kernel's results straight into its output
//!   buffers through reshapes.

pub mod destination;
pub mod linalg_distribute_workgroups;
pub mod linalg_lower_stablehlo;
pub mod linalg_outline_kernels;
pub mod maps;
pub mod workgroups;

pub use linalg_distribute_workgroups::LinalgDistributeWorkgroups;
pub use linalg_lower_stablehlo::LinalgLowerStablehlo;
pub use linalg_outline_kernels::LinalgOutlineKernels;

pub fn register_passes() {
    crate::pass::register::<LinalgLowerStablehlo>();
    crate::pass::register::<LinalgOutlineKernels>();
    crate::pass::register::<LinalgDistributeWorkgroups>();
}
