//! Passes written once in Rust and usable everywhere MLIR runs passes:
//! added to a melior `PassManager`, registered by name in MLIR's global
//! registry (so `mlir-opt --pass-pipeline=...` and textual pipelines reach it),
//! and loaded into upstream mlir-opt through the plugin.

use std::{
    any::TypeId as RustTypeId,
    collections::HashMap,
    ffi::{CString, c_void},
    sync::{LazyLock, Mutex},
};

use melior::{
    ContextRef,
    dialect::DialectHandle,
    ir::{OperationRef, operation::OperationLike, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use mlir_sys::{MlirDialectHandle, MlirOperation, MlirPass, MlirStringRef, mlirEmitError};

/// Why a pass failed: a message at a location (the op that could not be handled).
#[derive(Debug)]
pub struct PassFailure {
    pub location: Option<mlir_sys::MlirLocation>,
    pub message: String,
}

/// A failure reported at a raw op's location.
pub fn fail_at(op: mlir_sys::MlirOperation, message: impl Into<String>) -> PassFailure {
    // SAFETY: callers pass a live op of the IR the pass runs on.
    PassFailure { location: Some(unsafe { mlir_sys::mlirOperationGetLocation(op) }), message: message.into() }
}

impl PassFailure {
    /// A failure reported at `op`'s location.
    pub fn at<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, message: impl Into<String>) -> Self {
        Self { location: Some(op.location().to_raw()), message: message.into() }
    }
}

/// A pass written in Rust.
pub trait FloorsPass: Clone + Send + 'static {
    /// The name in pipelines: `floors-<floor>-<verb>-<noun>`.
    const ARGUMENT: &'static str;
    /// The C++-style class name shown by pass statistics and crash reports.
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    /// The op the pass is anchored on; "" runs on any op.
    const ANCHOR: &'static str = "builtin.module";

    /// Options the pass takes in pipelines, `argument{name=value ...}`, as
    /// (name, description). Empty for most passes.
    const OPTIONS: &'static [(&'static str, &'static str)] = &[];

    fn new() -> Self;

    /// Sets option `name` (one of [`FloorsPass::OPTIONS`]) before each run,
    /// to the pipeline's value or "" when it gave none. An error fails the
    /// run with that message.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let _ = value;
        Err(format!("unknown option `{name}`"))
    }

    /// Dialects whose ops the pass may create (loaded before it runs).
    fn dependent_dialects() -> Vec<DialectHandle> {
        Vec::new()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure>;
}

#[derive(Clone)]
struct Adapter<P: FloorsPass>(P);

impl<'c, P: FloorsPass> RunExternalPass<'c> for Adapter<P> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        if !run_and_report(&mut self.0, operation) {
            pass.signal_failure();
        }
    }
}

/// Runs the pass; a failure becomes an error diagnostic (false). So does a
/// panic: it must not unwind into MLIR's C++ (that aborts the process,
/// mlir-opt included), so it is caught here and reported at the op the pass
/// ran on, with where in floors it happened.
fn run_and_report<P: FloorsPass>(pass: &mut P, operation: OperationRef<'_, '_>) -> bool {
    let _span = tracing::debug_span!("pass", name = P::ARGUMENT).entered();
    let result = catching_panics(|| pass.run(operation));
    match result {
        Ok(Ok(())) => true,
        Ok(Err(failure)) => {
            let loc = failure.location.unwrap_or_else(|| operation.location().to_raw());
            emit_error::<P>(loc, &failure.message);
            false
        }
        Err(panic) => {
            emit_error::<P>(operation.location().to_raw(), &format!("internal error: the pass panicked: {panic}"));
            false
        }
    }
}

thread_local! {
    /// Set while a pass runs on this thread: the panic hook then records the
    /// message instead of printing it (the diagnostic carries it).
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`; a panic becomes `Err(message at file:line)`.
pub fn catching_panics<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(|c| c.get()) {
                let at = info.location().map(|l| format!(" (at {}:{})", l.file(), l.line())).unwrap_or_default();
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "(no message)".into());
                CAUGHT.with(|c| *c.borrow_mut() = Some(format!("{msg}{at}")));
            } else {
                previous(info);
            }
        }));
    });
    let was = CATCHING.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    result.map_err(|_| CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_else(|| "(no message)".into()))
}

fn emit_error<P: FloorsPass>(loc: mlir_sys::MlirLocation, message: &str) {
    let msg = CString::new(format!("{}: {}", P::ARGUMENT, message).replace('\0', " ")).expect("NUL removed");
    // SAFETY: `loc` is a live location (of the op the pass ran on, or one the pass reported); `msg` is NUL-terminated
    // and alive for the call, and MLIR copies it.
    unsafe { mlirEmitError(loc, msg.as_ptr()) };
}

// ---- passes with options (floorsCreatePassWithOptions) ---------------------

/// Frees the pass state of a pass made by [`create_with_options`].
///
/// # Safety
///
/// `user` must come from `Box::into_raw` of a `P` (as `create_with_options`
/// and [`options_clone`] make it) and must not be used after this call.
unsafe extern "C" fn options_destruct<P: FloorsPass>(user: *mut c_void) {
    // SAFETY: MLIR calls this once, from the pass's destructor, with the pointer `create_with_options` or
    // `options_clone` got from `Box::into_raw` of a `P`; nothing uses it afterwards.
    drop(unsafe { Box::from_raw(user.cast::<P>()) });
}

/// A boxed copy of the pass state, for a clone of the pass.
///
/// # Safety
///
/// `user` must point at a live `P` made by `Box::into_raw` that nothing
/// mutates during the call.
unsafe extern "C" fn options_clone<P: FloorsPass>(user: *mut c_void) -> *mut c_void {
    // SAFETY: `user` is the live `Box<P>` of the pass being cloned (it owns it until its destructor); only a shared
    // borrow is taken, for the clone.
    let pass = unsafe { &*user.cast::<P>() };
    Box::into_raw(Box::new(pass.clone())).cast()
}

/// Sets the options and runs the pass on `op`.
///
/// # Safety
///
/// `user` must point at a live `P` (the pass instance's own) that nothing
/// else accesses during the call, `op` must be a live operation, and
/// `values` must point at `num_options` (at least one) valid string
/// references.
unsafe extern "C" fn options_run<P: FloorsPass>(
    user: *mut c_void,
    op: MlirOperation,
    num_options: isize,
    values: *const MlirStringRef,
) -> bool {
    // SAFETY: `user` is this pass instance's own `Box<P>`; MLIR runs one instance on one thread at a time, so this is
    // the only borrow.
    let pass = unsafe { &mut *user.cast::<P>() };
    // SAFETY: `op` is the live op MLIR runs the pass on, borrowed for this call only.
    let operation = unsafe { OperationRef::from_raw(op) };
    // SAFETY: `values` points at `num_options` string references (one per option, at least one: only passes with
    // options are made this way), alive for the call.
    let values = unsafe { std::slice::from_raw_parts(values, num_options as usize) };
    for ((name, _), value) in P::OPTIONS.iter().zip(values) {
        let value = crate::ir::raw::string(*value);
        if let Err(message) = pass.set_option(name, &value) {
            emit_error::<P>(operation.location().to_raw(), &format!("option `{name}={value}`: {message}"));
            return false;
        }
    }
    run_and_report(pass, operation)
}

fn create_with_options<P: FloorsPass>() -> Pass {
    let names: Vec<MlirStringRef> = P::OPTIONS.iter().map(|(n, _)| crate::ir::raw::sref(n)).collect();
    let descriptions: Vec<MlirStringRef> = P::OPTIONS.iter().map(|(_, d)| crate::ir::raw::sref(d)).collect();
    let mut dialects: Vec<MlirDialectHandle> = P::dependent_dialects().into_iter().map(|d| d.to_raw()).collect();
    let callbacks = crate::capi::FloorsOptionPassCallbacks {
        destruct: Some(options_destruct::<P>),
        clone: Some(options_clone::<P>),
        run: Some(options_run::<P>),
    };
    // SAFETY: the name, argument, description and anchor are `&'static str`, and so are the option names and
    // descriptions the shim keeps; it copies `dialects` and the other strings. It takes ownership of the boxed `P`
    // (freed by `options_destruct`), and `Pass::from_raw` takes the new pass.
    unsafe {
        Pass::from_raw(crate::capi::floorsCreatePassWithOptions(
            TypeId::create(anchor::<P>()).to_raw(),
            crate::ir::raw::sref(P::NAME),
            crate::ir::raw::sref(P::ARGUMENT),
            crate::ir::raw::sref(P::DESCRIPTION),
            crate::ir::raw::sref(P::ANCHOR),
            dialects.len() as isize,
            dialects.as_mut_ptr(),
            names.len() as isize,
            names.as_ptr(),
            descriptions.as_ptr(),
            callbacks,
            Box::into_raw(Box::new(P::new())).cast(),
        ))
    }
}

/// MLIR identifies a pass class by a TypeID made from a unique address; one
/// leaked, 8-aligned anchor per Rust pass type gives exactly that.
#[repr(align(8))]
struct Anchor(#[allow(dead_code)] u64);

static ANCHORS: LazyLock<Mutex<HashMap<RustTypeId, &'static Anchor>>> = LazyLock::new(Default::default);

fn anchor<P: 'static>() -> &'static Anchor {
    let mut map = ANCHORS.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(RustTypeId::of::<P>()).or_insert_with(|| Box::leak(Box::new(Anchor(0))))
}

/// A fresh instance of the pass, for `PassManager::add_pass`.
pub fn create<P: FloorsPass>() -> Pass {
    if !P::OPTIONS.is_empty() {
        return create_with_options::<P>();
    }
    create_external(
        Adapter(P::new()),
        TypeId::create(anchor::<P>()),
        P::NAME,
        P::ARGUMENT,
        P::DESCRIPTION,
        P::ANCHOR,
        &P::dependent_dialects(),
    )
}

extern "C" fn create_raw<P: FloorsPass>() -> MlirPass {
    create::<P>().to_raw()
}

/// Puts the pass in MLIR's global registry under its argument.
pub fn register<P: FloorsPass>() {
    // SAFETY: `create_raw::<P>` is a plain function that returns a fresh pass on every call, as the registry
    // requires.
    unsafe { crate::capi::floorsRegisterPass(Some(create_raw::<P>)) }
}
