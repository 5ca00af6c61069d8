//! floors: StableHLO below fusion.
//!
//! This crate is the driver the CLI, the Rust API, the mlir-opt plugin and
//! the PJRT plugin share: compile options and stages ([`driver`]), the floor
//! interface each target's compile goes through ([`floor`]), the named
//! pipelines and the one-time pass registration ([`pipelines`]), dumps,
//! the fusion graph, and `floors run`. The compiler itself is in the
//! workspace's other crates, which Cargo keeps in layers: `floors-ir` (the
//! MLIR toolkit), `floors-hlo` and `floors-linalg` (shared lowering),
//! `floors-cpu`, `floors-gpu`, `floors-tpu` (one per floor, with its
//! serialization), `floors-host` (the host program), and `floors-runtime`.
//!
//! ```no_run
//! use floors::{Compiler, CompileOptions, Stage};
//!
//! let compiler = Compiler::new(CompileOptions::from_env()?)?;
//! let text = std::fs::read_to_string("prog.mlir").unwrap();
//! let out = compiler.compile_source("prog.mlir", &text, Stage::Hlo)?;
//! println!("{out}");
//! # Ok::<(), floors::Error>(())
//! ```

pub mod driver;
pub mod dump;
pub mod floor;
pub mod graph;
pub mod pipelines;
pub mod plugin;
pub mod run;

// The toolkit, under the names the API has always had.
pub use floors_ir::{capi, context, contract, diagnostics, dialects, error, ir, op_builder, pass, source, target};
pub use floors_runtime as runtime;
pub use floors_runtime::npy;

pub use driver::{CompileOptions, Compiler, Stage};
pub use error::Error;
