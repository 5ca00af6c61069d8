//! The GPU program on a CUDA device: driver and cuBLAS calls through
//! cudarc's raw bindings (both libraries `dlopen`ed on first use). See the
//! module docs of [`crate::gpu`] for what a run does.

use std::ffi::{CString, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::cublas::sys as blas;
use cudarc::driver::{CudaContext, sys};

use super::device::DeviceDescription;
use super::layout::{ArenaLayout, arena_layout, plan_streams, spec_uses};
use super::streams::StreamPlan;
use crate::artifact::{Artifact, PtxArg, PtxModule};
use crate::buffer::{Access, BufferSlice};
use crate::error::{Error, Result};
use crate::executor::ExecutorOptions;
use crate::ffi::{CallSite, GPU_PLATFORM};
use crate::gemm::{ColumnMajorGemm, GemmSpec, Operand};
use crate::npy::{ElementType, HostArray};
use crate::program::{AllocationRole, DeviceProgram, HostProgram, MemsetValue, ThunkSpec};
use crate::thunk::CustomCallRegistry;

pub(crate) fn driver_present() -> bool {
    // SAFETY: only tries to dlopen the library.
    unsafe { sys::is_culib_present() }
}

fn gpu(message: String) -> Error {
    Error::Gpu(message)
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".into())
}

/// Runs `f`, turning a panic inside cudarc (a symbol the driver lacks) into an error.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(gpu(format!("{what}: the CUDA bindings panicked: {}", panic_text(&*p)))),
    }
}

/// `Ok` for CUDA_SUCCESS, else an error naming `what` and the driver's words.
fn check(r: sys::CUresult, what: impl FnOnce() -> String) -> Result<()> {
    if r == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let words = cudarc::driver::DriverError(r).error_string().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    Err(gpu(format!("{}: {r:?}{}", what(), if words.is_empty() { String::new() } else { format!(" ({words})") })))
}

fn check_blas(r: blas::cublasStatus_t, what: impl FnOnce() -> String) -> Result<()> {
    if r == blas::cublasStatus_t::CUBLAS_STATUS_SUCCESS { Ok(()) } else { Err(gpu(format!("{}: cuBLAS {r:?}", what()))) }
}

/// The primary context of device 0, made once per process.
fn context() -> Result<Arc<CudaContext>> {
    static CONTEXT: OnceLock<std::result::Result<Arc<CudaContext>, String>> = OnceLock::new();
    if !driver_present() {
        return Err(super::no_driver_error());
    }
    CONTEXT
        .get_or_init(|| match catch_unwind(|| CudaContext::new(0)) {
            Ok(Ok(ctx)) => Ok(ctx),
            Ok(Err(e)) => Err(format!("no usable CUDA device 0: {e:?}")),
            Err(p) => Err(format!("creating a CUDA context panicked: {}", panic_text(&*p))),
        })
        .clone()
        .map_err(gpu)
}

/// Device 0's context, bound to this thread.
pub(crate) fn bound_context() -> Result<Arc<CudaContext>> {
    let ctx = context()?;
    ctx.bind_to_thread().map_err(|e| gpu(format!("binding the CUDA context: {e:?}")))?;
    Ok(ctx)
}

// --- owned driver objects ----------------------------------------------------

struct Stream(sys::CUstream);
struct Event(sys::CUevent);
struct Module(sys::CUmodule);
struct DeviceMemory(sys::CUdeviceptr);
struct Cublas(blas::cublasHandle_t);

impl Drop for Stream {
    fn drop(&mut self) {
        unsafe { sys::cuStreamDestroy_v2(self.0) };
    }
}
impl Drop for Event {
    fn drop(&mut self) {
        unsafe { sys::cuEventDestroy_v2(self.0) };
    }
}
impl Drop for Module {
    fn drop(&mut self) {
        unsafe { sys::cuModuleUnload(self.0) };
    }
}
impl Drop for DeviceMemory {
    fn drop(&mut self) {
        if self.0 != 0 {
            unsafe { sys::cuMemFree_v2(self.0) };
        }
    }
}
impl Drop for Cublas {
    fn drop(&mut self) {
        unsafe { blas::cublasDestroy_v2(self.0) };
    }
}

fn new_stream() -> Result<Stream> {
    let mut s = null_mut();
    check(unsafe { sys::cuStreamCreate(&mut s, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32) }, || "cuStreamCreate".into())?;
    Ok(Stream(s))
}

fn new_event(timing: bool) -> Result<Event> {
    let mut e = null_mut();
    let flags = if timing { sys::CUevent_flags::CU_EVENT_DEFAULT } else { sys::CUevent_flags::CU_EVENT_DISABLE_TIMING };
    check(unsafe { sys::cuEventCreate(&mut e, flags as u32) }, || "cuEventCreate".into())?;
    Ok(Event(e))
}

/// Loads PTX with `cuModuleLoadDataEx`, the JIT's error log in the error.
fn load_ptx(kernel: &str, ptx: &str) -> Result<Module> {
    const LOG: usize = 1 << 14;
    let text = CString::new(ptx).map_err(|_| gpu(format!("kernel `{kernel}`: the PTX contains a NUL byte")))?;
    let mut error_log = vec![0u8; LOG];
    let mut info_log = vec![0u8; LOG];
    let mut options = [
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut values: [*mut c_void; 4] =
        [error_log.as_mut_ptr().cast(), LOG as *mut c_void, info_log.as_mut_ptr().cast(), LOG as *mut c_void];
    let mut module = null_mut();
    let r = unsafe {
        sys::cuModuleLoadDataEx(&mut module, text.as_ptr().cast(), options.len() as u32, options.as_mut_ptr(), values.as_mut_ptr())
    };
    let log = |b: &[u8]| String::from_utf8_lossy(&b[..b.iter().position(|&c| c == 0).unwrap_or(b.len())]).trim().to_string();
    check(r, || {
        let e = log(&error_log);
        format!("kernel `{kernel}`: the driver's JIT refused the PTX{}", if e.is_empty() { String::new() } else { format!(":\n{e}\n") })
    })?;
    Ok(Module(module))
}

// --- thunks ----------------------------------------------------------------------

struct Launch {
    function: sys::CUfunction,
    name: String,
    grid: [u32; 3],
    block: [u32; 3],
    shared: u32,
    args: Vec<PtxArg>,
    /// Device addresses of the module's temporaries.
    temps: Vec<u64>,
}

enum GpuThunk {
    Kernel { name: String, launches: Vec<Launch>, args: Vec<BufferSlice> },
    Copy { from: BufferSlice, to: BufferSlice },
    Memset { dst: BufferSlice, value: MemsetValue },
    Gemm { spec: GemmSpec, call: ColumnMajorGemm },
    While { cond: Vec<GpuThunk>, predicate: BufferSlice, body: Vec<GpuThunk> },
    Conditional { index: BufferSlice, branches: Vec<Vec<GpuThunk>> },
    CustomCall { target: String, location: String, site: Box<CallSite>, slices: Vec<BufferSlice>, num_inputs: usize },
}

impl GpuThunk {
    fn describe(&self) -> String {
        match self {
            GpuThunk::Kernel { name, launches, .. } => {
                let l: Vec<String> =
                    launches.iter().map(|l| format!("{} grid {:?} block {:?} smem {}", l.name, l.grid, l.block, l.shared)).collect();
                format!("kernel @{name} ({})", l.join("; "))
            }
            GpuThunk::Copy { from, to } => {
                format!("memcpy a{}[{}+{}] -> a{}[{}]", from.allocation, from.offset, from.size, to.allocation, to.offset)
            }
            GpuThunk::Memset { dst, value } => format!("memset a{}[{}+{}] {value:?}", dst.allocation, dst.offset, dst.size),
            GpuThunk::Gemm { spec: s, .. } => format!("gemm (cuBLAS) {}", s.describe()),
            GpuThunk::While { cond, body, .. } => format!("while ({} cond thunks, {} body thunks)", cond.len(), body.len()),
            GpuThunk::Conditional { branches, .. } => format!("conditional ({} branches)", branches.len()),
            GpuThunk::CustomCall { target, .. } => format!("custom_call @{target} (platform {GPU_PLATFORM})"),
        }
    }
}

struct Builder<'a> {
    functions: &'a [(String, Vec<Launch>)],
    custom_calls: &'a CustomCallRegistry,
    has_gemm: bool,
}

impl Builder<'_> {
    fn seq(&mut self, specs: &[ThunkSpec]) -> Result<Vec<GpuThunk>> {
        specs.iter().map(|s| self.thunk(s)).collect()
    }

    fn thunk(&mut self, spec: &ThunkSpec) -> Result<GpuThunk> {
        Ok(match spec {
            ThunkSpec::Kernel { kernel, inputs, outputs, .. } => {
                let (_, launches) = self
                    .functions
                    .iter()
                    .find(|(n, _)| n == kernel)
                    .ok_or_else(|| Error::Program(format!("kernel `{kernel}` has no PTX module")))?;
                let launches = launches
                    .iter()
                    .map(|l| Launch {
                        function: l.function,
                        name: l.name.clone(),
                        grid: l.grid,
                        block: l.block,
                        shared: l.shared,
                        args: l.args.clone(),
                        temps: l.temps.clone(),
                    })
                    .collect();
                GpuThunk::Kernel { name: kernel.clone(), launches, args: inputs.iter().chain(outputs).copied().collect() }
            }
            ThunkSpec::Copy { from, to } => {
                if from.size != to.size {
                    return Err(Error::Program(format!("copy: source is {} bytes, destination {}", from.size, to.size)));
                }
                GpuThunk::Copy { from: *from, to: *to }
            }
            ThunkSpec::Memset { dst, value } => GpuThunk::Memset { dst: *dst, value: *value },
            ThunkSpec::Gemm(g) => {
                g.validate().map_err(Error::Program)?;
                let call = g.column_major();
                if !call.fits_i32() {
                    return Err(Error::Program(format!(
                        "gemm {}x{}x{}x{}: a dimension exceeds cuBLAS's 32-bit arguments",
                        g.shape.batch, g.shape.m, g.shape.n, g.shape.k
                    )));
                }
                self.has_gemm = true;
                GpuThunk::Gemm { spec: g.clone(), call }
            }
            ThunkSpec::While { cond, predicate, body, .. } => {
                if predicate.size != 1 {
                    return Err(Error::Program(format!("while: the predicate is {} bytes, a bool is 1", predicate.size)));
                }
                GpuThunk::While { cond: self.seq(cond)?, predicate: *predicate, body: self.seq(body)? }
            }
            ThunkSpec::Conditional { index, branches } => {
                if branches.is_empty() || !(index.size == 4 || (index.size == 1 && branches.len() == 2)) {
                    return Err(Error::Program(format!("conditional: a {}-byte index over {} branches", index.size, branches.len())));
                }
                GpuThunk::Conditional { index: *index, branches: branches.iter().map(|b| self.seq(b)).collect::<Result<_>>()? }
            }
            ThunkSpec::CustomCall { target, inputs, outputs, info } => {
                let at = |message: String| Error::CustomCall { location: info.location.clone(), message };
                if info.input_types.len() != inputs.len() || info.output_types.len() != outputs.len() {
                    return Err(at(format!("custom call `{target}`: the buffers do not match the types")));
                }
                if crate::collectives::is_collective(target) {
                    // Checked as NCCL would take it, so a layout NCCL cannot
                    // compute is named before the missing transport.
                    super::nccl::NcclCollective::new(target, info, inputs.clone(), outputs.clone())?;
                    return Err(at(format!(
                        "collective `{target}`: on a CUDA device floors has no NCCL transport yet (this runtime runs one GPU); its NCCL calls run on the simulated devices (`--device sim`)"
                    )));
                }
                let handler = match self.custom_calls.resolve(target, GPU_PLATFORM) {
                    Ok(Some(h)) => h,
                    Ok(None) => {
                        return Err(at(format!(
                            "no handler is registered for custom_call target '{target}' on the GPU (platform `{GPU_PLATFORM}`)"
                        )));
                    }
                    Err(e) => return Err(at(format!("custom_call target '{target}': the handler is refused: {e}"))),
                };
                let site =
                    CallSite::new(target, handler, &info.input_types, &info.output_types, &info.attributes, self.custom_calls.user_data())
                        .map_err(|e| at(format!("custom call `{target}`: {e}")))?;
                GpuThunk::CustomCall {
                    target: target.clone(),
                    location: info.location.clone(),
                    site: Box::new(site),
                    slices: inputs.iter().chain(outputs).copied().collect(),
                    num_inputs: inputs.len(),
                }
            }
        })
    }
}

// --- the program -------------------------------------------------------------

/// What one run uses; behind a mutex, so runs of one program are serialized.
struct RunState {
    arena: DeviceMemory,
    streams: Vec<Stream>,
    /// The event recorded after top-level thunk `i`, when someone waits for it.
    events: Vec<Option<Event>>,
    /// Recorded on stream 0 when the inputs are in place; the other streams wait for it.
    ready: Event,
    timing: (Event, Event),
    cublas: Option<Cublas>,
    constants_uploaded: bool,
}

pub(crate) struct GpuProgram {
    ctx: Arc<CudaContext>,
    program: HostProgram,
    layout: ArenaLayout,
    body: Vec<GpuThunk>,
    plan: StreamPlan,
    /// Some thunk writes a constant allocation: constants are uploaded every run.
    constants_written: bool,
    /// Synchronize after every top-level thunk (`--gpu-sync`).
    sync_each: bool,
    device_name: String,
    chip: String,
    state: Mutex<RunState>,
    /// The kernels' temporaries (their addresses are in the launches).
    _temps: Vec<DeviceMemory>,
    // Dropped last: the functions above point into them.
    _modules: Vec<Module>,
}

// SAFETY: the raw driver handles are used under the state mutex (streams,
// events, the arena, the cuBLAS handle) or are immutable after loading
// (modules, functions), which the driver allows from any thread.
unsafe impl Send for GpuProgram {}
unsafe impl Sync for GpuProgram {}

impl GpuProgram {
    pub(crate) fn new(
        artifact: &Artifact,
        chip: &str,
        _device: &DeviceDescription,
        modules: &[PtxModule],
        origin: &str,
        custom_calls: &Arc<CustomCallRegistry>,
        options: ExecutorOptions,
    ) -> Result<Self> {
        guarded("loading the GPU program", || Self::build(artifact, chip, modules, origin, custom_calls, options))
    }

    fn build(
        artifact: &Artifact,
        chip: &str,
        modules: &[PtxModule],
        origin: &str,
        custom_calls: &Arc<CustomCallRegistry>,
        options: ExecutorOptions,
    ) -> Result<Self> {
        let ctx = bound_context()?;
        let (major, minor) = ctx.compute_capability().map_err(|e| gpu(format!("querying the device: {e:?}")))?;
        let device_name = ctx.name().unwrap_or_else(|_| "CUDA device 0".into());
        check_chip(chip, major as u32, minor as u32, &device_name).map_err(|m| Error::Artifact { origin: origin.into(), message: m })?;

        // Every module once; the functions of its launches looked up by entry name.
        let mut loaded = Vec::new();
        let mut temps = Vec::new();
        let mut functions: Vec<(String, Vec<Launch>)> = Vec::new();
        for m in modules {
            let mut addresses = Vec::new();
            for &bytes in &m.temps {
                let mut p = 0;
                check(unsafe { sys::cuMemAlloc_v2(&mut p, bytes.max(1) as usize) }, || {
                    format!("kernel `{}`: allocating a {bytes}-byte temporary", m.kernel)
                })?;
                temps.push(DeviceMemory(p));
                addresses.push(p);
            }
            let module = load_ptx(&m.kernel, &m.ptx).map_err(|e| match e {
                Error::Gpu(message) => Error::KernelLoad { origin: origin.into(), message },
                e => e,
            })?;
            let mut launches = Vec::new();
            for l in &m.launches {
                let name = CString::new(l.function.as_str())
                    .map_err(|_| Error::Program(format!("kernel `{}`: a NUL in an entry name", m.kernel)))?;
                let mut f = null_mut();
                check(unsafe { sys::cuModuleGetFunction(&mut f, module.0, name.as_ptr()) }, || {
                    format!("kernel `{}`: no entry `{}` in its PTX", m.kernel, l.function)
                })?;
                if l.shared_memory_bytes > 48 * 1024 {
                    let attr = sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
                    check(unsafe { sys::cuFuncSetAttribute(f, attr, l.shared_memory_bytes as i32) }, || {
                        format!("kernel `{}`: opting `{}` in to {} bytes of shared memory", m.kernel, l.function, l.shared_memory_bytes)
                    })?;
                }
                launches.push(Launch {
                    function: f,
                    name: l.function.clone(),
                    grid: l.grid,
                    block: l.block,
                    shared: l.shared_memory_bytes,
                    args: l.args.clone(),
                    temps: addresses.clone(),
                });
            }
            loaded.push(module);
            functions.push((m.kernel.clone(), launches));
        }

        let program = artifact.program.clone();
        let mut builder = Builder { functions: &functions, custom_calls, has_gemm: false };
        let body = builder.seq(&program.body)?;
        let cublas = if builder.has_gemm { Some(new_cublas()?) } else { None };
        let plan = plan_streams(&program.body, options.gpu_streams);
        let layout = arena_layout(&program.allocations).map_err(Error::Program)?;
        let constants_written = program.body.iter().any(|t| {
            spec_uses(t)
                .0
                .iter()
                .any(|u| u.access == Access::Write && matches!(program.allocations[u.slice.allocation].role, AllocationRole::Constant(_)))
        });

        let mut arena = 0;
        if layout.bytes > 0 {
            check(unsafe { sys::cuMemAlloc_v2(&mut arena, layout.bytes as usize) }, || {
                format!("allocating the {}-byte device arena", layout.bytes)
            })?;
        }
        let arena = DeviceMemory(arena);
        let streams = (0..plan.streams).map(|_| new_stream()).collect::<Result<Vec<_>>>()?;
        let events = plan.records.iter().map(|&r| if r { new_event(false).map(Some) } else { Ok(None) }).collect::<Result<Vec<_>>>()?;
        let state = RunState {
            arena,
            streams,
            events,
            ready: new_event(false)?,
            timing: (new_event(true)?, new_event(true)?),
            cublas,
            constants_uploaded: false,
        };
        Ok(Self {
            ctx,
            program,
            layout,
            body,
            plan,
            constants_written,
            sync_each: options.gpu_sync,
            device_name,
            chip: format!("sm_{major}{minor}"),
            state: Mutex::new(state),
            _temps: temps,
            _modules: loaded,
        })
    }
}

fn new_cublas() -> Result<Cublas> {
    // SAFETY: only tries to dlopen the library.
    if !unsafe { blas::is_culib_present() } {
        return Err(
            gpu("no cuBLAS library found (libcublas.so; put its directory on LD_LIBRARY_PATH): the program has gemm thunks".into()),
        );
    }
    let mut h = null_mut();
    check_blas(unsafe { blas::cublasCreate_v2(&mut h) }, || "cublasCreate".into())?;
    Ok(Cublas(h))
}

/// Whether PTX compiled for `chip` runs on a device of compute capability
/// `major.minor`: `sm_XY` on any device ≥ X.Y, `sm_XYa` only on X.Y.
pub(crate) fn check_chip(chip: &str, major: u32, minor: u32, device: &str) -> std::result::Result<(), String> {
    let digits = chip.strip_prefix("sm_").unwrap_or(chip);
    let (digits, specific) = match digits.strip_suffix('a') {
        Some(d) => (d, true),
        None => (digits, false),
    };
    let cc: u32 = digits.parse().map_err(|_| format!("unknown GPU chip `{chip}`"))?;
    let (want_major, want_minor) = (cc / 10, cc % 10);
    let ok = if specific { (major, minor) == (want_major, want_minor) } else { (major, minor) >= (want_major, want_minor) };
    if ok {
        Ok(())
    } else {
        Err(format!("compiled for {chip}; device 0 ({device}) is sm_{major}{minor}: recompile with --gpu sm_{major}{minor}"))
    }
}

/// Device addresses of one run.
struct Addrs<'a> {
    base: u64,
    offsets: &'a [u64],
}

impl Addrs<'_> {
    fn of(&self, s: &BufferSlice) -> u64 {
        self.base + self.offsets[s.allocation] + s.offset
    }
}

impl GpuProgram {
    fn run_seq(&self, seq: &[GpuThunk], stream: sys::CUstream, a: &Addrs, st: &RunState) -> Result<()> {
        seq.iter().try_for_each(|t| self.run_thunk(t, stream, a, st))
    }

    fn read_back(&self, slice: &BufferSlice, stream: sys::CUstream, a: &Addrs) -> Result<[u8; 4]> {
        let mut bytes = [0u8; 4];
        let n = slice.size.min(4) as usize;
        check(unsafe { sys::cuMemcpyDtoHAsync_v2(bytes.as_mut_ptr().cast(), a.of(slice), n, stream) }, || {
            "copying a predicate back".into()
        })?;
        check(unsafe { sys::cuStreamSynchronize(stream) }, || "waiting for a predicate".into())?;
        Ok(bytes)
    }

    fn run_thunk(&self, t: &GpuThunk, stream: sys::CUstream, a: &Addrs, st: &RunState) -> Result<()> {
        match t {
            GpuThunk::Kernel { name, launches, args } => {
                for l in launches {
                    let mut words: Vec<u64> = l
                        .args
                        .iter()
                        .map(|arg| match *arg {
                            PtxArg::Buffer(i) => a.of(&args[i as usize]),
                            PtxArg::Temp(i) => l.temps[i as usize],
                            // Little-endian: the driver reads the low 4 bytes.
                            PtxArg::I32(v) => v as u32 as u64,
                            PtxArg::I64(v) => v as u64,
                        })
                        .collect();
                    let mut params: Vec<*mut c_void> = words.iter_mut().map(|w| (w as *mut u64).cast()).collect();
                    let [gx, gy, gz] = l.grid;
                    let [bx, by, bz] = l.block;
                    check(
                        unsafe {
                            sys::cuLaunchKernel(l.function, gx, gy, gz, bx, by, bz, l.shared, stream, params.as_mut_ptr(), null_mut())
                        },
                        || format!("launching kernel `{name}` ({})", l.name),
                    )?;
                }
                Ok(())
            }
            GpuThunk::Copy { from, to } => {
                if from.size == 0 {
                    return Ok(());
                }
                check(unsafe { sys::cuMemcpyDtoDAsync_v2(a.of(to), a.of(from), from.size as usize, stream) }, || "memcpy".into())
            }
            GpuThunk::Memset { dst, value } => {
                if dst.size == 0 {
                    return Ok(());
                }
                check(
                    unsafe {
                        match value {
                            MemsetValue::Byte(b) => sys::cuMemsetD8Async(a.of(dst), *b, dst.size as usize, stream),
                            MemsetValue::Word(w) => sys::cuMemsetD32Async(a.of(dst), *w, dst.size as usize / 4, stream),
                        }
                    },
                    || "memset".into(),
                )
            }
            GpuThunk::Gemm { spec, call } => self.gemm(spec, call, stream, a, st),
            GpuThunk::While { cond, predicate, body } => loop {
                self.run_seq(cond, stream, a, st)?;
                match self.read_back(predicate, stream, a)?[0] {
                    0 => return Ok(()),
                    1 => self.run_seq(body, stream, a, st)?,
                    b => return Err(gpu(format!("while: the predicate byte is {b}, neither 0 nor 1"))),
                }
            },
            GpuThunk::Conditional { index, branches } => {
                let bytes = self.read_back(index, stream, a)?;
                let last = branches.len() - 1;
                let branch = if index.size == 1 {
                    match bytes[0] {
                        0 => 1,
                        1 => 0,
                        b => return Err(gpu(format!("conditional: the bool index byte is {b}"))),
                    }
                } else {
                    usize::try_from(i32::from_le_bytes(bytes)).ok().filter(|&i| i < last).unwrap_or(last)
                };
                self.run_seq(&branches[branch], stream, a, st)
            }
            GpuThunk::CustomCall { target, location, site, slices, num_inputs } => {
                let ptrs: Vec<*mut u8> = slices.iter().map(|s| a.of(s) as usize as *mut u8).collect();
                let (args, rets) = ptrs.split_at(*num_inputs);
                site.run_on(args, rets, None, stream.cast()).map_err(|message| {
                    let message = format!("custom call `{target}` failed: {message}");
                    if location.is_empty() { gpu(message) } else { Error::CustomCall { location: location.clone(), message } }
                })
            }
        }
    }

    fn gemm(&self, spec: &GemmSpec, g: &ColumnMajorGemm, stream: sys::CUstream, a: &Addrs, st: &RunState) -> Result<()> {
        if spec.out.size == 0 {
            return Ok(());
        }
        if spec.shape.k == 0 {
            return check(unsafe { sys::cuMemsetD8Async(a.of(&spec.out), 0, spec.out.size as usize, stream) }, || "gemm (k = 0)".into());
        }
        let handle = st.cublas.as_ref().ok_or_else(|| gpu("gemm without a cuBLAS handle (internal)".into()))?.0;
        let operand = |o: Operand| a.of(if o == Operand::Lhs { &spec.lhs } else { &spec.rhs });
        let op = |t: bool| if t { blas::cublasOperation_t::CUBLAS_OP_T } else { blas::cublasOperation_t::CUBLAS_OP_N };
        let (dtype, compute) = match spec.element_type {
            ElementType::F32 if spec.compute == crate::gemm::GemmCompute::Tf32 => {
                (blas::cudaDataType::CUDA_R_32F, blas::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32)
            }
            ElementType::F32 => (blas::cudaDataType::CUDA_R_32F, blas::cublasComputeType_t::CUBLAS_COMPUTE_32F),
            ElementType::F64 => (blas::cudaDataType::CUDA_R_64F, blas::cublasComputeType_t::CUBLAS_COMPUTE_64F),
            ElementType::F16 => (blas::cudaDataType::CUDA_R_16F, blas::cublasComputeType_t::CUBLAS_COMPUTE_32F),
            ElementType::Bf16 => (blas::cudaDataType::CUDA_R_16BF, blas::cublasComputeType_t::CUBLAS_COMPUTE_32F),
            t => return Err(gpu(format!("gemm of {t:?}"))),
        };
        let (one64, zero64, one32, zero32) = (1.0f64, 0.0f64, 1.0f32, 0.0f32);
        let (alpha, beta): (*const c_void, *const c_void) = if spec.element_type == ElementType::F64 {
            ((&one64 as *const f64).cast(), (&zero64 as *const f64).cast())
        } else {
            ((&one32 as *const f32).cast(), (&zero32 as *const f32).cast())
        };
        check_blas(unsafe { blas::cublasSetStream_v2(handle, stream.cast()) }, || "cublasSetStream".into())?;
        let r = unsafe {
            blas::cublasGemmStridedBatchedEx(
                handle,
                op(g.trans_a),
                op(g.trans_b),
                g.m as i32,
                g.n as i32,
                g.k as i32,
                alpha,
                operand(g.a) as usize as *const c_void,
                dtype,
                g.lda as i32,
                g.stride_a as i64,
                operand(g.b) as usize as *const c_void,
                dtype,
                g.ldb as i32,
                g.stride_b as i64,
                beta,
                a.of(&spec.out) as usize as *mut c_void,
                dtype,
                g.ldc as i32,
                g.stride_c as i64,
                g.batch as i32,
                compute,
                blas::cublasGemmAlgo_t::CUBLAS_GEMM_DEFAULT,
            )
        };
        check_blas(r, || format!("gemm {}x{}x{}x{} {:?}", spec.shape.batch, spec.shape.m, spec.shape.n, spec.shape.k, spec.element_type))
    }

    /// Issues the top-level thunks on their streams; stream 0 ends after all of them.
    fn run_body(&self, st: &RunState) -> Result<()> {
        let a = Addrs { base: st.arena.0, offsets: &self.layout.offsets };
        let s0 = st.streams[0].0;
        if st.streams.len() > 1 {
            check(unsafe { sys::cuEventRecord(st.ready.0, s0) }, || "cuEventRecord".into())?;
            for s in &st.streams[1..] {
                check(unsafe { sys::cuStreamWaitEvent(s.0, st.ready.0, 0) }, || "cuStreamWaitEvent".into())?;
            }
        }
        for (i, t) in self.body.iter().enumerate() {
            let s = st.streams[self.plan.stream_of[i]].0;
            for &w in &self.plan.waits[i] {
                let e = st.events[w].as_ref().expect("a planned event").0;
                check(unsafe { sys::cuStreamWaitEvent(s, e, 0) }, || "cuStreamWaitEvent".into())?;
            }
            self.run_thunk(t, s, &a, st).map_err(|e| match e {
                Error::Gpu(m) => gpu(format!("thunk #{i} ({}): {m}", t.describe())),
                e => e,
            })?;
            if self.sync_each {
                check(unsafe { sys::cuStreamSynchronize(s) }, || format!("thunk #{i} ({}) failed on the device", t.describe()))?;
            }
            if let Some(e) = &st.events[i] {
                check(unsafe { sys::cuEventRecord(e.0, s) }, || "cuEventRecord".into())?;
            }
        }
        for &w in &self.plan.final_waits {
            let e = st.events[w].as_ref().expect("a planned event").0;
            check(unsafe { sys::cuStreamWaitEvent(s0, e, 0) }, || "cuStreamWaitEvent".into())?;
        }
        Ok(())
    }

    /// Uploads the parameters (and the constants when needed) on stream 0.
    fn upload(&self, st: &mut RunState, inputs: &[&HostArray]) -> Result<()> {
        let a = Addrs { base: st.arena.0, offsets: &self.layout.offsets };
        let s0 = st.streams[0].0;
        let upload = |alloc: usize, bytes: &[u8]| -> Result<()> {
            if bytes.is_empty() {
                return Ok(());
            }
            let dst = a.of(&BufferSlice::new(alloc, 0, bytes.len() as u64));
            check(unsafe { sys::cuMemcpyHtoDAsync_v2(dst, bytes.as_ptr().cast(), bytes.len(), s0) }, || "uploading an input".into())
        };
        if !st.constants_uploaded || self.constants_written {
            for (i, spec) in self.program.allocations.iter().enumerate() {
                if let AllocationRole::Constant(init) = &spec.role {
                    upload(i, init)?;
                }
            }
            st.constants_uploaded = true;
        }
        for (i, (_, alloc)) in self.program.params.iter().enumerate() {
            upload(*alloc, &inputs[i].bytes)?;
        }
        Ok(())
    }

    fn sync(&self, st: &RunState) -> Result<()> {
        check(unsafe { sys::cuStreamSynchronize(st.streams[0].0) }, || "waiting for the run".into())
    }

    fn execute_locked(&self, inputs: &[&HostArray]) -> Result<Vec<HostArray>> {
        self.ctx.bind_to_thread().map_err(|e| gpu(format!("binding the CUDA context: {e:?}")))?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = (|| {
            self.upload(&mut st, inputs)?;
            self.run_body(&st)?;
            let a = Addrs { base: st.arena.0, offsets: &self.layout.offsets };
            let mut outs = Vec::with_capacity(self.program.results.len());
            for (spec, slice) in &self.program.results {
                let mut bytes = crate::AlignedBuffer::zeros(slice.size as usize);
                if !bytes.is_empty() {
                    check(
                        unsafe { sys::cuMemcpyDtoHAsync_v2(bytes.as_mut_ptr().cast(), a.of(slice), bytes.len(), st.streams[0].0) },
                        || "copying a result back".into(),
                    )?;
                }
                outs.push(HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes });
            }
            self.sync(&st)?;
            Ok(outs)
        })();
        if r.is_err() {
            // Leave nothing running on the arena the next run reuses.
            unsafe { sys::cuCtxSynchronize() };
        }
        r
    }

    fn bench_locked(&self, inputs: &[&HostArray], warmup: usize, reps: usize) -> Result<Vec<f64>> {
        self.ctx.bind_to_thread().map_err(|e| gpu(format!("binding the CUDA context: {e:?}")))?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = (|| {
            self.upload(&mut st, inputs)?;
            for _ in 0..warmup {
                self.run_body(&st)?;
            }
            self.sync(&st)?;
            let s0 = st.streams[0].0;
            let mut times = Vec::with_capacity(reps);
            for _ in 0..reps {
                if self.constants_written {
                    self.upload(&mut st, inputs)?;
                }
                check(unsafe { sys::cuEventRecord(st.timing.0.0, s0) }, || "cuEventRecord".into())?;
                self.run_body(&st)?;
                check(unsafe { sys::cuEventRecord(st.timing.1.0, s0) }, || "cuEventRecord".into())?;
                check(unsafe { sys::cuEventSynchronize(st.timing.1.0) }, || "waiting for a timed run".into())?;
                let mut ms = 0f32;
                check(unsafe { sys::cuEventElapsedTime(&mut ms, st.timing.0.0, st.timing.1.0) }, || "cuEventElapsedTime".into())?;
                times.push(ms as f64);
            }
            Ok(times)
        })();
        if r.is_err() {
            unsafe { sys::cuCtxSynchronize() };
        }
        r
    }
}

impl DeviceProgram for GpuProgram {
    fn execute(&self, inputs: &[&HostArray]) -> Result<Vec<HostArray>> {
        guarded("running the GPU program", || self.execute_locked(inputs))
    }

    fn bench(&self, inputs: &[&HostArray], warmup: usize, reps: usize) -> Result<Vec<f64>> {
        guarded("timing the GPU program", || self.bench_locked(inputs, warmup, reps))
    }

    fn describe(&self) -> String {
        let mut s = format!(
            "// GPU: {} ({}); arena {} bytes; {} stream(s), {} event wait(s)\n",
            self.device_name,
            self.chip,
            self.layout.bytes,
            self.plan.streams,
            self.plan.event_waits()
        );
        for (i, t) in self.body.iter().enumerate() {
            s += &format!("#{i} [stream {}] {}", self.plan.stream_of[i], t.describe());
            if !self.plan.waits[i].is_empty() {
                s += &format!(" waits {:?}", self.plan.waits[i]);
            }
            s += "\n";
        }
        if !self.plan.final_waits.is_empty() {
            s += &format!("// stream 0 joins {:?}\n", self.plan.final_waits);
        }
        s
    }
}

impl Drop for GpuProgram {
    fn drop(&mut self) {
        // The driver objects below are destroyed with this context current,
        // after everything queued on them has finished.
        if self.ctx.bind_to_thread().is_ok() {
            unsafe { sys::cuCtxSynchronize() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chips_run_on_their_devices() {
        assert!(check_chip("sm_90", 9, 0, "H200").is_ok());
        assert!(check_chip("sm_80", 9, 0, "H200").is_ok());
        assert!(check_chip("sm_90a", 9, 0, "H200").is_ok());
        assert!(check_chip("sm_90a", 10, 0, "B200").is_err());
        let e = check_chip("sm_90", 8, 0, "A100").unwrap_err();
        assert_eq!(e, "compiled for sm_90; device 0 (A100) is sm_80: recompile with --gpu sm_80");
        assert!(check_chip("gfx90a", 9, 0, "x").is_err());
    }

    #[test]
    fn without_a_driver_the_context_is_a_clear_error() {
        if driver_present() {
            eprintln!("skipped: a CUDA driver is present");
            return;
        }
        let Err(e) = context() else { panic!("a context without a driver") };
        let e = e.to_string();
        assert!(e.contains(super::super::NO_DRIVER), "{e}");
    }
}
