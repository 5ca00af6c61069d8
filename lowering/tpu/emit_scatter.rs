//! Scatters on the TPU floor (not a pass), as a Pallas author writes
//! `x.at[idx].add(u)` for a TPU: a scatter of whole rows along dimension 0
//! that is the fusion's result. The updates are stored once in a VMEM
//! scratch; then per update, in order, on the scalar core: its row index
//! computed from the fusion inputs in SMEM (JAX's negative-index wrap and
//! other elementwise index arithmetic absorbed, as a row gather's), the
//! operand row read, combined with the update row by the scatter's update
//! computation on vectors, and written back. Where the rows live:
//! - the operand is a fusion input nothing else reads: it stays in HBM,
//!   aliased to the result (`input_output_aliases`), so rows no update
//!   touches stay as they are; each row is DMAed into VMEM and back;
//! - the operand is computed in the kernel (`segment_sum`'s and
//!   `bincount`'s zeros): it is stored into the output's VMEM window, and
//!   each row is loaded and stored there at its (dynamic) index.
//!
//! An index out of bounds skips its update (XLA's rule). O(row) per update,
//! in the order the spec's loop applies them (repeated indices accumulate).

use std::collections::HashMap;

use mlir_sys::*;

use floors_ir::{dialects::stablehlo::ScatterOp, ir::raw, op_builder::Builder, pass::fail_at as fail};

use super::blocks::{sole_use_argument, trace_indices};
use super::emit_sort::REGION_OPS;
use super::emitter::*;

/// A scatter the TPU floor runs row by row by DMA (see the module).
pub struct RowScatter {
    pub op: MlirOperation,
    /// The fusion input scattered into (left in HBM, aliased to the result),
    /// None when the operand is computed in the kernel.
    pub operand: Option<usize>,
    /// The fusion inputs the indices come from, read in SMEM.
    pub smem_inputs: Vec<usize>,
    /// The fusion's ops computing the indices from those inputs, computed
    /// per update on the scalar core instead of as vectors.
    pub absorbed: Vec<MlirOperation>,
}

/// The scatter `op` of the fusion body `body` as a [`RowScatter`], or why
/// the TPU floor cannot run it.
pub fn row_scatter(body: MlirBlock, op: MlirOperation) -> Result<RowScatter, String> {
    let operands = raw::operands(op);
    let [x, idx, upd] = operands[..] else { return Err("a scatter of several operands has no TPU lowering yet".into()) };
    let dn = ScatterOp::cast(op).and_then(|s| s.dimension_numbers()).ok_or("a scatter without scatter_dimension_numbers")?;
    let (Some(xs), Some(is), Some(us)) = (raw::shape(x), raw::shape(idx), raw::shape(upd)) else {
        return Err("a scatter of unranked or dynamic shapes has no TPU lowering".into());
    };
    let r = xs.len();
    let rows = r >= 1
        && dn.input_batching_dims.is_empty()
        && dn.scatter_indices_batching_dims.is_empty()
        && dn.scatter_dims_to_operand_dims == [0]
        && dn.inserted_window_dims == [0]
        && dn.update_window_dims == (1..r as i64).collect::<Vec<_>>()
        && dn.index_vector_dim == 1
        && (is.len() == 1 || (is.len() == 2 && is[1] == 1))
        && us.len() == r
        && us[0] == is[0]
        && us[1..] == xs[1..];
    if !rows {
        return Err(
            "a scatter other than of whole rows along dimension 0 (indices [N] or [N, 1], updates [N, row...]) has no TPU lowering yet"
                .into(),
        );
    }
    // SAFETY: `x` and `idx` are live operands of `op`; only their types are read.
    if [x, idx].iter().any(|&v| super::blocks::element_bits(unsafe { mlirValueGetType(v) }) > 32) {
        return Err("a scatter of 64-bit elements or indices has no TPU lowering (Mosaic has no 64-bit vectors)".into());
    }
    for o in raw::region_blocks(op).into_iter().flat_map(raw::block_ops) {
        let n = raw::name(o);
        if !REGION_OPS.contains(&n.as_str()) {
            return Err(format!("'{n}' in a scatter's update computation has no TPU lowering"));
        }
    }
    let result = raw::results(op)[0];
    let yields = raw::block_ops(body).last().map(|&t| raw::operands(t)).unwrap_or_default();
    if yields.len() != 1 || yields[0].ptr != result.ptr || raw::uses(result).len() != 1 {
        return Err("a scatter that is not its fusion's only result has no TPU lowering yet".into());
    }
    let operand = sole_use_argument(body, x);
    let (mut smem_inputs, mut absorbed) = (Vec::new(), Vec::new());
    trace_indices(body, idx, &mut smem_inputs, &mut absorbed)
        .ok_or("a scatter whose indices are not computed elementwise from fusion inputs has no TPU lowering yet")?;
    let only_for_scatter = |v: MlirValue| raw::uses(v).iter().all(|(u, _)| u.ptr == op.ptr || absorbed.iter().any(|a| a.ptr == u.ptr));
    // SAFETY: each `d` is the number of a block argument of `body` (found by `trace_indices`).
    let params_only = smem_inputs.iter().all(|&d| only_for_scatter(unsafe { mlirBlockGetArgument(body, d as isize) }));
    if !absorbed.iter().all(|&a| raw::results(a).into_iter().all(only_for_scatter)) || !params_only {
        return Err("a scatter whose indices are also read by other ops of the fusion has no TPU lowering yet".into());
    }
    Ok(RowScatter { op, operand, smem_inputs, absorbed })
}

impl Emitter<'_> {
    /// A [`RowScatter`] into the output `out`: the updates stored into the
    /// VMEM scratch `upd_buf`, then per update its row DMAed through the
    /// VMEM scratch `row_buf` (semaphore `sem`) when `out` is the aliased
    /// HBM output (`row_buf` is Some), else read and written in `out`'s
    /// VMEM window, which first takes the operand; `smem`: fusion input
    /// number → its SMEM ref.
    pub(crate) fn emit_row_scatter(
        &mut self,
        b: &Builder,
        sc: &RowScatter,
        out: MlirValue,
        smem: &HashMap<usize, MlirValue>,
        (row_buf, upd_buf, sem): (Option<MlirValue>, MlirValue, MlirValue),
    ) -> R<()> {
        let op = sc.op;
        let operands = raw::operands(op);
        let (x, idx, upd) = (operands[0], operands[1], operands[2]);
        let (xs, is, us) = (raw::shape(x).unwrap_or_default(), raw::shape(idx).unwrap_or_default(), raw::shape(upd).unwrap_or_default());
        let row: Vec<i64> = std::iter::once(1).chain(us[1..].iter().copied()).collect();
        let (uelem, xelem) = (value_elem(self.ctx, upd), value_elem(self.ctx, x));
        let (u, _) = self.val(op, upd)?;
        let u = self.shape_cast(b, u, &us, uelem);
        let zeros = |b: &Builder| -> Vec<MlirValue> { row.iter().map(|_| b.index_const(0)).collect() };
        store_vector(b, u, upd_buf, &zeros(b), &us, uelem);
        if row_buf.is_none() {
            let (v, _) = self.val(op, x)?;
            let v = self.shape_cast(b, v, &xs, xelem);
            store_vector(b, v, out, &zeros(b), &xs, xelem);
        }
        let index = b.index_type();
        let (lb, ub, step) = (b.index_const(0), b.index_const(us[0]), b.index_const(1));
        let for_op = b.op_regions("scf.for", &[lb, ub, step], &[], &[], &[Some(vec![index])]);
        let lb_ = b.into_region(for_op, 0, "scf.yield");
        // SAFETY: `for_op` was just built with one region holding one block with one argument (the induction variable).
        let n = unsafe { mlirBlockGetArgument(mlirRegionGetFirstBlock(mlirOperationGetRegion(for_op, 0)), 0) };
        let at: Vec<MlirValue> = if is.len() == 2 { vec![n, lb_.index_const(0)] } else { vec![n] };
        let i = self.scalar_at(&lb_, idx, &at, smem)?;
        // SAFETY: `i` is the live scalar just computed (an integer of at most 32 bits, `row_scatter`); only its type is read.
        let it = unsafe { mlirValueGetType(i) };
        let i32t = lb_.i32_type();
        // SAFETY: `it` is an integer type (the indices' element type).
        let i = if unsafe { mlirIntegerTypeGetWidth(it) } < 32 { lb_.value("arith.extsi", &[i], i32t, &[]) } else { i };
        let i1 = lb_.i1_type();
        let ge = lb_.value("arith.cmpi", &[i, lb_.i32_const(0)], i1, &[("predicate", lb_.cmpi_predicate("sge"))]);
        let lt = lb_.value("arith.cmpi", &[i, lb_.i32_const(xs[0])], i1, &[("predicate", lb_.cmpi_predicate("slt"))]);
        let inside = lb_.value("arith.andi", &[ge, lt], i1, &[]);
        let if_op = lb_.op_regions("scf.if", &[inside], &[], &[], &[Some(vec![]), Some(vec![])]);
        let then = lb_.into_region(if_op, 0, "scf.yield");
        lb_.into_region(if_op, 1, "scf.yield");
        let mut upd_at = vec![upd_buf, n];
        upd_at.extend(row[1..].iter().map(|_| then.index_const(0)));
        let new = load_vector(&then, upd_buf, &upd_at[1..], &row, uelem);
        let Some(row_buf) = row_buf else {
            // The rows in the output's VMEM window, at the dynamic row index.
            let mut at = vec![then.value("arith.index_cast", &[i], index, &[])];
            at.extend(row[1..].iter().map(|_| then.index_const(0)));
            let old = load_vector(&then, out, &at, &row, xelem);
            let combined = self.region_on_vectors(&then, op, &[old, new], &row, "a scatter's update computation")?;
            let v = *combined.first().ok_or_else(|| fail(op, "a scatter's update computation returns nothing"))?;
            // The output window now holds the result (the fusion's only one,
            // `row_scatter`): nothing is stored again after the body.
            store_vector(&then, v, out, &at, &row, xelem);
            return Ok(());
        };
        let mut base = vec![out, i];
        base.extend(row[1..].iter().map(|_| then.i32_const(0)));
        // SAFETY: `out` is a live memref argument of the kernel; only its type is read; the row's type is built from its
        // element type and memory space, with the row's sizes, which MLIR copies.
        let slice_t = unsafe {
            let t = mlirValueGetType(out);
            mlirMemRefTypeGet(
                mlirShapedTypeGetElementType(t),
                row.len() as isize,
                row.as_ptr(),
                mlirAttributeGetNull(),
                mlirMemRefTypeGetMemorySpace(t),
            )
        };
        let dst = then.value("tpu.memref_slice", &base, slice_t, &[("operandSegmentSizes", then.i32_array(&[1, row.len() as i32, 0]))]);
        dma_and_wait(&then, dst, row_buf, sem);
        let old = load_vector(&then, row_buf, &zeros(&then), &row, xelem);
        let combined = self.region_on_vectors(&then, op, &[old, new], &row, "a scatter's update computation")?;
        let v = *combined.first().ok_or_else(|| fail(op, "a scatter's update computation returns nothing"))?;
        store_vector(&then, v, row_buf, &zeros(&then), &row, xelem);
        dma_and_wait(&then, row_buf, dst, sem);
        Ok(())
    }
}
