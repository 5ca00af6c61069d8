//! What the mlir-opt plugin calls. The plugin crate only adapts MLIR's plugin
//! ABI to these two functions, so all logic stays in the library.

use mlir_sys::{MlirDialectRegistry, mlirDialectHandleInsertDialect};

use crate::dialects;

/// Inserts floors' dialects into mlir-opt's registry.
///
/// # Safety
/// `registry` must be a live `mlir::DialectRegistry*` from the host tool.
pub unsafe fn register_dialects(registry: *mut std::ffi::c_void) {
    // The host owns the registry; only insert into it.
    let raw = MlirDialectRegistry { ptr: registry };
    for h in dialects::handles() {
        // SAFETY: `raw` wraps the live host registry (the caller's contract, see `# Safety`), and each handle is a
        // static dialect registration handle.
        unsafe { mlirDialectHandleInsertDialect(h.to_raw(), raw) };
    }
}

/// Registers floors' passes and pipelines (mlir-opt registered upstream's).
pub fn register_passes() {
    crate::pipelines::register_floors_passes_and_pipelines();
}
