//! `floors-run`: runs a compiled `.floors` artifact on `.npy` inputs, with no
//! compiler (no MLIR, no LLVM) in the process.

use std::{path::PathBuf, process::ExitCode, sync::Arc};

use clap::Parser;
use floors_runtime::CustomCallRegistry;

#[derive(Parser)]
#[command(name = "floors-run", version, about = "Run a compiled floors artifact (.floors) on .npy inputs")]
struct Cli {
    /// The artifact (`floors compile PROG.mlir -o PROG.floors`).
    artifact: PathBuf,
    /// An input array, in argument order (repeat the flag); bf16 as uint16 bits.
    #[arg(long = "input", value_name = "NPY")]
    inputs: Vec<PathBuf>,
    /// Where out0.npy, out1.npy, ... go (created if missing).
    #[arg(long, value_name = "DIR")]
    output_dir: PathBuf,
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
    /// More logging (-v: info, -vv: debug); RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
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
    let threads = cli.threads.map(usize::from);
    match floors_runtime::run_artifact_files_traced(&cli.artifact, &cli.inputs, &cli.output_dir, threads, registry, cli.trace.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
