//! The floors behind one interface, the shape of IREE's `TargetBackend` and
//! Triton's backend stages: the compile options name a [`Target`] (frozen
//! data, resolved before anything is parsed), the target gives its
//! [`Floor`], and the driver asks the floor — never "is this the GPU?" —
//! to record the target on a module, for the pipeline up to one of its
//! stages, to print a stage, to serialize a program into an artifact, and to
//! annotate the fusion graph. Each floor's implementation is in
//! `src/floor/<floor>.rs`, next to nothing of the others.

mod cpu;
mod gpu;
mod tpu;

use std::path::{Path, PathBuf};

use floors_runtime::{Artifact, Trace};
use melior::ir::Module;

pub use cpu::CpuFloor;
pub use gpu::GpuFloor;
pub use tpu::TpuFloor;

use mlir_sys::{MlirAttribute, MlirContext, mlirOperationGetContext, mlirOperationSetAttributeByName};

use crate::{
    Compiler, Stage,
    contract::TARGET_ATTR,
    error::{Error, Result},
    ir::raw,
    target::{CpuTarget, GpuTarget, TpuTarget},
};

use floors_gpu::GemmMode;

use floors_hlo::fusion_graph::FusionGraph;

/// Which floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloorKind {
    Cpu,
    Gpu,
    Tpu,
}

impl FloorKind {
    /// As `--target` spells it.
    pub fn name(self) -> &'static str {
        match self {
            FloorKind::Cpu => "cpu",
            FloorKind::Gpu => "gpu",
            FloorKind::Tpu => "tpu",
        }
    }
}

/// The floor a compile is for, with its target.
#[derive(Clone, Debug)]
pub enum Target {
    /// The CPU floor; None: the host, resolved when a stage below fusion
    /// needs it (the fused module stays target-neutral).
    Cpu(Option<CpuTarget>),
    /// The GPU floor for `target`; `gemm`: who computes dots (`--gpu-gemm`).
    Gpu { target: GpuTarget, gemm: GemmMode },
    /// The TPU floor for a chip generation.
    Tpu(TpuTarget),
}

impl Default for Target {
    fn default() -> Self {
        Target::Cpu(None)
    }
}

impl Target {
    /// The floor that compiles for this target.
    pub fn floor(&self) -> &'static dyn Floor {
        match self {
            Target::Cpu(_) => &CpuFloor,
            Target::Gpu { .. } => &GpuFloor,
            Target::Tpu(_) => &TpuFloor,
        }
    }

    pub fn kind(&self) -> FloorKind {
        self.floor().kind()
    }

    /// The CPU target, when this is the CPU floor with one named.
    pub fn cpu(&self) -> Option<&CpuTarget> {
        match self {
            Target::Cpu(t) => t.as_ref(),
            _ => None,
        }
    }
}

/// What a floor does for the driver.
pub trait Floor: Sync {
    fn kind(&self) -> FloorKind;

    /// The stages below fusion this floor produces (`--emit`), the first
    /// being what `floors compile --target <floor>` prints by default.
    fn stages(&self) -> &'static [Stage];

    /// Records the compiler's target on a parsed module (`floors.target`,
    /// and the floor's module options): every pass below fusion reads it.
    fn attach_target(&self, compiler: &Compiler, module: &Module<'_>) -> Result<()>;

    /// The pipeline that takes a parsed module to `stage`, one of
    /// [`Floor::stages`] (or the shared `linalg` level).
    fn pipeline(&self, stage: Stage) -> String;

    /// Work on the module after the pipeline to `stage` (none by default).
    fn after_pipeline(&self, _compiler: &Compiler, _module: &Module<'_>, _stage: Stage) -> Result<()> {
        Ok(())
    }

    /// What `--emit stage` prints of a compiled module, for stages whose
    /// output is not the IR (an object file, LLVM IR, PTX).
    fn translate(&self, module: &Module<'_>, stage: Stage) -> Result<Vec<u8>> {
        let _ = stage;
        Ok(crate::ir::print_op(&module.as_operation()).into_bytes())
    }

    /// The output of a stage that is not a compiled module (the thunk
    /// listing, the TPU hand-off); None: compile the module and translate.
    fn output(&self, compiler: &Compiler, name: &str, text: &str, stage: Stage) -> Result<Option<Vec<u8>>> {
        let _ = (compiler, name, text, stage);
        Ok(None)
    }

    /// Runs `program` when it is a kernel in this floor's own IR (a Mosaic
    /// kernel module on the TPU floor), with no compile: Ok(false) when it is
    /// not one (it is then compiled and run as a program).
    fn run_kernel_file(
        &self,
        compiler: &Compiler,
        program: &Path,
        inputs: &[PathBuf],
        output_dir: &Path,
        grid: floors_runtime::tpu::GridOrder,
    ) -> Result<bool> {
        let _ = (compiler, program, inputs, output_dir, grid);
        Ok(false)
    }

    /// The program compiled into an artifact the runtime loads.
    fn compile_artifact(&self, compiler: &Compiler, name: &str, text: &str, trace: Option<&Trace>) -> Result<Artifact>;

    /// What `--fusion-report` prints: the fusions of the fused program (the
    /// GPU floor adds each fusion's emitter and launches).
    fn fusion_report(&self, compiler: &Compiler, name: &str, text: &str) -> Result<String> {
        let module = compiler.compile_module(name, text, Stage::Fused)?;
        Ok(Compiler::fusion_report(&module).to_string())
    }

    /// Adds this floor's view to the fusion graph of the fused `module`:
    /// each fusion's kernel(s), and notes.
    fn annotate_graph(&self, compiler: &Compiler, module: &mut Module<'_>, graph: &mut FusionGraph) -> Result<()>;
}

/// Records the target attribute `make` builds in the module's context as
/// its `floors.target`; `invalid` names the target when the attribute does
/// not verify (`make` returned null).
fn set_target(module: &Module<'_>, make: impl FnOnce(MlirContext) -> MlirAttribute, invalid: impl FnOnce() -> String) -> Result<()> {
    let op = module.as_operation().to_raw();
    // SAFETY: `op` is the live module; the attribute belongs to its context.
    let attr = make(unsafe { mlirOperationGetContext(op) });
    if attr.ptr.is_null() {
        return Err(Error::BadTarget(invalid()));
    }
    // SAFETY: as above.
    unsafe { mlirOperationSetAttributeByName(op, raw::sref(TARGET_ATTR), attr) };
    Ok(())
}

/// `floors-fuse`, then `rest` (a floor's lowering), as one pipeline.
fn after_fusion(rest: &str) -> String {
    format!("builtin.module({},{rest})", crate::pipelines::FLOORS_FUSE.name)
}

/// Whether `stage` can be produced for `target`: a floor stage must be the
/// target's floor's; `thunks` is every floor's (the host program).
pub fn check_stage(target: &Target, stage: Stage) -> Result<()> {
    let floor = target.floor();
    match stage.floor() {
        Some(kind) if kind != floor.kind() => Err(Error::BadTarget(format!(
            "--emit {} is a {} floor stage; with --target {} use --emit {}",
            stage.name(),
            kind.name().to_uppercase(),
            floor.kind().name(),
            floor.stages().iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
        ))),
        _ => Ok(()),
    }
}
