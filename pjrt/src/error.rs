//! `PJRT_Error`: what every entry returns on failure (null on success). The
//! framework frees it with `PJRT_Error_Destroy` and reads it either through
//! the API entries or through the error's own function table (0.112).
//! Every entry runs inside [`guard`], so a Rust panic becomes an INTERNAL
//! error naming the entry instead of unwinding into C++.

use std::ffi::{c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::c_api::*;

/// What an entry's body returns.
pub type Result<T> = std::result::Result<T, Error>;

/// An error on its way to becoming a `PJRT_Error`.
#[derive(Debug)]
pub struct Error {
    pub code: PJRT_Error_Code,
    pub message: String,
}

impl Error {
    pub fn new(code: PJRT_Error_Code, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(PJRT_Error_Code_INVALID_ARGUMENT, message)
    }

    pub fn unimplemented(message: impl Into<String>) -> Self {
        Self::new(PJRT_Error_Code_UNIMPLEMENTED, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(PJRT_Error_Code_INTERNAL, message)
    }

    pub fn into_raw(self) -> *mut PJRT_Error {
        Box::into_raw(Box::new(PJRT_Error { vtable: &ERROR_VTABLE, code: self.code, message: self.message }))
    }
}

impl From<floors::Error> for Error {
    fn from(e: floors::Error) -> Self {
        let code = match &e {
            floors::Error::Unsupported(_) => PJRT_Error_Code_UNIMPLEMENTED,
            floors::Error::Runtime(_) => PJRT_Error_Code_INTERNAL,
            _ => PJRT_Error_Code_INVALID_ARGUMENT,
        };
        Self::new(code, e.to_string())
    }
}

impl From<floors_runtime::Error> for Error {
    fn from(e: floors_runtime::Error) -> Self {
        let code = match &e {
            floors_runtime::Error::Input { .. } => PJRT_Error_Code_INVALID_ARGUMENT,
            _ => PJRT_Error_Code_INTERNAL,
        };
        Self::new(code, e.to_string())
    }
}

/// Runs an entry's body: its error or panic becomes a `PJRT_Error`.
pub fn guard(entry: &str, body: impl FnOnce() -> Result<()>) -> *mut PJRT_Error {
    crate::trace_entry(entry);
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => std::ptr::null_mut(),
        Ok(Err(e)) => e.into_raw(),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Error::internal(format!("floors PJRT plugin: {entry} panicked: {what}")).into_raw()
        }
    }
}

/// The body of every entry floors does not implement.
pub fn unimplemented_entry(entry: &str) -> *mut PJRT_Error {
    crate::trace_entry(entry);
    Error::unimplemented(format!("{entry} is not implemented by the floors PJRT plugin")).into_raw()
}

/// Reads a `(pointer, size)` string argument.
///
/// # Safety
/// `p` must point to `n` readable bytes (or be null with `n == 0`).
pub unsafe fn str_arg<'a>(p: *const c_char, n: usize) -> &'a [u8] {
    if p.is_null() || n == 0 { &[] } else { unsafe { std::slice::from_raw_parts(p.cast(), n) } }
}

/// Dereferences an argument struct, refusing null.
///
/// # Safety
/// `p` must be null or point to a live `T`.
pub unsafe fn args<'a, T>(p: *mut T, entry: &str) -> Result<&'a mut T> {
    unsafe { p.as_mut() }.ok_or_else(|| Error::invalid(format!("{entry}: null arguments")))
}

/// Dereferences a handle, refusing null.
///
/// # Safety
/// `p` must be null or point to a live `T`.
pub unsafe fn handle<'a, T>(p: *const T, what: &str) -> Result<&'a T> {
    unsafe { p.as_ref() }.ok_or_else(|| Error::invalid(format!("null {what}")))
}

// -------------------------------------------------------------- the table ---

// SAFETY: the table holds function pointers and null only.
unsafe impl Sync for PJRT_Error_FunctionTable {}

pub static ERROR_VTABLE: PJRT_Error_FunctionTable = PJRT_Error_FunctionTable {
    struct_size: std::mem::size_of::<PJRT_Error_FunctionTable>(),
    instance_size: std::mem::size_of::<*const c_void>(),
    extension_start: std::ptr::null_mut(),
    destroy: vt_destroy,
    message: vt_message,
    get_code: vt_get_code,
    for_each_payload: vt_for_each_payload,
};

unsafe extern "C" fn vt_destroy(error: *mut PJRT_Error) {
    if !error.is_null() {
        drop(unsafe { Box::from_raw(error) });
    }
}

unsafe extern "C" fn vt_message(error: *const PJRT_Error, message: *mut *const c_char, message_size: *mut usize) {
    let (p, n) = match unsafe { error.as_ref() } {
        Some(e) => (e.message.as_ptr().cast(), e.message.len()),
        None => (c"".as_ptr(), 0),
    };
    unsafe {
        if !message.is_null() {
            *message = p;
        }
        if !message_size.is_null() {
            *message_size = n;
        }
    }
}

unsafe extern "C" fn vt_get_code(error: *const PJRT_Error) -> PJRT_Error_Code {
    unsafe { error.as_ref() }.map_or(PJRT_Error_Code_OK, |e| e.code)
}

unsafe extern "C" fn vt_for_each_payload(_error: *const PJRT_Error, _visitor: PJRT_Error_PayloadVisitor, _user_arg: *mut c_void) {
    // floors' errors carry no payloads.
}

// ------------------------------------------------------------ API entries ---

pub unsafe extern "C" fn PJRT_Error_Destroy(args: *mut PJRT_Error_Destroy_Args) {
    crate::trace_entry("PJRT_Error_Destroy");
    if let Some(a) = unsafe { args.as_mut() } {
        unsafe { vt_destroy(a.error) };
        a.error = std::ptr::null_mut();
    }
}

pub unsafe extern "C" fn PJRT_Error_Message(args: *mut PJRT_Error_Message_Args) {
    crate::trace_entry("PJRT_Error_Message");
    if let Some(a) = unsafe { args.as_mut() } {
        unsafe { vt_message(a.error, &mut a.message, &mut a.message_size) };
    }
}

pub unsafe extern "C" fn PJRT_Error_GetCode(args: *mut PJRT_Error_GetCode_Args) -> *mut PJRT_Error {
    guard("PJRT_Error_GetCode", || {
        let a = unsafe { self::args(args, "PJRT_Error_GetCode") }?;
        a.code = unsafe { vt_get_code(a.error) };
        Ok(())
    })
}

/// No payloads: returns at once. (Leaving this unimplemented makes the
/// framework loop: it asks for the payloads of every error it gets, the
/// UNIMPLEMENTED error included.)
pub unsafe extern "C" fn PJRT_Error_ForEachPayload(args: *mut PJRT_Error_ForEachPayload_Args) -> *mut PJRT_Error {
    let _ = args;
    crate::trace_entry("PJRT_Error_ForEachPayload");
    std::ptr::null_mut()
}
