//! The CPU floor: fusion bodies → linalg/tensor → (later) tile/vectorize →
//! bufferize → LLVM.

pub mod cpu_lower_to_linalg;

pub use cpu_lower_to_linalg::CpuLowerToLinalg;

pub fn register_passes() {
    crate::pass::register::<CpuLowerToLinalg>();
}
