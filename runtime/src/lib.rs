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

pub mod artifact;
pub mod buffer;
pub mod buffer_assignment;
pub mod cpu_library;
pub mod error;
pub mod executor;
pub mod imports;
pub mod kernel_abi;
pub mod npy;
pub mod program;
pub mod scratch;
pub mod thunk;

pub use artifact::{Artifact, KernelCode, KernelInfo, Target};
pub use buffer::{Access, AlignedBuffer, AllocationIndex, BufferAllocations, BufferSlice, BufferUse};
pub use buffer_assignment::{Allocation, BufferAssignment, BufferKind, LogicalBuffer, assign_buffers};
pub use error::{Error, Result, RuntimeError};
pub use executor::{ExecutionMode, ExecutorOptions, SequentialReason, ThunkExecutor};
pub use kernel_abi::{HostKernel, HostKernelFn, KernelArg, KernelCallFrame, KernelError};
pub use program::{AllocationRole, AllocationSpec, Executable, HostProgram, KernelLibrary, MemoryReport, ThunkSpec};
pub use thunk::{
    ConditionalThunk, CopyThunk, CustomCallFn, CustomCallRegistry, CustomCallThunk, ExecuteContext, KernelThunk, Thunk, ThunkKind,
    WhileThunk,
};

/// Runs an artifact on `.npy` inputs and writes `out0.npy`, `out1.npy`, ...
/// into `output_dir`: the whole of `floors-run` (and of `floors run X.floors`).
pub fn run_artifact_files(
    artifact: &std::path::Path,
    inputs: &[std::path::PathBuf],
    output_dir: &std::path::Path,
    threads: Option<usize>,
    custom_calls: std::sync::Arc<CustomCallRegistry>,
) -> Result<()> {
    // Inputs first: bad input fails before any code is loaded.
    let arrays = inputs.iter().map(|p| npy::read(p).map(|a| (p.clone(), a))).collect::<Result<Vec<_>>>()?;
    let a = Artifact::read(artifact)?;
    let exe = a.instantiate(&artifact.display().to_string(), custom_calls, ExecutorOptions::default())?;
    let pool = thread_pool(threads)?;
    let outputs = exe.execute(&arrays, pool.as_ref())?;
    write_outputs(output_dir, &outputs)
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
