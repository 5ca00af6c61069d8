//! Loading CPU kernel code: the shared object the compiler linked from the
//! kernel module, brought into the process from memory (a `memfd`, so no file
//! is written and concurrent runs share nothing on disk), checked for the
//! kernel ABI version, and given the runtime import table before any kernel
//! runs.

use std::ffi::{CStr, CString, c_void};

use crate::{
    error::{Error, Result},
    kernel_abi::{ABI_VERSION_SYMBOL, ENTRY_SUFFIX, HostKernelFn, IMPORT_TABLE_SYMBOL, KERNEL_ABI_VERSION, runtime_import_table},
    program::KernelLibrary,
};

/// A loaded kernel shared object; unloaded on drop.
///
/// The loader finds it by the name `/proc/self/fd/<fd>`, and glibc hands back
/// an already-loaded object for a name it has seen: so the memfd stays open
/// as long as the library is loaded, and its number (hence the name) cannot
/// be reused for another program's kernels meanwhile.
pub struct CpuKernelLibrary {
    handle: *mut c_void,
    fd: i32,
}

// SAFETY: a dlopen handle may be used from any thread (dlsym is thread-safe);
// the code behind it is reentrant kernel functions.
unsafe impl Send for CpuKernelLibrary {}
unsafe impl Sync for CpuKernelLibrary {}

fn dl_error() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string owned by libc.
    let e = unsafe { libc::dlerror() };
    if e.is_null() { "unknown dlopen error".into() } else { unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned() }
}

impl CpuKernelLibrary {
    /// Loads the ELF shared object `code`; `origin` names it in errors (the
    /// artifact's path).
    pub fn load(code: &[u8], origin: &str) -> Result<Self> {
        let fail = |message: String| Error::KernelLoad { origin: origin.to_string(), message };
        // Refuse what is plainly not an ELF shared object before the dynamic
        // loader sees it.
        if code.len() < 64 || &code[..4] != b"\x7fELF" {
            return Err(fail("the kernel code is not an ELF shared object".into()));
        }
        if code[16] != 3 {
            return Err(fail(format!("the kernel code is an ELF file of type {}, not a shared object", code[16])));
        }
        let fd = unsafe { libc::memfd_create(c"floors-kernels".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(fail(format!("memfd_create: {}", std::io::Error::last_os_error())));
        }
        let result = (|| {
            let mut written = 0;
            while written < code.len() {
                let n = unsafe { libc::write(fd, code[written..].as_ptr().cast(), code.len() - written) };
                if n <= 0 {
                    return Err(fail(format!("writing the kernel code: {}", std::io::Error::last_os_error())));
                }
                written += n as usize;
            }
            let path = CString::new(format!("/proc/self/fd/{fd}")).expect("no NUL in a path we format");
            let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
            if handle.is_null() {
                return Err(fail(dl_error()));
            }
            Ok(handle)
        })();
        let lib = match result {
            Ok(handle) => Self { handle, fd },
            Err(e) => {
                unsafe { libc::close(fd) };
                return Err(e);
            }
        };
        // The ABI version first: nothing else is read from a library of another one.
        let version =
            lib.symbol(ABI_VERSION_SYMBOL).ok_or_else(|| fail(format!("no `{ABI_VERSION_SYMBOL}` symbol: not a floors kernel library")))?;
        let version = unsafe { *(version as *const u32) };
        if version != KERNEL_ABI_VERSION {
            return Err(fail(format!("kernel ABI version {version}, this runtime speaks {KERNEL_ABI_VERSION}")));
        }
        let table = lib.symbol(IMPORT_TABLE_SYMBOL).ok_or_else(|| fail(format!("no `{IMPORT_TABLE_SYMBOL}` symbol")))?;
        let imports = runtime_import_table();
        // SAFETY: the symbol is the library's table of imports.len() pointers
        // (the ABI version says so), written once here before any kernel runs.
        unsafe { std::ptr::copy_nonoverlapping(imports.as_ptr(), table as *mut *const c_void, imports.len()) };
        Ok(lib)
    }

    fn symbol(&self, name: &str) -> Option<*mut c_void> {
        let c = CString::new(name).ok()?;
        let p = unsafe { libc::dlsym(self.handle, c.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}

impl KernelLibrary for CpuKernelLibrary {
    fn kernel(&self, name: &str) -> Option<HostKernelFn> {
        let p = self.symbol(&format!("{name}{ENTRY_SUFFIX}"))?;
        // SAFETY: entry points of a library of this ABI version have this signature.
        Some(unsafe { std::mem::transmute::<*mut c_void, HostKernelFn>(p) })
    }
}

impl Drop for CpuKernelLibrary {
    fn drop(&mut self) {
        unsafe {
            libc::dlclose(self.handle);
            libc::close(self.fd);
        }
    }
}
