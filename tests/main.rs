//! The floors crate's integration tests, one binary: every file in tests/ is a
//! module here (`cargo test --test integration <module>::` runs one), so a
//! fresh `cargo test` links one MLIR-sized test binary instead of twenty.

mod common;

mod artifact;
mod cli;
mod corpus_roundtrip;
mod cpu_kernels;
mod cpu_run;
mod element_types;
mod ffi_jax;
mod function_size;
mod fusion;
mod fuzz_sweep;
mod gpu_floor;
mod gpu_gemm;
mod gpu_sim;
mod layering;
mod passes;
mod reliability;
mod stablehlo_accessors;
mod tpu_dialect;
mod tpu_floor;
mod tpu_interp;
mod visualize;
