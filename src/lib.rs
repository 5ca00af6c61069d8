//! floors: StableHLO below fusion.
//!
//! The crate is the compiler core: dialect registration, the Rust pass layer
//! and its pipelines, dumps, diagnostics, and the driver that the CLI, the
//! Rust API and the mlir-opt plugin share. The passes themselves live in
//! `lowering/` (one file per pass, grouped by floor) and are compiled in as
//! the [`lowering`] module.
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

pub mod capi;
pub mod codegen;
pub mod context;
pub mod contract;
pub mod diagnostics;
pub mod dialects;
pub mod driver;
pub mod dump;
pub mod error;
pub mod floor;
pub mod gpu;
pub mod graph;
pub mod host_program;
pub mod ir;
pub use floors_runtime::npy;
pub mod pass;
pub mod pipelines;
pub mod plugin;
pub mod run;
pub use floors_runtime as runtime;
pub mod op_builder;
pub mod source;
pub mod target;
pub mod tpu_handoff;
pub mod tpu_import;

#[path = "../lowering/mod.rs"]
pub mod lowering;

pub use driver::{CompileOptions, Compiler, Stage};
pub use error::Error;
