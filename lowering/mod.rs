//! The passes, one file per pass, grouped by floor. Dependencies point one
//! way: `hlo` (cleanup, fusion, fusion analysis) and `linalg` (the
//! target-neutral lowering: stablehlo → linalg, outlining, distribution) are
//! shared; every floor (`cpu`, `gpu`, `tpu`) may use them, never another
//! floor, and the shared folders use no floor.

pub mod cpu;
pub mod gpu;
pub mod hlo;
pub mod linalg;
pub mod tpu;

/// Registers every pass of every floor in MLIR's registry.
pub fn register_passes() {
    hlo::register_passes();
    linalg::register_passes();
    cpu::register_passes();
    gpu::register_passes();
    tpu::register_passes();
}
