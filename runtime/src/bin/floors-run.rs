//! `floors-run`: runs a compiled `.floors` artifact on `.npy` inputs, with no
//! compiler (no MLIR, no LLVM) in the process.

use std::{path::PathBuf, process::ExitCode, sync::Arc};

use clap::Parser;
use floors_runtime::CustomCallRegistry;

#[derive(Parser)]
#[command(name = "floors-run", version, about = "Run a compiled floors artifact (.floors) on .npy inputs")]
struct Cli {
    /// The artifact (`floors compile PROG.mlir -o PROG.floors`).
    #[arg(required_unless_present = "gpu_info")]
    artifact: Option<PathBuf>,
    /// An input array, in argument order (repeat the flag); bf16 as uint16 bits.
    #[arg(long = "input", value_name = "NPY")]
    inputs: Vec<PathBuf>,
    /// Where out0.npy, out1.npy, ... go (created if missing).
    #[arg(long, value_name = "DIR", required_unless_present_any = ["bench", "gpu_info", "info"])]
    output_dir: Option<PathBuf>,
    /// Time the program instead of writing outputs: WARMUP runs, then REPS
    /// timed runs; prints `median_ms=… min_ms=… reps=…` (GPU: device time,
    /// inputs resident; CPU/TPU: whole executions).
    #[arg(long, value_name = "WARMUP,REPS", value_parser = parse_bench)]
    bench: Option<(usize, usize)>,
    /// CUDA streams for independent thunks of a GPU artifact (1: one stream, in order).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    gpu_streams: u16,
    /// GPU: synchronize after every thunk, so an asynchronous device fault
    /// names the thunk and kernel that raised it (slower; for debugging).
    #[arg(long)]
    gpu_sync: bool,
    /// Print what the CUDA driver says about device 0 (the device description) and exit.
    #[arg(long)]
    gpu_info: bool,
    /// Print what the artifact holds (target, kernels, thunks) without loading it, and exit.
    #[arg(long)]
    info: bool,
    /// Worker threads for the dataflow executor (1: run on the caller's thread).
    /// Kernels split into workgroups at compile time run on these.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Write a Chrome trace-event timeline of the run (open it in ui.perfetto.dev or chrome://tracing).
    #[arg(long, value_name = "JSON")]
    trace: Option<PathBuf>,
    /// Custom-call handlers (XLA FFI, as built for `jax.ffi`) from a shared
    /// library: `LIB:SYMBOL=TARGET,...` (also `instantiate:SYMBOL=TARGET`,
    /// `type:IDSYMBOL+INFOSYMBOL=NAME`; plain `LIB`: targets are symbols of
    /// their own name). Repeat for more libraries.
    #[arg(long = "ffi-lib", value_name = "LIB[:SYMBOL=TARGET,...]")]
    ffi_libs: Vec<String>,
    #[command(flatten)]
    device: floors_runtime::gpu::DeviceArgs,
    #[command(flatten)]
    tpu_grid: floors_runtime::tpu::GridArgs,
    /// Run as one device of a program partitioned for several, under
    /// `mpirun -np N`: MPI rank r is device r; every rank reads the global
    /// inputs, rank 0 writes the assembled outputs. Needs a floors-run built
    /// with `--features mpi`.
    #[arg(long)]
    mpi: bool,
    /// More logging (-v: info, -vv: debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
}

fn parse_bench(s: &str) -> Result<(usize, usize), String> {
    let (w, r) = s.split_once(',').ok_or("expected WARMUP,REPS (e.g. 5,20)")?;
    let w = w.trim().parse().map_err(|e| format!("WARMUP: {e}"))?;
    let r: usize = r.trim().parse().map_err(|e| format!("REPS: {e}"))?;
    if r == 0 {
        return Err("REPS must be at least 1".into());
    }
    Ok((w, r))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let default = ["warn", "info", "debug"][usize::from(cli.verbose.min(2))];
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    let registry = match CustomCallRegistry::with_libraries(&cli.ffi_libs) {
        Ok(r) => Arc::new(r),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    if cli.gpu_info {
        return match floors_runtime::gpu::device_description() {
            Ok(d) => {
                println!("{d:#?}");
                println!("chip: {}", d.chip());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    let threads = cli.threads.map(usize::from);
    let mut options = floors_runtime::ExecutorOptions {
        gpu_streams: usize::from(cli.gpu_streams),
        gpu_sync: cli.gpu_sync,
        tpu_grid: cli.tpu_grid.order(),
        ..Default::default()
    };
    if let Err(e) = cli.device.apply(&mut options) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let Some(artifact) = cli.artifact else {
        eprintln!("error: no artifact given");
        return ExitCode::from(2);
    };
    if cli.info {
        return match floors_runtime::Artifact::read(&artifact) {
            Ok(a) => {
                print!("{}", a.summary());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    if cli.mpi {
        let Some(dir) = &cli.output_dir else {
            eprintln!("error: --mpi needs --output-dir");
            return ExitCode::from(2);
        };
        return match run_mpi(&artifact, &cli.inputs, dir, registry) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(1)
            }
        };
    }
    let result = match (cli.bench, &cli.output_dir) {
        (Some((warmup, reps)), _) => floors_runtime::bench_artifact_files(&artifact, &cli.inputs, threads, registry, options, warmup, reps)
            .map(|times| {
                let min = times.iter().copied().fold(f64::INFINITY, f64::min);
                println!("median_ms={:.4} min_ms={:.4} reps={}", floors_runtime::median(&times), min, times.len());
            }),
        (None, Some(dir)) => {
            floors_runtime::run_artifact_files_with(&artifact, &cli.inputs, dir, threads, registry, cli.trace.as_deref(), options).map(
                |counters| {
                    if let (true, Some(c)) = (cli.device.counters, counters) {
                        eprint!("{}", c.table());
                        println!("{}", c.line());
                    }
                },
            )
        }
        (None, None) => Err(floors_runtime::Error::Unsupported("--output-dir is required".into())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(feature = "mpi")]
fn run_mpi(
    artifact: &std::path::Path,
    inputs: &[PathBuf],
    dir: &std::path::Path,
    registry: Arc<CustomCallRegistry>,
) -> floors_runtime::Result<()> {
    floors_runtime::spmd::run_artifact_mpi(artifact, inputs, dir, registry)
}

#[cfg(not(feature = "mpi"))]
fn run_mpi(_: &std::path::Path, _: &[PathBuf], _: &std::path::Path, _: Arc<CustomCallRegistry>) -> floors_runtime::Result<()> {
    Err(floors_runtime::Error::Unsupported(
        "--mpi: this floors-run was built without MPI (cargo build --release -p floors-runtime --features mpi)".into(),
    ))
}
