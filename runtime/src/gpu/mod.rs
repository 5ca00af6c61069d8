//! The GPU floor's runtime side.
//!
//! - [`device`]: the device description every codegen question is answered
//!   from (presets; [`query`] fills one from the driver).
//! - [`streams`], [`layout`]: what is decided before a device is touched, as
//!   pure functions: which thunk runs on which CUDA stream and where events
//!   go, the one device arena of a run (laid out by `assign_buffers`), what
//!   each thunk spec reads and writes, and the PTX modules against the
//!   kernel table.
//! - [`selftest`]: hand-built GPU artifacts (hand-written PTX, gemms,
//!   streams, control flow) with inputs and expected outputs: the runtime's
//!   own check on a device, independent of the compiler.
//! - `cuda` (the `cuda` cargo feature, on by default): the CUDA driver and
//!   cuBLAS through cudarc, loaded at run time (`dlopen`), so nothing links
//!   libcuda and the runtime builds without CUDA. [`instantiate`] checks for
//!   the driver first (`no CUDA driver found`), then loads every PTX module
//!   once (`cuModuleLoadDataEx`, the JIT's error log in the error), and
//!   builds the thunks: kernel launches, cuBLAS gemms (row-major `C = A·B`
//!   as column-major `gemm(B, A)`, strided-batched, see [`crate::gemm`]),
//!   memcpy and memset, while and conditional (the predicate copied back to
//!   the host), custom calls (XLA FFI handlers registered for the `cuda`
//!   platform, handed the stream through `XLA_FFI_Stream_Get`). A run takes
//!   the executable's device arena (allocated once, reused by every run;
//!   runs of one executable are serialized), uploads the parameters (and the
//!   constants, once), issues the top-level thunks on their streams with
//!   events between streams, joins every stream into the first and copies
//!   the results back.

pub mod device;
pub mod layout;
pub mod nccl;
pub mod selftest;
mod sim;
pub mod streams;

#[cfg(feature = "cuda")]
mod cuda;
#[cfg(feature = "cuda")]
pub mod query;

use std::sync::Arc;

use crate::{
    artifact::{Artifact, PtxModule},
    error::{Error, Result},
    executor::ExecutorOptions,
    program::Executable,
    thunk::CustomCallRegistry,
};

/// The start of the error when no CUDA driver can be loaded.
pub const NO_DRIVER: &str = "no CUDA driver found";

/// The error for a machine without a CUDA driver.
pub fn no_driver_error() -> Error {
    Error::Gpu(format!("{NO_DRIVER} (libcuda.so could not be loaded; running a GPU artifact needs an NVIDIA driver)"))
}

/// Whether the CUDA driver library can be loaded (always false without the
/// `cuda` feature). Checked before any context is created: cudarc panics
/// when it is absent.
pub fn driver_present() -> bool {
    #[cfg(feature = "cuda")]
    {
        cuda::driver_present()
    }
    #[cfg(not(feature = "cuda"))]
    {
        false
    }
}

/// The device 0 as the driver describes it, or why it cannot be asked
/// (`no CUDA driver found` first).
pub fn device_description() -> Result<device::DeviceDescription> {
    #[cfg(feature = "cuda")]
    {
        query::device_description(0)
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err(Error::Gpu("this runtime was built without the `cuda` feature".into()))
    }
}

/// Builds the executable of a GPU artifact: checks its PTX modules against
/// the kernel table (no device needed), then the driver, then loads the
/// modules on device 0 and builds the thunks.
pub fn instantiate(
    artifact: &Artifact,
    modules: &[PtxModule],
    origin: &str,
    custom_calls: Arc<CustomCallRegistry>,
    options: ExecutorOptions,
) -> Result<Executable> {
    artifact.program.validate()?;
    layout::check_ptx_modules(&artifact.program, &artifact.kernels, modules).map_err(Error::Program)?;
    if let crate::executor::GpuDevice::Sim(checks) = options.gpu_device {
        let crate::artifact::Target::Gpu { chip, device } = &artifact.target else {
            return Err(Error::Program("PTX kernel code for a target that is not a GPU".into()));
        };
        let program = sim::SimProgram::new(artifact, chip, device, modules, origin, checks)?;
        let _ = custom_calls;
        return Executable::on_device(artifact.program.clone(), Box::new(program));
    }
    #[cfg(feature = "cuda")]
    {
        if !driver_present() {
            return Err(no_driver_error());
        }
        let crate::artifact::Target::Gpu { chip, device } = &artifact.target else {
            return Err(Error::Program("PTX kernel code for a target that is not a GPU".into()));
        };
        let program = cuda::GpuProgram::new(artifact, chip, device, modules, origin, &custom_calls, options)?;
        Executable::on_device(artifact.program.clone(), Box::new(program))
    }
    #[cfg(not(feature = "cuda"))]
    {
        let _ = (origin, custom_calls, options);
        Err(Error::Gpu("this runtime was built without the `cuda` feature: it cannot run GPU artifacts".into()))
    }
}

/// Where a GPU artifact runs and what the simulated device checks and
/// prints: the flags `floors run` and `floors-run` share.
#[derive(Clone, Debug, clap::Args)]
pub struct DeviceArgs {
    /// GPU artifacts: `cuda` (device 0 through the CUDA driver) or `sim`
    /// (the PTX simulator: no GPU, no driver; see docs/gpu-sim.md).
    #[arg(long, value_name = "DEVICE", default_value = "cuda", value_parser = ["cuda", "sim"])]
    pub device: String,
    /// With `--device sim`: the checks, comma-separated: memcheck,
    /// racecheck, initcheck, synccheck, all or none.
    #[arg(long, value_name = "CHECKS", default_value = "all")]
    pub sanitize: String,
    /// With `--device sim`: end the output with
    /// `device: launches=N library_calls=M global_bytes=B flops=F modeled_us=T`.
    #[arg(long)]
    pub counters: bool,
}

impl DeviceArgs {
    /// Sets `options.gpu_device`; a bad check name is an error.
    pub fn apply(&self, options: &mut ExecutorOptions) -> Result<()> {
        let checks = floors_ptx_sim::Checks::parse(&self.sanitize).map_err(|e| Error::Unsupported(format!("--sanitize: {e}")))?;
        if self.device != "sim" && (self.sanitize != "all" || self.counters) {
            return Err(Error::Unsupported("--sanitize and --counters need --device sim".into()));
        }
        options.gpu_device = if self.device == "sim" { crate::executor::GpuDevice::Sim(checks) } else { crate::executor::GpuDevice::Cuda };
        Ok(())
    }
}
