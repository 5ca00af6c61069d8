//! The TPU floor: Mosaic kernels in the `tpu` dialect, handed off as
//! `tpu_custom_call`s, run here by the interpreter.

use floors_runtime::{Artifact, Trace, trace};
use melior::ir::Module;

use super::{Floor, FloorKind, Target};
use std::path::{Path, PathBuf};

use crate::{
    Compiler, Stage,
    contract::KERNEL_ATTR,
    error::{Error, Result},
    ir::raw,
    pipelines,
    target::TpuTarget,
};
use floors_hlo::fusion_graph::FusionGraph;

pub struct TpuFloor;

/// The compiler's TPU generation (v5e when the options name another floor).
fn target_of(compiler: &Compiler) -> Result<TpuTarget> {
    match &compiler.options().target {
        Target::Tpu(t) => Ok(t.clone()),
        _ => TpuTarget::resolve("v5e"),
    }
}

impl Floor for TpuFloor {
    fn kind(&self) -> FloorKind {
        FloorKind::Tpu
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage::Tpu, Stage::TpuHandoff, Stage::Thunks]
    }

    fn run_kernel_file(
        &self,
        compiler: &Compiler,
        program: &Path,
        inputs: &[PathBuf],
        output_dir: &Path,
        grid: floors_runtime::tpu::GridOrder,
    ) -> Result<bool> {
        let chip = target_of(compiler)?.chip;
        let generation = floors_runtime::tpu::TpuGeneration::parse(&chip)
            .ok_or_else(|| Error::BadTarget(format!("unknown TPU generation `{chip}` (v4, v5e, v5p, v6e)")))?;
        let mut options = floors_runtime::tpu::TpuRunOptions { generation, ..Default::default() };
        grid.apply(&mut options);
        floors_tpu::import::run_kernel_file(program, inputs, output_dir, &options)
    }

    fn attach_target(&self, compiler: &Compiler, module: &Module<'_>) -> Result<()> {
        let target = target_of(compiler)?;
        super::set_target(module, |ctx| target.to_attribute(ctx), || format!("{target:?} is not a valid TPU target"))
    }

    fn pipeline(&self, stage: Stage) -> String {
        match stage {
            Stage::Linalg => super::after_fusion("floors-linalg-lower-stablehlo"),
            _ => super::after_fusion(pipelines::FLOORS_LOWER_TPU.name),
        }
    }

    /// Pallas' own kernels (`tpu_custom_call`s in the program) become
    /// kernels of the host program.
    fn after_pipeline(&self, compiler: &Compiler, module: &Module<'_>, stage: Stage) -> Result<()> {
        if stage == Stage::Tpu {
            floors_tpu::handoff::import_pallas_calls(compiler.context(), module)?;
        }
        Ok(())
    }

    /// `tpu-handoff`: the fused program with every kernel a `tpu_custom_call`;
    /// `thunks`: the host program the interpreter runs.
    fn output(&self, compiler: &Compiler, name: &str, text: &str, stage: Stage) -> Result<Option<Vec<u8>>> {
        match stage {
            Stage::TpuHandoff => {
                let fused = compiler.compile_module(name, text, Stage::Fused)?;
                let lowered = compiler.compile_module(name, text, Stage::Tpu)?;
                Ok(Some(floors_tpu::handoff::handoff_module(compiler.context(), name, fused, &lowered)?.into_bytes()))
            }
            Stage::Thunks => Ok(Some(crate::run::Program::compile(compiler, name, text)?.executable().to_string().into_bytes())),
            _ => Ok(None),
        }
    }

    /// Per fusion: its kernel's plan, VMEM per buffer, the `cost_estimate`
    /// of its hand-off and the MXU/HBM time on the generation
    /// (`floors_tpu::cost::fusion_report`).
    fn fusion_report(&self, compiler: &Compiler, name: &str, text: &str) -> Result<String> {
        let module = compiler.compile_module(name, text, Stage::Tpu)?;
        Ok(floors_tpu::cost::fusion_report(module.as_operation().to_raw(), &target_of(compiler)?))
    }

    fn compile_artifact(&self, compiler: &Compiler, name: &str, text: &str, trace: Option<&Trace>) -> Result<Artifact> {
        let module = compiler.compile_module_traced(name, text, Stage::Tpu, trace)?;
        trace::phase(trace, "host program and kernels as data", || floors_tpu::artifact::artifact_of_module(&module, name))
    }

    /// Each fusion's Mosaic kernel and its grid (`floors.tpu_plan`).
    fn annotate_graph(&self, compiler: &Compiler, module: &mut Module<'_>, graph: &mut FusionGraph) -> Result<()> {
        self.attach_target(compiler, module)?;
        compiler.run_quiet(module, &format!("builtin.module({})", pipelines::FLOORS_LOWER_TPU.name))?;
        let top = module.as_operation().to_raw();
        let fusions = floors_hlo::fusion_graph::fusion_ops(top);
        if fusions.len() != graph.fusion_count() {
            graph.notes.push(format!("TPU floor: {} kernels for {} fusions; kernels not shown", fusions.len(), graph.fusion_count()));
            return Ok(());
        }
        for (i, &f) in fusions.iter().enumerate() {
            let kernel = raw::str_attr(f, KERNEL_ATTR);
            graph.annotate_fusion(i, format!("tpu: kernel {}", kernel.as_deref().unwrap_or("?")));
        }
        graph.notes.push(format!("TPU floor: {}", target_of(compiler)?.chip));
        Ok(())
    }
}
