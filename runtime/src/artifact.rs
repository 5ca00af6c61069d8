//! The compiled artifact (`.floors`): what `floors compile -o PROG.floors`
//! writes and `floors-run` loads, on this machine or another one, with no
//! compiler in the process.
//!
//! Layout (all integers little-endian):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `FLOORSAR` |
//! | 8 | 4 | format version ([`FORMAT_VERSION`]) |
//! | 12 | 4 | reserved, 0 |
//! | 16 | 8 | payload length |
//! | 24 | 8 | FNV-1a 64 checksum of the payload |
//! | 32 | n | payload: [`Artifact`] in postcard (serde) |
//!
//! Version rule: any change to the serialized types bumps
//! [`FORMAT_VERSION`]; a reader accepts exactly its own version and says
//! whether the file is older (recompile it) or newer (update the runtime).
//! The header is checked before the payload is decoded; a short file, a
//! checksum mismatch or a payload that does not decode is an error naming
//! the file, never undefined behaviour.

use std::{path::Path, sync::Arc};

use serde::{Deserialize, Serialize};

use crate::{
    cpu_library::CpuKernelLibrary,
    error::{Error, Result},
    executor::ExecutorOptions,
    program::{Executable, HostProgram, KernelLibrary, ThunkSpec},
    thunk::CustomCallRegistry,
};

pub const MAGIC: [u8; 8] = *b"FLOORSAR";
/// 2: custom calls are typed XLA FFI calls (dtypes, dims, attributes,
/// aliases, side effect, location) and the artifact lists their targets.
/// 3: TPU targets and kernels (Mosaic kernels as data, run by the interpreter).
/// 4: GPU targets and kernels (`Target::Gpu` with its device description,
/// `KernelCode::Ptx`), gemm and memset thunks.
/// 5: while thunks carry their known trip count (`trip_count`).
pub const FORMAT_VERSION: u32 = 8;
pub const HEADER_BYTES: usize = 32;

/// What the kernel code was compiled for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Target {
    Cpu {
        triple: String,
        cpu: String,
        features: String,
        vector_bits: u32,
        /// x86 features the code may use (`avx2`, `avx512f`, ...); the loader
        /// refuses to run on a machine without one of them.
        required_features: Vec<String>,
    },
    /// A TPU generation (`v5e`, ...): the kernels run in the Mosaic interpreter.
    Tpu { generation: String },
    /// An NVIDIA GPU (`sm_90`, ...) and the device description the code was
    /// generated for: the kernels are PTX, JIT-compiled by the driver when
    /// the artifact is loaded (`crate::gpu`).
    Gpu { chip: String, device: crate::gpu::device::DeviceDescription },
}

/// One argument of a PTX kernel launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PtxArg {
    /// The device address of the kernel thunk's argument `i` (its inputs,
    /// then its outputs, as the kernel table lists them): one bare pointer.
    Buffer(u32),
    /// The device address of the module's temporary `i` (see
    /// [`PtxModule::temps`]): scratch one launch writes and a later one reads.
    Temp(u32),
    I32(i32),
    I64(i64),
}

/// One `cuLaunchKernel` of a kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PtxLaunch {
    /// The `.entry` in the module's PTX.
    pub function: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory, bytes (above 48 KiB the function is opted in).
    pub shared_memory_bytes: u32,
    /// The kernel parameters, in the entry's order.
    pub args: Vec<PtxArg>,
}

/// The PTX of one kernel of the kernel table (a fusion): the module text,
/// loaded once per executable, and the launches one call makes, in order
/// (usually one), all on the calling thunk's stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PtxModule {
    /// The kernel-table name the thunks call.
    pub kernel: String,
    /// PTX text (`.version`, `.target`, the entries).
    pub ptx: String,
    pub launches: Vec<PtxLaunch>,
    /// Bytes of each temporary buffer the launches pass between them
    /// (allocated once when the program is loaded; runs are serialized).
    pub temps: Vec<u64>,
}

/// One argument of a kernel, as the compiler saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelArgInfo {
    /// MLIR element type (`f32`, `bf16`, `i1`, ...).
    pub dtype: String,
    pub shape: Vec<u64>,
    pub bytes: u64,
    pub output: bool,
}

/// An entry of the kernel table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelInfo {
    pub name: String,
    pub grid: [u64; 3],
    pub args: Vec<KernelArgInfo>,
}

/// The machine code of the kernels.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub enum KernelCode {
    /// An ELF shared object exporting `<kernel>_kernel` entry points (see
    /// `kernel_abi`).
    CpuSharedObject(#[serde(with = "serde_bytes")] Vec<u8>),
    /// Mosaic kernels as data (`tpu::TpuKernel`), by kernel name.
    TpuKernels(Vec<(String, crate::tpu::TpuKernel)>),
    /// PTX modules, one per kernel of the kernel table.
    Ptx(Vec<PtxModule>),
}

impl std::fmt::Debug for KernelCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelCode::CpuSharedObject(b) => write!(f, "CpuSharedObject({} bytes)", b.len()),
            KernelCode::TpuKernels(k) => write!(f, "TpuKernels({})", k.iter().map(|k| k.0.as_str()).collect::<Vec<_>>().join(", ")),
            KernelCode::Ptx(m) => write!(f, "Ptx({})", m.iter().map(|m| m.kernel.as_str()).collect::<Vec<_>>().join(", ")),
        }
    }
}

/// A compiled program.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    /// `floors <version>` of the compiler that wrote it.
    pub producer: String,
    /// The program's name (the module's symbol name or file stem).
    pub name: String,
    pub target: Target,
    pub program: HostProgram,
    /// The custom-call targets the program calls, sorted: each needs a
    /// handler (built in, or loaded with `--ffi-lib`) when it is loaded.
    pub custom_call_targets: Vec<String>,
    pub kernels: Vec<KernelInfo>,
    pub code: KernelCode,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Artifact {
    /// The file's bytes: header, then the payload.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let payload = postcard::to_stdvec(self).map_err(|e| Error::Unsupported(format!("serializing the artifact: {e}")))?;
        let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        Ok(out)
    }

    /// Parses an artifact; `origin` (its path) names it in errors.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Self> {
        let bad = |message: String| Error::Artifact { origin: origin.to_string(), message };
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("not a floors artifact (bad magic; expected a file written by `floors compile -o X.floors`)".into()));
        }
        if bytes.len() < HEADER_BYTES {
            return Err(bad(format!("truncated: {} bytes, shorter than the {HEADER_BYTES}-byte header", bytes.len())));
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version > FORMAT_VERSION {
            return Err(bad(format!(
                "artifact format version {version} is newer than this runtime's ({FORMAT_VERSION}); use a newer floors-run"
            )));
        }
        if version < FORMAT_VERSION {
            return Err(bad(format!(
                "artifact format version {version} is older than this runtime's ({FORMAT_VERSION}); recompile the program"
            )));
        }
        let len = u64_at(16);
        let payload = &bytes[HEADER_BYTES..];
        if (payload.len() as u64) < len {
            return Err(bad(format!("truncated: the header promises {len} payload bytes, the file has {}", payload.len())));
        }
        if payload.len() as u64 > len {
            return Err(bad(format!("{} unexpected bytes after the payload", payload.len() as u64 - len)));
        }
        if fnv1a(payload) != u64_at(24) {
            return Err(bad("corrupted: the payload's checksum does not match the header".into()));
        }
        postcard::from_bytes(payload).map_err(|e| bad(format!("corrupted: the payload does not decode: {e}")))
    }

    pub fn read(path: &Path) -> Result<Self> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.into(), source })?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_bytes()?).map_err(|source| Error::Io { path: path.into(), source })
    }

    /// Checks that the kernel table covers every kernel thunk (same grid,
    /// argument sizes), that this machine can run the code, loads the code
    /// and builds the executable.
    pub fn instantiate(&self, origin: &str, custom_calls: Arc<CustomCallRegistry>, options: ExecutorOptions) -> Result<Executable> {
        let bad = |message: String| Error::Artifact { origin: origin.to_string(), message };
        self.check_kernel_table().map_err(bad)?;
        if self.program.custom_call_targets() != self.custom_call_targets.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(bad(format!(
                "the custom-call targets {:?} do not match the program's {:?}",
                self.custom_call_targets,
                self.program.custom_call_targets()
            )));
        }
        if let (Target::Gpu { .. }, KernelCode::Ptx(modules)) = (&self.target, &self.code) {
            return match crate::gpu::instantiate(self, modules, origin, custom_calls, options) {
                Ok(exe) => Ok(exe.with_origin(origin)),
                Err(Error::Program(message)) => Err(bad(format!("invalid program: {message}"))),
                Err(e) => Err(e),
            };
        }
        let library: Arc<dyn KernelLibrary> = match (&self.target, &self.code) {
            (Target::Cpu { triple, required_features, .. }, KernelCode::CpuSharedObject(so)) => {
                let arch = triple.split('-').next().unwrap_or_default();
                if arch != std::env::consts::ARCH {
                    return Err(bad(format!("compiled for {triple}; this machine is {}", std::env::consts::ARCH)));
                }
                let missing: Vec<&str> = required_features.iter().map(String::as_str).filter(|f| !host_has_feature(f)).collect();
                if !missing.is_empty() {
                    return Err(bad(format!(
                        "compiled for CPU features this machine lacks: {} (recompile with a --cpu this machine has)",
                        missing.join(", ")
                    )));
                }
                Arc::new(CpuKernelLibrary::load(so, origin)?)
            }
            (Target::Tpu { generation }, KernelCode::TpuKernels(kernels)) => {
                let generation =
                    crate::tpu::TpuGeneration::parse(generation).ok_or_else(|| bad(format!("unknown TPU generation `{generation}`")))?;
                Arc::new(
                    crate::tpu_library::TpuKernelLibrary::new(kernels, &self.kernels, generation, options.tpu_grid)
                        .map_err(|e| bad(e.to_string()))?,
                )
            }
            (t, c) => return Err(bad(format!("kernel code {c:?} for the target {t:?}"))),
        };
        match Executable::new(self.program.clone(), library, custom_calls, options) {
            Ok(exe) => Ok(exe.with_origin(origin)),
            // A program that does not hold together is the artifact's fault: name it.
            Err(Error::Program(message)) => Err(bad(format!("invalid program: {message}"))),
            Err(e) => Err(e),
        }
    }

    /// A few lines on what the artifact holds (`floors-run --info`): format
    /// version, name, producer, target (`target: cpu|gpu|tpu ...`), kernels,
    /// top-level thunks, custom-call targets, library gemms
    /// (`F32 TF32 1x64x64x64`: on TF32 tensor cores).
    pub fn summary(&self) -> String {
        let target = match &self.target {
            Target::Cpu { triple, cpu, .. } => format!("cpu {triple} {cpu}"),
            Target::Tpu { generation } => format!("tpu {generation}"),
            Target::Gpu { chip, device } => format!("gpu {chip} ({})", device.name),
        };
        let code = match &self.code {
            KernelCode::CpuSharedObject(so) => format!("shared object, {} bytes", so.len()),
            KernelCode::TpuKernels(k) => format!("{} Mosaic kernels", k.len()),
            KernelCode::Ptx(m) => format!("{} PTX modules, {} bytes", m.len(), m.iter().map(|m| m.ptx.len()).sum::<usize>()),
        };
        let mut gemms = Vec::new();
        crate::program::visit(&self.program.body, &mut |t| {
            if let crate::program::ThunkSpec::Gemm(g) = t {
                gemms.push(g.describe());
            }
        });
        format!(
            "format: {FORMAT_VERSION}\nname: {}\nproducer: {}\ntarget: {target}\ncode: {code}\nkernels: {}\nthunks: {}\ncustom calls: {}\ngemms: {}\n",
            self.name,
            self.producer.trim(),
            self.kernels.len(),
            self.program.body.len(),
            self.custom_call_targets.join(", "),
            gemms.join(", ")
        )
    }

    fn check_kernel_table(&self) -> std::result::Result<(), String> {
        let mut err = Ok(());
        check_kernels(&self.program.body, &self.kernels, &mut err);
        err
    }
}

fn check_kernels(body: &[ThunkSpec], table: &[KernelInfo], err: &mut std::result::Result<(), String>) {
    for t in body {
        match t {
            ThunkSpec::Kernel { kernel, inputs, outputs, grid } => {
                let Some(info) = table.iter().find(|k| &k.name == kernel) else {
                    *err = Err(format!("kernel `{kernel}` is called but not in the kernel table"));
                    return;
                };
                let sizes: Vec<u64> = inputs.iter().chain(outputs).map(|s| s.size).collect();
                let expected: Vec<u64> = info.args.iter().map(|a| a.bytes).collect();
                if &info.grid != grid || sizes != expected {
                    *err = Err(format!(
                        "kernel `{kernel}`: the call (grid {grid:?}, argument bytes {sizes:?}) does not match the kernel table (grid {:?}, {expected:?})",
                        info.grid
                    ));
                    return;
                }
            }
            ThunkSpec::While { cond, body, .. } => {
                check_kernels(cond, table, err);
                check_kernels(body, table, err);
            }
            ThunkSpec::Conditional { branches, .. } => branches.iter().for_each(|b| check_kernels(b, table, err)),
            _ => {}
        }
    }
}

/// Whether this CPU has an x86 feature named as LLVM names it.
fn host_has_feature(name: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($lit:tt),*) => {
                match name {
                    $($lit => std::arch::is_x86_feature_detected!($lit),)*
                    // A feature this runtime does not know how to probe is
                    // assumed present rather than refusing every artifact.
                    _ => true,
                }
            };
        }
        probe!(
            "sse4.2",
            "avx",
            "avx2",
            "fma",
            "f16c",
            "bmi1",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512dq",
            "avx512vl",
            "avx512cd",
            "avx512bf16",
            "avx512vnni"
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = name;
        true
    }
}
