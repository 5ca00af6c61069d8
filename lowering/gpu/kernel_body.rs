//! What every GPU emitter does with a launch's body, shared by the loop
//! emitter (`floors-gpu-emit-kernels`), the fusion emitters it calls
//! (concatenate, input slices) and the GEMM emitters (`floors-gpu-emit-gemm`):
//! which top-level ops of a kernel run where ([`classify`]), one point of a
//! parallel nest placed in a launch ([`move_body_at`]), and a launch made
//! self-contained and its math approximated ([`finish_launch`]).

use mlir_sys::*;

use super::builder::{Builder, all_ops, replace_uses_within};
use floors_ir::{
    ir::{raw, raw::sref},
    pass::{PassFailure, fail_at as fail},
};

/// Transcendental functions floors approximates on f32 (f16/bf16 through
/// f32): [`UPSTREAM_FORMS`] and [`OWN_FORMS`].
pub const APPROXIMATED: &[&str] =
    &["exp", "expm1", "tanh", "log", "log1p", "log2", "erf", "erfc", "atan", "asin", "acos", "sin", "cos", "tan", "atan2", "cbrt", "powf"];

/// Upstream's polynomial approximations (`math-polynomial-approximation`).
const UPSTREAM_FORMS: &[&str] = &["exp", "expm1", "tanh", "log", "log1p", "log2", "erf", "erfc", "atan", "asin", "acos"];

/// floors' own scalar forms, computed in f64 and rounded once
/// (ir/cxx/FloorsMathCAPI.cpp, "floors.scalar.<f>"): upstream's sin/cos
/// reduce the argument in f32 (millions of ulp off at |x| ≈ 58, inf at
/// 3.4e38), its atan2 loses −0's sign (atan2(−0, x < 0) is +π), powf as
/// exp(y·log x) is 115 ulp off and NaN for pow(−inf, y), cbrt(inf) is NaN.
/// sin/cos/tan reduce |x| ≥ 2^28 by Payne–Hanek (no libm on the GPU).
const OWN_FORMS: &[&str] = &["sin", "cos", "tan", "atan2", "cbrt", "powf"];

/// f64 math floors computes itself on the GPU (the CPU floor's f64 forms on
/// scalars, ≤ 1 ulp of glibc; atan2 and cbrt's forms take f64 too); the
/// rest of f64 math (sin, cos, pow, ...) is a located error.
const F64_FORMS: &[&str] = &["exp", "expm1", "tanh", "log", "log1p", "atan2", "cbrt"];

/// What a top-level op of a kernel function is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    /// Constants and temporaries: stay in the host function.
    Hoisted,
    /// Views and other pure ops: cloned into the launches that use them.
    Sinkable,
    /// A loop nest or a copy: spread over threads.
    Parallel,
    /// Anything else: runs on one thread.
    Serial,
}

pub fn classify(op: MlirOperation) -> Class {
    let name = raw::name(op);
    match name.as_str() {
        // A `gpu.launch` already there is floors-gpu-emit-gemm's (it only
        // makes one in functions with no serial code): it stays in place.
        // `llvm.mlir.poison` is constant-like: canonicalize hoists the wgmma
        // GEMM's initial accumulator struct out of its launch.
        "arith.constant" | "llvm.mlir.poison" | "memref.alloc" | "gpu.launch" => Class::Hoisted,
        "memref.subview"
        | "memref.expand_shape"
        | "memref.collapse_shape"
        | "memref.cast"
        | "memref.reinterpret_cast"
        | "memref.get_global" => Class::Sinkable,
        "scf.parallel" | "memref.copy" => Class::Parallel,
        _ => Class::Serial,
    }
}

/// Whether `op` or anything nested in it may write memory.
pub fn writes_memory(op: MlirOperation) -> bool {
    let name = raw::name(op);
    if matches!(name.as_str(), "memref.store" | "memref.copy" | "memref.atomic_rmw" | "memref.generic_atomic_rmw" | "func.call")
        || name.starts_with("linalg.")
        || name.starts_with("vector.transfer_write")
        || name == "vector.store"
    {
        return true;
    }
    raw::region_blocks(op).into_iter().flat_map(raw::block_ops).any(writes_memory)
}

/// Puts one point of parallel op `op` (an `scf.parallel` or a
/// `memref.copy`) at `b`, its induction variables replaced by `ivs`, then
/// erases `op`.
pub fn move_body_at(op: MlirOperation, b: &Builder, ivs: &[MlirValue]) {
    if raw::name(op) == "memref.copy" {
        let ops = raw::operands(op);
        // SAFETY: `ops[0]` is the source of the live memref.copy `op`, a memref, hence of a shaped type.
        let elem = unsafe { mlirShapedTypeGetElementType(mlirValueGetType(ops[0])) };
        let mut load_operands = vec![ops[0]];
        load_operands.extend(ivs);
        let v = b.value("memref.load", &load_operands, elem, &[]);
        let mut store_operands = vec![v, ops[1]];
        store_operands.extend(ivs);
        b.op("memref.store", &store_operands, &[], &[]);
    } else {
        // SAFETY: `op` is a live scf.parallel here (the copy case is above), whose region 0 holds its body block.
        let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        for (d, &iv) in ivs.iter().enumerate() {
            // SAFETY: the callers pass one value in `ivs` per induction variable of the nest, so `d` is an argument
            // index of `body`; `iv` is a live index value.
            unsafe { mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, d as isize), iv) };
        }
        let inner = raw::block_ops(body);
        if let Some((_reduce, rest)) = inner.split_last() {
            for &o in rest {
                b.move_here(o);
            }
        }
    }
    // SAFETY: `op` is a live, result-less scf.parallel (callers check with `loop_dims`/`space_of`) or memref.copy; its
    // body's ops were moved out or rebuilt above, and the callers do not use it afterwards.
    unsafe { mlirOperationDestroy(op) };
}

/// Clones the constants and views a launch uses from outside into it, and
/// approximates its transcendental functions.
pub fn finish_launch(launch: MlirOperation) -> Result<(), PassFailure> {
    // SAFETY: `launch` is a live gpu.launch, whose region 0 holds its body block.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(launch, 0)) };
    loop {
        let mut changed = false;
        for o in all_ops(launch) {
            for (i, v) in raw::operands(o).into_iter().enumerate() {
                let Some(p) = raw::producer(v) else { continue };
                if raw::is_within(p, launch)
                    || !matches!(classify(p), Class::Sinkable) && !matches!(raw::name(p).as_str(), "arith.constant" | "llvm.mlir.poison")
                {
                    continue;
                }
                // SAFETY: `body` is the launch's live body block; it holds at least its terminator.
                let first = unsafe { mlirBlockGetFirstOperation(body) };
                // SAFETY: `p` is a live constant or view outside the launch; the clone is detached until inserted below.
                let clone = unsafe { mlirOperationClone(p) };
                // SAFETY: the detached `clone` is inserted into `body`, which then owns it; it has as many results as
                // `p`, so `r` indexes one.
                unsafe {
                    mlirBlockInsertOwnedOperationBefore(body, first, clone);
                    // Every use of p's result inside the launch.
                    for (r, &orig) in raw::results(p).iter().enumerate() {
                        replace_uses_within(orig, mlirOperationGetResult(clone, r as isize), launch);
                    }
                }
                let _ = i;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // f16/bf16 math in f32 (as `math-extend-to-supported-types` does).
    for o in all_ops(launch) {
        let n = raw::name(o);
        if n.starts_with("math.") && raw::results(o).len() == 1 && is_half(result_type(o)) {
            extend_to_f32(o);
        }
    }
    let math: Vec<MlirOperation> = all_ops(launch)
        .into_iter()
        .filter(|&o| {
            let n = raw::name(o);
            // SAFETY: `r` is the live first result of `o`.
            let is =
                |f: unsafe extern "C" fn(MlirType) -> bool| raw::results(o).first().is_some_and(|&r| unsafe { f(mlirValueGetType(r)) });
            if n == "arith.remf" {
                // fmod: floors' exact scalar forms on f32 and f64 (libdevice's otherwise).
                return is(mlirTypeIsAF32) || is(mlirTypeIsAF64);
            }
            let Some(m) = n.strip_prefix("math.") else { return false };
            (APPROXIMATED.contains(&m) && is(mlirTypeIsAF32)) || (F64_FORMS.contains(&m) && is(mlirTypeIsAF64))
        })
        .collect();
    if !math.is_empty() {
        let names = UPSTREAM_FORMS
            .iter()
            .map(|f| f.to_string())
            .chain(OWN_FORMS.iter().map(|f| format!("floors.scalar.{f}")))
            .chain(std::iter::once("floors.scalar.remf".to_string()))
            .chain(
                ["floors.scalar.exp64", "floors.scalar.tanh64", "floors.scalar.log64", "floors.scalar.log1p64", "floors.expm1_64"]
                    .map(String::from),
            )
            .collect::<Vec<_>>()
            .join(",");
        // SAFETY: `math` holds `math.len()` live math ops of the launch and outlives the call, which only reads it (the
        // pointer is cast to `*mut` for the C signature); `names` outlives the call. The handles are not used afterwards
        // (the ops are re-collected).
        if !unsafe { floors_ir::capi::floorsApproximateMathOps(math.as_ptr() as *mut _, math.len() as isize, sref(&names)) } {
            return Err(fail(launch, "the polynomial approximation of math functions failed"));
        }
    }
    // What is left must have an NVPTX instruction (after convert-gpu-to-nvvm,
    // `floors-gpu-resolve-libdevice` turns their `__nv_*` calls into LLVM
    // intrinsics); anything else is an error naming the op.
    for o in all_ops(launch) {
        let n = raw::name(o);
        let Some(m) = n.strip_prefix("math.") else { continue };
        let t = result_type(o);
        // SAFETY: type predicates accept any live type; `t` is the result type of a math op.
        let float = unsafe { mlirTypeIsAF32(t) || mlirTypeIsAF64(t) };
        let native = matches!(m, "fma" | "absf" | "floor" | "ceil" | "sqrt" | "rsqrt" | "trunc" | "roundeven" | "round" | "copysign")
            && float
            || matches!(m, "absi" | "ctlz" | "cttz" | "ctpop");
        if !native {
            return Err(fail(
                o,
                format!(
                    "'{n}' on {} has no GPU lowering: floors approximates {} on f32 (f16/bf16 through f32) and {} on f64, and does not link libdevice",
                    raw::type_text(t),
                    APPROXIMATED.join(", "),
                    F64_FORMS.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn result_type(o: MlirOperation) -> MlirType {
    // SAFETY: every caller passes a live math op, and every math op has a result 0.
    unsafe { mlirValueGetType(mlirOperationGetResult(o, 0)) }
}

fn is_half(t: MlirType) -> bool {
    // SAFETY: type predicates accept any live type.
    unsafe { mlirTypeIsAF16(t) || mlirTypeIsABF16(t) }
}

/// Rewrites an f16/bf16 math op as extf → the op on f32 → truncf.
fn extend_to_f32(o: MlirOperation) {
    let b = Builder::before(o);
    // SAFETY: `b.ctx` is `o`'s live context.
    let f32 = unsafe { mlirF32TypeGet(b.ctx) };
    let half = result_type(o);
    let operands: Vec<MlirValue> = raw::operands(o)
        .into_iter()
        // SAFETY: `v` is a live operand of `o`.
        .map(|v| if is_half(unsafe { mlirValueGetType(v) }) { b.value("arith.extf", &[v], f32, &[]) } else { v })
        .collect();
    // SAFETY: `o` is a live math op.
    let attrs: Vec<(String, MlirAttribute)> = (0..unsafe { mlirOperationGetNumAttributes(o) })
        .map(|i| {
            // SAFETY: `i` is below the attribute count of `o` just read.
            let na = unsafe { mlirOperationGetAttribute(o, i) };
            // SAFETY: `na.name` is the live identifier of that attribute; its text is copied at once.
            (raw::string(unsafe { mlirIdentifierStr(na.name) }), na.attribute)
        })
        .collect();
    let attrs: Vec<(&str, MlirAttribute)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let wide = b.value(&raw::name(o), &operands, f32, &attrs);
    let narrow = b.value("arith.truncf", &[wide], half, &[]);
    // SAFETY: as for powf: `o` has one result, whose uses all move to `narrow`, so `o` is unused when it is destroyed.
    unsafe {
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(o, 0), narrow);
        mlirOperationDestroy(o);
    }
}
