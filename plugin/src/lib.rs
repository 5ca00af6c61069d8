//! libfloors_plugin.so: loads floors' dialects and passes into upstream
//! `mlir-opt` (`--load-dialect-plugin=` / `--load-pass-plugin=`). Only MLIR's
//! two plugin entry points live here; everything else is the floors library.
//! The plugin links the same shared libMLIR.so as mlir-opt, so one MLIR is
//! in the process.

use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` of MLIR 22 (mlir/Tools/Plugins/*Plugin.h).
const PLUGIN_API_VERSION: u32 = 1;

#[repr(C)]
pub struct DialectPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_dialect_registry_callbacks: unsafe extern "C" fn(*mut c_void),
}

#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: extern "C" fn(),
}

const NAME: &[u8] = b"floors\0";
const VERSION: &[u8] = concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes();

unsafe extern "C" fn register_dialects(registry: *mut c_void) {
    unsafe { floors::plugin::register_dialects(registry) }
}

extern "C" fn register_passes() {
    floors::plugin::register_passes()
}

/// Entry point read by `mlir-opt --load-dialect-plugin`.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_dialect_registry_callbacks: register_dialects,
    }
}

/// Entry point read by `mlir-opt --load-pass-plugin`.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_pass_registry_callbacks: register_passes,
    }
}
