//! Custom-call handlers by (target name, platform): C handlers (an
//! `XLA_FFI_Handler_Bundle`, from a shared library or registered through
//! the API table's `XLA_FFI_Handler_Register`) and Rust handlers (closures
//! over the safe [`CallFrame`] binding), including floors' built-ins.
//!
//! A C handler is asked for its metadata when it is registered, as XLA
//! does: every stage's function is called once with a frame carrying the
//! `XLA_FFI_Metadata_Extension`, and answers with the FFI version its
//! headers had. A newer major version is refused (so is a newer minor of
//! this major: the handler may call entries floors' table lacks); older
//! minors are accepted.

use std::any::Any;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, LazyLock, Mutex};

use super::api::{self, UserData, take_error};
use super::binding::{CallFrame, FfiError, Stage};
use super::c_api::*;
use super::library::{FfiLibrary, SpecItem, parse_spec};
use crate::error::{Error, Result};

/// The platform of the CPU floor (XLA also calls it `Host`).
pub const CPU_PLATFORM: &str = "cpu";

/// The platform of the GPU floor (XLA's `CUDA`, lowercased): its handlers
/// get device buffers and the thunk's stream through `XLA_FFI_Stream_Get`.
pub const GPU_PLATFORM: &str = "cuda";

/// XLA's platform names, lowercased; `host` is `cpu`.
pub fn canonical_platform(p: &str) -> String {
    let l = p.trim().to_ascii_lowercase();
    if l == "host" { CPU_PLATFORM.into() } else { l }
}

/// A Rust handler's execute stage.
pub type RustExecuteFn = dyn Fn(&CallFrame<'_>) -> std::result::Result<(), FfiError> + Send + Sync;
/// A Rust handler's instantiate stage: the call site's state, if any.
pub type RustInstantiateFn = dyn Fn(&CallFrame<'_>) -> std::result::Result<Option<Box<dyn Any + Send + Sync>>, FfiError> + Send + Sync;

/// A handler written in Rust against [`CallFrame`].
#[derive(Clone)]
pub struct RustHandler {
    pub instantiate: Option<Arc<RustInstantiateFn>>,
    pub execute: Arc<RustExecuteFn>,
}

impl RustHandler {
    pub fn new(execute: impl Fn(&CallFrame<'_>) -> std::result::Result<(), FfiError> + Send + Sync + 'static) -> Self {
        Self { instantiate: None, execute: Arc::new(execute) }
    }

    /// Adds an instantiate stage: run once per call site when the program is
    /// loaded; what it returns is [`CallFrame::state`] in every execute.
    pub fn with_instantiate(
        mut self,
        instantiate: impl Fn(&CallFrame<'_>) -> std::result::Result<Option<Box<dyn Any + Send + Sync>>, FfiError> + Send + Sync + 'static,
    ) -> Self {
        self.instantiate = Some(Arc::new(instantiate));
        self
    }
}

#[derive(Clone)]
pub enum HandlerKind {
    /// A C handler and the FFI version it was built for.
    C {
        bundle: XLA_FFI_Handler_Bundle,
        api_version: (i32, i32),
    },
    Rust(RustHandler),
}

/// A registered handler and where it came from (`built-in`, `Rust`,
/// `libfoo.so:RmsNorm`, ...), for listings and errors.
#[derive(Clone)]
pub struct Handler {
    pub kind: HandlerKind,
    pub origin: String,
}

impl Handler {
    pub fn has_stage(&self, s: Stage) -> bool {
        match &self.kind {
            HandlerKind::C { bundle, .. } => match s {
                Stage::Instantiate => bundle.instantiate.is_some(),
                Stage::Prepare => bundle.prepare.is_some(),
                Stage::Initialize => bundle.initialize.is_some(),
                Stage::Execute => bundle.execute.is_some(),
            },
            HandlerKind::Rust(r) => match s {
                Stage::Instantiate => r.instantiate.is_some(),
                Stage::Execute => true,
                _ => false,
            },
        }
    }
}

/// Calls `handler` with a metadata query frame, as XLA does before it
/// registers a handler; the handler fills in its FFI version.
///
/// # Safety
/// `handler` is an XLA FFI handler.
pub unsafe fn query_metadata(handler: XLA_FFI_Handler) -> std::result::Result<XLA_FFI_Metadata, String> {
    let mut metadata = XLA_FFI_Metadata {
        struct_size: XLA_FFI_Metadata_STRUCT_SIZE,
        api_version: XLA_FFI_Api_Version {
            struct_size: XLA_FFI_Api_Version_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            major_version: 0,
            minor_version: 0,
        },
        traits: 0,
        state_type_id: XLA_FFI_UNKNOWN_TYPE_ID,
    };
    let mut ext = XLA_FFI_Metadata_Extension {
        extension_base: XLA_FFI_Extension_Base {
            struct_size: XLA_FFI_Metadata_Extension_STRUCT_SIZE,
            type_: XLA_FFI_Extension_Metadata,
            next: std::ptr::null_mut(),
        },
        metadata: &mut metadata,
    };
    let empty_args = XLA_FFI_Args {
        struct_size: XLA_FFI_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        size: 0,
        types: std::ptr::null_mut(),
        args: std::ptr::null_mut(),
    };
    let mut frame = XLA_FFI_CallFrame {
        struct_size: XLA_FFI_CallFrame_STRUCT_SIZE,
        extension_start: &mut ext.extension_base,
        api: api::api(),
        ctx: std::ptr::null_mut(),
        stage: XLA_FFI_ExecutionStage_EXECUTE,
        args: empty_args,
        rets: XLA_FFI_Rets {
            struct_size: XLA_FFI_Rets_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            size: 0,
            types: std::ptr::null_mut(),
            rets: std::ptr::null_mut(),
        },
        attrs: XLA_FFI_Attrs {
            struct_size: XLA_FFI_Attrs_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            size: 0,
            types: std::ptr::null_mut(),
            names: std::ptr::null_mut(),
            attrs: std::ptr::null_mut(),
        },
        future: std::ptr::null_mut(),
    };
    // SAFETY: `handler` is an XLA FFI handler (the contract); the frame and what it points to outlive the call.
    let err = unsafe { call_guarded(handler, &mut frame) }.map_err(|e| format!("its metadata query failed: {e}"))?;
    if let Some((code, message)) = unsafe { take_error(err) } {
        return Err(format!("its metadata query failed ({}): {message}", api::error_code_name(code)));
    }
    Ok(metadata)
}

unsafe extern "C" {
    /// `runtime/cxx/ffi_guard.cc`.
    fn floors_ffi_guarded_call(
        handler: XLA_FFI_Handler,
        frame: *mut XLA_FFI_CallFrame,
        threw: *mut std::ffi::c_int,
        what: *mut std::ffi::c_char,
        len: usize,
    ) -> *mut XLA_FFI_Error;
}

/// Calls a C handler behind a C++ `catch` (`runtime/cxx/ffi_guard.cc`): an
/// exception the handler lets escape is an `Err` with its message, never an
/// unwind into Rust (which aborts the process).
///
/// # Safety
/// `handler` is an XLA FFI handler and `frame` a call frame valid for the call.
pub unsafe fn call_guarded(handler: XLA_FFI_Handler, frame: *mut XLA_FFI_CallFrame) -> std::result::Result<*mut XLA_FFI_Error, String> {
    let mut threw = 0;
    let mut what = vec![0 as std::ffi::c_char; 1024];
    // SAFETY: the shim calls `handler(frame)` (the caller's contract) and writes at most `what.len()` bytes.
    let err = unsafe { floors_ffi_guarded_call(handler, frame, &mut threw, what.as_mut_ptr(), what.len()) };
    if threw != 0 {
        // SAFETY: the shim NUL-terminates within the buffer.
        let message = unsafe { std::ffi::CStr::from_ptr(what.as_ptr()) }.to_string_lossy().into_owned();
        return Err(format!("the handler threw a C++ exception: {message}"));
    }
    Ok(err)
}

/// The version rule: the same major version and at most floors' minor.
pub fn check_version(major: i32, minor: i32) -> std::result::Result<(), String> {
    let ours = format!("{XLA_FFI_API_MAJOR}.{XLA_FFI_API_MINOR}");
    if major > XLA_FFI_API_MAJOR {
        return Err(format!(
            "it was built for XLA FFI API {major}.{minor}, a newer major version than floors implements ({ours}); rebuild it against FFI {ours} headers (jaxlib 0.10.2's)"
        ));
    }
    if major < XLA_FFI_API_MAJOR {
        return Err(format!("it was built for XLA FFI API {major}.{minor}, an older major version than floors implements ({ours})"));
    }
    if minor > XLA_FFI_API_MINOR {
        return Err(format!(
            "it was built for XLA FFI API {major}.{minor}, newer than floors' {ours}: it may call API entries floors does not have; rebuild it against FFI {ours} headers (jaxlib 0.10.2's)"
        ));
    }
    Ok(())
}

/// A checked C handler: an execute stage, and every stage's metadata
/// within the version rule.
///
/// # Safety
/// The bundle's functions are XLA FFI handlers.
pub unsafe fn c_handler(name: &str, bundle: XLA_FFI_Handler_Bundle, origin: &str) -> std::result::Result<Handler, String> {
    let Some(execute) = bundle.execute else {
        return Err(format!("handler for `{name}` ({origin}) has no execute stage"));
    };
    let stages = [
        (Stage::Instantiate, bundle.instantiate),
        (Stage::Prepare, bundle.prepare),
        (Stage::Initialize, bundle.initialize),
        (Stage::Execute, Some(execute)),
    ];
    let mut version = (XLA_FFI_API_MAJOR, XLA_FFI_API_MINOR);
    for (stage, f) in stages {
        let Some(f) = f else { continue };
        let m = unsafe { query_metadata(f) }.map_err(|e| format!("handler for `{name}` ({origin}, {stage} stage): {e}"))?;
        let v = (m.api_version.major_version, m.api_version.minor_version);
        check_version(v.0, v.1).map_err(|e| format!("handler for `{name}` ({origin}, {stage} stage): {e}"))?;
        if stage == Stage::Execute {
            version = v;
        }
    }
    Ok(Handler { kind: HandlerKind::C { bundle, api_version: version }, origin: origin.to_string() })
}

/// Handlers registered through the API table (`XLA_FFI_Handler_Register`,
/// what `XLA_FFI_REGISTER_HANDLER` calls): process-wide, as in XLA.
type HandlerMap = HashMap<(String, String), Arc<Handler>>;
static STATIC_HANDLERS: LazyLock<Mutex<HandlerMap>> = LazyLock::new(Default::default);

pub(crate) fn register_static(name: &str, platform: &str, bundle: XLA_FFI_Handler_Bundle) -> std::result::Result<(), String> {
    // SAFETY: the bundle comes from `XLA_FFI_Handler_Register`, whose caller
    // promises handlers of the FFI ABI.
    unsafe { register_process_wide(name, platform, bundle, "XLA_FFI_Handler_Register") }
}

/// Registers a C handler process-wide (found by every registry, as a handler
/// registered through `XLA_FFI_Handler_Register`): how the JAX plugin takes
/// `jax.ffi.register_ffi_target(..., platform="floors")`. The handler is asked
/// for its metadata first; one of a newer FFI version is refused.
///
/// # Safety
/// Every stage in `bundle` must be an XLA FFI handler (it is called with a
/// metadata call frame here, and with call frames when programs run).
pub unsafe fn register_process_wide(
    name: &str,
    platform: &str,
    bundle: XLA_FFI_Handler_Bundle,
    origin: &str,
) -> std::result::Result<(), String> {
    if name.is_empty() {
        return Err(format!("{origin}: empty target name"));
    }
    // SAFETY: the caller's contract.
    let h = unsafe { c_handler(name, bundle, origin) }?;
    let key = (name.to_string(), canonical_platform(platform));
    STATIC_HANDLERS.lock().unwrap_or_else(|e| e.into_inner()).insert(key, Arc::new(h));
    Ok(())
}

/// Registers a Rust handler process-wide (found by every registry).
pub fn register_process_wide_rust(name: &str, platform: &str, handler: RustHandler, origin: &str) {
    let key = (name.to_string(), canonical_platform(platform));
    let h = Handler { kind: HandlerKind::Rust(handler), origin: origin.to_string() };
    STATIC_HANDLERS.lock().unwrap_or_else(|e| e.into_inner()).insert(key, Arc::new(h));
}

/// Custom-call targets by (name, platform). Cheap to clone (handlers are
/// shared); an executable keeps the handlers it resolved.
#[derive(Clone, Default)]
pub struct CustomCallRegistry {
    handlers: HandlerMap,
    /// Libraries given without a mapping: a target is looked up as a symbol
    /// of its own name, in order.
    libraries: Vec<Arc<FfiLibrary>>,
    user_data: Arc<UserData>,
}

impl CustomCallRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The targets every program may use: the identity annotations JAX emits
    /// on one device (`Sharding`, `SPMDFullToShardShape`,
    /// `SPMDShardToFullShape`: one input, one output of the same size), JAX's
    /// `dce_sink` (a no-op) and `floors.fft` (`stablehlo.fft`,
    /// [`crate::fft`]), as Rust FFI handlers.
    pub fn with_builtins() -> Self {
        let mut r = Self::new();
        for name in ["Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"] {
            let h = RustHandler::new(move |f| {
                if f.num_args() != 1 || f.num_rets() != 1 {
                    return Err(FfiError::invalid_argument(format!(
                        "{name} takes one input and one output, not {} and {}",
                        f.num_args(),
                        f.num_rets()
                    )));
                }
                let (i, o) = (f.arg_info(0)?, f.ret_info(0)?);
                if i.byte_size() != o.byte_size() {
                    return Err(FfiError::invalid_argument(format!("{name}: input {} and output {} differ", i.describe(), o.describe())));
                }
                if f.arg_alias(0).is_some() {
                    // Aliased: the result already holds the input.
                    return Ok(());
                }
                f.ret_bytes(0)?.copy_from_slice(f.arg_bytes(0)?);
                Ok(())
            });
            r.insert(name, CPU_PLATFORM, Handler { kind: HandlerKind::Rust(h), origin: "built-in".into() });
        }
        // `lax.dce_sink(x, prevent_mlir_dce=True)`: keeps `x` alive, does nothing
        // (jaxlib registers the same no-op for XLA:CPU).
        let sink = RustHandler::new(|f| {
            if f.num_rets() != 0 {
                return Err(FfiError::invalid_argument(format!("dce_sink gives no results, not {}", f.num_rets())));
            }
            Ok(())
        });
        r.insert("dce_sink", CPU_PLATFORM, Handler { kind: HandlerKind::Rust(sink), origin: "built-in".into() });
        // `stablehlo.fft`, as `floors-hlo-fft-to-call` leaves it.
        let fft = RustHandler::new(crate::fft::execute);
        r.insert(crate::fft::TARGET, CPU_PLATFORM, Handler { kind: HandlerKind::Rust(fft), origin: "built-in".into() });
        r
    }

    /// The built-ins plus the handlers of every `--ffi-lib` spec, in order
    /// (a later one replaces an earlier handler of the same target).
    pub fn with_libraries(specs: &[impl AsRef<str>]) -> Result<Self> {
        let mut r = Self::with_builtins();
        for s in specs {
            r.load_library(s.as_ref())?;
        }
        Ok(r)
    }

    fn insert(&mut self, name: &str, platform: &str, h: Handler) {
        self.handlers.insert((name.to_string(), canonical_platform(platform)), Arc::new(h));
    }

    /// Registers (or replaces) a Rust handler for `name` on the CPU floor:
    /// its execute stage.
    pub fn register_rust(
        &mut self,
        name: &str,
        execute: impl Fn(&CallFrame<'_>) -> std::result::Result<(), FfiError> + Send + Sync + 'static,
    ) -> &mut Self {
        self.register_rust_handler(name, CPU_PLATFORM, RustHandler::new(execute))
    }

    /// Registers (or replaces) a Rust handler with its stages for `name` on `platform`.
    pub fn register_rust_handler(&mut self, name: &str, platform: &str, handler: RustHandler) -> &mut Self {
        self.insert(name, platform, Handler { kind: HandlerKind::Rust(handler), origin: "Rust".into() });
        self
    }

    /// Registers a bytes-in, bytes-out closure for `name` (inputs in order,
    /// outputs in order; an output that aliases an input starts with its
    /// bytes): a Rust handler that ignores shapes and attributes.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        handler: impl Fn(&[&[u8]], &mut [&mut [u8]]) -> std::result::Result<(), String> + Send + Sync + 'static,
    ) -> &mut Self {
        let name = name.into();
        self.register_rust(&name, move |f| {
            // Aliased inputs are read from their results before those are handed out.
            let mut copies: Vec<Option<Vec<u8>>> = Vec::with_capacity(f.num_args());
            for i in 0..f.num_args() {
                copies.push(match f.arg_alias(i) {
                    Some(j) => Some(f.ret_snapshot(j)?),
                    None => None,
                });
            }
            let ins = (0..f.num_args())
                .map(|i| match &copies[i] {
                    Some(c) => Ok(c.as_slice()),
                    None => f.arg_bytes(i),
                })
                .collect::<std::result::Result<Vec<&[u8]>, _>>()?;
            let mut outs = (0..f.num_rets()).map(|i| f.ret_bytes(i)).collect::<std::result::Result<Vec<_>, _>>()?;
            handler(&ins, &mut outs).map_err(FfiError::internal)
        })
    }

    /// Registers a C handler bundle for `name` on `platform`, after its
    /// metadata query and the version rule; `origin` names it in listings.
    ///
    /// # Safety
    /// The bundle's functions are XLA FFI handlers that stay loaded.
    pub unsafe fn register_c(&mut self, name: &str, platform: &str, bundle: XLA_FFI_Handler_Bundle, origin: &str) -> Result<&mut Self> {
        let h = unsafe { c_handler(name, bundle, origin) }.map_err(Error::Unsupported)?;
        self.insert(name, platform, h);
        Ok(self)
    }

    /// Loads handlers from a shared library: `PATH[:ITEM,...]` (what
    /// `--ffi-lib` takes). Items: `SYMBOL=TARGET` (TARGET's execute stage),
    /// `STAGE:SYMBOL=TARGET` (`instantiate`, `prepare`, `initialize`,
    /// `execute`), `SYMBOL` (target of the same name), and
    /// `type:IDSYMBOL[+INFOSYMBOL]=NAME` (a user type: `IDSYMBOL()` returns
    /// its `XLA_FFI_TypeId*`, `INFOSYMBOL()` its `XLA_FFI_TypeInfo*`, as
    /// `XLA_FFI_DECLARE_TYPE_ID_SYMBOL` declares them). Types are registered
    /// first. Without items, a target is looked up as a symbol of its own name.
    /// The library stays loaded for the life of the process.
    pub fn load_library(&mut self, spec: &str) -> Result<&mut Self> {
        let parsed = parse_spec(spec).map_err(|message| Error::FfiLibrary { library: spec.to_string(), message })?;
        let lib = FfiLibrary::open(&parsed.path).map_err(|message| Error::FfiLibrary { library: parsed.path.clone(), message })?;
        let fail = |message: String| Error::FfiLibrary { library: parsed.path.clone(), message };
        if parsed.items.is_empty() {
            self.libraries.push(lib);
            return Ok(self);
        }
        for item in &parsed.items {
            if let SpecItem::Type { name, id_symbol, info_symbol } = item {
                lib.register_type(name, id_symbol, info_symbol.as_deref()).map_err(fail)?;
            }
        }
        let mut bundles: Vec<(String, XLA_FFI_Handler_Bundle, Vec<String>)> = Vec::new();
        for item in &parsed.items {
            let SpecItem::Handler { stage, symbol, target } = item else { continue };
            let f = lib.handler(symbol).map_err(fail)?;
            let i = match bundles.iter().position(|(t, ..)| t == target) {
                Some(i) => i,
                None => {
                    bundles.push((target.clone(), XLA_FFI_Handler_Bundle::default(), Vec::new()));
                    bundles.len() - 1
                }
            };
            let (_, bundle, syms) = &mut bundles[i];
            let slot = match stage {
                Stage::Instantiate => &mut bundle.instantiate,
                Stage::Prepare => &mut bundle.prepare,
                Stage::Initialize => &mut bundle.initialize,
                Stage::Execute => &mut bundle.execute,
            };
            if slot.replace(f).is_some() {
                return Err(fail(format!("target `{target}` is given two {stage} handlers")));
            }
            syms.push(if *stage == Stage::Execute { symbol.clone() } else { format!("{stage}:{symbol}") });
        }
        for (target, bundle, syms) in bundles {
            let origin = format!("{}:{}", file_name(&parsed.path), syms.join("+"));
            // SAFETY: symbols the user named as XLA FFI handlers, in a library kept loaded.
            let h = unsafe { c_handler(&target, bundle, &origin) }.map_err(fail)?;
            self.insert(&target, CPU_PLATFORM, h);
        }
        Ok(self)
    }

    /// Makes `data` what `XLA_FFI_ExecutionContext_Get` returns for
    /// `type_id` (a registered type) in every call of executables built
    /// with this registry. The pointer is handed to handlers as it is.
    pub fn set_user_data(&mut self, type_id: i64, data: *mut c_void) -> &mut Self {
        self.user_data.insert(type_id, data);
        self
    }

    pub(crate) fn user_data(&self) -> Arc<UserData> {
        self.user_data.clone()
    }

    /// The handler of `name` on `platform`: registered here, else registered
    /// through the API table, else a symbol of that name in a library given
    /// without a mapping (checked as any C handler; an error says why it was refused).
    pub fn resolve(&self, name: &str, platform: &str) -> std::result::Result<Option<Arc<Handler>>, String> {
        let key = (name.to_string(), canonical_platform(platform));
        if let Some(h) = self.handlers.get(&key) {
            return Ok(Some(h.clone()));
        }
        if let Some(h) = STATIC_HANDLERS.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(Some(h.clone()));
        }
        if key.1 != CPU_PLATFORM {
            return Ok(None);
        }
        for lib in &self.libraries {
            if let Ok(f) = lib.handler(name) {
                let origin = format!("{}:{name}", file_name(&lib.path));
                let bundle = XLA_FFI_Handler_Bundle { execute: Some(f), ..Default::default() };
                // SAFETY: the user gave this library as one of XLA FFI handlers named by target.
                return unsafe { c_handler(name, bundle, &origin) }.map(|h| Some(Arc::new(h)));
            }
        }
        Ok(None)
    }

    /// The CPU handler of `name`, if there is one that passes the checks.
    pub fn get(&self, name: &str) -> Option<Arc<Handler>> {
        self.resolve(name, CPU_PLATFORM).ok().flatten()
    }

    /// Registered target names (every platform), sorted; libraries without a
    /// mapping are listed as `<symbols of PATH>`.
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = self.handlers.keys().map(|(n, _)| n.clone()).collect();
        out.extend(STATIC_HANDLERS.lock().unwrap_or_else(|e| e.into_inner()).keys().map(|(n, _)| n.clone()));
        out.sort();
        out.dedup();
        out.extend(self.libraries.iter().map(|l| format!("<symbols of {}>", l.path)));
        out
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}
