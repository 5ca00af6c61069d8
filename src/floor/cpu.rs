//! The CPU floor: LLVM → machine code for a host CPU, run by the thunk
//! runtime from a shared object.

use floors_runtime::{Artifact, Trace, trace};
use melior::ir::Module;

use super::{Floor, FloorKind};
use crate::{
    Compiler, Stage,
    contract::{GRID_ATTR, KERNEL_ATTR},
    error::{Error, Result},
    ir::raw,
    pipelines,
    target::CpuTarget,
};
use floors_hlo::fusion_graph::FusionGraph;
use floors_linalg::linalg_outline_kernels::extract_kernels;

pub struct CpuFloor;

impl Floor for CpuFloor {
    fn kind(&self) -> FloorKind {
        FloorKind::Cpu
    }

    fn stages(&self) -> &'static [Stage] {
        &[Stage::Llvm, Stage::LlvmIr, Stage::Obj, Stage::Thunks]
    }

    /// The options' CPU, else the one the module already names, else the host's.
    fn attach_target(&self, compiler: &Compiler, module: &Module<'_>) -> Result<()> {
        let op = module.as_operation().to_raw();
        let target = match compiler.options().target.cpu() {
            Some(t) => t.clone(),
            None if CpuTarget::of_operation(op).is_some() => return Ok(()),
            None => CpuTarget::resolve("host")?,
        };
        super::set_target(module, |ctx| target.to_attribute(ctx), || format!("{target:?} is not a valid CPU target"))
    }

    fn pipeline(&self, stage: Stage) -> String {
        match stage {
            Stage::Linalg => super::after_fusion("floors-linalg-lower-stablehlo"),
            _ => super::after_fusion(pipelines::FLOORS_LOWER_CPU.name),
        }
    }

    /// LLVM IR or an object file of the kernel module, for the module's target.
    fn translate(&self, module: &Module<'_>, stage: Stage) -> Result<Vec<u8>> {
        let kernels = || extract_kernels(module).ok_or_else(|| Error::Unsupported("the module has no kernel module".into()));
        let target = || {
            CpuTarget::of_operation(module.as_operation().to_raw())
                .ok_or_else(|| Error::Unsupported("the module has no floors.target (internal)".into()))
        };
        match stage {
            Stage::LlvmIr => Ok(floors_cpu::codegen::llvm_ir(&kernels()?, &target()?)?.into_bytes()),
            Stage::Obj => floors_cpu::codegen::object_file(&kernels()?, &target()?),
            _ => Ok(crate::ir::print_op(&module.as_operation()).into_bytes()),
        }
    }

    fn output(&self, compiler: &Compiler, name: &str, text: &str, stage: Stage) -> Result<Option<Vec<u8>>> {
        if stage != Stage::Thunks {
            return Ok(None);
        }
        let program = crate::run::Program::compile(compiler, name, text)?;
        Ok(Some(program.executable().to_string().into_bytes()))
    }

    fn compile_artifact(&self, compiler: &Compiler, name: &str, text: &str, trace: Option<&Trace>) -> Result<Artifact> {
        if compiler.options().dump.is_none() && trace.is_none() {
            // Kernels lowered and compiled in parts on all cores; dumps and
            // traces show the whole module pass by pass, so they take the
            // serial pipeline below (the same passes on every kernel).
            let mut module = trace::phase(None, "parse", || compiler.parse(name, text))?;
            self.attach_target(compiler, &module)?;
            let outline = format!("builtin.module({},{})", pipelines::FLOORS_FUSE.name, pipelines::CPU_KERNEL_OUTLINE);
            trace::phase(None, "passes (fuse, outline kernels)", || compiler.run_quiet(&mut module, &outline))?;
            return floors_cpu::artifact::artifact(&module, name, compiler.options().linker(), None, |target| {
                trace::phase(None, "kernel parts (floors-cpu-kernels-to-llvm, codegen)", || {
                    compiler.lower_kernels_in_parts(&module, floors_cpu::codegen::codegen_threads(), |part| {
                        floors_cpu::codegen::object_file(part, target)
                    })
                })
            });
        }
        let module = compiler.compile_module_traced(name, text, Stage::Llvm, trace)?;
        crate::run::artifact_of_module_traced(compiler, &module, name, trace)
    }

    /// Each fusion's kernel and, when split, its workgroup grid, read from
    /// the host program after kernel outlining (`floors.kernel`,
    /// `floors.grid` on the fusion ops, which stay in place and in order).
    fn annotate_graph(&self, compiler: &Compiler, module: &mut Module<'_>, graph: &mut FusionGraph) -> Result<()> {
        self.attach_target(compiler, module)?;
        compiler.run_quiet(module, "builtin.module(floors-linalg-lower-stablehlo,floors-linalg-outline-kernels)")?;
        let top = module.as_operation().to_raw();
        let fusions = floors_hlo::fusion_graph::fusion_ops(top);
        if fusions.len() != graph.fusion_count() {
            graph.notes.push(format!("CPU floor: {} kernels for {} fusions; kernels not shown", fusions.len(), graph.fusion_count()));
            return Ok(());
        }
        for (i, &f) in fusions.iter().enumerate() {
            let kernel = raw::str_attr(f, KERNEL_ATTR);
            let grid = raw::int_attr(f, GRID_ATTR).unwrap_or(1);
            let mut line = format!("cpu: kernel {}", kernel.as_deref().unwrap_or("?"));
            if grid > 1 {
                line.push_str(&format!(", {grid} workgroups"));
            }
            graph.annotate_fusion(i, line);
        }
        let target = CpuTarget::of_operation(top);
        let workgroups = compiler.options().workgroups.max(1);
        let target = target.map_or_else(|| "host".to_string(), |t| format!("{} ({} vector bits)", t.cpu, t.vector_bits));
        graph.notes.push(match workgroups {
            1 => format!("CPU floor: {target}, kernels not split (--workgroups 1)"),
            n => format!("CPU floor: {target}, kernels split into up to {n} workgroups"),
        });
        Ok(())
    }
}
