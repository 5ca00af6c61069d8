//! The target as data: what a floor compiles for, resolved once by the driver
//! and carried on the module as the `floors.target` attribute, so passes read
//! it instead of probing the machine they run on.
//!
//! ```mlir
//! module attributes {floors.target = #floors.cpu_target<triple = "x86_64-pc-linux-gnu",
//!     cpu = "x86-64-v3", features = "", vector_bits = 256>} { ... }
//! ```
//!
//! Only [`CpuTarget::resolve`] looks at the machine (for `host`); every pass
//! reads the attribute through [`CpuTarget::of_operation`].

use std::ffi::{CStr, c_char};

use mlir_sys::{MlirAttribute, MlirContext, MlirOperation, mlirOperationGetAttributeByName, mlirOperationGetParentOperation};

use crate::{
    error::{Error, Result},
    ir::raw::{sref, string},
};

/// The module attribute that carries the target.
pub use crate::contract::TARGET_ATTR;

/// CPU names an error about an unknown CPU offers as examples.
#[cfg(not(target_arch = "aarch64"))]
const CPU_EXAMPLES: &str = "x86-64, x86-64-v2, x86-64-v3, x86-64-v4, skylake-avx512, znver4";
#[cfg(target_arch = "aarch64")]
const CPU_EXAMPLES: &str = "generic, cortex-a72, neoverse-n1, neoverse-v2, apple-m1";

/// A CPU target: LLVM triple, CPU name and feature string as LLVM's
/// TargetMachine takes them, and the widest vector the schedules may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuTarget {
    pub triple: String,
    /// An LLVM CPU name (`znver4`, `x86-64-v3`, ...), never `host`.
    pub cpu: String,
    /// `+avx2,+fma,...`; empty means the CPU's own defaults.
    pub features: String,
    /// Widest vector register in bits (128, 256 or 512).
    pub vector_bits: u32,
}

impl CpuTarget {
    /// f32 lanes of the widest vector register.
    pub fn f32_lanes(&self) -> i64 {
        i64::from(self.vector_bits / 32)
    }

    /// Whether the CPU (with its features) has the LLVM subtarget feature
    /// `name` (`avx512bf16`, ...): the CPU's own table for a named CPU, the
    /// detected features for `host`.
    pub fn has_feature(&self, name: &str) -> bool {
        init_native_target();
        // SAFETY: the four strings outlive the call; the shim only reads them to build a subtarget and copies nothing
        // it keeps.
        unsafe { crate::capi::floorsTargetHasFeature(sref(&self.triple), sref(&self.cpu), sref(&self.features), sref(name)) }
    }

    /// The target named `name`, for the host's triple:
    /// - `host`: the CPU, features and triple LLVM detects on this machine;
    /// - `x86-64`, `x86-64-v2`, `x86-64-v3`, `x86-64-v4` or any CPU name LLVM
    ///   knows for the triple, with that CPU's default features.
    ///
    /// The name is checked against LLVM's CPU tables here, before any pass or
    /// TargetMachine sees it (LLVM itself only warns about an unknown CPU and
    /// compiles for a generic one): an unknown name is [`Error::BadTarget`].
    /// `vector_bits` is 512 with AVX-512F, 256 with AVX2 or AVX, else 128.
    pub fn resolve(name: &str) -> Result<CpuTarget> {
        init_native_target();
        // SAFETY: takes nothing; LLVM returns a message it allocated, which `take_message` copies and disposes of.
        let triple = take_message(unsafe { LLVMGetDefaultTargetTriple() });
        let (cpu, features) = if name == "host" {
            // SAFETY: as above: two LLVM-allocated messages, each copied and disposed of once by `take_message`.
            (take_message(unsafe { LLVMGetHostCPUName() }), take_message(unsafe { LLVMGetHostCPUFeatures() }))
        } else {
            (name.to_string(), String::new())
        };
        let mut bits: std::os::raw::c_uint = 0;
        // SAFETY: the three strings outlive the call and `bits` is a live local the shim writes once.
        let check = unsafe { crate::capi::floorsTargetCheckCpu(sref(&triple), sref(&cpu), sref(&features), &mut bits) };
        match check {
            crate::capi::FloorsCpuCheck_FLOORS_CPU_OK => Ok(CpuTarget { triple, cpu, features, vector_bits: bits }),
            crate::capi::FloorsCpuCheck_FLOORS_CPU_UNKNOWN_TRIPLE => {
                Err(Error::BadTarget(format!("no LLVM target is registered for the triple `{triple}` (CPU `{name}`)")))
            }
            _ if name == "host" => Err(Error::BadTarget(format!(
                "LLVM does not know this machine's CPU `{cpu}` for {triple}; pass a CPU name instead of host \
                 (e.g. {CPU_EXAMPLES})"
            ))),
            _ => {
                Err(Error::BadTarget(format!("unknown CPU `{name}` for {triple}: expected host or an LLVM CPU name, e.g. {CPU_EXAMPLES}")))
            }
        }
    }

    /// The `#floors.cpu_target<...>` attribute of this target, in `ctx`.
    /// Null (with an error diagnostic on `ctx`) if the fields do not verify:
    /// an empty triple or CPU, the CPU `host`, or `vector_bits` not 128, 256
    /// or 512 (a target from [`CpuTarget::resolve`] always verifies).
    pub fn to_attribute(&self, ctx: MlirContext) -> MlirAttribute {
        // SAFETY: `ctx` is a live context with the floors dialect; the strings outlive the call and the attribute
        // copies them (`getChecked` returns null, after a diagnostic, when they do not verify).
        unsafe { crate::capi::floorsCpuTargetAttrGet(ctx, sref(&self.triple), sref(&self.cpu), sref(&self.features), self.vector_bits) }
    }

    /// The target of a `#floors.cpu_target` attribute; None for any other
    /// attribute.
    pub fn from_attribute(attr: MlirAttribute) -> Option<CpuTarget> {
        // SAFETY: `attr` is checked non-null and a `#floors.cpu_target` before its getters run; the strings they
        // return live in the context and are copied at once.
        unsafe {
            if attr.ptr.is_null() || !crate::capi::floorsAttributeIsACpuTarget(attr) {
                return None;
            }
            Some(CpuTarget {
                triple: string(crate::capi::floorsCpuTargetAttrGetTriple(attr)),
                cpu: string(crate::capi::floorsCpuTargetAttrGetCpu(attr)),
                features: string(crate::capi::floorsCpuTargetAttrGetFeatures(attr)),
                vector_bits: crate::capi::floorsCpuTargetAttrGetVectorBits(attr),
            })
        }
    }

    /// The `floors.target` of `op` or of its nearest ancestor that has one
    /// (the kernel module `@floors_kernels` is nested in the module that
    /// carries it); None if no enclosing op has a `#floors.cpu_target` there.
    pub fn of_operation(op: MlirOperation) -> Option<CpuTarget> {
        target_attribute(op).and_then(Self::from_attribute)
    }
}

/// The `floors.target` on `op` or on its nearest ancestor that has one (a
/// kernel module is nested in the module that carries it).
fn target_attribute(op: MlirOperation) -> Option<MlirAttribute> {
    let mut cur = op;
    // SAFETY: `op` is a live op (the caller's handle) and `cur` is checked non-null before each use; the walk only
    // reads attributes and parents.
    unsafe {
        while !cur.ptr.is_null() {
            let a = mlirOperationGetAttributeByName(cur, sref(TARGET_ATTR));
            if !a.ptr.is_null() {
                return Some(a);
            }
            cur = mlirOperationGetParentOperation(cur);
        }
    }
    None
}

// ---- TPU ------------------------------------------------------------------

/// A TPU generation's facts the TPU floor sizes kernels by (jax's
/// `tpu_info`, Pallas' defaults; the table is the runtime's
/// `tpu::GENERATIONS`): VMEM per TensorCore, the scoped VMEM a kernel may
/// use by default, and the MXU's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TpuTarget {
    /// `v5e`, `v5p` or `v6e`.
    pub chip: String,
    /// Scoped VMEM per kernel: every window twice (double buffering) plus scratch.
    pub vmem_limit_bytes: u64,
    /// VMEM of one TensorCore.
    pub vmem_bytes: u64,
    /// Side of the systolic array: 128 before v6, 256 from v6.
    pub mxu: u32,
}

impl TpuTarget {
    /// The generation named `name` (`v5e`, `v5p`, `v6e`); anything else is
    /// [`Error::BadTarget`] naming the choices.
    pub fn resolve(name: &str) -> Result<TpuTarget> {
        // The generations' facts live with the runtime's interpreter, which enforces the same budget.
        use floors_runtime::tpu::{GENERATIONS, TpuGeneration};
        TpuGeneration::parse(name)
            .map(|g| {
                let i = g.info();
                TpuTarget { chip: i.name.into(), vmem_limit_bytes: i.default_scoped_vmem_bytes, vmem_bytes: i.vmem_bytes, mxu: i.mxu }
            })
            .ok_or_else(|| {
                let names: Vec<&str> = GENERATIONS.iter().map(|g| g.name).collect();
                Error::BadTarget(format!("unknown TPU `{name}`: expected one of {}", names.join(", ")))
            })
    }

    /// The `#floors.tpu_target<...>` attribute (null, with a diagnostic, if
    /// the fields do not verify).
    pub fn to_attribute(&self, ctx: MlirContext) -> MlirAttribute {
        // SAFETY: `ctx` is a live context with the floors dialect; the chip string outlives the call and the
        // attribute copies it.
        unsafe { crate::capi::floorsTpuTargetAttrGet(ctx, sref(&self.chip), self.vmem_limit_bytes, self.vmem_bytes, self.mxu) }
    }

    /// The target of a `#floors.tpu_target`; None for any other attribute.
    pub fn from_attribute(attr: MlirAttribute) -> Option<TpuTarget> {
        // SAFETY: `attr` is checked non-null and a `#floors.tpu_target` before its getters run; the chip string lives
        // in the context and is copied at once.
        unsafe {
            if attr.ptr.is_null() || !crate::capi::floorsAttributeIsATpuTarget(attr) {
                return None;
            }
            Some(TpuTarget {
                chip: string(crate::capi::floorsTpuTargetAttrGetChip(attr)),
                vmem_limit_bytes: crate::capi::floorsTpuTargetAttrGetVmemLimitBytes(attr),
                vmem_bytes: crate::capi::floorsTpuTargetAttrGetVmemBytes(attr),
                mxu: crate::capi::floorsTpuTargetAttrGetMxu(attr),
            })
        }
    }

    /// The `#floors.tpu_target` on `op` or its nearest ancestor with a `floors.target`.
    pub fn of_operation(op: MlirOperation) -> Option<TpuTarget> {
        target_attribute(op).and_then(Self::from_attribute)
    }
}

// ---- GPU ------------------------------------------------------------------

/// A CUDA device the GPU floor compiles for: the runtime's
/// [`DeviceDescription`](floors_runtime::gpu::device::DeviceDescription)
/// (a preset, or what a driver reported), carried on the module as
/// `#floors.gpu_target<chip = "sm_90", sm_count = 132, ...>`.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuTarget {
    pub device: floors_runtime::gpu::device::DeviceDescription,
}

impl GpuTarget {
    /// The preset named `name` (`sm_80`, `sm_90`, `sm_90a`; `a100`, `h100`,
    /// `h200` as aliases); anything else is [`Error::BadTarget`] naming the
    /// choices, before MLIR sees the name (LLVM aborts the process on some
    /// bad chip/PTX pairs).
    pub fn resolve(name: &str) -> Result<GpuTarget> {
        use floors_runtime::gpu::device;
        device::preset(name).map(|device| GpuTarget { device }).ok_or_else(|| Error::BadTarget(device::unsupported_chip_message(name)))
    }

    /// A target from a device description (e.g. what a CUDA driver
    /// reported); an unsupported compute capability is [`Error::BadTarget`].
    pub fn from_device(device: floors_runtime::gpu::device::DeviceDescription) -> Result<GpuTarget> {
        if !device.is_supported() {
            return Err(Error::BadTarget(format!(
                "the GPU floor does not support {} ({}): expected one of {}",
                device.name,
                device.chip(),
                floors_runtime::gpu::device::SUPPORTED_CHIPS.join(", ")
            )));
        }
        Ok(GpuTarget { device })
    }

    /// `sm_90`, `sm_90a`, ...
    pub fn chip(&self) -> String {
        self.device.chip()
    }

    /// The attribute's text, for messages (the attribute itself is built
    /// by [`GpuTarget::to_attribute`]).
    pub fn to_text(&self) -> String {
        let d = &self.device;
        format!(
            "#floors.gpu_target<chip = \"{}\", sm_count = {}, warp_size = {}, max_threads_per_block = {}, max_threads_per_sm = {}, \
             shared_memory_per_block = {}, shared_memory_per_block_optin = {}, shared_memory_per_sm = {}, registers_per_block = {}, \
             registers_per_thread = {}, l2_cache_bytes = {}, clock_khz = {}, memory_bandwidth = {}>",
            d.chip(),
            d.sm_count,
            d.warp_size,
            d.max_threads_per_block,
            d.max_threads_per_sm,
            d.shared_memory_per_block,
            d.shared_memory_per_block_optin,
            d.shared_memory_per_sm,
            d.registers_per_block,
            d.registers_per_thread,
            d.l2_cache_bytes,
            d.clock_rate_khz,
            d.memory_bandwidth_bytes_per_s
        )
    }

    /// The `#floors.gpu_target<...>` attribute (null, with a diagnostic, if
    /// the fields do not verify).
    pub fn to_attribute(&self, ctx: MlirContext) -> MlirAttribute {
        let d = &self.device;
        let fields = crate::capi::FloorsGpuTargetFields {
            smCount: d.sm_count,
            warpSize: d.warp_size,
            maxThreadsPerBlock: d.max_threads_per_block,
            maxThreadsPerSm: d.max_threads_per_sm,
            sharedMemoryPerBlock: d.shared_memory_per_block,
            sharedMemoryPerBlockOptin: d.shared_memory_per_block_optin,
            sharedMemoryPerSm: d.shared_memory_per_sm,
            registersPerBlock: d.registers_per_block,
            registersPerThread: d.registers_per_thread,
            l2CacheBytes: d.l2_cache_bytes,
            clockKhz: d.clock_rate_khz,
            memoryBandwidth: d.memory_bandwidth_bytes_per_s,
        };
        // SAFETY: `ctx` is a live context; the chip string and `fields` outlive the call (the attribute copies them).
        unsafe { crate::capi::floorsGpuTargetAttrGet(ctx, sref(&self.chip()), &fields) }
    }

    /// The target of a `#floors.gpu_target`; None for any other attribute
    /// (or a chip without a preset). Fields the attribute does not carry
    /// (block/grid limits, blocks per SM) come from the chip's preset.
    pub fn from_attribute(attr: MlirAttribute) -> Option<GpuTarget> {
        // SAFETY: `attr` is checked non-null and a #floors.gpu_target before its getters run; the chip
        // string lives as long as the context and is copied at once.
        let (chip, f) = unsafe {
            if attr.ptr.is_null() || !crate::capi::floorsAttributeIsAGpuTarget(attr) {
                return None;
            }
            let mut f = std::mem::zeroed::<crate::capi::FloorsGpuTargetFields>();
            crate::capi::floorsGpuTargetAttrGetFields(attr, &mut f);
            (string(crate::capi::floorsGpuTargetAttrGetChip(attr)), f)
        };
        let mut d = floors_runtime::gpu::device::preset(&chip)?;
        d.sm_count = f.smCount;
        d.warp_size = f.warpSize;
        d.max_threads_per_block = f.maxThreadsPerBlock;
        d.max_threads_per_sm = f.maxThreadsPerSm;
        d.shared_memory_per_block = f.sharedMemoryPerBlock;
        d.shared_memory_per_block_optin = f.sharedMemoryPerBlockOptin;
        d.shared_memory_per_sm = f.sharedMemoryPerSm;
        d.registers_per_block = f.registersPerBlock;
        d.registers_per_thread = f.registersPerThread;
        d.l2_cache_bytes = f.l2CacheBytes;
        d.clock_rate_khz = f.clockKhz;
        d.memory_bandwidth_bytes_per_s = f.memoryBandwidth;
        Some(GpuTarget { device: d })
    }

    /// The `#floors.gpu_target` on `op` or its nearest ancestor with a `floors.target`.
    pub fn of_operation(op: MlirOperation) -> Option<GpuTarget> {
        target_attribute(op).and_then(Self::from_attribute)
    }
}

// ---- LLVM: host detection and native target initialization ----------------

unsafe extern "C" {
    fn LLVMGetDefaultTargetTriple() -> *mut c_char;
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
    fn LLVMDisposeMessage(m: *mut c_char);
}

#[cfg(target_arch = "x86_64")]
unsafe extern "C" {
    fn LLVMInitializeX86TargetInfo();
    fn LLVMInitializeX86Target();
    fn LLVMInitializeX86TargetMC();
    fn LLVMInitializeX86AsmPrinter();
}
#[cfg(target_arch = "aarch64")]
unsafe extern "C" {
    fn LLVMInitializeAArch64TargetInfo();
    fn LLVMInitializeAArch64Target();
    fn LLVMInitializeAArch64TargetMC();
    fn LLVMInitializeAArch64AsmPrinter();
}

/// Registers LLVM's target for the machine floors runs on (target info,
/// target, MC layer, asm printer), once per process.
pub fn init_native_target() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: LLVM's target initializers take nothing and only register the target; `ONCE` runs them once per
    // process.
    ONCE.call_once(|| unsafe {
        #[cfg(target_arch = "x86_64")]
        {
            LLVMInitializeX86TargetInfo();
            LLVMInitializeX86Target();
            LLVMInitializeX86TargetMC();
            LLVMInitializeX86AsmPrinter();
        }
        #[cfg(target_arch = "aarch64")]
        {
            LLVMInitializeAArch64TargetInfo();
            LLVMInitializeAArch64Target();
            LLVMInitializeAArch64TargetMC();
            LLVMInitializeAArch64AsmPrinter();
        }
    });
}

fn take_message(m: *mut c_char) -> String {
    if m.is_null() {
        return String::new();
    }
    // SAFETY: `m` is non-null (checked above) and a NUL-terminated string LLVM allocated, not freed yet.
    let s = unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned();
    // SAFETY: `m` came from LLVM's message functions and is disposed of once, after its text was copied.
    unsafe { LLVMDisposeMessage(m) };
    s
}

// ---- floors-<floor>-attach-target -----------------------------------------

/// A floor's target as its `floors-<floor>-attach-target{<option>=NAME}` pass
/// writes it (lit tests and mlir-opt pipelines; the driver sets the
/// attribute itself from `--cpu`/`--tpu`/`--gpu`).
pub trait AttachableTarget: Sized + 'static {
    const ARGUMENT: &'static str;
    const NAME: &'static str;
    const DESCRIPTION: &'static str;
    /// The one option, `(name, help)`.
    const OPTION: (&'static str, &'static str);
    /// The target the option names ("" when it is not given); Err: the message.
    fn for_pass(name: &str) -> std::result::Result<Self, String>;
    /// The `#floors.*_target` attribute (null when its fields do not verify).
    fn attribute(&self, ctx: MlirContext) -> MlirAttribute;
}

/// The `floors-<floor>-attach-target` pass of target `T`: sets the module's
/// `floors.target` to `T`'s attribute for the option's name.
pub struct AttachTarget<T> {
    name: String,
    _target: std::marker::PhantomData<fn() -> T>,
}

impl<T> Clone for AttachTarget<T> {
    fn clone(&self) -> Self {
        Self { name: self.name.clone(), _target: std::marker::PhantomData }
    }
}

impl<T: AttachableTarget> crate::pass::FloorsPass for AttachTarget<T> {
    const ARGUMENT: &'static str = T::ARGUMENT;
    const NAME: &'static str = T::NAME;
    const DESCRIPTION: &'static str = T::DESCRIPTION;
    const OPTIONS: &'static [(&'static str, &'static str)] = &[T::OPTION];

    fn new() -> Self {
        Self { name: String::new(), _target: std::marker::PhantomData }
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        // SAFETY: the getter takes nothing and returns the dialect's static registration handle.
        vec![unsafe { melior::dialect::DialectHandle::from_raw(crate::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn set_option(&mut self, name: &str, value: &str) -> std::result::Result<(), String> {
        if name != T::OPTION.0 {
            return Err(format!("unknown option `{name}`"));
        }
        self.name = value.to_string();
        Ok(())
    }

    fn run(&mut self, op: melior::ir::OperationRef<'_, '_>) -> std::result::Result<(), crate::pass::PassFailure> {
        use crate::pass::PassFailure;
        let target = T::for_pass(&self.name).map_err(|e| PassFailure::at(&op, e))?;
        let raw = op.to_raw();
        // SAFETY: `raw` is the live op the pass runs on, and the context is its own; `attr` is checked non-null
        // before it is set, and `sref(TARGET_ATTR)` points at a static string.
        unsafe {
            let attr = target.attribute(mlir_sys::mlirOperationGetContext(raw));
            if attr.ptr.is_null() {
                return Err(PassFailure::at(&op, format!("`{}` does not make a valid floors.target", self.name)));
            }
            mlir_sys::mlirOperationSetAttributeByName(raw, sref(TARGET_ATTR), attr);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn x86_levels_have_their_vector_widths() {
        for (name, bits) in [("x86-64", 128), ("x86-64-v2", 128), ("x86-64-v3", 256), ("x86-64-v4", 512), ("znver4", 512)] {
            let t = CpuTarget::resolve(name).unwrap();
            assert_eq!((t.cpu.as_str(), t.features.as_str(), t.vector_bits), (name, "", bits));
        }
        assert_eq!(CpuTarget::resolve("x86-64-v3").unwrap().f32_lanes(), 8);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn features_come_from_the_cpu_table_or_the_feature_string() {
        // What decides the bf16 dot path (vdpbf16ps) of the CPU floor.
        assert!(CpuTarget::resolve("znver4").unwrap().has_feature("avx512bf16"));
        assert!(!CpuTarget::resolve("x86-64-v4").unwrap().has_feature("avx512bf16"));
        let mut t = CpuTarget::resolve("x86-64-v4").unwrap();
        t.features = "+avx512bf16".into();
        assert!(t.has_feature("avx512bf16"));
        t.cpu = "pentium-9000".into();
        assert!(!t.has_feature("avx512bf16"), "an unknown CPU has no features");
    }

    #[test]
    fn host_resolves_to_a_named_cpu() {
        let t = CpuTarget::resolve("host").unwrap();
        assert!(!t.cpu.is_empty() && t.cpu != "host", "{t:?}");
        assert!([128, 256, 512].contains(&t.vector_bits), "{t:?}");
    }

    #[test]
    fn unknown_cpu_is_an_error_naming_it() {
        let e = CpuTarget::resolve("pentium-9000").unwrap_err().to_string();
        assert!(e.contains("unknown CPU `pentium-9000`") && e.contains("x86-64-v3") || cfg!(target_arch = "aarch64"), "{e}");
        assert!(CpuTarget::resolve("").is_err());
    }

    #[test]
    fn tpu_chips_resolve_and_round_trip() {
        let ctx = crate::context::create_context();
        for (name, mxu) in [("v5e", 128), ("v5p", 128), ("v6e", 256)] {
            let t = TpuTarget::resolve(name).unwrap();
            assert_eq!(t.mxu, mxu);
            assert_eq!(TpuTarget::from_attribute(t.to_attribute(ctx.to_raw())), Some(t));
        }
        let e = TpuTarget::resolve("v9x").unwrap_err().to_string();
        assert!(e.contains("unknown TPU `v9x`") && e.contains("v5e, v5p, v6e"), "{e}");
    }

    #[test]
    fn gpu_chips_resolve_and_round_trip() {
        let ctx = crate::context::create_context();
        for name in ["sm_80", "sm_90", "sm_90a"] {
            let t = GpuTarget::resolve(name).unwrap();
            assert_eq!(t.chip(), name);
            let a = t.to_attribute(ctx.to_raw());
            assert!(!a.ptr.is_null(), "{}", t.to_text());
            assert_eq!(crate::ir::raw::attr_text(a), t.to_text(), "the built attribute prints as the text");
            assert_eq!(GpuTarget::from_attribute(a), Some(t));
        }
        let e = GpuTarget::resolve("sm_70").unwrap_err().to_string();
        assert!(e.contains("unsupported GPU 'sm_70'") && e.contains("sm_90a"), "{e}");
    }

    #[test]
    fn attribute_round_trip() {
        let ctx = crate::context::create_context();
        let t = CpuTarget::resolve("host").unwrap();
        let a = t.to_attribute(ctx.to_raw());
        assert_eq!(CpuTarget::from_attribute(a), Some(t));
    }
}
