//! Custom-call targets that come from the Python side of the plugin.
//!
//! - [`floors_pjrt_register_ffi_target`]: the plugin package hands JAX a
//!   custom-call handler for the platform `floors`
//!   (`xla_client.register_custom_call_handler`), so
//!   `jax.ffi.register_ffi_target(name, capsule, platform="floors")` and the
//!   LAPACK handlers jaxlib ships (`lapack_*_ffi`, what JAX's CPU lowering of
//!   `jnp.linalg` calls) land in floors' process-wide FFI registry.
//! - [`floors_pjrt_set_python_callback`]: host callbacks. The package lowers
//!   `jax.debug.print`, `jax.debug.callback`, `jax.pure_callback` and
//!   `io_callback` on `floors` to `custom_call @floors_python_callback` with
//!   a `callback_id`; its handler calls the trampoline the package installs
//!   here, which runs the Python function in the calling process and writes
//!   its results into the call's result buffers. An exception becomes the
//!   call's error, located at the call by the runtime.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::OnceLock;

use floors_runtime::ffi::c_api::{XLA_FFI_Handler, XLA_FFI_Handler_Bundle};
use floors_runtime::ffi::{CPU_PLATFORM, FfiError, RustHandler, register_process_wide, register_process_wide_rust};

/// The custom-call target of host callbacks on floors.
pub const PYTHON_CALLBACK_TARGET: &str = "floors_python_callback";

/// One buffer handed to the Python trampoline.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FloorsCallbackBuffer {
    pub data: *mut c_void,
    /// `XLA_FFI_DataType` (XLA's `PrimitiveType` numbering).
    pub dtype: i32,
    pub rank: i32,
    pub dims: *const i64,
}

/// The trampoline: `(callback_id, args, nargs, rets, nrets, err, err_len)`,
/// 0 on success; otherwise a message (NUL-terminated, at most `err_len`
/// bytes) in `err`.
pub type FloorsPythonCallback =
    unsafe extern "C" fn(u64, *const FloorsCallbackBuffer, usize, *const FloorsCallbackBuffer, usize, *mut c_char, usize) -> c_int;

static TRAMPOLINE: OnceLock<FloorsPythonCallback> = OnceLock::new();

/// Writes `msg` into the caller's `err` buffer (truncated, NUL-terminated).
///
/// # Safety
/// `err` is null or points to `len` writable bytes.
unsafe fn write_error(err: *mut c_char, len: usize, msg: &str) {
    if err.is_null() || len == 0 {
        return;
    }
    let n = msg.len().min(len - 1);
    // SAFETY: `err` has `len` bytes and `n + 1 <= len`.
    unsafe {
        std::ptr::copy_nonoverlapping(msg.as_ptr(), err as *mut u8, n);
        *err.add(n) = 0;
    }
}

/// Registers an XLA FFI handler (its stages as function pointers; null for a
/// stage it does not have) for the target `name` on floors' CPU floor.
/// Returns 0, or 1 with the reason in `err` (no execute stage, a handler of a
/// newer FFI version, an empty name).
///
/// # Safety
/// `name` is a NUL-terminated string; each non-null stage is an XLA FFI
/// handler; `err` is null or has `err_len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn floors_pjrt_register_ffi_target(
    name: *const c_char,
    instantiate: *mut c_void,
    prepare: *mut c_void,
    initialize: *mut c_void,
    execute: *mut c_void,
    err: *mut c_char,
    err_len: usize,
) -> c_int {
    let result = std::panic::catch_unwind(|| {
        if name.is_null() {
            return Err("floors_pjrt_register_ffi_target: null target name".to_string());
        }
        // SAFETY: the caller passes a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
        let stage = |p: *mut c_void| -> Option<XLA_FFI_Handler> {
            // SAFETY: a non-null stage is an XLA FFI handler (the contract);
            // function and data pointers have one size on every target floors
            // builds for.
            (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, XLA_FFI_Handler>(p) })
        };
        let bundle = XLA_FFI_Handler_Bundle {
            instantiate: stage(instantiate),
            prepare: stage(prepare),
            initialize: stage(initialize),
            execute: stage(execute),
        };
        // SAFETY: the stages are XLA FFI handlers (the contract).
        unsafe { register_process_wide(&name, CPU_PLATFORM, bundle, "jax.ffi.register_ffi_target(platform=\"floors\")") }
    });
    let message = match result {
        Ok(Ok(())) => return 0,
        Ok(Err(e)) => e,
        Err(_) => "floors_pjrt_register_ffi_target: internal error (panic)".to_string(),
    };
    // SAFETY: the caller's contract on `err`.
    unsafe { write_error(err, err_len, &message) };
    1
}

/// Installs the host-callback trampoline (once per process; a second call
/// keeps the first) and registers `floors_python_callback`.
///
/// # Safety
/// `trampoline` stays callable for the life of the process and follows
/// [`FloorsPythonCallback`]'s contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn floors_pjrt_set_python_callback(trampoline: FloorsPythonCallback) -> c_int {
    let _ = TRAMPOLINE.set(trampoline);
    register_process_wide_rust(PYTHON_CALLBACK_TARGET, CPU_PLATFORM, RustHandler::new(python_callback), "floors plugin (host callbacks)");
    0
}

fn python_callback(frame: &floors_runtime::ffi::CallFrame<'_>) -> Result<(), FfiError> {
    let Some(trampoline) = TRAMPOLINE.get() else {
        return Err(FfiError::failed_precondition(
            "host callback: no Python trampoline is installed (the jax_plugins.floors package installs it)",
        ));
    };
    let id: u64 = frame.attr("callback_id")?;
    let view = |b: floors_runtime::ffi::BufferInfo<'_>| FloorsCallbackBuffer {
        data: b.data,
        dtype: b.dtype,
        rank: b.dims.len() as i32,
        dims: b.dims.as_ptr(),
    };
    let args = (0..frame.num_args()).map(|i| frame.arg_info(i).map(view)).collect::<Result<Vec<_>, _>>()?;
    let rets = (0..frame.num_rets()).map(|i| frame.ret_info(i).map(view)).collect::<Result<Vec<_>, _>>()?;
    let mut err = vec![0 as c_char; 8192];
    // SAFETY: the buffers' pointers and dims live in this call frame for the
    // duration of the call; the trampoline's contract is the caller's.
    let rc = unsafe { trampoline(id, args.as_ptr(), args.len(), rets.as_ptr(), rets.len(), err.as_mut_ptr(), err.len()) };
    if rc == 0 {
        return Ok(());
    }
    // The message ends at the first NUL, or at the buffer's end.
    let bytes: Vec<u8> = err.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    let msg = String::from_utf8_lossy(&bytes).into_owned();
    Err(FfiError::internal(format!("host callback {id} raised: {msg}")))
}
