//! `floors run`: compile a program for the CPU floor, run it on `.npy` inputs,
//! write `out0.npy`, `out1.npy`, ... in result order.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use floors_runtime::{Artifact, CustomCallRegistry, Executable, ExecutorOptions, KernelCode, Target, Trace, trace};

use crate::{
    Compiler,
    error::{Error, Result},
    ir::raw,
    lowering::linalg::linalg_outline_kernels::extract_kernels,
    npy,
    target::CpuTarget,
};

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
        let artifact = compile_artifact_traced(compiler, name, text, trace)?;
        trace::phase(trace, "load kernels and build thunks", || Self::from_artifact(artifact, name, custom_calls))
    }

    /// Loads the runtime side of `artifact`; `origin` names it in errors.
    pub fn from_artifact(artifact: Artifact, origin: &str, custom_calls: Arc<CustomCallRegistry>) -> Result<Self> {
        let executable = artifact.instantiate(origin, custom_calls, ExecutorOptions::default())?;
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

/// The `@main` function of a compiled module.
fn main_of(top: mlir_sys::MlirOperation, name: &str) -> Result<mlir_sys::MlirOperation> {
    raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| {
            raw::name(o) == "func.func"
                && raw::attr(o, "sym_name").is_some_and(|a| raw::string(unsafe { mlir_sys::mlirStringAttrGetValue(a) }) == "main")
        })
        .ok_or_else(|| Error::Unsupported(format!("{name}: the program has no @main function")))
}

/// The artifact of a module the TPU floor has lowered (`floors-lower-tpu`):
/// the host program, and every Mosaic kernel module as data for the
/// runtime's interpreter.
pub fn tpu_artifact_of_module(module: &melior::ir::Module<'_>, name: &str) -> Result<Artifact> {
    let top = module.as_operation().to_raw();
    let target = crate::target::TpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no TPU target (internal)")))?;
    let main = main_of(top, name)?;
    let (program, kernels) = crate::source::with_big_stack(|| crate::host_program::build(main))?;
    let container = raw::region_blocks(top)
        .into_iter()
        .flat_map(raw::block_ops)
        .find(|&o| crate::lowering::tpu::is_kernel_container(o))
        .ok_or_else(|| Error::Unsupported(format!("{name}: no TPU kernel module was produced")))?;
    let mut code = Vec::new();
    for m in raw::region_blocks(container).into_iter().flat_map(raw::block_ops) {
        let kname = raw::attr(m, "sym_name").map(|a| raw::string(unsafe { mlir_sys::mlirStringAttrGetValue(a) })).unwrap_or_default();
        code.push((kname, crate::tpu_import::import_kernel(m)?));
    }
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: format!("floors {}", env!("CARGO_PKG_VERSION")),
        name: crate::driver::module_name(module, name),
        target: Target::Tpu { generation: target.chip.clone() },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::TpuKernels(code),
    })
}

/// The artifact of a module the GPU floor has lowered (`floors-lower-gpu`):
/// the host program, and per kernel of the kernel table its PTX (one
/// `gpu.module` per fusion, one entry per launch) with the launches from the
/// manifest `floors.gpu_kernels`; temporaries between a kernel's launches
/// (`tmpK` in the manifest) become the module's `temps`.
pub fn gpu_artifact_of_module(module: &melior::ir::Module<'_>, name: &str) -> Result<Artifact> {
    use floors_runtime::artifact::{PtxArg, PtxLaunch, PtxModule};
    let top = module.as_operation().to_raw();
    let target = crate::target::GpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no GPU target (internal)")))?;
    let main = main_of(top, name)?;
    let (program, kernels) = crate::source::with_big_stack(|| crate::host_program::build(main))?;
    let ptx = crate::gpu::ptx_of_module(module)?;
    let manifest = crate::gpu::manifest_of_module(module)?;
    let mut code = Vec::new();
    for k in &kernels {
        let entry = manifest
            .iter()
            .find(|m| m.fusion == k.name)
            .ok_or_else(|| Error::Unsupported(format!("{name}: kernel {} has no GPU manifest entry (internal)", k.name)))?;
        let mut launches = Vec::new();
        let mut text = None;
        for l in &entry.launches {
            let mut args = Vec::new();
            for a in &l.args {
                let (kind, i) = a.split_at(a.find(|c: char| c.is_ascii_digit()).unwrap_or(a.len()));
                // A launch argument names a buffer exactly (`in0`, `out1`,
                // `tmp2`); anything else is an internal error, never buffer 0.
                let Ok(i) = i.parse::<u32>() else {
                    return Err(Error::Unsupported(format!("{name}: kernel {} has a launch argument `{a}` (internal)", k.name)));
                };
                args.push(match kind {
                    "in" => PtxArg::Buffer(i),
                    "out" => PtxArg::Buffer(k.args.iter().filter(|a| !a.output).count() as u32 + i),
                    "tmp" if (i as usize) < entry.temps.len() => PtxArg::Temp(i),
                    _ => {
                        return Err(Error::Unsupported(format!("{name}: kernel {} has a launch argument `{a}` (internal)", k.name)));
                    }
                });
            }
            text = ptx.iter().find(|(m, _)| *m == l.module).map(|(_, t)| t.clone());
            launches.push(PtxLaunch {
                function: l.entry.clone(),
                grid: l.grid.map(|v| v as u32),
                block: l.block.map(|v| v as u32),
                shared_memory_bytes: 0,
                args,
            });
        }
        let ptx = text.ok_or_else(|| Error::Unsupported(format!("{name}: kernel {} has no PTX (internal)", k.name)))?;
        let temps = entry.temps.iter().map(|&b| b.max(0) as u64).collect();
        code.push(PtxModule { kernel: k.name.clone(), ptx, launches, temps });
    }
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: format!("floors {}", env!("CARGO_PKG_VERSION")),
        name: crate::driver::module_name(module, name),
        target: Target::Gpu { chip: target.chip(), device: target.device.clone() },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::Ptx(code),
    })
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
    cpu_artifact(compiler, module, name, trace, |target| {
        let kernel_module = extract_kernels(module).ok_or_else(|| Error::Unsupported(format!("{name}: no kernel module was produced")))?;
        trace::phase(trace, "codegen (LLVM -O3, objects)", || {
            crate::codegen::object_files(&kernel_module, target, crate::codegen::codegen_threads())
        })
    })
}

/// The CPU artifact of `module` (outlined: its host program final) with the
/// kernel objects `objects` makes for the module's target.
pub(crate) fn cpu_artifact(
    compiler: &Compiler,
    module: &melior::ir::Module<'_>,
    name: &str,
    trace: Option<&Trace>,
    objects: impl FnOnce(&CpuTarget) -> Result<Vec<Vec<u8>>>,
) -> Result<Artifact> {
    let top = module.as_operation().to_raw();
    let target = CpuTarget::of_operation(top)
        .ok_or_else(|| Error::Unsupported(format!("{name}: the compiled module has no CPU target (internal)")))?;
    let main = main_of(top, name)?;
    let (program, kernels) = trace::phase(trace, "host program", || crate::source::with_big_stack(|| crate::host_program::build(main)))?;
    let objects = objects(&target)?;
    let so = trace::phase(trace, "link", || crate::codegen::link_shared_object(&objects, compiler.options().linker()))?;
    let required_features = required_features(&target);
    let custom_call_targets = program.custom_call_targets().into_iter().map(String::from).collect();
    Ok(Artifact {
        producer: format!("floors {}", env!("CARGO_PKG_VERSION")),
        name: crate::driver::module_name(module, name),
        target: Target::Cpu {
            triple: target.triple.clone(),
            cpu: target.cpu.clone(),
            features: target.features.clone(),
            vector_bits: target.vector_bits,
            required_features,
        },
        program,
        custom_call_targets,
        kernels,
        code: KernelCode::CpuSharedObject(so),
    })
}

/// x86 features the loader checks before running the code: those of the
/// target (its feature string, else its CPU's table) the runtime can probe,
/// and the vector extension the schedules were written for.
fn required_features(target: &CpuTarget) -> Vec<String> {
    // avx512bf16: bf16 dots are `vdpbf16ps` where the target has it. Asked
    // of LLVM's CPU table too, so a named CPU (`--cpu znver4`, no feature
    // string) records what its code may use.
    const PROBED: [&str; 9] = ["avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl", "avx512bf16"];
    let mut out: Vec<String> = PROBED.iter().filter(|f| target.has_feature(f)).map(|f| f.to_string()).collect();
    if target.triple.starts_with("x86_64") {
        let implied = match target.vector_bits {
            512 => Some("avx512f"),
            256 => Some("avx"),
            _ => None,
        };
        out.extend(implied.filter(|f| !out.iter().any(|o| o == f)).map(String::from));
    }
    out.sort();
    out
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
    run_with_custom_calls(compiler, program, inputs, output_dir, threads, trace_path, Arc::new(CustomCallRegistry::with_builtins()))
}

/// [`run_traced`] with the handlers of the program's custom calls (what
/// `floors run --ffi-lib` loads into a registry with the built-ins).
pub fn run_with_custom_calls(
    compiler: &Compiler,
    program: &Path,
    inputs: &[PathBuf],
    output_dir: &Path,
    threads: Option<usize>,
    trace_path: Option<&Path>,
    registry: Arc<CustomCallRegistry>,
) -> Result<()> {
    if is_artifact(program) {
        return Ok(floors_runtime::run_artifact_files_traced(program, inputs, output_dir, threads, registry, trace_path)?);
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
    let compiled = Program::compile_traced(compiler, &program.display().to_string(), &text, registry, trace);
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
        Ok(())
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
