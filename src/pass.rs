//! Passes written once in Rust and usable everywhere MLIR runs passes:
//! added to a melior `PassManager`, registered by name in MLIR's global
//! registry (so `mlir-opt --pass-pipeline=...` and textual pipelines reach it),
//! and loaded into upstream mlir-opt through the plugin.

use std::{
    any::TypeId as RustTypeId,
    collections::HashMap,
    ffi::CString,
    sync::{LazyLock, Mutex},
};

use melior::{
    ContextRef,
    dialect::DialectHandle,
    ir::{OperationRef, operation::OperationLike, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use mlir_sys::{MlirPass, mlirEmitError};

/// Why a pass failed: a message at a location (the op that could not be handled).
#[derive(Debug)]
pub struct PassFailure {
    pub location: Option<mlir_sys::MlirLocation>,
    pub message: String,
}

/// A failure reported at a raw op's location.
pub fn fail_at(op: mlir_sys::MlirOperation, message: impl Into<String>) -> PassFailure {
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

    fn new() -> Self;

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
        let _span = tracing::debug_span!("pass", name = P::ARGUMENT).entered();
        if let Err(failure) = self.0.run(operation) {
            let loc = failure.location.unwrap_or_else(|| operation.location().to_raw());
            let msg = CString::new(format!("{}: {}", P::ARGUMENT, failure.message).replace('\0', " "))
                .expect("NUL removed");
            unsafe { mlirEmitError(loc, msg.as_ptr()) };
            pass.signal_failure();
        }
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
    unsafe { crate::capi::floorsRegisterPass(Some(create_raw::<P>)) }
}
