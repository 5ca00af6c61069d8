//! Machine code from the CPU floor's kernel module (`@floors_kernels` in the
//! LLVM dialect, as `floors-lower-cpu` leaves it), for the module's
//! `#floors.cpu_target` (triple, CPU, features), never for whatever machine
//! the compiler happens to run on:
//!
//! - [`llvm_ir`]: LLVM IR, optimized at -O3 for the target;
//! - [`object_file`]: an ELF object (PIC) from the same;
//! - [`shared_object`]: that object linked into the shared object an artifact
//!   carries, by the system C compiler driver (`cc`, or `--linker`): only
//!   libc and libm may remain undefined (`-z defs`).
//!
//! Before optimizing, the runtime import table of the kernel ABI is linked
//! in: an exported table of function pointers (`floors_runtime_imports`, one
//! slot per `RUNTIME_IMPORTS` entry) that the loader fills, hidden
//! trampolines with the imports' names that call through it, and the
//! exported ABI version. So the kernel code needs nothing from the process
//! that loads it, and the loader can check what it loads.
//!
//! The module must live in a context with the LLVM translations registered
//! (every [`crate::context::create_context`] context has them).

use std::ffi::{CStr, c_char, c_void};

use melior::ir::Module;
use mlir_sys::*;

use crate::{
    contract::{ABI_VERSION_SYMBOL, IMPORT_TABLE_SYMBOL, KERNEL_ABI_VERSION, RUNTIME_IMPORTS},
    error::{Error, Result},
    target::CpuTarget,
};

type TargetRef = *mut c_void;
type TargetMachineRef = *mut c_void;
type TargetDataRef = *mut c_void;
type PassBuilderOptionsRef = *mut c_void;
type ErrorRef = *mut c_void;
type MemoryBufferRef = *mut c_void;

unsafe extern "C" {
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
    fn LLVMCreateMemoryBufferWithMemoryRangeCopy(data: *const c_char, len: usize, name: *const c_char) -> MemoryBufferRef;
    fn LLVMParseIRInContext(ctx: LLVMContextRef, buf: MemoryBufferRef, out: *mut LLVMModuleRef, msg: *mut *mut c_char) -> i32;
    fn LLVMLinkModules2(dest: LLVMModuleRef, src: LLVMModuleRef) -> i32;
}

fn take_message(m: *mut c_char) -> String {
    if m.is_null() {
        return String::new();
    }
    let s = unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(m) };
    s
}

/// The LLVM IR of the runtime import table (see the module doc), generated
/// from the ABI's declaration so compiler and runtime cannot disagree.
fn import_table_ir() -> String {
    let n = RUNTIME_IMPORTS.len();
    let mut ir = format!(
        "@{IMPORT_TABLE_SYMBOL} = global [{n} x ptr] zeroinitializer, align 8\n\
         @{ABI_VERSION_SYMBOL} = constant i32 {KERNEL_ABI_VERSION}, align 4\n"
    );
    for (slot, imp) in RUNTIME_IMPORTS.iter().enumerate() {
        let params: Vec<String> = imp.params.iter().enumerate().map(|(i, t)| format!("{t} %a{i}")).collect();
        let call = format!("call {} %f({})", imp.ret, params.join(", "));
        let body = if imp.ret == "void" { format!("  {call}\n  ret void") } else { format!("  %r = {call}\n  ret {} %r", imp.ret) };
        ir += &format!(
            "define hidden {ret} @{sym}({params}) {{\n  %p = getelementptr inbounds [{n} x ptr], ptr @{IMPORT_TABLE_SYMBOL}, i64 0, i64 {slot}\n  %f = load ptr, ptr %p, align 8\n{body}\n}}\n",
            ret = imp.ret,
            sym = imp.symbol,
            params = params.join(", "),
        );
    }
    ir
}

fn cstring(s: &str, what: &str) -> Result<std::ffi::CString> {
    std::ffi::CString::new(s).map_err(|_| Error::Unsupported(format!("{what} `{s}` contains a NUL byte")))
}

/// Translates the kernel module to LLVM IR, links the runtime import table
/// in, optimizes with `default<O3>` for `target` and gives `f` the module
/// and target machine.
fn with_optimized<T>(
    kernel_module: &Module<'_>,
    target: &CpuTarget,
    f: impl FnOnce(LLVMModuleRef, TargetMachineRef) -> Result<T>,
) -> Result<T> {
    crate::target::init_native_target();
    let triple = cstring(&target.triple, "target triple")?;
    let cpu = cstring(&target.cpu, "CPU name")?;
    let features = cstring(&target.features, "CPU features")?;
    unsafe {
        let ctx = LLVMContextCreate();
        let m = mlirTranslateModuleToLLVMIR(kernel_module.as_operation().to_raw(), ctx);
        if m.is_null() {
            LLVMContextDispose(ctx);
            return Err(Error::Unsupported("the kernel module does not translate to LLVM IR (is it fully in the LLVM dialect?)".into()));
        }
        let result = link_imports(ctx, m).and_then(|()| {
            let mut llvm_target: TargetRef = std::ptr::null_mut();
            let mut err: *mut c_char = std::ptr::null_mut();
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut llvm_target, &mut err) != 0 {
                return Err(Error::Unsupported(format!("no LLVM target for {}: {}", target.triple, take_message(err))));
            }
            // Aggressive (-O3), PIC, default code model.
            let tm = LLVMCreateTargetMachine(llvm_target, triple.as_ptr(), cpu.as_ptr(), features.as_ptr(), 3, 2, 0);
            if tm.is_null() {
                return Err(Error::Unsupported(format!("LLVM cannot make a target machine for {target:?}")));
            }
            let td = LLVMCreateTargetDataLayout(tm);
            LLVMSetModuleDataLayout(m, td);
            LLVMSetTarget(m, triple.as_ptr());
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
        });
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        result
    }
}

/// Links [`import_table_ir`] into `m` (which keeps it).
unsafe fn link_imports(ctx: LLVMContextRef, m: LLVMModuleRef) -> Result<()> {
    let ir = import_table_ir();
    unsafe {
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir.as_ptr().cast(), ir.len(), c"floors_runtime_imports".as_ptr());
        let mut imports: LLVMModuleRef = std::ptr::null_mut();
        let mut msg: *mut c_char = std::ptr::null_mut();
        // Takes ownership of `buf`.
        if LLVMParseIRInContext(ctx, buf, &mut imports, &mut msg) != 0 {
            return Err(Error::Unsupported(format!("the runtime import table does not parse (internal): {}", take_message(msg))));
        }
        // Destroys `imports`; nonzero means the symbols clash.
        if LLVMLinkModules2(m, imports) != 0 {
            return Err(Error::Unsupported("the kernel module already defines a runtime import or the import table (internal)".into()));
        }
    }
    Ok(())
}

/// LLVM IR text of the kernel module, optimized at -O3 for `target`.
pub fn llvm_ir(kernel_module: &Module<'_>, target: &CpuTarget) -> Result<String> {
    with_optimized(kernel_module, target, |m, _| Ok(take_message(unsafe { LLVMPrintModuleToString(m) })))
}

/// An ELF object file (position independent) of the kernel module, -O3 for
/// `target`; each kernel is the C symbol `fusion_N_kernel`.
pub fn object_file(kernel_module: &Module<'_>, target: &CpuTarget) -> Result<Vec<u8>> {
    with_optimized(kernel_module, target, |m, tm| unsafe {
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

/// The shared object an artifact carries: [`object_file`] linked by
/// `linker` (a C compiler driver such as `cc` or `clang`) with `-shared
/// -z defs -lm`, so the result needs only libc and libm at load time.
/// The link happens in a private temporary directory.
pub fn shared_object(kernel_module: &Module<'_>, target: &CpuTarget, linker: &str) -> Result<Vec<u8>> {
    link_shared_object(&object_file(kernel_module, target)?, linker)
}

/// Links a kernel object (from [`object_file`]) into a shared object with
/// `linker` (the second half of [`shared_object`]).
pub fn link_shared_object(object: &[u8], linker: &str) -> Result<Vec<u8>> {
    let dir = tempfile::Builder::new()
        .prefix("floors-link-")
        .tempdir()
        .map_err(|e| Error::Unsupported(format!("cannot make a temporary directory to link the kernels in: {e}")))?;
    let (obj_path, so_path) = (dir.path().join("kernels.o"), dir.path().join("kernels.so"));
    std::fs::write(&obj_path, object).map_err(|source| Error::Io { path: obj_path.clone(), source })?;
    let out = std::process::Command::new(linker)
        .args(["-shared", "-Wl,-z,defs", "-Wl,--build-id=none", "-s", "-o"])
        .arg(&so_path)
        .arg(&obj_path)
        .args(["-lm"])
        .output()
        .map_err(|e| {
            Error::Unsupported(format!(
                "cannot run the linker `{linker}` to link the kernels into a shared object: {e} \
                 (install a C compiler driver, e.g. Debian's gcc or clang, or name one with --linker)"
            ))
        })?;
    if !out.status.success() {
        return Err(Error::Unsupported(format!(
            "the linker `{linker}` failed to link the kernels ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim_end()
        )));
    }
    std::fs::read(&so_path).map_err(|source| Error::Io { path: so_path, source })
}
