//! The simulated device's global memory.
//!
//! Every allocation is a region of its own address range, 256-byte aligned,
//! with an unmapped gap after it, so an access past a buffer's end faults
//! instead of reading its neighbour. Blocks of a launch run on several host
//! threads at once, so every access is an atomic (relaxed) load or store of
//! its natural size: plain moves on x86, and no data race in Rust's sense
//! however the simulated program races. Each byte has a shadow byte: 1 once
//! it was written (by the host or a kernel) — `initcheck` reads it.
//!
//! Generic addresses (PTX ISA §5.1.1, "generic addressing") of the shared
//! and local windows: shared address `a` is generic `SHARED_WINDOW + a`,
//! local address `a` is generic `LOCAL_WINDOW + a`; global addresses are
//! generic addresses themselves (below both windows).

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use crate::{SimError, SimResult};

pub const SHARED_WINDOW: u64 = 1 << 48;
pub const LOCAL_WINDOW: u64 = 2 << 48;
/// Where the first allocation starts (nothing below it is mapped: a null
/// pointer, or a small integer used as one, faults).
const FIRST: u64 = 1 << 32;
const GAP: u64 = 1 << 16;
/// The simulated device's global memory, bytes (each byte takes two on the
/// host: its value and its initialization shadow).
pub const CAPACITY: u64 = 8 << 30;

struct Region {
    base: u64,
    size: u64,
    name: String,
    /// The bytes, in 8-byte words (so every naturally aligned access is aligned on the host too).
    data: Box<[AtomicU64]>,
    init: Box<[AtomicU8]>,
}

impl Region {
    fn ptr(&self, off: u64) -> *const u8 {
        // SAFETY: callers pass off < size ≤ data.len() * 8.
        unsafe { (self.data.as_ptr() as *const u8).add(off as usize) }
    }
}

/// The device's global memory.
#[derive(Default)]
pub struct GlobalMemory {
    regions: Vec<Region>,
}

impl GlobalMemory {
    pub fn new() -> Self {
        Self::default()
    }

    /// Allocates `size` bytes (contents zero but uninitialized for
    /// `initcheck`); returns the device address. The simulated device holds
    /// at most [`CAPACITY`] bytes in all: more is an error (a program that
    /// big does not fit this host), never an abort.
    pub fn alloc(&mut self, size: u64, name: impl Into<String>) -> SimResult<u64> {
        let name = name.into();
        let used: u64 = self.regions.iter().map(|r| r.size).sum();
        if size > CAPACITY || used + size > CAPACITY {
            return Err(SimError::Memory(format!(
                "allocating {size} bytes for {name}: the simulated device holds {CAPACITY} bytes ({used} in use)"
            )));
        }
        let base = match self.regions.last() {
            Some(r) => (r.base + r.size + GAP).div_ceil(256) * 256,
            None => FIRST,
        };
        let words = size.div_ceil(8) as usize;
        self.regions.push(Region {
            base,
            size,
            name,
            data: (0..words).map(|_| AtomicU64::new(0)).collect(),
            init: (0..size as usize).map(|_| AtomicU8::new(0)).collect(),
        });
        Ok(base)
    }

    /// The region holding `[addr, addr + len)`, and the offset in it.
    fn find(&self, addr: u64, len: u64) -> Option<(&Region, u64)> {
        let i = self.regions.partition_point(|r| r.base <= addr).checked_sub(1)?;
        let r = &self.regions[i];
        let off = addr - r.base;
        (off.checked_add(len)? <= r.size).then_some((r, off))
    }

    /// The name of the allocation `addr` is in or nearest below, for messages.
    pub fn describe(&self, addr: u64) -> String {
        let i = self.regions.partition_point(|r| r.base <= addr);
        match i.checked_sub(1).map(|i| &self.regions[i]) {
            Some(r) if addr < r.base + r.size => format!("{:#x} ({} + {})", addr, r.name, addr - r.base),
            Some(r) => format!("{:#x} ({} bytes past the end of {}, {} bytes)", addr, addr - (r.base + r.size), r.name, r.size),
            None => format!("{addr:#x} (below every allocation)"),
        }
    }

    /// Whether `[addr, addr + len)` lies in one allocation.
    pub fn contains(&self, addr: u64, len: u64) -> bool {
        self.find(addr, len).is_some()
    }

    /// A naturally aligned load of `size` ∈ {1, 2, 4, 8} bytes; `None`
    /// outside every allocation. The caller checked alignment.
    pub(crate) fn load(&self, addr: u64, size: u32) -> Option<u64> {
        let (r, off) = self.find(addr, size as u64)?;
        let p = r.ptr(off);
        // SAFETY: p is inside the region's words and aligned to `size`
        // (allocations are 256-aligned, the caller checked addr % size);
        // atomics of the size have the layout of the integer.
        Some(unsafe {
            match size {
                1 => (*(p as *const AtomicU8)).load(Relaxed) as u64,
                2 => (*(p as *const AtomicU16)).load(Relaxed) as u64,
                4 => (*(p as *const AtomicU32)).load(Relaxed) as u64,
                _ => (*(p as *const AtomicU64)).load(Relaxed),
            }
        })
    }

    /// A naturally aligned store; false outside every allocation.
    pub(crate) fn store(&self, addr: u64, size: u32, v: u64) -> bool {
        let Some((r, off)) = self.find(addr, size as u64) else { return false };
        let p = r.ptr(off);
        // SAFETY: as in `load`.
        unsafe {
            match size {
                1 => (*(p as *const AtomicU8)).store(v as u8, Relaxed),
                2 => (*(p as *const AtomicU16)).store(v as u16, Relaxed),
                4 => (*(p as *const AtomicU32)).store(v as u32, Relaxed),
                _ => (*(p as *const AtomicU64)).store(v, Relaxed),
            }
        }
        for b in 0..size as u64 {
            r.init[(off + b) as usize].store(1, Relaxed);
        }
        true
    }

    /// An atomic read-modify-write of 4 or 8 bytes: `f(old) -> new`, returns old.
    pub(crate) fn rmw(&self, addr: u64, size: u32, f: impl Fn(u64) -> u64) -> Option<u64> {
        let (r, off) = self.find(addr, size as u64)?;
        let p = r.ptr(off);
        for b in 0..size as u64 {
            r.init[(off + b) as usize].store(1, Relaxed);
        }
        // SAFETY: as in `load`.
        unsafe {
            Some(match size {
                4 => {
                    let a = &*(p as *const AtomicU32);
                    let mut old = a.load(Relaxed);
                    loop {
                        match a.compare_exchange_weak(old, f(old as u64) as u32, Relaxed, Relaxed) {
                            Ok(o) => break o as u64,
                            Err(o) => old = o,
                        }
                    }
                }
                8 => {
                    let a = &*(p as *const AtomicU64);
                    let mut old = a.load(Relaxed);
                    loop {
                        match a.compare_exchange_weak(old, f(old), Relaxed, Relaxed) {
                            Ok(o) => break o,
                            Err(o) => old = o,
                        }
                    }
                }
                _ => {
                    let a = &*(p as *const AtomicU16);
                    let mut old = a.load(Relaxed);
                    loop {
                        match a.compare_exchange_weak(old, f(old as u64) as u16, Relaxed, Relaxed) {
                            Ok(o) => break o as u64,
                            Err(o) => old = o,
                        }
                    }
                }
            })
        }
    }

    /// Whether every byte of `[addr, addr + len)` was written.
    pub(crate) fn initialized(&self, addr: u64, len: u64) -> bool {
        match self.find(addr, len) {
            Some((r, off)) => (off..off + len).all(|b| r.init[b as usize].load(Relaxed) != 0),
            None => false,
        }
    }

    /// The first byte of `[addr, addr + len)` never written, if any.
    pub fn first_uninitialized(&self, addr: u64, len: u64) -> Option<u64> {
        let (r, off) = self.find(addr, len)?;
        (off..off + len).find(|&b| r.init[b as usize].load(Relaxed) == 0).map(|b| r.base + b)
    }

    fn range(&self, addr: u64, len: u64, what: &str) -> SimResult<(&Region, u64)> {
        self.find(addr, len)
            .ok_or_else(|| SimError::Memory(format!("{what} of {len} bytes at {}: outside every allocation", self.describe(addr))))
    }

    /// Host to device (marks the bytes written).
    pub fn write(&self, addr: u64, bytes: &[u8]) -> SimResult<()> {
        let (r, off) = self.range(addr, bytes.len() as u64, "an upload")?;
        for (k, &b) in bytes.iter().enumerate() {
            let o = off + k as u64;
            // SAFETY: inside the region (checked by `range`).
            unsafe { (*(r.ptr(o) as *const AtomicU8)).store(b, Relaxed) };
            r.init[o as usize].store(1, Relaxed);
        }
        Ok(())
    }

    /// Device to host.
    pub fn read(&self, addr: u64, len: u64) -> SimResult<Vec<u8>> {
        let (r, off) = self.range(addr, len, "a download")?;
        // SAFETY: inside the region (checked by `range`).
        Ok((off..off + len).map(|o| unsafe { (*(r.ptr(o) as *const AtomicU8)).load(Relaxed) }).collect())
    }

    /// Device to device (`cuMemcpyDtoD`): bytes and their initialization.
    pub fn copy(&self, from: u64, to: u64, len: u64) -> SimResult<()> {
        let (rs, os) = self.range(from, len, "a copy's source")?;
        let (rd, od) = self.range(to, len, "a copy's destination")?;
        let bytes = self.read(from, len)?;
        let init: Vec<u8> = (os..os + len).map(|o| rs.init[o as usize].load(Relaxed)).collect();
        for (k, &b) in bytes.iter().enumerate() {
            let o = od + k as u64;
            // SAFETY: inside the region (checked by `range`).
            unsafe { (*(rd.ptr(o) as *const AtomicU8)).store(b, Relaxed) };
            rd.init[o as usize].store(init[k], Relaxed);
        }
        Ok(())
    }

    /// Allocates and initializes a module's `.global`/`.const` variables
    /// (what `cuModuleLoad` does); returns each one's `(address, bytes)`, the
    /// `globals` a launch of the module takes.
    pub fn load_globals(&mut self, module: &crate::Module, name: &str) -> SimResult<Vec<(u64, u64)>> {
        let mut out = Vec::new();
        for g in &module.globals {
            let a = self.alloc(g.size.max(1), format!("{name} variable {}", g.name))?;
            let mut bytes = g.init.clone();
            bytes.resize(g.size as usize, 0);
            if !bytes.is_empty() {
                self.write(a, &bytes)?;
            }
            out.push((a, g.size));
        }
        Ok(out)
    }

    /// `cuMemsetD8`/`cuMemsetD32`: `pattern` repeated over `len` bytes.
    pub fn fill(&self, addr: u64, len: u64, pattern: &[u8]) -> SimResult<()> {
        let bytes: Vec<u8> = pattern.iter().copied().cycle().take(len as usize).collect();
        self.write(addr, &bytes)
    }
}
