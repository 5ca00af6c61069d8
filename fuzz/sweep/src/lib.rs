//! A mutation sweep over the StableHLO corpus: deterministic, seeded
//! mutations of the corpus programs (and of their `.npy` inputs and compiled
//! artifacts) run through the `floors` CLI and `floors-run`, each outcome
//! classified as ok, a located diagnostic, a usage error, an unlocated error,
//! a crash or a timeout. Crashers, unlocated errors and timeouts are kept as
//! files with a script that reproduces them.
//!
//! Std only: the same files are the library of `fuzz/sweep` (the
//! `floors-sweep` binary behind `scripts/fuzz.sh`) and a module of the
//! `tests/fuzz_sweep.rs` integration test. The modules: the corpus, the
//! rng, mutations of program text, of inputs and of artifacts, running and
//! classifying, the sweep itself (`driver`); everything public is
//! re-exported here.
#![allow(dead_code)]

mod classify;
mod corpus;
mod driver;
mod inputs;
mod program;
mod rng;

pub use classify::*;
pub use corpus::*;
pub use driver::*;
pub use inputs::*;
pub use program::*;
pub use rng::*;
