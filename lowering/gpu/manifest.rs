//! The GPU launch manifest, `floors.gpu_kernels` on the kernel module: per
//! kernel (fusion) its launches and the temporaries between them, as typed
//! attributes (`#floors.gpu_kernel`, `#floors.gpu_launch`,
//! `#floors.launch_arg`, verified by the dialect). `floors-gpu-record-kernels`
//! writes it; the GPU artifact and the fusion report read it.

use floors_ir::{capi, ir::raw};
use mlir_sys::{MlirAttribute, MlirContext, mlirArrayAttrGet, mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeIsAArray};

/// One argument of a launch: a buffer of the kernel (its inputs, then its
/// outputs, in the kernel table's order) or a temporary between launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchArg {
    In(u64),
    Out(u64),
    Tmp(u64),
}

impl LaunchArg {
    fn kind(self) -> (&'static str, u64) {
        match self {
            LaunchArg::In(i) => ("in", i),
            LaunchArg::Out(i) => ("out", i),
            LaunchArg::Tmp(i) => ("tmp", i),
        }
    }
}

/// One launch of a kernel function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestLaunch {
    /// The `gpu.module` and the entry in it.
    pub module: String,
    pub entry: String,
    pub grid: [i64; 3],
    pub block: [i64; 3],
    pub args: Vec<LaunchArg>,
}

/// One kernel function (fusion) of the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    pub fusion: String,
    pub launches: Vec<ManifestLaunch>,
    /// Bytes of each temporary.
    pub temps: Vec<i64>,
}

impl ManifestEntry {
    /// `#floors.gpu_kernel<...>`; None when it does not verify (a launch
    /// dimension below 1, a temporary a launch names but the kernel lacks).
    pub fn to_attribute(&self, ctx: MlirContext) -> Option<MlirAttribute> {
        let mut launches = Vec::new();
        for l in &self.launches {
            let mut args = Vec::new();
            for a in &l.args {
                let (kind, index) = a.kind();
                // SAFETY: `ctx` is live; the getter copies its string.
                args.push(non_null(unsafe { capi::floorsLaunchArgAttrGet(ctx, raw::sref(kind), index) })?);
            }
            // SAFETY: `ctx` is live; grid and block are three i64 each, `args`
            // holds `args.len()` live attributes; all are copied.
            let launch = unsafe {
                capi::floorsGpuLaunchAttrGet(
                    ctx,
                    raw::sref(&l.module),
                    raw::sref(&l.entry),
                    l.grid.as_ptr(),
                    l.block.as_ptr(),
                    args.len() as isize,
                    args.as_ptr(),
                )
            };
            launches.push(non_null(launch)?);
        }
        // SAFETY: as above, for the temporaries and the launches.
        non_null(unsafe {
            capi::floorsGpuKernelAttrGet(
                ctx,
                raw::sref(&self.fusion),
                self.temps.len() as isize,
                self.temps.as_ptr(),
                launches.len() as isize,
                launches.as_ptr(),
            )
        })
    }

    /// The entry a `#floors.gpu_kernel` holds; None when `attr` is not one.
    pub fn of_attribute(attr: MlirAttribute) -> Option<ManifestEntry> {
        // SAFETY: every getter reads a verified attribute of the kind it
        // names, checked with the matching `IsA` first; positions are below
        // the counts the attribute gives.
        unsafe {
            if attr.ptr.is_null() || !capi::floorsAttributeIsAGpuKernel(attr) {
                return None;
            }
            let mut temps = vec![0i64; capi::floorsGpuKernelAttrGetNumTemps(attr) as usize];
            capi::floorsGpuKernelAttrGetTemps(attr, temps.as_mut_ptr());
            let mut launches = Vec::new();
            for i in 0..capi::floorsGpuKernelAttrGetNumLaunches(attr) {
                let l = capi::floorsGpuKernelAttrGetLaunch(attr, i);
                let (mut grid, mut block) = ([0i64; 3], [0i64; 3]);
                capi::floorsGpuLaunchAttrGetGrid(l, grid.as_mut_ptr());
                capi::floorsGpuLaunchAttrGetBlock(l, block.as_mut_ptr());
                let mut args = Vec::new();
                for j in 0..capi::floorsGpuLaunchAttrGetNumArgs(l) {
                    let a = capi::floorsGpuLaunchAttrGetArg(l, j);
                    let index = capi::floorsLaunchArgAttrGetIndex(a);
                    args.push(match raw::string(capi::floorsLaunchArgAttrGetKind(a)).as_str() {
                        "in" => LaunchArg::In(index),
                        "out" => LaunchArg::Out(index),
                        _ => LaunchArg::Tmp(index),
                    });
                }
                launches.push(ManifestLaunch {
                    module: raw::string(capi::floorsGpuLaunchAttrGetModule(l)),
                    entry: raw::string(capi::floorsGpuLaunchAttrGetEntry(l)),
                    grid,
                    block,
                    args,
                });
            }
            Some(ManifestEntry { fusion: raw::string(capi::floorsGpuKernelAttrGetFusion(attr)), launches, temps })
        }
    }
}

/// The manifest attribute (an array of `#floors.gpu_kernel`) of `entries`.
pub fn to_attribute(ctx: MlirContext, entries: &[ManifestEntry]) -> Option<MlirAttribute> {
    let items = entries.iter().map(|e| e.to_attribute(ctx)).collect::<Option<Vec<_>>>()?;
    // SAFETY: `ctx` is live and `items` holds `items.len()` live attributes.
    Some(unsafe { mlirArrayAttrGet(ctx, items.len() as isize, items.as_ptr()) })
}

/// The entries of a manifest attribute; None when it is not an array of
/// `#floors.gpu_kernel`.
pub fn of_attribute(attr: MlirAttribute) -> Option<Vec<ManifestEntry>> {
    // SAFETY: `attr` is a live attribute, checked to be an array before it
    // is read below its length.
    if attr.ptr.is_null() || !unsafe { mlirAttributeIsAArray(attr) } {
        return None;
    }
    // SAFETY: as above.
    let n = unsafe { mlirArrayAttrGetNumElements(attr) };
    // SAFETY: `attr` is an array attribute (checked above) and `i` is below its length `n`.
    (0..n).map(|i| ManifestEntry::of_attribute(unsafe { mlirArrayAttrGetElement(attr, i) })).collect()
}

fn non_null(a: MlirAttribute) -> Option<MlirAttribute> {
    (!a.ptr.is_null()).then_some(a)
}
