//! The `floors` command line.

use std::{io::Write, path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use floors::{CompileOptions, Compiler, Error, Stage, dump::DumpOptions, floor::Target, target::CpuTarget};

#[derive(Parser)]
#[command(name = "floors", version, about = "StableHLO below fusion, through MLIR")]
struct Cli {
    /// More logging (-v: info, -vv: debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a StableHLO program (as `jax.jit(f).lower(...).as_text()` prints it).
    Compile {
        /// The program (.mlir).
        program: PathBuf,
        /// The stage to print (default: fused; with `-o X.floors` and no
        /// --emit, the compiled artifact).
        #[arg(long, value_enum)]
        emit: Option<Stage>,
        #[command(flatten)]
        target: TargetArgs,
        /// Print one line per fusion (kind, hero, ops, bytes) and totals
        /// instead of the IR; implies --emit fused.
        #[arg(long)]
        fusion_report: bool,
        /// Write the result here instead of stdout (`-` is stdout).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Dump the IR before the pipeline and after every pass into DIR/<module>/.
        #[arg(long, value_name = "DIR")]
        dump_to: Option<PathBuf>,
        /// Only dump passes whose argument matches REGEX (the input is always dumped).
        #[arg(long, value_name = "REGEX", requires = "dump_to")]
        dump_pass_re: Option<String>,
        /// Also write DIR/index.html: every pass with its time and a diff of what it changed.
        #[arg(long, requires = "dump_to")]
        dump_html: bool,
        /// Custom-call handlers (XLA FFI, as built for `jax.ffi`) from a shared
        /// library: `LIB:SYMBOL=TARGET,...` (also `instantiate:SYMBOL=TARGET`,
        /// `type:IDSYMBOL+INFOSYMBOL=NAME`; plain `LIB`: targets are symbols of
        /// their own name). Repeat for more libraries. Used by `--emit thunks`;
        /// an artifact needs its handlers only when it runs.
        #[arg(long = "ffi-lib", value_name = "LIB[:SYMBOL=TARGET,...]")]
        ffi_libs: Vec<String>,
        /// CPU floor: split kernels into up to N workgroups (as `run --threads N` does).
        #[arg(long, value_name = "N", default_value_t = 1)]
        workgroups: usize,
        /// Print MLIR's pass timing report (wall time per pass) to stderr after
        /// each pipeline run (the kernel parts, lowered on threads, report one each).
        #[arg(long)]
        pass_timing: bool,
    },
    /// Compile for the CPU floor and run on .npy inputs; writes out0.npy, out1.npy, ...
    /// With --target tpu, PROG is a Mosaic kernel module run in the interpreter.
    Run {
        /// The program: StableHLO (.mlir, compiled first) or an artifact (.floors).
        program: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// An input array, in argument order (repeat the flag); bf16 as uint16 bits.
        #[arg(long = "input", value_name = "NPY")]
        inputs: Vec<PathBuf>,
        /// Where out0.npy, out1.npy, ... go (created if missing).
        #[arg(long, value_name = "DIR")]
        output_dir: PathBuf,
        /// Worker threads for the runtime's dataflow executor (1: run on the caller's
        /// thread); kernels are split into up to N workgroups.
        #[arg(long, value_name = "N", value_parser = thread_count)]
        threads: Option<usize>,
        /// Dump the IR before the pipeline and after every pass into DIR/<module>/.
        #[arg(long, value_name = "DIR")]
        dump_to: Option<PathBuf>,
        /// Only dump passes whose argument matches REGEX.
        #[arg(long, value_name = "REGEX", requires = "dump_to")]
        dump_pass_re: Option<String>,
        /// Also write DIR/index.html: every pass with its time and a diff of what it changed.
        #[arg(long, requires = "dump_to")]
        dump_html: bool,
        /// Custom-call handlers (XLA FFI, as built for `jax.ffi`) from a shared
        /// library: `LIB:SYMBOL=TARGET,...` (also `instantiate:SYMBOL=TARGET`,
        /// `type:IDSYMBOL+INFOSYMBOL=NAME`; plain `LIB`: targets are symbols of
        /// their own name). Repeat for more libraries.
        #[arg(long = "ffi-lib", value_name = "LIB[:SYMBOL=TARGET,...]")]
        ffi_libs: Vec<String>,
        /// Write a Chrome trace-event timeline of the compile and the run
        /// (open it in ui.perfetto.dev or chrome://tracing).
        #[arg(long, value_name = "JSON")]
        trace: Option<PathBuf>,
        #[command(flatten)]
        device: floors::runtime::gpu::DeviceArgs,
        #[command(flatten)]
        tpu_grid: floors::runtime::tpu::GridArgs,
    },
    /// Time a program on the CPU floor (compile once, warm up, median of reps);
    /// prints one JSON line. Without --input, deterministic random inputs.
    Bench {
        /// The program (.mlir).
        program: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// Input arrays in argument order (default: random inputs of the right shapes).
        #[arg(long = "input", value_name = "NPY")]
        inputs: Vec<PathBuf>,
        /// Write the last run's outputs here (out0.npy, ...).
        #[arg(long, value_name = "DIR")]
        output_dir: Option<PathBuf>,
        /// Worker threads (default: all cores); kernels are split into up to N workgroups.
        #[arg(long, value_name = "N", value_parser = thread_count)]
        threads: Option<usize>,
        /// Untimed runs first.
        #[arg(long, default_value_t = 3)]
        warmup: usize,
        /// Timed runs.
        #[arg(long, default_value_t = 10)]
        reps: usize,
    },
}

/// Which floor and which chip.
#[derive(clap::Args)]
struct TargetArgs {
    /// The floor to compile for.
    #[arg(long, value_enum, default_value = "cpu")]
    target: Floor,
    /// CPU floor: host, x86-64, x86-64-v2, x86-64-v3, x86-64-v4 or any LLVM CPU name.
    #[arg(long, value_name = "NAME", default_value = "host")]
    cpu: String,
    /// CPU floor: the C compiler driver that links kernels into the artifact's shared object.
    #[arg(long, value_name = "CC", default_value = "cc")]
    linker: String,
    /// TPU floor: the chip generation (v4, v5e, v5p, v6e); sets the VMEM limits.
    #[arg(long, value_name = "GEN", default_value = "v5e")]
    tpu: String,
    /// GPU floor: the CUDA chip (sm_80, sm_90, sm_90a; a100, h100, h200 as aliases).
    #[arg(long, value_name = "CHIP", default_value = "sm_90")]
    gpu: String,
    /// GPU floor: who computes dots: auto (cuBLAS when (m+n)*k >= 100, XLA's
    /// rule), library (cuBLAS for every dot it can take) or emitter (floors' own kernel).
    #[arg(long, value_name = "MODE", default_value = "auto")]
    gpu_gemm: String,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Floor {
    Cpu,
    Gpu,
    Tpu,
}

impl TargetArgs {
    /// Resolves the target before anything is parsed or compiled.
    fn apply(&self, options: &mut CompileOptions) -> Result<(), Error> {
        // Checked whatever the floor, so a typo never waits for a compile.
        let tpu = floors::target::TpuTarget::resolve(&self.tpu)?;
        let gpu = floors::target::GpuTarget::resolve(&self.gpu)?;
        let gemm = floors_gpu::GemmMode::parse(&self.gpu_gemm)
            .map_err(|_| Error::BadTarget(format!("unknown --gpu-gemm `{}`: expected auto, library or emitter", self.gpu_gemm)))?;
        // Resolved here so a bad name fails before anything is parsed; the
        // host is resolved when a stage below fusion needs it (the fused
        // module stays target-neutral).
        let cpu = if self.cpu == "host" { None } else { Some(CpuTarget::resolve(&self.cpu)?) };
        options.target = match self.target {
            Floor::Cpu => Target::Cpu(cpu),
            Floor::Gpu => Target::Gpu { target: gpu, gemm },
            Floor::Tpu => Target::Tpu(tpu),
        };
        options.linker = Some(self.linker.clone());
        Ok(())
    }
}

/// At least 1 and at most 1024 threads (a typo should not start 100,000).
fn thread_count(s: &str) -> Result<usize, String> {
    let n: usize = s.parse().map_err(|e| format!("{e}"))?;
    if (1..=1024).contains(&n) { Ok(n) } else { Err(format!("{n} is not in 1..=1024")) }
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Compile {
            program,
            emit,
            target,
            fusion_report,
            output,
            dump_to,
            dump_pass_re,
            dump_html,
            ffi_libs,
            workgroups,
            pass_timing,
        } => {
            // CLI flags win over FLOORS_FLAGS.
            let mut options = CompileOptions::from_env()?;
            target.apply(&mut options)?;
            options.workgroups = workgroups;
            options.pass_timing = pass_timing;
            if let Some(dir) = dump_to {
                options.dump = Some(DumpOptions::new(dir, dump_pass_re.as_deref())?.with_html(dump_html));
            }
            let compiler = Compiler::new(options)?;
            let text = floors::source::read_source(&program)?;
            let name = program.display().to_string();
            let artifact = emit.is_none() && output.as_ref().is_some_and(|o| o.extension().is_some_and(|e| e == "floors"));
            let floor = compiler.options().target.floor();
            let emit = emit.unwrap_or(if target.target == Floor::Cpu { Stage::Fused } else { floor.stages()[0] });
            floors::floor::check_stage(&compiler.options().target, emit)?;
            let out = if fusion_report {
                floor.fusion_report(&compiler, &name, &text)?.into_bytes()
            } else if artifact {
                floors::run::compile_artifact(&compiler, &name, &text)?.to_bytes()?
            } else if emit == Stage::Thunks && !ffi_libs.is_empty() {
                let registry = std::sync::Arc::new(floors::runtime::CustomCallRegistry::with_libraries(&ffi_libs)?);
                let program = floors::run::Program::compile_with_custom_calls(&compiler, &name, &text, registry)?;
                program.executable().to_string().into_bytes()
            } else {
                compiler.compile_output(&name, &text, emit)?
            };
            match output.filter(|p| p.as_os_str() != "-") {
                Some(path) => std::fs::write(&path, out).map_err(|source| Error::Io { path, source })?,
                None => {
                    let mut stdout = std::io::stdout().lock();
                    let _ = stdout.write_all(&out);
                    if out.last() != Some(&b'\n') && emit != Stage::Obj {
                        let _ = writeln!(stdout);
                    }
                }
            }
            Ok(())
        }
        Command::Run {
            program,
            target,
            inputs,
            output_dir,
            threads,
            dump_to,
            dump_pass_re,
            dump_html,
            ffi_libs,
            trace,
            device,
            tpu_grid,
        } => {
            let mut options = CompileOptions::from_env()?;
            target.apply(&mut options)?;
            options.workgroups = threads.unwrap_or(1);
            if let Some(dir) = dump_to.clone() {
                options.dump = Some(DumpOptions::new(dir, dump_pass_re.as_deref())?.with_html(dump_html));
            }
            let compiler = Compiler::new(options)?;
            // A kernel in the floor's own IR (a Mosaic kernel module) runs as
            // it is; a program is compiled for the floor first.
            let floor = compiler.options().target.floor();
            if !floors::run::is_artifact(&program) && floor.run_kernel_file(&compiler, &program, &inputs, &output_dir, tpu_grid.order())? {
                return Ok(());
            }
            let registry = std::sync::Arc::new(floors::runtime::CustomCallRegistry::with_libraries(&ffi_libs)?);
            let mut run_options = floors::runtime::ExecutorOptions { tpu_grid: tpu_grid.order(), ..Default::default() };
            device.apply(&mut run_options)?;
            let counters =
                floors::run::run_with_options(&compiler, &program, &inputs, &output_dir, threads, trace.as_deref(), registry, run_options)?;
            if let (true, Some(c)) = (device.counters, counters) {
                eprint!("{}", c.table());
                println!("{}", c.line());
            }
            Ok(())
        }
        Command::Bench { program, target, inputs, output_dir, threads, warmup, reps } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let mut options = CompileOptions { workgroups: threads, ..CompileOptions::from_env()? };
            target.apply(&mut options)?;
            let compiler = Compiler::new(options)?;
            let r = floors::run::bench(&compiler, &program, &inputs, output_dir.as_deref(), threads, warmup, reps)?;
            println!("{}", r.to_json());
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    init_logging(cli.verbose);
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
