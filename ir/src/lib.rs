//! floors-ir: the MLIR toolkit every other compiler crate builds on.
//!
//! It owns the C++ side (the dialects' ODS and C++ under `dialects/`, the
//! shims in `cxx/`, compiled by `build.rs` with the clang of the LLVM that
//! built libMLIR.so) and its C API ([`capi`]), MLIR contexts with floors'
//! dialects ([`context`]), the typed dialect wrappers ([`dialects`]) and
//! builders for upstream attributes the C API lacks ([`attrs`]), the
//! Rust pass layer ([`pass`]), IR helpers ([`ir`], [`op_builder`]), the
//! targets ([`target`]), located diagnostics and the one error type, and the
//! contract between compiler and runtime ([`contract`]). It registers no
//! pass: the driver and the plugin do, once, with the passes of every crate.

pub mod attrs;
pub mod capi;
pub mod context;
pub mod contract;
pub mod diagnostics;
pub mod dialects;
pub mod error;
pub mod ir;
pub mod library_call;
pub mod op_builder;
pub mod pass;
pub mod source;
pub mod target;

pub use error::{Error, Result};
