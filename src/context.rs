//! MLIR contexts with every dialect floors reads or writes, and the one-time
//! registration of passes and pipelines.

use std::sync::Once;

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
};

use crate::dialects;

/// A context with upstream's dialects, floors' own, and the LLVM translations.
pub fn create_context() -> Context {
    init();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    dialects::insert_into(&registry);
    let context = Context::new_with_registry(&registry, true);
    context.load_all_available_dialects();
    register_all_llvm_translations(&context);
    context
}

/// The handles of floors' own dialects, for passes that create their ops.
pub fn floors_dialect_handles() -> Vec<DialectHandle> {
    dialects::handles()
}

static INIT: Once = Once::new();

/// Registers upstream passes, then floors' passes and named pipelines, once per
/// process. Library users and the CLI go through here; the plugin registers
/// only floors' own (mlir-opt has registered upstream's already).
pub fn init() {
    INIT.call_once(|| {
        register_all_passes();
        crate::pipelines::register_floors_passes_and_pipelines();
    });
}
