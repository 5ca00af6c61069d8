//! Buffer slices, their uses by thunks, and the base pointers of one
//! execution.

use std::alloc::{Layout, alloc_zeroed, dealloc};
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

/// A zeroed, owned host buffer with a chosen alignment (kernels vectorize
/// with aligned loads, so temporaries are 64-byte aligned by default).
pub struct AlignedBuffer {
    ptr: NonNull<u8>,
    len: usize,
    /// What was allocated: at least one byte.
    layout: Layout,
}

// SAFETY: plain owned bytes.
unsafe impl Send for AlignedBuffer {}
unsafe impl Sync for AlignedBuffer {}

impl AlignedBuffer {
    pub const DEFAULT_ALIGN: usize = 64;

    pub fn zeroed(size: usize, align: usize) -> Result<Self, RuntimeError> {
        let bad = |reason: String| RuntimeError::BadBuffer { allocation: usize::MAX, reason };
        // Zero-size allocations are UB for the global allocator: round up.
        let layout = Layout::from_size_align(size.max(1), align).map_err(|e| bad(format!("size {size}, alignment {align}: {e}")))?;
        let ptr = NonNull::new(unsafe { alloc_zeroed(layout) }).ok_or_else(|| bad(format!("out of memory allocating {size} bytes")))?;
        Ok(Self { ptr, len: size, layout })
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
}

impl Drop for AlignedBuffer {
    fn drop(&mut self) {
        unsafe { dealloc(self.ptr.as_ptr(), self.layout) }
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
}
