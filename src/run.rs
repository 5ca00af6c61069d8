//! `floors run`: compile a program for the CPU floor, run it on `.npy` inputs,
//! write `out0.npy`, `out1.npy`, ... in result order.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use crate::{
    Compiler, Stage,
    error::{Error, Result},
    executable::CpuExecutable,
    ir::raw,
    jit::CompiledKernels,
    lowering::cpu::cpu_outline_kernels::extract_kernels,
    npy,
    runtime::thunk::CustomCallRegistry,
};

/// A program compiled for the CPU floor: the thunk sequence and the JIT'd
/// kernels it calls (kept alive together). Compile once, execute many times
/// (also from several threads at once):
///
/// ```
/// use floors::{Compiler, CompileOptions, npy::{ElementType, HostArray}, run::CpuProgram};
///
/// let text = r#"
/// func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
///   %0 = stablehlo.multiply %a, %b : tensor<4xf32>
///   %1 = stablehlo.add %0, %a : tensor<4xf32>
///   return %1 : tensor<4xf32>
/// }"#;
/// let compiler = Compiler::new(CompileOptions::default())?;
/// let program = CpuProgram::compile(&compiler, "axpy.mlir", text)?;
/// let f32s = |v: [f32; 4]| HostArray {
///     element_type: ElementType::F32,
///     shape: vec![4],
///     bytes: v.iter().flat_map(|x| x.to_le_bytes()).collect(),
/// };
/// let inputs = vec![("a".into(), f32s([1.0, 2.0, 3.0, 4.0])), ("b".into(), f32s([2.0; 4]))];
/// for _ in 0..3 {
///     let out = program.executable().execute(&inputs, None)?;
///     assert_eq!(out[0], f32s([3.0, 6.0, 9.0, 12.0]));
/// }
/// # Ok::<(), floors::Error>(())
/// ```
pub struct CpuProgram {
    executable: CpuExecutable,
    _kernels: CompiledKernels,
}

impl CpuProgram {
    /// Compiles `text` (named `name` in diagnostics) through `floors-fuse`
    /// and `floors-lower-cpu`, JITs the kernels and builds the thunks of `@main`.
    pub fn compile(compiler: &Compiler, name: &str, text: &str) -> Result<Self> {
        Self::compile_with_custom_calls(compiler, name, text, Arc::new(CustomCallRegistry::with_builtins()))
    }

    /// [`CpuProgram::compile`] with the handlers of the program's
    /// `stablehlo.custom_call` targets (the registry seam; the versioned C
    /// ABI for handlers is a later step).
    pub fn compile_with_custom_calls(compiler: &Compiler, name: &str, text: &str, custom_calls: Arc<CustomCallRegistry>) -> Result<Self> {
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
        let executable = CpuExecutable::build_with_custom_calls(main, &move |n: &str| k.kernel(n), custom_calls)?;
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

/// What `floors bench` measured.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub program: String,
    pub compile_s: f64,
    pub median_ms: f64,
    pub min_ms: f64,
    pub reps: usize,
    pub threads: usize,
}

impl BenchResult {
    /// One line of JSON (what `scripts/bench.py` reads).
    pub fn to_json(&self) -> String {
        format!(
            "{{\"program\": \"{}\", \"compile_s\": {:.6}, \"median_ms\": {:.6}, \"min_ms\": {:.6}, \"reps\": {}, \"threads\": {}}}",
            self.program.replace('\\', "\\\\").replace('"', "\\\""),
            self.compile_s,
            self.median_ms,
            self.min_ms,
            self.reps,
            self.threads
        )
    }
}

/// Deterministic inputs for a signature: f32/f64 uniform in [-1, 1), integers
/// in [0, 8), bools alternating — reproducible across runs and machines.
pub fn random_inputs(specs: &[crate::npy::TensorSpec]) -> Vec<(PathBuf, npy::HostArray)> {
    use crate::npy::ElementType as E;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let n = spec.shape.iter().product::<u64>() as usize;
            let mut bytes = Vec::with_capacity(n * spec.element_type.bytes());
            for _ in 0..n {
                let r = next();
                let unit = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
                match spec.element_type {
                    E::F32 => bytes.extend((unit as f32).to_le_bytes()),
                    E::F64 => bytes.extend(unit.to_le_bytes()),
                    E::Bf16 => bytes.extend((((unit as f32).to_bits() >> 16) as u16).to_le_bytes()),
                    E::Bool => bytes.push((r & 1) as u8),
                    t => {
                        let v = r % 8;
                        bytes.extend_from_slice(&v.to_le_bytes()[..t.bytes()]);
                    }
                }
            }
            let arr = npy::HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes };
            (PathBuf::from(format!("<random input {i}>")), arr)
        })
        .collect()
}

/// The whole `floors bench` command: compile, warm up, time `reps` runs.
#[allow(clippy::too_many_arguments)]
pub fn bench(
    compiler: &Compiler,
    program: &Path,
    inputs: &[PathBuf],
    output_dir: Option<&Path>,
    threads: usize,
    warmup: usize,
    reps: usize,
) -> Result<BenchResult> {
    let text = crate::source::read_source(program)?;
    let start = std::time::Instant::now();
    let compiled = CpuProgram::compile(compiler, &program.display().to_string(), &text)?;
    let compile_s = start.elapsed().as_secs_f64();
    let arrays = if inputs.is_empty() {
        random_inputs(&compiled.executable().parameters())
    } else {
        inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start {threads} threads: {e}")))?;
    let pool = (threads > 1).then_some(&pool);
    let mut last = Vec::new();
    for _ in 0..warmup {
        last = compiled.executable().execute(&arrays, pool)?;
    }
    let mut times = Vec::with_capacity(reps.max(1));
    for _ in 0..reps.max(1) {
        let t = std::time::Instant::now();
        last = compiled.executable().execute(&arrays, pool)?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    if let Some(dir) = output_dir {
        std::fs::create_dir_all(dir).map_err(|source| Error::Io { path: dir.into(), source })?;
        for (i, out) in last.iter().enumerate() {
            npy::write(&dir.join(format!("out{i}.npy")), out)?;
        }
    }
    Ok(BenchResult {
        program: program.display().to_string(),
        compile_s,
        median_ms: times[times.len() / 2],
        min_ms: times[0],
        reps: times.len(),
        threads: threads.max(1),
    })
}
