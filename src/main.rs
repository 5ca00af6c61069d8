//! The `floors` command line.

use std::{io::Write, path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use floors::{CompileOptions, Compiler, Error, Stage, dump::DumpOptions};

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
        /// The stage to print.
        #[arg(long, value_enum, default_value = "fused")]
        emit: Stage,
        /// Print one line per fusion (kind, hero, ops, bytes) and totals
        /// instead of the IR; implies --emit fused.
        #[arg(long)]
        fusion_report: bool,
        /// Write the result here instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Dump the IR before the pipeline and after every pass into DIR/<module>/.
        #[arg(long, value_name = "DIR")]
        dump_to: Option<PathBuf>,
        /// Only dump passes whose argument matches REGEX (the input is always dumped).
        #[arg(long, value_name = "REGEX", requires = "dump_to")]
        dump_pass_re: Option<String>,
        /// CPU floor: split kernels into up to N workgroups (as `run --threads N` does).
        #[arg(long, value_name = "N", default_value_t = 1)]
        workgroups: usize,
    },
    /// Compile for the CPU floor and run on .npy inputs; writes out0.npy, out1.npy, ...
    Run {
        /// The program (.mlir).
        program: PathBuf,
        /// An input array, in argument order (repeat the flag); bf16 as uint16 bits.
        #[arg(long = "input", value_name = "NPY")]
        inputs: Vec<PathBuf>,
        /// Where out0.npy, out1.npy, ... go (created if missing).
        #[arg(long, value_name = "DIR")]
        output_dir: PathBuf,
        /// Worker threads for the runtime's dataflow executor (1: run on the caller's
        /// thread); kernels are split into up to N workgroups.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Dump the IR before the pipeline and after every pass into DIR/<module>/.
        #[arg(long, value_name = "DIR")]
        dump_to: Option<PathBuf>,
        /// Only dump passes whose argument matches REGEX.
        #[arg(long, value_name = "REGEX", requires = "dump_to")]
        dump_pass_re: Option<String>,
    },
    /// Time a program on the CPU floor (compile once, warm up, median of reps);
    /// prints one JSON line. Without --input, deterministic random inputs.
    Bench {
        /// The program (.mlir).
        program: PathBuf,
        /// Input arrays in argument order (default: random inputs of the right shapes).
        #[arg(long = "input", value_name = "NPY")]
        inputs: Vec<PathBuf>,
        /// Write the last run's outputs here (out0.npy, ...).
        #[arg(long, value_name = "DIR")]
        output_dir: Option<PathBuf>,
        /// Worker threads (default: all cores); kernels are split into up to N workgroups.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Untimed runs first.
        #[arg(long, default_value_t = 3)]
        warmup: usize,
        /// Timed runs.
        #[arg(long, default_value_t = 10)]
        reps: usize,
    },
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Compile { program, emit, fusion_report, output, dump_to, dump_pass_re, workgroups } => {
            // CLI flags win over FLOORS_FLAGS.
            let mut options = CompileOptions::from_env()?;
            options.workgroups = workgroups;
            if let Some(dir) = dump_to {
                options.dump = Some(DumpOptions::new(dir, dump_pass_re.as_deref())?);
            }
            let compiler = Compiler::new(options)?;
            let text = floors::source::read_source(&program)?;
            let name = program.display().to_string();
            let out = if fusion_report {
                let module = compiler.compile_module(&name, &text, Stage::Fused)?;
                Compiler::fusion_report(&module).to_string().into_bytes()
            } else {
                compiler.compile_output(&name, &text, emit)?
            };
            match output {
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
        Command::Run { program, inputs, output_dir, threads, dump_to, dump_pass_re } => {
            let mut options = CompileOptions::from_env()?;
            options.workgroups = threads.unwrap_or(1);
            if let Some(dir) = dump_to {
                options.dump = Some(DumpOptions::new(dir, dump_pass_re.as_deref())?);
            }
            let compiler = Compiler::new(options)?;
            floors::run::run(&compiler, &program, &inputs, &output_dir, threads)
        }
        Command::Bench { program, inputs, output_dir, threads, warmup, reps } => {
            let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let compiler = Compiler::new(CompileOptions { workgroups: threads, ..CompileOptions::from_env()? })?;
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
