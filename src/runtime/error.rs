//! The one error type of the runtime. Bad programs and bad buffers are
//! errors, never panics.

use super::buffer::AllocationIndex;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// A host kernel returned a non-NULL `KernelError`.
    #[error("kernel `{kernel}` failed: {message}")]
    KernelFailed { kernel: String, message: String },
    #[error("unknown custom call target `{name}`")]
    UnknownCustomCall { name: String },
    #[error("custom call `{name}` failed: {message}")]
    CustomCallFailed { name: String, message: String },
    /// A slice that does not fit its allocation, or a missing allocation.
    #[error("bad buffer: allocation {allocation}: {reason}")]
    BadBuffer {
        allocation: AllocationIndex,
        reason: String,
    },
    #[error("while condition buffer is not a bool: {reason}")]
    WhileConditionNotBool { reason: String },
    #[error("conditional index buffer: {reason}")]
    BadConditionalIndex { reason: String },
    /// A thunk that cannot be built as asked (mismatched sizes, empty grid ...).
    #[error("invalid {kind} thunk: {reason}")]
    InvalidThunk { kind: &'static str, reason: String },
    #[error("buffer assignment: logical buffer {index}: {reason}")]
    BadLogicalBuffer { index: usize, reason: String },
}
