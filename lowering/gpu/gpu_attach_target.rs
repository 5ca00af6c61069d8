//! `floors-gpu-attach-target{gpu=sm_80|sm_90|sm_90a}`: sets the module's
//! `floors.target` to the `#floors.gpu_target` of that chip's preset (the
//! driver does it for `--target gpu --gpu NAME`; this pass is for lit tests
//! and mlir-opt pipelines). An unsupported chip is an error before any
//! NVVM pass sees it.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use crate::{
    contract::TARGET_ATTR,
    ir::raw::sref,
    pass::{FloorsPass, PassFailure},
    target::GpuTarget,
};

#[derive(Clone, Default)]
pub struct GpuAttachTarget {
    gpu: String,
}

impl FloorsPass for GpuAttachTarget {
    const ARGUMENT: &'static str = "floors-gpu-attach-target";
    const NAME: &'static str = "FloorsGpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the GPU chip named by the `gpu` option";
    const OPTIONS: &'static [(&'static str, &'static str)] = &[("gpu", "a CUDA chip: sm_80, sm_90 or sm_90a")];

    fn new() -> Self {
        Self::default()
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![unsafe { DialectHandle::from_raw(crate::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "gpu" => {
                self.gpu = value.to_string();
                Ok(())
            }
            _ => Err(format!("unknown option `{name}`")),
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let name = if self.gpu.is_empty() { "sm_90" } else { self.gpu.as_str() };
        let target = GpuTarget::resolve(name).map_err(|e| PassFailure::at(&op, e.to_string().trim_start_matches("error: ").to_string()))?;
        let raw = op.to_raw();
        unsafe {
            let attr = target.to_attribute(mlirOperationGetContext(raw));
            if attr.ptr.is_null() {
                return Err(PassFailure::at(&op, format!("{} is not a valid #floors.gpu_target", target.to_text())));
            }
            mlirOperationSetAttributeByName(raw, sref(TARGET_ATTR), attr);
        }
        Ok(())
    }
}
