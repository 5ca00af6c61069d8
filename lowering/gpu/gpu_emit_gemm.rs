//! `floors-gpu-emit-gemm`: the matmuls of `gemm` kernels (on memrefs) become
//! `gpu.launch` ops of a shared-memory tiled GEMM — SIMT, `mma.sync` tensor
//! cores (sm_80+, f16/bf16) or `wgmma` (sm_90a). The tiling, the checks and
//! the emitters are in [`super::gemm`], [`super::emit_gemm_mma`] and
//! [`super::emit_gemm_wgmma`]; this pass picks one per matmul and records
//! the plan (`floors.gpu_codegen`).

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::{
    emit_gemm_mma, emit_gemm_wgmma,
    gemm::{check, emit, is_matmul},
};
use floors_ir::{
    contract::{GPU_CODEGEN_ATTR, KERNEL_ATTR},
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure},
    target::GpuTarget,
};

#[derive(Clone, Default)]
pub struct GpuEmitGemm;

impl FloorsPass for GpuEmitGemm {
    const ARGUMENT: &'static str = "floors-gpu-emit-gemm";
    const NAME: &'static str = "FloorsGpuEmitGemm";
    const DESCRIPTION: &'static str =
        "Replace the linalg.matmul/batch_matmul of gemm kernels (on memrefs) by gpu.launch ops of a shared-memory tiled GEMM";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: every `h` below comes from an upstream `mlirGetDialectHandle__*__` getter, a valid static dialect
        // handle.
        let raw = |h: MlirDialectHandle| unsafe { DialectHandle::from_raw(h) };
        // SAFETY: the `mlirGetDialectHandle__*__` getters take no arguments and return static registration handles.
        unsafe {
            vec![
                DialectHandle::gpu(),
                DialectHandle::scf(),
                DialectHandle::arith(),
                DialectHandle::memref(),
                raw(mlirGetDialectHandle__vector__()),
                DialectHandle::llvm(),
                raw(mlirGetDialectHandle__math__()),
                raw(mlirGetDialectHandle__nvgpu__()),
                raw(mlirGetDialectHandle__nvvm__()),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let target = super::required_target(root)?;
        for b in raw::region_blocks(root) {
            for f in raw::block_ops(b) {
                if raw::name(f) == "func.func"
                    && raw::attr(f, KERNEL_ATTR).is_some()
                    && super::kernel_kind_is(f, floors_ir::dialects::FusionKind::Gemm)
                {
                    emit_function(f, &target)?;
                }
            }
        }
        Ok(())
    }
}

fn set_codegen(f: MlirOperation, text: &str) {
    // SAFETY: `f` is a live kernel function of the module the pass runs on; the attribute is built in its context, and
    // both string refs point at Rust strings that outlive the call (MLIR copies them).
    unsafe { mlirOperationSetAttributeByName(f, sref(GPU_CODEGEN_ATTR), mlirStringAttrGet(mlirOperationGetContext(f), sref(text))) };
}

fn emit_function(f: MlirOperation, target: &GpuTarget) -> Result<(), PassFailure> {
    let Some(&entry) = raw::region_blocks(f).first() else { return Ok(()) };
    let ops = raw::block_ops(entry);
    let matmuls: Vec<MlirOperation> = ops.iter().copied().filter(|&o| is_matmul(o)).collect();
    if matmuls.is_empty() {
        let linalg: Vec<String> = ops.iter().map(|&o| raw::name(o)).filter(|n| n.starts_with("linalg.") && n != "linalg.fill").collect();
        set_codegen(
            f,
            &format!(
                "gemm fallback (the dot was lowered to {} (non-canonical dimension numbers), not linalg.matmul/batch_matmul or a matmul-shaped contraction)",
                linalg.join(", ")
            ),
        );
        return Ok(());
    }
    // The rest must go through floors-gpu-emit-kernels' grid-stride path
    // (every op a loop nest after convert-linalg-to-parallel-loops): its
    // single-block path would move serial code and the fill into one launch
    // after ours.
    let serial = ops.iter().copied().find(|&o| {
        let n = raw::name(o);
        // A generic whose outermost loop is not parallel (a reduction, a
        // 0-d op) becomes serial loops, not an scf.parallel nest; so may a
        // linalg.reduce. (The matmuls themselves are replaced.)
        let loops_parallel = match n.as_str() {
            _ if is_matmul(o) => true,
            "linalg.generic" => floors_linalg::maps::parallel_iterators(o).is_some_and(|p| p.first() == Some(&true)),
            "linalg.reduce" => false,
            _ => true,
        };
        !(n.starts_with("linalg.") && loops_parallel
            || matches!(
                n.as_str(),
                "arith.constant"
                    | "memref.alloc"
                    | "memref.dealloc"
                    | "memref.copy"
                    | "memref.subview"
                    | "memref.expand_shape"
                    | "memref.collapse_shape"
                    | "memref.cast"
                    | "memref.reinterpret_cast"
                    | "memref.get_global"
                    | "func.return"
            ))
    });
    let mut plans = Vec::new();
    let mut reasons = Vec::new();
    for (i, &mm) in matmuls.iter().enumerate() {
        let plan = match serial {
            Some(s) => Err(format!("the kernel holds serial code ('{}'): single-block codegen", raw::name(s))),
            None => check(mm, target),
        };
        match plan {
            Ok(g) => {
                plans.push(g.plan());
                match g.mma {
                    Some(_) if g.wgmma => emit_gemm_wgmma::emit(mm, &g, i)?,
                    Some(_) => emit_gemm_mma::emit(mm, &g, i)?,
                    None => emit(mm, &g, i)?,
                }
            }
            Err(r) => reasons.push(r),
        }
    }
    let mut text = String::new();
    if let Some(first) = plans.first() {
        if plans.iter().all(|p| p == first) {
            text.push_str(first);
            if plans.len() > 1 {
                text.push_str(&format!(" x{}", plans.len()));
            }
        } else {
            text.push_str(&plans.join(", "));
        }
    }
    if !reasons.is_empty() {
        if !text.is_empty() {
            text.push_str(", ");
        }
        text.push_str(&format!("gemm fallback ({})", reasons.join("; ")));
    }
    set_codegen(f, &text);
    Ok(())
}
