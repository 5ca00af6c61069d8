//! floors-runtime: runs what the floors compiler produced, with no MLIR and
//! no LLVM in the process. Modelled on XLA:CPU's thunk runtime.
//!
//! - [`artifact`]: the `.floors` file (host program as data + kernel code),
//!   its format version and checks.
//! - [`program`]: the host program as data ([`HostProgram`]: allocations,
//!   parameters, results, [`ThunkSpec`]s) and the [`Executable`] built from it.
//! - A compiled program is a sequence of [`Thunk`]s (kernel, copy, while,
//!   conditional, custom call), each declaring its [`BufferUse`]s: a slice
//!   (allocation, offset, size) read or written.
//! - [`buffer_assignment`] packs temporaries into one allocation by liveness
//!   (the compiler calls it; the artifact stores the result).
//! - [`ThunkExecutor`] adds an edge where two thunks' slices overlap and one
//!   writes, drops implied edges, and runs straight-line on the caller's
//!   thread when the program is small (≤ 8 thunks, all slices ≤ 512 B, or a
//!   chain); otherwise ready thunks run on a rayon pool, counted down by
//!   per-execution atomics, so one executor serves concurrent executions.
//! - Kernels follow a C ABI ([`kernel_abi`], versioned; the compiler emits
//!   it from the layout declared there): one call per workgroup, so a
//!   kernel's grid is split recursively across the pool.
//! - [`cpu_library`] loads CPU kernel code (a shared object) from memory and
//!   hands it the runtime import table: [`scratch`] (kernel temporaries, big
//!   blocks kept for the next call) and [`imports`] (`memrefCopy`).
//! - [`npy`]: `.npy` I/O and the argument checks.
//! - [`collectives`]: SPMD programs on N in-process devices (one thread
//!   each, [`Executable::execute_spmd`]): all-reduce, all-gather,
//!   reduce-scatter, all-to-all, permute, broadcast and the device ids as
//!   thunks that meet at a rendezvous and read each other's buffers.
//! - [`ffi`]: custom calls through XLA's FFI C ABI (FFI 0.3, as jaxlib
//!   0.10.2 ships it): the C structs, the API table floors provides, the
//!   handler registry (C handlers from shared libraries, Rust handlers through
//!   a safe binding) and call sites with their stages and state.
//! - [`gpu`]: the GPU floor's runtime: PTX kernels, cuBLAS gemms, copies,
//!   memsets, control flow and custom calls on CUDA streams (the CUDA
//!   driver loaded at run time; the `cuda` feature), the device description,
//!   and the pure parts (stream assignment, device arena) tested without a
//!   GPU. [`gemm`]: gemm specs, their column-major (cuBLAS) form and the
//!   reference gemm the host runs.
//! - [`tpu`]: Mosaic (`tpu` dialect) kernels as data and an interpreter that
//!   runs them with Pallas' TPU interpret-mode semantics (grid, windows,
//!   DMAs, semaphores, VMEM budget).

pub mod artifact;
pub mod buffer;
pub mod buffer_assignment;
pub mod collectives;
pub mod cpu_library;
pub mod error;
pub mod executor;
pub mod ffi;
pub mod fft;
pub mod gemm;
pub mod gpu;
pub mod imports;
pub mod kernel_abi;
#[cfg(feature = "mpi")]
pub mod mpi_transport;
pub mod npy;
pub mod program;
pub mod scratch;
pub mod spmd;
pub mod thunk;
pub mod tpu;
pub mod tpu_library;
pub mod trace;

pub use artifact::{Artifact, KernelCode, KernelInfo, PtxArg, PtxLaunch, PtxModule, Target};
pub use buffer::{Access, AlignedBuffer, AllocationIndex, BufferAllocations, BufferSlice, BufferUse};
pub use buffer_assignment::{Allocation, BufferAssignment, BufferKind, LogicalBuffer, assign_buffers};
pub use collectives::{CollectiveThunk, Communicator, DeviceRun};
pub use error::{Error, Result, RuntimeError};
pub use executor::{ExecutionMode, ExecutorOptions, GpuDevice, SequentialReason, ThunkExecutor};
pub use floors_ptx_sim::Checks as SimChecks;
pub use gemm::GemmSpec;
pub use kernel_abi::{HostKernel, HostKernelFn, KernelArg, KernelCallFrame, KernelError};
pub use program::{
    AllocationRole, AllocationSpec, DeviceProgram, Executable, HostProgram, KernelLibrary, MemoryReport, MemsetValue, ThunkSpec,
};
pub use thunk::{
    ConditionalThunk, CopyThunk, CustomCallFn, CustomCallInfo, CustomCallRegistry, CustomCallThunk, ExecuteContext, GemmThunk, KernelThunk,
    MemsetThunk, Thunk, ThunkKind, WhileThunk,
};
pub use trace::{Trace, TraceArg};

/// Runs an artifact on `.npy` inputs and writes `out0.npy`, `out1.npy`, ...
/// into `output_dir`: the whole of `floors-run` (and of `floors run X.floors`).
pub fn run_artifact_files(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    threads: Option<usize>,
    custom_calls: std::sync::Arc<CustomCallRegistry>,
) -> Result<()> {
    run_artifact_files_traced(artifact, inputs, output_dir, threads, custom_calls, None)
}

/// [`run_artifact_files`], writing a Chrome trace-event timeline of the run
/// to `trace_path` when given: reading and loading the artifact on the
/// `compile` track, the execution on the threads' tracks (see [`trace`]).
pub fn run_artifact_files_traced(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    threads: Option<usize>,
    custom_calls: std::sync::Arc<CustomCallRegistry>,
    trace_path: Option<&std::path::Path>,
) -> Result<()> {
    run_artifact_files_with(artifact, inputs, output_dir, threads, custom_calls, trace_path, ExecutorOptions::default()).map(|_| ())
}

/// [`run_artifact_files_traced`] with executor options (`floors-run
/// --gpu-streams`, `--device sim`); returns what the run did on the device
/// when the device counts it (`floors-run --counters`).
pub fn run_artifact_files_with(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    threads: Option<usize>,
    custom_calls: std::sync::Arc<CustomCallRegistry>,
    trace_path: Option<&std::path::Path>,
    options: ExecutorOptions,
) -> Result<Option<program::DeviceCounters>> {
    let trace = trace_path.map(|_| Trace::new(format!("floors-run {}", artifact.display())));
    let trace = trace.as_ref();
    let span = |name: &str, f: &mut dyn FnMut() -> Result<()>| match trace {
        Some(t) => t.span("io", name, f),
        None => f(),
    };
    // Inputs first: bad input fails before any code is loaded.
    let mut arrays = Vec::new();
    span("read inputs", &mut || {
        arrays = inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?;
        Ok(())
    })?;
    let a = trace::phase(trace, "read artifact", || Artifact::read(artifact))?;
    if let Some(t) = trace {
        t.set_metadata("program", a.name.clone());
    }
    let exe =
        trace::phase(trace, "load kernels and build thunks", || a.instantiate(&artifact.display().to_string(), custom_calls, options))?;
    tracing::info!("{}: loaded\n{exe}", artifact.display());
    let pool = thread_pool(threads)?;
    let ran = exe
        .execute_traced(&arrays, pool.as_ref(), trace)
        .and_then(|outputs| span("write outputs", &mut || write_outputs(output_dir, &outputs)))
        .map(|()| exe.device_counters());
    if let (Some(t), Ok(Some(c))) = (trace, &ran) {
        t.set_metadata("device", format!("{}\n{}", c.line(), c.table()));
    }
    // A failed run's trace shows how far it got.
    if let (Some(t), Some(path)) = (trace, trace_path) {
        t.write(path)?;
    }
    ran
}

/// Times an artifact on `.npy` inputs: `warmup` runs, then the milliseconds
/// of each of `reps` runs (device time on a GPU: inputs resident, no
/// transfers; whole executions on the host). What `floors-run --bench` prints.
pub fn bench_artifact_files(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    threads: Option<usize>,
    custom_calls: std::sync::Arc<CustomCallRegistry>,
    options: ExecutorOptions,
    warmup: usize,
    reps: usize,
) -> Result<Vec<f64>> {
    let arrays = inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?;
    let exe = Artifact::read(artifact)?.instantiate(&artifact.display().to_string(), custom_calls, options)?;
    let pool = thread_pool(threads)?;
    exe.bench(&arrays, pool.as_ref(), warmup, reps)
}

/// The median of `times` (0 for none).
pub fn median(times: &[f64]) -> f64 {
    let mut t = times.to_vec();
    t.sort_by(f64::total_cmp);
    match t.len() {
        0 => 0.0,
        n if n % 2 == 1 => t[n / 2],
        n => (t[n / 2 - 1] + t[n / 2]) / 2.0,
    }
}

/// A rayon pool of `n` workers, or none for `n` ≤ 1 (run on the caller's thread).
pub fn thread_pool(threads: Option<usize>) -> Result<Option<rayon::ThreadPool>> {
    match threads {
        Some(n) if n > 1 => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(Some)
            .map_err(|e| Error::Unsupported(format!("cannot start {n} threads: {e}"))),
        _ => Ok(None),
    }
}

/// Writes `out{i}.npy` for every output, creating the directory.
pub fn write_outputs(output_dir: &std::path::Path, outputs: &[npy::HostArray]) -> Result<()> {
    std::fs::create_dir_all(output_dir).map_err(|source| Error::Io { path: output_dir.into(), source })?;
    for (i, out) in outputs.iter().enumerate() {
        npy::write(&output_dir.join(format!("out{i}.npy")), out)?;
    }
    Ok(())
}
