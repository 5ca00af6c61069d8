//! Scratch memory of kernels: the `malloc`/`free` the JIT'd kernels call.
//!
//! Kernels allocate their temporaries (packed matmul panels, intermediates
//! that bufferization could not place) on every call. Through libc, blocks
//! above its mmap threshold (128 KiB) are fresh mappings each time: every
//! call pays page faults, zeroing and munmap — 18% of a 1024³ matmul here.
//! Big blocks are therefore kept on free and handed out again for the same
//! size (kernels ask for the same sizes call after call); small blocks go
//! straight to libc. Every block carries its size in a 16-byte header, so
//! `free` knows where it goes and alignment stays libc's 16 bytes.

use std::{
    collections::HashMap,
    ffi::c_void,
    sync::{LazyLock, Mutex},
};

/// Blocks at least this big are cached.
const CACHED_MIN: usize = 64 << 10;
/// At most this many cached blocks per size, and this many bytes in all.
const PER_SIZE: usize = 16;
const TOTAL: usize = 1 << 30;
const HEADER: usize = 16;

unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
}

#[derive(Default)]
struct Cache {
    blocks: HashMap<usize, Vec<usize>>,
    bytes: usize,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(Cache::default()));

/// `malloc` for kernels.
///
/// # Safety
/// The block must be released with [`kernel_free`] only (it carries a header).
pub unsafe extern "C" fn kernel_malloc(size: usize) -> *mut c_void {
    if size >= CACHED_MIN
        && let Ok(mut c) = CACHE.lock()
        && let Some(p) = c.blocks.get_mut(&size).and_then(|v| v.pop())
    {
        c.bytes -= size;
        return (p + HEADER) as *mut c_void;
    }
    let Some(total) = size.checked_add(HEADER) else { return std::ptr::null_mut() };
    unsafe {
        let base = malloc(total) as *mut usize;
        if base.is_null() {
            return std::ptr::null_mut();
        }
        base.write(size);
        (base as *mut u8).add(HEADER) as *mut c_void
    }
}

/// `free` for kernels.
///
/// # Safety
/// `ptr` is NULL or came from [`kernel_malloc`] and is not used afterwards.
pub unsafe extern "C" fn kernel_free(ptr: *mut c_void) {
    if ptr.is_null() {
        return;
    }
    unsafe {
        let base = (ptr as *mut u8).sub(HEADER);
        let size = (base as *const usize).read();
        if size >= CACHED_MIN
            && let Ok(mut c) = CACHE.lock()
        {
            let fits = c.bytes + size <= TOTAL;
            let list = c.blocks.entry(size).or_default();
            if fits && list.len() < PER_SIZE {
                list.push(base as usize);
                c.bytes += size;
                return;
            }
        }
        free(base as *mut c_void);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_blocks_are_reused_small_ones_are_not_cached() {
        unsafe {
            let size = (1 << 20) + 48; // a size no kernel of another test asks for
            let a = kernel_malloc(size);
            assert!(!a.is_null());
            std::ptr::write_bytes(a as *mut u8, 7, size);
            kernel_free(a);
            let b = kernel_malloc(size);
            assert_eq!(a, b, "a freed big block comes back for the same size");
            kernel_free(b);
            let s = kernel_malloc(100);
            assert_eq!(s as usize % 16, 0);
            kernel_free(s);
            assert!(kernel_malloc(usize::MAX).is_null());
        }
    }
}
