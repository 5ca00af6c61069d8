//! Named pipelines: short lists of passes, the way IREE and Triton name their
//! stages. Each is registered in MLIR's registry, so the same name works in
//! `mlir-opt --pass-pipeline='builtin.module(NAME)'` and from Rust.

use std::sync::Once;

use melior::StringRef;

use crate::{lowering, pass};

/// A named pipeline and the textual pass list it expands to.
#[derive(Clone, Copy, Debug)]
pub struct Pipeline {
    pub name: &'static str,
    pub description: &'static str,
    pub body: &'static str,
}

/// HLO cleanup before fusion: JAX's helpers inlined, chlo expanded into
/// stablehlo, StableHLO folds, then upstream canonicalization (dead code) and CSE.
pub const FLOORS_HLO_CLEANUP: Pipeline = Pipeline {
    name: "floors-hlo-cleanup",
    description: "Inline private helpers, legalize chlo to stablehlo, fold, canonicalize, CSE",
    body: "floors-hlo-inline,floors-hlo-legalize-chlo,floors-hlo-simplify,canonicalize,cse",
};

/// StableHLO → the fused module every floor reads.
pub const FLOORS_FUSE: Pipeline = Pipeline {
    name: "floors-fuse",
    description: "HLO cleanup, then fusion into floors.fusion ops",
    body: "floors-hlo-cleanup,floors-hlo-fuse",
};

/// Every pipeline floors registers.
pub const PIPELINES: &[Pipeline] = &[FLOORS_HLO_CLEANUP, FLOORS_FUSE];

static REGISTERED: Once = Once::new();

/// Registers floors' own passes, then its pipelines (whose bodies may name
/// upstream passes, so upstream's must be registered before this runs).
pub fn register_floors_passes_and_pipelines() {
    REGISTERED.call_once(|| {
        lowering::register_passes();
        for p in PIPELINES {
            let ok = unsafe {
                crate::capi::floorsRegisterPassPipeline(
                    StringRef::new(p.name).to_raw(),
                    StringRef::new(p.description).to_raw(),
                    StringRef::new(p.body).to_raw(),
                )
            };
            if !ok {
                tracing::error!("pipeline {} has a body that does not parse: {}", p.name, p.body);
            }
        }
    });
}

/// Re-export so callers can add a single Rust pass without naming lowering/.
pub use pass::create as create_pass;
