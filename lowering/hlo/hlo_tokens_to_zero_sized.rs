//! `floors-hlo-tokens-to-zero-sized`: `!stablehlo.token` values become
//! `tensor<0xi1>`, the value JAX itself passes for a token at run time
//! (`np.zeros(0, np.bool_)`). A token carries no data, only an order between
//! effects; on floors' single device, side-effecting ops (custom calls with
//! `has_side_effect`, host callbacks) already run in program order, so the
//! order a token threads through a program is kept without it. Every
//! function's argument and result types, every block argument and every op
//! result of token type change type; `stablehlo.create_token` and
//! `stablehlo.after_all` become empty constants. Programs with ordered
//! effects (`jax.debug.print(..., ordered=True)`, ordered `io_callback`) then
//! take and give a `bool[0]` per token, as JAX's runtime tokens are.
//! A module with an op that uses a token for more than order (`infeed`,
//! `outfeed`, `send`, `recv`, a custom call taking one) is left as it is:
//! that op is then refused by name at fusion.

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    ir::raw,
    op_builder::Builder,
    pass::{FloorsPass, PassFailure},
};

#[derive(Clone, Default)]
pub struct HloTokensToZeroSized;

struct Types {
    token: MlirType,
    empty: MlirType,
}

impl Types {
    fn new(ctx: MlirContext) -> Option<Self> {
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded (a dependent dialect of the pass); the
        // type text is a constant; a null result (dialect missing) is checked.
        unsafe {
            let token = mlirTypeParseGet(ctx, raw::sref("!stablehlo.token"));
            if token.ptr.is_null() {
                return None;
            }
            let i1 = mlirIntegerTypeGet(ctx, 1);
            let empty = mlirRankedTensorTypeGet(1, [0i64].as_ptr(), i1, mlirAttributeGetNull());
            Some(Self { token, empty })
        }
    }

    fn map(&self, t: MlirType) -> MlirType {
        // SAFETY: both types are live types of one context; equality of uniqued types is identity.
        if unsafe { mlirTypeEqual(t, self.token) } { self.empty } else { t }
    }

    fn is_token(&self, v: MlirValue) -> bool {
        // SAFETY: `v` is a live value; only its type is read.
        unsafe { mlirTypeEqual(mlirValueGetType(v), self.token) }
    }
}

/// The function type of `func` with tokens replaced; None when unchanged.
fn function_type(func: MlirOperation, types: &Types) -> Option<MlirAttribute> {
    let a = raw::attr(func, "function_type")?;
    // SAFETY: `a` is the function_type attribute of a live func.func: a TypeAttr holding a FunctionType (the
    // func verifier); inputs and results are read below their counts; the new type is built in the same context.
    unsafe {
        let ft = mlirTypeAttrGetValue(a);
        if !mlirTypeIsAFunction(ft) {
            return None;
        }
        let ins: Vec<MlirType> = (0..mlirFunctionTypeGetNumInputs(ft)).map(|i| types.map(mlirFunctionTypeGetInput(ft, i))).collect();
        let outs: Vec<MlirType> = (0..mlirFunctionTypeGetNumResults(ft)).map(|i| types.map(mlirFunctionTypeGetResult(ft, i))).collect();
        let new = mlirFunctionTypeGet(mlirTypeGetContext(ft), ins.len() as isize, ins.as_ptr(), outs.len() as isize, outs.as_ptr());
        (!mlirTypeEqual(new, ft)).then(|| mlirTypeAttrGet(new))
    }
}

fn rewrite(op: MlirOperation, types: &Types, n: &mut usize) {
    for block in raw::region_blocks(op) {
        // SAFETY: `block` is a live block of `op`; its arguments are read below their count and retyped in place
        // (every use is retyped alike, so the IR stays consistent once the pass is done).
        unsafe {
            for i in 0..mlirBlockGetNumArguments(block) {
                let arg = mlirBlockGetArgument(block, i);
                if types.is_token(arg) {
                    mlirValueSetType(arg, types.empty);
                    *n += 1;
                }
            }
        }
        for o in raw::block_ops(block) {
            let name = raw::name(o);
            if let Some(ft) = (name == "func.func").then(|| function_type(o, types)).flatten() {
                // SAFETY: `o` is a live func.func; the attribute is a TypeAttr of its context.
                unsafe { mlirOperationSetAttributeByName(o, raw::sref("function_type"), ft) };
            }
            if (name == "stablehlo.create_token" || name == "stablehlo.after_all") && raw::results(o).len() == 1 {
                let b = Builder::before(o);
                // SAFETY: an empty bool elements attribute of the empty tensor type (zero values, null pointer).
                let value = unsafe { mlirDenseElementsAttrBoolGet(types.empty, 0, std::ptr::null()) };
                let c = b.value("stablehlo.constant", &[], types.empty, &[("value", value)]);
                // SAFETY: `o` is live with one result; `c` is built right before it, so it dominates every use; `o` is
                // then erased and not visited again (its regions are none).
                unsafe {
                    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(o, 0), c);
                    mlirOperationDestroy(o);
                }
                *n += 1;
                continue;
            }
            for r in raw::results(o) {
                if types.is_token(r) {
                    // SAFETY: `r` is a live result; its users are retyped alike by this walk.
                    unsafe { mlirValueSetType(r, types.empty) };
                    *n += 1;
                }
            }
            rewrite(o, types, n);
        }
    }
}

/// Ops through which a token only passes (or which make one): anything else
/// with a token operand or result (`send`, `recv`, `infeed`, `outfeed`, a
/// custom call taking a token) uses it, and the module is left as it is, so
/// that op is refused by name at fusion.
const PASS_THROUGH: &[&str] = &[
    "func.func",
    "func.call",
    "func.return",
    "stablehlo.create_token",
    "stablehlo.after_all",
    "stablehlo.while",
    "stablehlo.if",
    "stablehlo.case",
    "stablehlo.return",
    "stablehlo.optimization_barrier",
];

/// The first op under `op` that uses a token for more than order.
fn token_user(op: MlirOperation, types: &Types) -> Option<MlirOperation> {
    for block in raw::region_blocks(op) {
        for o in raw::block_ops(block) {
            let uses_token = raw::operands(o).into_iter().chain(raw::results(o)).any(|v| types.is_token(v));
            if uses_token && !PASS_THROUGH.contains(&raw::name(o).as_str()) {
                return Some(o);
            }
            if let Some(u) = token_user(o, types) {
                return Some(u);
            }
        }
    }
    None
}

/// Retypes every token in `root`; returns how many values changed.
pub fn run(root: MlirOperation) -> usize {
    // SAFETY: `root` is the live op the pass runs on.
    let ctx = unsafe { mlirOperationGetContext(root) };
    let Some(types) = Types::new(ctx) else { return 0 };
    if let Some(user) = token_user(root, &types) {
        tracing::debug!("floors-hlo-tokens-to-zero-sized: '{}' uses a token; tokens kept", raw::name(user));
        return 0;
    }
    let mut n = 0;
    rewrite(root, &types, &mut n);
    n
}

impl FloorsPass for HloTokensToZeroSized {
    const ARGUMENT: &'static str = "floors-hlo-tokens-to-zero-sized";
    const NAME: &'static str = "FloorsHloTokensToZeroSized";
    const DESCRIPTION: &'static str =
        "Give !stablehlo.token values the type tensor<0xi1> (JAX's runtime token); create_token and after_all become empty constants";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw());
        tracing::debug!("floors-hlo-tokens-to-zero-sized: {n} values");
        Ok(())
    }
}
