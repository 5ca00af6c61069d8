//! The passes, one file per pass, grouped by floor. Dependencies point one
//! way: every floor may use `hlo` (cleanup, fusion analysis), never another
//! floor.

pub mod cpu;
pub mod hlo;

/// Registers every pass of every floor in MLIR's registry.
pub fn register_passes() {
    hlo::register_passes();
    cpu::register_passes();
}
