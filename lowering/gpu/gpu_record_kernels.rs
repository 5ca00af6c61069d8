//! `floors-gpu-record-kernels`: after `gpu-kernel-outlining`, on the kernel
//! module `@floors_kernels`:
//! - attaches `#nvvm.target<chip = ..., features = "+ptx80", O = 3>` to every
//!   `gpu.module`, from `#floors.gpu_target` (so `gpu-module-to-binary`
//!   writes PTX for the chosen chip; the chip was validated when the target
//!   was resolved, before any NVVM pass);
//! - aligns the workgroup buffers of kernels that read them with
//!   `nvgpu.ldmatrix` (the mma.sync GEMM) to 16 bytes, with wgmma to 128;
//! - writes the manifest the runtime reads, `floors.gpu_kernels` (typed:
//!   `manifest.rs`): per kernel function (fusion) in walk order, its
//!   launches in order — the `gpu.module` and entry, grid and block, and the
//!   buffers it passes (input K, output K, temporary K) — and the byte sizes
//!   of its temporaries:
//!
//! ```mlir
//! floors.gpu_kernels = [#floors.gpu_kernel<fusion = "fusion_0",
//!   temps = [32], launches = [#floors.gpu_launch<
//!     module = "fusion_0_kernel", entry = "fusion_0_kernel",
//!     grid = [1, 1, 1], block = [128, 1, 1],
//!     args = [#floors.launch_arg<"in", 0>, #floors.launch_arg<"tmp", 0>]>]>]
//! ```
//!
//! A launch argument that is not a buffer (a scalar computed on the host)
//! is an error naming the launch.

use melior::ir::OperationRef;

use crate::manifest::{LaunchArg, ManifestEntry, ManifestLaunch};
use mlir_sys::*;

use floors_ir::{
    contract::{GPU_KERNELS_ATTR, KERNEL_ATTR, NUM_INPUTS_ATTR},
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

#[derive(Clone, Default)]
pub struct GpuRecordKernels;

impl FloorsPass for GpuRecordKernels {
    const ARGUMENT: &'static str = "floors-gpu-record-kernels";
    const NAME: &'static str = "FloorsGpuRecordKernels";
    const DESCRIPTION: &'static str = "Attach NVVM targets to the gpu.modules and record the launch manifest floors.gpu_kernels";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let target = super::required_target(root)?;
        // SAFETY: `root` is the live module the pass runs on.
        let ctx = unsafe { mlirOperationGetContext(root) };
        let nvvm = floors_ir::attrs::nvvm::target(ctx, 3, &target.chip(), &target.device.ptx_features())
            .ok_or_else(|| fail(root, format!("internal error: no #nvvm.target for the chip {}", target.chip())))?;
        // SAFETY: `nvvm` is a live attribute of `ctx`; the array copies the one-element slice.
        let nvvm = unsafe { mlirArrayAttrGet(ctx, 1, &nvvm) };
        let mut entries = Vec::new();
        for b in raw::region_blocks(root) {
            for o in raw::block_ops(b) {
                match raw::name(o).as_str() {
                    "gpu.module" => {
                        // SAFETY: `o` is a live gpu.module of the module and `nvvm` an array attribute of the same
                        // context; the name is a static string.
                        unsafe { mlirOperationSetAttributeByName(o, sref("targets"), nvvm) };
                        align_ldmatrix_buffers(o);
                    }
                    "func.func" if raw::attr(o, KERNEL_ATTR).is_some() => entries.push(record(o)?),
                    _ => {}
                }
            }
        }
        let a = crate::manifest::to_attribute(ctx, &entries)
            .ok_or_else(|| fail(root, format!("internal error: a {GPU_KERNELS_ATTR} that does not verify: {entries:?}")))?;
        // SAFETY: `root` is the live module and `a` the manifest built in its context; the name is a static string.
        unsafe { mlirOperationSetAttributeByName(root, sref(GPU_KERNELS_ATTR), a) };
        Ok(())
    }
}

/// Workgroup buffers are aligned to their element type by default; the
/// rows `nvgpu.ldmatrix` reads must be 16-byte aligned and wgmma's core
/// matrices start 128-byte aligned tiles, so every workgroup attribution of
/// a `gpu.func` that holds one gets `llvm.align = 16` (128 for wgmma).
fn align_ldmatrix_buffers(module: MlirOperation) {
    for b in raw::region_blocks(module) {
        for f in raw::block_ops(b) {
            if raw::name(f) != "gpu.func" {
                continue;
            }
            let names: Vec<String> = super::builder::all_ops(f).iter().map(|&o| raw::name(o)).collect();
            let align = if names.iter().any(|n| n == "nvvm.wgmma.mma_async") {
                128
            } else if names.iter().any(|n| n == "nvgpu.ldmatrix") {
                16
            } else {
                continue;
            };
            // SAFETY: `a` is the non-null `workgroup_attributions` of the live gpu.func `f`, an I64 IntegerAttr as the
            // op's verifier requires.
            let n = raw::attr(f, "workgroup_attributions").map(|a| unsafe { mlirIntegerAttrGetValueInt(a) }).unwrap_or(0);
            // SAFETY: `f` is a live op; every attribute is built in its context, and the slices outlive the calls
            // that copy them.
            unsafe {
                let ctx = mlirOperationGetContext(f);
                let align = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), align);
                let entry = mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("llvm.align")), align);
                let dict = mlirDictionaryAttrGet(ctx, 1, &entry);
                let dicts = vec![dict; n.max(0) as usize];
                let a = mlirArrayAttrGet(ctx, dicts.len() as isize, dicts.as_ptr());
                mlirOperationSetAttributeByName(f, sref("workgroup_attrib_attrs"), a);
            }
        }
    }
}

fn sym_name(op: MlirOperation) -> String {
    raw::str_attr(op, "sym_name").unwrap_or_default()
}

fn segment_sizes(op: MlirOperation) -> Vec<i64> {
    let Some(a) = raw::attr(op, "operandSegmentSizes") else { return vec![] };
    // SAFETY: `a` is the `operandSegmentSizes` of a live gpu.launch_func, a DenseI32ArrayAttr as the op requires; `i` is
    // below its element count.
    unsafe { (0..mlirDenseArrayGetNumElements(a)).map(|i| mlirDenseI32ArrayGetElement(a, i) as i64).collect() }
}

fn record(f: MlirOperation) -> Result<ManifestEntry, PassFailure> {
    let entry = raw::region_blocks(f)[0];
    // SAFETY: `a` is the non-null `floors.num_inputs` of the live kernel function `f`, which
    // floors-linalg-outline-kernels writes as an IntegerAttr (its kind is not checked here).
    let num_inputs = raw::attr(f, NUM_INPUTS_ATTR).map(|a| unsafe { mlirIntegerAttrGetValueInt(a) }).unwrap_or(0);
    // SAFETY: `entry` is the live entry block of `f`.
    let nargs = unsafe { mlirBlockGetNumArguments(entry) };
    let mut names: Vec<(MlirValue, LaunchArg)> = (0..nargs)
        .map(|i| {
            // SAFETY: `i` is below the argument count of `entry` read above.
            let v = unsafe { mlirBlockGetArgument(entry, i) };
            let n = if (i as i64) < num_inputs { LaunchArg::In(i as u64) } else { LaunchArg::Out((i as i64 - num_inputs) as u64) };
            (v, n)
        })
        .collect();
    let mut temps = Vec::new();
    let mut launches = Vec::new();
    for o in raw::block_ops(entry) {
        match raw::name(o).as_str() {
            "memref.alloc" => {
                let v = raw::results(o)[0];
                names.push((v, LaunchArg::Tmp(temps.len() as u64)));
                // SAFETY: `v` is the live result of a memref.alloc.
                let t = unsafe { mlirValueGetType(v) };
                let elems: i64 =
                    // SAFETY: `t` is a memref type (ranked: a memref.alloc's result) and `i` is below its rank.
                    (0..unsafe { mlirShapedTypeGetRank(t) }).map(|i| unsafe { mlirShapedTypeGetDimSize(t, i as isize) }).product();
                // SAFETY: as above: `t` is a memref type, hence shaped.
                temps.push(elems.max(1) as u64 * raw::element_bytes(unsafe { mlirShapedTypeGetElementType(t) }));
            }
            "gpu.launch_func" => {
                let seg = segment_sizes(o);
                let ops = raw::operands(o);
                // asyncDeps, grid xyz, block xyz, cluster xyz, dynamic shared memory, kernel operands, async object.
                let start: i64 = seg.iter().take(11).sum();
                let count = seg.get(11).copied().unwrap_or(0);
                let dims: Vec<i64> = (0..6)
                    .map(|i| {
                        let at = seg[0] + i;
                        super::builder::constant_int(ops[at as usize])
                            .ok_or_else(|| fail(o, "a launch with dynamic grid or block sizes has no GPU manifest"))
                    })
                    .collect::<Result<_, _>>()?;
                let mut args = Vec::new();
                for &v in &ops[start as usize..(start + count) as usize] {
                    let Some((_, n)) = names.iter().find(|(b, _)| raw::same_value(*b, v)) else {
                        return Err(fail(
                            o,
                            // SAFETY: `v` is a live operand of the launch `o`.
                            format!("a launch argument of type {} is not a kernel buffer", raw::type_text(unsafe { mlirValueGetType(v) })),
                        ));
                    };
                    args.push(*n);
                }
                let kernel = raw::attr(o, "kernel").ok_or_else(|| fail(o, "a launch without a kernel"))?;
                // SAFETY: `kernel` is the live `@module::@entry` symbol
                // reference of the launch; the getters only read it.
                let (module, entry_name) = unsafe {
                    if !mlirAttributeIsASymbolRef(kernel) || mlirSymbolRefAttrGetNumNestedReferences(kernel) != 1 {
                        return Err(fail(o, "a launch whose kernel is not @module::@entry"));
                    }
                    let nested = mlirSymbolRefAttrGetNestedReference(kernel, 0);
                    (raw::string(mlirSymbolRefAttrGetRootReference(kernel)), raw::string(mlirFlatSymbolRefAttrGetValue(nested)))
                };
                launches.push(ManifestLaunch {
                    module,
                    entry: entry_name,
                    grid: [dims[0], dims[1], dims[2]],
                    block: [dims[3], dims[4], dims[5]],
                    args,
                });
            }
            _ => {}
        }
    }
    Ok(ManifestEntry { fusion: sym_name(f), launches, temps: temps.into_iter().map(|t| t as i64).collect() })
}
