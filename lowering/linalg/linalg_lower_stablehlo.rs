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
pub struct LinalgLowerStablehlo;

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
    if op_name_raw(o) != "stablehlo.custom_call" {
        return false;
    }
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

fn collect(root: MlirOperation, out: &mut Vec<MlirOperation>) {
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
                    if lowered && name != "stablehlo.return" && !is_host_custom_call(o) {
                        out.push(o);
                    }
                    if !SCALAR_BODY_OPS.contains(&name.as_str()) {
                        collect(o, out);
                    }
                }
            }
        }
    }
}

fn remaining(root: MlirOperation) -> Option<MlirOperation> {
    // SAFETY: `root` is a live op (the pass's op or one nested in it); `r` is below its region
    // count.
    unsafe {
        for r in 0..mlirOperationGetNumRegions(root) {
            for b in blocks(mlirOperationGetRegion(root, r)) {
                for o in block_ops(b) {
                    if super::is_library_call(o) {
                        continue;
                    }
                    if op_name_raw(o).starts_with("stablehlo.") && !is_host_custom_call(o) {
                        return Some(o);
                    }
                    if let Some(x) = remaining(o) {
                        return Some(x);
                    }
                }
            }
        }
    }
    None
}

fn lower(raw: MlirOperation, declared: &DeclaredTypes) -> R<()> {
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
        "reduce_window" => reduce::reduce_window(&Op::read(raw, declared)?),
        "map" => elementwise::map(&Op::read(raw, declared)?),
        "dot_general" | "dot" => dot_conv::dot_general(&Op::read(raw, declared)?),
        "convolution" => dot_conv::convolution(&Op::read(raw, declared)?),
        "gather" => gather_scatter::gather(&Op::read(raw, declared)?),
        "scatter" => gather_scatter::scatter(&Op::read(raw, declared)?),
        "select_and_scatter" => gather_scatter::select_and_scatter(&Op::read(raw, declared)?),
        "while" => control_flow::while_(&Op::read(raw, declared)?),
        "case" | "if" => control_flow::case(&Op::read(raw, declared)?, &short),
        "sort" => sort::sort(&Op::read(raw, declared)?),
        "chlo.top_k" => top_k::top_k(&Op::read(raw, declared)?),
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

    fn new() -> Self {
        Self
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
        collect(root, &mut ops);
        let mut declared = DeclaredTypes::default();
        for &o in &ops {
            declared.record(o);
        }
        let _templates = TemplateCache::install();
        for o in ops {
            lower(o, &declared)?;
        }
        if let Some(left) = remaining(root) {
            return Err(fail(left, format!("cannot lower '{}' to linalg yet (left behind)", op_name_raw(left))));
        }
        storage::to_storage_types(root)?;
        Ok(())
    }
}
