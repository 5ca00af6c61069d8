//! The TPU floor's artifact: the host program, and every Mosaic kernel
//! module as data (`floors_runtime::tpu::kernel`) for the runtime's
//! interpreter.

use floors_ir::{
    error::{Error, Result},
    ir::raw,
    target::TpuTarget,
};
use floors_runtime::{Artifact, KernelCode, Target};

/// The artifact of a module the TPU floor has lowered (`floors-lower-tpu`):
/// the host program, and every Mosaic kernel module as data for the
/// runtime's interpreter.
pub fn artifact_of_module(module: &melior::ir::Module<'_>, name: &str) -> Result<Artifact> {
    let top = module.as_operation().to_raw();
    let target = TpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no TPU target (internal)")))?;
    let (program, kernels) = floors_host::export(module, name)?;
    let container = raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| crate::is_kernel_container(o))
        .ok_or_else(|| Error::Unsupported(format!("{name}: no TPU kernel module was produced")))?;
    let mut code = Vec::new();
    for m in raw::region_blocks(container).into_iter().flat_map(raw::block_ops) {
        let kname = raw::str_attr(m, "sym_name").unwrap_or_default();
        code.push((kname, crate::import::import_kernel(m)?));
    }
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: floors_host::producer(),
        name: floors_host::module_name(module, name),
        target: Target::Tpu { generation: target.chip.clone() },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::TpuKernels(code),
    })
}
