//! What `floors-cpu-emit-kernel-abi` (which clones a kernel for streaming
//! stores) and `floors-cpu-nontemporal-stores` (which writes them) agree on:
//! the attribute naming the streamed arguments, the size threshold, and
//! which outputs qualify. See `cpu_nontemporal_stores.rs` for the why.

use mlir_sys::*;

use floors_ir::ir::raw;

/// On a kernel clone: the argument indices whose writes are streamed.
pub const NONTEMPORAL_ATTR: &str = "floors.nontemporal";

/// Outputs smaller than this keep plain stores. Measured here (AMD EPYC,
/// 32 MB L3, 2 threads, `o = a·b + a` repeated on the same buffers): 4 MB
/// outputs 0.075 ms plain / 0.154 streamed, 8 MB 0.40 / 0.33, 16 MB
/// 1.85 / 1.40, 64 MB 11.2 / 6.3.
pub const NT_MIN_BYTES: u64 = 8 << 20;

/// Views whose result aliases operand 0 (writes through them are writes of it).
const VIEWS: &[&str] = &["memref.subview", "memref.cast", "memref.expand_shape", "memref.collapse_shape", "memref.assume_alignment"];

/// Every transfer write into `v` (through views); None when `v` has any other
/// use (a read, a copy, a linalg op, a call), so it may be re-read.
pub fn writes_into(v: MlirValue, out: &mut Vec<MlirOperation>) -> Option<()> {
    for (user, index) in raw::uses(v) {
        let name = raw::name(user);
        if VIEWS.contains(&name.as_str()) && index == 0 {
            writes_into(*raw::results(user).first()?, out)?;
        } else if (name == "vector.transfer_write" || name == "vector.store") && index == 1 {
            out.push(user);
        } else if name != "memref.dealloc" {
            return None;
        }
    }
    Some(())
}

/// The output arguments (indices ≥ `num_inputs`, `bytes[i]` their sizes) of
/// kernel `f` that may be streamed: big enough, and only ever written by
/// vector transfers (never read back, never written by scalar code).
pub fn streamable_outputs(f: MlirOperation, num_inputs: usize, bytes: &[u64]) -> Vec<usize> {
    let Some(&entry) = raw::region_blocks(f).first() else { return Vec::new() };
    (num_inputs..bytes.len())
        .filter(|&i| {
            let mut writes = Vec::new();
            bytes[i] >= NT_MIN_BYTES
                // SAFETY: `entry` is the entry block of the live kernel `f`.
                && unsafe { (i as isize) < mlirBlockGetNumArguments(entry) }
                // SAFETY: `i` is below the argument count (checked just before).
                && writes_into(unsafe { mlirBlockGetArgument(entry, i as isize) }, &mut writes).is_some()
                && !writes.is_empty()
        })
        .collect()
}
