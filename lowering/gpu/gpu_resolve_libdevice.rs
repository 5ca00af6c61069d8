//! `floors-gpu-resolve-libdevice` (on a `gpu.module`, after
//! `convert-gpu-to-nvvm`): floors does not link libdevice, so the calls
//! `convert-gpu-to-nvvm` made to libdevice's `__nv_*` functions for math
//! with a native NVPTX instruction (fabs, floor, ceil, trunc, rint, round,
//! sqrt, rsqrt, fma, copysign; f32 and f64) become LLVM intrinsics, and
//! their declarations go. Any other `__nv_*` call is an error naming it
//! (transcendental functions were approximated earlier, by
//! `floors-gpu-emit-kernels`), so no PTX leaves with an unresolved extern.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::builder::{Builder, all_ops};
use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

#[derive(Clone, Default)]
pub struct GpuResolveLibdevice;

/// libdevice function (without `__nv_` and the `f` suffix) → LLVM intrinsic.
const NATIVE: &[(&str, &str)] = &[
    ("fabs", "llvm.intr.fabs"),
    ("floor", "llvm.intr.floor"),
    ("ceil", "llvm.intr.ceil"),
    ("trunc", "llvm.intr.trunc"),
    ("rint", "llvm.intr.roundeven"),
    ("nearbyint", "llvm.intr.roundeven"),
    ("round", "llvm.intr.round"),
    ("sqrt", "llvm.intr.sqrt"),
    ("fma", "llvm.intr.fma"),
    ("copysign", "llvm.intr.copysign"),
    ("fmin", "llvm.intr.minnum"),
    ("fmax", "llvm.intr.maxnum"),
];

impl FloorsPass for GpuResolveLibdevice {
    const ARGUMENT: &'static str = "floors-gpu-resolve-libdevice";
    const NAME: &'static str = "FloorsGpuResolveLibdevice";
    const DESCRIPTION: &'static str = "Replace libdevice calls that have a native NVPTX instruction with LLVM intrinsics; reject the rest";
    const ANCHOR: &'static str = "gpu.module";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        vec![DialectHandle::llvm()]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        let mut decls = Vec::new();
        for o in all_ops(root) {
            let name = raw::name(o);
            if name == "llvm.func" {
                if let Some(a) = raw::attr(o, "sym_name")
                    // SAFETY: `a` is the non-null `sym_name` of the live llvm.func `o`, a StringAttr as the Symbol
                    // verifier requires.
                    && raw::string(unsafe { mlirStringAttrGetValue(a) }).starts_with("__nv_")
                {
                    decls.push(o);
                }
                continue;
            }
            if name != "llvm.call" {
                continue;
            }
            let Some(callee) = raw::attr(o, "callee") else { continue };
            let callee = raw::attr_text(callee);
            let Some(f) = callee.strip_prefix("@__nv_") else { continue };
            let base = f.strip_suffix('f').filter(|b| NATIVE.iter().any(|(n, _)| n == b) || *b == "rsqrt").unwrap_or(f);
            let results = raw::results(o);
            let Some(&r) = results.first() else { return Err(fail(o, format!("unexpected libdevice call {callee}"))) };
            // SAFETY: `r` is the live first result of the llvm.call `o`.
            let t = unsafe { mlirValueGetType(r) };
            let b = Builder::before(o);
            let args = raw::operands(o);
            let new = if base == "rsqrt" {
                let s = b.value("llvm.intr.sqrt", &args, t, &[]);
                // SAFETY: `b.ctx` is `o`'s live context and `t` the call's result type, f32 or f64 for `__nv_rsqrt[f]`,
                // a float type as the attribute requires.
                let one = b.value("llvm.mlir.constant", &[], t, &[("value", unsafe { mlirFloatAttrDoubleGet(b.ctx, t, 1.0) })]);
                b.value("llvm.fdiv", &[one, s], t, &[])
            } else if let Some((_, intr)) = NATIVE.iter().find(|(n, _)| *n == base) {
                b.value(intr, &args, t, &[])
            } else {
                return Err(fail(o, format!("{callee} (libdevice) has no GPU lowering: floors does not link libdevice")));
            };
            // SAFETY: `r` is the call's only result and `new` a live value of its type built before `o`; once its uses
            // are moved, `o` (a call without regions, so no other collected op lies in it) is unused and destroyed once.
            unsafe {
                mlirValueReplaceAllUsesOfWith(r, new);
                mlirOperationDestroy(o);
            }
        }
        for d in decls {
            let sym = raw::str_attr(d, "sym_name").unwrap_or_default();
            let used = all_ops(root).iter().any(|&o| raw::attr(o, "callee").is_some_and(|c| raw::attr_text(c) == format!("@{sym}")));
            if !used {
                // SAFETY: `d` is a live libdevice declaration with no results and, by the walk just made, no call naming
                // it.
                unsafe { mlirOperationDestroy(d) };
            }
        }
        Ok(())
    }
}
