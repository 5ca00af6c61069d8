//! A compiled host program as data, and the executable the runtime builds
//! from it.
//!
//! The compiler turns `@main` into a [`HostProgram`]: allocations (with sizes
//! and what they hold), parameters and results (dtype, shape, where they
//! live), and a tree of [`ThunkSpec`]s, each naming the buffer slices it reads
//! and writes. Buffer assignment has already happened. The same value is what
//! an artifact stores and what `floors run PROG.mlir` hands over in memory,
//! so both paths run the same thing. [`Executable::new`] checks it (every
//! slice inside its allocation, every kernel and custom-call target present)
//! and builds the thunks.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use serde::{Deserialize, Serialize};

use crate::{
    buffer::{AlignedBuffer, BufferAllocations, BufferSlice},
    collectives::{Communicator, DeviceRun, run_devices},
    error::{Error, Result},
    executor::{ExecutorOptions, ThunkExecutor},
    gemm::GemmSpec,
    kernel_abi::{HostKernel, HostKernelFn},
    npy::{HostArray, TensorSpec},
    thunk::{
        ConditionalThunk, CopyThunk, CustomCallInfo, CustomCallRegistry, CustomCallThunk, ExecuteContext, KernelThunk, Thunk, WhileThunk,
    },
};

/// What an allocation holds in one execution.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AllocationRole {
    /// The caller's input `i`, read where the caller holds it.
    Parameter(usize),
    /// A result buffer, handed to the caller after the run.
    Result,
    /// Constant bytes, written at the start of every run.
    Constant(#[serde(with = "serde_bytes")] Vec<u8>),
    /// Temporaries, packed by liveness.
    Temp,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AllocationSpec {
    pub size: u64,
    pub role: AllocationRole,
}

/// One step of the host program; slices index [`HostProgram::allocations`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThunkSpec {
    /// Kernel `kernel` (an entry of the kernel table) over `grid` workgroups;
    /// arguments are inputs then outputs, as the kernel ABI says.
    Kernel {
        kernel: String,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
        grid: [u64; 3],
    },
    Copy {
        from: BufferSlice,
        to: BufferSlice,
    },
    /// Run `cond` (which writes the one-byte bool `predicate`); while true, run `body`.
    While {
        #[serde(deserialize_with = "nested")]
        cond: Vec<ThunkSpec>,
        predicate: BufferSlice,
        #[serde(deserialize_with = "nested")]
        body: Vec<ThunkSpec>,
        /// The loop's known trip count (`floors.known_trip_count`): the body
        /// runs this many times and the condition never (XLA:CPU's while
        /// thunk with a known trip count). Absent: the condition decides.
        trip_count: Option<u64>,
    },
    /// Run one branch chosen by an i32 (out of range → last) or a bool (true → 0).
    Conditional {
        index: BufferSlice,
        #[serde(deserialize_with = "nested")]
        branches: Vec<Vec<ThunkSpec>>,
    },
    /// A `stablehlo.custom_call`: an XLA FFI call of the handler registered
    /// for `target` (typed buffers, attributes, aliases, side effect: `info`).
    CustomCall {
        target: String,
        inputs: Vec<BufferSlice>,
        outputs: Vec<BufferSlice>,
        info: CustomCallInfo,
    },
    /// A (batched) matrix product by a library: cuBLAS on the GPU, the
    /// reference gemm on the host (see [`crate::gemm`]).
    Gemm(GemmSpec),
    /// Fills `dst` with a repeated value.
    Memset {
        dst: BufferSlice,
        value: MemsetValue,
    },
}

/// What a memset writes: a byte everywhere, or a 32-bit word (the slice's
/// size and offset multiples of 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemsetValue {
    Byte(u8),
    Word(u32),
}

/// The deepest nesting of control flow (a while in a case in a while ...) a
/// host program may have. Decoding, checking and building recurse per level,
/// so a crafted artifact must not be able to nest deeper: the decoder stops
/// here with an error instead of overflowing the stack.
pub const MAX_CONTROL_FLOW_DEPTH: usize = 256;

thread_local! {
    static DECODE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Deserializes a nested thunk list, counting nesting levels on this thread.
fn nested<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    let depth = DECODE_DEPTH.with(|c| c.get()) + 1;
    if depth > MAX_CONTROL_FLOW_DEPTH {
        return Err(serde::de::Error::custom(format!("control flow nested deeper than {MAX_CONTROL_FLOW_DEPTH} levels")));
    }
    DECODE_DEPTH.with(|c| c.set(depth));
    let r = T::deserialize(d);
    DECODE_DEPTH.with(|c| c.set(depth - 1));
    r
}

/// Bytes one execution holds, after liveness-based buffer assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryReport {
    /// Parameters, results, constants and temporaries together.
    pub peak_bytes: u64,
    /// The shared allocation all temporaries are packed into.
    pub temp_bytes: u64,
    /// What the temporaries would take with no reuse at all.
    pub unshared_temp_bytes: u64,
    /// The most temporary bytes live at once (a lower bound for `temp_bytes`).
    pub live_temp_bytes: u64,
}

/// `inputs` as (path, array) references.
fn borrowed(inputs: &[(PathBuf, HostArray)]) -> Vec<(&Path, &HostArray)> {
    inputs.iter().map(|(p, a)| (p.as_path(), a)).collect()
}

/// The host program: everything but the kernel code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostProgram {
    pub allocations: Vec<AllocationSpec>,
    /// Parameter `i`: its type and the allocation it is read from.
    pub params: Vec<(TensorSpec, usize)>,
    /// Result `i`: its type and the slice it is written to (in a `Result` allocation).
    pub results: Vec<(TensorSpec, BufferSlice)>,
    pub body: Vec<ThunkSpec>,
    pub memory: MemoryReport,
    /// For a program partitioned for several devices: how its arguments and
    /// results are tiled over them. None for a one-device program.
    pub spmd: Option<crate::collectives::SpmdLayout>,
}

impl HostProgram {
    /// Kernels the program calls, in first-call order.
    pub fn kernel_names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        visit(&self.body, &mut |t| {
            if let ThunkSpec::Kernel { kernel, .. } = t
                && !out.contains(&kernel.as_str())
            {
                out.push(kernel.as_str());
            }
        });
        out
    }

    /// Custom-call targets the program needs, sorted.
    pub fn custom_call_targets(&self) -> Vec<&str> {
        let mut out = Vec::new();
        visit(&self.body, &mut |t| {
            if let ThunkSpec::CustomCall { target, .. } = t {
                out.push(target.as_str());
            }
        });
        out.sort();
        out.dedup();
        out
    }

    /// Every slice inside its allocation; parameters and results well formed.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Program(m));
        let check = |s: &BufferSlice, what: &str| -> Result<()> {
            let Some(a) = self.allocations.get(s.allocation) else {
                return bad(format!("{what}: slice {s:?} names allocation {} of {}", s.allocation, self.allocations.len()));
            };
            match s.offset.checked_add(s.size) {
                Some(end) if end <= a.size => Ok(()),
                _ => bad(format!("{what}: slice {s:?} is outside allocation {} ({} bytes)", s.allocation, a.size)),
            }
        };
        for (i, a) in self.allocations.iter().enumerate() {
            match &a.role {
                AllocationRole::Constant(b) if b.len() as u64 > a.size => {
                    return bad(format!("allocation {i}: {} constant bytes in {} bytes", b.len(), a.size));
                }
                AllocationRole::Parameter(p) if *p >= self.params.len() => {
                    return bad(format!("allocation {i}: parameter {p} of {}", self.params.len()));
                }
                _ => {}
            }
        }
        for (i, (spec, alloc)) in self.params.iter().enumerate() {
            match self.allocations.get(*alloc) {
                Some(AllocationSpec { role: AllocationRole::Parameter(p), size }) if *p == i && *size >= spec.bytes() => {}
                _ => return bad(format!("parameter {i} ({}) does not have its own allocation", spec.describe())),
            }
        }
        for (i, (spec, slice)) in self.results.iter().enumerate() {
            check(slice, &format!("result {i}"))?;
            if slice.size != spec.bytes() || self.allocations[slice.allocation].role != AllocationRole::Result {
                return bad(format!("result {i} ({}) is not a result slice of its size", spec.describe()));
            }
        }
        let mut err = Ok(());
        visit(&self.body, &mut |t| {
            if err.is_err() {
                return;
            }
            let r = match t {
                ThunkSpec::Kernel { kernel, inputs, outputs, .. } => {
                    inputs.iter().chain(outputs).try_for_each(|s| check(s, &format!("kernel {kernel}")))
                }
                ThunkSpec::Copy { from, to } => check(from, "copy").and_then(|_| check(to, "copy")),
                ThunkSpec::While { predicate, .. } => check(predicate, "while predicate"),
                ThunkSpec::Conditional { index, .. } => check(index, "conditional index"),
                ThunkSpec::CustomCall { target, inputs, outputs, info } => inputs
                    .iter()
                    .chain(outputs)
                    .try_for_each(|s| check(s, &format!("custom call {target}")))
                    .and_then(|_| info.attributes.check().map_err(|e| Error::Program(format!("custom call {target}: {e}")))),
                ThunkSpec::Gemm(g) => {
                    [g.lhs, g.rhs, g.out].iter().try_for_each(|s| check(s, "gemm")).and_then(|_| g.validate().map_err(Error::Program))
                }
                ThunkSpec::Memset { dst, value } => check(dst, "memset").and_then(|_| match value {
                    MemsetValue::Word(_) if dst.size % 4 != 0 || dst.offset % 4 != 0 => {
                        bad(format!("memset: a 32-bit value over {dst:?} (size and offset must be multiples of 4)"))
                    }
                    _ => Ok(()),
                }),
            };
            if r.is_err() {
                err = r;
            }
        });
        err?;
        match &self.spmd {
            Some(layout) => layout.validate(self.params.len(), self.results.len()).map_err(Error::Program),
            None => Ok(()),
        }
    }
}

/// A run error at a custom call of the source program: reported at its location.
fn located(e: crate::error::RuntimeError) -> Error {
    match e {
        crate::error::RuntimeError::CustomCallFailed { name, location, message } if !location.is_empty() => {
            Error::CustomCall { location, message: format!("custom call `{name}` failed: {message}") }
        }
        e => Error::Run(e),
    }
}

/// Depth-first over every thunk, nested bodies included.
pub(crate) fn visit<'a>(thunks: &'a [ThunkSpec], f: &mut dyn FnMut(&'a ThunkSpec)) {
    for t in thunks {
        f(t);
        match t {
            ThunkSpec::While { cond, body, .. } => {
                visit(cond, f);
                visit(body, f);
            }
            ThunkSpec::Conditional { branches, .. } => branches.iter().for_each(|b| visit(b, f)),
            _ => {}
        }
    }
}

/// Where kernel entry points come from (a loaded shared object, or anything
/// else that follows the kernel ABI). The executable keeps it alive.
pub trait KernelLibrary: Send + Sync {
    /// The ABI entry point of kernel `name`, or None if it has none.
    fn kernel(&self, name: &str) -> Option<HostKernelFn>;
    /// Kernel `name` when the runtime runs it itself (the TPU floor's, in
    /// the Mosaic interpreter); None for libraries of machine code.
    fn interpreted(&self, name: &str) -> Option<Arc<dyn crate::thunk::InterpretedKernel>> {
        let _ = name;
        None
    }
}

/// A program that runs on a device rather than on host buffers (the GPU
/// floor's, `crate::gpu`): it owns its device memory, kernels and streams;
/// the [`Executable`] around it checks the inputs and hands them over.
pub trait DeviceProgram: Send + Sync {
    /// Runs once on checked inputs; the results in order.
    fn execute(&self, inputs: &[&HostArray]) -> Result<Vec<HostArray>>;
    /// Runs once as device `device` of an SPMD run (its collectives meeting
    /// the other devices' through `device`'s communicator).
    fn execute_on(&self, inputs: &[&HostArray], device: &DeviceRun) -> Result<Vec<HostArray>> {
        let _ = (inputs, device);
        Err(Error::Unsupported("SPMD runs on this device: its collectives are not implemented here".into()))
    }
    /// Milliseconds of device time of each of `reps` runs after `warmup`
    /// runs, the inputs uploaded once and the results left on the device.
    fn bench(&self, inputs: &[&HostArray], warmup: usize, reps: usize) -> Result<Vec<f64>>;
    /// What runs where, for dumps (the executable's `Display`, `floors-run -v`).
    fn describe(&self) -> String;
    /// What the last run did on the device, where the device counts it
    /// (the simulated GPU).
    fn counters(&self) -> Option<DeviceCounters> {
        None
    }
}

/// What one run did on a (simulated) device: the `--counters` line and the
/// per-kernel table of `--trace`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceCounters {
    pub launches: u64,
    pub library_calls: u64,
    /// Global memory moved by kernels (32-byte sectors) and read and
    /// written by library calls.
    pub global_bytes: u64,
    /// Floating-point operations (scalar and tensor-core; a library gemm's 2·m·n·k).
    pub flops: u64,
    /// The modeled time on the described device, microseconds.
    pub modeled_us: f64,
    pub kernels: Vec<KernelCounters>,
}

impl DeviceCounters {
    /// `device: launches=N library_calls=M global_bytes=B flops=F modeled_us=T`.
    pub fn line(&self) -> String {
        format!(
            "device: launches={} library_calls={} global_bytes={} flops={} modeled_us={:.1}",
            self.launches, self.library_calls, self.global_bytes, self.flops, self.modeled_us
        )
    }

    /// One row per kernel entry: launches, thread instructions, bytes, flops, modeled µs.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "kernel | launches | thread instructions | warp instructions by class | global bytes | flops | tensor flops | modeled us\n",
        );
        for k in &self.kernels {
            let classes: Vec<String> =
                k.by_class.iter().zip(floors_ptx_sim::CLASSES).filter(|(n, _)| **n > 0).map(|(n, c)| format!("{c} {n}")).collect();
            s += &format!(
                "{} | {} | {} | {} | {} | {} | {} | {:.1}\n",
                k.name,
                k.launches,
                k.thread_instructions,
                if classes.is_empty() { "-".to_string() } else { classes.join(", ") },
                k.global_bytes,
                k.flops,
                k.tensor_flops,
                k.modeled_us
            );
        }
        s
    }
}

/// Counters of one kernel entry over a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelCounters {
    pub name: String,
    pub launches: u64,
    pub thread_instructions: u64,
    /// Warp instructions per class (`floors_ptx_sim::CLASSES` order).
    pub by_class: Vec<u64>,
    pub global_bytes: u64,
    pub flops: u64,
    pub tensor_flops: u64,
    pub modeled_us: f64,
}

/// The kernel library of an executable whose kernels live on a device.
struct NoKernels;

impl KernelLibrary for NoKernels {
    fn kernel(&self, _name: &str) -> Option<HostKernelFn> {
        None
    }
}

/// The temporaries and constants of one run, in one block: each allocation
/// at its own 64-byte-aligned offset (`None`: a parameter or result, held
/// elsewhere). One allocation per arena, not one per buffer: a program's
/// scalar constants and small temporaries share a few cache lines instead
/// of one scattered heap chunk each, and a first run costs one `calloc`.
struct Arena {
    block: AlignedBuffer,
    offsets: Vec<Option<usize>>,
}

impl Arena {
    fn new(allocations: &[AllocationSpec]) -> Result<Self> {
        let mut end = 0usize;
        let offsets: Vec<Option<usize>> = allocations
            .iter()
            .map(|a| match a.role {
                AllocationRole::Parameter(_) | AllocationRole::Result => None,
                _ => {
                    let at = end;
                    end = (at + a.size as usize).next_multiple_of(AlignedBuffer::DEFAULT_ALIGN);
                    Some(at)
                }
            })
            .collect();
        Ok(Self { block: AlignedBuffer::zeroed(end, AlignedBuffer::DEFAULT_ALIGN)?, offsets })
    }
}

/// A host program ready to run: thunks over numbered allocations, and the
/// kernels they call. Safe to execute from many threads at once.
pub struct Executable {
    executor: ThunkExecutor,
    program: HostProgram,
    /// Temporary and constant buffers of finished runs, reused by the next
    /// ones (fresh pages cost a fault each: 64 MB is 16k faults).
    arenas: std::sync::Mutex<Vec<Arena>>,
    _kernels: Arc<dyn KernelLibrary>,
    /// What errors about this program are located at (its file).
    origin: String,
    /// Where the program runs when not on host buffers (then `executor` is empty).
    device: Option<Box<dyn DeviceProgram>>,
}

struct Build<'a> {
    kernels: &'a dyn KernelLibrary,
    custom_calls: &'a Arc<CustomCallRegistry>,
    options: ExecutorOptions,
}

impl Build<'_> {
    fn sequence(&self, specs: &[ThunkSpec]) -> Result<ThunkExecutor> {
        let thunks = specs.iter().map(|s| self.thunk(s)).collect::<Result<Vec<_>>>()?;
        Ok(ThunkExecutor::new(thunks, self.options))
    }

    fn thunk(&self, spec: &ThunkSpec) -> Result<Box<dyn Thunk>> {
        let invalid = |what: String, e: crate::error::RuntimeError| Error::Program(format!("{what}: {e}"));
        Ok(match spec {
            ThunkSpec::Kernel { kernel, inputs, outputs, grid } => {
                if let Some(k) = self.kernels.interpreted(kernel) {
                    return Ok(Box::new(
                        crate::thunk::InterpretedKernelThunk::new(kernel.clone(), k, inputs.clone(), outputs.clone())
                            .map_err(|e| invalid(format!("kernel `{kernel}`"), e))?,
                    ));
                }
                let f =
                    self.kernels.kernel(kernel).ok_or_else(|| Error::Program(format!("kernel `{kernel}` is not in the kernel library")))?;
                // SAFETY: the library's entry points follow the kernel ABI (it
                // was checked for the ABI version when it was loaded).
                let k = unsafe { HostKernel::new(kernel.clone(), f) };
                Box::new(KernelThunk::new(k, inputs.clone(), outputs.clone(), *grid).map_err(|e| invalid(format!("kernel `{kernel}`"), e))?)
            }
            ThunkSpec::Copy { from, to } => Box::new(CopyThunk::new(*from, *to).map_err(|e| invalid("copy".into(), e))?),
            ThunkSpec::While { cond, predicate, body, trip_count } => Box::new(
                WhileThunk::new(self.sequence(cond)?, *predicate, self.sequence(body)?)
                    .map_err(|e| invalid("while".into(), e))?
                    .with_trip_count(*trip_count),
            ),
            ThunkSpec::Conditional { index, branches } => {
                let branches = branches.iter().map(|b| self.sequence(b)).collect::<Result<Vec<_>>>()?;
                Box::new(ConditionalThunk::new(*index, branches).map_err(|e| invalid("conditional".into(), e))?)
            }
            ThunkSpec::Gemm(g) => Box::new(crate::thunk::GemmThunk::new(g.clone()).map_err(|e| invalid("gemm".into(), e))?),
            ThunkSpec::Memset { dst, value } => Box::new(crate::thunk::MemsetThunk::new(*dst, *value)),
            ThunkSpec::CustomCall { target, inputs, outputs, info } => {
                let at = |message: String| Error::CustomCall { location: info.location.clone(), message };
                // Collectives run in the runtime, not through a handler.
                if crate::collectives::is_collective(target) {
                    let thunk = crate::collectives::CollectiveThunk::new(target, info, inputs.clone(), outputs.clone());
                    return Ok(Box::new(thunk.map_err(|e| at(e.to_string()))?));
                }
                match self.custom_calls.resolve(target, crate::ffi::CPU_PLATFORM) {
                    Ok(Some(_)) => {}
                    Ok(None) => {
                        return Err(at(format!(
                            "no handler is registered for custom_call target '{target}' (registered: {}); load one with --ffi-lib",
                            self.custom_calls.names().join(", ")
                        )));
                    }
                    Err(e) => return Err(at(format!("custom_call target '{target}': the handler is refused: {e}"))),
                }
                Box::new(CustomCallThunk::new(target, info, inputs.clone(), outputs.clone(), self.custom_calls).map_err(|e| match e {
                    crate::error::RuntimeError::CustomCallFailed { message, .. } => at(format!("custom call `{target}` failed {message}")),
                    e => at(format!("custom call `{target}`: {e}")),
                })?)
            }
        })
    }
}

impl Executable {
    /// Checks `program` and builds its thunks over `kernels`.
    pub fn new(
        program: HostProgram,
        kernels: Arc<dyn KernelLibrary>,
        custom_calls: Arc<CustomCallRegistry>,
        options: ExecutorOptions,
    ) -> Result<Self> {
        program.validate()?;
        let executor = Build { kernels: &*kernels, custom_calls: &custom_calls, options }.sequence(&program.body)?;
        Ok(Self {
            executor,
            program,
            arenas: std::sync::Mutex::new(Vec::new()),
            _kernels: kernels,
            origin: "the program".into(),
            device: None,
        })
    }

    /// An executable whose thunks run on a device (`program` checked here).
    pub fn on_device(program: HostProgram, device: Box<dyn DeviceProgram>) -> Result<Self> {
        program.validate()?;
        Ok(Self {
            executor: ThunkExecutor::new(Vec::new(), ExecutorOptions::default()),
            program,
            arenas: std::sync::Mutex::new(Vec::new()),
            _kernels: Arc::new(NoKernels),
            origin: "the program".into(),
            device: Some(device),
        })
    }

    /// The device program, when the program runs on a device.
    pub fn device(&self) -> Option<&dyn DeviceProgram> {
        self.device.as_deref()
    }

    /// What the last run did on the device, where the device counts it.
    pub fn device_counters(&self) -> Option<DeviceCounters> {
        self.device.as_ref().and_then(|d| d.counters())
    }

    /// Milliseconds of each of `reps` runs after `warmup` runs: device time
    /// (inputs resident, no transfers) on a device, else whole executions.
    pub fn bench(&self, inputs: &[(PathBuf, HostArray)], pool: Option<&rayon::ThreadPool>, warmup: usize, reps: usize) -> Result<Vec<f64>> {
        self.check_inputs(inputs)?;
        if let Some(d) = &self.device {
            return d.bench(&inputs.iter().map(|(_, a)| a).collect::<Vec<_>>(), warmup, reps);
        }
        // Each run reuses the previous run's result buffers (see `execute_reusing`).
        let inputs = &borrowed(inputs);
        let mut last = Vec::new();
        for _ in 0..warmup {
            last = self.execute_inner(inputs, pool, None, last, None)?;
        }
        (0..reps)
            .map(|_| {
                let start = std::time::Instant::now();
                last = self.execute_inner(inputs, pool, None, std::mem::take(&mut last), None)?;
                Ok(start.elapsed().as_secs_f64() * 1e3)
            })
            .collect()
    }

    /// Names the program (its file) in errors about it.
    pub fn with_origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = origin.into();
        self
    }

    /// What errors name the program by (its artifact or source).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    pub fn program(&self) -> &HostProgram {
        &self.program
    }

    /// Bytes one execution holds.
    pub fn memory(&self) -> MemoryReport {
        self.program.memory
    }

    pub fn parameters(&self) -> Vec<TensorSpec> {
        self.program.params.iter().map(|(s, _)| s.clone()).collect()
    }

    pub fn results(&self) -> Vec<TensorSpec> {
        self.program.results.iter().map(|(s, _)| s.clone()).collect()
    }

    pub fn executor(&self) -> &ThunkExecutor {
        &self.executor
    }

    /// Checks `inputs` (named by their paths in errors) against the parameters.
    pub fn check_inputs(&self, inputs: &[(PathBuf, HostArray)]) -> Result<()> {
        self.check_borrowed(&borrowed(inputs))
    }

    fn check_borrowed(&self, inputs: &[(&Path, &HostArray)]) -> Result<()> {
        let params = &self.program.params;
        if inputs.len() != params.len() {
            let expected: Vec<String> = params.iter().map(|(p, _)| p.describe()).collect();
            return Err(Error::Input {
                origin: self.origin.clone(),
                message: format!("the program takes {} inputs ({}), {} were given", params.len(), expected.join(", "), inputs.len()),
            });
        }
        for (i, ((path, arr), (spec, _))) in inputs.iter().zip(params).enumerate() {
            spec.check(i, path, arr)?;
        }
        Ok(())
    }

    /// Runs once on `inputs` (checked first); safe to call from many threads.
    pub fn execute(&self, inputs: &[(PathBuf, HostArray)], pool: Option<&rayon::ThreadPool>) -> Result<Vec<HostArray>> {
        self.execute_traced(inputs, pool, None)
    }

    /// [`Executable::execute`], recording the run into `trace`: an `execute`
    /// slice on this thread (args: the executor's mode, threads, thunks) and
    /// a slice for every kernel call, copy, custom call and control-flow
    /// thunk on the thread that ran it (see [`crate::trace`]).
    pub fn execute_traced(
        &self,
        inputs: &[(PathBuf, HostArray)],
        pool: Option<&rayon::ThreadPool>,
        trace: Option<&crate::trace::Trace>,
    ) -> Result<Vec<HostArray>> {
        // A program partitioned for several devices takes the global inputs
        // and runs on its devices in this process.
        if let Some(layout) = &self.program.spmd {
            return self.execute_whole(layout, inputs);
        }
        let inputs = &borrowed(inputs);
        let Some(trace) = trace else { return self.execute_inner(inputs, pool, None, Vec::new(), None) };
        let start = std::time::Instant::now();
        let mode = self.executor.mode_description(pool);
        let threads = pool.map_or(1, |p| p.current_num_threads());
        trace.set_metadata("executor_mode", mode.clone());
        trace.set_metadata("threads", threads.to_string());
        let r = self.execute_inner(inputs, pool, Some(trace), Vec::new(), None);
        use crate::trace::TraceArg;
        let mut args = vec![
            ("mode", TraceArg::Str(mode)),
            ("threads", TraceArg::Int(threads as u64)),
            ("thunks", TraceArg::Int(self.executor.thunks().len() as u64)),
        ];
        if let Err(e) = &r {
            args.push(("error", TraceArg::Str(e.to_string())));
        }
        trace.slice("execute", "execute", start, std::time::Instant::now(), args);
        r
    }

    /// [`Executable::execute`] writing the results into the byte buffers of
    /// `previous` (the results of an earlier run, handed back) where they
    /// have the right sizes, instead of fresh ones: a loop that runs a
    /// program again and again then touches no new pages for its outputs
    /// (a fresh 64 MB output costs 16k page faults), as the caching
    /// allocators of XLA and IREE give them.
    pub fn execute_reusing(
        &self,
        inputs: &[(PathBuf, HostArray)],
        pool: Option<&rayon::ThreadPool>,
        previous: Vec<HostArray>,
    ) -> Result<Vec<HostArray>> {
        self.execute_inner(&borrowed(inputs), pool, None, previous, None)
    }

    /// Runs an SPMD program on `num_replicas` × `num_partitions` devices of
    /// this process: `inputs[d]` are the arguments of device `d` (flat id
    /// `d = replica * num_partitions + partition`), the results are each
    /// device's, in the same order. Each device runs on its own thread with
    /// no pool (sequentially: a device waiting at a collective must not hold
    /// a pool worker another device needs), its collectives meeting the
    /// others' through an in-process [`Communicator`] (waits time out after
    /// `FLOORS_COLLECTIVE_TIMEOUT_S`, default 300 s). When a device fails,
    /// the others' collectives are aborted and the error is the failed
    /// device's (not the aborts it caused), prefixed with that device.
    /// CPU floor only.
    pub fn execute_spmd(
        &self,
        inputs: Vec<Vec<(PathBuf, HostArray)>>,
        num_replicas: u32,
        num_partitions: u32,
    ) -> Result<Vec<Vec<HostArray>>> {
        let refs: Vec<Vec<(&Path, &HostArray)>> = inputs.iter().map(|d| borrowed(d)).collect();
        self.execute_spmd_borrowed(&refs, num_replicas, num_partitions)
    }

    /// [`Executable::execute`] on inputs the caller keeps (no copy).
    pub fn execute_borrowed(&self, inputs: &[(&Path, &HostArray)], pool: Option<&rayon::ThreadPool>) -> Result<Vec<HostArray>> {
        self.execute_inner(inputs, pool, None, Vec::new(), None)
    }

    /// [`Executable::execute_spmd`] on inputs the caller keeps (the PJRT
    /// plugin's device buffers: no copy per run).
    pub fn execute_spmd_borrowed(
        &self,
        inputs: &[Vec<(&Path, &HostArray)>],
        num_replicas: u32,
        num_partitions: u32,
    ) -> Result<Vec<Vec<HostArray>>> {
        let devices = (num_replicas as usize).checked_mul(num_partitions as usize).filter(|&n| n > 0);
        if devices != Some(inputs.len()) {
            return Err(Error::Input {
                origin: self.origin.clone(),
                message: format!(
                    "an SPMD run of {num_replicas} replicas x {num_partitions} partitions takes the inputs of as many devices, {} were given",
                    inputs.len()
                ),
            });
        }
        let communicator = Arc::new(Communicator::in_process(num_replicas, num_partitions));
        let results =
            run_devices(&communicator, |device| self.execute_inner(&inputs[device.flat_id()], None, None, Vec::new(), Some(device)))
                .map_err(|e| Error::Unsupported(format!("cannot start the device threads: {e}")))?;
        // The first error that is not an abort caused by another device.
        let mut first: Option<(bool, Error)> = None;
        let mut outputs = Vec::with_capacity(results.len());
        for (d, r) in results.into_iter().enumerate() {
            match r {
                Ok(o) => outputs.push(o),
                Err(e) => {
                    let aborted = matches!(e, Error::Run(crate::error::RuntimeError::CollectiveAborted { .. }));
                    let (replica, partition) = ((d / num_partitions as usize) as u32, (d % num_partitions as usize) as u32);
                    if first.as_ref().is_none_or(|(was_aborted, _)| *was_aborted && !aborted) {
                        first = Some((aborted, Error::Device { replica, partition, source: Box::new(e) }));
                    }
                }
            }
        }
        match first {
            Some((_, e)) => Err(e),
            None => Ok(outputs),
        }
    }

    /// One device's run of an SPMD launch on its local `inputs` (the others
    /// run elsewhere: threads with the same communicator, or MPI processes).
    pub fn execute_on(&self, inputs: &[(PathBuf, HostArray)], device: &crate::collectives::DeviceRun) -> Result<Vec<HostArray>> {
        self.execute_inner(&borrowed(inputs), None, None, Vec::new(), Some(device))
    }

    /// [`Executable::execute_on`] on inputs the caller keeps (the PJRT
    /// plugin's device buffers in a multi-process job).
    pub fn execute_on_borrowed(&self, inputs: &[(&Path, &HostArray)], device: &crate::collectives::DeviceRun) -> Result<Vec<HostArray>> {
        self.execute_inner(inputs, None, None, Vec::new(), Some(device))
    }

    /// One run on `inputs`; `device`: this run is that device of an SPMD run.
    fn execute_inner(
        &self,
        inputs: &[(&Path, &HostArray)],
        pool: Option<&rayon::ThreadPool>,
        trace: Option<&crate::trace::Trace>,
        previous: Vec<HostArray>,
        device: Option<&DeviceRun>,
    ) -> Result<Vec<HostArray>> {
        self.check_borrowed(inputs)?;
        if let Some(d) = &self.device {
            let arrays: Vec<&HostArray> = inputs.iter().map(|&(_, a)| a).collect();
            return match device {
                Some(run) => d.execute_on(&arrays, run),
                None => d.execute(&arrays),
            };
        }
        let allocations = &self.program.allocations;
        // Parameters are read where the caller holds them (kernels never write
        // an input; loops copy their carried values). Results are fresh vectors
        // handed to the caller without a copy. Temporaries and constants come
        // from an arena of an earlier run when one is free; every temporary is
        // written before it is read, so arenas are not cleared.
        let mut arena = match self.arenas.lock().unwrap_or_else(|e| e.into_inner()).pop() {
            Some(a) => a,
            None => Arena::new(allocations)?,
        };
        for (at, spec) in arena.offsets.iter().zip(allocations) {
            if let (Some(at), AllocationRole::Constant(init)) = (at, &spec.role) {
                arena.block.as_mut_slice()[*at..*at + init.len()].copy_from_slice(init);
            }
        }
        // A result allocation that is exactly one result takes that result's
        // earlier buffer when it has the size (every result byte is written
        // by the run, so it need not be cleared).
        let mut recycled: Vec<Option<AlignedBuffer>> = (0..allocations.len()).map(|_| None).collect();
        for (prev, (_, slice)) in previous.into_iter().zip(&self.program.results) {
            let spec = &allocations[slice.allocation];
            if spec.role == AllocationRole::Result && slice.offset == 0 && spec.size == slice.size && prev.bytes.len() as u64 == spec.size {
                recycled[slice.allocation] = Some(prev.bytes);
            }
        }
        // Results are 64-byte aligned like temporaries (kernels may stream
        // into them with aligned non-temporal stores).
        let mut outs: Vec<Option<AlignedBuffer>> = allocations
            .iter()
            .zip(recycled)
            .map(|(a, r)| (a.role == AllocationRole::Result).then(|| r.unwrap_or_else(|| AlignedBuffer::zeros(a.size as usize))))
            .collect();
        let status = {
            let block = arena.block.as_mut_slice().as_mut_ptr();
            let bases: Vec<(*mut u8, u64)> = arena
                .offsets
                .iter()
                .zip(outs.iter_mut())
                .zip(allocations)
                .map(|((t, o), spec)| match (t, o, &spec.role) {
                    // SAFETY: `Arena::new` laid every offset out inside the block.
                    (Some(at), _, _) => (unsafe { block.add(*at) }, spec.size),
                    (None, Some(o), _) => (o.as_mut_ptr(), o.len() as u64),
                    (None, None, AllocationRole::Parameter(i)) => {
                        let bytes = &inputs[*i].1.bytes;
                        (bytes.as_ptr() as *mut u8, bytes.len() as u64)
                    }
                    // validate() and the arena construction above rule this out.
                    (None, None, _) => (std::ptr::null_mut(), 0),
                })
                .collect();
            // SAFETY: every pointer is live for this call; parameter buffers are
            // only read (kernel inputs and copy sources), never written.
            let allocs = unsafe { BufferAllocations::from_raw(bases) };
            self.executor.execute_in(&ExecuteContext { allocations: &allocs, pool, trace, device })
        };
        self.arenas.lock().unwrap_or_else(|e| e.into_inner()).push(arena);
        status.map_err(located)?;
        Ok(self
            .program
            .results
            .iter()
            .map(|(spec, slice)| {
                let whole = slice.offset == 0 && outs[slice.allocation].as_ref().is_some_and(|o| o.len() as u64 == slice.size);
                let bytes = match (&mut outs[slice.allocation], whole) {
                    (Some(o), true) => std::mem::take(o),
                    (Some(o), false) => AlignedBuffer::copy_from(&o[slice.offset as usize..(slice.offset + slice.size) as usize]),
                    (None, _) => AlignedBuffer::default(),
                };
                HostArray { element_type: spec.element_type, shape: spec.shape.clone(), bytes }
            })
            .collect())
    }
}

impl std::fmt::Display for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = self.program.memory;
        writeln!(
            f,
            "// {} allocations; peak {} bytes; temporaries packed into {} bytes ({} live at most, {} without reuse)",
            self.program.allocations.len(),
            m.peak_bytes,
            m.temp_bytes,
            m.live_temp_bytes,
            m.unshared_temp_bytes
        )?;
        for (i, (spec, alloc)) in self.program.params.iter().enumerate() {
            writeln!(f, "// parameter {i}: {} in a{alloc}", spec.describe())?;
        }
        for (i, (spec, slice)) in self.program.results.iter().enumerate() {
            writeln!(f, "// result {i}: {} in a{}", spec.describe(), slice.allocation)?;
        }
        if let Some(d) = &self.device {
            return write!(f, "{}", d.describe());
        }
        write!(f, "{}", self.executor)
    }
}
