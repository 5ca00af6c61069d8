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
pub mod linalg_isolate_output_chains;
pub mod linalg_lower_stablehlo;
pub mod linalg_outline_kernels;
pub mod linalg_scalarize_extracts;
pub mod maps;
pub mod workgroups;

pub use linalg_distribute_workgroups::LinalgDistributeWorkgroups;
pub use linalg_isolate_output_chains::LinalgIsolateOutputChains;
pub use linalg_lower_stablehlo::LinalgLowerStablehlo;
pub use linalg_outline_kernels::LinalgOutlineKernels;
pub use linalg_scalarize_extracts::LinalgScalarizeExtracts;

pub fn register_passes() {
    floors_ir::pass::register::<LinalgLowerStablehlo>();
    floors_ir::pass::register::<LinalgOutlineKernels>();
    floors_ir::pass::register::<LinalgDistributeWorkgroups>();
    floors_ir::pass::register::<LinalgIsolateOutputChains>();
    floors_ir::pass::register::<LinalgScalarizeExtracts>();
}

use mlir_sys::MlirOperation;

use floors_ir::ir::raw;

/// Whether `op` is a `builtin.module` whose symbol name is `name` (a
/// floor's kernel module nested in the program's).
pub fn is_module_named(op: MlirOperation, name: &str) -> bool {
    raw::name(op) == "builtin.module"
        && raw::attr(op, "sym_name")
            // SAFETY: `a` is a live attribute of `op`, read as a string only after
            // `mlirAttributeIsAString`.
            .is_some_and(|a| unsafe { mlir_sys::mlirAttributeIsAString(a) && raw::string(mlir_sys::mlirStringAttrGetValue(a)) == name })
}

/// Whether `op` is a fusion a runtime library call computes
/// (`floors.library_call`): it keeps its StableHLO body and is neither
/// lowered nor outlined; the host program makes it the library's thunk.
pub fn is_library_call(op: MlirOperation) -> bool {
    raw::name(op) == "floors.fusion" && raw::attr(op, floors_ir::contract::LIBRARY_CALL_ATTR).is_some()
}

/// The `floors.fusion` ops under `root` in pre-order (inside host control
/// flow too), not looking into the module named `skip` (the kernels).
pub fn collect_fusions(root: MlirOperation, skip: &str) -> Vec<MlirOperation> {
    fn walk(op: MlirOperation, skip: &str, out: &mut Vec<MlirOperation>) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                if is_module_named(o, skip) {
                    continue;
                }
                if raw::name(o) == "floors.fusion" {
                    out.push(o);
                } else {
                    walk(o, skip, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(root, skip, &mut out);
    out
}
