//! `floors-hlo-fft-to-call`: `stablehlo.fft` becomes `stablehlo.custom_call
//! @floors.fft` with `mhlo.backend_config = {fft_type = "RFFT", fft_length =
//! array<i64: ...>}`. XLA:CPU runs an FFT as a thunk of its own over a
//! library (DUCC); floors does the same through its built-in `floors.fft`
//! handler (`floors_runtime::fft`, over `rustfft`: O(n log n) for every
//! length), so the runtime, with no compiler in it, computes it. The call
//! keeps the op's location, operand and result; a call is not fused, so the
//! transform reads and writes whole buffers as XLA's thunk does.

use melior::ir::OperationRef;
use mlir_sys::*;

use super::builder::stablehlo_dialect;
use floors_ir::{
    dialects::stablehlo::FftOp,
    ir::raw,
    op_builder::Builder,
    pass::{FloorsPass, PassFailure, fail_at},
};

/// The built-in target (`floors_runtime::fft::TARGET`).
pub const TARGET: &str = "floors.fft";

#[derive(Clone, Default)]
pub struct HloFftToCall;

fn rewrite(op: MlirOperation) -> Result<(), PassFailure> {
    let fft = FftOp::cast(op).ok_or_else(|| fail_at(op, "not a stablehlo.fft (internal)"))?;
    let kind = fft.fft_type().ok_or_else(|| fail_at(op, "'stablehlo.fft' without a valid fft_type"))?;
    let lengths = fft.fft_length().ok_or_else(|| fail_at(op, "'stablehlo.fft' without an fft_length"))?;
    let (operands, results) = (raw::operands(op), raw::results(op));
    if operands.len() != 1 || results.len() != 1 {
        return Err(fail_at(op, "'stablehlo.fft' takes one operand and gives one result"));
    }
    let b = Builder::before(op);
    // SAFETY: `b.ctx` is the live context of `op`; every attribute is built in it from owned data (names and strings
    // are copied by MLIR); the result type is the live result type of `op`.
    let call = unsafe {
        let ctx = b.ctx;
        let named = |name: &str, a: MlirAttribute| mlirNamedAttributeGet(mlirIdentifierGet(ctx, raw::sref(name)), a);
        let config = [
            named("fft_type", mlirStringAttrGet(ctx, raw::sref(kind.as_str()))),
            named("fft_length", mlirDenseI64ArrayGet(ctx, lengths.len() as isize, lengths.as_ptr())),
        ];
        let dict = mlirDictionaryAttrGet(ctx, config.len() as isize, config.as_ptr());
        b.op(
            "stablehlo.custom_call",
            &operands,
            &[mlirValueGetType(results[0])],
            &[("call_target_name", mlirStringAttrGet(ctx, raw::sref(TARGET))), ("mhlo.backend_config", dict)],
        )
    };
    // SAFETY: `op` and `call` are live; `call` is right before `op` and has its one result; `op` is erased after its
    // uses move and not used again.
    unsafe {
        mlirValueReplaceAllUsesOfWith(results[0], mlirOperationGetResult(call, 0));
        mlirOperationDestroy(op);
    }
    Ok(())
}

/// Rewrites every `stablehlo.fft` under `root`; returns how many.
pub fn run(root: MlirOperation) -> Result<usize, PassFailure> {
    // SAFETY: `root` is the live op the pass runs on, borrowed only for this walk.
    let ffts = floors_ir::ir::collect_ops(&unsafe { OperationRef::from_raw(root) }, |o| raw::name(o.to_raw()) == "stablehlo.fft");
    let n = ffts.len();
    for op in ffts {
        rewrite(op)?;
    }
    Ok(n)
}

impl FloorsPass for HloFftToCall {
    const ARGUMENT: &'static str = "floors-hlo-fft-to-call";
    const NAME: &'static str = "FloorsHloFftToCall";
    const DESCRIPTION: &'static str =
        "Turn stablehlo.fft into a call of the runtime's built-in FFT (custom_call @floors.fft), as XLA:CPU runs an FFT thunk";
    const ANCHOR: &'static str = "";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        stablehlo_dialect()
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let n = run(op.to_raw())?;
        tracing::debug!("floors-hlo-fft-to-call: {n} ffts");
        Ok(())
    }
}
