//! Buffer slices, their uses by thunks, and the base pointers of one
//! execution.

use std::alloc::{Layout, alloc, alloc_zeroed, dealloc};
use std::marker::PhantomData;
use std::ptr::NonNull;

use super::error::RuntimeError;

/// Index of an allocation in [`BufferAllocations`] (and in a buffer assignment).
pub type AllocationIndex = usize;

/// `size` bytes at `offset` inside one allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct BufferSlice {
    pub allocation: AllocationIndex,
    pub offset: u64,
    pub size: u64,
}

impl BufferSlice {
    pub const fn new(allocation: AllocationIndex, offset: u64, size: u64) -> Self {
        Self { allocation, offset, size }
    }

    /// Same allocation and a common byte. Empty slices overlap nothing.
    pub fn overlaps(&self, other: &BufferSlice) -> bool {
        self.allocation == other.allocation
            && self.size > 0
            && other.size > 0
            && self.offset < other.offset.saturating_add(other.size)
            && other.offset < self.offset.saturating_add(self.size)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    Read,
    Write,
}

/// How a thunk touches a slice; the executor orders thunks by these alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferUse {
    pub slice: BufferSlice,
    pub access: Access,
}

impl BufferUse {
    pub const fn read(slice: BufferSlice) -> Self {
        Self { slice, access: Access::Read }
    }

    pub const fn write(slice: BufferSlice) -> Self {
        Self { slice, access: Access::Write }
    }

    /// Two uses must be ordered when they overlap and at least one writes.
    pub fn conflicts(&self, other: &BufferUse) -> bool {
        (self.access == Access::Write || other.access == Access::Write) && self.slice.overlaps(&other.slice)
    }
}

/// Base pointer and size of every allocation for one execution.
///
/// Holds raw pointers so that thunks running on different threads can each
/// reach their slices; the executor's dependency edges are what keep a
/// writer from racing another user of the same bytes.
pub struct BufferAllocations<'a> {
    bases: Vec<(*mut u8, u64)>,
    _borrow: PhantomData<&'a mut [u8]>,
}

// SAFETY: the pointers come from exclusive borrows (or a caller's promise in
// `from_raw`) that outlive `'a`; concurrent access is ordered by the executor.
unsafe impl Send for BufferAllocations<'_> {}
unsafe impl Sync for BufferAllocations<'_> {}

impl<'a> BufferAllocations<'a> {
    /// One allocation per mutable byte slice, in order.
    pub fn new(buffers: impl IntoIterator<Item = &'a mut [u8]>) -> Self {
        let bases = buffers.into_iter().map(|b| (b.as_mut_ptr(), b.len() as u64)).collect();
        Self { bases, _borrow: PhantomData }
    }

    /// # Safety
    /// Each `(ptr, size)` must be valid for reads and writes of `size` bytes
    /// for `'a`, and nothing outside the executor may touch them meanwhile.
    pub unsafe fn from_raw(bases: Vec<(*mut u8, u64)>) -> Self {
        Self { bases, _borrow: PhantomData }
    }

    pub fn len(&self) -> usize {
        self.bases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bases.is_empty()
    }

    /// Bounds-checked address of a slice's first byte.
    pub fn slice_ptr(&self, slice: &BufferSlice) -> Result<*mut u8, RuntimeError> {
        let bad = |reason: String| RuntimeError::BadBuffer { allocation: slice.allocation, reason };
        let &(base, len) =
            self.bases.get(slice.allocation).ok_or_else(|| bad(format!("no such allocation (execution has {})", self.bases.len())))?;
        match slice.offset.checked_add(slice.size) {
            Some(end) if end <= len => {}
            _ => {
                return Err(bad(format!("slice [{}, +{}) out of bounds of {len} bytes", slice.offset, slice.size)));
            }
        }
        // In bounds, so the offset fits in usize and the add stays inside.
        Ok(unsafe { base.add(slice.offset as usize) })
    }

    /// # Safety
    /// No thunk may write the slice while the returned borrow lives.
    pub unsafe fn slice_bytes(&self, slice: &BufferSlice) -> Result<&[u8], RuntimeError> {
        let p = self.slice_ptr(slice)?;
        Ok(unsafe { std::slice::from_raw_parts(p, slice.size as usize) })
    }

    /// # Safety
    /// Nothing else may touch the slice while the returned borrow lives.
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slice_bytes_mut(&self, slice: &BufferSlice) -> Result<&mut [u8], RuntimeError> {
        let p = self.slice_ptr(slice)?;
        Ok(unsafe { std::slice::from_raw_parts_mut(p, slice.size as usize) })
    }
}

/// An owned host buffer with a chosen alignment: the bytes of every
/// [`crate::npy::HostArray`] (64-byte aligned, so results and inputs start
/// on a cache line: kernels may use aligned vector loads and the
/// non-temporal stores that need 64-byte alignment on big outputs) and the
/// executor's temporaries.
pub struct AlignedBuffer {
    ptr: NonNull<u8>,
    len: usize,
    /// What was allocated: at least one byte.
    layout: Layout,
}

// SAFETY: plain owned bytes.
unsafe impl Send for AlignedBuffer {}
unsafe impl Sync for AlignedBuffer {}

/// x86-64's huge page.
const HUGE_PAGE_BYTES: usize = 2 << 20;
/// Buffers from this size on are 2 MiB-aligned and asked to be backed by
/// transparent huge pages: a streaming kernel over 64 MB otherwise takes a
/// TLB miss every 4 KB.
const HUGE_PAGE_MIN_BYTES: usize = 4 << 20;

impl AlignedBuffer {
    pub const DEFAULT_ALIGN: usize = 64;

    pub fn zeroed(size: usize, align: usize) -> Result<Self, RuntimeError> {
        Self::allocate(size, align, true)
    }

    fn allocate(size: usize, align: usize, zero: bool) -> Result<Self, RuntimeError> {
        let bad = |reason: String| RuntimeError::BadBuffer { allocation: usize::MAX, reason };
        // Zero-size allocations are UB for the global allocator: round up.
        let huge = size >= HUGE_PAGE_MIN_BYTES;
        let align = if huge { align.max(HUGE_PAGE_BYTES) } else { align };
        let layout = Layout::from_size_align(size.max(1), align).map_err(|e| bad(format!("size {size}, alignment {align}: {e}")))?;
        let raw = unsafe { if zero { alloc_zeroed(layout) } else { alloc(layout) } };
        let ptr = NonNull::new(raw).ok_or_else(|| bad(format!("out of memory allocating {size} bytes")))?;
        if huge {
            // Fresh (untouched) pages: ask for transparent huge pages, which
            // Linux's default `madvise` mode gives only on request. A refusal
            // (THP off, another OS) leaves ordinary pages: nothing to report.
            #[cfg(target_os = "linux")]
            unsafe {
                libc::madvise(raw.cast(), size.next_multiple_of(HUGE_PAGE_BYTES), libc::MADV_HUGEPAGE)
            };
        }
        Ok(Self { ptr, len: size, layout })
    }

    /// `size` zero bytes, [`Self::DEFAULT_ALIGN`]-aligned; out of memory
    /// aborts, as for a `Vec`.
    pub fn zeros(size: usize) -> Self {
        Self::zeroed(size, Self::DEFAULT_ALIGN).unwrap_or_else(|e| alloc_failed(size, e))
    }

    /// A [`Self::DEFAULT_ALIGN`]-aligned copy of `bytes`.
    pub fn copy_from(bytes: &[u8]) -> Self {
        Self::copy_aligned(bytes, Self::DEFAULT_ALIGN)
    }

    fn copy_aligned(bytes: &[u8], align: usize) -> Self {
        let mut b = Self::allocate(bytes.len(), align, false).unwrap_or_else(|e| alloc_failed(bytes.len(), e));
        // SAFETY: `b` owns `bytes.len()` fresh (uninitialized) bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), b.ptr.as_ptr(), bytes.len()) };
        b.len = bytes.len();
        b
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[u8] {
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len()) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len()) }
    }

    /// The bytes as a `Vec` (a copy).
    pub fn into_vec(self) -> Vec<u8> {
        self.as_slice().to_vec()
    }
}

#[cold]
fn alloc_failed(size: usize, e: RuntimeError) -> ! {
    match Layout::from_size_align(size.max(1), AlignedBuffer::DEFAULT_ALIGN) {
        Ok(layout) => std::alloc::handle_alloc_error(layout),
        Err(_) => panic!("{e}"),
    }
}

impl Drop for AlignedBuffer {
    fn drop(&mut self) {
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
    }
}

impl Default for AlignedBuffer {
    fn default() -> Self {
        Self::zeros(0)
    }
}

impl Clone for AlignedBuffer {
    fn clone(&self) -> Self {
        Self::copy_aligned(self.as_slice(), self.layout.align())
    }
}

impl std::ops::Deref for AlignedBuffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for AlignedBuffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.as_mut_slice()
    }
}

impl AsRef<[u8]> for AlignedBuffer {
    fn as_ref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl std::fmt::Debug for AlignedBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl PartialEq for AlignedBuffer {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for AlignedBuffer {}

impl PartialEq<[u8]> for AlignedBuffer {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<u8>> for AlignedBuffer {
    fn eq(&self, other: &Vec<u8>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<Vec<u8>> for AlignedBuffer {
    fn from(v: Vec<u8>) -> Self {
        Self::copy_from(&v)
    }
}

impl From<&[u8]> for AlignedBuffer {
    fn from(v: &[u8]) -> Self {
        Self::copy_from(v)
    }
}

impl FromIterator<u8> for AlignedBuffer {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        Self::copy_from(&iter.into_iter().collect::<Vec<u8>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap_needs_same_allocation_and_a_common_byte() {
        let a = BufferSlice::new(0, 0, 16);
        assert!(a.overlaps(&BufferSlice::new(0, 15, 4)));
        assert!(!a.overlaps(&BufferSlice::new(0, 16, 4)), "adjacent is disjoint");
        assert!(!a.overlaps(&BufferSlice::new(1, 0, 16)), "other allocation");
        assert!(!a.overlaps(&BufferSlice::new(0, 4, 0)), "empty slice");
        assert!(!BufferSlice::new(0, u64::MAX, 2).overlaps(&a), "no overflow");
    }

    #[test]
    fn conflicts_need_a_writer() {
        let s = BufferSlice::new(0, 0, 8);
        assert!(!BufferUse::read(s).conflicts(&BufferUse::read(s)));
        assert!(BufferUse::read(s).conflicts(&BufferUse::write(s)));
        assert!(BufferUse::write(s).conflicts(&BufferUse::write(s)));
    }

    #[test]
    fn slice_ptr_is_bounds_checked() {
        let mut a = vec![0u8; 8];
        let allocs = BufferAllocations::new([a.as_mut_slice()]);
        assert!(allocs.slice_ptr(&BufferSlice::new(0, 4, 4)).is_ok());
        let err = allocs.slice_ptr(&BufferSlice::new(0, 4, 5)).unwrap_err();
        assert!(err.to_string().contains("out of bounds of 8 bytes"), "{err}");
        let err = allocs.slice_ptr(&BufferSlice::new(3, 0, 1)).unwrap_err();
        assert!(err.to_string().contains("allocation 3: no such allocation"), "{err}");
        assert!(allocs.slice_ptr(&BufferSlice::new(0, u64::MAX, 2)).is_err());
    }

    #[test]
    fn aligned_buffer_is_aligned_and_zeroed() {
        let mut b = AlignedBuffer::zeroed(100, 64).unwrap();
        assert_eq!(b.as_slice().as_ptr() as usize % 64, 0);
        assert!(b.as_slice().iter().all(|&x| x == 0));
        b.as_mut_slice()[99] = 7;
        assert_eq!(b.len(), 100);
        assert!(AlignedBuffer::zeroed(0, 64).unwrap().is_empty());
        assert!(AlignedBuffer::zeroed(8, 3).is_err());
    }

    /// Big buffers start on a huge page (so the kernel may back them with
    /// transparent huge pages) and still hold what they are given.
    #[test]
    fn big_buffers_start_on_a_huge_page() {
        let z = AlignedBuffer::zeroed(HUGE_PAGE_MIN_BYTES + 3, 64).unwrap();
        assert_eq!(z.as_slice().as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        assert!(z.as_slice().iter().all(|&x| x == 0));
        let v: Vec<u8> = (0..HUGE_PAGE_MIN_BYTES).map(|i| (i % 251) as u8).collect();
        let c = AlignedBuffer::copy_from(&v);
        assert_eq!(c.as_slice().as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        assert_eq!(c.as_slice(), v.as_slice());
        let small = AlignedBuffer::zeroed(HUGE_PAGE_MIN_BYTES - 1, 64).unwrap();
        assert_eq!(small.as_slice().as_ptr() as usize % 64, 0);
    }

    #[test]
    fn aligned_buffer_copies_stay_aligned() {
        let v: Vec<u8> = (0..=200).collect();
        let a = AlignedBuffer::from(v.clone());
        assert_eq!(a.as_ptr() as usize % 64, 0);
        assert_eq!(a, v);
        let b = a.clone();
        assert_eq!(b.as_ptr() as usize % 64, 0);
        assert_eq!(b, a);
        assert_eq!(b.into_vec(), v);
        let e = AlignedBuffer::default();
        assert!(e.is_empty() && e.clone().is_empty());
        assert_eq!(AlignedBuffer::zeros(3).as_ref(), &[0, 0, 0]);
    }
}
