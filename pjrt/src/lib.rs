//! `libfloors_pjrt.so`: a PJRT plugin (C API 0.112, what jaxlib 0.10.2
//! speaks), so JAX runs `jax.jit` programs on floors' CPU floor:
//!
//! ```sh
//! JAX_PLATFORMS=floors python prog.py      # with python/ (jax_plugins.floors) importable
//! ```
//!
//! What it is:
//! - one client with N CPU-floor devices (`floors:0` ... `floors:N-1`,
//!   `FLOORS_DEVICE_COUNT=N`, default 1), each with one memory (kind
//!   `device`); a program lowered for R replicas x P partitions runs on R x P
//!   of them as an SPMD launch (see [`executable`]);
//! - buffers are host arrays in floors' runtime layout (dense, row-major);
//!   every transfer and every execution is synchronous, so every event the
//!   plugin hands out is already complete;
//! - compile: JAX sends a VHLO portable artifact (MLIR bytecode); a child
//!   process of the calling Python turns it into StableHLO text ([`vhlo`]),
//!   which floors compiles exactly as `floors run` does (fusion, the CPU
//!   floor, the kernel shared object, the runtime's executable); compiled
//!   programs are cached by their text;
//! - execute: the runtime's thunk executor; nothing is donated;
//! - errors: floors' located diagnostics become the message of the
//!   `PJRT_Error`, which JAX raises as an exception; a panic in the plugin
//!   is caught at the entry and becomes an INTERNAL error.
//!
//! Environment: `FLOORS_PJRT_PYTHON` (the interpreter of the converter; the
//! Python package sets it to `sys.executable`), `FLOORS_PJRT_THREADS` (threads
//! of the executor, and workgroups kernels are split into; default 1),
//! `FLOORS_PJRT_DUMP_DIR` (write every program's StableHLO text there, and name
//! it so in diagnostics), `FLOORS_PJRT_TRACE=1` (log every entry on stderr),
//! `FLOORS_FLAGS` (floors' dump flags, as for library users).

// The C API's names are kept as the header spells them; the safety contract
// of every `unsafe extern "C"` entry is the header's (valid argument structs).
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, clippy::missing_safety_doc)]

pub mod api;
pub mod buffer;
pub mod c_api;
pub mod client;
pub mod compile_options;
pub mod custom_calls;
pub mod error;
pub mod event;
pub mod executable;
pub mod vhlo;

use std::sync::OnceLock;

/// The plugin's entry point, the symbol JAX looks up (this spelling).
#[unsafe(no_mangle)]
pub extern "C" fn GetPjrtApi() -> *const api::PJRT_Api {
    &api::API
}

/// Logs an entry on stderr when `FLOORS_PJRT_TRACE` is set.
pub fn trace_entry(entry: &str) {
    static ON: OnceLock<bool> = OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("FLOORS_PJRT_TRACE").is_some_and(|v| !v.is_empty() && v != "0")) {
        eprintln!("floors-pjrt: {entry}");
    }
}
