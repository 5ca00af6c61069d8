//! The host kernel ABI: every fusion is one `extern "C"` function called once
//! per workgroup with a call frame, so the runtime can split a kernel's grid
//! across threads without knowing what the kernel does.

use std::ffi::{CStr, c_char, c_void};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::RuntimeError;

/// Version of the contract below: the call frame and error layouts, the
/// entry point names, and the runtime import table. Kernel code records it
/// (symbol [`ABI_VERSION_SYMBOL`]) and the loader refuses another version.
pub const KERNEL_ABI_VERSION: u32 = 1;

/// Entry point of kernel `name`: `{name}{ENTRY_SUFFIX}(frame) -> error`.
pub const ENTRY_SUFFIX: &str = "_kernel";

/// An exported `i32` holding [`KERNEL_ABI_VERSION`] in every kernel library.
pub const ABI_VERSION_SYMBOL: &str = "floors_kernel_abi_version";

/// An exported table of function pointers (one per [`RUNTIME_IMPORTS`]
/// entry, in order), zero in the library and filled by the loader before any
/// kernel runs: kernels reach the runtime through it, so a kernel library
/// has no undefined symbol but libc's and libm's.
pub const IMPORT_TABLE_SYMBOL: &str = "floors_runtime_imports";

/// A function compiled kernels call in the runtime: its symbol in the
/// kernel code and its LLVM signature (return type, parameter types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeImport {
    pub symbol: &'static str,
    pub ret: &'static str,
    pub params: &'static [&'static str],
}

/// What kernels import, in table order. The first two are the allocation
/// functions `finalize-memref-to-llvm{use-generic-functions}` calls; the
/// third is MLIR's `memrefCopy` for strided copies.
pub const RUNTIME_IMPORTS: [RuntimeImport; 3] = [
    RuntimeImport { symbol: "_mlir_memref_to_llvm_alloc", ret: "ptr", params: &["i64"] },
    RuntimeImport { symbol: "_mlir_memref_to_llvm_free", ret: "void", params: &["ptr"] },
    RuntimeImport { symbol: "memrefCopy", ret: "void", params: &["i64", "ptr", "ptr"] },
];

/// The functions behind [`RUNTIME_IMPORTS`], in the same order.
pub fn runtime_import_table() -> [*const c_void; 3] {
    [
        crate::scratch::kernel_malloc as *const c_void,
        crate::scratch::kernel_free as *const c_void,
        crate::imports::memref_copy as *const c_void,
    ]
}

/// The ABI structs as the LLVM dialect spells them, and the field indices the
/// entry points address, for the compiler pass that emits them. A test
/// checks these against the Rust layout (`#[repr(C)]` above).
pub mod layout {
    /// `KernelCallFrame { u64 grid[3]; u64 workgroup[3]; u64 num_args; KernelArg *args; }`
    pub const FRAME_LLVM_TYPE: &str = "!llvm.struct<(array<3 x i64>, array<3 x i64>, i64, ptr)>";
    pub const FRAME_GRID: usize = 0;
    pub const FRAME_WORKGROUP: usize = 1;
    pub const FRAME_NUM_ARGS: usize = 2;
    pub const FRAME_ARGS: usize = 3;
    /// `KernelArg { void *ptr; u64 size; }`
    pub const ARG_LLVM_TYPE: &str = "!llvm.struct<(ptr, i64)>";
    pub const ARG_PTR: usize = 0;
    pub const ARG_SIZE: usize = 1;
    /// `KernelError { const char *message; }`
    pub const ERROR_LLVM_TYPE: &str = "!llvm.struct<(ptr)>";
}

/// One argument: base address and size in bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub ptr: *mut c_void,
    pub size: u64,
}

// SAFETY: an address and a size; dereferencing is the kernel's (unsafe) business,
// and the executor orders every access to the memory behind it.
unsafe impl Send for KernelArg {}
unsafe impl Sync for KernelArg {}

impl KernelArg {
    pub const NULL: KernelArg = KernelArg { ptr: std::ptr::null_mut(), size: 0 };
}

/// What a kernel sees: the grid, its own position in it, and the arguments,
/// inputs then outputs.
#[repr(C)]
#[derive(Debug)]
pub struct KernelCallFrame {
    pub grid: [u64; 3],
    pub workgroup: [u64; 3],
    pub num_args: u64,
    pub args: *const KernelArg,
}

impl KernelCallFrame {
    /// The arguments as a slice (for kernels written in Rust).
    ///
    /// # Safety
    /// `args` must point to `num_args` valid `KernelArg`s, as the runtime's
    /// frames always do.
    pub unsafe fn args(&self) -> &[KernelArg] {
        if self.num_args == 0 {
            return &[];
        }
        unsafe { std::slice::from_raw_parts(self.args, self.num_args as usize) }
    }
}

/// A kernel's failure. Kernels return a pointer to one that outlives the call
/// (in practice a constant), or NULL for success.
#[repr(C)]
#[derive(Debug)]
pub struct KernelError {
    /// NUL-terminated UTF-8, or NULL.
    pub message: *const c_char,
}

// SAFETY: a KernelError is immutable data meant to live in a static.
unsafe impl Sync for KernelError {}

pub type HostKernelFn = unsafe extern "C" fn(*const KernelCallFrame) -> *const KernelError;

/// Told about each call a parallel grid makes: the linear workgroups it ran
/// and when it started (traces use it).
pub type WorkgroupObserver<'a> = dyn Fn(Range<u64>, std::time::Instant) + Sync + 'a;

/// Number of workgroups in a grid, `None` on overflow.
pub fn num_workgroups(grid: [u64; 3]) -> Option<u64> {
    grid[0].checked_mul(grid[1])?.checked_mul(grid[2])
}

/// Linear workgroup index to grid position, x fastest.
pub fn workgroup_position(grid: [u64; 3], linear: u64) -> [u64; 3] {
    // One workgroup, or a grid along x (every kernel the CPU floor splits): no division.
    if linear == 0 {
        return [0; 3];
    }
    if grid[1] == 1 && grid[2] == 1 {
        return [linear, 0, 0];
    }
    let x = linear % grid[0];
    let rest = linear / grid[0];
    [x, rest % grid[1], rest / grid[1]]
}

/// A host kernel with a name for error messages.
#[derive(Clone, Debug)]
pub struct HostKernel {
    name: String,
    f: HostKernelFn,
}

impl HostKernel {
    /// # Safety
    /// `f` must follow the ABI above: touch only `[ptr, ptr + size)` of its
    /// arguments, write only outputs, and return NULL or a `KernelError` (with
    /// its message) that stays valid after the call.
    pub unsafe fn new(name: impl Into<String>, f: HostKernelFn) -> Self {
        Self { name: name.into(), f }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Calls the kernel once, for workgroup (0, 0, 0) of a one-workgroup
    /// grid: what every kernel that is not split costs per call. The frame is
    /// built here and the error, if any, converted only when there is one,
    /// so the path a loop of tiny kernels takes copies nothing large (a
    /// result or a grid moved through memory stalls on store forwarding).
    ///
    /// # Safety
    /// As [`HostKernel::call_workgroups`].
    #[inline]
    pub unsafe fn call_single(&self, args: &[KernelArg]) -> Result<(), RuntimeError> {
        let frame = KernelCallFrame { grid: [1; 3], workgroup: [0; 3], num_args: args.len() as u64, args: args.as_ptr() };
        // SAFETY: the frame is valid for the call and the arguments are the caller's contract.
        let err = unsafe { (self.f)(&frame) };
        if err.is_null() { Ok(()) } else { Err(self.error(err)) }
    }

    /// Calls the kernel for the linear workgroups in `workgroups`, in order,
    /// on this thread; stops at the first error.
    ///
    /// # Safety
    /// Every argument must be valid for its size for the whole call, and no
    /// one else may write an input or touch an output meanwhile.
    pub unsafe fn call_workgroups(&self, grid: [u64; 3], workgroups: Range<u64>, args: &[KernelArg]) -> Result<(), RuntimeError> {
        if workgroups.is_empty() {
            return Ok(());
        }

        // The first position by division, the next ones by carrying: no
        // 64-bit divisions per call (they were most of a tiny kernel's
        // overhead in a loop).
        let mut frame = KernelCallFrame {
            grid,
            workgroup: workgroup_position(grid, workgroups.start),
            num_args: args.len() as u64,
            args: args.as_ptr(),
        };
        for _ in workgroups {
            let err = unsafe { (self.f)(&frame) };
            if !err.is_null() {
                return Err(self.error(err));
            }
            let w = &mut frame.workgroup;
            w[0] += 1;
            if w[0] == grid[0] {
                w[0] = 0;
                w[1] += 1;
                if w[1] == grid[1] {
                    w[1] = 0;
                    w[2] += 1;
                }
            }
        }
        Ok(())
    }

    /// Calls every workgroup of `grid`, split recursively with `rayon::join`
    /// across the current rayon pool (the caller installs the one to use).
    /// The first error (lowest workgroup among those that failed) wins, and
    /// workgroups not yet started are skipped once one fails.
    ///
    /// # Safety
    /// As [`HostKernel::call_workgroups`].
    pub unsafe fn call_grid_parallel(&self, grid: [u64; 3], args: &[KernelArg]) -> Result<(), RuntimeError> {
        unsafe { self.call_grid_parallel_observed(grid, args, None) }
    }

    /// [`HostKernel::call_grid_parallel`], telling `observe` about every
    /// call it makes (the workgroups and when the call started), on the
    /// thread that made it, right after the call returns.
    ///
    /// # Safety
    /// As [`HostKernel::call_workgroups`].
    pub unsafe fn call_grid_parallel_observed(
        &self,
        grid: [u64; 3],
        args: &[KernelArg],
        observe: Option<&WorkgroupObserver>,
    ) -> Result<(), RuntimeError> {
        let n = self.checked_workgroups(grid)?;
        let failed = AtomicBool::new(false);
        self.split(grid, 0..n, args, &failed, observe)
    }

    fn split(
        &self,
        grid: [u64; 3],
        range: Range<u64>,
        args: &[KernelArg],
        failed: &AtomicBool,
        observe: Option<&WorkgroupObserver>,
    ) -> Result<(), RuntimeError> {
        if failed.load(Ordering::Relaxed) {
            return Ok(());
        }
        if range.end - range.start <= 1 {
            let start = observe.map(|_| std::time::Instant::now());
            // SAFETY: forwarded from call_grid_parallel's contract.
            let r = unsafe { self.call_workgroups(grid, range.clone(), args) };
            if let (Some(observe), Some(start)) = (observe, start) {
                observe(range, start);
            }
            if r.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            return r;
        }
        let mid = range.start + (range.end - range.start) / 2;
        let (lo, hi) = rayon::join(
            || self.split(grid, range.start..mid, args, failed, observe),
            || self.split(grid, mid..range.end, args, failed, observe),
        );
        lo.and(hi)
    }

    /// Number of workgroups, or an error for an overflowing grid.
    pub fn checked_workgroups(&self, grid: [u64; 3]) -> Result<u64, RuntimeError> {
        num_workgroups(grid).ok_or_else(|| RuntimeError::InvalidThunk {
            kind: "kernel",
            reason: format!("kernel `{}`: grid {grid:?} overflows u64", self.name),
        })
    }

    #[cold]
    fn error(&self, err: *const KernelError) -> RuntimeError {
        // SAFETY: the ABI says a non-NULL error and its message outlive the call.
        let msg = unsafe { (*err).message };
        let message =
            if msg.is_null() { "(no message)".to_string() } else { unsafe { CStr::from_ptr(msg) }.to_string_lossy().into_owned() };
        RuntimeError::KernelFailed { kernel: self.name.clone(), message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llvm_layout_matches_the_rust_structs() {
        use std::mem::{offset_of, size_of};
        // Natural C layout of the LLVM structs on a 64-bit target.
        assert_eq!(offset_of!(KernelCallFrame, grid), 0);
        assert_eq!(offset_of!(KernelCallFrame, workgroup), 24);
        assert_eq!(offset_of!(KernelCallFrame, num_args), 48);
        assert_eq!(offset_of!(KernelCallFrame, args), 56);
        assert_eq!(size_of::<KernelCallFrame>(), 64);
        assert_eq!((offset_of!(KernelArg, ptr), offset_of!(KernelArg, size), size_of::<KernelArg>()), (0, 8, 16));
        assert_eq!(size_of::<KernelError>(), 8);
        assert!(layout::FRAME_LLVM_TYPE.contains("array<3 x i64>, array<3 x i64>, i64, ptr"));
        assert_eq!(layout::ARG_LLVM_TYPE, "!llvm.struct<(ptr, i64)>");
    }
    use std::sync::atomic::AtomicU32;

    static FAIL: KernelError = KernelError { message: c"workgroup 5 is cursed".as_ptr() };

    /// Counts each workgroup in the u32 output at its linear index; fails on 5
    /// when the single input byte is 1.
    unsafe extern "C" fn count(frame: *const KernelCallFrame) -> *const KernelError {
        let f = unsafe { &*frame };
        let args = unsafe { f.args() };
        let [x, y, z] = f.workgroup;
        let linear = x + f.grid[0] * (y + f.grid[1] * z);
        let fail = unsafe { *(args[0].ptr as *const u8) } == 1;
        if fail && linear == 5 {
            return &FAIL;
        }
        let out = args[1].ptr as *const AtomicU32;
        unsafe { (*out.add(linear as usize)).fetch_add(1, Ordering::Relaxed) };
        std::ptr::null()
    }

    fn run(grid: [u64; 3], fail: u8, parallel: bool) -> (Result<(), RuntimeError>, Vec<u32>) {
        let n = num_workgroups(grid).unwrap() as usize;
        let mut flag = [fail];
        let mut counts = vec![0u32; n];
        let args =
            [KernelArg { ptr: flag.as_mut_ptr().cast(), size: 1 }, KernelArg { ptr: counts.as_mut_ptr().cast(), size: 4 * n as u64 }];
        let k = unsafe { HostKernel::new("count", count) };
        let r = if parallel {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
            pool.install(|| unsafe { k.call_grid_parallel(grid, &args) })
        } else {
            unsafe { k.call_workgroups(grid, 0..n as u64, &args) }
        };
        (r, counts)
    }

    #[test]
    fn positions_are_x_fastest() {
        assert_eq!(workgroup_position([4, 3, 2], 0), [0, 0, 0]);
        assert_eq!(workgroup_position([4, 3, 2], 5), [1, 1, 0]);
        assert_eq!(workgroup_position([4, 3, 2], 23), [3, 2, 1]);
        assert_eq!(num_workgroups([u64::MAX, 2, 1]), None);
    }

    #[test]
    fn a_range_from_the_middle_of_a_grid_carries_positions() {
        let grid = [5, 3, 2];
        let mut flag = [0u8];
        let mut counts = vec![0u32; 30];
        let args = [KernelArg { ptr: flag.as_mut_ptr().cast(), size: 1 }, KernelArg { ptr: counts.as_mut_ptr().cast(), size: 120 }];
        let k = unsafe { HostKernel::new("count", count) };
        unsafe { k.call_workgroups(grid, 7..23, &args) }.unwrap();
        let want: Vec<u32> = (0..30).map(|i| u32::from((7..23).contains(&i))).collect();
        assert_eq!(counts, want);
    }

    #[test]
    fn every_workgroup_runs_once() {
        for parallel in [false, true] {
            let (r, counts) = run([5, 3, 2], 0, parallel);
            r.unwrap();
            assert!(counts.iter().all(|&c| c == 1), "{counts:?}");
        }
    }

    #[test]
    fn kernel_error_is_returned_with_its_message() {
        for parallel in [false, true] {
            let (r, _) = run([8, 1, 1], 1, parallel);
            assert_eq!(r.unwrap_err().to_string(), "kernel `count` failed: workgroup 5 is cursed");
        }
    }
}
