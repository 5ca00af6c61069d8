//! Buffer assignment: every logical buffer gets a slice. Parameters and
//! results get an allocation each (the caller owns them, so they are never
//! reused); temporaries share one allocation, packed by liveness.
//!
//! Packing is XLA's "global decreasing size, best fit": largest buffers first,
//! each at the smallest aligned gap left by the buffers already placed whose
//! live ranges intersect its own.

use super::buffer::BufferSlice;
use super::error::RuntimeError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// Entry parameter `n`.
    Parameter(usize),
    /// Entry result `n`.
    Result(usize),
    Temp,
}

/// A value that needs memory, live over thunks `first_def..=last_use`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalBuffer {
    pub size: u64,
    /// A power of two.
    pub alignment: u64,
    pub first_def: usize,
    pub last_use: usize,
    pub kind: BufferKind,
}

impl LogicalBuffer {
    pub fn temp(size: u64, alignment: u64, first_def: usize, last_use: usize) -> Self {
        Self { size, alignment, first_def, last_use, kind: BufferKind::Temp }
    }

    fn live_with(&self, other: &LogicalBuffer) -> bool {
        self.first_def <= other.last_use && other.first_def <= self.last_use
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    pub size: u64,
    pub alignment: u64,
    /// `Parameter`/`Result` for a caller's buffer, `Temp` for the shared one.
    pub kind: BufferKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferAssignment {
    /// Parameters and results in the order given, then the temp allocation
    /// (if any temporaries).
    pub allocations: Vec<Allocation>,
    /// The slice of each logical buffer, in input order.
    pub slices: Vec<BufferSlice>,
    /// Size of the temp allocation.
    pub temp_bytes: u64,
    /// The most temp bytes live at once: a lower bound for `temp_bytes`.
    pub live_temp_bytes: u64,
    /// Temp bytes with no reuse at all.
    pub unshared_temp_bytes: u64,
    /// Everything one execution holds: parameters, results and temps.
    pub peak_bytes: u64,
}

pub fn assign_buffers(buffers: &[LogicalBuffer]) -> Result<BufferAssignment, RuntimeError> {
    for (index, b) in buffers.iter().enumerate() {
        let bad = |reason: String| Err(RuntimeError::BadLogicalBuffer { index, reason });
        if !b.alignment.is_power_of_two() {
            return bad(format!("alignment {} is not a power of two", b.alignment));
        }
        if b.first_def > b.last_use {
            return bad(format!("defined at {} after its last use at {}", b.first_def, b.last_use));
        }
    }
    let overflow = |index| RuntimeError::BadLogicalBuffer { index, reason: "offset overflows u64".into() };

    let mut allocations = Vec::new();
    let mut slices = vec![BufferSlice::new(0, 0, 0); buffers.len()];
    let mut peak_bytes = 0u64;
    for (i, b) in buffers.iter().enumerate() {
        if b.kind != BufferKind::Temp {
            slices[i] = BufferSlice::new(allocations.len(), 0, b.size);
            allocations.push(Allocation { size: b.size, alignment: b.alignment, kind: b.kind });
            peak_bytes = peak_bytes.checked_add(b.size).ok_or_else(|| overflow(i))?;
        }
    }

    let mut temps: Vec<usize> = (0..buffers.len()).filter(|&i| buffers[i].kind == BufferKind::Temp).collect();
    let temp_alloc = allocations.len();
    // Largest first; ties by definition order so the result is deterministic.
    temps.sort_by_key(|&i| (std::cmp::Reverse(buffers[i].size), buffers[i].first_def, i));
    let mut placed: Vec<(usize, u64)> = Vec::with_capacity(temps.len()); // (buffer, offset)
    let mut temp_bytes = 0u64;
    for &i in &temps {
        let b = &buffers[i];
        let offset = if b.size == 0 {
            0
        } else {
            // Occupied byte ranges of buffers live at the same time, by offset.
            let mut busy: Vec<(u64, u64)> =
                placed.iter().filter(|&&(j, _)| buffers[j].live_with(b)).map(|&(j, o)| (o, o + buffers[j].size)).collect();
            busy.sort_unstable();
            best_fit(&busy, b.size, b.alignment).ok_or_else(|| overflow(i))?
        };
        let end = offset.checked_add(b.size).ok_or_else(|| overflow(i))?;
        temp_bytes = temp_bytes.max(end);
        slices[i] = BufferSlice::new(temp_alloc, offset, b.size);
        placed.push((i, offset));
    }
    if !temps.is_empty() {
        let alignment = temps.iter().map(|&i| buffers[i].alignment).max().unwrap_or(1);
        allocations.push(Allocation { size: temp_bytes, alignment, kind: BufferKind::Temp });
        peak_bytes = peak_bytes.checked_add(temp_bytes).ok_or_else(|| overflow(temps[0]))?;
    }

    // Live temp bytes peak at some buffer's definition point.
    let live_temp_bytes = temps
        .iter()
        .map(|&i| {
            let t = buffers[i].first_def;
            temps.iter().filter(|&&j| buffers[j].first_def <= t && t <= buffers[j].last_use).map(|&j| buffers[j].size).sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    let unshared_temp_bytes = temps.iter().map(|&i| buffers[i].size).sum();
    Ok(BufferAssignment { allocations, slices, temp_bytes, live_temp_bytes, unshared_temp_bytes, peak_bytes })
}

/// The aligned offset of the smallest gap in `busy` (sorted, possibly
/// overlapping ranges) that fits `size`, else the aligned top. `None` on
/// overflow.
fn best_fit(busy: &[(u64, u64)], size: u64, align: u64) -> Option<u64> {
    let align_up = |x: u64| x.checked_add(align - 1).map(|v| v & !(align - 1));
    let mut best: Option<(u64, u64)> = None; // (gap, offset)
    let mut cursor = 0u64;
    for &(start, end) in busy {
        let at = align_up(cursor)?;
        if at.checked_add(size)? <= start {
            let gap = start - cursor;
            if best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, at));
            }
        }
        cursor = cursor.max(end);
    }
    match best {
        Some((_, at)) => Some(at),
        None => align_up(cursor),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_no_clash(buffers: &[LogicalBuffer], a: &BufferAssignment) {
        for (i, x) in buffers.iter().enumerate() {
            let s = a.slices[i];
            assert_eq!(s.offset % x.alignment, 0, "buffer {i} misaligned");
            assert!(s.offset + s.size <= a.allocations[s.allocation].size);
            for (j, y) in buffers.iter().enumerate().skip(i + 1) {
                if x.live_with(y) {
                    assert!(!s.overlaps(&a.slices[j]), "live buffers {i} and {j} share bytes");
                }
            }
        }
    }

    #[test]
    fn dead_buffers_are_reused() {
        // A chain t0 → t1 → t2 → t3: each only lives with its neighbours.
        let bufs: Vec<_> = (0..4).map(|i| LogicalBuffer::temp(1024, 64, i, i + 1)).collect();
        let a = assign_buffers(&bufs).unwrap();
        check_no_clash(&bufs, &a);
        assert_eq!(a.unshared_temp_bytes, 4096);
        assert_eq!(a.live_temp_bytes, 2048);
        assert_eq!(a.temp_bytes, 2048, "two slots ping-pong");
        assert_eq!(a.slices[0].offset, a.slices[2].offset);
        assert_eq!(a.slices[1].offset, a.slices[3].offset);
    }

    #[test]
    fn a_small_buffer_fits_a_freed_gap() {
        let bufs = [LogicalBuffer::temp(100, 4, 0, 1), LogicalBuffer::temp(300, 4, 0, 5), LogicalBuffer::temp(60, 4, 2, 3)];
        let a = assign_buffers(&bufs).unwrap();
        check_no_clash(&bufs, &a);
        assert_eq!(a.temp_bytes, 400, "the 60 bytes go where the 100 died");
    }

    #[test]
    fn parameters_and_results_are_never_shared() {
        let bufs = [
            LogicalBuffer { size: 64, alignment: 8, first_def: 0, last_use: 0, kind: BufferKind::Parameter(0) },
            LogicalBuffer::temp(64, 8, 1, 1),
            LogicalBuffer { size: 64, alignment: 8, first_def: 2, last_use: 2, kind: BufferKind::Result(0) },
        ];
        let a = assign_buffers(&bufs).unwrap();
        assert_eq!(a.allocations.len(), 3);
        assert_eq!(a.allocations[0].kind, BufferKind::Parameter(0));
        assert_eq!(a.allocations[1].kind, BufferKind::Result(0));
        assert_eq!(a.slices[1].allocation, 2);
        assert_eq!(a.peak_bytes, 192);
    }

    #[test]
    fn random_lifetimes_never_share_and_stay_near_the_bound() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..50 {
            let bufs: Vec<_> = (0..40)
                .map(|_| {
                    let start = next(30) as usize;
                    let len = next(6) as usize;
                    LogicalBuffer::temp(1 + next(4000), 1 << next(7), start, start + len)
                })
                .collect();
            let a = assign_buffers(&bufs).unwrap();
            check_no_clash(&bufs, &a);
            assert!(a.temp_bytes >= a.live_temp_bytes);
            assert!(a.temp_bytes < a.unshared_temp_bytes);
        }
    }

    #[test]
    fn bad_buffers_are_errors() {
        let e = assign_buffers(&[LogicalBuffer::temp(8, 3, 0, 0)]).unwrap_err();
        assert!(e.to_string().contains("logical buffer 0: alignment 3"), "{e}");
        let e = assign_buffers(&[LogicalBuffer::temp(8, 8, 0, 0), LogicalBuffer::temp(8, 8, 4, 2)]).unwrap_err();
        assert!(e.to_string().contains("logical buffer 1: defined at 4 after its last use at 2"), "{e}");
        assert!(assign_buffers(&[LogicalBuffer::temp(8, 0, 0, 0)]).is_err());
    }
}
