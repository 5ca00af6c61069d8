//! Native code from the CPU floor's kernel module (`@floors_kernels` in the
//! LLVM dialect, as `floors-lower-cpu` leaves it):
//!
//! - JIT: [`CompiledKernels`] compiles it with MLIR's ExecutionEngine (ORC,
//!   LLVM -O3, host CPU) and hands out each kernel's ABI entry point
//!   `fusion_N_kernel` as a [`HostKernelFn`];
//! - AOT: [`llvm_ir`] translates it to LLVM IR and optimizes it at -O3 for the
//!   host CPU; [`object_file`] emits an ELF object (PIC) from the same.
//!
//! The module must live in a context with the LLVM translations registered
//! (every [`crate::context::create_context`] context has them).

use std::{
    ffi::{CStr, c_char, c_void},
    sync::Arc,
};

use melior::ir::Module;
use mlir_sys::*;

use crate::{
    error::{Error, Result},
    ir::raw::{self, sref},
    runtime::kernel_abi::HostKernelFn,
};

struct Engine(MlirExecutionEngine);

// SAFETY: ORC's LLJIT serializes its own state; lookups from several threads
// are allowed, and the compiled code is plain reentrant functions.
unsafe impl Send for Engine {}
unsafe impl Sync for Engine {}

impl Drop for Engine {
    fn drop(&mut self) {
        unsafe { mlirExecutionEngineDestroy(self.0) }
    }
}

/// The JIT-compiled kernels of one kernel module.
///
/// Cloning is cheap (the engine is shared). A function pointer from
/// [`CompiledKernels::kernel`] points into the engine's code: it stays valid
/// as long as any clone of this value lives, so whoever calls it (the
/// runtime's kernel thunks) must keep a clone next to it.
#[derive(Clone)]
pub struct CompiledKernels {
    engine: Arc<Engine>,
    names: Arc<Vec<String>>,
}

impl CompiledKernels {
    /// Compiles `kernel_module` (LLVM dialect) at opt level 3 for the host CPU.
    /// The module is not consumed; it may be dropped afterwards.
    pub fn new(kernel_module: &Module<'_>) -> Result<Self> {
        let op = kernel_module.as_operation().to_raw();
        let names = raw::attr(op, crate::lowering::cpu::cpu_outline_kernels::MANIFEST_ATTR)
            .map(|a| unsafe {
                (0..mlirArrayAttrGetNumElements(a))
                    .map(|i| raw::string(mlirStringAttrGetValue(mlirArrayAttrGetElement(a, i))))
                    .collect()
            })
            .unwrap_or_default();
        let engine = unsafe { mlirExecutionEngineCreate(kernel_module.to_raw(), 3, 0, std::ptr::null(), false, false) };
        if engine.ptr.is_null() {
            return Err(Error::Unsupported(
                "the ExecutionEngine could not compile the kernel module (is it fully in the LLVM dialect?)".into(),
            ));
        }
        // Runtime support the lowered kernels may call besides libc/libm.
        unsafe {
            mlirExecutionEngineRegisterSymbol(engine, sref("memrefCopy"), memref_copy as *mut c_void);
            // Kernel temporaries: big blocks reused across calls.
            mlirExecutionEngineRegisterSymbol(engine, sref("malloc"), crate::runtime::scratch::kernel_malloc as *mut c_void);
            mlirExecutionEngineRegisterSymbol(engine, sref("free"), crate::runtime::scratch::kernel_free as *mut c_void);
            mlirExecutionEngineInitialize(engine);
        }
        Ok(Self { engine: Arc::new(Engine(engine)), names: Arc::new(names) })
    }

    /// The kernel names in the module's manifest (`fusion_0`, ...).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The ABI entry point of kernel `name` (`fusion_3` → symbol
    /// `fusion_3_kernel`), or None if there is no such kernel. Valid while
    /// `self` (or a clone) lives.
    pub fn kernel(&self, name: &str) -> Option<HostKernelFn> {
        let symbol = format!("{name}_kernel");
        let p = unsafe { mlirExecutionEngineLookup(self.engine.0, sref(&symbol)) };
        // SAFETY: `@{name}_kernel` is emitted by floors-cpu-emit-kernel-abi
        // with exactly this signature.
        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, HostKernelFn>(p) })
    }
}

/// `memrefCopy`, which `finalize-memref-to-llvm` calls for a `memref.copy`
/// between non-contiguous memrefs (e.g. into a subview); the same contract as
/// MLIR's `libmlir_c_runner_utils` (which the JIT does not load): two unranked
/// memrefs `{rank, descriptor*}` with descriptors `{allocated, aligned, offset,
/// sizes[rank], strides[rank]}` in elements. An object file from
/// [`object_file`] needs it at link time (link `libmlir_c_runner_utils`).
#[repr(C)]
struct UnrankedMemRef {
    rank: i64,
    descriptor: *const i64,
}

unsafe extern "C" fn memref_copy(elem_size: i64, src: *const UnrankedMemRef, dst: *const UnrankedMemRef) {
    unsafe {
        let (src, dst) = (&*src, &*dst);
        let rank = src.rank as usize;
        // Descriptor words: [allocated, aligned, offset, sizes.., strides..].
        let sd = src.descriptor;
        let dd = dst.descriptor;
        let sbase = (*(sd.add(1)) as *const u8).offset((*sd.add(2) * elem_size) as isize);
        let dbase = (*(dd.add(1)) as *mut u8).offset((*dd.add(2) * elem_size) as isize);
        let sizes: Vec<i64> = (0..rank).map(|i| *sd.add(3 + i)).collect();
        let sstr: Vec<i64> = (0..rank).map(|i| *sd.add(3 + rank + i)).collect();
        let dstr: Vec<i64> = (0..rank).map(|i| *dd.add(3 + rank + i)).collect();
        if sizes.iter().any(|&n| n <= 0) {
            return;
        }
        // Innermost run: one memcpy per row when both rows are contiguous.
        let (run, outer) = match rank {
            0 => (1, 0),
            _ if sstr[rank - 1] == 1 && dstr[rank - 1] == 1 => (sizes[rank - 1], rank - 1),
            _ => (1, rank),
        };
        let bytes = (run * elem_size) as usize;
        let mut idx = vec![0i64; outer];
        loop {
            let so: i64 = idx.iter().zip(&sstr).map(|(i, s)| i * s).sum();
            let d_o: i64 = idx.iter().zip(&dstr).map(|(i, s)| i * s).sum();
            std::ptr::copy(sbase.offset((so * elem_size) as isize), dbase.offset((d_o * elem_size) as isize), bytes);
            // Next index, last dimension fastest.
            let mut d = outer;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < sizes[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
}

// ---- AOT: LLVM IR and object files through LLVM's C API -------------------

type TargetRef = *mut c_void;
type TargetMachineRef = *mut c_void;
type TargetDataRef = *mut c_void;
type PassBuilderOptionsRef = *mut c_void;
type ErrorRef = *mut c_void;
type MemoryBufferRef = *mut c_void;

unsafe extern "C" {
    fn LLVMGetDefaultTargetTriple() -> *mut c_char;
    fn LLVMGetHostCPUName() -> *mut c_char;
    fn LLVMGetHostCPUFeatures() -> *mut c_char;
    fn LLVMDisposeMessage(m: *mut c_char);
    fn LLVMGetTargetFromTriple(triple: *const c_char, t: *mut TargetRef, err: *mut *mut c_char) -> i32;
    fn LLVMCreateTargetMachine(
        t: TargetRef,
        triple: *const c_char,
        cpu: *const c_char,
        features: *const c_char,
        level: u32,
        reloc: u32,
        code_model: u32,
    ) -> TargetMachineRef;
    fn LLVMDisposeTargetMachine(tm: TargetMachineRef);
    fn LLVMCreateTargetDataLayout(tm: TargetMachineRef) -> TargetDataRef;
    fn LLVMDisposeTargetData(td: TargetDataRef);
    fn LLVMSetModuleDataLayout(m: LLVMModuleRef, td: TargetDataRef);
    fn LLVMSetTarget(m: LLVMModuleRef, triple: *const c_char);
    fn LLVMCreatePassBuilderOptions() -> PassBuilderOptionsRef;
    fn LLVMDisposePassBuilderOptions(o: PassBuilderOptionsRef);
    fn LLVMRunPasses(m: LLVMModuleRef, passes: *const c_char, tm: TargetMachineRef, o: PassBuilderOptionsRef) -> ErrorRef;
    fn LLVMGetErrorMessage(e: ErrorRef) -> *mut c_char;
    fn LLVMDisposeErrorMessage(m: *mut c_char);
    fn LLVMTargetMachineEmitToMemoryBuffer(
        tm: TargetMachineRef,
        m: LLVMModuleRef,
        kind: u32,
        err: *mut *mut c_char,
        out: *mut MemoryBufferRef,
    ) -> i32;
    fn LLVMGetBufferStart(b: MemoryBufferRef) -> *const c_char;
    fn LLVMGetBufferSize(b: MemoryBufferRef) -> usize;
    fn LLVMDisposeMemoryBuffer(b: MemoryBufferRef);
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

fn init_native_target() {
    static ONCE: std::sync::Once = std::sync::Once::new();
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
    let s = unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(m) };
    s
}

/// Translates the kernel module to LLVM IR, optimizes it with `default<O3>`
/// for the host CPU and gives `f` the module and target machine.
fn with_optimized<T>(kernel_module: &Module<'_>, f: impl FnOnce(LLVMModuleRef, TargetMachineRef) -> Result<T>) -> Result<T> {
    init_native_target();
    unsafe {
        let ctx = LLVMContextCreate();
        let m = mlirTranslateModuleToLLVMIR(kernel_module.as_operation().to_raw(), ctx);
        if m.is_null() {
            LLVMContextDispose(ctx);
            return Err(Error::Unsupported("the kernel module does not translate to LLVM IR (is it fully in the LLVM dialect?)".into()));
        }
        let triple = LLVMGetDefaultTargetTriple();
        let cpu = LLVMGetHostCPUName();
        let features = LLVMGetHostCPUFeatures();
        let mut target: TargetRef = std::ptr::null_mut();
        let mut err: *mut c_char = std::ptr::null_mut();
        let result = if LLVMGetTargetFromTriple(triple, &mut target, &mut err) != 0 {
            Err(Error::Unsupported(format!("no LLVM target for the host: {}", take_message(err))))
        } else {
            // Aggressive (-O3), PIC, default code model.
            let tm = LLVMCreateTargetMachine(target, triple, cpu, features, 3, 2, 0);
            let td = LLVMCreateTargetDataLayout(tm);
            LLVMSetModuleDataLayout(m, td);
            LLVMSetTarget(m, triple);
            let opts = LLVMCreatePassBuilderOptions();
            let e = LLVMRunPasses(m, c"default<O3>".as_ptr(), tm, opts);
            LLVMDisposePassBuilderOptions(opts);
            let r = if !e.is_null() {
                let msg = LLVMGetErrorMessage(e);
                let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
                LLVMDisposeErrorMessage(msg);
                Err(Error::Unsupported(format!("LLVM -O3 failed: {s}")))
            } else {
                f(m, tm)
            };
            LLVMDisposeTargetData(td);
            LLVMDisposeTargetMachine(tm);
            r
        };
        LLVMDisposeMessage(triple);
        LLVMDisposeMessage(cpu);
        LLVMDisposeMessage(features);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        result
    }
}

/// LLVM IR text of the kernel module, optimized at -O3 for the host CPU.
pub fn llvm_ir(kernel_module: &Module<'_>) -> Result<String> {
    with_optimized(kernel_module, |m, _| Ok(take_message(unsafe { LLVMPrintModuleToString(m) })))
}

/// An ELF object file (position independent) of the kernel module, -O3 for
/// the host CPU; each kernel is the C symbol `fusion_N_kernel`.
pub fn object_file(kernel_module: &Module<'_>) -> Result<Vec<u8>> {
    with_optimized(kernel_module, |m, tm| unsafe {
        let mut err: *mut c_char = std::ptr::null_mut();
        let mut buf: MemoryBufferRef = std::ptr::null_mut();
        // 1 = LLVMObjectFile.
        if LLVMTargetMachineEmitToMemoryBuffer(tm, m, 1, &mut err, &mut buf) != 0 {
            return Err(Error::Unsupported(format!("LLVM could not emit an object file: {}", take_message(err))));
        }
        let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buf) as *const u8, LLVMGetBufferSize(buf)).to_vec();
        LLVMDisposeMemoryBuffer(buf);
        Ok(bytes)
    })
}
