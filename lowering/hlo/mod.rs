//! The HLO floor: cleanup before fusion, and (later) fusion and its analysis.

pub mod hlo_inline;

pub use hlo_inline::HloInline;

pub fn register_passes() {
    crate::pass::register::<HloInline>();
}
