//! Mosaic (`tpu` dialect) kernels without a TPU: the kernel as data
//! ([`kernel`]), an interpreter for one invocation ([`interp`]) and the
//! Pallas pipeline around it ([`grid`]), with the semantics of Pallas' TPU
//! interpret mode. No MLIR here: `floors::tpu_import` turns a parsed module
//! into a [`TpuKernel`].
//!
//! ```no_run
//! use floors_runtime::{Artifact, KernelCode, tpu::{run_kernel, TpuGeneration, TpuRunOptions}};
//! // A TPU artifact (`floors compile --target tpu -o prog.floors`) holds its kernels as data.
//! let artifact = Artifact::read("prog.floors".as_ref())?;
//! let KernelCode::TpuKernels(kernels) = &artifact.code else { return Ok(()) };
//! let Some((_name, kernel)) = kernels.first() else { return Ok(()) };
//! let x = floors_runtime::npy::read("x.npy".as_ref())?;
//! let outs = run_kernel(kernel, &[x], &TpuRunOptions { generation: TpuGeneration::V6e, ..Default::default() })?;
//! # Ok::<(), floors_runtime::Error>(())
//! ```

pub mod grid;
pub mod interp;
pub mod kernel;

pub use kernel::TpuKernel;

use crate::{
    error::Result,
    npy::{HostArray, TensorSpec},
};

/// The TPU generations floors knows, for the VMEM budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TpuGeneration {
    V4,
    #[default]
    V5e,
    V5p,
    V6e,
}

/// What the interpreter needs to know about a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerationInfo {
    pub generation: TpuGeneration,
    pub name: &'static str,
    /// VMEM per TensorCore (jax `tpu_info.vmem_capacity_bytes`).
    pub vmem_bytes: u64,
    /// The scoped VMEM limit a kernel gets unless it asks for more
    /// (`vmem_limit_bytes`, XLA's `xla_tpu_scoped_vmem_limit_kib` default).
    pub default_scoped_vmem_bytes: u64,
    /// MXU width (128 before v6, 256 from v6).
    pub mxu: u32,
    /// TensorCores a kernel's `parallel` grid axes are split across
    /// (megacore: 2 on v4 and v5p).
    pub cores: u32,
    /// Peak bf16 MXU throughput of the chip, flop/s (Cloud TPU's system
    /// architecture pages: "peak compute per chip (bf16)").
    pub peak_bf16_flops: u64,
    /// HBM bandwidth of the chip, bytes/s (the same pages).
    pub hbm_bytes_per_s: u64,
}

const MIB: u64 = 1 << 20;

/// The one table of per-generation numbers (VMEM from DESIGN.md §5 / jax
/// `tpu_info`; scoped defaults: 16 MiB before v6, 32 MiB on v6e; peak bf16
/// flop/s and HBM bandwidth per chip from Cloud TPU's v4/v5e/v5p/v6e pages).
pub const GENERATIONS: [GenerationInfo; 4] = [
    GenerationInfo {
        generation: TpuGeneration::V4,
        name: "v4",
        vmem_bytes: 16 * MIB,
        default_scoped_vmem_bytes: 16 * MIB,
        mxu: 128,
        cores: 2,
        peak_bf16_flops: 275_000_000_000_000,
        hbm_bytes_per_s: 1_200_000_000_000,
    },
    GenerationInfo {
        generation: TpuGeneration::V5e,
        name: "v5e",
        vmem_bytes: 128 * MIB,
        default_scoped_vmem_bytes: 16 * MIB,
        mxu: 128,
        cores: 1,
        peak_bf16_flops: 197_000_000_000_000,
        hbm_bytes_per_s: 819_000_000_000,
    },
    GenerationInfo {
        generation: TpuGeneration::V5p,
        name: "v5p",
        vmem_bytes: 64 * MIB,
        default_scoped_vmem_bytes: 16 * MIB,
        mxu: 128,
        cores: 2,
        peak_bf16_flops: 459_000_000_000_000,
        hbm_bytes_per_s: 2_765_000_000_000,
    },
    GenerationInfo {
        generation: TpuGeneration::V6e,
        name: "v6e",
        vmem_bytes: 128 * MIB,
        default_scoped_vmem_bytes: 32 * MIB,
        mxu: 256,
        cores: 1,
        peak_bf16_flops: 918_000_000_000_000,
        hbm_bytes_per_s: 1_638_000_000_000,
    },
];

impl TpuGeneration {
    pub fn info(self) -> &'static GenerationInfo {
        GENERATIONS.iter().find(|g| g.generation == self).unwrap_or(&GENERATIONS[1])
    }

    /// `v4`, `v5e`, `v5p`, `v6e`.
    pub fn parse(name: &str) -> Option<Self> {
        GENERATIONS.iter().find(|g| g.name == name).map(|g| g.generation)
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }
}

/// How to run a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TpuRunOptions {
    pub generation: TpuGeneration,
    /// The VMEM limit (bytes); default: the generation's scoped default.
    pub vmem_limit_bytes: Option<u64>,
    /// Output types and shapes (what the `tpu_custom_call`'s results say);
    /// default: the ref's element type, and for a windowed output the
    /// smallest array that covers every block the grid writes (a whole
    /// output: the ref's shape).
    pub outputs: Option<Vec<TensorSpec>>,
    /// The coordinates of `parallel` grid axes are permuted, as Pallas'
    /// TPU interpret mode does by default (`InterpretParams(random_seed)`),
    /// to expose kernels that depend on the order of parallel steps: with
    /// this seed (None: 0).
    pub grid_seed: Option<u64>,
    /// Run the grid in order (lexicographic, last axis fastest) instead.
    pub grid_in_order: bool,
}

/// The order of grid steps on `parallel` axes: permuted (Pallas' interpret
/// mode's default) with a seed, or in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridOrder {
    /// The permutation's seed (None: 0).
    pub seed: Option<u64>,
    /// Lexicographic order instead (last axis fastest).
    pub in_order: bool,
}

impl GridOrder {
    /// Sets the grid fields of `options`.
    pub fn apply(self, options: &mut TpuRunOptions) {
        options.grid_seed = self.seed;
        options.grid_in_order = self.in_order;
    }
}

/// The grid-order flags `floors run` and `floors-run` share for TPU
/// kernels.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct GridArgs {
    /// TPU kernels: the seed that permutes the steps of `parallel` grid
    /// axes (as Pallas' `InterpretParams(random_seed)`; default 0).
    #[arg(long, value_name = "N", conflicts_with = "tpu_grid_in_order")]
    pub tpu_grid_seed: Option<u64>,
    /// TPU kernels: run `parallel` grid axes in order instead of permuted.
    #[arg(long)]
    pub tpu_grid_in_order: bool,
}

impl GridArgs {
    pub fn order(&self) -> GridOrder {
        GridOrder { seed: self.tpu_grid_seed, in_order: self.tpu_grid_in_order }
    }
}

/// Runs a Mosaic kernel over its grid: `inputs` are the scalar-prefetch
/// arrays then the kernel's inputs; returns its outputs. Errors name the
/// op, its location and the grid point, or the pipeline rule broken.
pub fn run_kernel(kernel: &TpuKernel, inputs: &[HostArray], options: &TpuRunOptions) -> Result<Vec<HostArray>> {
    grid::run(kernel, inputs, options)
}

#[cfg(test)]
mod tests;
