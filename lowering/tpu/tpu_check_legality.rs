//! `floors-tpu-check-legality`: the rules TPU kernels must follow that
//! jaxlib's verifier does not check, checked before the hand-off so a user
//! reads which operand, which dimension, which rule and what would fit —
//! not a crash on the TPU. For every fusion with a kernel:
//! - the kernel's leading `i32` arguments, `iteration_bounds` and
//!   `dimension_semantics` agree in number;
//! - one `window_params` entry per operand and result, each naming an index
//!   map function that takes the grid indices and returns one block index
//!   per dimension of the array, and whose `window_bounds` equal the
//!   kernel argument's shape and have the array's rank;
//! - every block follows Mosaic's tiling rule ([`super::blocks::block_rule_violation`]);
//! - the windows, double-buffered, plus scratch fit the target's scoped VMEM;
//! - `tpu.matmul` operands are MXU-shaped: the contracting and output
//!   dimensions are multiples of the native tile (sublanes × 128), or fit
//!   in one tile;
//! - every vector value of the kernel body has a Mosaic layout (elements
//!   of at most 32 bits) and fits the scoped VMEM on its own (values live
//!   in vregs and spill to VMEM; the windows are not all there is).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::blocks::{block_rule_violation, element_bits, sublanes};
use floors_ir::{
    contract::KERNEL_ATTR,
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
    target::TpuTarget,
};

#[derive(Clone, Default)]
pub struct TpuCheckLegality;

impl FloorsPass for TpuCheckLegality {
    const ARGUMENT: &'static str = "floors-tpu-check-legality";
    const NAME: &'static str = "FloorsTpuCheckLegality";
    const DESCRIPTION: &'static str = "Check TPU kernels against Mosaic's tiling, window, VMEM and MXU rules";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: `mlirGetDialectHandle__floors__` returns the floors dialect's static registration handle, valid for
        // the whole program.
        vec![unsafe { DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__floors__()) }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let module = op.to_raw();
        let target = super::target_of(module)?;
        let container = {
            // SAFETY: `module` is the live builtin.module this pass runs on, which has one region.
            let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)) };
            raw::block_ops(body).into_iter().find(|&o| super::is_kernel_container(o))
        };
        let mut errors = Vec::new();
        for fusion in super::collect_fusions(module) {
            let Some(name) = raw::str_attr(fusion, KERNEL_ATTR) else {
                continue;
            };
            let kernel =
                container.and_then(|c| find_kernel(c, &name)).ok_or_else(|| fail(fusion, format!("kernel module @{name} is missing")))?;
            errors.extend(check(fusion, kernel, &target));
        }
        // Every error is reported; the first one fails the pass.
        let mut errors = errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(first) => {
                errors.for_each(emit);
                Err(first)
            }
        }
    }
}

fn emit(f: PassFailure) {
    let msg = std::ffi::CString::new(format!("floors-tpu-check-legality: {}", f.message).replace('\0', " ")).expect("NUL removed");
    if let Some(loc) = f.location {
        // SAFETY: `loc` is the location of a live op of the module this pass runs on; `msg` is a NUL-terminated CString
        // that outlives the call.
        unsafe { mlirEmitError(loc, msg.as_ptr()) };
    }
}

/// The kernel module `@name` in the container: (module, kernel func).
fn find_kernel(container: MlirOperation, name: &str) -> Option<(MlirOperation, MlirOperation)> {
    // SAFETY: `container` is the live kernel container, a builtin.module (`is_kernel_container`): one region.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(container, 0)) };
    let m = raw::block_ops(body).into_iter().find(|&o| sym_name(o).as_deref() == Some(name))?;
    let f = lookup(m, name)?;
    Some((m, f))
}

fn sym_name(op: MlirOperation) -> Option<String> {
    raw::str_attr(op, "sym_name")
}

fn lookup(module: MlirOperation, name: &str) -> Option<MlirOperation> {
    // SAFETY: `module` is a live kernel module of the container, taken to be a builtin.module (one region).
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)) };
    raw::block_ops(body).into_iter().find(|&o| raw::name(o) == "func.func" && sym_name(o).as_deref() == Some(name))
}

fn func_args(f: MlirOperation) -> Vec<MlirValue> {
    // SAFETY: `f` is a live func.func (one region); the entry block is null-checked, and `i` stays below its argument
    // count.
    unsafe {
        let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
        if entry.ptr.is_null() {
            return Vec::new();
        }
        (0..mlirBlockGetNumArguments(entry)).map(|i| mlirBlockGetArgument(entry, i)).collect()
    }
}

fn memref_shape(t: MlirType) -> Option<Vec<i64>> {
    // SAFETY: `t` is a live type; rank and sizes are read only of a memref, with `i` below its rank.
    unsafe {
        if !mlirTypeIsAMemRef(t) {
            return None;
        }
        Some((0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect())
    }
}

fn array_len(a: Option<MlirAttribute>) -> Option<isize> {
    // SAFETY: `a` is a non-null attribute of a live op; its size is read only once it is known to be an ArrayAttr.
    a.filter(|a| unsafe { mlirAttributeIsAArray(*a) }).map(|a| unsafe { mlirArrayAttrGetNumElements(a) })
}

fn check(fusion: MlirOperation, (module, kernel): (MlirOperation, MlirOperation), target: &TpuTarget) -> Vec<PassFailure> {
    let mut errors = Vec::new();
    let args = func_args(kernel);
    // SAFETY: `fusion` is a live op of the module this pass runs on, so its context is live.
    let i32t = unsafe { mlirIntegerTypeGet(mlirOperationGetContext(fusion), 32) };
    // SAFETY: `a` is a live argument of the kernel function, `i32t` a type of the same context.
    let ngrid = args.iter().take_while(|&&a| unsafe { mlirTypeEqual(mlirValueGetType(a), i32t) }).count();
    let bounds = raw::i64_array(kernel, "iteration_bounds").unwrap_or_default();
    let semantics = array_len(raw::attr(kernel, "dimension_semantics")).unwrap_or(0) as usize;
    if bounds.len() != ngrid || (ngrid > 0 && semantics != ngrid) {
        errors.push(fail(
            fusion,
            format!(
                "kernel @{}: {ngrid} grid index argument(s), but iteration_bounds has {} and dimension_semantics {} entries",
                sym_name(kernel).unwrap_or_default(),
                bounds.len(),
                semantics
            ),
        ));
        return errors;
    }
    let arrays: Vec<MlirValue> = raw::operands(fusion).into_iter().chain(raw::results(fusion)).collect();
    let windows = raw::attr(kernel, "window_params");
    let mut vmem: u64 = 0;
    let ops = |i: usize| {
        if i < raw::operands(fusion).len() { format!("operand {i}") } else { format!("result {}", i - raw::operands(fusion).len()) }
    };
    if ngrid > 0 {
        let n = array_len(windows).unwrap_or(0) as usize;
        if n != arrays.len() {
            errors.push(fail(fusion, format!("window_params has {n} entries for {} operands and results", arrays.len())));
            return errors;
        }
    }
    for (i, &array) in arrays.iter().enumerate() {
        let Some(arg) = args.get(ngrid + i) else {
            errors.push(fail(fusion, format!("the kernel has no argument for {}", ops(i))));
            continue;
        };
        // SAFETY: `arg` is a live argument of the kernel function; only its type is read.
        let t = unsafe { mlirValueGetType(*arg) };
        let block = memref_shape(t).unwrap_or_default();
        let shape = raw::shape(array).unwrap_or_default();
        // SAFETY: `array` is a live operand or result of `fusion`; only its type is read.
        let bits = element_bits(unsafe { mlirValueGetType(array) });
        // An array left in HBM (`any`, moved by DMA) takes no VMEM.
        // SAFETY: `t` is the memref type of a kernel argument; its memory space is read only of a memref, and the C side
        // returns "" for anything but a #tpu.memory_space.
        let in_hbm = unsafe {
            mlirTypeIsAMemRef(t) && raw::string(floors_ir::capi::floorsTpuMemorySpaceName(mlirMemRefTypeGetMemorySpace(t))) == "any"
        };
        if !in_hbm {
            vmem += block.iter().product::<i64>().max(1) as u64 * raw::element_bytes(t) * if ngrid > 0 { 2 } else { 1 };
        }
        if ngrid == 0 {
            if block != shape {
                errors.push(fail(fusion, format!("{}: a grid-less kernel takes the whole array {shape:?}, not a block {block:?}", ops(i))));
            }
            continue;
        }
        // SAFETY: with `ngrid > 0`, `windows` was checked above to be an ArrayAttr of `arrays.len()` elements, and `i`
        // is below that.
        let w = unsafe { mlirArrayAttrGetElement(windows.expect("checked"), i as isize) };
        // SAFETY: `w` is a live element of `window_params`, read as a DictionaryAttr (what Mosaic's `window_params`
        // hold; not checked here); the key is a static string.
        let bounds_attr = unsafe { mlirDictionaryAttrGetElementByName(w, sref("window_bounds")) };
        let wb = raw::i64s_of(bounds_attr).unwrap_or_default();
        if wb != block {
            errors.push(fail(fusion, format!("{}: window_bounds {wb:?} differ from the kernel argument's shape {block:?}", ops(i))));
        }
        if wb.len() != shape.len() {
            errors.push(fail(fusion, format!("{}: window_bounds of rank {} for an array of rank {}", ops(i), wb.len(), shape.len())));
            continue;
        }
        if !shape.is_empty()
            && let Some(v) = block_rule_violation(&shape, &wb, bits)
        {
            errors.push(fail(fusion, format!("{} (array {shape:?}, block {wb:?}): {v}", ops(i))));
        }
        // SAFETY: as above: `w` is read as a DictionaryAttr.
        let map = unsafe { mlirDictionaryAttrGetElementByName(w, sref("transform_indices")) };
        // SAFETY: `map` is non-null here (checked first); this only reads its kind.
        let map_name = if map.ptr.is_null() || !unsafe { mlirAttributeIsAFlatSymbolRef(map) } {
            None
        } else {
            // SAFETY: `map` was checked to be a FlatSymbolRefAttr above.
            Some(unsafe { raw::string(mlirFlatSymbolRefAttrGetValue(map)) })
        };
        match map_name.as_deref().and_then(|n| lookup(module, n).map(|f| (n, f))) {
            None => errors.push(fail(fusion, format!("{}: window_params names no index map function in the kernel module", ops(i)))),
            Some((n, f)) => {
                // SAFETY: `a` is the non-null `function_type` of `f`, a live func.func found by `lookup`: a TypeAttr by
                // func.func's verifier.
                let ft = raw::attr(f, "function_type").map(|a| unsafe { mlirTypeAttrGetValue(a) });
                let (ins, outs) =
                    // SAFETY: `t` is a FunctionType: func.func's verifier requires `function_type` to hold one.
                    ft.map(|t| unsafe { (mlirFunctionTypeGetNumInputs(t), mlirFunctionTypeGetNumResults(t)) }).unwrap_or((0, 0));
                if ins as usize != ngrid || outs as usize != shape.len() {
                    errors.push(fail(
                        fusion,
                        format!("{}: index map @{n} takes {ins} and returns {outs} values; it must take the {ngrid} grid indices and return {} block indices", ops(i), shape.len()),
                    ));
                }
            }
        }
    }
    for &scratch in args.iter().skip(ngrid + arrays.len()) {
        // SAFETY: `scratch` is a live argument of the kernel function; only its type is read.
        let t = unsafe { mlirValueGetType(scratch) };
        vmem += memref_shape(t).unwrap_or_default().iter().product::<i64>().max(1) as u64 * raw::element_bytes(t);
    }
    if vmem > target.vmem_limit_bytes {
        errors.push(fail(
            fusion,
            format!(
                "VMEM: the windows (double-buffered) and scratch need {vmem} bytes, over the {} budget of {} bytes; use smaller blocks",
                target.chip, target.vmem_limit_bytes
            ),
        ));
    }
    check_matmuls(kernel, &mut errors);
    check_values(kernel, target, &mut errors);
    errors
}

/// Every vector value: elements of at most 32 bits, and no larger than the
/// scoped VMEM (the first value breaking each rule is reported).
fn check_values(kernel: MlirOperation, target: &TpuTarget, errors: &mut Vec<PassFailure>) {
    #[derive(Default)]
    struct Found {
        wide: Option<PassFailure>,
        big: Option<PassFailure>,
    }
    fn walk(op: MlirOperation, target: &TpuTarget, found: &mut Found) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                for r in raw::results(o) {
                    // SAFETY: `r` is a live result of `o`; only its type is read.
                    let t = unsafe { mlirValueGetType(r) };
                    // SAFETY: `t` is a live type; this only reads its kind.
                    if !unsafe { mlirTypeIsAVector(t) } {
                        continue;
                    }
                    let bits = element_bits(t);
                    let text = raw::type_text(t);
                    if bits > 32 {
                        found.wide.get_or_insert_with(|| fail(
                            o,
                            format!("`{}` makes a {text}: Mosaic lays out vectors of 32-bit or narrower elements only (no 64-bit vectors on a TPU)", raw::name(o)),
                        ));
                        continue;
                    }
                    // SAFETY: `t` is a vector type (checked above); `i` stays below its rank.
                    let n: u64 =
                        unsafe { (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize).max(0) as u64).product() };
                    // A value takes at least a byte per element (masks a 32-bit lane each).
                    let bytes = n.saturating_mul(if bits == 1 { 4 } else { bits.max(8) / 8 });
                    if bytes > target.vmem_limit_bytes {
                        found.big.get_or_insert_with(|| fail(
                            o,
                            format!(
                                "`{}` makes a {text} of {bytes} bytes, over the {} scoped VMEM of {} bytes on its own: the kernel needs smaller blocks or another form",
                                raw::name(o),
                                target.chip,
                                target.vmem_limit_bytes
                            ),
                        ));
                    }
                }
                walk(o, target, found);
            }
        }
    }
    let mut found = Found::default();
    walk(kernel, target, &mut found);
    errors.extend(found.wide.into_iter().chain(found.big));
}

fn check_matmuls(kernel: MlirOperation, errors: &mut Vec<PassFailure>) {
    fn walk(op: MlirOperation, errors: &mut Vec<PassFailure>) {
        for b in raw::region_blocks(op) {
            for o in raw::block_ops(b) {
                if raw::name(o) == "tpu.matmul" {
                    for (which, v) in ["lhs", "rhs"].iter().zip(raw::operands(o).into_iter().take(2)) {
                        // SAFETY: `v` is a live operand of the tpu.matmul `o`; only its type is read.
                        let t = unsafe { mlirValueGetType(v) };
                        // SAFETY: `t` is a vector type (tpu.matmul's verifier requires vector lhs and rhs), and `i`
                        // stays below its rank.
                        let shape: Vec<i64> =
                            unsafe { (0..mlirShapedTypeGetRank(t)).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect() };
                        if shape.len() < 2 {
                            continue;
                        }
                        let r = shape.len();
                        let tile = [sublanes(element_bits(t)), 128];
                        for (d, &m) in [r - 2, r - 1].iter().zip(&tile) {
                            let n = shape[*d];
                            if n > m && n % m != 0 {
                                errors.push(fail(
                                    o,
                                    format!(
                                        "tpu.matmul {which} {shape:?}: dimension {d} is {n}, neither a multiple of {m} nor within one {m}-wide tile (MXU); pad it to {}",
                                        (n + m - 1) / m * m
                                    ),
                                ));
                            }
                        }
                    }
                }
                walk(o, errors);
            }
        }
    }
    walk(kernel, errors);
}
