//! A [`DeviceDescription`] filled from the driver (`cuDeviceGetAttribute`):
//! what `floors-run --gpu-info` prints, and what a compile for the machine
//! at hand could use instead of a preset.

use std::borrow::Cow;

use cudarc::driver::sys::CUdevice_attribute as A;

use super::device::DeviceDescription;
use crate::error::{Error, Result};

/// Device `ordinal` as the driver describes it (`no CUDA driver found` first).
pub fn device_description(ordinal: usize) -> Result<DeviceDescription> {
    if ordinal != 0 {
        return Err(Error::Gpu("only device 0 is used".into()));
    }
    let ctx = super::cuda::bound_context()?;
    let attr = |a: A| -> Result<u64> {
        ctx.attribute(a).map(|v| v.max(0) as u64).map_err(|e| Error::Gpu(format!("cuDeviceGetAttribute({a:?}): {e:?}")))
    };
    let u = |a: A| attr(a).map(|v| v.min(u32::MAX as u64) as u32);
    // DDR: two transfers per memory clock, over the bus width in bits.
    let memory_clock_khz = attr(A::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)?;
    let bus_bits = attr(A::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)?;
    Ok(DeviceDescription {
        name: Cow::Owned(ctx.name().unwrap_or_else(|_| "CUDA device 0".into())),
        cc_major: u(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        cc_minor: u(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        // The driver cannot tell; `sm_XYa` PTX runs on compute capability X.Y.
        arch_specific: false,
        sm_count: u(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        warp_size: u(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        max_threads_per_block: u(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
        max_threads_per_sm: u(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        max_blocks_per_sm: u(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)?,
        max_block_dims: [
            u(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
            u(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
            u(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
        ],
        max_grid_dims: [
            u(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
            u(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
            u(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
        ],
        shared_memory_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
        shared_memory_per_block_optin: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?,
        shared_memory_per_sm: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?,
        registers_per_block: u(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
        registers_per_sm: u(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)?,
        // Fixed by the ISA since compute capability 3.5.
        registers_per_thread: 255,
        l2_cache_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
        clock_rate_khz: u(A::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)?,
        memory_bandwidth_bytes_per_s: 2 * memory_clock_khz * 1000 * bus_bits / 8,
        source: Cow::Borrowed("driver"),
    })
}
