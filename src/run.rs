//! `floors run`: compile a program for the CPU floor, run it on `.npy` inputs,
//! write `out0.npy`, `out1.npy`, ... in result order.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use floors_runtime::{Artifact, CustomCallRegistry, Executable, ExecutorOptions, Trace, trace};

use crate::{
    Compiler,
    error::{Error, Result},
    npy,
};

use floors_linalg::linalg_outline_kernels::extract_kernels;

/// A program compiled for the CPU floor: its artifact (host program as
/// data, kernel table, kernel shared object) and the executable the runtime
/// built from it, exactly as `floors-run` would from the artifact's file.
/// Compile once, execute many times (also from several threads at once):
///
/// ```
/// use floors::{Compiler, CompileOptions, npy::{ElementType, HostArray}, run::Program};
///
/// let text = r#"
/// func.func public @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
///   %0 = stablehlo.multiply %a, %b : tensor<4xf32>
///   %1 = stablehlo.add %0, %a : tensor<4xf32>
///   return %1 : tensor<4xf32>
/// }"#;
/// let compiler = Compiler::new(CompileOptions::default())?;
/// let program = Program::compile(&compiler, "axpy.mlir", text)?;
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
/// // The same program, saved and loaded again (on another machine, `floors-run` does this).
/// let path = std::env::temp_dir().join(format!("axpy-{}.floors", std::process::id()));
/// program.save(&path)?;
/// let again = Program::load(&path)?;
/// assert_eq!(again.executable().execute(&inputs, None)?[0], f32s([3.0, 6.0, 9.0, 12.0]));
/// # std::fs::remove_file(&path).ok();
/// # Ok::<(), floors::Error>(())
/// ```
pub struct Program {
    artifact: Artifact,
    executable: Executable,
}

impl Program {
    /// Compiles `text` (named `name` in diagnostics) through `floors-fuse`
    /// and `floors-lower-cpu`, links the kernels into a shared object and
    /// loads it with the runtime.
    pub fn compile(compiler: &Compiler, name: &str, text: &str) -> Result<Self> {
        Self::compile_with_custom_calls(compiler, name, text, Arc::new(CustomCallRegistry::with_builtins()))
    }

    /// [`Program::compile`] with the handlers of the program's
    /// `stablehlo.custom_call` targets: XLA FFI handlers (C handlers from
    /// shared libraries, Rust handlers; see `floors_runtime::ffi`). A target
    /// without one is an error at the call's location before anything runs.
    pub fn compile_with_custom_calls(compiler: &Compiler, name: &str, text: &str, custom_calls: Arc<CustomCallRegistry>) -> Result<Self> {
        Self::compile_traced(compiler, name, text, custom_calls, None)
    }

    /// [`Program::compile_with_custom_calls`], recording the compile phases
    /// (parse, passes, host program, codegen, link, load) on the trace's
    /// `compile` track and every pass on its `compile passes` track.
    pub fn compile_traced(
        compiler: &Compiler,
        name: &str,
        text: &str,
        custom_calls: Arc<CustomCallRegistry>,
        trace: Option<&Trace>,
    ) -> Result<Self> {
        Self::compile_traced_with(compiler, name, text, custom_calls, trace, ExecutorOptions::default())
    }

    /// [`Program::compile_traced`] with runtime options (a GPU artifact on
    /// the simulated device: `floors run --device sim`).
    pub fn compile_traced_with(
        compiler: &Compiler,
        name: &str,
        text: &str,
        custom_calls: Arc<CustomCallRegistry>,
        trace: Option<&Trace>,
        options: ExecutorOptions,
    ) -> Result<Self> {
        let artifact = compile_artifact_traced(compiler, name, text, trace)?;
        trace::phase(trace, "load kernels and build thunks", || Self::from_artifact_with(artifact, name, custom_calls, options))
    }

    /// Loads the runtime side of `artifact`; `origin` names it in errors.
    pub fn from_artifact(artifact: Artifact, origin: &str, custom_calls: Arc<CustomCallRegistry>) -> Result<Self> {
        Self::from_artifact_with(artifact, origin, custom_calls, ExecutorOptions::default())
    }

    /// [`Program::from_artifact`] with runtime options.
    pub fn from_artifact_with(
        artifact: Artifact,
        origin: &str,
        custom_calls: Arc<CustomCallRegistry>,
        options: ExecutorOptions,
    ) -> Result<Self> {
        let executable = artifact.instantiate(origin, custom_calls, options)?;
        Ok(Self { artifact, executable })
    }

    /// Writes the artifact (`.floors`) that `floors-run` and [`Program::load`] run.
    pub fn save(&self, path: &Path) -> Result<()> {
        Ok(self.artifact.write(path)?)
    }

    /// Loads an artifact written by [`Program::save`] (or `floors compile -o`).
    pub fn load(path: &Path) -> Result<Self> {
        Self::load_with_custom_calls(path, Arc::new(CustomCallRegistry::with_builtins()))
    }

    pub fn load_with_custom_calls(path: &Path, custom_calls: Arc<CustomCallRegistry>) -> Result<Self> {
        Self::from_artifact(Artifact::read(path)?, &path.display().to_string(), custom_calls)
    }

    pub fn artifact(&self) -> &Artifact {
        &self.artifact
    }

    pub fn executable(&self) -> &Executable {
        &self.executable
    }

    pub fn into_executable(self) -> Executable {
        self.executable
    }
}

/// The CPU floor end to end: the artifact of `text`. It records the
/// custom-call targets the program needs; their handlers are needed only
/// when it is loaded ([`Program::from_artifact`], `floors-run --ffi-lib`).
pub fn compile_artifact(compiler: &Compiler, name: &str, text: &str) -> Result<Artifact> {
    compile_artifact_traced(compiler, name, text, None)
}

/// [`compile_artifact`], recording its phases into `trace`: the artifact
/// of the compiler's floor ([`crate::floor::Floor::compile_artifact`]).
pub fn compile_artifact_traced(compiler: &Compiler, name: &str, text: &str, trace: Option<&Trace>) -> Result<Artifact> {
    compiler.options().target.floor().compile_artifact(compiler, name, text, trace)
}

/// The artifact of a module the CPU floor has lowered (`floors-lower-cpu`
/// or any pipeline that ends like it); `name` names it in errors.
pub fn artifact_of_module(compiler: &Compiler, module: &melior::ir::Module<'_>, name: &str) -> Result<Artifact> {
    artifact_of_module_traced(compiler, module, name, None)
}

/// [`artifact_of_module`], recording its phases (host program, codegen,
/// link) into `trace`.
pub fn artifact_of_module_traced(
    compiler: &Compiler,
    module: &melior::ir::Module<'_>,
    name: &str,
    trace: Option<&Trace>,
) -> Result<Artifact> {
    floors_cpu::artifact::artifact(module, name, compiler.options().linker(), trace, |target| {
        let kernel_module = extract_kernels(module).ok_or_else(|| Error::Unsupported(format!("{name}: no kernel module was produced")))?;
        trace::phase(trace, "codegen (LLVM -O3, objects)", || {
            floors_cpu::codegen::object_files(&kernel_module, target, floors_cpu::codegen::codegen_threads())
        })
    })
}

/// The whole `floors run` command: PROG is StableHLO (compiled first) or an
/// artifact (`.floors`, run as `floors-run` runs it).
pub fn run(compiler: &Compiler, program: &Path, inputs: &[PathBuf], output_dir: &Path, threads: Option<usize>) -> Result<()> {
    run_traced(compiler, program, inputs, output_dir, threads, None)
}

/// [`run`], writing a Chrome trace-event timeline to `trace_path` when given:
/// the compile phases and passes on their own tracks, reading inputs and
/// writing outputs on the calling thread's, and the execution on the tracks
/// of the threads that ran it (see [`floors_runtime::trace`]).
pub fn run_traced(
    compiler: &Compiler,
    program: &Path,
    inputs: &[PathBuf],
    output_dir: &Path,
    threads: Option<usize>,
    trace_path: Option<&Path>,
) -> Result<()> {
    let registry = Arc::new(CustomCallRegistry::with_builtins());
    run_with_options(compiler, program, inputs, output_dir, threads, trace_path, registry, ExecutorOptions::default()).map(|_| ())
}

/// [`run_traced`] with the handlers of the program's custom calls (what
/// `floors run --ffi-lib` loads into a registry with the built-ins) and
/// runtime options (`--device sim`); returns what the run did on the device
/// when the device counts it.
#[allow(clippy::too_many_arguments)]
pub fn run_with_options(
    compiler: &Compiler,
    program: &Path,
    inputs: &[PathBuf],
    output_dir: &Path,
    threads: Option<usize>,
    trace_path: Option<&Path>,
    registry: Arc<CustomCallRegistry>,
    options: ExecutorOptions,
) -> Result<Option<floors_runtime::program::DeviceCounters>> {
    if is_artifact(program) {
        return Ok(floors_runtime::run_artifact_files_with(program, inputs, output_dir, threads, registry, trace_path, options)?);
    }
    let trace = trace_path.map(|_| Trace::new(format!("floors run {}", program.display())));
    let trace = trace.as_ref();
    let text = crate::source::read_source(program)?;
    // Read and check the inputs before compiling: bad input fails fast.
    let read = || inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<std::result::Result<Vec<_>, _>>();
    let arrays = match trace {
        Some(t) => t.span("io", "read inputs", read),
        None => read(),
    }?;
    let compiled = Program::compile_traced_with(compiler, &program.display().to_string(), &text, registry, trace, options);
    let ran = compiled.and_then(|compiled| {
        if let Some(t) = trace {
            t.set_metadata("program", compiled.artifact().name.clone());
        }
        let pool = floors_runtime::thread_pool(threads)?;
        let outputs = compiled.executable().execute_traced(&arrays, pool.as_ref(), trace)?;
        let write = || floors_runtime::write_outputs(output_dir, &outputs);
        match trace {
            Some(t) => t.span("io", "write outputs", write),
            None => write(),
        }?;
        tracing::info!("wrote {} outputs to {}", outputs.len(), output_dir.display());
        let counters = compiled.executable().device_counters();
        if let (Some(t), Some(c)) = (trace, &counters) {
            t.set_metadata("device", format!("{}\n{}", c.line(), c.table()));
        }
        Ok(counters)
    });
    // A failed compile or run still writes how far it got.
    if let (Some(t), Some(path)) = (trace, trace_path) {
        t.write(path)?;
    }
    ran
}

/// Whether `path` is an artifact: it starts with the artifact magic.
pub fn is_artifact(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && magic == floors_runtime::artifact::MAGIC
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
pub fn random_inputs(specs: &[npy::TensorSpec]) -> Vec<(PathBuf, npy::HostArray)> {
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
                    E::F16 => bytes.extend(half::f16::from_f64(unit).to_bits().to_le_bytes()),
                    E::Bool => bytes.push((r & 1) as u8),
                    t => {
                        let v = r % 8;
                        bytes.extend_from_slice(&v.to_le_bytes()[..t.bytes()]);
                    }
                }
            }
            let arr = npy::HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes: bytes.into() };
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
    let compiled = Program::compile(compiler, &program.display().to_string(), &text)?;
    let compile_s = start.elapsed().as_secs_f64();
    let arrays = if inputs.is_empty() {
        random_inputs(&compiled.executable().parameters())
    } else {
        inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<std::result::Result<Vec<_>, _>>()?
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| Error::Unsupported(format!("cannot start {threads} threads: {e}")))?;
    let pool = (threads > 1).then_some(&pool);
    let mut last = Vec::new();
    // Each run writes into the previous run's result buffers (as XLA's and
    // IREE's caching allocators reuse theirs), so the timing is the program,
    // not page faults on fresh outputs.
    for _ in 0..warmup {
        last = compiled.executable().execute_reusing(&arrays, pool, std::mem::take(&mut last))?;
    }
    let mut times = Vec::with_capacity(reps.max(1));
    for _ in 0..reps.max(1) {
        let t = std::time::Instant::now();
        last = compiled.executable().execute_reusing(&arrays, pool, std::mem::take(&mut last))?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    if let Some(dir) = output_dir {
        floors_runtime::write_outputs(dir, &last)?;
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
