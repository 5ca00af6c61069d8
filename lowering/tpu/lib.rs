//! The TPU floor: each fusion (on linalg, from the target-neutral
//! `lowering/linalg`) becomes a Mosaic kernel — the `tpu` dialect plus
//! func/arith/math/vector/memref/scf, with the grid, windows and index maps
//! Pallas writes — in a module nested in the program's module, one
//! `builtin.module @fusion_N` per kernel, ready for the hand-off.
//!
//! Passes (`floors-lower-tpu` runs them after `floors-linalg-lower-stablehlo`):
//! `floors-tpu-attach-target` (lit/mlir-opt), `floors-tpu-select-blocks` (the
//! plan per fusion), `floors-tpu-emit-kernels` (kernels from plans),
//! `floors-tpu-check-legality` (Mosaic's rules, checked before the hand-off).
//! Shared helper: [`blocks`] (plans, the tiling analysis, block rules); ops
//! are created with [`floors_ir::op_builder`].

pub mod artifact;
pub mod blocks;
pub mod cost;
pub mod emit_scatter;
pub mod emit_sort;
pub mod emit_structured;
pub mod emitter;
pub mod handoff;
pub mod import;
pub mod tpu_attach_target;
pub mod tpu_check_legality;
pub mod tpu_emit_kernels;
pub mod tpu_select_blocks;

use mlir_sys::*;

pub use tpu_attach_target::TpuAttachTarget;
pub use tpu_check_legality::TpuCheckLegality;
pub use tpu_emit_kernels::TpuEmitKernels;
pub use tpu_select_blocks::TpuSelectBlocks;

use floors_ir::{contract::TPU_KERNEL_MODULE_NAME, ir::raw};

pub fn register_passes() {
    floors_ir::pass::register::<TpuAttachTarget>();
    floors_ir::pass::register::<TpuSelectBlocks>();
    floors_ir::pass::register::<TpuEmitKernels>();
    floors_ir::pass::register::<TpuCheckLegality>();
}

/// Whether `op` is the module holding this floor's kernels.
pub fn is_kernel_container(op: MlirOperation) -> bool {
    floors_linalg::is_module_named(op, TPU_KERNEL_MODULE_NAME)
}

/// Fusions in pre-order (inside host control flow too), not looking into
/// the kernel container.
pub fn collect_fusions(root: MlirOperation) -> Vec<MlirOperation> {
    floors_linalg::collect_fusions(root, TPU_KERNEL_MODULE_NAME)
}

/// Ops a fusion body may hold for the TPU floor (structured ops are checked
/// further: their bodies must be scalar arith/math).
const BODY_OPS: &[&str] = &[
    "linalg.generic",
    "linalg.fill",
    "linalg.matmul",
    "linalg.batch_matmul",
    "tensor.empty",
    "tensor.extract",
    "tensor.collapse_shape",
    "tensor.expand_shape",
    "tensor.extract_slice",
    "tensor.insert_slice",
    "arith.constant",
    "stablehlo.sort",
    "stablehlo.scatter",
    "floors.yield",
];

/// The first op of a fusion body the TPU floor cannot lower, with why;
/// `access` is the body's [`blocks::hbm_access`] (its row gathers are
/// DMAs, not vector code).
pub fn unsupported_op(body: MlirBlock, access: &blocks::HbmAccess) -> Option<blocks::NotApplicable> {
    let bad = |op, reason: String| Some(blocks::NotApplicable { op, reason });
    for op in raw::block_ops(body) {
        if access.gathers.iter().any(|g| g.generic.ptr == op.ptr) {
            continue;
        }
        let name = raw::name(op);
        let scalar_math = (name.starts_with("arith.") || name.starts_with("math."))
            // SAFETY: `v` is an operand or result of `op`, a live op of the fusion body `body`; this only reads its
            // type's kind.
            && raw::operands(op).iter().chain(raw::results(op).iter()).all(|&v| !unsafe { mlirTypeIsAShaped(mlirValueGetType(v)) });
        if !BODY_OPS.contains(&name.as_str()) && !scalar_math {
            return bad(op, format!("'{name}' has no TPU lowering"));
        }
        match name.as_str() {
            "stablehlo.sort" => {
                if let Some((at, why)) = emit_sort::unsupported_sort(op) {
                    return bad(at, why);
                }
            }
            "stablehlo.scatter" => {
                if let Err(why) = emit_scatter::row_scatter(body, op) {
                    return bad(op, why);
                }
            }
            "arith.constant" => {
                // SAFETY: `r` is a result of the live op `op`; this only reads its type's kind.
                let shaped = raw::results(op).first().is_some_and(|&r| unsafe { mlirTypeIsAShaped(mlirValueGetType(r)) });
                if shaped
                    && !blocks::is_splat_constant(op)
                    && raw::results(op).first().and_then(|&r| raw::shape(r)).is_some_and(|s| !s.is_empty())
                {
                    return bad(op, "a constant array that is not a splat has no TPU lowering yet".into());
                }
            }
            "tensor.extract_slice" | "tensor.insert_slice" => {
                // Only static offsets, sizes and strides (no SSA operands besides the tensors).
                // Computed offsets (dynamic_slice, dynamic_update_slice) are
                // rotations of whole vectors: static sizes and unit strides.
                let tensors = if name == "tensor.extract_slice" { 1 } else { 2 };
                let dynamic = raw::operands(op).len() != tensors;
                let sizes_static = raw::i64_array(op, "static_sizes").is_some_and(|s| s.iter().all(|&x| x >= 0));
                let unit = raw::i64_array(op, "static_strides").is_some_and(|s| s.iter().all(|&x| x == 1));
                if dynamic && !(sizes_static && unit) {
                    return bad(op, format!("'{name}' with computed sizes or strides has no TPU lowering"));
                }
            }
            "tensor.extract" => {
                let indices = &raw::operands(op)[1..];
                if indices.iter().any(|&i| raw::producer(i).is_none_or(|p| raw::name(p) != "arith.constant")) {
                    return bad(op, "reading an element at a computed index has no TPU lowering yet (a gather)".into());
                }
            }
            "linalg.generic" => {
                if let Some(Err(why)) = blocks::structured(op) {
                    return bad(op, format!("a linalg.generic with {why} has no TPU lowering yet"));
                }
                for b in raw::region_blocks(op) {
                    for inner in raw::block_ops(b) {
                        let n = raw::name(inner);
                        let ok = n.starts_with("arith.") || n.starts_with("math.") || n == "linalg.index" || n == "linalg.yield";
                        // SAFETY: `inner` is a live op of the linalg.generic's body, walked just above.
                        if !ok || unsafe { mlirOperationGetNumRegions(inner) } > 0 {
                            return bad(inner, format!("'{n}' inside a linalg.generic has no TPU lowering"));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The `#floors.tpu_target` the TPU passes size kernels by; a located error
/// when the module has none.
pub fn target_of(module: MlirOperation) -> Result<floors_ir::target::TpuTarget, floors_ir::pass::PassFailure> {
    floors_ir::target::TpuTarget::of_operation(module).ok_or_else(|| {
        floors_ir::pass::fail_at(module, "no #floors.tpu_target on the module: compile with --target tpu or run floors-tpu-attach-target")
    })
}
