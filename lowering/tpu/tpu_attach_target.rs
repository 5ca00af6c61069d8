//! `floors-tpu-attach-target{tpu=v5e|v5p|v6e}`: sets the module's
//! `floors.target` to the `#floors.tpu_target` of that generation (the
//! driver does it for `--target tpu --tpu NAME`; this pass is for lit tests
//! and mlir-opt pipelines).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use crate::{
    contract::TARGET_ATTR,
    ir::raw::sref,
    pass::{FloorsPass, PassFailure},
    target::TpuTarget,
};

#[derive(Clone, Default)]
pub struct TpuAttachTarget {
    tpu: String,
}

impl FloorsPass for TpuAttachTarget {
    const ARGUMENT: &'static str = "floors-tpu-attach-target";
    const NAME: &'static str = "FloorsTpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the TPU generation named by the `tpu` option";
    const OPTIONS: &'static [(&'static str, &'static str)] = &[("tpu", "a TPU generation: v5e, v5p or v6e")];

    fn new() -> Self {
        Self::default()
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![unsafe { DialectHandle::from_raw(crate::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "tpu" => {
                self.tpu = value.to_string();
                Ok(())
            }
            _ => Err(format!("unknown option `{name}`")),
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let name = if self.tpu.is_empty() { "v5e" } else { self.tpu.as_str() };
        let target = TpuTarget::resolve(name).map_err(|e| PassFailure::at(&op, e.to_string().trim_start_matches("error: ").to_string()))?;
        let raw = op.to_raw();
        unsafe {
            let attr = target.to_attribute(mlirOperationGetContext(raw));
            if attr.ptr.is_null() {
                return Err(PassFailure::at(&op, format!("{target:?} is not a valid #floors.tpu_target")));
            }
            mlirOperationSetAttributeByName(raw, sref(TARGET_ATTR), attr);
        }
        Ok(())
    }
}
