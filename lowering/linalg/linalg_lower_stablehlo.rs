//! `floors-linalg-lower-stablehlo`: every stablehlo op → linalg / tensor /
//! arith / math / scf on tensors, ready for one-shot-bufferize. The output is
//! target-neutral: every floor's kernels start from it.
//!
//! The pass walks the op it runs on (a module, a func or a `floors.fusion`),
//! collects the stablehlo ops in pre-order and lowers each one in place:
//! - elementwise ops → `linalg.generic` with identity maps (0-d operands broadcast),
//!   payload from [`scalar`] (spec / XLA semantics for the corner cases);
//! - shape ops → `tensor` ops or index-mapping `linalg.generic`s ([`shape`]);
//! - reduce / reduce_window / map → `linalg.generic` with reduction iterators
//!   and the body turned into scalar code ([`reduce`]);
//! - dot_general / convolution → `linalg.matmul`/`batch_matmul` or a
//!   contraction `linalg.generic` ([`dot_conv`]);
//! - gather → `linalg.generic` with `tensor.extract`; scatter and
//!   select_and_scatter → `scf.for` nests over the updates / source
//!   ([`gather_scatter`]);
//! - while / case / if → `scf.while` / `scf.index_switch` / `scf.if`, whose
//!   bodies keep their ops (lowered in turn) ([`control_flow`]);
//! - sort → per-slice stable bottom-up merge sort in `scf.for`, O(n log n) ([`sort`]);
//!   with the option `keep-sorts=true`, a sort inside a fusion stays as it is
//!   for a floor that sorts on its own (the TPU floor's bitonic network on
//!   vectors, `lowering/tpu/emit_sort.rs`);
//! - custom_call outside fusions stays: the runtime runs it as a custom-call
//!   thunk (`lowering/host/lib.rs`);
//! - a fusion a library computes (`floors.library_call`, e.g. a cuBLAS gemm)
//!   keeps its StableHLO body: the runtime's library thunk runs it.
//!
//! Bodies of reduce/sort/scatter/map/reduce_window/select_and_scatter are not
//! visited on their own: their parent lowers them to scalar code. An op or
//! type the pass cannot lower fails the pass with a diagnostic at the op
//! ("cannot lower 'stablehlo.xyz' ... to linalg yet", or "'stablehlo.xyz' is
//! not supported yet" for an op with no lowering at all); no stablehlo op is
//! ever left behind silently.
//!
//! Each lowering writes its replacement as MLIR text (see [`common`]): a
//! `func.func` template parsed in the pass's context and spliced in place of
//! the op, every new op carrying the stablehlo op's location.
//!
//! Element types: i1, signed and unsigned 8–64-bit integers, f16, bf16, f32,
//! f64. The lowered IR computes on signless integers: each op picks the
//! unsigned or signed form from the stablehlo types, read before any op is
//! lowered ([`common::DeclaredTypes`]); then [`storage`] turns every
//! remaining `uiN` inside fusions (and in functions lowered whole) into
//! `iN`, while a fused program's host level keeps the declared types.
//!
//! The output bufferizes and runs with (what the e2e lit tests use):
//! `floors-linalg-lower-stablehlo,eliminate-empty-tensors,
//! one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries
//! function-boundary-type-conversion=identity-layout-map},
//! func.func(convert-linalg-to-loops),convert-scf-to-cf,expand-strided-metadata,
//! lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,
//! convert-to-llvm,reconcile-unrealized-casts`. `allow-return-allocs-from-loops`
//! is needed when a while body yields a tensor that is not its iter_arg
//! (e.g. a call result); `convert-math-to-libm` takes the math ops LLVM has
//! no intrinsic for (tanh, atan2, cbrt, expm1, log1p, tan).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use floors_ir::pass::{FloorsPass, PassFailure};

mod common;
mod control_flow;
mod dot_conv;
mod elementwise;
mod gather_scatter;
mod reduce;
mod scalar;
mod shape;
mod sort;
mod storage;
mod top_k;

use common::*;

#[derive(Clone, Default)]
pub struct LinalgLowerStablehlo {
    forms: Forms,
}

/// The forms the pass's options choose (what a floor does on its own, what
/// its vectors can index).
#[derive(Clone, Copy, Default)]
struct Forms {
    /// `keep-sorts`: leave `stablehlo.sort` inside fusions to the floor
    /// (and `chlo.top_k` as a kept sort's prefix).
    keep_sorts: bool,
    /// `keep-scatters`: leave `stablehlo.scatter` inside fusions to the floor.
    keep_scatters: bool,
    /// `conv-as-dots`: every convolution as dots over positions.
    conv_as_dots: bool,
    /// `windows-as-slices`: every reduce_window and select_and_scatter as
    /// slices (no window maps).
    windows_as_slices: bool,
}

/// Whether `o` is a sort (`keep-sorts`) or a scatter (`keep-scatters`)
/// inside a fusion that the pass leaves alone for the floor.
fn kept(o: MlirOperation, forms: Forms) -> bool {
    let name = op_name_raw(o);
    ((forms.keep_sorts && name == "stablehlo.sort") || (forms.keep_scatters && name == "stablehlo.scatter")) && !outside_fusions(o)
}

/// An op the pass would keep whose operands or region hold unsigned
/// integers is an error at the op: the storage types (`storage`) make them
/// signless, and a kept comparator's `UNSIGNED` comparisons (a combiner's
/// unsigned maximum) would then lose their signedness (the floor has no
/// other form for them yet).
fn refuse_unsigned_kept(root: MlirOperation, forms: Forms) -> R<()> {
    let mut found = None;
    walk_ops(root, &mut |o| {
        if found.is_none() && kept(o, forms) && holds_unsigned(o) {
            found = Some(o);
        }
    });
    match found {
        Some(o) if op_name_raw(o) == "stablehlo.sort" => Err(fail(
            o,
            "a sort of unsigned integers inside a fusion cannot be kept for the floor (keep-sorts) yet: its comparisons would lose their signedness",
        )),
        Some(o) => Err(fail(
            o,
            "a scatter of unsigned integers inside a fusion cannot be kept for the floor (keep-scatters) yet: its update computation would lose its signedness",
        )),
        None => Ok(()),
    }
}

fn holds_unsigned(o: MlirOperation) -> bool {
    let mut any = false;
    walk_ops(o, &mut |x| {
        // SAFETY: `x` is a live op nested in `o`; `i` is below its operand and result counts; only types are read.
        unsafe {
            for i in 0..mlirOperationGetNumOperands(x) {
                any |= storage::storage_type(mlirValueGetType(mlirOperationGetOperand(x, i))).is_some();
            }
            for i in 0..mlirOperationGetNumResults(x) {
                any |= storage::storage_type(mlirValueGetType(mlirOperationGetResult(x, i))).is_some();
            }
        }
    });
    any
}

/// Calls `f` on `root` and every op nested in it.
fn walk_ops(root: MlirOperation, f: &mut dyn FnMut(MlirOperation)) {
    f(root);
    // SAFETY: `root` is a live op; `r` is below its region count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(root) {
            for b in blocks(mlirOperationGetRegion(root, r)) {
                for o in block_ops(b) {
                    walk_ops(o, f);
                }
            }
        }
    }
}

/// Whether `o` has no `floors.fusion` ancestor.
fn outside_fusions(o: MlirOperation) -> bool {
    // SAFETY: `o` is a live op collected from the op the pass runs on.
    let mut p = unsafe { mlirOperationGetParentOperation(o) };
    while !p.ptr.is_null() {
        if op_name_raw(p) == "floors.fusion" {
            return false;
        }
        // SAFETY: `p` is a live, non-null ancestor of `o` (the loop checks it).
        p = unsafe { mlirOperationGetParentOperation(p) };
    }
    true
}

/// Ops whose regions hold scalar code that the op's own lowering consumes.
const SCALAR_BODY_OPS: &[&str] = &[
    "stablehlo.reduce",
    "stablehlo.reduce_window",
    "stablehlo.sort",
    "stablehlo.scatter",
    "stablehlo.select_and_scatter",
    "stablehlo.map",
];

/// A `stablehlo.custom_call` outside every fusion: the runtime calls its
/// handler (a custom-call thunk), so it stays as it is.
fn is_host_custom_call(o: MlirOperation) -> bool {
    op_name_raw(o) == "stablehlo.custom_call" && outside_fusions(o)
}

fn collect(root: MlirOperation, forms: Forms, out: &mut Vec<MlirOperation>) {
    // SAFETY: `root` is a live op (the pass's op or one nested in it); `r` is below its region
    // count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(root) {
            for b in blocks(mlirOperationGetRegion(root, r)) {
                for o in block_ops(b) {
                    if super::is_library_call(o) {
                        continue;
                    }
                    let name = op_name_raw(o);
                    let lowered = name.starts_with("stablehlo.") || name == "chlo.top_k";
                    if lowered && name != "stablehlo.return" && !is_host_custom_call(o) && !kept(o, forms) {
                        out.push(o);
                    }
                    if !SCALAR_BODY_OPS.contains(&name.as_str()) {
                        collect(o, forms, out);
                    }
                }
            }
        }
    }
}

fn remaining(root: MlirOperation, forms: Forms) -> Option<MlirOperation> {
    // SAFETY: `root` is a live op (the pass's op or one nested in it); `r` is below its region
    // count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(root) {
            for b in blocks(mlirOperationGetRegion(root, r)) {
                for o in block_ops(b) {
                    if super::is_library_call(o) {
                        continue;
                    }
                    if kept(o, forms) {
                        continue;
                    }
                    if op_name_raw(o).starts_with("stablehlo.") && !is_host_custom_call(o) {
                        return Some(o);
                    }
                    if let Some(x) = remaining(o, forms) {
                        return Some(x);
                    }
                }
            }
        }
    }
    None
}

fn lower(raw: MlirOperation, declared: &DeclaredTypes, forms: Forms) -> R<()> {
    let name = op_name_raw(raw);
    let short = name.strip_prefix("stablehlo.").unwrap_or(&name).to_string();
    if scalar::ELEMENTWISE.contains(&short.as_str()) {
        return elementwise::lower(&Op::read(raw, declared)?);
    }
    match short.as_str() {
        "constant"
        | "iota"
        | "broadcast_in_dim"
        | "reshape"
        | "transpose"
        | "slice"
        | "concatenate"
        | "pad"
        | "reverse"
        | "dynamic_slice"
        | "dynamic_update_slice"
        | "optimization_barrier"
        | "get_dimension_size"
        | "broadcast"
        | "batch_norm_inference" => shape::lower(&Op::read(raw, declared)?, &short),
        "reduce" => reduce::reduce(&Op::read(raw, declared)?),
        "reduce_window" => reduce::reduce_window(&Op::read(raw, declared)?, forms.windows_as_slices),
        "map" => elementwise::map(&Op::read(raw, declared)?),
        "dot_general" | "dot" => dot_conv::dot_general(&Op::read(raw, declared)?),
        "convolution" => dot_conv::convolution(&Op::read(raw, declared)?, forms.conv_as_dots),
        "gather" => gather_scatter::gather(&Op::read(raw, declared)?),
        "scatter" => gather_scatter::scatter(&Op::read(raw, declared)?),
        "select_and_scatter" => gather_scatter::select_and_scatter(&Op::read(raw, declared)?, forms.windows_as_slices),
        "while" => control_flow::while_(&Op::read(raw, declared)?),
        "case" | "if" => control_flow::case(&Op::read(raw, declared)?, &short),
        "sort" => sort::sort(&Op::read(raw, declared)?),
        "chlo.top_k" => top_k::top_k(&Op::read(raw, declared)?, forms.keep_sorts && !outside_fusions(raw)),
        "custom_call" => Err(fail(
            raw,
            "a 'stablehlo.custom_call' inside a fusion cannot be lowered: custom calls run as runtime thunks, outside fusions",
        )),
        // Ops of the dialect no floor compiles yet (collectives, tokens and
        // host transfers, dynamic shapes, linear algebra, FFT, rng,
        // quantization, ...): parsed and verified, then refused here, at the op.
        _ => Err(fail(raw, floors_hlo::fusion_analysis::not_supported(&name))),
    }
}

impl FloorsPass for LinalgLowerStablehlo {
    const ARGUMENT: &'static str = "floors-linalg-lower-stablehlo";
    const NAME: &'static str = "FloorsLinalgLowerStablehlo";
    const DESCRIPTION: &'static str = "Lower every stablehlo op to linalg/tensor/arith/math/scf on tensors (target-neutral)";
    const ANCHOR: &'static str = "";
    const OPTIONS: &'static [(&'static str, &'static str)] = &[
        ("keep-sorts", "true: leave `stablehlo.sort` inside fusions to the floor (the TPU floor sorts with a bitonic network)"),
        (
            "conv-as-dots",
            "true: every convolution as a sum of dots over window (or output) positions, shifted matmuls (the TPU floor's MXU form)",
        ),
        (
            "windows-as-slices",
            "true: every reduce_window as a fold over shifted slices, or a doubling scan when cumulative (no window-indexed maps)",
        ),
        ("keep-scatters", "true: leave `stablehlo.scatter` inside fusions to the floor (the TPU floor scatters rows by DMA)"),
    ];

    fn new() -> Self {
        Self::default()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let flag = match name {
            "keep-sorts" => &mut self.forms.keep_sorts,
            "keep-scatters" => &mut self.forms.keep_scatters,
            "conv-as-dots" => &mut self.forms.conv_as_dots,
            "windows-as-slices" => &mut self.forms.windows_as_slices,
            _ => return Err(format!("unknown option `{name}`")),
        };
        *flag = match value {
            "true" => true,
            "false" | "" => false,
            v => return Err(format!("expected true or false, not `{v}`")),
        };
        Ok(())
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![
            DialectHandle::func(),
            DialectHandle::linalg(),
            DialectHandle::tensor(),
            DialectHandle::arith(),
            // SAFETY: the getter takes nothing and returns the static handle of the math dialect,
            // linked into this binary.
            unsafe { DialectHandle::from_raw(mlirGetDialectHandle__math__()) },
            DialectHandle::scf(),
        ]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let mut ops = Vec::new();
        collect(root, self.forms, &mut ops);
        let mut declared = DeclaredTypes::default();
        for &o in &ops {
            declared.record(o);
        }
        let _templates = TemplateCache::install();
        refuse_unsigned_kept(root, self.forms)?;
        for o in ops {
            lower(o, &declared, self.forms)?;
        }
        if let Some(left) = remaining(root, self.forms) {
            return Err(fail(left, format!("cannot lower '{}' to linalg yet (left behind)", op_name_raw(left))));
        }
        storage::to_storage_types(root)?;
        Ok(())
    }
}
