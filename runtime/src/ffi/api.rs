//! The API table floors gives handlers (`XLA_FFI_Api`, FFI 0.3) and what
//! stands behind it: error objects, the process-wide type registry, the
//! execution context (per-call-site and per-execution state, user data, the
//! intra-op thread pool, run id), host memory for `DeviceMemory_Allocate`,
//! and futures (waited for synchronously).
//!
//! Every entry point checks the `struct_size` of the arguments it is given
//! and reads no field past it; a NULL context (the metadata query) or an
//! unsupported request is an FFI error naming the entry, never a crash. The
//! table has no NULL entry.

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_void};
use std::mem::offset_of;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Condvar, LazyLock, Mutex, OnceLock};

use super::c_api::*;

// ---------------------------------------------------------------------------
// Errors

/// What an `XLA_FFI_Error*` from floors' table points to.
struct ErrorObject {
    code: XLA_FFI_Error_Code,
    message: CString,
}

/// A new error object (ownership to the caller).
pub fn new_error(code: XLA_FFI_Error_Code, message: impl Into<String>) -> *mut XLA_FFI_Error {
    let message = message.into().replace('\0', "\\0");
    let message = CString::new(message).unwrap_or_default();
    Box::into_raw(Box::new(ErrorObject { code, message })).cast()
}

/// Takes an error object made by this table: its code and message; frees it.
///
/// # Safety
/// `e` is NULL or an error from [`new_error`] / `XLA_FFI_Error_Create` not yet destroyed.
pub unsafe fn take_error(e: *mut XLA_FFI_Error) -> Option<(XLA_FFI_Error_Code, String)> {
    if e.is_null() {
        return None;
    }
    let obj = unsafe { Box::from_raw(e.cast::<ErrorObject>()) };
    Some((obj.code, obj.message.to_string_lossy().into_owned()))
}

/// The name of an error code, as absl spells it.
pub fn error_code_name(code: XLA_FFI_Error_Code) -> &'static str {
    match code {
        XLA_FFI_Error_Code_OK => "OK",
        XLA_FFI_Error_Code_CANCELLED => "CANCELLED",
        XLA_FFI_Error_Code_UNKNOWN => "UNKNOWN",
        XLA_FFI_Error_Code_INVALID_ARGUMENT => "INVALID_ARGUMENT",
        XLA_FFI_Error_Code_DEADLINE_EXCEEDED => "DEADLINE_EXCEEDED",
        XLA_FFI_Error_Code_NOT_FOUND => "NOT_FOUND",
        XLA_FFI_Error_Code_ALREADY_EXISTS => "ALREADY_EXISTS",
        XLA_FFI_Error_Code_PERMISSION_DENIED => "PERMISSION_DENIED",
        XLA_FFI_Error_Code_RESOURCE_EXHAUSTED => "RESOURCE_EXHAUSTED",
        XLA_FFI_Error_Code_FAILED_PRECONDITION => "FAILED_PRECONDITION",
        XLA_FFI_Error_Code_ABORTED => "ABORTED",
        XLA_FFI_Error_Code_OUT_OF_RANGE => "OUT_OF_RANGE",
        XLA_FFI_Error_Code_UNIMPLEMENTED => "UNIMPLEMENTED",
        XLA_FFI_Error_Code_INTERNAL => "INTERNAL",
        XLA_FFI_Error_Code_UNAVAILABLE => "UNAVAILABLE",
        XLA_FFI_Error_Code_DATA_LOSS => "DATA_LOSS",
        XLA_FFI_Error_Code_UNAUTHENTICATED => "UNAUTHENTICATED",
        _ => "UNKNOWN",
    }
}

fn invalid(message: String) -> *mut XLA_FFI_Error {
    new_error(XLA_FFI_Error_Code_INVALID_ARGUMENT, message)
}

/// Checks `args` (a handler's argument struct of type `name`) declares at
/// least `needed` bytes: the fields this entry reads and writes.
unsafe fn check_args<T>(args: *mut T, name: &str, needed: usize) -> Result<*mut T, *mut XLA_FFI_Error> {
    if args.is_null() {
        return Err(invalid(format!("floors: {name}: NULL arguments")));
    }
    // Every argument struct starts with its size.
    let size = unsafe { *(args as *const usize) };
    if size < needed {
        return Err(invalid(format!(
            "floors: {name} declares {size} bytes, this call needs at least {needed}; was the handler built against another XLA FFI version?"
        )));
    }
    Ok(args)
}

macro_rules! args {
    ($p:expr, $t:ident) => {
        match unsafe { check_args($p, stringify!($t), paste_size!($t)) } {
            Ok(p) => p,
            Err(e) => return e,
        }
    };
}
macro_rules! paste_size {
    (XLA_FFI_Error_GetMessage_Args) => {
        XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE
    };
    (XLA_FFI_Error_Destroy_Args) => {
        XLA_FFI_Error_Destroy_Args_STRUCT_SIZE
    };
    (XLA_FFI_Handler_Register_Args) => {
        XLA_FFI_Handler_Register_Args_STRUCT_SIZE
    };
    (XLA_FFI_Stream_Get_Args) => {
        XLA_FFI_Stream_Get_Args_STRUCT_SIZE
    };
    (XLA_FFI_Type_Register_Args) => {
        XLA_FFI_Type_Register_Args_STRUCT_SIZE
    };
    (XLA_FFI_ExecutionContext_Get_Args) => {
        XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE
    };
    (XLA_FFI_State_Set_Args) => {
        XLA_FFI_State_Set_Args_STRUCT_SIZE
    };
    (XLA_FFI_State_Get_Args) => {
        XLA_FFI_State_Get_Args_STRUCT_SIZE
    };
    (XLA_FFI_DeviceMemory_Allocate_Args) => {
        XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE
    };
    (XLA_FFI_DeviceMemory_Free_Args) => {
        XLA_FFI_DeviceMemory_Free_Args_STRUCT_SIZE
    };
    (XLA_FFI_ThreadPool_Schedule_Args) => {
        XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE
    };
    (XLA_FFI_ThreadPool_NumThreads_Args) => {
        XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE
    };
    (XLA_FFI_Future_SetAvailable_Args) => {
        XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE
    };
    (XLA_FFI_Future_SetError_Args) => {
        XLA_FFI_Future_SetError_Args_STRUCT_SIZE
    };
    (XLA_FFI_RunId_Get_Args) => {
        XLA_FFI_RunId_Get_Args_STRUCT_SIZE
    };
    (XLA_FFI_DeviceOrdinal_Get_Args) => {
        XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE
    };
}

unsafe extern "C" fn error_create(args: *mut XLA_FFI_Error_Create_Args) -> *mut XLA_FFI_Error {
    // Must always give an error back: a malformed request becomes one too.
    let args = match unsafe { check_args(args, "XLA_FFI_Error_Create_Args", XLA_FFI_Error_Create_Args_STRUCT_SIZE) } {
        Ok(a) => a,
        Err(e) => return e,
    };
    let (message, code) = unsafe { ((*args).message, (*args).errc) };
    let text = if message.is_null() {
        String::new()
    } else {
        // SAFETY: the header's contract: a NUL-terminated string.
        unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
    };
    new_error(code, text)
}

unsafe extern "C" fn error_get_message(args: *mut XLA_FFI_Error_GetMessage_Args) {
    let Ok(args) = (unsafe { check_args(args, "", XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE) }) else {
        // No way to report it; the caller's `message` stays as it was.
        return;
    };
    unsafe {
        let e = (*args).error;
        (*args).message = if e.is_null() { c"".as_ptr() } else { (*e.cast::<ErrorObject>()).message.as_ptr() };
    }
}

unsafe extern "C" fn error_destroy(args: *mut XLA_FFI_Error_Destroy_Args) {
    if let Ok(args) = unsafe { check_args(args, "", XLA_FFI_Error_Destroy_Args_STRUCT_SIZE) } {
        unsafe { take_error((*args).error) };
    }
}

// ---------------------------------------------------------------------------
// Byte spans

/// A byte span as UTF-8 (lossy); NULL with a length is an error.
///
/// # Safety
/// `s.ptr` points to `s.len` readable bytes (or is NULL with `len` 0).
pub unsafe fn span_str(s: &XLA_FFI_ByteSpan) -> Result<String, String> {
    if s.len == 0 {
        return Ok(String::new());
    }
    if s.ptr.is_null() {
        return Err(format!("a NULL string of length {}", s.len));
    }
    let bytes = unsafe { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) };
    Ok(String::from_utf8_lossy(bytes).into_owned())
}

// ---------------------------------------------------------------------------
// Handler registration through the table (`XLA_FFI_REGISTER_HANDLER`)

unsafe extern "C" fn handler_register(args: *mut XLA_FFI_Handler_Register_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_Handler_Register_Args);
    let (name, platform, bundle) = unsafe { (span_str(&(*args).name), span_str(&(*args).platform), (*args).bundle) };
    let (name, platform) = match (name, platform) {
        (Ok(n), Ok(p)) => (n, p),
        (Err(e), _) | (_, Err(e)) => return invalid(format!("XLA_FFI_Handler_Register: {e}")),
    };
    match super::registry::register_static(&name, &platform, bundle) {
        Ok(()) => std::ptr::null_mut(),
        Err(e) => invalid(e),
    }
}

// ---------------------------------------------------------------------------
// Types

/// A registered user type: its name and how to delete an object of it.
#[derive(Clone, Debug)]
pub struct TypeEntry {
    pub name: String,
    pub deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

#[derive(Default)]
struct TypeRegistry {
    by_name: HashMap<String, i64>,
    by_id: HashMap<i64, TypeEntry>,
    next: i64,
}

static TYPES: LazyLock<Mutex<TypeRegistry>> = LazyLock::new(|| Mutex::new(TypeRegistry { next: 1, ..Default::default() }));

/// Registers user type `name` (process-wide, as XLA's type ids are). With
/// `*type_id == 0` it gets a fresh id (or the id `name` already has);
/// otherwise the id must be unused or already `name`'s. A deleter given
/// later fills in one that was missing.
pub fn register_type(name: &str, type_id: &mut i64, deleter: Option<unsafe extern "C" fn(*mut c_void)>) -> Result<(), String> {
    if name.is_empty() {
        return Err("a type needs a name".into());
    }
    let mut reg = TYPES.lock().unwrap_or_else(|e| e.into_inner());
    match (reg.by_name.get(name).copied(), *type_id) {
        (Some(existing), 0) => *type_id = existing,
        (Some(existing), id) if id == existing => {}
        (Some(existing), id) => return Err(format!("type `{name}` is registered with id {existing}, not {id}")),
        (None, 0) => {
            while reg.by_id.contains_key(&reg.next) {
                reg.next += 1;
            }
            *type_id = reg.next;
            reg.next += 1;
        }
        (None, id) if id < 0 => return Err(format!("type `{name}`: negative type id {id}")),
        (None, id) => {
            if let Some(other) = reg.by_id.get(&id) {
                return Err(format!("type id {id} is taken by `{}`", other.name));
            }
        }
    }
    let id = *type_id;
    reg.by_name.insert(name.to_string(), id);
    let entry = reg.by_id.entry(id).or_insert(TypeEntry { name: name.to_string(), deleter: None });
    if entry.deleter.is_none() {
        entry.deleter = deleter;
    }
    Ok(())
}

/// The registered type of an id.
pub fn type_entry(id: i64) -> Option<TypeEntry> {
    TYPES.lock().unwrap_or_else(|e| e.into_inner()).by_id.get(&id).cloned()
}

fn type_label(id: i64) -> String {
    type_entry(id).map_or_else(|| format!("unregistered type id {id}"), |t| format!("type `{}` (id {id})", t.name))
}

unsafe extern "C" fn type_register(args: *mut XLA_FFI_Type_Register_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_Type_Register_Args);
    let name = match unsafe { span_str(&(*args).name) } {
        Ok(n) => n,
        Err(e) => return invalid(format!("XLA_FFI_Type_Register: {e}")),
    };
    let id_ptr = unsafe { (*args).type_id };
    if id_ptr.is_null() {
        return invalid(format!("XLA_FFI_Type_Register `{name}`: NULL type_id"));
    }
    // `type_info` lies past the header's declared size for this struct (a
    // quirk of c_api.h 0.3): read only when the caller declares it.
    let size = unsafe { (*args).struct_size };
    let mut deleter = None;
    if size >= offset_of!(XLA_FFI_Type_Register_Args, type_info) + size_of::<*const XLA_FFI_TypeInfo>() {
        let info = unsafe { (*args).type_info };
        deleter = unsafe { type_info_deleter(info) };
    }
    let mut id = unsafe { (*id_ptr).type_id };
    match register_type(&name, &mut id, deleter) {
        Ok(()) => {
            unsafe { (*id_ptr).type_id = id };
            std::ptr::null_mut()
        }
        Err(e) => new_error(XLA_FFI_Error_Code_ALREADY_EXISTS, format!("XLA_FFI_Type_Register: {e}")),
    }
}

/// The deleter of a `XLA_FFI_TypeInfo`, read only if its size covers it.
///
/// # Safety
/// `info` is NULL or points to a type info of at least its declared size.
pub unsafe fn type_info_deleter(info: *const XLA_FFI_TypeInfo) -> Option<unsafe extern "C" fn(*mut c_void)> {
    if info.is_null() || unsafe { (*info).struct_size } < XLA_FFI_TypeInfo_STRUCT_SIZE {
        return None;
    }
    unsafe { (*info).deleter }
}

// ---------------------------------------------------------------------------
// Execution context

/// A state object a handler set, deleted with its type's deleter.
pub struct StateSlot {
    type_id: i64,
    ptr: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut c_void)>,
}

// SAFETY: the object belongs to the handler, which must make it safe to use
// from the threads that execute the program (as under XLA).
unsafe impl Send for StateSlot {}
unsafe impl Sync for StateSlot {}

impl Drop for StateSlot {
    fn drop(&mut self) {
        if let (Some(d), false) = (self.deleter, self.ptr.is_null()) {
            unsafe { d(self.ptr) };
        }
    }
}

/// What lives as long as one call site (one custom-call thunk): the state
/// its instantiate stage made, for C handlers and for Rust handlers.
#[derive(Default)]
pub struct InstanceState {
    pub(crate) state: OnceLock<StateSlot>,
    pub(crate) rust_state: OnceLock<Box<dyn std::any::Any + Send + Sync>>,
}

/// User data handlers read with `ExecutionContext_Get`, by type id.
#[derive(Default)]
pub struct UserData {
    entries: Mutex<HashMap<i64, usize>>,
}

impl UserData {
    pub fn insert(&self, type_id: i64, data: *mut c_void) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).insert(type_id, data as usize);
    }

    fn get(&self, type_id: i64) -> Option<*mut c_void> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(&type_id).map(|&p| p as *mut c_void)
    }
}

/// floors' `XLA_FFI_ExecutionContext`: one per call of a handler stage.
pub struct ExecutionContext<'a> {
    pub(crate) instance: &'a InstanceState,
    /// States set in this execution's prepare and initialize stages.
    pub(crate) prepared: OnceLock<StateSlot>,
    pub(crate) initialized: OnceLock<StateSlot>,
    pub(crate) pool: Option<&'a rayon::ThreadPool>,
    pub(crate) user_data: &'a UserData,
    pub(crate) run_id: i64,
    /// The GPU stream (`CUstream`) the call runs on, as an address; 0 on the CPU.
    pub(crate) stream: usize,
}

static RUN_IDS: AtomicI64 = AtomicI64::new(1);

impl<'a> ExecutionContext<'a> {
    pub fn new(instance: &'a InstanceState, pool: Option<&'a rayon::ThreadPool>, user_data: &'a UserData) -> Self {
        Self {
            instance,
            prepared: OnceLock::new(),
            initialized: OnceLock::new(),
            pool,
            user_data,
            run_id: RUN_IDS.fetch_add(1, Ordering::Relaxed),
            stream: 0,
        }
    }

    /// The same context on a GPU stream (`XLA_FFI_Stream_Get` hands it out).
    pub fn with_stream(mut self, stream: *mut c_void) -> Self {
        self.stream = stream as usize;
        self
    }

    pub fn as_raw(&self) -> *mut XLA_FFI_ExecutionContext {
        self as *const Self as *mut XLA_FFI_ExecutionContext
    }

    fn slot(&self, stage: XLA_FFI_ExecutionStage) -> Option<&OnceLock<StateSlot>> {
        match stage {
            XLA_FFI_ExecutionStage_INSTANTIATE => Some(&self.instance.state),
            XLA_FFI_ExecutionStage_PREPARE => Some(&self.prepared),
            XLA_FFI_ExecutionStage_INITIALIZE => Some(&self.initialized),
            _ => None,
        }
    }
}

fn stage_name(stage: XLA_FFI_ExecutionStage) -> String {
    match stage {
        XLA_FFI_ExecutionStage_INSTANTIATE => "instantiate".into(),
        XLA_FFI_ExecutionStage_PREPARE => "prepare".into(),
        XLA_FFI_ExecutionStage_INITIALIZE => "initialize".into(),
        XLA_FFI_ExecutionStage_EXECUTE => "execute".into(),
        s => format!("stage {s}"),
    }
}

/// The context behind `ctx`, or an error naming `entry`.
unsafe fn context<'a>(ctx: *mut XLA_FFI_ExecutionContext, entry: &str) -> Result<&'a ExecutionContext<'a>, *mut XLA_FFI_Error> {
    if ctx.is_null() {
        return Err(new_error(
            XLA_FFI_Error_Code_FAILED_PRECONDITION,
            format!("floors: {entry}: no execution context (NULL ctx, as in a metadata query)"),
        ));
    }
    // SAFETY: floors only hands out contexts it made (`ExecutionContext::as_raw`).
    Ok(unsafe { &*ctx.cast::<ExecutionContext<'a>>() })
}

macro_rules! ctx {
    ($ctx:expr, $entry:literal) => {{
        let c = $ctx;
        match unsafe { context(c, $entry) } {
            Ok(c) => c,
            Err(e) => return e,
        }
    }};
}

unsafe extern "C" fn stream_get(args: *mut XLA_FFI_Stream_Get_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_Stream_Get_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_Stream_Get");
    // The CPU floor has no stream: NULL; the GPU floor's is the thunk's CUDA stream.
    unsafe { (*args).stream = ctx.stream as *mut c_void };
    std::ptr::null_mut()
}

unsafe extern "C" fn execution_context_get(args: *mut XLA_FFI_ExecutionContext_Get_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_ExecutionContext_Get_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_ExecutionContext_Get");
    let id_ptr = unsafe { (*args).type_id };
    if id_ptr.is_null() {
        return invalid("XLA_FFI_ExecutionContext_Get: NULL type_id".into());
    }
    let id = unsafe { (*id_ptr).type_id };
    match ctx.user_data.get(id) {
        Some(p) => {
            unsafe { (*args).data = p };
            std::ptr::null_mut()
        }
        None => new_error(XLA_FFI_Error_Code_NOT_FOUND, format!("no user data of {} in the execution context", type_label(id))),
    }
}

unsafe extern "C" fn state_set(args: *mut XLA_FFI_State_Set_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_State_Set_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_State_Set");
    let (stage, id_ptr, state) = unsafe { ((*args).stage, (*args).type_id, (*args).state) };
    if id_ptr.is_null() {
        return invalid("XLA_FFI_State_Set: NULL type_id".into());
    }
    let id = unsafe { (*id_ptr).type_id };
    let Some(entry) = type_entry(id) else {
        return new_error(
            XLA_FFI_Error_Code_FAILED_PRECONDITION,
            format!("XLA_FFI_State_Set: type id {id} is not registered (register the state type before the handler)"),
        );
    };
    let Some(slot) = ctx.slot(stage) else {
        return invalid(format!("XLA_FFI_State_Set: there is no state for the {} stage", stage_name(stage)));
    };
    match slot.set(StateSlot { type_id: id, ptr: state, deleter: entry.deleter }) {
        Ok(()) => std::ptr::null_mut(),
        Err(rejected) => {
            // Not ours to delete: the caller keeps ownership of a refused state.
            std::mem::forget(rejected);
            new_error(XLA_FFI_Error_Code_ALREADY_EXISTS, format!("XLA_FFI_State_Set: the {} state is already set", stage_name(stage)))
        }
    }
}

unsafe extern "C" fn state_get(args: *mut XLA_FFI_State_Get_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_State_Get_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_State_Get");
    let (stage, id_ptr) = unsafe { ((*args).stage, (*args).type_id) };
    if id_ptr.is_null() {
        return invalid("XLA_FFI_State_Get: NULL type_id".into());
    }
    let id = unsafe { (*id_ptr).type_id };
    let Some(slot) = ctx.slot(stage) else {
        return invalid(format!("XLA_FFI_State_Get: there is no state for the {} stage", stage_name(stage)));
    };
    match slot.get() {
        None => new_error(XLA_FFI_Error_Code_NOT_FOUND, format!("XLA_FFI_State_Get: no {} state is set", stage_name(stage))),
        Some(s) if s.type_id != id => new_error(
            XLA_FFI_Error_Code_INVALID_ARGUMENT,
            format!("XLA_FFI_State_Get: the {} state is of {}, not {}", stage_name(stage), type_label(s.type_id), type_label(id)),
        ),
        Some(s) => {
            unsafe { (*args).state = s.ptr };
            std::ptr::null_mut()
        }
    }
}

// ---------------------------------------------------------------------------
// Memory (host memory on the CPU floor)

unsafe extern "C" fn device_memory_allocate(args: *mut XLA_FFI_DeviceMemory_Allocate_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_DeviceMemory_Allocate_Args);
    let _ = ctx!(unsafe { (*args).ctx }, "XLA_FFI_DeviceMemory_Allocate");
    let (size, alignment) = unsafe { ((*args).size, (*args).alignment) };
    let align = alignment.max(size_of::<*mut c_void>());
    if alignment != 0 && !alignment.is_power_of_two() {
        return invalid(format!("XLA_FFI_DeviceMemory_Allocate: alignment {alignment} is not a power of two"));
    }
    let mut p: *mut c_void = std::ptr::null_mut();
    let rc = unsafe { libc::posix_memalign(&mut p, align, size.max(1)) };
    if rc != 0 || p.is_null() {
        return new_error(XLA_FFI_Error_Code_RESOURCE_EXHAUSTED, format!("XLA_FFI_DeviceMemory_Allocate: cannot allocate {size} bytes"));
    }
    unsafe { (*args).data = p };
    std::ptr::null_mut()
}

unsafe extern "C" fn device_memory_free(args: *mut XLA_FFI_DeviceMemory_Free_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_DeviceMemory_Free_Args);
    let _ = ctx!(unsafe { (*args).ctx }, "XLA_FFI_DeviceMemory_Free");
    unsafe { libc::free((*args).data) };
    std::ptr::null_mut()
}

// ---------------------------------------------------------------------------
// Thread pool

struct Task {
    task: XLA_FFI_Task,
    data: *mut c_void,
}
// SAFETY: scheduling work on another thread is what the handler asked for.
unsafe impl Send for Task {}

unsafe extern "C" fn thread_pool_schedule(args: *mut XLA_FFI_ThreadPool_Schedule_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_ThreadPool_Schedule_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_ThreadPool_Schedule");
    let Some(task) = (unsafe { (*args).task }) else {
        return invalid("XLA_FFI_ThreadPool_Schedule: NULL task".into());
    };
    let t = Task { task, data: unsafe { (*args).data } };
    match ctx.pool {
        // The executor's pool: tasks run on its workers.
        Some(pool) => pool.spawn(move || {
            let t = t;
            unsafe { (t.task)(t.data) }
        }),
        // No pool (one thread): on the caller's thread, which the ABI allows.
        None => unsafe { (t.task)(t.data) },
    }
    std::ptr::null_mut()
}

unsafe extern "C" fn thread_pool_num_threads(args: *mut XLA_FFI_ThreadPool_NumThreads_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_ThreadPool_NumThreads_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_ThreadPool_NumThreads");
    let out = unsafe { (*args).num_threads };
    if out.is_null() {
        return invalid("XLA_FFI_ThreadPool_NumThreads: NULL num_threads".into());
    }
    unsafe { *out = ctx.pool.map_or(1, |p| p.current_num_threads()) as i64 };
    std::ptr::null_mut()
}

// ---------------------------------------------------------------------------
// Futures

/// floors' `XLA_FFI_Future`: completed once, by `SetAvailable` or `SetError`.
/// Two references: the runtime's (taken when the handler returns it in the
/// call frame) and the completer's (dropped on completion).
pub struct FutureObject {
    done: Mutex<Option<Result<(), (XLA_FFI_Error_Code, String)>>>,
    cv: Condvar,
}

impl FutureObject {
    /// Waits for completion (the runtime's reference).
    ///
    /// # Safety
    /// `f` came from `XLA_FFI_Future_Create` and its runtime reference was not taken yet.
    pub unsafe fn wait(f: *mut XLA_FFI_Future) -> Result<(), (XLA_FFI_Error_Code, String)> {
        let f = unsafe { Arc::from_raw(f.cast::<FutureObject>()) };
        let mut done = f.done.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(r) = done.take() {
                return r;
            }
            done = f.cv.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }

    unsafe fn complete(f: *mut XLA_FFI_Future, r: Result<(), (XLA_FFI_Error_Code, String)>) -> *mut XLA_FFI_Error {
        if f.is_null() {
            return invalid("XLA_FFI_Future: NULL future".into());
        }
        // SAFETY: the completer's reference, released here.
        let obj = unsafe { Arc::from_raw(f.cast::<FutureObject>()) };
        let mut done = obj.done.lock().unwrap_or_else(|e| e.into_inner());
        *done = Some(r);
        obj.cv.notify_all();
        drop(done);
        std::ptr::null_mut()
    }
}

unsafe extern "C" fn future_create(args: *mut XLA_FFI_Future_Create_Args) -> *mut XLA_FFI_Error {
    // c_api.h 0.3 declares this struct's size without its `future` out
    // field, yet every 0.3 caller passes the whole struct: accept the
    // declared size and write the field, the one exception to the size rule.
    let args = match unsafe { check_args(args, "XLA_FFI_Future_Create_Args", XLA_FFI_Future_Create_Args_STRUCT_SIZE) } {
        Ok(a) => a,
        Err(e) => return e,
    };
    let obj = Arc::new(FutureObject { done: Mutex::new(None), cv: Condvar::new() });
    let p = Arc::into_raw(obj);
    // SAFETY: one more strong reference for the completer.
    unsafe { Arc::increment_strong_count(p) };
    unsafe { (*args).future = p as *mut XLA_FFI_Future };
    std::ptr::null_mut()
}

unsafe extern "C" fn future_set_available(args: *mut XLA_FFI_Future_SetAvailable_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_Future_SetAvailable_Args);
    unsafe { FutureObject::complete((*args).future, Ok(())) }
}

unsafe extern "C" fn future_set_error(args: *mut XLA_FFI_Future_SetError_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_Future_SetError_Args);
    let err = unsafe { take_error((*args).error) }.unwrap_or((XLA_FFI_Error_Code_UNKNOWN, "a future failed without an error".into()));
    unsafe { FutureObject::complete((*args).future, Err(err)) }
}

// ---------------------------------------------------------------------------
// Ids

unsafe extern "C" fn run_id_get(args: *mut XLA_FFI_RunId_Get_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_RunId_Get_Args);
    let ctx = ctx!(unsafe { (*args).ctx }, "XLA_FFI_RunId_Get");
    unsafe { (*args).run_id = ctx.run_id };
    std::ptr::null_mut()
}

unsafe extern "C" fn device_ordinal_get(args: *mut XLA_FFI_DeviceOrdinal_Get_Args) -> *mut XLA_FFI_Error {
    let args = args!(args, XLA_FFI_DeviceOrdinal_Get_Args);
    let _ = ctx!(unsafe { (*args).ctx }, "XLA_FFI_DeviceOrdinal_Get");
    unsafe { (*args).device_ordinal = 0 };
    std::ptr::null_mut()
}

// ---------------------------------------------------------------------------
// The table

struct Table(XLA_FFI_Api);
// SAFETY: immutable; its pointers are NULL or functions.
unsafe impl Sync for Table {}

static API: Table = Table(XLA_FFI_Api {
    struct_size: XLA_FFI_Api_STRUCT_SIZE,
    extension_start: std::ptr::null_mut(),
    api_version: XLA_FFI_Api_Version {
        struct_size: XLA_FFI_Api_Version_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        major_version: XLA_FFI_API_MAJOR,
        minor_version: XLA_FFI_API_MINOR,
    },
    internal_api: std::ptr::null(),
    XLA_FFI_Error_Create: error_create,
    XLA_FFI_Error_GetMessage: error_get_message,
    XLA_FFI_Error_Destroy: error_destroy,
    XLA_FFI_Handler_Register: handler_register,
    XLA_FFI_Stream_Get: stream_get,
    XLA_FFI_Type_Register: type_register,
    XLA_FFI_ExecutionContext_Get: execution_context_get,
    XLA_FFI_State_Set: state_set,
    XLA_FFI_State_Get: state_get,
    XLA_FFI_DeviceMemory_Allocate: device_memory_allocate,
    XLA_FFI_DeviceMemory_Free: device_memory_free,
    XLA_FFI_ThreadPool_Schedule: thread_pool_schedule,
    XLA_FFI_ThreadPool_NumThreads: thread_pool_num_threads,
    XLA_FFI_Future_Create: future_create,
    XLA_FFI_Future_SetAvailable: future_set_available,
    XLA_FFI_Future_SetError: future_set_error,
    XLA_FFI_RunId_Get: run_id_get,
    XLA_FFI_DeviceOrdinal_Get: device_ordinal_get,
});

/// The API table floors gives every handler (what `XLA_FFI_GetApi()` is in XLA).
pub fn api() -> *const XLA_FFI_Api {
    &API.0
}

/// A C string for messages built from a pointer that may be NULL.
///
/// # Safety
/// `p` is NULL or NUL-terminated.
pub unsafe fn c_str_lossy(p: *const c_char) -> String {
    if p.is_null() { String::new() } else { unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `XLA_FFI_Stream_Get` hands out the context's stream: NULL on the
    /// CPU, the thunk's `CUstream` on the GPU.
    #[test]
    fn stream_get_returns_the_contexts_stream() {
        let (instance, user_data) = (InstanceState::default(), UserData::default());
        let stream_of = |ctx: &ExecutionContext| {
            let mut args = XLA_FFI_Stream_Get_Args {
                struct_size: XLA_FFI_Stream_Get_Args_STRUCT_SIZE,
                extension_start: std::ptr::null_mut(),
                ctx: ctx.as_raw(),
                stream: std::ptr::dangling_mut::<c_void>(),
            };
            let err = unsafe { ((*api()).XLA_FFI_Stream_Get)(&mut args) };
            assert!(err.is_null());
            args.stream
        };
        assert!(stream_of(&ExecutionContext::new(&instance, None, &user_data)).is_null());
        let fake = 0xdead_b000usize as *mut c_void;
        assert_eq!(stream_of(&ExecutionContext::new(&instance, None, &user_data).with_stream(fake)), fake);
    }
}
