//! The one error type of the runtime. Bad programs and bad buffers are
//! errors, never panics.

use crate::buffer::AllocationIndex;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// A host kernel returned a non-NULL `KernelError`.
    #[error("kernel `{kernel}` failed: {message}")]
    KernelFailed { kernel: String, message: String },
    #[error("unknown custom call target `{name}`")]
    UnknownCustomCall { name: String },
    /// A custom call's handler returned an error (or panicked); `location`
    /// is the call's `file:line:col` in the source program, when known.
    #[error("custom call `{name}` failed: {message}")]
    CustomCallFailed { name: String, location: String, message: String },
    /// A slice that does not fit its allocation, or a missing allocation.
    #[error("bad buffer: allocation {allocation}: {reason}")]
    BadBuffer { allocation: AllocationIndex, reason: String },
    #[error("while condition buffer is not a bool: {reason}")]
    WhileConditionNotBool { reason: String },
    #[error("conditional index buffer: {reason}")]
    BadConditionalIndex { reason: String },
    /// A thunk that cannot be built as asked (mismatched sizes, empty grid ...).
    #[error("invalid {kind} thunk: {reason}")]
    InvalidThunk { kind: &'static str, reason: String },
    #[error("buffer assignment: logical buffer {index}: {reason}")]
    BadLogicalBuffer { index: usize, reason: String },
    /// A collective of an SPMD program that cannot run on this device (no
    /// group, an id out of range, shapes that do not fit the group, members
    /// that never arrived); `device` is `(replica r, partition p)`.
    #[error("collective `{target}`{} on device {device}: {message}", at(location))]
    Collective { target: String, location: String, device: String, message: String },
    /// A collective given up because another device's run failed (`reason`
    /// names that device): not the cause of a failed SPMD run, a consequence.
    #[error("collective `{target}`{} on device {device}: aborted: {reason}", at(location))]
    CollectiveAborted { target: String, location: String, device: String, reason: String },
}

/// ` at file:line:col` or nothing.
pub(crate) fn at(location: &str) -> String {
    if location.is_empty() { String::new() } else { format!(" at {location}") }
}

/// The one error type of the runtime crate's public API: everything that can
/// go wrong loading an artifact, reading inputs or running a program. Every
/// variant names the thing it is about (a file, an input, a kernel).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: error: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A `.npy` file that cannot be read as an array.
    #[error("{}: error: {message}", path.display())]
    Npy { path: std::path::PathBuf, message: String },
    /// An input that does not fit the program (count, dtype, shape); `origin`
    /// is the input file, or the program when the count is wrong.
    #[error("{origin}: error: {message}")]
    Input { origin: String, message: String },
    /// An artifact that is not one, is damaged, or is of another version.
    #[error("{origin}: error: {message}")]
    Artifact { origin: String, message: String },
    /// Kernel code that the loader could not bring into the process.
    #[error("error: cannot load the kernels of {origin}: {message}")]
    KernelLoad { origin: String, message: String },
    /// A host program that does not hold together (found when its thunks are built).
    #[error("error: invalid program: {0}")]
    Program(String),
    #[error("error: run failed: {0}")]
    Run(#[from] RuntimeError),
    /// What failed on one device of an SPMD run
    /// ([`crate::Executable::execute_spmd`]).
    #[error("device (replica {replica}, partition {partition}): {source}")]
    Device { replica: u32, partition: u32, source: Box<Error> },
    /// Something about one custom call of the program (no handler, a failed
    /// stage), at its location in the source program when that is known.
    #[error("{}error: {message}", located(location))]
    CustomCall { location: String, message: String },
    /// A custom-call handler library that cannot be used (`--ffi-lib`).
    #[error("error: FFI library {library}: {message}")]
    FfiLibrary { library: String, message: String },
    #[error("error: {0}")]
    Unsupported(String),
    /// The GPU runtime: no driver (`no CUDA driver found`), a driver or
    /// cuBLAS call that failed, PTX the driver's JIT refused (with its log).
    #[error("error: {0}")]
    Gpu(String),
    /// A Mosaic kernel (`tpu` dialect, run by [`crate::tpu`]) that does not
    /// hold together: a bad value id, a wrong operand type, a missing index
    /// map, an op the interpreter cannot run; at the op's location when known.
    #[error("{}error: Mosaic kernel `{kernel}`: {message}", located(location))]
    TpuKernel { kernel: String, location: String, message: String },
    /// An op of a Mosaic kernel failed while running (out-of-bounds access,
    /// semaphore misuse, ...): names the op, its location and the grid point.
    #[error("{}error: `{op}` in Mosaic kernel `{kernel}` at grid point {grid_point}: {message}", located(location))]
    TpuOp { kernel: String, op: String, location: String, grid_point: String, message: String },
    /// The Pallas pipeline around a Mosaic kernel refused the run: inputs
    /// that do not fit, a block index out of range, an output block revisited,
    /// the VMEM budget, a semaphore non-zero at kernel exit.
    #[error("error: Mosaic kernel `{kernel}`: {message}")]
    TpuPipeline { kernel: String, message: String },
}

pub type Result<T> = std::result::Result<T, Error>;

/// `file:line:col: ` or nothing.
fn located(location: &str) -> String {
    if location.is_empty() { String::new() } else { format!("{location}: ") }
}
