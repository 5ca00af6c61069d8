//! `floors-linalg-scalarize-extracts`: a `tensor.extract` of an element of
//! an elementwise `linalg.generic`'s result computes that element where it
//! is read, and the generic goes away when nothing else reads it.
//!
//! A scatter (or dynamic_update_slice) fusion takes the cheap ops that
//! compute its indices and updates (`floors-hlo-fuse`: JAX's wrap of
//! negative indices, `select(i < 0, i + n, i)`); the shared lowering gives
//! them as elementwise generics on tensors (one after
//! `linalg-fuse-elementwise-ops`) and the scatter loop reads them with
//! `tensor.extract`. Left alone, bufferization writes the whole index tensor
//! to a temporary first and the loop reads it back; XLA's fused scatter
//! computes each index in the loop (its elemental emitter). Here the
//! extract becomes the generic's body at the extracted point: each input
//! read with `tensor.extract` at its indexing map's image of the indices
//! (`linalg.index d` is index d), the body's ops cloned, the yielded value
//! used instead.
//!
//! It applies when every use of the generic's result is such an extract
//! (the generic then dies: nothing is computed twice), its loops are all
//! parallel, its output map is the identity and its inputs' maps project
//! dimensions (or are constant 0: a size-1 broadcast), its output is not
//! read in the body, and the body is cheap: `arith` ops, `linalg.index`,
//! `linalg.yield`, no region (an extract may be executed once per element
//! of a scatter's window, so the body is recomputed that often).

use melior::ir::OperationRef;
use mlir_sys::*;

use floors_ir::{
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure},
};

use crate::maps;

/// Where input `k`'s element is for loop indices `idx`: per result of its
/// indexing map, a loop index (`Some(d)`) or 0 (`None`); `Err` when a result
/// is neither a dim nor the constant 0.
fn projection(map: MlirAffineMap) -> Option<Vec<Option<usize>>> {
    // SAFETY: `map` is a live affine map of the generic's attribute.
    unsafe {
        (0..mlirAffineMapGetNumResults(map))
            .map(|j| {
                let e = mlirAffineMapGetResult(map, j);
                if mlirAffineExprIsADim(e) {
                    Some(Some(mlirAffineDimExprGetPosition(e) as usize))
                } else if mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0 {
                    Some(None)
                } else {
                    None
                }
            })
            .collect()
    }
}

/// The generic's input maps, when it can be scalarized (see the module docs).
fn scalarizable(generic: MlirOperation) -> Option<Vec<Vec<Option<usize>>>> {
    if raw::name(generic) != "linalg.generic" || raw::results(generic).len() != 1 {
        return None;
    }
    if !maps::parallel_iterators(generic)?.iter().all(|&p| p) {
        return None;
    }
    let all = maps::maps_of(raw::attr(generic, "indexing_maps")?)?;
    let (out_map, in_maps) = all.split_last()?;
    // SAFETY: the map is a live affine map of the attribute.
    if !unsafe { mlirAffineMapIsIdentity(*out_map) } {
        return None;
    }
    let inputs = in_maps.iter().map(|&m| projection(m)).collect::<Option<Vec<_>>>()?;
    let blocks = raw::region_blocks(generic);
    let [body] = blocks.as_slice() else { return None };
    // SAFETY: `body` is the generic's live body block; the last argument is the output's element.
    let out_arg = unsafe { mlirBlockGetArgument(*body, mlirBlockGetNumArguments(*body) - 1) };
    if !raw::uses(out_arg).is_empty() {
        return None;
    }
    let cheap = raw::block_ops(*body).into_iter().all(|o| {
        let name = raw::name(o);
        // SAFETY: `o` is a live op of the body.
        let regions = unsafe { mlirOperationGetNumRegions(o) };
        regions == 0 && (name.starts_with("arith.") || name == "linalg.index" || name == "linalg.yield")
    });
    cheap.then_some(inputs)
}

/// Replaces `extract` (of `generic`'s result) by the generic's body at the
/// extracted indices, built right before it.
///
/// # Safety
///
/// `extract` must be a live `tensor.extract` of `generic`'s result and
/// `generic` a live generic that [`scalarizable`] accepted with `inputs`.
unsafe fn scalarize(extract: MlirOperation, generic: MlirOperation, inputs: &[Vec<Option<usize>>]) {
    // SAFETY: every handle is live per the contract; new ops are inserted
    // before `extract`, which the generic (so its operands and the values its
    // body captures) dominates, and the indices dominate too.
    unsafe {
        let block = mlirOperationGetBlock(extract);
        let loc = mlirOperationGetLocation(extract);
        let ctx = mlirOperationGetContext(extract);
        let insert = |op: MlirOperation| mlirBlockInsertOwnedOperationBefore(block, extract, op);
        let idx: Vec<MlirValue> = raw::operands(extract)[1..].to_vec();
        let zero = {
            let index = mlirIndexTypeGet(ctx);
            let mut st = mlirOperationStateGet(sref("arith.constant"), loc);
            let value = mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("value")), mlirIntegerAttrGet(index, 0));
            mlirOperationStateAddAttributes(&mut st, 1, &value);
            mlirOperationStateAddResults(&mut st, 1, &index);
            let c = mlirOperationCreate(&mut st);
            insert(c);
            mlirOperationGetResult(c, 0)
        };
        let body = raw::region_blocks(generic)[0];
        let mut mapping: Vec<(MlirValue, MlirValue)> = Vec::new();
        for (k, (operand, map)) in raw::operands(generic).iter().zip(inputs).enumerate() {
            let arg = mlirBlockGetArgument(body, k as isize);
            let ty = mlirValueGetType(*operand);
            let scalar = if mlirTypeIsARankedTensor(ty) {
                let at: Vec<MlirValue> = map.iter().map(|d| d.map_or(zero, |d| idx[d])).collect();
                let mut st = mlirOperationStateGet(sref("tensor.extract"), loc);
                mlirOperationStateAddOperands(&mut st, 1, operand);
                mlirOperationStateAddOperands(&mut st, at.len() as isize, at.as_ptr());
                let elem = mlirShapedTypeGetElementType(ty);
                mlirOperationStateAddResults(&mut st, 1, &elem);
                let e = mlirOperationCreate(&mut st);
                insert(e);
                mlirOperationGetResult(e, 0)
            } else {
                *operand
            };
            mapping.push((arg, scalar));
        }
        let find = |mapping: &[(MlirValue, MlirValue)], v: MlirValue| mapping.iter().find(|(a, _)| mlirValueEqual(*a, v)).map(|&(_, b)| b);
        for op in raw::block_ops(body) {
            let name = raw::name(op);
            if name == "linalg.yield" {
                let yielded = raw::operands(op)[0];
                let value = find(&mapping, yielded).unwrap_or(yielded);
                mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(extract, 0), value);
                mlirOperationDestroy(extract);
                return;
            }
            if name == "linalg.index" {
                let d = raw::int_attr(op, "dim").unwrap_or(0) as usize;
                mapping.push((mlirOperationGetResult(op, 0), idx[d]));
                continue;
            }
            let clone = mlirOperationClone(op);
            for (i, v) in raw::operands(op).into_iter().enumerate() {
                if let Some(m) = find(&mapping, v) {
                    mlirOperationSetOperand(clone, i as isize, m);
                }
            }
            insert(clone);
            for (r, c) in raw::results(op).into_iter().zip(raw::results(clone)) {
                mapping.push((r, c));
            }
        }
    }
}

#[derive(Clone, Default)]
pub struct LinalgScalarizeExtracts;

impl FloorsPass for LinalgScalarizeExtracts {
    const ARGUMENT: &'static str = "floors-linalg-scalarize-extracts";
    const NAME: &'static str = "FloorsLinalgScalarizeExtracts";
    const DESCRIPTION: &'static str = "Compute each element of an elementwise linalg.generic that only tensor.extract ops read where it is \
         extracted (a fused scatter's indices), so the generic's tensor is never materialized";
    const ANCHOR: &'static str = "func.func";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        // A generic whose extracts were another generic's body becomes
        // extracted itself: repeat until nothing changes (each round removes
        // at least one generic).
        while scalarize_once(&op) {}
        Ok(())
    }
}

/// One round over the function: whether a generic was scalarized.
fn scalarize_once(op: &OperationRef<'_, '_>) -> bool {
    let mut changed = false;
    {
        let generics = floors_ir::ir::collect_ops(op, |o| floors_ir::ir::op_name(&o) == "linalg.generic");
        for generic in generics {
            let result = raw::results(generic)[0];
            let uses = raw::uses(result);
            if uses.is_empty() || !uses.iter().all(|&(u, i)| i == 0 && raw::name(u) == "tensor.extract") {
                continue;
            }
            let Some(inputs) = scalarizable(generic) else { continue };
            for (extract, _) in uses {
                // SAFETY: `extract` reads the result of `generic`, which
                // `scalarizable` accepted; each extract is replaced once.
                unsafe { scalarize(extract, generic, &inputs) };
            }
            // SAFETY: the generic's result has no use left (every use was an
            // extract, now replaced); it has no other effect on tensors.
            unsafe { mlirOperationDestroy(generic) };
            changed = true;
        }
    }
    changed
}
