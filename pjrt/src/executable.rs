//! Compile and execute: `PJRT_Client_Compile`, `PJRT_Executable` (what a
//! compiled program is: outputs, memory, fingerprint) and
//! `PJRT_LoadedExecutable` (it, placed on the device, and run).
//!
//! Compiling is floors' CPU pipeline as `floors run` runs it
//! (`floors::run::compile_artifact`, then the runtime's executable from the
//! artifact). MLIR contexts belong to one thread, so one compiler thread owns
//! a `floors::Compiler` and takes the requests in turn; programs are cached
//! by their text, so the same program compiles once per process.

use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use floors::run::Program;
use floors_runtime::npy::{HostArray, TensorSpec};
use floors_runtime::{Artifact, CustomCallRegistry, KernelCode, MemoryReport};

use crate::buffer::{PJRT_Buffer, buffer, pjrt_type};
use crate::c_api::*;
use crate::client::{MEMORY_KIND, PJRT_Memory, client};
use crate::error::{Error, Result, args, guard, handle, str_arg};
use crate::event::PJRT_Event;

/// A compiled program, shared by every executable made from it.
pub struct Compiled {
    pub name: String,
    pub fingerprint: String,
    pub program: Program,
    pub params: Vec<TensorSpec>,
    pub results: Vec<TensorSpec>,
    output_types: Vec<PJRT_Buffer_Type>,
    output_dims: Vec<i64>,
    output_dim_sizes: Vec<usize>,
    code_size: i64,
    memory: MemoryReport,
}

impl Compiled {
    fn new(name: String, text: &str, program: Program) -> Self {
        let exe = program.executable();
        let (params, results) = (exe.parameters(), exe.results());
        // The plugin compiles for the CPU floor; a TPU artifact's kernels are data.
        let code_size = match &program.artifact().code {
            KernelCode::CpuSharedObject(code) => code.len() as i64,
            KernelCode::TpuKernels(_) => 0,
            KernelCode::Ptx(modules) => modules.iter().map(|m| m.ptx.len() as i64).sum(),
        };
        Self {
            fingerprint: format!("floors-{:016x}", fnv1a(text.as_bytes())),
            output_types: results.iter().map(|r| pjrt_type(r.element_type)).collect(),
            output_dims: results.iter().flat_map(|r| r.shape.iter().map(|&d| d as i64)).collect(),
            output_dim_sizes: results.iter().map(|r| r.shape.len()).collect(),
            memory: exe.memory(),
            code_size,
            name,
            params,
            results,
            program,
        }
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// Threads the executor runs on and the most workgroups a kernel is split
/// into (`FLOORS_PJRT_THREADS`, default 1).
fn threads() -> usize {
    static T: OnceLock<usize> = OnceLock::new();
    *T.get_or_init(|| {
        std::env::var("FLOORS_PJRT_THREADS").ok().and_then(|s| s.parse().ok()).filter(|&n| (1..=1024).contains(&n)).unwrap_or(1)
    })
}

fn pool() -> Option<&'static rayon::ThreadPool> {
    static P: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    P.get_or_init(|| floors_runtime::thread_pool(Some(threads())).ok().flatten()).as_ref()
}

// ------------------------------------------------------------- compiling ---

struct Job {
    name: String,
    text: Arc<str>,
    reply: mpsc::Sender<Result<Artifact>>,
}

/// The compiler thread's queue.
fn compiler() -> &'static Mutex<mpsc::Sender<Job>> {
    static Q: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    Q.get_or_init(|| {
        let (send, recv) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("floors-pjrt-compiler".into())
            .spawn(move || {
                let mut options = floors::CompileOptions::from_env();
                if let Ok(o) = &mut options {
                    o.workgroups = threads();
                }
                let compiler = options.and_then(floors::Compiler::new).map_err(Error::from);
                for job in recv {
                    let result = match &compiler {
                        Ok(c) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            floors::run::compile_artifact(c, &job.name, &job.text).map_err(Error::from)
                        }))
                        .unwrap_or_else(|_| Err(Error::internal(format!("{}: the floors compiler panicked", job.name)))),
                        Err(e) => Err(Error::new(e.code, e.message.clone())),
                    };
                    let _ = job.reply.send(result);
                }
            })
            .expect("spawn the compiler thread");
        Mutex::new(send)
    })
}

fn compile_cache() -> &'static Mutex<HashMap<Arc<str>, Arc<Compiled>>> {
    static C: OnceLock<Mutex<HashMap<Arc<str>, Arc<Compiled>>>> = OnceLock::new();
    C.get_or_init(Default::default)
}

/// `module @jit_f ...` -> `jit_f`.
fn module_name(text: &str) -> String {
    text.find("module @")
        .map(|i| text[i + 8..].chars().take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '-')).collect::<String>())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "main".into())
}

/// Compiles StableHLO text for the CPU floor (cached by the text).
pub fn compile_text(text: Arc<str>) -> Result<Arc<Compiled>> {
    if let Some(c) = compile_cache().lock().unwrap_or_else(|e| e.into_inner()).get(&text) {
        return Ok(c.clone());
    }
    let name = module_name(&text);
    // Diagnostics name the program `NAME.stablehlo.mlir`, or its dump.
    let mut file = format!("{name}.stablehlo.mlir");
    if let Some(dir) = std::env::var_os("FLOORS_PJRT_DUMP_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        let path = dir.join(format!("{name}-{:08x}.stablehlo.mlir", fnv1a(text.as_bytes()) as u32));
        std::fs::create_dir_all(&dir)
            .and_then(|_| std::fs::write(&path, text.as_bytes()))
            .map_err(|e| Error::internal(format!("FLOORS_PJRT_DUMP_DIR: {}: {e}", path.display())))?;
        file = path.display().to_string();
    }
    let (reply, answer) = mpsc::channel();
    compiler()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(Job { name: file.clone(), text: text.clone(), reply })
        .map_err(|_| Error::internal("the floors compiler thread is gone"))?;
    let dumped = file.ends_with(".stablehlo.mlir") && file != format!("{name}.stablehlo.mlir");
    // A diagnostic located in the program's text names a file nobody can open.
    let hint = |e: Error| {
        // Located in the text floors was given (named after the program) or
        // in text jaxlib parsed from a string (its buffer is named `-`).
        let in_text = e.message.contains(&format!("{name}.stablehlo.mlir:")) || e.message.lines().any(|l| l.starts_with("-:"));
        if !dumped && in_text {
            Error::new(
                e.code,
                format!("{}\n(the program's StableHLO text was not kept: FLOORS_PJRT_DUMP_DIR=DIR writes it to DIR)", e.message),
            )
        } else {
            e
        }
    };
    let artifact = answer.recv().map_err(|_| Error::internal("the floors compiler thread is gone"))?.map_err(hint)?;
    let program = Program::from_artifact(artifact, &file, Arc::new(CustomCallRegistry::with_builtins())).map_err(|e| hint(e.into()))?;
    let compiled = Arc::new(Compiled::new(name, &text, program));
    compile_cache().lock().unwrap_or_else(|e| e.into_inner()).insert(text, compiled.clone());
    Ok(compiled)
}

// ----------------------------------------------------------- executables ---

/// Memory kinds of the parameters and outputs, as the C API returns them.
struct Kinds {
    ptrs: Vec<*const c_char>,
    sizes: Vec<usize>,
}

impl Kinds {
    fn new(n: usize) -> Self {
        Self { ptrs: vec![MEMORY_KIND.as_ptr().cast(); n], sizes: vec![MEMORY_KIND.len(); n] }
    }
}

/// Serialized `xla.OpSharding`s with the pointer and size arrays the
/// shardings extension hands out (they live as long as the executable).
struct Shardings {
    protos: Vec<Vec<u8>>,
    ptrs: Vec<*const c_char>,
    sizes: Vec<usize>,
}

impl Shardings {
    fn new(tilings: &[floors_runtime::collectives::Tiling]) -> Self {
        let protos: Vec<Vec<u8>> = tilings.iter().map(crate::compile_options::op_sharding).collect();
        let ptrs = protos.iter().map(|p| p.as_ptr().cast()).collect();
        let sizes = protos.iter().map(Vec::len).collect();
        Self { protos, ptrs, sizes }
    }
}

pub struct PJRT_Executable {
    compiled: Arc<Compiled>,
    /// The partitioner's placements (None for a one-device program).
    shardings: Option<(Shardings, Shardings)>,
    compile_options: Arc<Vec<u8>>,
    /// The SPMD layout it runs with: `replicas x partitions` devices.
    replicas: usize,
    partitions: usize,
    param_kinds: Kinds,
    output_kinds: Kinds,
    /// What `PJRT_Executable_GetCostAnalysis` reports.
    cost: Vec<PJRT_NamedValue>,
}

impl PJRT_Executable {
    fn new(compiled: Arc<Compiled>, compile_options: Arc<Vec<u8>>, replicas: usize, partitions: usize) -> Self {
        // Bytes the program reads and writes at its boundary (floors does not
        // count flops; JAX's `cost_analysis()` wants at least one property).
        let bytes = compiled.params.iter().chain(&compiled.results).map(|s| s.bytes() as f32).sum::<f32>();
        let cost = vec![crate::client::named("bytes accessed", PJRT_NamedValue_kFloat, PJRT_NamedValue_Value { float_value: bytes }, 1)];
        let shardings =
            compiled.program.executable().program().spmd.as_ref().map(|l| (Shardings::new(&l.params), Shardings::new(&l.results)));
        Self {
            shardings,
            param_kinds: Kinds::new(compiled.params.len()),
            output_kinds: Kinds::new(compiled.results.len()),
            compiled,
            compile_options,
            replicas,
            partitions,
            cost,
        }
    }
}

/// An integer attribute of the module as JAX prints it
/// (`module @jit_f attributes {mhlo.num_partitions = 4 : i32, ...}`).
fn module_int_attr(text: &str, name: &str) -> Option<i64> {
    let head = &text[..text.find('{').map_or(text.len(), |i| (i + 400).min(text.len()))];
    let at = head.find(&format!("{name} = "))? + name.len() + 3;
    head[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// Where each (replica, partition) runs: `assignment[p][r]`, a client
/// device index. From the compile options when they name one, else device
/// `r * partitions + p`. Checked: every device exists and runs one program.
fn placement(
    options: &crate::compile_options::CompileOptions,
    replicas: usize,
    partitions: usize,
    devices: usize,
) -> Result<Vec<Vec<i64>>> {
    let assignment = match &options.device_assignment {
        Some(a) if a.len() == partitions && a.iter().all(|r| r.len() == replicas) => a.clone(),
        Some(a) => {
            return Err(Error::invalid(format!(
                "the device assignment has {} computations of {:?} replicas, not {partitions} x {replicas}",
                a.len(),
                a.iter().map(Vec::len).collect::<Vec<_>>()
            )));
        }
        None => (0..partitions).map(|p| (0..replicas).map(|r| (r * partitions + p) as i64).collect()).collect(),
    };
    let mut seen = vec![false; devices];
    for &id in assignment.iter().flatten() {
        let slot = usize::try_from(id).ok().and_then(|i| seen.get_mut(i)).ok_or_else(|| {
            Error::invalid(format!("the device assignment names device {id}; floors has {devices} (FLOORS_DEVICE_COUNT sets how many)"))
        })?;
        if std::mem::replace(slot, true) {
            return Err(Error::invalid(format!("the device assignment names device {id} twice")));
        }
    }
    Ok(assignment)
}

pub struct PJRT_LoadedExecutable {
    executable: PJRT_Executable,
    /// Addressable devices, replica-major then partition, with their
    /// memories and logical ids; argument and output lists come in this order.
    devices: Vec<*mut PJRT_Device>,
    memories: Vec<*mut PJRT_Memory>,
    logical_ids: Vec<PJRT_LogicalDeviceIds>,
    /// `assignment[p][r]`: the device index of replica r, partition p.
    assignment: Vec<Vec<i64>>,
    /// The job's MPI (a client of several processes, one device each:
    /// device id = process = MPI rank).
    #[cfg(feature = "mpi")]
    mpi: Option<Arc<floors_runtime::mpi_transport::Mpi>>,
    deleted: AtomicBool,
}

unsafe fn executable<'a>(p: *mut PJRT_Executable) -> Result<&'a PJRT_Executable> {
    unsafe { handle(p, "PJRT_Executable") }
}

unsafe fn loaded<'a>(p: *mut PJRT_LoadedExecutable) -> Result<&'a PJRT_LoadedExecutable> {
    unsafe { handle(p, "PJRT_LoadedExecutable") }
}

pub unsafe extern "C" fn PJRT_Client_Compile(a: *mut PJRT_Client_Compile_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_Compile", || {
        let a = unsafe { args(a, "PJRT_Client_Compile") }?;
        let c = unsafe { client(a.client) }?;
        let program = unsafe { handle(a.program, "PJRT_Program") }?;
        let format = unsafe { str_arg(program.format, program.format_size) };
        if format != b"mlir" {
            return Err(Error::unimplemented(format!(
                "floors compiles StableHLO (program format `mlir`), not `{}`",
                String::from_utf8_lossy(format)
            )));
        }
        let code = unsafe { str_arg(program.code, program.code_size) };
        let text: Arc<str> = if crate::vhlo::is_bytecode(code) {
            crate::vhlo::to_text(code)?
        } else {
            std::str::from_utf8(code)
                .map_err(|e| Error::invalid(format!("the program is neither MLIR bytecode nor UTF-8 text: {e}")))?
                .into()
        };
        let options = unsafe { str_arg(a.compile_options, a.compile_options_size) }.to_vec();
        let parsed = crate::compile_options::parse(&options)?;
        let lowered_for = |name: &str| module_int_attr(&text, name).unwrap_or(1).max(1);
        let (mr, mp) = (lowered_for("mhlo.num_replicas"), lowered_for("mhlo.num_partitions"));
        let replicas = parsed.num_replicas.filter(|&r| r > 0).unwrap_or(mr);
        let partitions = parsed.num_partitions.filter(|&p| p > 0).unwrap_or(mp);
        if (replicas, partitions) != (mr, mp) {
            return Err(Error::invalid(format!(
                "the program was lowered for {mr} replica(s) x {mp} partition(s) but is compiled for {replicas} x {partitions}"
            )));
        }
        let (replicas, partitions) = (replicas as usize, partitions as usize);
        let assignment = placement(&parsed, replicas, partitions, c.devices.len())?;
        let compiled = compile_text(text)?;
        // This process's devices of the assignment (all of them alone; its
        // one device in a job of several processes).
        let mut devices = Vec::new();
        let mut logical_ids = Vec::new();
        for r in 0..replicas {
            for (p, ids) in assignment.iter().enumerate() {
                let d = c.devices[ids[r] as usize];
                if unsafe { crate::client::device(d) }?.addressable {
                    devices.push(d);
                    logical_ids.push(PJRT_LogicalDeviceIds { replica: r as i32, partition: p as i32 });
                }
            }
        }
        let memories = devices.iter().map(|&d| unsafe { crate::client::device(d) }.map(|d| d.memories[0])).collect::<Result<_>>()?;
        a.executable = Box::into_raw(Box::new(PJRT_LoadedExecutable {
            executable: PJRT_Executable::new(compiled, Arc::new(options), replicas, partitions),
            devices,
            memories,
            logical_ids,
            #[cfg(feature = "mpi")]
            mpi: c.mpi.clone(),
            assignment,
            deleted: AtomicBool::new(false),
        }));
        Ok(())
    })
}

/// The shardings extension (`PJRT_Shardings_Extension`), linked from the
/// API table: parameter and output shardings of a partitioned program; none
/// (null arrays, "not supported") for a one-device program.
pub static SHARDINGS_EXTENSION: PJRT_Shardings_Extension = PJRT_Shardings_Extension {
    base: PJRT_Extension_Base {
        struct_size: std::mem::size_of::<PJRT_Shardings_Extension>(),
        type_: PJRT_Extension_Type_Shardings,
        next: std::ptr::null_mut(),
    },
    parameter_shardings,
    output_shardings,
};

// SAFETY: the extension holds function pointers and a null `next` only.
unsafe impl Sync for PJRT_Shardings_Extension {}

fn hand_out_shardings(a: *mut PJRT_Shardings_Args, entry: &str, outputs: bool) -> Result<()> {
    let a = unsafe { args(a, entry) }?;
    let e = unsafe { executable(a.executable) }?;
    match &e.shardings {
        Some((params, results)) => {
            let s = if outputs { results } else { params };
            a.num = s.protos.len();
            a.shardings = s.ptrs.as_ptr();
            a.sharding_sizes = s.sizes.as_ptr();
        }
        None => {
            a.num = 0;
            a.shardings = std::ptr::null();
            a.sharding_sizes = std::ptr::null();
        }
    }
    Ok(())
}

unsafe extern "C" fn parameter_shardings(a: *mut PJRT_Shardings_Args) -> *mut PJRT_Error {
    guard("PJRT_Shardings_PJRT_Executable_ParameterShardings", || {
        hand_out_shardings(a, "PJRT_Shardings_PJRT_Executable_ParameterShardings", false)
    })
}

unsafe extern "C" fn output_shardings(a: *mut PJRT_Shardings_Args) -> *mut PJRT_Error {
    guard("PJRT_Shardings_PJRT_Executable_OutputShardings", || {
        hand_out_shardings(a, "PJRT_Shardings_PJRT_Executable_OutputShardings", true)
    })
}

pub unsafe extern "C" fn PJRT_Executable_Destroy(a: *mut PJRT_Executable_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_Destroy", || {
        let a = unsafe { args(a, "PJRT_Executable_Destroy") }?;
        if !a.executable.is_null() {
            drop(unsafe { Box::from_raw(a.executable) });
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_Name(a: *mut PJRT_Executable_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_Name", || {
        let a = unsafe { args(a, "PJRT_Executable_Name") }?;
        let e = unsafe { executable(a.executable) }?;
        a.string = e.compiled.name.as_ptr().cast();
        a.string_size = e.compiled.name.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_NumReplicas(a: *mut PJRT_Executable_Count_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_NumReplicas", || {
        let a = unsafe { args(a, "PJRT_Executable_NumReplicas") }?;
        a.count = unsafe { executable(a.executable) }?.replicas;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_NumPartitions(a: *mut PJRT_Executable_Count_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_NumPartitions", || {
        let a = unsafe { args(a, "PJRT_Executable_NumPartitions") }?;
        a.count = unsafe { executable(a.executable) }?.partitions;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_NumOutputs(a: *mut PJRT_Executable_Count_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_NumOutputs", || {
        let a = unsafe { args(a, "PJRT_Executable_NumOutputs") }?;
        a.count = unsafe { executable(a.executable) }?.compiled.results.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_SizeOfGeneratedCodeInBytes(
    a: *mut PJRT_Executable_SizeOfGeneratedCodeInBytes_Args,
) -> *mut PJRT_Error {
    guard("PJRT_Executable_SizeOfGeneratedCodeInBytes", || {
        let a = unsafe { args(a, "PJRT_Executable_SizeOfGeneratedCodeInBytes") }?;
        a.size_in_bytes = unsafe { executable(a.executable) }?.compiled.code_size;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_GetCostAnalysis(a: *mut PJRT_Executable_GetCostAnalysis_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_GetCostAnalysis", || {
        let a = unsafe { args(a, "PJRT_Executable_GetCostAnalysis") }?;
        let e = unsafe { executable(a.executable) }?;
        a.num_properties = e.cost.len();
        a.properties = e.cost.as_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_GetCompiledMemoryStats(a: *mut PJRT_Executable_GetCompiledMemoryStats_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_GetCompiledMemoryStats", || {
        let a = unsafe { args(a, "PJRT_Executable_GetCompiledMemoryStats") }?;
        let c = &unsafe { executable(a.executable) }?.compiled;
        let bytes = |specs: &[TensorSpec]| specs.iter().map(|s| s.bytes() as i64).sum::<i64>();
        let (arguments, outputs) = (bytes(&c.params), bytes(&c.results));
        let temps = c.memory.temp_bytes as i64;
        // Everything lives in host memory; the device's numbers say so too.
        a.generated_code_size_in_bytes = c.code_size;
        a.argument_size_in_bytes = arguments;
        a.output_size_in_bytes = outputs;
        a.alias_size_in_bytes = 0;
        a.temp_size_in_bytes = temps;
        a.host_generated_code_size_in_bytes = 0;
        a.host_argument_size_in_bytes = 0;
        a.host_output_size_in_bytes = 0;
        a.host_alias_size_in_bytes = 0;
        a.host_temp_size_in_bytes = 0;
        if crate::has_field!(a, PJRT_Executable_GetCompiledMemoryStats_Args, peak_memory_in_bytes) {
            a.peak_memory_in_bytes = arguments + outputs + temps;
        }
        if crate::has_field!(a, PJRT_Executable_GetCompiledMemoryStats_Args, peak_unpadded_heap_bytes) {
            a.total_size_in_bytes = arguments + outputs + temps + c.code_size;
            a.total_allocation_bytes = arguments + outputs + temps;
            a.indefinite_allocations = 0;
            a.peak_unpadded_heap_bytes = 0;
        }
        Ok(())
    })
}

fn memory_kinds(a: &mut PJRT_Executable_MemoryKinds_Args, parameters: bool) -> Result<()> {
    let e = unsafe { executable(a.executable) }?;
    let kinds = if parameters { &e.param_kinds } else { &e.output_kinds };
    a.count = kinds.ptrs.len();
    a.memory_kinds = kinds.ptrs.as_ptr();
    a.memory_kind_sizes = kinds.sizes.as_ptr();
    Ok(())
}

pub unsafe extern "C" fn PJRT_Executable_OutputMemoryKinds(a: *mut PJRT_Executable_MemoryKinds_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_OutputMemoryKinds", || memory_kinds(unsafe { args(a, "PJRT_Executable_OutputMemoryKinds") }?, false))
}

pub unsafe extern "C" fn PJRT_Executable_ParameterMemoryKinds(a: *mut PJRT_Executable_MemoryKinds_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_ParameterMemoryKinds", || memory_kinds(unsafe { args(a, "PJRT_Executable_ParameterMemoryKinds") }?, true))
}

pub unsafe extern "C" fn PJRT_Executable_OutputElementTypes(a: *mut PJRT_Executable_OutputElementTypes_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_OutputElementTypes", || {
        let a = unsafe { args(a, "PJRT_Executable_OutputElementTypes") }?;
        let c = &unsafe { executable(a.executable) }?.compiled;
        a.output_types = c.output_types.as_ptr().cast_mut();
        a.num_output_types = c.output_types.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_OutputDimensions(a: *mut PJRT_Executable_OutputDimensions_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_OutputDimensions", || {
        let a = unsafe { args(a, "PJRT_Executable_OutputDimensions") }?;
        let c = &unsafe { executable(a.executable) }?.compiled;
        a.num_outputs = c.output_dim_sizes.len();
        a.dims = c.output_dims.as_ptr();
        a.dim_sizes = c.output_dim_sizes.as_ptr();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Executable_Fingerprint(a: *mut PJRT_Executable_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_Fingerprint", || {
        let a = unsafe { args(a, "PJRT_Executable_Fingerprint") }?;
        let c = &unsafe { executable(a.executable) }?.compiled;
        a.string = c.fingerprint.as_ptr().cast();
        a.string_size = c.fingerprint.len();
        Ok(())
    })
}

unsafe extern "C" fn free_bytes(holder: *mut c_void) {
    if !holder.is_null() {
        drop(unsafe { Box::from_raw(holder.cast::<Vec<u8>>()) });
    }
}

fn hand_out_bytes(a: &mut PJRT_SerializedBytes_Args, bytes: Vec<u8>) {
    let holder = Box::into_raw(Box::new(bytes));
    // SAFETY: just allocated; the deleter frees it.
    let v = unsafe { &*holder };
    a.serialized_bytes = v.as_ptr().cast();
    a.serialized_bytes_size = v.len();
    a.holder = holder.cast();
    a.deleter = Some(free_bytes);
}

/// The `CompileOptionsProto` the program was compiled with, as given.
pub unsafe extern "C" fn PJRT_Executable_GetCompileOptions(a: *mut PJRT_SerializedBytes_Args) -> *mut PJRT_Error {
    guard("PJRT_Executable_GetCompileOptions", || {
        let a = unsafe { args(a, "PJRT_Executable_GetCompileOptions") }?;
        let e = unsafe { executable(a.executable.cast()) }?;
        hand_out_bytes(a, e.compile_options.to_vec());
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_Destroy(a: *mut PJRT_LoadedExecutable_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_Destroy", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_Destroy") }?;
        if !a.executable.is_null() {
            drop(unsafe { Box::from_raw(a.executable) });
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_GetExecutable(a: *mut PJRT_LoadedExecutable_GetExecutable_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_GetExecutable", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_GetExecutable") }?;
        let l = unsafe { loaded(a.loaded_executable) }?;
        let e = &l.executable;
        a.executable =
            Box::into_raw(Box::new(PJRT_Executable::new(e.compiled.clone(), e.compile_options.clone(), e.replicas, e.partitions)));
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_AddressableDevices(
    a: *mut PJRT_LoadedExecutable_AddressableDevices_Args,
) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_AddressableDevices", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_AddressableDevices") }?;
        let l = unsafe { loaded(a.executable) }?;
        a.addressable_devices = l.devices.as_ptr();
        a.num_addressable_devices = l.devices.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_AddressableDeviceLogicalIds(
    a: *mut PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args,
) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_AddressableDeviceLogicalIds", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_AddressableDeviceLogicalIds") }?;
        let l = unsafe { loaded(a.executable) }?;
        a.addressable_device_logical_ids = l.logical_ids.as_ptr().cast_mut();
        a.num_addressable_device_logical_ids = l.logical_ids.len();
        Ok(())
    })
}

/// `DeviceAssignmentProto { replica_count: 1, computation_count: 1,
/// computation_devices: [{ replica_device_ids: [0] }] }`, serialized.
pub const DEVICE_ASSIGNMENT_1X1: [u8; 9] = [0x08, 0x01, 0x10, 0x01, 0x1a, 0x03, 0x0a, 0x01, 0x00];

pub unsafe extern "C" fn PJRT_LoadedExecutable_GetDeviceAssignment(a: *mut PJRT_SerializedBytes_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_GetDeviceAssignment", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_GetDeviceAssignment") }?;
        let l = unsafe { loaded(a.executable.cast()) }?;
        hand_out_bytes(a, crate::compile_options::device_assignment_proto(&l.assignment));
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_Delete(a: *mut PJRT_LoadedExecutable_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_Delete", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_Delete") }?;
        unsafe { loaded(a.executable) }?.deleted.store(true, Ordering::Release);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_IsDeleted(a: *mut PJRT_LoadedExecutable_IsDeleted_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_IsDeleted", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_IsDeleted") }?;
        a.is_deleted = unsafe { loaded(a.executable) }?.deleted.load(Ordering::Acquire);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_LoadedExecutable_Fingerprint(a: *mut PJRT_LoadedExecutable_Fingerprint_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_Fingerprint", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_Fingerprint") }?;
        let c = &unsafe { loaded(a.executable) }?.executable.compiled;
        a.executable_fingerprint = c.fingerprint.as_ptr().cast();
        a.executable_fingerprint_size = c.fingerprint.len();
        Ok(())
    })
}

/// The buffers of argument list `d` (one per device).
fn argument_buffers<'a>(a: &PJRT_LoadedExecutable_Execute_Args, d: usize) -> Result<Vec<&'a PJRT_Buffer>> {
    let list = unsafe { *a.argument_lists.add(d) };
    if list.is_null() && a.num_args > 0 {
        return Err(Error::invalid("PJRT_LoadedExecutable_Execute: null argument list"));
    }
    (0..a.num_args).map(|i| unsafe { buffer(*list.add(i)) }).collect()
}

/// Runs the program once on each of its devices, synchronously: the
/// outputs are complete (and the completion events ready) when this
/// returns. One device runs on the caller's thread (and the executor's
/// pool); several run as an SPMD launch, each device on a thread of its
/// own, their collectives meeting in the runtime. A failed run is an error
/// of this call, with the runtime's message.
pub unsafe extern "C" fn PJRT_LoadedExecutable_Execute(a: *mut PJRT_LoadedExecutable_Execute_Args) -> *mut PJRT_Error {
    guard("PJRT_LoadedExecutable_Execute", || {
        let a = unsafe { args(a, "PJRT_LoadedExecutable_Execute") }?;
        let l = unsafe { loaded(a.executable) }?;
        let c = &l.executable.compiled;
        if l.deleted.load(Ordering::Acquire) {
            return Err(Error::new(PJRT_Error_Code_FAILED_PRECONDITION, format!("{}: the executable was deleted", c.name)));
        }
        let n = l.devices.len();
        if a.num_devices != n {
            return Err(Error::invalid(format!(
                "{}: the program runs on {n} device(s); {} argument lists were given",
                c.name, a.num_devices
            )));
        }
        if a.num_args != c.params.len() {
            return Err(Error::invalid(format!("{}: the program takes {} arguments, {} were given", c.name, c.params.len(), a.num_args)));
        }
        if a.argument_lists.is_null() || a.output_lists.is_null() {
            return Err(Error::invalid("PJRT_LoadedExecutable_Execute: null argument or output lists"));
        }
        // The arguments are read in place, under their buffers' read locks,
        // for as long as the run lasts (no copy of the inputs per run).
        let buffers = (0..n).map(|d| argument_buffers(a, d)).collect::<Result<Vec<_>>>()?;
        let guards: Vec<Vec<_>> = buffers.iter().map(|list| list.iter().map(|b| b.read()).collect()).collect();
        let names: Vec<PathBuf> = (0..a.num_args).map(|i| PathBuf::from(format!("argument {i} of {}", c.name))).collect();
        let mut lists: Vec<Vec<(&std::path::Path, &HostArray)>> = Vec::with_capacity(n);
        for g in &guards {
            let mut list = Vec::with_capacity(g.len());
            for (i, guard) in g.iter().enumerate() {
                let array = guard.as_ref().ok_or_else(|| {
                    Error::new(PJRT_Error_Code_FAILED_PRECONDITION, format!("{}: argument {i}: the buffer was deleted", c.name))
                })?;
                list.push((names[i].as_path(), array));
            }
            lists.push(list);
        }
        let (replicas, partitions) = (l.executable.replicas, l.executable.partitions);
        let outputs: Vec<Vec<HostArray>> = if replicas * partitions == 1 && n == 1 {
            vec![c.program.executable().execute_borrowed(&lists[0], pool())?]
        } else if n == replicas * partitions {
            // Device list d runs (replica, partition) = logical_ids[d]: the
            // runtime takes the inputs by flat id r * partitions + p.
            let flat_of = |d: usize| l.logical_ids[d].replica as usize * partitions + l.logical_ids[d].partition as usize;
            let mut by_flat: Vec<Vec<(&std::path::Path, &HostArray)>> = vec![Vec::new(); n];
            for (d, list) in lists.iter().enumerate() {
                by_flat[flat_of(d)] = list.clone();
            }
            let mut flat = c.program.executable().execute_spmd_borrowed(&by_flat, replicas as u32, partitions as u32)?;
            (0..n).map(|d| std::mem::take(&mut flat[flat_of(d)])).collect()
        } else {
            across_processes(l, &lists)?
        };
        drop(lists);
        drop(guards);
        for (d, outs) in outputs.into_iter().enumerate() {
            let list = unsafe { *a.output_lists.add(d) };
            if list.is_null() && !outs.is_empty() {
                return Err(Error::invalid("PJRT_LoadedExecutable_Execute: null output list"));
            }
            for (j, array) in outs.into_iter().enumerate() {
                unsafe { *list.add(j) = PJRT_Buffer::new(array, l.devices[d], l.memories[d]) };
            }
            if !a.device_complete_events.is_null() {
                unsafe { *a.device_complete_events.add(d) = PJRT_Event::ready(None) };
            }
        }
        Ok(())
    })
}

/// This process's devices' share of a run that spans the processes of a
/// job (`jax.distributed` under `mpirun`): its one device runs here, the
/// others in their processes, the collectives meeting over MPI (rank = the
/// process of each device of the assignment).
#[cfg(feature = "mpi")]
fn across_processes(l: &PJRT_LoadedExecutable, lists: &[Vec<(&std::path::Path, &HostArray)>]) -> Result<Vec<Vec<HostArray>>> {
    use floors_runtime::collectives::{Communicator, DeviceRun};
    let c = &l.executable.compiled;
    let (replicas, partitions) = (l.executable.replicas, l.executable.partitions);
    let Some(mpi) = &l.mpi else {
        return Err(Error::invalid(format!(
            "{}: the program runs on devices of other processes, and this client is not part of a job",
            c.name
        )));
    };
    // Flat id r * partitions + p runs on device assignment[p][r], the
    // process (= MPI rank) of that id.
    let ranks: Vec<usize> = (0..replicas * partitions).map(|f| l.assignment[f % partitions][f / partitions] as usize).collect();
    let communicator = Arc::new(Communicator::mpi_placed(replicas as u32, partitions as u32, mpi.clone(), ranks));
    let mut outputs = Vec::with_capacity(lists.len());
    for (d, list) in lists.iter().enumerate() {
        let ids = &l.logical_ids[d];
        let device = DeviceRun::new(communicator.clone(), ids.replica as u32, ids.partition as u32);
        let out = c.program.executable().execute_on_borrowed(list, &device).map_err(|e| floors_runtime::Error::Device {
            replica: ids.replica as u32,
            partition: ids.partition as u32,
            source: Box::new(e),
        })?;
        outputs.push(out);
    }
    Ok(outputs)
}

#[cfg(not(feature = "mpi"))]
fn across_processes(l: &PJRT_LoadedExecutable, _: &[Vec<(&std::path::Path, &HostArray)>]) -> Result<Vec<Vec<HostArray>>> {
    Err(Error::invalid(format!(
        "{}: the program runs on devices of other processes; this plugin was built without MPI",
        l.executable.compiled.name
    )))
}

pub unsafe extern "C" fn PJRT_ExecuteContext_Create(a: *mut PJRT_ExecuteContext_Create_Args) -> *mut PJRT_Error {
    guard("PJRT_ExecuteContext_Create", || {
        unsafe { args(a, "PJRT_ExecuteContext_Create") }?.context = Box::into_raw(Box::new(PJRT_ExecuteContext));
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_ExecuteContext_Destroy(a: *mut PJRT_ExecuteContext_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_ExecuteContext_Destroy", || {
        let a = unsafe { args(a, "PJRT_ExecuteContext_Destroy") }?;
        if !a.context.is_null() {
            drop(unsafe { Box::from_raw(a.context) });
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names() {
        assert_eq!(module_name("module @jit_f attributes {x} {"), "jit_f");
        assert_eq!(module_name("#loc = loc(unknown)\nmodule @jit__mlp_bench {"), "jit__mlp_bench");
        assert_eq!(module_name("func.func @main() {}"), "main");
    }
}
