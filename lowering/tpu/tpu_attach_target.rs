//! `floors-tpu-attach-target{tpu=v5e|v5p|v6e}`: sets the module's
//! `floors.target` to the `#floors.tpu_target` of that generation (the
//! driver does it for `--target tpu --tpu NAME`; this pass is for lit tests
//! and mlir-opt pipelines).

use floors_ir::target::{AttachTarget, AttachableTarget, TpuTarget};

/// The pass: the toolkit's target-attaching pass for this floor's target.
pub type TpuAttachTarget = AttachTarget<TpuPinned>;

/// The TPU target as this pass resolves it from its option.
pub struct TpuPinned(TpuTarget);

impl AttachableTarget for TpuPinned {
    const ARGUMENT: &'static str = "floors-tpu-attach-target";
    const NAME: &'static str = "FloorsTpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the TPU generation named by the `tpu` option";
    const OPTION: (&'static str, &'static str) = ("tpu", "a TPU generation: v5e, v5p or v6e (default v5e)");

    fn for_pass(name: &str) -> Result<Self, String> {
        Ok(Self(
            TpuTarget::resolve(if name.is_empty() { "v5e" } else { name })
                .map_err(|e| e.to_string().trim_start_matches("error: ").to_string())?,
        ))
    }

    fn attribute(&self, ctx: mlir_sys::MlirContext) -> mlir_sys::MlirAttribute {
        self.0.to_attribute(ctx)
    }
}
