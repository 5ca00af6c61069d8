//! `floors-tpu-select-blocks`: chooses, for every `floors.fusion` of a module
//! lowered to linalg (`floors-linalg-lower-stablehlo`), how its TPU kernel is
//! tiled, and writes it as `floors.tpu_plan = {strategy, grid, block}` on
//! the fusion (see [`super::blocks`] for the strategies). The emitter
//! (`floors-tpu-emit-kernels`) applies the plan; keeping the choice in an
//! attribute lets a lit test or a user pin a plan and see the kernel it gives
//! (a fusion that already has a plan keeps it).
//!
//! Order: the matmul strategy for a fusion around one `linalg.matmul` whose
//! operands are fusion inputs; else `rows`; else `whole` when every operand
//! fits VMEM at once. Block sizes: the largest legal block (Mosaic's (8,128)
//! rule, see [`super::blocks::block_rule_violation`]) whose windows stay
//! under 1 MiB each and, double-buffered, within the target's scoped VMEM;
//! matmul blocks up to 512 and multiples of the MXU side where the shape
//! allows. A fusion with an op the TPU floor does not lower, or too big for
//! any strategy, is an error at that op naming the reason.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;

use super::blocks::{
    self, NotApplicable, Plan, Strategy, Tiling, analyze, block_rule_violation, block_shape, body_of, divisors, element_bits, the_matmul,
};
use floors_ir::{
    ir::raw,
    pass::{FloorsPass, PassFailure, fail_at as fail},
    target::TpuTarget,
};

#[derive(Clone, Default)]
pub struct TpuSelectBlocks;

/// Windows above this many bytes are split when a smaller legal block exists.
const TARGET_WINDOW_BYTES: u64 = 1 << 20;
/// Largest matmul block along any axis.
const MAX_MATMUL_BLOCK: i64 = 512;

impl FloorsPass for TpuSelectBlocks {
    const ARGUMENT: &'static str = "floors-tpu-select-blocks";
    const NAME: &'static str = "FloorsTpuSelectBlocks";
    const DESCRIPTION: &'static str = "Choose each fusion's TPU kernel strategy, grid and block shape (floors.tpu_plan)";

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
        for fusion in super::collect_fusions(module) {
            // A plan already there was pinned (a test, a user): keep it.
            if raw::attr(fusion, blocks::TPU_PLAN_ATTR).is_some() {
                let plan = blocks::Plan::of(fusion).ok_or_else(|| fail(fusion, "a floors.tpu_plan that is not a #floors.tpu_plan"))?;
                plan.check().map_err(|e| fail(fusion, format!("floors.tpu_plan: {e}")))?;
                continue;
            }
            let plan = select(fusion, &target)?;
            // SAFETY: `fusion` is a live op of the module this pass runs on.
            let ctx = unsafe { mlirOperationGetContext(fusion) };
            let attr =
                plan.to_attribute(ctx).ok_or_else(|| fail(fusion, format!("internal error: a TPU plan that does not verify: {plan:?}")))?;
            // SAFETY: as above; `attr` belongs to the same context.
            unsafe { mlirOperationSetAttributeByName(fusion, raw::sref(blocks::TPU_PLAN_ATTR), attr) };
        }
        Ok(())
    }
}

fn select(fusion: MlirOperation, target: &TpuTarget) -> Result<Plan, PassFailure> {
    let body = body_of(fusion);
    let access = blocks::hbm_access(body);
    if let Some(bad) = super::unsupported_op(body, &access) {
        return Err(fail(bad.op, format!("cannot put this fusion on the TPU floor yet: {}", bad.reason)));
    }
    // A fusion with a row gather runs without a grid: the rows are DMAed.
    let why_not_rows = if access.gathers.is_empty() {
        if let Some(plan) = matmul_plan(fusion, target)? {
            return Ok(plan);
        }
        match rows_plan(fusion, target) {
            Ok(Ok(plan)) => return Ok(plan),
            Ok(Err(budget)) => return Err(fail(fusion, budget)),
            Err(na) => Some((na.op, na.reason)),
        }
    } else {
        Some((fusion, "it gathers rows by DMA".into()))
    };
    let bytes = whole_bytes(fusion, &access);
    if bytes <= target.vmem_limit_bytes {
        return Ok(Plan { strategy: Strategy::Whole, grid: vec![], block: vec![] });
    }
    let (at, reason) = why_not_rows.unwrap_or((fusion, "no grid strategy applies".into()));
    Err(fail(
        at,
        format!(
            "cannot tile this fusion for the TPU ({reason}), and its operands need {bytes} bytes of VMEM at once, over the {} budget of {} bytes",
            target.chip, target.vmem_limit_bytes
        ),
    ))
}

/// VMEM of a grid-less kernel: every operand and result whole, except the
/// inputs it reads or updates in HBM by DMA (and an updated input's result).
fn whole_bytes(fusion: MlirOperation, access: &blocks::HbmAccess) -> u64 {
    let inputs = raw::operands(fusion).into_iter().enumerate().filter(|&(i, _)| !access.in_hbm(i)).map(|(_, v)| v);
    let outputs = raw::results(fusion).into_iter().filter(|_| access.aliased().is_none());
    inputs.chain(outputs).map(raw::value_bytes).sum()
}

/// An operand or result of the kernel: its array shape, element bits and tiling.
struct Window {
    shape: Vec<i64>,
    bits: u64,
    bytes_per_elem: u64,
    tiling: Tiling,
}

impl Window {
    fn of(v: MlirValue, tiling: Tiling) -> Window {
        // SAFETY: `v` is a live value of the fusion (a body argument or an operand of its terminator); only its type is
        // read.
        let t = unsafe { mlirValueGetType(v) };
        Window { shape: raw::shape(v).unwrap_or_default(), bits: element_bits(t), bytes_per_elem: raw::element_bytes(t), tiling }
    }
    fn bytes(&self, block: &[i64]) -> u64 {
        block_shape(&self.shape, &self.tiling, block).iter().product::<i64>().max(1) as u64 * self.bytes_per_elem
    }
    fn violation(&self, block: &[i64]) -> Option<String> {
        if self.shape.is_empty() {
            return None;
        }
        block_rule_violation(&self.shape, &block_shape(&self.shape, &self.tiling, block), self.bits)
    }
}

/// The kernel's windows under an analysis: fusion inputs (body arguments) then results.
fn windows(fusion: MlirOperation, a: &blocks::Analysis) -> Vec<Window> {
    let body = body_of(fusion);
    let mut out = Vec::new();
    // SAFETY: `body` is the live body block of `fusion`; `i` stays below its argument count, read here.
    unsafe {
        for i in 0..mlirBlockGetNumArguments(body) {
            let v = mlirBlockGetArgument(body, i);
            out.push(Window::of(v, a.of(v)));
        }
    }
    let terminator = raw::block_ops(body).last().copied();
    for v in terminator.map(raw::operands).unwrap_or_default() {
        out.push(Window::of(v, a.of(v)));
    }
    out
}

/// Ok(Ok(plan)), Ok(Err(why the budget is exceeded)), or Err(why rows does not apply).
fn rows_plan(fusion: MlirOperation, target: &TpuTarget) -> Result<Result<Plan, String>, NotApplicable> {
    let body = body_of(fusion);
    let terminator = *raw::block_ops(body).last().ok_or_else(|| NotApplicable { op: fusion, reason: "an empty fusion body".into() })?;
    let yields = raw::operands(terminator);
    let shapes: Vec<Vec<i64>> = yields.iter().map(|&v| raw::shape(v).unwrap_or_default()).collect();
    let Some(n) = shapes.first().and_then(|s| s.first().copied()) else {
        return Err(NotApplicable { op: terminator, reason: "a result is a scalar".into() });
    };
    if shapes.iter().any(|s| s.first() != Some(&n)) {
        return Err(NotApplicable { op: terminator, reason: "the results differ in their leading dimension".into() });
    }
    let demands: Vec<Tiling> = shapes.iter().map(|s| (0..s.len()).map(|d| (d == 0).then_some(0)).collect()).collect();
    let a = analyze(body, &demands, &[])?;
    let ws = windows(fusion, &a);
    let legal: Vec<i64> = divisors(n).into_iter().filter(|&b| ws.iter().all(|w| w.violation(&[b]).is_none())).collect();
    let total = |b: i64| ws.iter().map(|w| 2 * w.bytes(&[b])).sum::<u64>();
    let fits = |b: i64| total(b) <= target.vmem_limit_bytes;
    let small = |b: i64| ws.iter().all(|w| w.bytes(&[b]) <= TARGET_WINDOW_BYTES);
    let pick = legal.iter().copied().find(|&b| fits(b) && small(b)).or_else(|| legal.iter().copied().rev().find(|&b| fits(b)));
    // No divisor fits (a prime count of rows, say): a block that does not
    // divide the rows, the last one partial, as Pallas' `pl.cdiv` grids
    // do — reads past the end fill garbage rows that only ever make garbage
    // rows (the analysis tiles parallel loops only), writes past the end are
    // dropped.
    let edge = |b: i64| n % b != 0 && ws.iter().all(|w| w.violation(&[b]).is_none()) && fits(b);
    let pick = pick.or_else(|| (1..n).rev().find(|&b| edge(b) && small(b)).or_else(|| (1..n).rev().find(|&b| edge(b))));
    if legal.is_empty() && pick.is_none() {
        // No block of the rows meets Mosaic's block rules for every window
        // (a zero-size dimension has none): say which rule, not a budget.
        let why = if n == 0 {
            "the rows are zero-size".to_string()
        } else {
            ws.iter().find_map(|w| w.violation(&[n])).unwrap_or_else(|| "no divisor of the rows is legal".into())
        };
        return Ok(Err(format!("no block of the {n} rows is legal for every window ({why})")));
    }
    Ok(match pick {
        Some(b) => Ok(Plan { strategy: Strategy::Rows, grid: vec![(n + b - 1) / b], block: vec![b] }),
        None => {
            let smallest = *legal.last().unwrap_or(&n);
            Err(format!(
                "the smallest legal block ({smallest} of {n} rows) needs {} bytes of VMEM (windows double-buffered), over the {} budget of {} bytes",
                total(smallest),
                target.chip,
                target.vmem_limit_bytes
            ))
        }
    })
}

fn matmul_plan(fusion: MlirOperation, target: &TpuTarget) -> Result<Option<Plan>, PassFailure> {
    let body = body_of(fusion);
    let Some(mm) = the_matmul(body) else { return Ok(None) };
    let operands = raw::operands(mm);
    let (Some(a_shape), Some(b_shape)) = (raw::shape(operands[0]), raw::shape(operands[1])) else { return Ok(None) };
    let (m, k, n) = (a_shape[0], a_shape[1], b_shape[1]);
    let Some(&terminator) = raw::block_ops(body).last() else { return Ok(None) };
    let yields = raw::operands(terminator);
    if yields.iter().any(|&v| raw::shape(v) != Some(vec![m, n])) {
        return Ok(None);
    }
    let demands: Vec<Tiling> = yields.iter().map(|_| vec![Some(0), Some(1)]).collect();
    let Ok(mut a) = analyze(body, &demands, &[mm]) else { return Ok(None) };
    if a.of(raw::results(mm)[0]) != vec![Some(0), Some(1)] {
        return Ok(None);
    }
    for (v, t) in [(operands[0], vec![Some(0), Some(2)]), (operands[1], vec![Some(2), Some(1)])] {
        if a.tiling.get(&blocks::key(v)).is_some_and(|old| *old != t) {
            return Ok(None);
        }
        a.tiling.insert(blocks::key(v), t);
    }
    let ws = windows(fusion, &a);
    let full = [m, n, k];
    let legal_along = |axis: usize, size: i64| -> Vec<i64> {
        divisors(size)
            .into_iter()
            .filter(|&b| {
                let mut block = full;
                block[axis] = b;
                ws.iter().all(|w| w.violation(&block).is_none())
            })
            .collect()
    };
    let prefer = |cands: Vec<i64>| -> i64 {
        let mxu = i64::from(target.mxu);
        cands
            .iter()
            .copied()
            .find(|&b| b <= MAX_MATMUL_BLOCK && b % mxu == 0)
            .or_else(|| cands.iter().copied().find(|&b| b <= MAX_MATMUL_BLOCK))
            .or_else(|| cands.last().copied())
            .unwrap_or(1)
    };
    let block = vec![prefer(legal_along(0, m)), prefer(legal_along(1, n)), prefer(legal_along(2, k))];
    if ws.iter().any(|w| w.violation(&block).is_some()) {
        return Ok(None);
    }
    let acc = (block[0] * block[1]) as u64 * 4;
    let total: u64 = ws.iter().map(|w| 2 * w.bytes(&block)).sum::<u64>() + acc;
    if total > target.vmem_limit_bytes {
        return Err(fail(
            mm,
            format!(
                "the matmul's blocks {}x{}x{} need {total} bytes of VMEM, over the {} budget of {} bytes",
                block[0], block[1], block[2], target.chip, target.vmem_limit_bytes
            ),
        ));
    }
    Ok(Some(Plan { strategy: Strategy::Matmul, grid: vec![m / block[0], n / block[1], k / block[2]], block }))
}
