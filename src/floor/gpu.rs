//! The GPU floor: one emitter per fusion in XLA's priority order, dots as
//! cuBLAS calls or floors' own GEMMs, PTX, launches on CUDA streams.

use floors_runtime::{Artifact, Trace, trace};
use melior::ir::Module;

use super::{Floor, FloorKind, Target};
use crate::{
    Compiler, Stage,
    contract::{GPU_GEMM_MODE_ATTR, LIBRARY_CALL_ATTR, TARGET_ATTR},
    error::{Error, Result},
    ir::raw,
    pipelines,
    target::GpuTarget,
};
use floors_gpu::{GemmMode, plan::EmitterPlan};
use floors_hlo::fusion_graph::FusionGraph;

pub struct GpuFloor;

/// The compiler's GPU target and GEMM mode (sm_90, auto when the options
/// name another floor).
fn target_of(compiler: &Compiler) -> Result<(GpuTarget, GemmMode)> {
    match &compiler.options().target {
        Target::Gpu { target, gemm } => Ok((target.clone(), *gemm)),
        _ => Ok((GpuTarget::resolve("sm_90")?, GemmMode::Auto)),
    }
}

impl Floor for GpuFloor {
    fn kind(&self) -> FloorKind {
        FloorKind::Gpu
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage::Gpu, Stage::Ptx, Stage::Thunks]
    }

    /// The device, and who computes dots when not `auto`
    /// (`floors.gpu_gemm_mode`).
    fn attach_target(&self, compiler: &Compiler, module: &Module<'_>) -> Result<()> {
        let op = module.as_operation().to_raw();
        let (target, gemm) = target_of(compiler)?;
        // SAFETY: `op` is the live module; the attributes belong to its context.
        unsafe {
            let ctx = mlir_sys::mlirOperationGetContext(op);
            let attr = target.to_attribute(ctx);
            if attr.ptr.is_null() {
                return Err(Error::BadTarget(format!("{} is not a valid GPU target", target.to_text())));
            }
            mlir_sys::mlirOperationSetAttributeByName(op, raw::sref(TARGET_ATTR), attr);
            if gemm != GemmMode::Auto {
                let mode = mlir_sys::mlirStringAttrGet(ctx, raw::sref(gemm.name()));
                mlir_sys::mlirOperationSetAttributeByName(op, raw::sref(GPU_GEMM_MODE_ATTR), mode);
            }
        }
        Ok(())
    }

    fn pipeline(&self, stage: Stage) -> String {
        match stage {
            Stage::Linalg => super::after_fusion("floors-linalg-lower-stablehlo"),
            Stage::Gpu => super::after_fusion(&format!(
                "floors-gpu-rewrite-gemm,floors-gpu-select-emitter,floors-linalg-lower-stablehlo,floors-linalg-outline-kernels,builtin.module({})",
                pipelines::FLOORS_GPU_KERNELS_TO_GPU.name
            )),
            _ => super::after_fusion(pipelines::FLOORS_LOWER_GPU.name),
        }
    }

    /// The PTX of every kernel, one `// kernel MODULE` header per `gpu.module`.
    fn translate(&self, module: &Module<'_>, stage: Stage) -> Result<Vec<u8>> {
        if stage != Stage::Ptx {
            return Ok(crate::ir::print_op(&module.as_operation()).into_bytes());
        }
        let mut out = String::new();
        let ptx = floors_gpu::artifact::ptx_of_module(module)?;
        if ptx.is_empty() {
            out.push_str("// no kernels: every fusion is a library call (--emit thunks shows them)\n");
        }
        for (name, ptx) in ptx {
            out.push_str(&format!("// kernel {name}\n{ptx}\n"));
        }
        Ok(out.into_bytes())
    }

    /// `thunks`: the host program and its launches, from the artifact (no
    /// GPU is needed to list them).
    fn output(&self, compiler: &Compiler, name: &str, text: &str, stage: Stage) -> Result<Option<Vec<u8>>> {
        if stage != Stage::Thunks {
            return Ok(None);
        }
        let artifact = self.compile_artifact(compiler, name, text, None)?;
        Ok(Some(floors_gpu::artifact::describe_program(&artifact).into_bytes()))
    }

    /// The fusions with each one's emitter, launches, registers and shared
    /// memory (from ptxas when the test venv has it).
    fn fusion_report(&self, compiler: &Compiler, name: &str, text: &str) -> Result<String> {
        let module = compiler.compile_module(name, text, Stage::Ptx)?;
        floors_gpu::artifact::fusion_report(&module, &target_of(compiler)?.0.chip())
    }

    fn compile_artifact(&self, compiler: &Compiler, name: &str, text: &str, trace: Option<&Trace>) -> Result<Artifact> {
        let module = compiler.compile_module_traced(name, text, Stage::Ptx, trace)?;
        trace::phase(trace, "host program and PTX", || floors_gpu::artifact::artifact_of_module(&module, name))
    }

    /// Each fusion's emitter, as `floors-gpu-select-emitter` chooses it.
    fn annotate_graph(&self, compiler: &Compiler, module: &mut Module<'_>, graph: &mut FusionGraph) -> Result<()> {
        self.attach_target(compiler, module)?;
        compiler.run_quiet(module, "builtin.module(floors-gpu-rewrite-gemm,floors-gpu-select-emitter)")?;
        let top = module.as_operation().to_raw();
        let fusions = floors_hlo::fusion_graph::fusion_ops(top);
        if fusions.len() != graph.fusion_count() {
            graph.notes.push(format!("GPU floor: {} kernels for {} fusions; emitters not shown", fusions.len(), graph.fusion_count()));
            return Ok(());
        }
        for (i, &f) in fusions.iter().enumerate() {
            graph.annotate_fusion(i, format!("gpu: {}", emitter_of(f)));
        }
        let (target, _) = target_of(compiler)?;
        graph.notes.push(format!("GPU floor: {}", target.chip()));
        Ok(())
    }
}

/// A fusion's emitter and launch as `floors-gpu-select-emitter` recorded
/// them, or the library call that computes it.
fn emitter_of(f: mlir_sys::MlirOperation) -> String {
    if raw::attr(f, LIBRARY_CALL_ATTR).is_some() {
        return "library call (cuBLAS GEMM)".into();
    }
    match EmitterPlan::of_fusion(f) {
        Some(p) => format!("{} emitter, grid {:?} block {:?}", p.kind, p.grid, p.block),
        None => "no emitter recorded".into(),
    }
}
