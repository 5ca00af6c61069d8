//! MLIR contexts with every dialect floors reads or writes. Creating one
//! registers no pass: the driver (and the plugin) register the passes and
//! pipelines of every crate once, before they parse a pipeline.

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    utility::{register_all_dialects, register_all_llvm_translations},
};

use crate::dialects;

/// A context with upstream's dialects, floors' own, and the LLVM translations.
pub fn create_context() -> Context {
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
