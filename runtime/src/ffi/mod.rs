//! Custom calls through XLA's FFI: the versioned C ABI that handlers built
//! for `jax.ffi` (XLA:CPU) are written against, implemented by floors so the
//! same shared library runs on both.
//!
//! - [`c_api`]: the structs and enums of `xla/ffi/api/c_api.h` (FFI 0.3, as
//!   jaxlib 0.10.2 ships it) with their exact C layout.
//! - [`api`]: the `XLA_FFI_Api` table floors hands every handler (errors,
//!   stream, types, user data and per-stage state in the execution context,
//!   the intra-op thread pool, host memory, futures, run id, device ordinal).
//! - [`attrs`]: attributes as data ([`Attrs`], what the compiler writes into
//!   the host program) and their encoding into the frame's C layout.
//! - [`registry`]: handlers by (target, platform), C or Rust, the metadata
//!   query and version rule, floors' built-ins.
//! - [`library`]: `dlopen`ed handler libraries and the `--ffi-lib` spec.
//! - [`binding`]: the safe Rust side ([`CallFrame`], typed decoding, [`FfiError`]).
//! - [`call`]: one call site: stages, state, call frames.

// The C names of the header's constants are kept (they appear in patterns).
#[allow(non_upper_case_globals)]
pub mod api;
pub mod attrs;
#[allow(non_upper_case_globals)]
pub mod binding;
pub mod c_api;
#[allow(non_upper_case_globals)]
pub mod call;
pub mod library;
pub mod registry;

pub use attrs::{Attr, Attrs, DataType, NativeType};
pub use binding::{AttrRef, BufferInfo, CallFrame, Dict, FfiError, FromAttr, Stage, invoke};
pub use call::CallSite;
pub use registry::{
    CPU_PLATFORM, CustomCallRegistry, GPU_PLATFORM, Handler, HandlerKind, RustHandler, register_process_wide, register_process_wide_rust,
};
