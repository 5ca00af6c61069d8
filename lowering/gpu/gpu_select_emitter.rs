//! `floors-gpu-select-emitter`: decides, per `floors.fusion`, which emitter
//! writes its kernel, in XLA:GPU's priority order, and records the decision
//! as `floors.gpu_emitter = {kind, reason, block, grid}` on the fusion (the
//! IREE habit: the configuration is an attribute, separate from the passes
//! that apply it).
//!
//! Order (XLA's `GetFusionEmitter`):
//! 1. a kind stamped by an earlier pass: `cublas` (a library call,
//!    `floors-gpu-rewrite-gemm`), `gemm` (floors' tiled GEMM);
//! 2. a reduction hero → `reduction` (row: the minor dimension is reduced;
//!    column: it is kept);
//! 3. a transpose hero that moves the minor dimension → `transpose`;
//! 4. several roots, all slices → `input_slices`;
//! 5. a single scatter root → `scatter` (atomics when the combiner is an
//!    add/max/min, else serial);
//! 6. a concatenate hero with at most 4 operands → `concatenate`;
//! 7. everything else → `loop`.
//!
//! `block`/`grid` are the emitter's planned launch dimensions; the launches
//! the kernels actually make are in the manifest (`floors.gpu_kernels`), and
//! which emitter generated each of them (a `gemm` fusion's matmul:
//! `floors-gpu-emit-gemm`'s tiled kernel, whose grid is planned here; the
//! reduction, transpose, scatter, concatenate and input-slices emitters; or the generic loops when a
//! nest does not fit, with the reason) is `floors.gpu_codegen` on the kernel
//! function: the plan here, the truth there.
//!
//! Launch dimensions come from the device description (`#floors.gpu_target`):
//! one thread per output element (per element of the largest operand for
//! a concatenation, of the sliced value for input slices), blocks of 256
//! threads (a warp multiple; fewer for small outputs), at most one wave of
//! blocks; the reduction emitter gives each row a warp (rows ≤ 1024
//! elements) or a block.
//!
//! Runs on the fused module (StableHLO bodies, so heroes are visible), before
//! `floors-linalg-lower-stablehlo`.

use melior::ir::OperationRef;
use mlir_sys::*;

use super::{builder::grid_stride_dims, plan::EmitterPlan};
use floors_ir::{
    contract::{GPU_EMITTER_ATTR, GPU_GEMM_ATTR, GPU_GEMM_REASON_ATTR},
    dialects::FusionKind,
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
    target::GpuTarget,
};

#[derive(Clone, Default)]
pub struct GpuSelectEmitter;

/// One fusion's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitterChoice {
    pub kind: &'static str,
    pub reason: String,
    pub block: [i64; 3],
    pub grid: [i64; 3],
}

impl FloorsPass for GpuSelectEmitter {
    const ARGUMENT: &'static str = "floors-gpu-select-emitter";
    const NAME: &'static str = "FloorsGpuSelectEmitter";
    const DESCRIPTION: &'static str = "Choose each fusion's GPU emitter (XLA's order) and its launch dimensions; record floors.gpu_emitter";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let target = super::required_target(root)?;
        for f in super::collect_fusions(root) {
            let c = choose(f, &target)?;
            // SAFETY: `f` is a live fusion of the module the pass runs on.
            let ctx = unsafe { mlirOperationGetContext(f) };
            let plan = EmitterPlan { kind: c.kind.to_string(), reason: c.reason.clone(), block: c.block, grid: c.grid };
            let Some(a) = plan.to_attribute(ctx) else {
                return Err(fail(f, format!("internal error: the emitter plan {plan:?} does not verify")));
            };
            // SAFETY: `f` is live and `a` an attribute of its context; the name is a static string.
            unsafe { mlirOperationSetAttributeByName(f, sref(GPU_EMITTER_ATTR), a) };
        }
        Ok(())
    }
}

fn elements(v: MlirValue) -> i64 {
    raw::shape(v).map(|s| s.iter().product::<i64>()).unwrap_or(1).max(1)
}

fn body_ops(f: MlirOperation) -> Vec<MlirOperation> {
    raw::region_blocks(f).into_iter().flat_map(raw::block_ops).collect()
}

/// The decision for one fusion.
pub fn choose(f: MlirOperation, target: &GpuTarget) -> Result<EmitterChoice, PassFailure> {
    // SAFETY: `f` is a live `floors.fusion` (the only caller passes one from `collect_fusions`), the op kind the C
    // getter casts to.
    let kind = FusionKind::from_c_public(unsafe { floors_ir::capi::floorsFusionGetKind(f) });
    let hero_name = raw::attr(f, "hero")
        // SAFETY: `a` is a non-null attribute of the live `f`.
        .filter(|a| unsafe { mlirAttributeIsAString(*a) })
        // SAFETY: `a` was checked to be a StringAttr just above; its value is copied at once.
        .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }))
        .unwrap_or_default();
    let out_elems = raw::results(f).iter().map(|&v| elements(v)).max().unwrap_or(1);
    let body = body_ops(f);
    let hero = body.iter().copied().find(|&o| raw::name(o) == hero_name);
    let loop_dims = |n: i64| {
        let (g, b) = grid_stride_dims(n, target);
        ([b, 1, 1], [g, 1, 1])
    };
    let stamped = raw::attr(f, GPU_GEMM_ATTR)
        // SAFETY: as above: `a` is a non-null attribute of `f`.
        .filter(|a| unsafe { mlirAttributeIsAString(*a) })
        // SAFETY: as above: `a` is a StringAttr.
        .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }));
    let gemm_reason = raw::attr(f, GPU_GEMM_REASON_ATTR)
        // SAFETY: as above: `a` is a non-null attribute of `f`.
        .filter(|a| unsafe { mlirAttributeIsAString(*a) })
        // SAFETY: as above: `a` is a StringAttr.
        .map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) }));
    let (kind_s, reason, (block, grid)): (&'static str, String, ([i64; 3], [i64; 3])) = match kind {
        FusionKind::Gemm if stamped.as_deref() == Some("library") => (
            "cublas",
            format!("stamped by floors-gpu-rewrite-gemm: a library call ({})", gemm_reason.as_deref().unwrap_or("no reason recorded")),
            ([0; 3], [0; 3]),
        ),
        FusionKind::Gemm => {
            // The tiled kernel's launch (lowering/gpu/gemm.rs) over the dot's [batch.., M, N] result.
            let shape = hero.and_then(|h| raw::results(h).first().and_then(|&r| raw::shape(r))).unwrap_or_default();
            let dims = match shape.as_slice() {
                [batch @ .., m, n] => ([super::gemm::THREADS, 1, 1], super::gemm::grid(batch.iter().product(), *m, *n)),
                _ => loop_dims(out_elems),
            };
            let reason = match gemm_reason {
                Some(why) => format!("dot hero ({hero_name}): floors' GEMM emitter ({why})"),
                None => format!("dot hero ({hero_name}): floors' GEMM emitter (floors-gpu-rewrite-gemm did not run)"),
            };
            ("gemm", reason, dims)
        }
        FusionKind::Reduction => {
            let (row, rows, row_len) = hero.map(reduction_shape).unwrap_or((true, out_elems, 1));
            if row {
                // A warp per row up to 1024 elements, else a block per row.
                let threads = if row_len <= 1024 { 32 } else { 256 };
                let rows_per_block = if threads == 32 { 8 } else { 1 };
                let grid = ((rows + rows_per_block - 1) / rows_per_block).max(1);
                (
                    "reduction",
                    format!(
                        "reduction hero reduces the minor dimension: row reduction of {rows} rows x {row_len} (plan: a {} per row)",
                        if threads == 32 { "warp" } else { "block" }
                    ),
                    ([threads, rows_per_block, 1], [grid.min(i32::MAX as i64), 1, 1]),
                )
            } else {
                // 32x8 tiles through shared memory: reads stay coalesced along the kept minor dimension.
                let grid = ((rows + 31) / 32).max(1);
                (
                    "reduction",
                    format!(
                        "reduction hero keeps the minor dimension: column reduction of {rows} columns x {row_len} (plan: 32x8 tiles through shared memory)"
                    ),
                    ([32, 8, 1], [grid, 1, 1]),
                )
            }
        }
        FusionKind::Transpose => {
            let shape = hero.and_then(|h| raw::results(h).first().and_then(|&r| raw::shape(r))).unwrap_or_default();
            let (rows, cols) = match shape.as_slice() {
                [] => (1, 1),
                [n] => (1, *n),
                s => (s[..s.len() - 1].iter().product::<i64>(), s[s.len() - 1]),
            };
            (
                "transpose",
                "transpose hero moves the minor dimension (plan: 32x32 tiles through shared memory, padded to 33)".into(),
                ([32, 8, 1], [((cols + 31) / 32).max(1), ((rows + 31) / 32).clamp(1, 65535), 1]),
            )
        }
        // One thread per element of the sliced value (XLA's InputSlicesFusion).
        FusionKind::InputSlices => (
            "input_slices",
            "several roots, all slices of the same input".into(),
            loop_dims(
                hero.and_then(|h| raw::operands(h).first().copied())
                    .or_else(|| raw::operands(f).first().copied())
                    .map(elements)
                    .unwrap_or(out_elems),
            ),
        ),
        FusionKind::Scatter => {
            let combiner = hero.map(scatter_combiner).unwrap_or_default();
            let atomic = matches!(
                combiner.as_str(),
                "arith.addf"
                    | "arith.addi"
                    | "arith.maximumf"
                    | "arith.minimumf"
                    | "arith.maxsi"
                    | "arith.minsi"
                    | "stablehlo.add"
                    | "stablehlo.maximum"
                    | "stablehlo.minimum"
            );
            let updates = hero.and_then(|h| raw::operands(h).last().copied()).map(elements).unwrap_or(1);
            let reason = if atomic {
                format!("single scatter root: combiner {combiner} as atomics, one thread per update")
            } else {
                format!(
                    "single scatter root: combiner {} has no atomic, serial over the updates",
                    if combiner.is_empty() { "(none: a plain store)" } else { &combiner }
                )
            };
            ("scatter", reason, if atomic { loop_dims(updates) } else { ([1, 1, 1], [1, 1, 1]) })
        }
        // One thread per element of the largest operand (XLA's ConcatenateFusion).
        FusionKind::Concatenate => (
            "concatenate",
            format!("concatenate hero with {} operands (at most 4)", hero.map(|h| raw::operands(h).len()).unwrap_or(0)),
            loop_dims(hero.and_then(|h| raw::operands(h).into_iter().map(elements).max()).unwrap_or(out_elems)),
        ),
        FusionKind::Convolution => (
            "loop",
            "convolution: no cuDNN in floors; the loop emitter over the output, the window as a serial loop".into(),
            loop_dims(out_elems),
        ),
        FusionKind::Custom => return Err(fail(f, "a custom fusion has no GPU emitter")),
        FusionKind::Loop => ("loop", "no reduction, transpose, slice, scatter or concatenate hero".into(), loop_dims(out_elems)),
    };
    Ok(EmitterChoice { kind: kind_s, reason, block, grid })
}

/// (row reduction?, kept elements, reduced elements) of a `stablehlo.reduce`.
fn reduction_shape(reduce: MlirOperation) -> (bool, i64, i64) {
    let input = raw::operands(reduce).first().and_then(|&v| raw::shape(v)).unwrap_or_default();
    let dims = raw::i64_array(reduce, "dimensions").unwrap_or_default();
    let rank = input.len() as i64;
    let reduced: i64 = dims.iter().map(|&d| input.get(d as usize).copied().unwrap_or(1)).product();
    let kept: i64 = input.iter().product::<i64>().max(1) / reduced.max(1);
    let row = rank == 0 || dims.contains(&(rank - 1));
    (row, kept.max(1), reduced.max(1))
}

/// The op combining old and new values in a scatter's update computation.
fn scatter_combiner(scatter: MlirOperation) -> String {
    raw::region_blocks(scatter)
        .into_iter()
        .flat_map(raw::block_ops)
        .map(raw::name)
        .find(|n| !n.ends_with("return") && !n.ends_with("yield"))
        .unwrap_or_default()
}
