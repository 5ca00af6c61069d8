//! Machine code from the CPU floor's kernel module (`@floors_kernels` in the
//! LLVM dialect, as `floors-lower-cpu` leaves it), for the module's
//! `#floors.cpu_target` (triple, CPU, features), never for whatever machine
//! the compiler happens to run on:
//!
//! - [`llvm_ir`]: LLVM IR, optimized at -O3 for the target;
//! - [`object_file`]: an ELF object (PIC) from the same;
//! - [`object_files`]: the same split into parts by kernel, each optimized
//!   and compiled on its own thread in its own LLVM context (a kernel's code
//!   does not depend on the part it lands in; the parts cut compile time);
//! - [`shared_object`]: those objects linked into the shared object an
//!   artifact carries, by the system C compiler driver (`cc`, or `--linker`):
//!   only libc and libm may remain undefined (`-z defs`).
//!
//! Before optimizing, the runtime import table of the kernel ABI is linked
//! in: an exported table of function pointers (`floors_runtime_imports`, one
//! slot per `RUNTIME_IMPORTS` entry) that the loader fills, hidden
//! trampolines with the imports' names that call through it, and the
//! exported ABI version. So the kernel code needs nothing from the process
//! that loads it, and the loader can check what it loads. The table and the
//! version are weak and the trampolines `linkonce_odr`, so every part of
//! [`object_files`] can carry them and the link keeps one of each.
//!
//! The module must live in a context with the LLVM translations registered
//! (every [`floors_ir::context::create_context`] context has them).

use std::ffi::{CStr, c_char, c_void};

use melior::ir::Module;
use mlir_sys::*;

use floors_ir::{
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
    fn LLVMWriteBitcodeToMemoryBuffer(m: LLVMModuleRef) -> MemoryBufferRef;
    fn LLVMParseBitcodeInContext2(ctx: LLVMContextRef, buf: MemoryBufferRef, out: *mut LLVMModuleRef) -> i32;
}

fn take_message(m: *mut c_char) -> String {
    if m.is_null() {
        return String::new();
    }
    // SAFETY: `m` is non-null (checked above) and a NUL-terminated message LLVM allocated (callers
    // pass only such messages); it is copied here before it is disposed below.
    let s = unsafe { CStr::from_ptr(m) }.to_string_lossy().into_owned();
    // SAFETY: `m` came from an LLVM call whose messages are freed with LLVMDisposeMessage; it is
    // disposed here once, after the copy above, and not used again.
    unsafe { LLVMDisposeMessage(m) };
    s
}

/// The LLVM IR of the runtime import table (see the module doc), generated
/// from the ABI's declaration so compiler and runtime cannot disagree.
fn import_table_ir() -> String {
    let n = RUNTIME_IMPORTS.len();
    let mut ir = format!(
        "@{IMPORT_TABLE_SYMBOL} = weak global [{n} x ptr] zeroinitializer, align 8\n\
         @{ABI_VERSION_SYMBOL} = weak_odr constant i32 {KERNEL_ABI_VERSION}, align 4\n"
    );
    for (slot, imp) in RUNTIME_IMPORTS.iter().enumerate() {
        let params: Vec<String> = imp.params.iter().enumerate().map(|(i, t)| format!("{t} %a{i}")).collect();
        let call = format!("call {} %f({})", imp.ret, params.join(", "));
        let body = if imp.ret == "void" { format!("  {call}\n  ret void") } else { format!("  %r = {call}\n  ret {} %r", imp.ret) };
        ir += &format!(
            "define linkonce_odr hidden {ret} @{sym}({params}) {{\n  %p = getelementptr inbounds [{n} x ptr], ptr @{IMPORT_TABLE_SYMBOL}, i64 0, i64 {slot}\n  %f = load ptr, ptr %p, align 8\n{body}\n}}\n",
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

/// An LLVM context and one module in it, disposed together.
struct LlvmModule {
    ctx: LLVMContextRef,
    m: LLVMModuleRef,
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: `m` and `ctx` were created by `translate` or `from_bitcode` for this value alone
        // (it is neither Clone nor Copy) and are disposed only here, once: the module before the
        // context that holds it.
        unsafe {
            LLVMDisposeModule(self.m);
            LLVMContextDispose(self.ctx);
        }
    }
}

impl LlvmModule {
    /// The kernel module in a fresh LLVM context, with the runtime import
    /// table linked in and the target's data layout and triple set.
    fn translate(kernel_module: &Module<'_>, machine: &Machine) -> Result<Self> {
        // SAFETY: the context is created here and disposed directly if the translation fails;
        // `kernel_module` is a live MLIR module borrowed for the call. From `Self { ctx, m }` on,
        // an early return drops `module`, which disposes both. `link_imports` gets that live
        // context and module; the data layout and the triple (a CString) belong to the live
        // `machine`, and LLVM copies them.
        unsafe {
            let ctx = LLVMContextCreate();
            let m = mlirTranslateModuleToLLVMIR(kernel_module.as_operation().to_raw(), ctx);
            if m.is_null() {
                LLVMContextDispose(ctx);
                return Err(Error::Unsupported(
                    "the kernel module does not translate to LLVM IR (is it fully in the LLVM dialect?)".into(),
                ));
            }
            let module = Self { ctx, m };
            link_imports(ctx, m)?;
            LLVMSetModuleDataLayout(m, machine.td);
            LLVMSetTarget(m, machine.triple.as_ptr());
            Ok(module)
        }
    }

    /// The module as bitcode, to be parsed into other contexts
    /// ([`LlvmModule::from_bitcode`]) on other threads.
    fn bitcode(&self) -> Vec<u8> {
        // SAFETY: `self.m` is the live module this value owns; the buffer LLVM returns is read
        // within its size, copied out, then disposed once.
        unsafe {
            let buf = LLVMWriteBitcodeToMemoryBuffer(self.m);
            let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buf) as *const u8, LLVMGetBufferSize(buf)).to_vec();
            LLVMDisposeMemoryBuffer(buf);
            bytes
        }
    }

    fn from_bitcode(bytes: &[u8]) -> Result<Self> {
        // SAFETY: the context is created here; the buffer copies `bytes` (pointer and length of a
        // live slice; the name is a static C string) and is disposed once, after the parse, which
        // does not take it (the parsed module does not keep it). On failure the context is disposed
        // and nothing else exists; on success both go to the returned `LlvmModule`.
        unsafe {
            let ctx = LLVMContextCreate();
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(bytes.as_ptr().cast(), bytes.len(), c"floors_kernels".as_ptr());
            let mut m: LLVMModuleRef = std::ptr::null_mut();
            // Does not take the buffer; the module does not keep it.
            let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut m) != 0;
            LLVMDisposeMemoryBuffer(buf);
            if failed || m.is_null() {
                LLVMContextDispose(ctx);
                return Err(Error::Unsupported("the kernel module's bitcode does not parse back (internal)".into()));
            }
            Ok(Self { ctx, m })
        }
    }

    /// The kernel entry points: defined functions with external linkage and
    /// default visibility (the import trampolines are hidden), with their
    /// instruction counts as a measure of the work LLVM will do on them.
    fn kernels(&self) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        // SAFETY: a read-only walk over the functions, blocks and instructions of `self.m`, which
        // this value owns and keeps alive; each handle comes from the previous one and nothing is
        // changed meanwhile.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.m);
            while !f.is_null() {
                if LLVMIsDeclaration(f) == 0 && LLVMGetLinkage(f) == LLVMLinkage_LLVMExternalLinkage && LLVMGetVisibility(f) == 0 {
                    let mut instructions = 0;
                    let mut b = LLVMGetFirstBasicBlock(f);
                    while !b.is_null() {
                        let mut i = LLVMGetFirstInstruction(b);
                        while !i.is_null() {
                            instructions += 1;
                            i = LLVMGetNextInstruction(i);
                        }
                        b = LLVMGetNextBasicBlock(b);
                    }
                    out.push((value_name(f), instructions));
                }
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }

    /// Deletes the kernel entry points named in `drop` (their private
    /// callees and constants go with -O3's dead-global elimination).
    fn drop_kernels(&self, drop: &[&str]) -> Result<()> {
        // SAFETY: `self.m` is live; the next function is read before `f` is deleted, and only
        // functions with no use left (checked just before) are deleted, so no deleted function is
        // reached again.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.m);
            while !f.is_null() {
                let next = LLVMGetNextFunction(f);
                let name = value_name(f);
                if drop.contains(&name.as_str()) {
                    if !LLVMGetFirstUse(f).is_null() {
                        return Err(Error::Unsupported(format!("kernel entry point `{name}` is called from the kernel module (internal)")));
                    }
                    LLVMDeleteFunction(f);
                }
                f = next;
            }
        }
        Ok(())
    }

    fn optimize(&self, machine: &Machine) -> Result<()> {
        // SAFETY: `self.m` and `machine.tm` are live (owned by their wrappers); the pass string is
        // a static C string; the options are disposed once after the run; an error is consumed by
        // LLVMGetErrorMessage, whose message is copied and then freed with LLVMDisposeErrorMessage.
        unsafe {
            let opts = LLVMCreatePassBuilderOptions();
            let e = LLVMRunPasses(self.m, c"default<O3>".as_ptr(), machine.tm, opts);
            LLVMDisposePassBuilderOptions(opts);
            if !e.is_null() {
                let msg = LLVMGetErrorMessage(e);
                let s = CStr::from_ptr(msg).to_string_lossy().into_owned();
                LLVMDisposeErrorMessage(msg);
                return Err(Error::Unsupported(format!("LLVM -O3 failed: {s}")));
            }
        }
        Ok(())
    }

    fn object(&self, machine: &Machine) -> Result<Vec<u8>> {
        // SAFETY: `machine.tm` and `self.m` are live; on failure `err` is LLVM's message (null or
        // freed once by `take_message`); on success `buf` is a new buffer, read within its size,
        // copied out and disposed once.
        unsafe {
            let mut err: *mut c_char = std::ptr::null_mut();
            let mut buf: MemoryBufferRef = std::ptr::null_mut();
            // 1 = LLVMObjectFile.
            if LLVMTargetMachineEmitToMemoryBuffer(machine.tm, self.m, 1, &mut err, &mut buf) != 0 {
                return Err(Error::Unsupported(format!("LLVM could not emit an object file: {}", take_message(err))));
            }
            let bytes = std::slice::from_raw_parts(LLVMGetBufferStart(buf) as *const u8, LLVMGetBufferSize(buf)).to_vec();
            LLVMDisposeMemoryBuffer(buf);
            Ok(bytes)
        }
    }
}

fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: callers pass live values (functions of a module they own); LLVM writes the name's
    // length to `len`.
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    if p.is_null() {
        return String::new();
    }
    // SAFETY: `p` is non-null (checked above) and points at the value's `len` name bytes, which
    // live as long as the value; they are copied before returning.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p as *const u8, len) }).into_owned()
}

/// An LLVM target machine for a [`CpuTarget`] (aggressive, PIC, default
/// code model) and its data layout. One per thread: a target machine is not
/// shared between threads.
struct Machine {
    triple: std::ffi::CString,
    tm: TargetMachineRef,
    td: TargetDataRef,
}

impl Machine {
    fn new(target: &CpuTarget) -> Result<Self> {
        floors_ir::target::init_native_target();
        let triple = cstring(&target.triple, "target triple")?;
        let cpu = cstring(&target.cpu, "CPU name")?;
        let features = cstring(&target.features, "CPU features")?;
        // SAFETY: the triple, CPU and feature CStrings live across the calls (LLVM copies them); an
        // error message from LLVMGetTargetFromTriple is freed by `take_message`; the target machine
        // is checked non-null, and it and its data layout go to `Self`, whose `Drop` disposes them.
        unsafe {
            let mut llvm_target: TargetRef = std::ptr::null_mut();
            let mut err: *mut c_char = std::ptr::null_mut();
            if LLVMGetTargetFromTriple(triple.as_ptr(), &mut llvm_target, &mut err) != 0 {
                return Err(Error::Unsupported(format!("no LLVM target for {}: {}", target.triple, take_message(err))));
            }
            let tm = LLVMCreateTargetMachine(llvm_target, triple.as_ptr(), cpu.as_ptr(), features.as_ptr(), 3, 2, 0);
            if tm.is_null() {
                return Err(Error::Unsupported(format!("LLVM cannot make a target machine for {target:?}")));
            }
            Ok(Self { triple, tm, td: LLVMCreateTargetDataLayout(tm) })
        }
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        // SAFETY: `td` and `tm` were created by `Machine::new` for this value alone (it is neither
        // Clone nor Copy) and are disposed only here, once.
        unsafe {
            LLVMDisposeTargetData(self.td);
            LLVMDisposeTargetMachine(self.tm);
        }
    }
}

/// Links [`import_table_ir`] into `m` (which keeps it).
///
/// # Safety
///
/// `ctx` must be a live LLVM context and `m` a live module in it.
unsafe fn link_imports(ctx: LLVMContextRef, m: LLVMModuleRef) -> Result<()> {
    let ir = import_table_ir();
    // SAFETY: per this function's contract `ctx` is a live context and `m` a live module in it. The
    // buffer copies `ir` (alive for the call) and LLVMParseIRInContext takes it whether or not the
    // parse succeeds; a parse error message is freed by `take_message`; LLVMLinkModules2 takes and
    // destroys `imports` whether or not it links.
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

/// The translated kernel module, optimized at -O3 for `target`.
fn optimized(kernel_module: &Module<'_>, target: &CpuTarget) -> Result<(LlvmModule, Machine)> {
    let machine = Machine::new(target)?;
    let module = LlvmModule::translate(kernel_module, &machine)?;
    module.optimize(&machine)?;
    Ok((module, machine))
}

/// LLVM IR text of the kernel module, optimized at -O3 for `target`.
pub fn llvm_ir(kernel_module: &Module<'_>, target: &CpuTarget) -> Result<String> {
    let (module, _machine) = optimized(kernel_module, target)?;
    // SAFETY: `module.m` is live (held by `module`); the string LLVMPrintModuleToString returns is
    // freed with LLVMDisposeMessage, once, by `take_message`.
    Ok(take_message(unsafe { LLVMPrintModuleToString(module.m) }))
}

/// An ELF object file (position independent) of the kernel module, -O3 for
/// `target`; each kernel is the C symbol `fusion_N_kernel`.
pub fn object_file(kernel_module: &Module<'_>, target: &CpuTarget) -> Result<Vec<u8>> {
    let (module, machine) = optimized(kernel_module, target)?;
    module.object(&machine)
}

/// The kernel module as up to `parts` ELF objects compiled on as many
/// threads, each holding a share of the kernels (balanced by instruction
/// count), for [`link_shared_object`]. LLVM's -O3 and code generation are
/// per function, so a kernel compiles to the same code whichever part holds
/// it; the parts only cut the wall time. Each part carries the import
/// table's weak definitions (see [`import_table_ir`]), which the link merges.
pub fn object_files(kernel_module: &Module<'_>, target: &CpuTarget, parts: usize) -> Result<Vec<Vec<u8>>> {
    let machine = Machine::new(target)?;
    let module = LlvmModule::translate(kernel_module, &machine)?;
    let kernels = module.kernels();
    let parts = parts.min(kernels.len());
    if parts < 2 {
        module.optimize(&machine)?;
        return Ok(vec![module.object(&machine)?]);
    }
    // Longest first onto the lightest part.
    let mut order: Vec<usize> = (0..kernels.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(kernels[k].1));
    let mut load = vec![0usize; parts];
    let mut owner = vec![0usize; kernels.len()];
    for k in order {
        let p = (0..parts).min_by_key(|&p| load[p]).unwrap_or(0);
        owner[k] = p;
        load[p] += kernels[k].1.max(1);
    }
    tracing::debug!("codegen parts (kernel, instructions) -> part: {kernels:?} -> {owner:?}");
    let bitcode = module.bitcode();
    drop(module);
    std::thread::scope(|s| {
        let mut handles = Vec::new();
        for p in 0..parts {
            let others: Vec<&str> = kernels.iter().zip(&owner).filter(|(_, o)| **o != p).map(|((n, _), _)| n.as_str()).collect();
            let bitcode = &bitcode;
            let handle = std::thread::Builder::new()
                .name(format!("floors-codegen-{p}"))
                .spawn_scoped(s, move || -> Result<Vec<u8>> {
                    let start = std::time::Instant::now();
                    let machine = Machine::new(target)?;
                    let part = LlvmModule::from_bitcode(bitcode)?;
                    part.drop_kernels(&others)?;
                    part.optimize(&machine)?;
                    let object = part.object(&machine);
                    tracing::debug!("codegen part {p}: {:?}", start.elapsed());
                    object
                })
                .map_err(|e| Error::Unsupported(format!("cannot start a code generation thread: {e}")))?;
            handles.push(handle);
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(Error::Unsupported("an LLVM code generation thread panicked (internal)".into()))))
            .collect()
    })
}

/// Every part parses the whole module's bitcode before dropping the other
/// parts' kernels, so the parts are capped: past a few, the parsing and the
/// memory grow faster than the time saved.
pub const MAX_CODEGEN_THREADS: usize = 8;

/// How many threads [`shared_object`] compiles on: the cores this process
/// may run on, at most [`MAX_CODEGEN_THREADS`].
pub fn codegen_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(MAX_CODEGEN_THREADS)
}

/// The shared object an artifact carries: [`object_file`] linked by
/// `linker` (a C compiler driver such as `cc` or `clang`), needing at most
/// libc and libm at load time (see [`link_shared_object`]). The link
/// happens in a private temporary directory.
pub fn shared_object(kernel_module: &Module<'_>, target: &CpuTarget, linker: &str) -> Result<Vec<u8>> {
    link_shared_object(&object_files(kernel_module, target, codegen_threads())?, linker)
}

/// The symbols kernels may leave to the loading process without naming a
/// library: libc's, and libc is in every process the runtime runs in.
const PROCESS_SYMBOLS: &[&str] = &["memcpy", "memmove", "memset"];

/// Whether every undefined symbol of `objects` is one of [`PROCESS_SYMBOLS`]
/// (so the link needs no libraries); false for anything else, e.g. libm's
/// scalar math or compiler-rt's conversions, which take the full link.
fn only_libc_memory_calls(objects: &[Vec<u8>]) -> Result<bool> {
    use object::{Object, ObjectSymbol};
    for (i, bytes) in objects.iter().enumerate() {
        let file = object::File::parse(bytes.as_slice())
            .map_err(|e| Error::Unsupported(format!("kernel object {i} is not an object file LLVM could have written (internal): {e}")))?;
        for symbol in file.symbols().filter(|s| s.is_undefined() && !s.is_local()) {
            let name = symbol.name().unwrap_or("");
            if !name.is_empty() && !PROCESS_SYMBOLS.contains(&name) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Links kernel objects (from [`object_file`] or [`object_files`]) into a
/// shared object with `linker` (the second half of [`shared_object`]).
/// Objects calling only libc's memory functions link with `-nostdlib` and no
/// libraries; any other undefined symbol takes `-z defs -lm`, so a symbol
/// nothing provides is a link error here, not a load error later.
pub fn link_shared_object(objects: &[Vec<u8>], linker: &str) -> Result<Vec<u8>> {
    let dir = tempfile::Builder::new()
        .prefix("floors-link-")
        .tempdir()
        .map_err(|e| Error::Unsupported(format!("cannot make a temporary directory to link the kernels in: {e}")))?;
    let so_path = dir.path().join("kernels.so");
    let mut obj_paths = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        let obj_path = dir.path().join(format!("kernels{i}.o"));
        std::fs::write(&obj_path, object).map_err(|source| Error::Io { path: obj_path.clone(), source })?;
        obj_paths.push(obj_path);
    }
    let mut command = std::process::Command::new(linker);
    if only_libc_memory_calls(objects)? {
        // Reading libc's and libm's symbol tables is most of a link (~20 of
        // 25 ms); kernels that call nothing but memcpy/memset/memmove get
        // them from the process, which always has libc loaded.
        command.args(["-shared", "-nostdlib", "-Wl,--build-id=none", "-s", "-o"]).arg(&so_path).args(&obj_paths);
    } else {
        command.args(["-shared", "-Wl,-z,defs", "-Wl,--build-id=none", "-s", "-o"]).arg(&so_path).args(&obj_paths).arg("-lm");
    }
    let out = command.output().map_err(|e| {
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
