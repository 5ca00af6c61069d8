//! The Mosaic kernel emitter of the TPU floor (not a pass): a fusion's
//! values as vectors of the block shape ([`Repr`]), its windows
//! ([`WindowSpec`]), and the [`Emitter`] that loads inputs from their
//! windows, emits each op of the fusion's body as vector/tpu ops, and stores
//! the results; `floors-tpu-emit-kernels` drives it, and
//! `emit_structured.rs` holds its structured ops, reductions and matmuls.

use std::collections::HashMap;

use mlir_sys::*;

use super::blocks::{Analysis, Plan, Tiling, block_shape, key, structured};
use floors_ir::{
    attrs::vector::CombiningKind,
    ir::{raw, raw::type_text},
    op_builder::Builder,
    pass::{PassFailure, fail_at as fail},
};

pub(crate) type R<T> = Result<T, PassFailure>;

/// A fusion value in the kernel: an SSA value of the block shape (a scalar
/// for shape []), or an uninitialized tensor (`tensor.empty`).
#[derive(Clone)]
pub(crate) enum Repr {
    Val { v: MlirValue, shape: Vec<i64> },
    Empty { shape: Vec<i64> },
}

/// The most slices [`Emitter::pick`] gathers one by one (a longer
/// reversal takes [`Emitter::reverse_by_butterfly`]).
const MAX_PICKS: i64 = 512;

/// The element type a kernel computes a value on (`index` as i32, as the
/// TPU's vector unit does).
pub(crate) fn elem_of(ctx: MlirContext, t: MlirType) -> MlirType {
    // SAFETY: `t` is a live type; the element type is read only of a shaped type; `ctx` is the live context of the
    // kernel being emitted.
    unsafe {
        let e = if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t };
        if mlirTypeIsAIndex(e) { mlirIntegerTypeGet(ctx, 32) } else { e }
    }
}

pub(crate) fn value_elem(ctx: MlirContext, v: MlirValue) -> MlirType {
    // SAFETY: `v` is a live value of the fusion being emitted; only its type is read.
    elem_of(ctx, unsafe { mlirValueGetType(v) })
}

/// The element a kernel ref stores for a value of `elem`: booleans cross a
/// kernel's boundary (and live in its buffers) as i32, as Pallas widens them
/// around every call — Mosaic has no i1 memrefs; everything else as it is.
pub(crate) fn ref_elem(elem: MlirType) -> MlirType {
    // SAFETY: `elem` is a live type; its width is read only of an integer type, and i32 is made in its context.
    unsafe {
        if mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1 { mlirIntegerTypeGet(mlirTypeGetContext(elem), 32) } else { elem }
    }
}

/// `vector.load` of a `shape` vector of `elem` from ref `r` at `idx`; a
/// boolean is loaded as its i32 and compared with 0 ([`ref_elem`]).
pub(crate) fn load_vector(b: &Builder, r: MlirValue, idx: &[MlirValue], shape: &[i64], elem: MlirType) -> MlirValue {
    let stored = ref_elem(elem);
    let mut operands = vec![r];
    operands.extend_from_slice(idx);
    let v = b.value("vector.load", &operands, b.vector(shape, stored), &[]);
    // SAFETY: both types are live; comparing them reads nothing else.
    if unsafe { mlirTypeEqual(stored, elem) } {
        return v;
    }
    let zero = b.value("vector.broadcast", &[b.i32_const(0)], b.vector(shape, stored), &[]);
    b.value("arith.cmpi", &[v, zero], b.vector(shape, elem), &[("predicate", b.cmpi_predicate("ne"))])
}

/// `tpu.vector_store` of vector `v` (of `elem`) into ref `r` at `idx`; a
/// boolean is stored as i32 0/1 ([`ref_elem`]).
pub(crate) fn store_vector(b: &Builder, v: MlirValue, r: MlirValue, idx: &[MlirValue], shape: &[i64], elem: MlirType) {
    let stored = ref_elem(elem);
    // SAFETY: both types are live; comparing them reads nothing else.
    let v = if unsafe { mlirTypeEqual(stored, elem) } { v } else { b.value("arith.extui", &[v], b.vector(shape, stored), &[]) };
    let mut operands = vec![v, r];
    operands.extend_from_slice(idx);
    b.op(
        "tpu.vector_store",
        &operands,
        &[],
        &[("strides", b.i32_array(&[])), ("operandSegmentSizes", b.i32_array(&[1, 1, idx.len() as i32, 0]))],
    );
}

/// `memref.load` of one `elem` from ref `r` at `idx` (a boolean from its i32).
pub(crate) fn load_scalar(b: &Builder, r: MlirValue, idx: &[MlirValue], elem: MlirType) -> MlirValue {
    let stored = ref_elem(elem);
    let mut operands = vec![r];
    operands.extend_from_slice(idx);
    let v = b.value("memref.load", &operands, stored, &[]);
    // SAFETY: both types are live; comparing them reads nothing else.
    if unsafe { mlirTypeEqual(stored, elem) } {
        return v;
    }
    b.value("arith.cmpi", &[v, b.i32_const(0)], elem, &[("predicate", b.cmpi_predicate("ne"))])
}

/// One kernel operand's window: its array shape, block shape, tiling and element type.
pub(crate) struct WindowSpec {
    pub(crate) array: Vec<i64>,
    pub(crate) block: Vec<i64>,
    pub(crate) tiling: Tiling,
    pub(crate) elem: MlirType,
    /// The array stays in HBM (`#tpu.memory_space<any>`): an input updated
    /// in place and its aliased result, an input sliced or gathered by DMA.
    pub(crate) hbm: bool,
    /// The array is read as scalars from SMEM (a gather's row indices).
    pub(crate) smem: bool,
}

pub(crate) struct Emitter<'a> {
    pub(crate) ctx: MlirContext,
    pub(crate) plan: &'a Plan,
    pub(crate) analysis: Analysis,
    /// The kernel's grid arguments (i32), one per axis.
    pub(crate) grid: Vec<MlirValue>,
    pub(crate) env: HashMap<usize, Repr>,
}

/// The combining kinds of `vector.multi_reduction`, by the scalar op that combines.
pub(crate) fn combining_kind(op: &str) -> Option<CombiningKind> {
    use CombiningKind::*;
    Some(match op {
        "arith.addf" | "arith.addi" => Add,
        "arith.mulf" | "arith.muli" => Mul,
        "arith.maximumf" => MaximumF,
        "arith.minimumf" => MinimumF,
        "arith.maxnumf" => MaxNumF,
        "arith.minnumf" => MinNumF,
        "arith.maxsi" => MaxSi,
        "arith.minsi" => MinSi,
        "arith.maxui" => MaxUi,
        "arith.minui" => MinUi,
        "arith.andi" => And,
        "arith.ori" => Or,
        "arith.xori" => Xor,
        _ => return None,
    })
}

/// The lists of a `#tpu.dot_dimension_numbers`, in its order: lhs and rhs
/// contracting, lhs and rhs non-contracting, the output dim order
/// ((operand, dim) pairs), lhs and rhs batch.
pub(crate) type DotDims = [&'static [i64]; 7];

/// `[m, k] x [k, n] -> [m, n]`.
pub(crate) const MATMUL_DIMS: DotDims = [&[1], &[0], &[0], &[1], &[0, 0, 1, 1], &[], &[]];
/// `[b, m, k] x [b, k, n] -> [b, m, n]`.
pub(crate) const BATCH_MATMUL_DIMS: DotDims = [&[2], &[1], &[1], &[2], &[0, 0, 0, 1, 1, 2], &[0], &[0]];

/// The `#tpu.dot_dimension_numbers` of `dims`; None if the dialect refuses
/// them.
pub(crate) fn dot_dimension_numbers(ctx: MlirContext, dims: DotDims) -> Option<MlirAttribute> {
    let ptrs = dims.map(|l| l.as_ptr());
    let sizes = dims.map(|l| l.len() as isize);
    // SAFETY: `ctx` is a live context; the seven pointers and sizes describe live slices the attribute copies.
    let a = unsafe { floors_ir::capi::floorsTpuDotDimensionNumbersGet(ctx, ptrs.as_ptr(), sizes.as_ptr()) };
    (!a.ptr.is_null()).then_some(a)
}

pub(crate) fn is_float(t: MlirType) -> bool {
    // SAFETY: `t` is a live type; this only reads its kind.
    unsafe { mlirTypeIsAFloat(t) }
}

impl Emitter<'_> {
    pub(crate) fn repr(&self, at: MlirOperation, v: MlirValue) -> R<Repr> {
        self.env.get(&key(v)).cloned().ok_or_else(|| fail(at, "internal error: an operand the TPU emitter has not computed"))
    }

    pub(crate) fn val(&self, at: MlirOperation, v: MlirValue) -> R<(MlirValue, Vec<i64>)> {
        match self.repr(at, v)? {
            Repr::Val { v, shape } => Ok((v, shape)),
            Repr::Empty { .. } => Err(fail(at, "reads an uninitialized tensor (tensor.empty) on the TPU floor")),
        }
    }

    /// The block shape of a fusion value under the plan.
    pub(crate) fn block_of(&self, v: MlirValue) -> Vec<i64> {
        block_shape(&raw::shape(v).unwrap_or_default(), &self.analysis.of(v), &self.plan.block)
    }

    pub(crate) fn load(&self, b: &Builder, r: MlirValue, w: &WindowSpec) -> Repr {
        if w.array.is_empty() {
            let v = load_scalar(b, r, &[], w.elem);
            return Repr::Val { v, shape: vec![] };
        }
        let zeros: Vec<MlirValue> = (0..w.block.len()).map(|_| b.index_const(0)).collect();
        let v = load_vector(b, r, &zeros, &w.block, w.elem);
        Repr::Val { v, shape: w.block.clone() }
    }

    pub(crate) fn store(&self, b: &Builder, at: MlirOperation, value: MlirValue, r: MlirValue, w: &WindowSpec) -> R<()> {
        let (v, shape) = self.val(at, value)?;
        if shape != w.block {
            return Err(fail(at, format!("internal error: a result block of shape {shape:?} for a window of {:?}", w.block)));
        }
        let zeros: Vec<MlirValue> = (0..shape.len()).map(|_| b.index_const(0)).collect();
        if shape.is_empty() {
            let stored = ref_elem(w.elem);
            // SAFETY: both types are live; comparing them reads nothing else.
            let v = if unsafe { mlirTypeEqual(stored, w.elem) } { v } else { b.value("arith.extui", &[v], stored, &[]) };
            b.op("memref.store", &[v, r], &[], &[]);
            return Ok(());
        }
        store_vector(b, v, r, &zeros, &shape, w.elem);
        Ok(())
    }

    pub(crate) fn store_all(&self, b: &Builder, yields: &[MlirValue], refs: &[MlirValue], outs: &[WindowSpec]) -> R<()> {
        let at = yields.first().and_then(|&v| raw::producer(v)).unwrap_or(b.before);
        for ((&y, &r), w) in yields.iter().zip(refs).zip(outs) {
            self.store(b, at, y, r, w)?;
        }
        Ok(())
    }

    /// The matmul strategy's kernel: acc = init at k = 0; acc += A·B; at the
    /// last k the epilogue on acc, stored.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn emit_matmul_kernel(
        &mut self,
        b: &Builder,
        mm: MlirOperation,
        body_ops: &[MlirOperation],
        acc: MlirValue,
        yields: &[MlirValue],
        out_refs: &[MlirValue],
        outs: &[WindowSpec],
    ) -> R<()> {
        let mm_result = raw::results(mm)[0];
        let mm_ops = raw::operands(mm);
        let fill = raw::producer(mm_ops[2]).ok_or_else(|| fail(mm, "the matmul's accumulator is not a linalg.fill"))?;
        // Ops that depend on the matmul run at the last k; the others (the
        // init's scalar, broadcasts of a bias) before the steps.
        let mut after: std::collections::HashSet<usize> = std::collections::HashSet::new();
        after.insert(key(mm_result));
        let mut post = Vec::new();
        for &op in body_ops {
            if op.ptr == mm.ptr {
                continue;
            }
            let depends = raw::operands(op).iter().any(|&v| after.contains(&key(v))) || captures_any(op, &after);
            if depends {
                raw::results(op).iter().for_each(|&r| {
                    after.insert(key(r));
                });
                post.push(op);
            } else if op.ptr != fill.ptr && !only_feeds(op, fill) {
                self.emit_op(b, op)?;
            }
        }
        let fill_scalar = raw::operands(fill)[0];
        let (init, _) = match self.env.get(&key(fill_scalar)) {
            Some(_) => self.val(fill, fill_scalar)?,
            None => {
                let p = raw::producer(fill_scalar).ok_or_else(|| fail(fill, "the accumulator's initial value is not a constant"))?;
                self.emit_op(b, p)?;
                self.val(fill, fill_scalar)?
            }
        };
        let elem = value_elem(self.ctx, mm_result);
        let tile = vec![self.plan.block[0], self.plan.block[1]];
        let vt = b.vector(&tile, elem);
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let i1 = unsafe { mlirIntegerTypeGet(self.ctx, 1) };
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let eq = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.ctx, 64), 0) }; // arith.cmpi's `eq`
        let pred_eq = |b: &Builder, x: MlirValue, c: i64| {
            let c = b.i32_const(c);
            b.value("arith.cmpi", &[x, c], i1, &[("predicate", eq)])
        };
        let zeros = |b: &Builder| -> Vec<MlirValue> { (0..2).map(|_| b.index_const(0)).collect() };
        let store_acc = |b: &Builder, v: MlirValue| {
            let mut operands = vec![v, acc];
            operands.extend(zeros(b));
            b.op("tpu.vector_store", &operands, &[], &[("strides", b.i32_array(&[])), ("operandSegmentSizes", b.i32_array(&[1, 1, 2, 0]))]);
        };
        let load_acc = |b: &Builder| {
            let mut operands = vec![acc];
            operands.extend(zeros(b));
            b.value("vector.load", &operands, vt, &[])
        };
        // k == 0: acc = init.
        let first = pred_eq(b, self.grid[2], 0);
        let if0 = b.op_regions("scf.if", &[first], &[], &[], &[Some(vec![]), Some(vec![])]);
        {
            let then = b.into_region(if0, 0, "scf.yield");
            let v = then.value("vector.broadcast", &[init], vt, &[]);
            store_acc(&then, v);
            b.into_region(if0, 1, "scf.yield");
        }
        // acc += A·B.
        let (x, xs) = self.val(mm, mm_ops[0])?;
        let (y, ys) = self.val(mm, mm_ops[1])?;
        let dn = dot_dimension_numbers(self.ctx, MATMUL_DIMS).ok_or_else(|| fail(mm, "internal error: no #tpu.dot_dimension_numbers"))?;
        let prod = self.mxu_matmul(b, mm, (x, &xs), (y, &ys), &tile, elem, dn)?;
        let old = load_acc(b);
        let add = if is_float(elem) { "arith.addf" } else { "arith.addi" };
        let sum = b.value(add, &[old, prod], vt, &[]);
        store_acc(b, sum);
        // k == last: epilogue and store.
        let last = pred_eq(b, self.grid[2], self.plan.grid[2] - 1);
        let ifl = b.op_regions("scf.if", &[last], &[], &[], &[Some(vec![]), Some(vec![])]);
        let then = b.into_region(ifl, 0, "scf.yield");
        b.into_region(ifl, 1, "scf.yield");
        let v = load_acc(&then);
        self.env.insert(key(mm_result), Repr::Val { v, shape: tile.clone() });
        for op in post {
            self.emit_op(&then, op)?;
        }
        self.store_all(&then, yields, out_refs, outs)
    }

    pub(crate) fn zero_vector(&self, b: &Builder, at: MlirOperation, shape: &[i64], elem: MlirType) -> R<MlirValue> {
        let vt = b.vector(shape, elem);
        // SAFETY: `self.ctx` is live; `elem` comes from `elem_of`, so a float gets a float attribute and anything else
        // (an integer type) an integer one.
        let zero = unsafe { if is_float(elem) { mlirFloatAttrDoubleGet(self.ctx, elem, 0.0) } else { mlirIntegerAttrGet(elem, 0) } };
        if shape.is_empty() {
            return Ok(b.value("arith.constant", &[], vt, &[("value", zero)]));
        }
        // SAFETY: `vt` is a vector type (`shape` is not empty here) of `elem`, and `zero` an attribute of `elem`.
        let splat = unsafe { mlirDenseElementsAttrSplatGet(vt, zero) };
        if splat.ptr.is_null() {
            return Err(fail(at, format!("cannot make a zero of {}", type_text(vt))));
        }
        Ok(b.value("arith.constant", &[], vt, &[("value", splat)]))
    }

    pub(crate) fn emit_op(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        // Kernel ops carry the location of what they came from.
        // SAFETY: `op` is a live op of the fusion body.
        let b = &b.at(unsafe { mlirOperationGetLocation(op) });
        let name = raw::name(op);
        let results = raw::results(op);
        if structured(op).is_some() {
            return self.emit_structured(b, op);
        }
        match name.as_str() {
            "tensor.empty" => {
                self.env.insert(key(results[0]), Repr::Empty { shape: self.block_of(results[0]) });
            }
            "stablehlo.sort" => self.emit_sort(b, op)?,
            "arith.constant" => {
                let r = results[0];
                // SAFETY: `r` is a result of the live op `op`.
                let t = unsafe { mlirValueGetType(r) };
                let value = raw::attr(op, "value").ok_or_else(|| fail(op, "an arith.constant without a value"))?;
                // SAFETY: `t` is a live type; this only reads its kind.
                if unsafe { mlirTypeIsAShaped(t) } {
                    let shape = self.block_of(r);
                    let elem = value_elem(self.ctx, r);
                    // SAFETY: `value` is the `value` of a shaped arith.constant, so dense elements (its verifier), and
                    // a splat, which `unsupported_op` (floors-tpu-select-blocks) requires of a non-0-d one.
                    let scalar = unsafe { mlirDenseElementsAttrGetSplatValue(value) };
                    let (vt, attr) = if shape.is_empty() {
                        (elem, scalar)
                    } else {
                        let vt = b.vector(&shape, elem);
                        // SAFETY: `vt` is a vector type and `scalar` the constant's splat element, of the element type
                        // (`value_elem`).
                        (vt, unsafe { mlirDenseElementsAttrSplatGet(vt, scalar) })
                    };
                    let v = b.value("arith.constant", &[], vt, &[("value", attr)]);
                    self.env.insert(key(r), Repr::Val { v, shape });
                } else {
                    let v = b.value("arith.constant", &[], t, &[("value", value)]);
                    self.env.insert(key(r), Repr::Val { v, shape: vec![] });
                }
            }
            "tensor.extract" => {
                let operands = raw::operands(op);
                let (v, shape) = self.val(op, operands[0])?;
                if shape.is_empty() {
                    self.env.insert(key(results[0]), Repr::Val { v, shape });
                } else {
                    let mut pos = Vec::new();
                    for &i in &operands[1..] {
                        let c = raw::producer(i).and_then(|p| raw::attr(p, "value"));
                        pos.push(
                            // SAFETY: `a` is the `value` of the index's producer, an arith.constant of `index` type
                            // (`unsupported_op` requires it), so an IntegerAttr.
                            c.map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
                                .ok_or_else(|| fail(op, "an index that is not a constant"))?,
                        );
                    }
                    let elem = value_elem(self.ctx, results[0]);
                    let x = b.value("vector.extract", &[v], elem, &[("static_position", b.i64_array(&pos))]);
                    self.env.insert(key(results[0]), Repr::Val { v: x, shape: vec![] });
                }
            }
            "linalg.fill" => {
                let operands = raw::operands(op);
                let (s, _) = self.val(op, operands[0])?;
                let shape = self.block_of(results[0]);
                let v = if shape.is_empty() {
                    s
                } else {
                    b.value("vector.broadcast", &[s], b.vector(&shape, value_elem(self.ctx, results[0])), &[])
                };
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.collapse_shape" | "tensor.expand_shape" => {
                let (v, _) = self.val(op, raw::operands(op)[0])?;
                let shape = self.block_of(results[0]);
                let v = self.shape_cast(b, v, &shape, value_elem(self.ctx, results[0]));
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.extract_slice" | "tensor.insert_slice"
                if raw::operands(op).len() > if name == "tensor.extract_slice" { 1 } else { 2 } =>
            {
                return self.emit_dynamic_slice(b, op);
            }
            "tensor.extract_slice" => {
                let (v, _) = self.val(op, raw::operands(op)[0])?;
                let (offsets, sizes, strides) = static_slice(op)?;
                let elem = value_elem(self.ctx, results[0]);
                // A unit-stride window over the range, then every stride-th slice.
                let span: Vec<i64> = sizes.iter().zip(&strides).map(|(&n, &s)| if n == 0 { 0 } else { (n - 1) * s + 1 }).collect();
                let mut sliced = b.value(
                    "vector.extract_strided_slice",
                    &[v],
                    b.vector(&span, elem),
                    &[
                        ("offsets", self.i64_array_attr(&offsets)),
                        ("sizes", self.i64_array_attr(&span)),
                        ("strides", self.i64_array_attr(&vec![1; span.len()])),
                    ],
                );
                let mut cur_shape = span.clone();
                for (d, &st) in strides.iter().enumerate() {
                    if st > 1 {
                        let picks: Vec<i64> = (0..sizes[d]).map(|i| i * st).collect();
                        sliced = self.pick(b, op, sliced, &cur_shape, d, &picks)?;
                        cur_shape[d] = sizes[d];
                    }
                }
                let shape = self.block_of(results[0]);
                let v = self.shape_cast(b, sliced, &shape, elem);
                self.env.insert(key(results[0]), Repr::Val { v, shape });
            }
            "tensor.insert_slice" => self.emit_static_insert(b, op)?,
            _ if name.starts_with("arith.") || name.starts_with("math.") => {
                // Scalar arithmetic between structured ops.
                let mut operands = Vec::new();
                for v in raw::operands(op) {
                    operands.push(self.val(op, v)?.0);
                }
                // SAFETY: `r` is a result of the live op `op`; only its type is read.
                let types: Vec<MlirType> = results.iter().map(|&r| unsafe { mlirValueGetType(r) }).collect();
                let attrs = copy_attrs(op);
                let new = b.op(&name, &operands, &types, &attr_refs(&attrs));
                for (i, &r) in results.iter().enumerate() {
                    // SAFETY: `new` was just built with one result per entry of `results`, so `i` is below its result
                    // count.
                    self.env.insert(key(r), Repr::Val { v: unsafe { mlirOperationGetResult(new, i as isize) }, shape: vec![] });
                }
            }
            _ => return Err(fail(op, format!("'{name}' has no TPU lowering"))),
        }
        Ok(())
    }

    /// A `tensor.insert_slice` at static offsets: `vector.insert_strided_slice`
    /// into the destination (zeros for an uninitialized one).
    fn emit_static_insert(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        let results = raw::results(op);
        let operands = raw::operands(op);
        let (src, _) = self.val(op, operands[0])?;
        let elem = value_elem(self.ctx, results[0]);
        let dest_shape = self.block_of(results[0]);
        let dest = match self.repr(op, operands[1])? {
            Repr::Val { v, .. } => v,
            Repr::Empty { shape } => self.zero_vector(b, op, &shape, elem)?,
        };
        let (offsets, sizes, strides) = static_slice(op)?;
        if sizes.contains(&0) {
            self.env.insert(key(results[0]), Repr::Val { v: dest, shape: dest_shape });
            return Ok(());
        }
        let src = self.shape_cast(b, src, &sizes, elem);
        let (src, sizes) =
            if strides.iter().any(|&s| s != 1) { self.spread(b, op, src, dest, (&offsets, &sizes, &strides))? } else { (src, sizes) };
        let v = b.value(
            "vector.insert_strided_slice",
            &[src, dest],
            b.vector(&dest_shape, elem),
            &[("offsets", self.i64_array_attr(&offsets)), ("strides", self.i64_array_attr(&vec![1; sizes.len()]))],
        );
        self.env.insert(key(results[0]), Repr::Val { v, shape: dest_shape });
        Ok(())
    }

    /// A strided insert's source spread over the region of `dest` it lands
    /// in (`span` = (size − 1)·stride + 1 per dim): the source's elements
    /// every stride-th, the region's own in between. Mosaic's vectors have
    /// no strided insert: slice by slice along each strided dim (as
    /// [`Emitter::pick`]), onto the region picked at the source's positions
    /// along the dims not yet spread. Returns the spread value and `span`.
    fn spread(
        &self,
        b: &Builder,
        at: MlirOperation,
        src: MlirValue,
        dest: MlirValue,
        (offsets, sizes, strides): (&[i64], &[i64], &[i64]),
    ) -> R<(MlirValue, Vec<i64>)> {
        // SAFETY: `src` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(src) });
        let span: Vec<i64> = sizes.iter().zip(strides).map(|(&n, &s)| (n - 1) * s + 1).collect();
        let ones = self.i64_array_attr(&vec![1; span.len()]);
        let region = b.value(
            "vector.extract_strided_slice",
            &[dest],
            b.vector(&span, elem),
            &[("offsets", self.i64_array_attr(offsets)), ("sizes", self.i64_array_attr(&span)), ("strides", ones)],
        );
        let strided: Vec<usize> = (0..span.len()).filter(|&d| strides[d] != 1).collect();
        let mut cur = src;
        let mut cur_shape = sizes.to_vec();
        for (k, &d) in strided.iter().enumerate() {
            if sizes[d] > 512 {
                return Err(fail(at, format!("a strided insert of {} slices (more than 512) has no TPU lowering yet", sizes[d])));
            }
            let mut base = region;
            let mut base_shape = span.clone();
            for &e in &strided[k + 1..] {
                let picks: Vec<i64> = (0..sizes[e]).map(|i| i * strides[e]).collect();
                base = self.pick(b, at, base, &base_shape, e, &picks)?;
                base_shape[e] = sizes[e];
            }
            let mut one = cur_shape.clone();
            one[d] = 1;
            for i in 0..sizes[d] {
                let mut from = vec![0; span.len()];
                from[d] = i;
                let piece = b.value(
                    "vector.extract_strided_slice",
                    &[cur],
                    b.vector(&one, elem),
                    &[("offsets", self.i64_array_attr(&from)), ("sizes", self.i64_array_attr(&one)), ("strides", ones)],
                );
                let mut to = vec![0; span.len()];
                to[d] = i * strides[d];
                base = b.value(
                    "vector.insert_strided_slice",
                    &[piece, base],
                    b.vector(&base_shape, elem),
                    &[("offsets", self.i64_array_attr(&to)), ("strides", ones)],
                );
            }
            (cur, cur_shape) = (base, base_shape);
        }
        Ok((cur, span))
    }

    /// A slice at offsets computed in the kernel (`dynamic_slice`,
    /// `dynamic_update_slice`, offsets already clamped by the spec's rule),
    /// on whole vectors as Pallas users write it: the vector rotated by the
    /// offset along each dynamic dimension (`tpu.dynamic_rotate`), then a
    /// static slice at 0; an update padded into zeros, rotated into place
    /// and selected where an iota mask says it lands.
    fn emit_dynamic_slice(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        let name = raw::name(op);
        let insert = name == "tensor.insert_slice";
        let operands = raw::operands(op);
        let tensors = if insert { 2 } else { 1 };
        let get = |n: &str| raw::i64_array(op, n).ok_or_else(|| fail(op, format!("a slice without {n}")));
        let (static_offsets, sizes, strides) = (get("static_offsets")?, get("static_sizes")?, get("static_strides")?);
        if sizes.iter().any(|&x| x < 0) || strides.iter().any(|&x| x != 1) {
            return Err(fail(op, "a slice with dynamic sizes or strides other than 1 at computed offsets has no TPU lowering"));
        }
        // Each offset: a constant, or the kernel's i32 value of the next dynamic operand.
        let i32t = b.i32_type();
        let mut dynamic = operands[tensors..].iter();
        let mut offsets: Vec<Result<i64, MlirValue>> = Vec::new();
        for &o in &static_offsets {
            if o >= 0 {
                offsets.push(Ok(o));
                continue;
            }
            let v = dynamic.next().ok_or_else(|| fail(op, "fewer offset operands than dynamic offsets"))?;
            let (x, _) = self.val(op, *v)?;
            // SAFETY: `x` is a live value of the kernel being built; only its type is read.
            let is_index = unsafe { mlirTypeIsAIndex(mlirValueGetType(x)) };
            offsets.push(Err(if is_index { b.value("arith.index_cast", &[x], i32t, &[]) } else { x }));
        }
        let elem = value_elem(self.ctx, raw::results(op)[0]);
        let result = raw::results(op)[0];
        let full = self.block_of(if insert { operands[1] } else { operands[0] });
        if full.len() != sizes.len() {
            return Err(fail(op, "internal error: a slice whose rank differs from its tensor's"));
        }
        let rotate = |v: MlirValue, d: usize, by: MlirValue| {
            b.value("tpu.dynamic_rotate", &[v, by], b.vector(&full, elem), &[("dimension", b.si32_attr(d as i64))])
        };
        let starts: Vec<i64> = offsets.iter().map(|o| o.unwrap_or(0)).collect();
        if !insert {
            // y[i] = x[i + o] = roll(x, n − o)[i].
            let (mut v, _) = self.val(op, operands[0])?;
            for (d, o) in offsets.iter().enumerate() {
                if let Err(o) = o {
                    let n = b.i32_const(full[d]);
                    let back = b.value("arith.subi", &[n, *o], i32t, &[]);
                    let amount = b.value("arith.remsi", &[back, n], i32t, &[]);
                    v = rotate(v, d, amount);
                }
            }
            let sliced = b.value(
                "vector.extract_strided_slice",
                &[v],
                b.vector(&sizes, elem),
                &[
                    ("offsets", self.i64_array_attr(&starts)),
                    ("sizes", self.i64_array_attr(&sizes)),
                    ("strides", self.i64_array_attr(&vec![1; sizes.len()])),
                ],
            );
            let shape = self.block_of(result);
            let v = self.shape_cast(b, sliced, &shape, elem);
            self.env.insert(key(result), Repr::Val { v, shape });
            return Ok(());
        }
        let (src, _) = self.val(op, operands[0])?;
        let src = self.shape_cast(b, src, &sizes, elem);
        let dest = match self.repr(op, operands[1])? {
            Repr::Val { v, .. } => v,
            Repr::Empty { shape } => self.zero_vector(b, op, &shape, elem)?,
        };
        let zero = self.zero_vector(b, op, &full, elem)?;
        let mut placed = b.value(
            "vector.insert_strided_slice",
            &[src, zero],
            b.vector(&full, elem),
            &[("offsets", self.i64_array_attr(&starts)), ("strides", self.i64_array_attr(&vec![1; sizes.len()]))],
        );
        for (d, o) in offsets.iter().enumerate() {
            if let Err(o) = o {
                placed = rotate(placed, d, *o);
            }
        }
        // Where the update lands: lo ≤ iota_d < lo + size along every dimension it does not cover whole.
        let i1 = b.i1_type();
        let bools = b.vector(&full, i1);
        let ints = b.vector(&full, i32t);
        let mut mask: Option<MlirValue> = None;
        for (d, o) in offsets.iter().enumerate() {
            if sizes[d] == full[d] {
                continue;
            }
            let lo = match o {
                Ok(c) => b.i32_const(*c),
                Err(v) => *v,
            };
            let hi = b.value("arith.addi", &[lo, b.i32_const(sizes[d])], i32t, &[]);
            let (lo, hi) = (b.value("vector.broadcast", &[lo], ints, &[]), b.value("vector.broadcast", &[hi], ints, &[]));
            let iota = b.value("tpu.iota", &[], ints, &[("dimensions", b.i32_array(&[d as i32]))]);
            let ge = b.value("arith.cmpi", &[iota, lo], bools, &[("predicate", b.cmpi_predicate("sge"))]);
            let lt = b.value("arith.cmpi", &[iota, hi], bools, &[("predicate", b.cmpi_predicate("slt"))]);
            let inside = b.value("arith.andi", &[ge, lt], bools, &[]);
            mask = Some(match mask {
                Some(m) => b.value("arith.andi", &[m, inside], bools, &[]),
                None => inside,
            });
        }
        let v = match mask {
            Some(m) => b.value("arith.select", &[m, placed, dest], b.vector(&full, elem), &[]),
            None => placed,
        };
        self.env.insert(key(result), Repr::Val { v, shape: full });
        Ok(())
    }

    /// The in-place form of an update at computed offsets (see
    /// [`super::blocks::hbm_access`]): the update stored into the VMEM
    /// scratch `buf`, then DMAed into the slice of the aliased HBM output
    /// `out` at the offsets, and waited for on `sem`.
    pub(crate) fn emit_update_dma(&mut self, b: &Builder, ins: MlirOperation, out: MlirValue, buf: MlirValue, sem: MlirValue) -> R<()> {
        let operands = raw::operands(ins);
        let sizes = raw::i64_array(ins, "static_sizes").ok_or_else(|| fail(ins, "a slice without static_sizes"))?;
        let elem = value_elem(self.ctx, operands[1]);
        let (update, _) = self.val(ins, operands[0])?;
        let update = self.shape_cast(b, update, &sizes, elem);
        let zeros: Vec<MlirValue> = sizes.iter().map(|_| b.index_const(0)).collect();
        store_vector(b, update, buf, &zeros, &sizes, elem);
        let dst = self.hbm_slice(b, ins, out, &operands[2..])?;
        dma_and_wait(b, buf, dst, sem);
        Ok(())
    }

    /// A slice at computed offsets of an input left in HBM (`src`): DMAed
    /// into the VMEM scratch `buf`, waited for on `sem`, and loaded.
    pub(crate) fn emit_read_dma(&mut self, b: &Builder, ext: MlirOperation, src: MlirValue, buf: MlirValue, sem: MlirValue) -> R<()> {
        let operands = raw::operands(ext);
        let result = raw::results(ext)[0];
        let sizes = raw::i64_array(ext, "static_sizes").ok_or_else(|| fail(ext, "a slice without static_sizes"))?;
        let elem = value_elem(self.ctx, result);
        let from = self.hbm_slice(b, ext, src, &operands[1..])?;
        dma_and_wait(b, from, buf, sem);
        let zeros: Vec<MlirValue> = sizes.iter().map(|_| b.index_const(0)).collect();
        let v = load_vector(b, buf, &zeros, &sizes, elem);
        let shape = self.block_of(result);
        let v = self.shape_cast(b, v, &shape, elem);
        self.env.insert(key(result), Repr::Val { v, shape });
        Ok(())
    }

    /// A row gather (see [`super::blocks::RowGather`]): for each output row
    /// i, the row index computed on the scalar core (the generic's row ops,
    /// its index inputs computed per row from the fusion inputs in SMEM,
    /// `smem`: fusion input number → its ref), the source row DMAed from
    /// HBM into row i of the VMEM scratch `buf`; then the rows loaded as
    /// the generic's value.
    pub(crate) fn emit_row_gather(
        &mut self,
        b: &Builder,
        g: &super::blocks::RowGather,
        src: MlirValue,
        smem: &HashMap<usize, MlirValue>,
        buf: MlirValue,
        sem: MlirValue,
    ) -> R<()> {
        let op = g.generic;
        let result = raw::results(op)[0];
        let shape = raw::shape(result).ok_or_else(|| fail(op, "a gather without a static shape"))?;
        let (m, n) = (shape[0], shape[1]);
        let elem = value_elem(self.ctx, result);
        let s = super::blocks::structured(op).and_then(Result::ok).ok_or_else(|| fail(op, "internal error: not structured"))?;
        // SAFETY: `op` is a live linalg.generic, which has one region: its body; `i` stays below its argument count.
        let args: Vec<MlirValue> = unsafe {
            let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
            (0..mlirBlockGetNumArguments(body)).map(|i| mlirBlockGetArgument(body, i)).collect()
        };
        let operands = raw::operands(op);
        let index = b.index_type();
        let (lb, ub, step) = (b.index_const(0), b.index_const(m), b.index_const(1));
        let for_op = b.op_regions("scf.for", &[lb, ub, step], &[], &[], &[Some(vec![index])]);
        let lb_ = b.into_region(for_op, 0, "scf.yield");
        // SAFETY: `for_op` was just built with one region holding one block with one argument (the induction variable).
        let i = unsafe { mlirBlockGetArgument(mlirRegionGetFirstBlock(mlirOperationGetRegion(for_op, 0)), 0) };
        let mut bind: HashMap<usize, MlirValue> = HashMap::new();
        for &k in &g.index_inputs {
            let idx: Vec<MlirValue> = s.maps[k].iter().map(|l| if l.is_some() { i } else { lb_.index_const(0) }).collect();
            bind.insert(key(args[k]), self.scalar_at(&lb_, operands[k], &idx, smem)?);
        }
        for &o in &g.row_ops {
            let results = raw::results(o);
            if raw::name(o) == "linalg.index" {
                bind.insert(key(results[0]), i);
                continue;
            }
            let v = self.scalar_op(&lb_, o, &bind)?;
            bind.insert(key(results[0]), v);
        }
        let row = raw::operands(g.extract)[1];
        let row = *bind.get(&key(row)).ok_or_else(|| fail(g.extract, "internal error: the row index was not computed"))?;
        let i32t = lb_.i32_type();
        let row = lb_.value("arith.index_cast", &[row], i32t, &[]);
        let i32 = lb_.value("arith.index_cast", &[i], i32t, &[]);
        let zero = lb_.i32_const(0);
        let slice = |base: MlirValue, at: MlirValue| {
            // SAFETY: `base` is a live memref argument of the kernel; only its type is read; the row's type is built
            // from its element type and memory space, with sizes [1, n] that MLIR copies.
            let t = unsafe {
                let t = mlirValueGetType(base);
                mlirMemRefTypeGet(
                    mlirShapedTypeGetElementType(t),
                    2,
                    [1, n].as_ptr(),
                    mlirAttributeGetNull(),
                    mlirMemRefTypeGetMemorySpace(t),
                )
            };
            lb_.value("tpu.memref_slice", &[base, at, zero], t, &[("operandSegmentSizes", lb_.i32_array(&[1, 2, 0]))])
        };
        let (from, to) = (slice(src, row), slice(buf, i32));
        dma_and_wait(&lb_, from, to, sem);
        let zeros = [b.index_const(0), b.index_const(0)];
        let v = load_vector(b, buf, &zeros, &[m, n], elem);
        self.env.insert(key(result), Repr::Val { v, shape: vec![m, n] });
        Ok(())
    }

    /// Element `idx` of the fusion value `v`, computed on the scalar core: a
    /// fusion input read from its SMEM ref, a splat constant, or an
    /// elementwise generic's body applied to its inputs' elements.
    pub(crate) fn scalar_at(&self, b: &Builder, v: MlirValue, idx: &[MlirValue], smem: &HashMap<usize, MlirValue>) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the fusion body; its type is read, and its number only of a block argument.
        let (t, arg) = unsafe {
            let t = mlirValueGetType(v);
            (t, mlirValueIsABlockArgument(v).then(|| mlirBlockArgumentGetArgNumber(v) as usize))
        };
        // SAFETY: `t` is a live type; the element type is read only of a shaped type.
        let elem = unsafe { if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t } };
        if let Some(n) = arg {
            let r = *smem.get(&n).ok_or_else(internal_gather_error)?;
            return Ok(load_scalar(b, r, idx, elem));
        }
        let p = raw::producer(v).ok_or_else(internal_gather_error)?;
        match raw::name(p).as_str() {
            "tensor.expand_shape" | "tensor.collapse_shape" => {
                // Unit dimensions only (`unit_reshape`): the source index is the result's non-unit
                // indices, 0 for the source's unit dimensions.
                let (from, to) = (raw::shape(raw::operands(p)[0]).unwrap_or_default(), raw::shape(v).unwrap_or_default());
                let mut kept = to.iter().zip(idx).filter(|(d, _)| **d != 1).map(|(_, &x)| x);
                let at: Vec<MlirValue> =
                    from.iter().map(|&d| if d == 1 { b.index_const(0) } else { kept.next().unwrap_or_else(|| b.index_const(0)) }).collect();
                self.scalar_at(b, raw::operands(p)[0], &at, smem)
            }
            "arith.constant" => {
                let value = raw::attr(p, "value").ok_or_else(|| fail(p, "an arith.constant without a value"))?;
                // SAFETY: `value` is a shaped arith.constant's dense elements, a splat (checked by `trace_indices`), or
                // a scalar constant's attribute as it is.
                let scalar = unsafe { if mlirTypeIsAShaped(t) { mlirDenseElementsAttrGetSplatValue(value) } else { value } };
                Ok(b.value("arith.constant", &[], elem, &[("value", scalar)]))
            }
            _ => {
                let s = super::blocks::structured(p).and_then(Result::ok).ok_or_else(internal_gather_error)?;
                // SAFETY: `p` is a live linalg.generic (traced by `trace_indices`), which has one region: its body; `q`
                // stays below its argument count.
                let (gargs, ops) = unsafe {
                    let gb = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
                    ((0..mlirBlockGetNumArguments(gb)).map(|q| mlirBlockGetArgument(gb, q)).collect::<Vec<_>>(), raw::block_ops(gb))
                };
                let mut bind: HashMap<usize, MlirValue> = HashMap::new();
                for (k, &x) in raw::operands(p).iter().take(s.num_inputs).enumerate() {
                    let at: Vec<MlirValue> = s.maps[k].iter().map(|l| l.map_or_else(|| b.index_const(0), |l| idx[l])).collect();
                    bind.insert(key(gargs[k]), self.scalar_at(b, x, &at, smem)?);
                }
                for &o in &ops {
                    match raw::name(o).as_str() {
                        "linalg.yield" => {
                            let y = *raw::operands(o).first().ok_or_else(internal_gather_error)?;
                            return bind.get(&key(y)).copied().ok_or_else(internal_gather_error);
                        }
                        "linalg.index" => {
                            let d = raw::int_attr(o, "dim").unwrap_or(0) as usize;
                            bind.insert(key(raw::results(o)[0]), *idx.get(d).ok_or_else(internal_gather_error)?);
                        }
                        _ => {
                            let v = self.scalar_op(b, o, &bind)?;
                            bind.insert(key(raw::results(o)[0]), v);
                        }
                    }
                }
                Err(internal_gather_error())
            }
        }
    }

    /// `o` (a scalar arith op of a body) rebuilt with its operands from
    /// `bind` (or constants of its own); its first result.
    fn scalar_op(&self, b: &Builder, o: MlirOperation, bind: &HashMap<usize, MlirValue>) -> R<MlirValue> {
        let operands: Vec<MlirValue> = raw::operands(o)
            .iter()
            .map(|v| bind.get(&key(*v)).copied().ok_or_else(|| fail(o, "a row index reads a value from outside its gather")))
            .collect::<R<_>>()?;
        // SAFETY: `r` is a result of the live op `o`; only its type is read.
        let types: Vec<MlirType> = raw::results(o).iter().map(|&r| unsafe { mlirValueGetType(r) }).collect();
        let attrs = copy_attrs(o);
        let new = b.op(&raw::name(o), &operands, &types, &attr_refs(&attrs));
        // SAFETY: `new` was built with `o`'s result types, at least one (an arith op).
        Ok(unsafe { mlirOperationGetResult(new, 0) })
    }

    /// `tpu.memref_slice` of the HBM ref `base` at the offsets of slice op
    /// `op` (its static offsets, and `dynamic` for the computed ones, as
    /// i32), of the slice's static sizes.
    fn hbm_slice(&self, b: &Builder, op: MlirOperation, base: MlirValue, dynamic: &[MlirValue]) -> R<MlirValue> {
        let get = |n: &str| raw::i64_array(op, n).ok_or_else(|| fail(op, format!("a slice without {n}")));
        let (static_offsets, sizes) = (get("static_offsets")?, get("static_sizes")?);
        let i32t = b.i32_type();
        let mut dynamic = dynamic.iter();
        let mut offsets = Vec::new();
        for &o in &static_offsets {
            offsets.push(if o >= 0 {
                b.i32_const(o)
            } else {
                let v = dynamic.next().ok_or_else(|| fail(op, "fewer offset operands than dynamic offsets"))?;
                let (x, _) = self.val(op, *v)?;
                // SAFETY: `x` is a live value of the kernel being built; only its type is read.
                if unsafe { mlirTypeIsAIndex(mlirValueGetType(x)) } { b.value("arith.index_cast", &[x], i32t, &[]) } else { x }
            });
        }
        // SAFETY: `base` is a live argument of the kernel; only its type (a memref) is read; the slice's type is built
        // from its element type and memory space with the slice's static sizes, which MLIR copies.
        let slice_t = unsafe {
            let t = mlirValueGetType(base);
            mlirMemRefTypeGet(
                mlirShapedTypeGetElementType(t),
                sizes.len() as isize,
                sizes.as_ptr(),
                mlirAttributeGetNull(),
                mlirMemRefTypeGetMemorySpace(t),
            )
        };
        let mut slice_operands = vec![base];
        slice_operands.extend(offsets);
        Ok(b.value("tpu.memref_slice", &slice_operands, slice_t, &[("operandSegmentSizes", b.i32_array(&[1, sizes.len() as i32, 0]))]))
    }

    /// `ArrayAttr` of i64 `IntegerAttr`s (the vector dialect's strided-slice attributes).
    pub(crate) fn i64_array_attr(&self, v: &[i64]) -> MlirAttribute {
        // SAFETY: `self.ctx` is live; `elems` outlives the array getter, which copies it.
        unsafe {
            let i64t = mlirIntegerTypeGet(self.ctx, 64);
            let elems: Vec<MlirAttribute> = v.iter().map(|&x| mlirIntegerAttrGet(i64t, x)).collect();
            mlirArrayAttrGet(self.ctx, elems.len() as isize, elems.as_ptr())
        }
    }

    pub(crate) fn shape_cast(&self, b: &Builder, v: MlirValue, to: &[i64], elem: MlirType) -> MlirValue {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let t = unsafe { mlirValueGetType(v) };
        let target = b.vector(to, elem);
        // SAFETY: both are live types of `self.ctx`.
        if unsafe { mlirTypeEqual(t, target) } {
            return v;
        }
        if to.is_empty() {
            // vector<1x1xT> → T.
            // SAFETY: `t` is read as a shaped type: a kernel value that is not already the scalar `elem` is a vector
            // (what callers pass; not checked here).
            let rank = unsafe { mlirShapedTypeGetRank(t) } as usize;
            return b.value("vector.extract", &[v], elem, &[("static_position", b.i64_array(&vec![0; rank]))]);
        }
        // SAFETY: `t` is a live type; this only reads its kind.
        if !unsafe { mlirTypeIsAVector(t) } {
            return b.value("vector.broadcast", &[v], target, &[]);
        }
        b.value("vector.shape_cast", &[v], target, &[])
    }

    /// `v` (a value of some operand's block shape, indexed by `map`) as a
    /// vector over the loop block `loops` (transposed into loop order, unit
    /// dims inserted, broadcast).
    pub(crate) fn expand(
        &self,
        b: &Builder,
        at: MlirOperation,
        v: MlirValue,
        shape: &[i64],
        map: &[Option<usize>],
        loops: &[i64],
    ) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        if loops.is_empty() {
            return Ok(v);
        }
        if shape.is_empty() {
            return Ok(b.value("vector.broadcast", &[v], b.vector(loops, elem), &[]));
        }
        if map.len() != shape.len() {
            return Err(fail(at, "internal error: an indexing map that does not match its operand's rank"));
        }
        // Drop broadcast unit dims.
        let kept: Vec<(usize, i64)> = map.iter().zip(shape).filter_map(|(l, &n)| l.map(|l| (l, n))).collect();
        let mut cur = v;
        let kept_shape: Vec<i64> = kept.iter().map(|k| k.1).collect();
        if kept.len() != shape.len() {
            cur = self.shape_cast(b, cur, &kept_shape, elem);
        }
        if kept.is_empty() {
            return Ok(b.value("vector.broadcast", &[cur], b.vector(loops, elem), &[]));
        }
        // Into loop order.
        let mut order: Vec<usize> = (0..kept.len()).collect();
        order.sort_by_key(|&i| kept[i].0);
        if order.iter().enumerate().any(|(i, &o)| i != o) {
            let perm: Vec<i64> = order.iter().map(|&o| o as i64).collect();
            let tshape: Vec<i64> = order.iter().map(|&o| kept[o].1).collect();
            cur = b.value("vector.transpose", &[cur], b.vector(&tshape, elem), &[("permutation", b.i64_array(&perm))]);
        }
        let present: Vec<usize> = order.iter().map(|&o| kept[o].0).collect();
        let with_units: Vec<i64> = (0..loops.len()).map(|l| if present.contains(&l) { loops[l] } else { 1 }).collect();
        cur = self.shape_cast(b, cur, &with_units, elem);
        if with_units != loops {
            cur = b.value("vector.broadcast", &[cur], b.vector(loops, elem), &[]);
        }
        Ok(cur)
    }

    /// `v` with every dimension flagged in `rev` reversed.
    pub(crate) fn reverse(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], rev: &[bool]) -> R<MlirValue> {
        let mut cur = v;
        for (d, _) in rev.iter().enumerate().filter(|(_, r)| **r) {
            cur = if shape[d] > MAX_PICKS {
                self.reverse_by_butterfly(b, at, cur, shape, d)?
            } else {
                let picks: Vec<i64> = (0..shape[d]).rev().collect();
                self.pick(b, at, cur, shape, d, &picks)?
            };
        }
        Ok(cur)
    }

    /// `v` reversed along dimension `d` in log₂P steps (P: the size padded
    /// to a power of two with `tpu.concatenate`): reversing P positions
    /// flips every bit of the index, so step k swaps each element with its
    /// partner k away (`i xor k`: two `tpu.dynamic_rotate`s and a lane mask,
    /// as the sort network pairs elements); the reversed size-n run then
    /// starts at P − n.
    fn reverse_by_butterfly(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], d: usize) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let n = shape[d];
        let p = (n as u64).next_power_of_two() as i64;
        let mut padded = shape.to_vec();
        padded[d] = p;
        let mut cur = v;
        if p != n {
            let mut fill = shape.to_vec();
            fill[d] = p - n;
            let filler = self.zero_vector(b, at, &fill, elem)?;
            // SAFETY: the context is live; the type is made in it.
            let dim = unsafe { mlirIntegerAttrGet(b.i32_type(), d as i64) };
            cur = b.value("tpu.concatenate", &[cur, filler], b.vector(&padded, elem), &[("dimension", dim)]);
        }
        let i32t = b.i32_type();
        let ints = b.vector(&padded, i32t);
        let bools = b.vector(&padded, b.i1_type());
        let splat = |c: i64| b.value("vector.broadcast", &[b.i32_const(c)], ints, &[]);
        let pos = b.value("tpu.iota", &[], ints, &[("dimensions", b.i32_array(&[d as i32]))]);
        let vt = b.vector(&padded, elem);
        let roll =
            |x: MlirValue, by: i64| b.value("tpu.dynamic_rotate", &[x, b.i32_const(by)], vt, &[("dimension", b.si32_attr(d as i64))]);
        let mut k = 1;
        while k < p {
            let masked = b.value("arith.andi", &[pos, splat(k)], ints, &[]);
            let low = b.value("arith.cmpi", &[masked, splat(0)], bools, &[("predicate", b.cmpi_predicate("eq"))]);
            // Bit k clear: the partner is k ahead (rolled back by k), else k behind.
            let (ahead, behind) = (roll(cur, p - k), roll(cur, k));
            cur = b.value("arith.select", &[low, ahead, behind], vt, &[]);
            k *= 2;
        }
        if p == n {
            return Ok(cur);
        }
        let mut offsets = vec![0; shape.len()];
        offsets[d] = p - n;
        Ok(b.value(
            "vector.extract_strided_slice",
            &[cur],
            b.vector(shape, elem),
            &[
                ("offsets", self.i64_array_attr(&offsets)),
                ("sizes", self.i64_array_attr(shape)),
                ("strides", self.i64_array_attr(&vec![1; shape.len()])),
            ],
        ))
    }

    /// The slices `picks` of `v` along dimension `d`, in that order, slice
    /// by slice (reversals and strided slices: Mosaic's vectors have
    /// neither; up to 512 slices).
    pub(crate) fn pick(&self, b: &Builder, at: MlirOperation, v: MlirValue, shape: &[i64], d: usize, picks: &[i64]) -> R<MlirValue> {
        if picks.len() > MAX_PICKS as usize {
            return Err(fail(
                at,
                format!(
                    "gathering {} slices of a vector (a reversal or strided slice over more than 512) has no TPU lowering yet",
                    picks.len()
                ),
            ));
        }
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut one = shape.to_vec();
        one[d] = 1;
        let mut out_shape = shape.to_vec();
        out_shape[d] = picks.len() as i64;
        let ones = self.i64_array_attr(&vec![1; shape.len()]);
        let mut out = self.zero_vector(b, at, &out_shape, elem)?;
        for (i, &p) in picks.iter().enumerate() {
            let mut from = vec![0; shape.len()];
            from[d] = p;
            let piece = b.value(
                "vector.extract_strided_slice",
                &[v],
                b.vector(&one, elem),
                &[("offsets", self.i64_array_attr(&from)), ("sizes", self.i64_array_attr(&one)), ("strides", ones)],
            );
            let mut to = vec![0; shape.len()];
            to[d] = i as i64;
            out = b.value(
                "vector.insert_strided_slice",
                &[piece, out],
                b.vector(&out_shape, elem),
                &[("offsets", self.i64_array_attr(&to)), ("strides", ones)],
            );
        }
        Ok(out)
    }

    /// A vector over `loops` ordered as the loops, transposed into the
    /// order `map` gives a result's dims.
    pub(crate) fn in_result_order(
        &self,
        b: &Builder,
        at: MlirOperation,
        v: MlirValue,
        loops_of_result: &[usize],
        shape: &[i64],
    ) -> R<MlirValue> {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut sorted = loops_of_result.to_vec();
        sorted.sort();
        if sorted == loops_of_result {
            return Ok(v);
        }
        // v's dims are the result's loops in increasing order; result dim q is loop loops_of_result[q].
        let perm: Result<Vec<i64>, _> =
            loops_of_result.iter().map(|l| sorted.iter().position(|s| s == l).map(|p| p as i64).ok_or(())).collect();
        let perm = perm.map_err(|_| fail(at, "internal error: a result map that is not a permutation"))?;
        Ok(b.value("vector.transpose", &[v], b.vector(shape, elem), &[("permutation", b.i64_array(&perm))]))
    }
}

fn internal_gather_error() -> PassFailure {
    PassFailure { location: None, message: "internal error: a row gather's index is not what floors-tpu-select-blocks traced".into() }
}

/// A local DMA `from` → `to` signalling `sem` (`tpu.enqueue_dma`), then its
/// wait (`tpu.wait_dma2`): a synchronous copy, as `pltpu.sync_copy`.
pub(crate) fn dma_and_wait(b: &Builder, from: MlirValue, to: MlirValue, sem: MlirValue) {
    // Segments: source, source semaphore, target, target semaphore, then device and core ids (none: this core).
    b.op("tpu.enqueue_dma", &[from, to, sem], &[], &[("operandSegmentSizes", b.i32_array(&[1, 0, 1, 1, 0, 0, 0]))]);
    b.op("tpu.wait_dma2", &[sem, from, to], &[], &[("operandSegmentSizes", b.i32_array(&[1, 1, 1, 0, 0]))]);
}

/// Every attribute of `op` (inherent and discardable), to put on its vector twin.
pub(crate) fn copy_attrs(op: MlirOperation) -> Vec<(String, MlirAttribute)> {
    // SAFETY: `op` is a live op of the fusion body and `i` stays below its attribute count; the name is copied into a
    // `String`, and the attribute is owned by the context.
    unsafe {
        (0..mlirOperationGetNumAttributes(op))
            .map(|i| {
                let na = mlirOperationGetAttribute(op, i);
                (raw::string(mlirIdentifierStr(na.name)), na.attribute)
            })
            .collect()
    }
}

pub(crate) fn attr_refs(attrs: &[(String, MlirAttribute)]) -> Vec<(&str, MlirAttribute)> {
    attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect()
}

/// Whether `op`'s regions read any value in `set` (captured from outside).
pub(crate) fn captures_any(op: MlirOperation, set: &std::collections::HashSet<usize>) -> bool {
    raw::region_blocks(op)
        .iter()
        .any(|&blk| raw::block_ops(blk).iter().any(|&o| raw::operands(o).iter().any(|v| set.contains(&key(*v))) || captures_any(o, set)))
}

/// Whether every use of `op`'s results is `target` (the matmul init's feeders).
pub(crate) fn only_feeds(op: MlirOperation, target: MlirOperation) -> bool {
    let results = raw::results(op);
    !results.is_empty() && results.iter().all(|&r| raw::uses(r).iter().all(|(u, _)| u.ptr == target.ptr))
}

/// Static offsets, sizes and strides of a tensor slice op.
pub(crate) fn static_slice(op: MlirOperation) -> R<(Vec<i64>, Vec<i64>, Vec<i64>)> {
    let get = |n: &str| raw::i64_array(op, n).ok_or_else(|| fail(op, format!("a slice without {n}")));
    let (o, s, t) = (get("static_offsets")?, get("static_sizes")?, get("static_strides")?);
    if o.iter().chain(&s).chain(&t).any(|&x| x < 0) {
        return Err(fail(op, "a slice with dynamic offsets, sizes or strides has no TPU lowering yet"));
    }
    Ok((o, s, t))
}

#[cfg(test)]
mod tests {
    use melior::ir::{Attribute, AttributeLike};

    use super::*;

    /// The built dimension numbers are the attributes their spellings denote.
    #[test]
    pub(crate) fn dot_dimension_numbers_build_their_spelling() {
        let c = floors_ir::context::create_context();
        for (dims, text) in [
            (MATMUL_DIMS, "#tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>"),
            (BATCH_MATMUL_DIMS, "#tpu.dot_dimension_numbers<[2], [1], [1], [2], [0, 0, 0, 1, 1, 2], [0], [0]>"),
        ] {
            let built = dot_dimension_numbers(c.to_raw(), dims).expect(text);
            let parsed = Attribute::parse(&c, text).expect(text);
            // SAFETY: both attributes live in `c`.
            assert!(unsafe { mlirAttributeEqual(built, parsed.to_raw()) }, "{text}");
        }
        let odd: DotDims = [&[1], &[0], &[0], &[1], &[0, 0, 1], &[], &[]];
        assert!(dot_dimension_numbers(c.to_raw(), odd).is_none(), "output order must be pairs");
    }
}
