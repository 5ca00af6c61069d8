//! `floors-gpu-attach-target{gpu=sm_80|sm_90|sm_90a}`: sets the module's
//! `floors.target` to the `#floors.gpu_target` of that chip's preset (the
//! driver does it for `--target gpu --gpu NAME`; this pass is for lit tests
//! and mlir-opt pipelines). An unsupported chip is an error before any
//! NVVM pass sees it.

use floors_ir::target::{AttachTarget, AttachableTarget, GpuTarget};

/// The pass: the toolkit's target-attaching pass for this floor's target.
pub type GpuAttachTarget = AttachTarget<GpuPinned>;

/// The GPU target as this pass resolves it from its option.
pub struct GpuPinned(GpuTarget);

impl AttachableTarget for GpuPinned {
    const ARGUMENT: &'static str = "floors-gpu-attach-target";
    const NAME: &'static str = "FloorsGpuAttachTarget";
    const DESCRIPTION: &'static str = "Set the module's floors.target to the GPU chip named by the `gpu` option";
    const OPTION: (&'static str, &'static str) = ("gpu", "a CUDA chip: sm_80, sm_90 or sm_90a (default sm_90)");

    fn for_pass(name: &str) -> Result<Self, String> {
        Ok(Self(
            GpuTarget::resolve(if name.is_empty() { "sm_90" } else { name })
                .map_err(|e| e.to_string().trim_start_matches("error: ").to_string())?,
        ))
    }

    fn attribute(&self, ctx: mlir_sys::MlirContext) -> mlir_sys::MlirAttribute {
        self.0.to_attribute(ctx)
    }
}
