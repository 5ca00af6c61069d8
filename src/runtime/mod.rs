//! The CPU runtime, modelled on XLA:CPU's thunk runtime; it knows no MLIR.
//!
//! - A compiled program is a sequence of [`Thunk`]s (kernel, copy, while,
//!   conditional, custom call), each declaring its [`BufferUse`]s: a slice
//!   (allocation, offset, size) read or written.
//! - [`buffer_assignment`] packs temporaries into one allocation by liveness.
//! - [`ThunkExecutor`] adds an edge where two thunks' slices overlap and one
//!   writes, drops implied edges, and runs straight-line on the caller's
//!   thread when the program is small (≤ 8 thunks, all slices ≤ 512 B, or a
//!   chain); otherwise ready thunks run on a rayon pool, counted down by
//!   per-execution atomics, so one executor serves concurrent executions.
//! - Kernels follow a C ABI ([`kernel_abi`]): one call per workgroup, so a
//!   kernel's grid is split recursively across the pool.
//! - Kernels' own temporaries come from [`scratch`], which keeps big blocks
//!   for the next call instead of mapping fresh pages each time.

pub mod buffer;
pub mod buffer_assignment;
pub mod error;
pub mod executor;
pub mod kernel_abi;
pub mod scratch;
pub mod thunk;

pub use buffer::{
    Access, AlignedBuffer, AllocationIndex, BufferAllocations, BufferSlice, BufferUse,
};
pub use buffer_assignment::{
    Allocation, BufferAssignment, BufferKind, LogicalBuffer, assign_buffers,
};
pub use error::RuntimeError;
pub use executor::{ExecutionMode, ExecutorOptions, SequentialReason, ThunkExecutor};
pub use kernel_abi::{HostKernel, HostKernelFn, KernelArg, KernelCallFrame, KernelError};
pub use thunk::{
    ConditionalThunk, CopyThunk, CustomCallFn, CustomCallRegistry, CustomCallThunk, ExecuteContext,
    KernelThunk, Thunk, ThunkKind, WhileThunk,
};
