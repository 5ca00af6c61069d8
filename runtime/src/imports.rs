//! Functions compiled kernels call in the runtime (see
//! `kernel_abi::RUNTIME_IMPORTS`); the allocation pair is in [`crate::scratch`].

/// An unranked memref as MLIR passes it: rank and a pointer to the ranked
/// descriptor.
#[repr(C)]
pub struct UnrankedMemRef {
    pub rank: i64,
    pub descriptor: *const i64,
}

/// `memrefCopy`, which `finalize-memref-to-llvm` calls for a `memref.copy`
/// between non-contiguous memrefs (e.g. into a subview); the same contract as
/// MLIR's `libmlir_c_runner_utils` (which floors does not need): two unranked
/// memrefs `{rank, descriptor*}` with descriptors `{allocated, aligned, offset,
/// sizes[rank], strides[rank]}` in elements. Kernels reach it through the
/// runtime import table (`kernel_abi::RUNTIME_IMPORTS`).
///
/// # Safety
/// Both descriptors must be valid memrefs of the same shape whose elements
/// are `elem_size` bytes, as the lowered `memref.copy` passes them.
pub unsafe extern "C" fn memref_copy(elem_size: i64, src: *const UnrankedMemRef, dst: *const UnrankedMemRef) {
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
