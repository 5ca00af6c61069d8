//! Custom calls through the XLA FFI ABI, from the runtime side: handlers
//! written here as `extern "C"` functions against the C structs (as a C++
//! handler is) and as Rust closures against the safe binding. Stages and
//! their order, per-call-site and per-execution state with deleters, side
//! effects kept in program order, the version rule, struct-size checks,
//! every API-table entry (errors, types, state, stream, memory, thread pool,
//! futures, ids, user data), typed decoding errors, aliasing.

use std::ffi::c_void;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

use floors_runtime::ffi::c_api::*;
use floors_runtime::ffi::{Attr, Attrs, CallFrame, CustomCallRegistry, FfiError, RustHandler, Stage, api, invoke};
use floors_runtime::npy::{ElementType, TensorSpec};
use floors_runtime::{
    AlignedBuffer, BufferAllocations, BufferSlice, ConditionalThunk, CustomCallInfo, CustomCallThunk, ExecutorOptions, RuntimeError, Thunk,
    ThunkExecutor,
};

/// Tests that use the global logs below run one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn log(s: impl Into<String>) {
    LOG.lock().unwrap().push(s.into());
}

fn take_log() -> Vec<String> {
    std::mem::take(&mut *LOG.lock().unwrap())
}

fn table() -> &'static XLA_FFI_Api {
    unsafe { &*api::api() }
}

/// An FFI error from the table, as a Result.
fn check(e: *mut XLA_FFI_Error) -> Result<(), FfiError> {
    match unsafe { api::take_error(e) } {
        None => Ok(()),
        Some((code, message)) => Err(FfiError::new(code, message)),
    }
}

fn spec(t: ElementType, shape: &[u64]) -> TensorSpec {
    TensorSpec { element_type: t, shape: shape.to_vec() }
}

fn attrs(entries: Vec<(&str, Attr)>) -> Attrs {
    Attrs::new(entries.into_iter().map(|(n, a)| (n.to_string(), a))).unwrap()
}

/// Aligned buffers and their allocations.
struct Buffers(Vec<AlignedBuffer>);

impl Buffers {
    fn new(sizes: &[usize]) -> Self {
        Self(sizes.iter().map(|&n| AlignedBuffer::zeroed(n, 64).unwrap()).collect())
    }
    fn allocations(&mut self) -> BufferAllocations<'_> {
        BufferAllocations::new(self.0.iter_mut().map(|b| b.as_mut_slice()))
    }
    fn i64s(&self, i: usize) -> Vec<i64> {
        self.0[i].as_slice().chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap())).collect()
    }
    fn f32s(&self, i: usize) -> Vec<f32> {
        self.0[i].as_slice().chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
    }
    fn set_f32s(&mut self, i: usize, v: &[f32]) {
        self.0[i].as_mut_slice()[..v.len() * 4].copy_from_slice(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
    }
}

fn one(thunk: impl Thunk + 'static) -> ThunkExecutor {
    ThunkExecutor::new(vec![Box::new(thunk)], ExecutorOptions::default())
}

// ---------------------------------------------------------------------------
// A stateful C-ABI handler: state made in instantiate, a per-execution state
// made in prepare, both deleted with the registered type's deleter.

static COUNTER_TYPE: OnceLock<i64> = OnceLock::new();
static DELETED: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn delete_counter(p: *mut c_void) {
    drop(unsafe { Box::from_raw(p.cast::<i64>()) });
    DELETED.fetch_add(1, Ordering::SeqCst);
}

fn counter_type() -> i64 {
    *COUNTER_TYPE.get_or_init(|| {
        let mut id = 0;
        api::register_type("floors.test.counter", &mut id, Some(delete_counter)).unwrap();
        id
    })
}

fn state_set(f: &CallFrame, stage: Stage, value: i64) -> Result<(), FfiError> {
    let mut id = XLA_FFI_TypeId { type_id: counter_type() };
    let mut args = XLA_FFI_State_Set_Args {
        struct_size: XLA_FFI_State_Set_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        ctx: f.raw().ctx,
        stage: stage.code(),
        type_id: &mut id,
        state: Box::into_raw(Box::new(value)).cast(),
    };
    check(unsafe { ((*f.raw().api).XLA_FFI_State_Set)(&mut args) })
}

fn state_get(f: &CallFrame, stage: Stage) -> Result<*mut i64, FfiError> {
    let mut id = XLA_FFI_TypeId { type_id: counter_type() };
    let mut args = XLA_FFI_State_Get_Args {
        struct_size: XLA_FFI_State_Get_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        ctx: f.raw().ctx,
        stage: stage.code(),
        type_id: &mut id,
        state: std::ptr::null_mut(),
    };
    check(unsafe { ((*f.raw().api).XLA_FFI_State_Get)(&mut args) })?;
    Ok(args.state.cast())
}

unsafe extern "C" fn counter_instantiate(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe {
        invoke(frame, |f| {
            log(format!("instantiate {:?}", f.stage()));
            // No data yet, but dtypes and dims.
            assert_eq!(f.ret_info(0)?.dims, [1]);
            assert!(f.ret_info(0)?.data.is_null());
            state_set(f, Stage::Instantiate, f.attr::<i64>("start")?)
        })
    }
}

unsafe extern "C" fn counter_prepare(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe {
        invoke(frame, |f| {
            log("prepare");
            state_set(f, Stage::Prepare, 100)
        })
    }
}

unsafe extern "C" fn counter_initialize(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe {
        invoke(frame, |f| {
            log("initialize");
            // What prepare made is visible here.
            assert_eq!(*state_get(f, Stage::Prepare)?, 100);
            Ok(())
        })
    }
}

unsafe extern "C" fn counter_execute(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe {
        invoke(frame, |f| {
            log("execute");
            let count = state_get(f, Stage::Instantiate)?;
            let prepared = *state_get(f, Stage::Prepare)?;
            f.ret::<i64>(0)?[0] = *count + prepared;
            *count += 1;
            Ok(())
        })
    }
}

fn counter_registry() -> CustomCallRegistry {
    counter_type();
    let mut reg = CustomCallRegistry::new();
    let bundle = XLA_FFI_Handler_Bundle {
        instantiate: Some(counter_instantiate),
        prepare: Some(counter_prepare),
        initialize: Some(counter_initialize),
        execute: Some(counter_execute),
    };
    unsafe { reg.register_c("counter", "Host", bundle, "test") }.unwrap();
    reg
}

fn counter_info(start: i64) -> CustomCallInfo {
    CustomCallInfo {
        output_types: vec![spec(ElementType::I64, &[1])],
        attributes: attrs(vec![("start", Attr::scalar(start))]),
        location: "counter.mlir:3:8".into(),
        ..Default::default()
    }
}

#[test]
fn stages_run_in_order_and_state_lives_per_call_site_or_execution() {
    let _g = serial();
    take_log();
    let reg = counter_registry();
    let deleted = DELETED.load(Ordering::SeqCst);
    let a = CustomCallThunk::new("counter", &counter_info(5), vec![], vec![BufferSlice::new(0, 0, 8)], &reg).unwrap();
    let b = CustomCallThunk::new("counter", &counter_info(50), vec![], vec![BufferSlice::new(1, 0, 8)], &reg).unwrap();
    // Instantiate runs when the thunk is built, once per call site.
    assert_eq!(take_log(), ["instantiate Some(Instantiate)", "instantiate Some(Instantiate)"]);
    assert!(a.describe().starts_with("custom_call @counter {start = 5 : i64} (handler: test"), "{}", a.describe());
    let exec = ThunkExecutor::new(vec![Box::new(a), Box::new(b)], ExecutorOptions::default());
    let mut bufs = Buffers::new(&[8, 8]);
    for run in 0..3 {
        exec.execute(&bufs.allocations(), None).unwrap();
        // Each call site counts on its own; the prepare state is fresh each run.
        assert_eq!((bufs.i64s(0)[0], bufs.i64s(1)[0]), (105 + run, 150 + run));
    }
    let stages = ["prepare", "initialize", "execute"];
    assert_eq!(take_log(), stages.iter().cycle().take(18).map(|s| s.to_string()).collect::<Vec<_>>());
    // Six prepare states deleted after their executions; the two instance states with the executable.
    assert_eq!(DELETED.load(Ordering::SeqCst) - deleted, 6);
    drop(exec);
    assert_eq!(DELETED.load(Ordering::SeqCst) - deleted, 8);
}

#[test]
fn a_failing_stage_is_reported_with_the_stage() {
    let _g = serial();
    let reg = counter_registry();
    // No `start` attribute: the instantiate stage fails, building the thunk fails.
    let mut info = counter_info(0);
    info.attributes = Attrs::default();
    let e = CustomCallThunk::new("counter", &info, vec![], vec![BufferSlice::new(0, 0, 8)], &reg).err().unwrap();
    match e {
        RuntimeError::CustomCallFailed { name, location, message } => {
            assert_eq!((name.as_str(), location.as_str()), ("counter", "counter.mlir:3:8"));
            assert_eq!(message, "in the instantiate stage: missing attribute `start` (i64 scalar; the call has no attributes)");
        }
        e => panic!("{e}"),
    }
    take_log();
}

// ---------------------------------------------------------------------------
// Side effects keep program order.

static ORDER: Mutex<Vec<i64>> = Mutex::new(Vec::new());

fn side_effect_thunks(n: i64, has_side_effect: bool, reg: &CustomCallRegistry) -> Vec<Box<dyn Thunk>> {
    (0..n)
        .map(|i| {
            let info = CustomCallInfo {
                output_types: vec![spec(ElementType::U8, &[1024])],
                attributes: attrs(vec![("i", Attr::scalar(i))]),
                has_side_effect,
                ..Default::default()
            };
            Box::new(CustomCallThunk::new("record", &info, vec![], vec![BufferSlice::new(i as usize, 0, 1024)], reg).unwrap())
                as Box<dyn Thunk>
        })
        .collect()
}

#[test]
fn side_effecting_calls_keep_program_order() {
    let mut reg = CustomCallRegistry::new();
    reg.register_rust("record", |f| {
        let i: i64 = f.attr("i")?;
        // Early calls are slow: without ordering they would finish last.
        std::thread::sleep(std::time::Duration::from_millis(2 * (12 - i) as u64));
        ORDER.lock().unwrap().push(i);
        Ok(())
    });
    let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let exec = ThunkExecutor::new(side_effect_thunks(12, true, &reg), ExecutorOptions::default());
    assert_eq!(exec.edges(), (0..11).map(|i| (i, i + 1)).collect::<Vec<_>>());
    let mut bufs = Buffers::new(&[1024; 12]);
    ORDER.lock().unwrap().clear();
    exec.execute(&bufs.allocations(), Some(&pool)).unwrap();
    assert_eq!(*ORDER.lock().unwrap(), (0..12).collect::<Vec<_>>());
    // Without side effects nothing orders them: they may run in parallel.
    let exec = ThunkExecutor::new(side_effect_thunks(12, false, &reg), ExecutorOptions::default());
    assert!(exec.edges().is_empty());
    assert!(!exec.is_sequential());
    // A conditional around a side-effecting call is ordered with the others.
    let inner = ThunkExecutor::new(side_effect_thunks(1, true, &reg), ExecutorOptions::default());
    let empty = ThunkExecutor::new(vec![], ExecutorOptions::default());
    let cond = ConditionalThunk::new(BufferSlice::new(20, 0, 1), vec![inner, empty]).unwrap();
    assert!(cond.has_side_effect());
    let mut thunks = side_effect_thunks(2, true, &reg);
    thunks.insert(1, Box::new(cond));
    let exec = ThunkExecutor::new(thunks, ExecutorOptions::default());
    assert_eq!(exec.edges(), [(0, 1), (1, 2)]);
}

// ---------------------------------------------------------------------------
// The version rule.

/// A handler that answers the metadata query with FFI `major.minor`.
macro_rules! versioned {
    ($name:ident, $major:expr, $minor:expr) => {
        unsafe extern "C" fn $name(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
            unsafe {
                let ext = (*frame).extension_start;
                if !ext.is_null() && (*ext).type_ == XLA_FFI_Extension_Metadata {
                    let m = (*ext.cast::<XLA_FFI_Metadata_Extension>()).metadata;
                    (*m).api_version.major_version = $major;
                    (*m).api_version.minor_version = $minor;
                }
            }
            std::ptr::null_mut()
        }
    };
}
versioned!(built_for_1_0, 1, 0);
versioned!(built_for_0_4, 0, 4);
versioned!(built_for_0_2, 0, 2);
versioned!(built_for_0_3, 0, 3);

unsafe extern "C" fn refuses_metadata(_: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    api::new_error(XLA_FFI_Error_Code_UNIMPLEMENTED, "no metadata here")
}

#[test]
fn handlers_for_a_newer_version_are_refused() {
    let mut reg = CustomCallRegistry::new();
    let bundle = |f: XLA_FFI_Handler| XLA_FFI_Handler_Bundle { execute: Some(f), ..Default::default() };
    let e = unsafe { reg.register_c("x", "cpu", bundle(built_for_1_0), "lib.so:X") }.err().unwrap().to_string();
    assert_eq!(
        e,
        "error: handler for `x` (lib.so:X, execute stage): it was built for XLA FFI API 1.0, a newer major version than floors implements (0.3); rebuild it against FFI 0.3 headers (jaxlib 0.10.2's)"
    );
    let e = unsafe { reg.register_c("x", "cpu", bundle(built_for_0_4), "lib.so:X") }.err().unwrap().to_string();
    assert!(e.contains("XLA FFI API 0.4, newer than floors' 0.3"), "{e}");
    let e = unsafe { reg.register_c("x", "cpu", bundle(refuses_metadata), "lib.so:X") }.err().unwrap().to_string();
    assert!(e.contains("its metadata query failed (UNIMPLEMENTED): no metadata here"), "{e}");
    // A newer instantiate stage is refused too.
    let mixed = XLA_FFI_Handler_Bundle { instantiate: Some(built_for_1_0), execute: Some(built_for_0_3), ..Default::default() };
    let e = unsafe { reg.register_c("x", "cpu", mixed, "lib.so:X") }.err().unwrap().to_string();
    assert!(e.contains("instantiate stage") && e.contains("1.0"), "{e}");
    let e = unsafe { reg.register_c("x", "cpu", XLA_FFI_Handler_Bundle::default(), "lib.so:X") }.err().unwrap().to_string();
    assert!(e.contains("no execute stage"), "{e}");
    assert!(reg.get("x").is_none());
    // Older minors (and this one) are accepted.
    unsafe { reg.register_c("old", "cpu", bundle(built_for_0_2), "lib.so:Old") }.unwrap();
    unsafe { reg.register_c("same", "cpu", bundle(built_for_0_3), "lib.so:Same") }.unwrap();
    assert_eq!(reg.names(), ["old", "same"]);
    // Registered for another platform: not the CPU floor's.
    unsafe { reg.register_c("gpu_only", "CUDA", bundle(built_for_0_3), "lib.so:G") }.unwrap();
    assert!(reg.get("gpu_only").is_none() && reg.resolve("gpu_only", "cuda").unwrap().is_some());
}

// ---------------------------------------------------------------------------
// The API table itself.

#[test]
fn the_api_table_checks_sizes_and_contexts() {
    let t = table();
    assert_eq!((t.struct_size, t.api_version.major_version, t.api_version.minor_version), (XLA_FFI_Api_STRUCT_SIZE, 0, 3));
    assert!(t.internal_api.is_null());
    // Errors: create, read, destroy.
    let mut create = XLA_FFI_Error_Create_Args {
        struct_size: XLA_FFI_Error_Create_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        message: c"it broke".as_ptr(),
        errc: XLA_FFI_Error_Code_DATA_LOSS,
    };
    let e = unsafe { (t.XLA_FFI_Error_Create)(&mut create) };
    let mut get = XLA_FFI_Error_GetMessage_Args {
        struct_size: XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        error: e,
        message: std::ptr::null(),
    };
    unsafe { (t.XLA_FFI_Error_GetMessage)(&mut get) };
    assert_eq!(unsafe { std::ffi::CStr::from_ptr(get.message) }.to_str().unwrap(), "it broke");
    let mut destroy =
        XLA_FFI_Error_Destroy_Args { struct_size: XLA_FFI_Error_Destroy_Args_STRUCT_SIZE, extension_start: std::ptr::null_mut(), error: e };
    unsafe { (t.XLA_FFI_Error_Destroy)(&mut destroy) };
    // A struct shorter than the fields the entry needs is refused, not read past.
    let mut id = XLA_FFI_TypeId { type_id: 1 };
    let mut short = XLA_FFI_State_Get_Args {
        struct_size: 8,
        extension_start: std::ptr::null_mut(),
        ctx: std::ptr::null_mut(),
        stage: 0,
        type_id: &mut id,
        state: std::ptr::null_mut(),
    };
    let e = check(unsafe { (t.XLA_FFI_State_Get)(&mut short) }).unwrap_err();
    assert!(e.message.contains("XLA_FFI_State_Get_Args declares 8 bytes, this call needs at least 48"), "{}", e.message);
    // No context (as in a metadata query): an error, not a crash.
    let mut stream = XLA_FFI_Stream_Get_Args {
        struct_size: XLA_FFI_Stream_Get_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        ctx: std::ptr::null_mut(),
        stream: std::ptr::null_mut(),
    };
    let e = check(unsafe { (t.XLA_FFI_Stream_Get)(&mut stream) }).unwrap_err();
    assert_eq!(e.code, XLA_FFI_Error_Code_FAILED_PRECONDITION);
    assert!(e.message.contains("XLA_FFI_Stream_Get: no execution context"), "{}", e.message);
    // Types: a fresh id, the same id for the same name, a clash refused.
    let register = |name: &str, id: &mut XLA_FFI_TypeId| {
        let mut args = XLA_FFI_Type_Register_Args {
            struct_size: XLA_FFI_Type_Register_Args_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            name: XLA_FFI_ByteSpan { ptr: name.as_ptr().cast(), len: name.len() },
            type_id: id,
            type_info: std::ptr::null(),
        };
        check(unsafe { (t.XLA_FFI_Type_Register)(&mut args) })
    };
    let mut a = XLA_FFI_TypeId::default();
    register("floors.test.table_type", &mut a).unwrap();
    assert!(a.type_id > 0);
    let mut again = XLA_FFI_TypeId::default();
    register("floors.test.table_type", &mut again).unwrap();
    assert_eq!(again, a);
    let mut other = XLA_FFI_TypeId { type_id: a.type_id + 1000 };
    assert!(register("floors.test.table_type", &mut other).unwrap_err().message.contains("is registered with id"));
    let mut taken = a;
    assert!(register("floors.test.other_name", &mut taken).unwrap_err().message.contains("is taken by"));
}

#[test]
fn handlers_registered_through_the_table_are_found() {
    let name = "floors.test.static_target";
    let mut args = XLA_FFI_Handler_Register_Args {
        struct_size: XLA_FFI_Handler_Register_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        name: XLA_FFI_ByteSpan { ptr: name.as_ptr().cast(), len: name.len() },
        platform: XLA_FFI_ByteSpan { ptr: c"Host".as_ptr(), len: 4 },
        bundle: XLA_FFI_Handler_Bundle { execute: Some(built_for_0_3), ..Default::default() },
        traits: 0,
    };
    check(unsafe { (table().XLA_FFI_Handler_Register)(&mut args) }).unwrap();
    let h = CustomCallRegistry::new().get(name).expect("a statically registered handler");
    assert_eq!(h.origin, "XLA_FFI_Handler_Register");
    // The version rule applies there too.
    args.bundle.execute = Some(built_for_1_0);
    let e = check(unsafe { (table().XLA_FFI_Handler_Register)(&mut args) }).unwrap_err();
    assert!(e.message.contains("newer major version"), "{}", e.message);
}

// ---------------------------------------------------------------------------
// Context services from inside a handler.

static TASKS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn count_task(data: *mut c_void) {
    TASKS.fetch_add(unsafe { *(data as *const usize) }, Ordering::SeqCst);
}

static USER_TYPE: OnceLock<i64> = OnceLock::new();

fn services(f: &CallFrame) -> Result<(), FfiError> {
    let t = unsafe { &*f.raw().api };
    let ctx = f.raw().ctx;
    let ext = std::ptr::null_mut();
    // Stream: NULL on the CPU floor.
    let mut s = XLA_FFI_Stream_Get_Args { struct_size: XLA_FFI_Stream_Get_Args_STRUCT_SIZE, extension_start: ext, ctx, stream: 1 as _ };
    check(unsafe { (t.XLA_FFI_Stream_Get)(&mut s) })?;
    assert!(s.stream.is_null());
    // Memory: aligned, writable, freed.
    let mut m = XLA_FFI_DeviceMemory_Allocate_Args {
        struct_size: XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        size: 1000,
        alignment: 256,
        data: std::ptr::null_mut(),
    };
    check(unsafe { (t.XLA_FFI_DeviceMemory_Allocate)(&mut m) })?;
    assert_eq!(m.data as usize % 256, 0);
    unsafe { std::ptr::write_bytes(m.data.cast::<u8>(), 7, 1000) };
    let mut free = XLA_FFI_DeviceMemory_Free_Args {
        struct_size: XLA_FFI_DeviceMemory_Free_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        size: 1000,
        data: m.data,
    };
    check(unsafe { (t.XLA_FFI_DeviceMemory_Free)(&mut free) })?;
    m.alignment = 3;
    assert!(check(unsafe { (t.XLA_FFI_DeviceMemory_Allocate)(&mut m) }).unwrap_err().message.contains("power of two"));
    // Thread pool.
    let mut n = 0i64;
    let mut nt = XLA_FFI_ThreadPool_NumThreads_Args {
        struct_size: XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        num_threads: &mut n,
    };
    check(unsafe { (t.XLA_FFI_ThreadPool_NumThreads)(&mut nt) })?;
    static ONE: usize = 1;
    let mut sched = XLA_FFI_ThreadPool_Schedule_Args {
        struct_size: XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        task: Some(count_task),
        data: &ONE as *const usize as *mut c_void,
    };
    check(unsafe { (t.XLA_FFI_ThreadPool_Schedule)(&mut sched) })?;
    // Run id and device ordinal.
    let mut run = XLA_FFI_RunId_Get_Args { struct_size: XLA_FFI_RunId_Get_Args_STRUCT_SIZE, extension_start: ext, ctx, run_id: 0 };
    check(unsafe { (t.XLA_FFI_RunId_Get)(&mut run) })?;
    assert!(run.run_id > 0);
    let mut dev = XLA_FFI_DeviceOrdinal_Get_Args {
        struct_size: XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        device_ordinal: -1,
    };
    check(unsafe { (t.XLA_FFI_DeviceOrdinal_Get)(&mut dev) })?;
    // User data by type id.
    let mut id = XLA_FFI_TypeId { type_id: *USER_TYPE.get().unwrap() };
    let mut ud = XLA_FFI_ExecutionContext_Get_Args {
        struct_size: XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE,
        extension_start: ext,
        ctx,
        type_id: &mut id,
        data: std::ptr::null_mut(),
    };
    check(unsafe { (t.XLA_FFI_ExecutionContext_Get)(&mut ud) })?;
    let mut unknown = XLA_FFI_TypeId { type_id: 987_654 };
    ud.type_id = &mut unknown;
    let e = check(unsafe { (t.XLA_FFI_ExecutionContext_Get)(&mut ud) }).unwrap_err();
    assert_eq!(e.code, XLA_FFI_Error_Code_NOT_FOUND);
    let out = f.ret::<i64>(0)?;
    out[0] = n;
    out[1] = unsafe { *(ud.data as *const i64) };
    out[2] = dev.device_ordinal as i64;
    Ok(())
}

unsafe extern "C" fn services_handler(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe { invoke(frame, services) }
}

#[test]
fn handlers_reach_the_context_services() {
    let mut id = 0;
    api::register_type("floors.test.user_data", &mut id, None).unwrap();
    USER_TYPE.get_or_init(|| id);
    static USER_VALUE: i64 = 4242;
    let mut reg = CustomCallRegistry::new();
    reg.set_user_data(id, &USER_VALUE as *const i64 as *mut c_void);
    let bundle = XLA_FFI_Handler_Bundle { execute: Some(services_handler), ..Default::default() };
    unsafe { reg.register_c("services", "cpu", bundle, "test") }.unwrap();
    let info = CustomCallInfo { output_types: vec![spec(ElementType::I64, &[3])], ..Default::default() };
    let exec = one(CustomCallThunk::new("services", &info, vec![], vec![BufferSlice::new(0, 0, 24)], &reg).unwrap());
    let mut bufs = Buffers::new(&[24]);
    let before = TASKS.load(Ordering::SeqCst);
    exec.execute(&bufs.allocations(), None).unwrap();
    // No pool: one thread, and the task ran on the caller's.
    assert_eq!(bufs.i64s(0), [1, 4242, 0]);
    assert_eq!(TASKS.load(Ordering::SeqCst), before + 1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    exec.execute(&bufs.allocations(), Some(&pool)).unwrap();
    assert_eq!(bufs.i64s(0), [3, 4242, 0]);
    let t0 = std::time::Instant::now();
    while TASKS.load(Ordering::SeqCst) < before + 2 {
        assert!(t0.elapsed().as_secs() < 10, "the scheduled task never ran");
        std::thread::yield_now();
    }
}

// ---------------------------------------------------------------------------
// Futures: an asynchronous handler's result is waited for.

struct Completer(*mut XLA_FFI_Future, *mut f32);
unsafe impl Send for Completer {}

unsafe extern "C" fn async_handler(frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error {
    unsafe {
        let ext = (*frame).extension_start;
        if !ext.is_null() {
            return invoke(frame, |_| Ok(()));
        }
        let t = &*(*frame).api;
        let mut create = XLA_FFI_Future_Create_Args {
            struct_size: XLA_FFI_Future_Create_Args_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            future: std::ptr::null_mut(),
        };
        if let Some(e) = check((t.XLA_FFI_Future_Create)(&mut create)).err() {
            return api::new_error(e.code, e.message);
        }
        let out = (*(*(*frame).rets.rets).cast::<XLA_FFI_Buffer>()).data.cast::<f32>();
        let fail = (*frame).attrs.size > 0;
        let c = Completer(create.future, out);
        let api_ptr = (*frame).api as usize;
        std::thread::spawn(move || {
            let c = c;
            std::thread::sleep(std::time::Duration::from_millis(20));
            let t = &*(api_ptr as *const XLA_FFI_Api);
            if fail {
                let mut err = XLA_FFI_Error_Create_Args {
                    struct_size: XLA_FFI_Error_Create_Args_STRUCT_SIZE,
                    extension_start: std::ptr::null_mut(),
                    message: c"the device caught fire".as_ptr(),
                    errc: XLA_FFI_Error_Code_ABORTED,
                };
                let mut args = XLA_FFI_Future_SetError_Args {
                    struct_size: XLA_FFI_Future_SetError_Args_STRUCT_SIZE,
                    extension_start: std::ptr::null_mut(),
                    future: c.0,
                    error: (t.XLA_FFI_Error_Create)(&mut err),
                };
                assert!((t.XLA_FFI_Future_SetError)(&mut args).is_null());
            } else {
                *c.1 = 42.0;
                let mut args = XLA_FFI_Future_SetAvailable_Args {
                    struct_size: XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE,
                    extension_start: std::ptr::null_mut(),
                    future: c.0,
                };
                assert!((t.XLA_FFI_Future_SetAvailable)(&mut args).is_null());
            }
        });
        (*frame).future = create.future;
        std::ptr::null_mut()
    }
}

#[test]
fn asynchronous_results_are_waited_for() {
    let mut reg = CustomCallRegistry::new();
    let bundle = XLA_FFI_Handler_Bundle { execute: Some(async_handler), ..Default::default() };
    unsafe { reg.register_c("async", "cpu", bundle, "test") }.unwrap();
    let mut info = CustomCallInfo { output_types: vec![spec(ElementType::F32, &[1])], ..Default::default() };
    let exec = one(CustomCallThunk::new("async", &info, vec![], vec![BufferSlice::new(0, 0, 4)], &reg).unwrap());
    let mut bufs = Buffers::new(&[4]);
    exec.execute(&bufs.allocations(), None).unwrap();
    assert_eq!(bufs.f32s(0), [42.0]);
    info.attributes = attrs(vec![("fail", Attr::scalar(true))]);
    let exec = one(CustomCallThunk::new("async", &info, vec![], vec![BufferSlice::new(0, 0, 4)], &reg).unwrap());
    let e = exec.execute(&bufs.allocations(), None).unwrap_err();
    assert_eq!(e.to_string(), "custom call `async` failed: the device caught fire (ABORTED)");
}

// ---------------------------------------------------------------------------
// The Rust binding: typed decoding and its errors, state, aliasing.

fn affine_registry() -> CustomCallRegistry {
    let mut reg = CustomCallRegistry::new();
    reg.register_rust("affine", |f| {
        let scale: f32 = f.attr("scale")?;
        let shift: i64 = f.attr("shift")?;
        let x = f.arg::<f32>(0)?;
        let y = f.ret::<f32>(0)?;
        for (y, x) in y.iter_mut().zip(x) {
            *y = x * scale + shift as f32;
        }
        Ok(())
    });
    reg
}

fn run_affine(attributes: Attrs, input: ElementType) -> Result<Vec<f32>, String> {
    let reg = affine_registry();
    let info = CustomCallInfo {
        input_types: vec![spec(input, &[4])],
        output_types: vec![spec(ElementType::F32, &[4])],
        attributes,
        location: "affine.mlir:2:3".into(),
        ..Default::default()
    };
    let exec =
        one(CustomCallThunk::new("affine", &info, vec![BufferSlice::new(0, 0, 16)], vec![BufferSlice::new(1, 0, 16)], &reg).unwrap());
    let mut bufs = Buffers::new(&[16, 16]);
    bufs.set_f32s(0, &[1.0, 2.0, 3.0, 4.0]);
    exec.execute(&bufs.allocations(), None).map_err(|e| e.to_string())?;
    Ok(bufs.f32s(1))
}

#[test]
fn the_rust_binding_decodes_typed_attributes_and_names_what_is_wrong() {
    let good = attrs(vec![("scale", Attr::scalar(2.5f32)), ("shift", Attr::scalar(-1i64))]);
    assert_eq!(run_affine(good.clone(), ElementType::F32).unwrap(), [1.5, 4.0, 6.5, 9.0]);
    let wrong = attrs(vec![("scale", Attr::scalar(2i32)), ("shift", Attr::scalar(-1i64))]);
    assert_eq!(
        run_affine(wrong, ElementType::F32).unwrap_err(),
        "custom call `affine` failed: attribute `scale`: expected f32 scalar, got i32 scalar"
    );
    let missing = attrs(vec![("scale", Attr::scalar(2.5f32))]);
    assert_eq!(
        run_affine(missing, ElementType::F32).unwrap_err(),
        "custom call `affine` failed: missing attribute `shift` (i64 scalar; the call has scale)"
    );
    let array = attrs(vec![("scale", Attr::array(&[1.0f32])), ("shift", Attr::scalar(-1i64))]);
    assert!(run_affine(array, ElementType::F32).unwrap_err().contains("expected f32 scalar, got f32 array"));
    assert_eq!(run_affine(good, ElementType::I32).unwrap_err(), "custom call `affine` failed: argument 0 is i32[4], expected f32 elements");
}

#[test]
fn rust_handlers_keep_state_and_see_aliases() {
    let mut reg = CustomCallRegistry::new();
    let h = RustHandler::new(|f| {
        let calls = f.state::<AtomicI64>()?;
        let n = calls.fetch_add(1, Ordering::SeqCst);
        // The output aliases the input: read and write it through ret().
        assert!(f.arg::<f32>(0).unwrap_err().message.contains("shares memory with result 0"));
        assert_eq!(f.arg_alias(0), Some(0));
        for v in f.ret::<f32>(0)? {
            *v += n as f32;
        }
        assert!(f.ret::<f32>(0).unwrap_err().message.contains("already taken"));
        Ok(())
    })
    .with_instantiate(|f| {
        let base: i64 = f.attr("base")?;
        Ok(Some(Box::new(AtomicI64::new(base))))
    });
    reg.register_rust_handler("bump", "cpu", h);
    let info = CustomCallInfo {
        input_types: vec![spec(ElementType::F32, &[2])],
        output_types: vec![spec(ElementType::F32, &[2])],
        attributes: attrs(vec![("base", Attr::scalar(10i64))]),
        aliases: vec![(0, 0)],
        ..Default::default()
    };
    let s = BufferSlice::new(0, 0, 8);
    let exec = one(CustomCallThunk::new("bump", &info, vec![s], vec![s], &reg).unwrap());
    let mut bufs = Buffers::new(&[8]);
    bufs.set_f32s(0, &[1.0, 2.0]);
    exec.execute(&bufs.allocations(), None).unwrap();
    assert_eq!(bufs.f32s(0), [11.0, 12.0]);
    exec.execute(&bufs.allocations(), None).unwrap();
    assert_eq!(bufs.f32s(0), [22.0, 23.0]);
    // A bytes handler sees an aliased input's bytes as its input.
    let mut reg = CustomCallRegistry::new();
    reg.register("negate_bytes", |ins, outs| {
        assert_eq!(ins[0], &[1, 2]);
        outs[0].copy_from_slice(&[ins[0][0].wrapping_neg(), ins[0][1].wrapping_neg()]);
        Ok(())
    });
    let info = CustomCallInfo {
        input_types: vec![spec(ElementType::U8, &[2])],
        output_types: vec![spec(ElementType::U8, &[2])],
        aliases: vec![(0, 0)],
        ..Default::default()
    };
    let s = BufferSlice::new(0, 0, 2);
    let exec = one(CustomCallThunk::new("negate_bytes", &info, vec![s], vec![s], &reg).unwrap());
    let mut bufs = Buffers::new(&[2]);
    bufs.0[0].as_mut_slice().copy_from_slice(&[1, 2]);
    exec.execute(&bufs.allocations(), None).unwrap();
    assert_eq!(bufs.0[0].as_slice(), [255, 254]);
}

#[test]
fn builtins_are_ffi_handlers() {
    let reg = CustomCallRegistry::with_builtins();
    assert_eq!(reg.names(), ["SPMDFullToShardShape", "SPMDShardToFullShape", "Sharding", "dce_sink", "floors.fft"]);
    let h = reg.get("Sharding").unwrap();
    assert_eq!(h.origin, "built-in");
    let info = CustomCallInfo {
        input_types: vec![spec(ElementType::F32, &[2])],
        output_types: vec![spec(ElementType::F32, &[2])],
        ..Default::default()
    };
    let exec =
        one(CustomCallThunk::new("Sharding", &info, vec![BufferSlice::new(0, 0, 8)], vec![BufferSlice::new(1, 0, 8)], &reg).unwrap());
    let mut bufs = Buffers::new(&[8, 8]);
    bufs.set_f32s(0, &[3.0, -1.0]);
    exec.execute(&bufs.allocations(), None).unwrap();
    assert_eq!(bufs.f32s(1), [3.0, -1.0]);
}
