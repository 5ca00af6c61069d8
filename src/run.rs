//! `floors run`: compile a program for the CPU floor, run it on `.npy` inputs,
//! write `out0.npy`, `out1.npy`, ... in result order.

use std::path::{Path, PathBuf};

use crate::{
    Compiler, Stage,
    error::{Error, Result},
    executable::CpuExecutable,
    ir::raw,
    jit::CompiledKernels,
    lowering::cpu::cpu_outline_kernels::extract_kernels,
    npy,
};

/// A program compiled for the CPU floor: the thunk sequence and the JIT'd
/// kernels it calls (kept alive together).
pub struct CpuProgram {
    executable: CpuExecutable,
    _kernels: CompiledKernels,
}

impl CpuProgram {
    /// Compiles `text` (named `name` in diagnostics) through `floors-fuse`
    /// and `floors-lower-cpu`, JITs the kernels and builds the thunks of `@main`.
    pub fn compile(compiler: &Compiler, name: &str, text: &str) -> Result<Self> {
        let module = compiler.compile_module(name, text, Stage::Llvm)?;
        let kernel_module =
            extract_kernels(&module).ok_or_else(|| Error::Unsupported(format!("{name}: no kernel module was produced")))?;
        let kernels = CompiledKernels::new(&kernel_module)?;
        let top = module.as_operation().to_raw();
        let main = raw::region_blocks(top)
            .into_iter()
            .flat_map(raw::block_ops)
            .find(|&o| {
                raw::name(o) == "func.func"
                    && raw::attr(o, "sym_name")
                        .is_some_and(|a| raw::string(unsafe { mlir_sys::mlirStringAttrGetValue(a) }) == "main")
            })
            .ok_or_else(|| Error::Unsupported(format!("{name}: the program has no @main function")))?;
        let k = kernels.clone();
        let executable = CpuExecutable::build(main, &move |n: &str| k.kernel(n))?;
        Ok(Self { executable, _kernels: kernels })
    }

    pub fn executable(&self) -> &CpuExecutable {
        &self.executable
    }
}

/// The whole `floors run` command.
pub fn run(
    compiler: &Compiler,
    program: &Path,
    inputs: &[PathBuf],
    output_dir: &Path,
    threads: Option<usize>,
) -> Result<()> {
    let text = crate::source::read_source(program)?;
    // Read and check the inputs before compiling: bad input fails fast.
    let arrays = inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?;
    let compiled = CpuProgram::compile(compiler, &program.display().to_string(), &text)?;
    let pool = match threads {
        Some(n) if n > 1 => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| Error::Unsupported(format!("cannot start {n} threads: {e}")))?,
        ),
        _ => None,
    };
    let outputs = compiled.executable().execute(&arrays, pool.as_ref())?;
    std::fs::create_dir_all(output_dir).map_err(|source| Error::Io { path: output_dir.into(), source })?;
    for (i, out) in outputs.iter().enumerate() {
        npy::write(&output_dir.join(format!("out{i}.npy")), out)?;
    }
    tracing::info!("wrote {} outputs to {}", outputs.len(), output_dir.display());
    Ok(())
}
