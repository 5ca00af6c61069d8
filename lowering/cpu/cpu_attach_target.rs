//! `floors-cpu-attach-target{cpu=NAME}`: pins the CPU target of a module by
//! setting its `floors.target` attribute to `#floors.cpu_target<...>` for the
//! named CPU (an LLVM CPU name or `x86-64`, `x86-64-v2`, `x86-64-v3`,
//! `x86-64-v4`; the host's triple, the CPU's default features).
//!
//! The driver sets the attribute itself when it parses a program (`--cpu`,
//! default `host`); this pass is for pipelines run on IR from elsewhere (lit
//! tests, mlir-opt), so they do not depend on the machine. It refuses `host`:
//! only the driver probes the machine.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use crate::{
    contract::TARGET_ATTR,
    ir::raw::sref,
    pass::{FloorsPass, PassFailure},
    target::CpuTarget,
};

#[derive(Clone, Default)]
pub struct CpuAttachTarget {
    cpu: String,
}

impl FloorsPass for CpuAttachTarget {
    const ARGUMENT: &'static str = "floors-cpu-attach-target";
    const NAME: &'static str = "FloorsCpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the CPU target named by the `cpu` option";
    const OPTIONS: &'static [(&'static str, &'static str)] = &[("cpu", "an LLVM CPU name or x86-64-v2, x86-64-v3, x86-64-v4 (not host)")];

    fn new() -> Self {
        Self::default()
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![unsafe { DialectHandle::from_raw(crate::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "cpu" => {
                self.cpu = value.to_string();
                Ok(())
            }
            _ => Err(format!("unknown option `{name}`")),
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        if self.cpu.is_empty() {
            return Err(PassFailure::at(&op, "needs a CPU: floors-cpu-attach-target{cpu=NAME}"));
        }
        if self.cpu == "host" {
            return Err(PassFailure::at(
                &op,
                "refuses cpu=host: only the driver probes the machine (floors compile --cpu host); name a CPU such as x86-64-v3",
            ));
        }
        let target =
            CpuTarget::resolve(&self.cpu).map_err(|e| PassFailure::at(&op, e.to_string().trim_start_matches("error: ").to_string()))?;
        let raw = op.to_raw();
        unsafe {
            let attr = target.to_attribute(mlirOperationGetContext(raw));
            if attr.ptr.is_null() {
                return Err(PassFailure::at(&op, format!("{target:?} is not a valid #floors.cpu_target")));
            }
            mlirOperationSetAttributeByName(raw, sref(TARGET_ATTR), attr);
        }
        Ok(())
    }
}
