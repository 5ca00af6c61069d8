//! `floors-cpu-attach-target{cpu=NAME}`: pins the CPU target of a module by
//! setting its `floors.target` attribute to `#floors.cpu_target<...>` for the
//! named CPU (an LLVM CPU name or `x86-64`, `x86-64-v2`, `x86-64-v3`,
//! `x86-64-v4`; the host's triple, the CPU's default features).
//!
//! The driver sets the attribute itself when it parses a program (`--cpu`,
//! default `host`); this pass is for pipelines run on IR from elsewhere (lit
//! tests, mlir-opt), so they do not depend on the machine. It refuses `host`:
//! only the driver probes the machine.

use floors_ir::target::{AttachTarget, AttachableTarget, CpuTarget};

/// The pass: the toolkit's target-attaching pass for this floor's target.
pub type CpuAttachTarget = AttachTarget<CpuPinned>;

/// The CPU target as this pass resolves it from its option.
pub struct CpuPinned(CpuTarget);

impl AttachableTarget for CpuPinned {
    const ARGUMENT: &'static str = "floors-cpu-attach-target";
    const NAME: &'static str = "FloorsCpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the CPU target named by the `cpu` option";
    const OPTION: (&'static str, &'static str) = ("cpu", "an LLVM CPU name or x86-64-v2, x86-64-v3, x86-64-v4 (not host)");

    fn for_pass(name: &str) -> Result<Self, String> {
        Ok(Self(match name {
            "" => Err("needs a CPU: floors-cpu-attach-target{cpu=NAME}".into()),
            "host" => {
                Err("refuses cpu=host: only the driver probes the machine (floors compile --cpu host); name a CPU such as x86-64-v3".into())
            }
            _ => CpuTarget::resolve(name).map_err(|e| e.to_string().trim_start_matches("error: ").to_string()),
        }?))
    }

    fn attribute(&self, ctx: mlir_sys::MlirContext) -> mlir_sys::MlirAttribute {
        self.0.to_attribute(ctx)
    }
}
