//! The GPU device description: every codegen question the GPU floor asks
//! (XLA's `se::DeviceDescription`). The compiler reads a preset (or values
//! a CUDA driver reported) through the `#floors.gpu_target` attribute; the
//! runtime fills one from `cuDeviceGetAttribute` when a driver is present.
//!
//! Preset values are NVIDIA's published figures:
//! - A100 (sm_80): "NVIDIA A100 Tensor Core GPU Architecture" whitepaper
//!   (2020), table 3 (A100 SXM4 40 GB: 108 SMs, 1410 MHz boost, 1555 GB/s,
//!   40 MB L2), and the "NVIDIA Ampere GPU Architecture Tuning Guide" §1.4.1
//!   (164 KB shared memory per SM, 163 KB opt-in per block, 48 KB static,
//!   64 K 32-bit registers per SM, 255 per thread, 2048 threads and 32
//!   blocks per SM).
//! - H100 (sm_90 / sm_90a): "NVIDIA H100 Tensor Core GPU Architecture"
//!   whitepaper (2022), table 3 (H100 SXM5: 132 SMs, 50 MB L2, 1980 MHz
//!   max boost, 3.35 TB/s HBM3 in the H100 SXM5 80 GB datasheet), and the
//!   "NVIDIA Hopper Tuning Guide" §1.4.1.1 (228 KB shared memory per SM,
//!   227 KB opt-in per block, 64 K registers per SM, 255 per thread, 2048
//!   threads and 32 blocks per SM).
//! - H200 (sm_90a, alias `h200`): the H100 SXM5 die with 141 GB HBM3e at
//!   4.8 TB/s ("NVIDIA H200 Tensor Core GPU" datasheet, 2023).
//! - Limits common to compute capability ≥ 7.0 (CUDA C++ Programming Guide,
//!   "Compute Capabilities", table 21): warp size 32, 1024 threads per
//!   block, block dims ≤ (1024, 1024, 64), grid dims ≤ (2³¹−1, 65535, 65535),
//!   48 KB of static shared memory per block, 64 K registers per block.
//!
//! The CUDA occupancy calculator (`cudaOccupancyMaxActiveBlocksPerMultiprocessor`)
//! uses the same per-SM limits.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// What the GPU floor knows about one device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DeviceDescription {
    /// Product name (`NVIDIA H100 80GB HBM3`, or what the driver reports).
    pub name: Cow<'static, str>,
    /// Compute capability major (8 for Ampere, 9 for Hopper).
    pub cc_major: u32,
    /// Compute capability minor.
    pub cc_minor: u32,
    /// Architecture-specific features (`sm_90a`: wgmma, setmaxnreg, ...).
    /// PTX that uses them runs only on that exact architecture.
    pub arch_specific: bool,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Threads per warp.
    pub warp_size: u32,
    /// Threads per block limit.
    pub max_threads_per_block: u32,
    /// Resident threads per SM limit.
    pub max_threads_per_sm: u32,
    /// Resident blocks per SM limit.
    pub max_blocks_per_sm: u32,
    /// Block dimension limits (x, y, z).
    pub max_block_dims: [u32; 3],
    /// Grid dimension limits (x, y, z).
    pub max_grid_dims: [u32; 3],
    /// Static shared memory per block, bytes (what a kernel may declare
    /// without opting in; ptxas rejects more).
    pub shared_memory_per_block: u64,
    /// Shared memory per block with the dynamic opt-in
    /// (`cudaFuncAttributeMaxDynamicSharedMemorySize`), bytes.
    pub shared_memory_per_block_optin: u64,
    /// Shared memory per SM, bytes.
    pub shared_memory_per_sm: u64,
    /// 32-bit registers per block.
    pub registers_per_block: u32,
    /// 32-bit registers per SM.
    pub registers_per_sm: u32,
    /// 32-bit registers per thread (ptxas spills above it).
    pub registers_per_thread: u32,
    /// L2 cache, bytes.
    pub l2_cache_bytes: u64,
    /// SM clock (boost), kHz.
    pub clock_rate_khz: u32,
    /// Peak DRAM bandwidth, bytes per second.
    pub memory_bandwidth_bytes_per_s: u64,
    /// Where the values came from: `preset` or `driver`.
    pub source: Cow<'static, str>,
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * 1024;

/// Compute capability ≥ 7.0 limits shared by every preset.
const fn base(name: &'static str, cc_major: u32, cc_minor: u32, arch_specific: bool) -> DeviceDescription {
    DeviceDescription {
        name: Cow::Borrowed(name),
        cc_major,
        cc_minor,
        arch_specific,
        sm_count: 0,
        warp_size: 32,
        max_threads_per_block: 1024,
        max_threads_per_sm: 2048,
        max_blocks_per_sm: 32,
        max_block_dims: [1024, 1024, 64],
        max_grid_dims: [i32::MAX as u32, 65535, 65535],
        shared_memory_per_block: 48 * KIB,
        shared_memory_per_block_optin: 0,
        shared_memory_per_sm: 0,
        registers_per_block: 65536,
        registers_per_sm: 65536,
        registers_per_thread: 255,
        l2_cache_bytes: 0,
        clock_rate_khz: 0,
        memory_bandwidth_bytes_per_s: 0,
        source: Cow::Borrowed("preset"),
    }
}

/// A100 SXM4 40 GB (sm_80).
pub const A100: DeviceDescription = {
    let mut d = base("NVIDIA A100-SXM4-40GB", 8, 0, false);
    d.sm_count = 108;
    d.shared_memory_per_block_optin = 163 * KIB;
    d.shared_memory_per_sm = 164 * KIB;
    d.l2_cache_bytes = 40 * MIB;
    d.clock_rate_khz = 1_410_000;
    d.memory_bandwidth_bytes_per_s = 1_555_000_000_000;
    d
};

/// The Hopper SXM5 die (132 SMs, 50 MB L2, 228 KB shared memory per SM).
const fn hopper(name: &'static str, arch_specific: bool, memory_bandwidth_bytes_per_s: u64) -> DeviceDescription {
    let mut d = base(name, 9, 0, arch_specific);
    d.sm_count = 132;
    d.shared_memory_per_block_optin = 227 * KIB;
    d.shared_memory_per_sm = 228 * KIB;
    d.l2_cache_bytes = 50 * MIB;
    d.clock_rate_khz = 1_980_000;
    d.memory_bandwidth_bytes_per_s = memory_bandwidth_bytes_per_s;
    d
}

/// H100 SXM5 80 GB (sm_90).
pub const H100: DeviceDescription = hopper("NVIDIA H100 80GB HBM3", false, 3_350_000_000_000);

/// H100 SXM5 with the architecture-specific features (sm_90a).
pub const H100_SM90A: DeviceDescription = hopper("NVIDIA H100 80GB HBM3", true, 3_350_000_000_000);

/// H200 SXM 141 GB (sm_90a): the H100 die with HBM3e.
pub const H200: DeviceDescription = hopper("NVIDIA H200", true, 4_800_000_000_000);

/// The presets by the name `--gpu` takes. The first three are the chips
/// the GPU floor supports; the product names are aliases.
pub const PRESETS: &[(&str, DeviceDescription)] =
    &[("sm_80", A100), ("sm_90", H100), ("sm_90a", H100_SM90A), ("a100", A100), ("h100", H100), ("h200", H200)];

/// The chips `--gpu` accepts, in the order a message lists them.
pub const SUPPORTED_CHIPS: &[&str] = &["sm_80", "sm_90", "sm_90a"];

/// The preset called `name` (`sm_80`, `sm_90`, `sm_90a`, `a100`, `h100`, `h200`).
pub fn preset(name: &str) -> Option<DeviceDescription> {
    PRESETS.iter().find(|(n, _)| *n == name).map(|(_, d)| d.clone())
}

/// The message for a chip no preset names.
pub fn unsupported_chip_message(name: &str) -> String {
    let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
    format!("unsupported GPU '{name}': expected one of {}", names.join(", "))
}

impl DeviceDescription {
    /// The chip name MLIR's `nvvm-attach-target` and ptxas take (`sm_90a`).
    pub fn chip(&self) -> String {
        format!("sm_{}{}{}", self.cc_major, self.cc_minor, if self.arch_specific { "a" } else { "" })
    }

    /// The PTX ISA the floor emits: 8.0 (CUDA 12.0) — valid for sm_80,
    /// sm_90 and sm_90a (sm_90a needs ≥ 8.0; LLVM aborts below it).
    pub fn ptx_version(&self) -> u32 {
        80
    }

    /// The LLVM NVPTX feature string (`+ptx80`).
    pub fn ptx_features(&self) -> String {
        format!("+ptx{}", self.ptx_version())
    }

    /// Tensor cores through `mma.sync` (f16/bf16, sm_80 and newer).
    pub fn has_mma_sync(&self) -> bool {
        self.cc_major >= 8
    }

    /// Warpgroup MMA (`wgmma`): sm_90a only.
    pub fn has_wgmma(&self) -> bool {
        self.cc_major == 9 && self.arch_specific
    }

    /// Whether the GPU floor can generate code for this device.
    pub fn is_supported(&self) -> bool {
        SUPPORTED_CHIPS.contains(&self.chip().as_str())
    }

    /// Resident warps per SM limit.
    pub fn max_warps_per_sm(&self) -> u32 {
        self.max_threads_per_sm / self.warp_size.max(1)
    }

    /// Threads the whole device keeps resident (SMs × threads per SM): the
    /// grid size beyond which a grid-stride loop gains nothing.
    pub fn resident_threads(&self) -> u64 {
        self.sm_count as u64 * self.max_threads_per_sm as u64
    }

    /// Blocks of `threads_per_block` threads using `shared_bytes` of shared
    /// memory and `registers_per_thread` registers each that fit on one SM
    /// (the occupancy calculator's three limits, without allocation
    /// granularity).
    pub fn blocks_per_sm(&self, threads_per_block: u32, shared_bytes: u64, registers_per_thread: u32) -> u32 {
        let threads_per_block = threads_per_block.max(1);
        let by_threads = self.max_threads_per_sm / threads_per_block;
        let by_shared = self.shared_memory_per_sm.checked_div(shared_bytes).map_or(u32::MAX, |n| n.min(u32::MAX as u64) as u32);
        let regs = registers_per_thread.max(1) as u64 * threads_per_block as u64;
        let by_regs = (self.registers_per_sm as u64 / regs).min(u32::MAX as u64) as u32;
        self.max_blocks_per_sm.min(by_threads).min(by_shared).min(by_regs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_their_chips() {
        assert_eq!(preset("sm_80").unwrap().chip(), "sm_80");
        assert_eq!(preset("sm_90").unwrap().chip(), "sm_90");
        assert_eq!(preset("sm_90a").unwrap().chip(), "sm_90a");
        assert_eq!(preset("h200").unwrap().chip(), "sm_90a");
        assert!(preset("sm_70").is_none());
        assert!(unsupported_chip_message("sm_70").contains("sm_90a"));
        for (_, d) in PRESETS {
            assert!(d.is_supported());
            assert!(d.sm_count > 0 && d.l2_cache_bytes > 0 && d.memory_bandwidth_bytes_per_s > 0);
            assert!(d.shared_memory_per_block <= d.shared_memory_per_block_optin);
            assert!(d.shared_memory_per_block_optin <= d.shared_memory_per_sm);
        }
    }

    #[test]
    fn occupancy_limits() {
        let h = preset("sm_90").unwrap();
        assert_eq!(h.blocks_per_sm(256, 0, 32), 8);
        assert_eq!(h.blocks_per_sm(128, 100 * 1024, 32), 2);
        assert_eq!(h.blocks_per_sm(1024, 0, 64), 1);
        assert!(!h.has_wgmma() && preset("sm_90a").unwrap().has_wgmma());
    }

    #[test]
    fn round_trips() {
        let d = preset("sm_80").unwrap();
        let bytes = postcard::to_stdvec(&d).unwrap();
        assert_eq!(postcard::from_bytes::<DeviceDescription>(&bytes).unwrap(), d);
    }
}
