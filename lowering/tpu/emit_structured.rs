//! The structured ops of a TPU kernel (not a pass): parallel generics as
//! vector ops over their loop block, reductions (`vector.multi_reduction` for
//! the plain combiners, a tree of body applications otherwise, an in-order
//! fold for bodies with several results such as argmax), and matmuls
//! on the MXU (`tpu.matmul`), as methods of the kernel [`Emitter`].

use std::collections::HashMap;

use mlir_sys::*;

use super::blocks::{key, structured};
use floors_ir::{ir::raw, op_builder::Builder, pass::fail_at as fail};

use super::emitter::*;

/// The longest run a reduction with several results is folded along in
/// order (one body application per element); longer dimensions are folded as
/// runs of at most this many (`fold_in_order`).
const MAX_ORDERED_FOLD: i64 = 1024;

impl Emitter<'_> {
    pub(crate) fn emit_structured(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        let s = structured(op).expect("checked").map_err(|e| fail(op, e))?;
        let operands = raw::operands(op);
        let results = raw::results(op);
        let axes = self.analysis.loop_axes.get(&(op.ptr as usize)).cloned().unwrap_or_else(|| vec![None; s.num_loops]);
        // Loop sizes from the operands' full shapes, then blocked.
        let mut full = vec![1i64; s.num_loops];
        for (i, &v) in operands.iter().enumerate() {
            if let Some(shape) = raw::shape(v) {
                for (q, l) in s.maps[i].iter().enumerate() {
                    if let Some(l) = l {
                        full[*l] = shape[q];
                    }
                }
            }
        }
        let loops: Vec<i64> = full.iter().zip(&axes).map(|(&n, a)| a.map_or(n, |a| self.plan.block[a])).collect();
        let name = raw::name(op);
        if name == "linalg.matmul" || name == "linalg.batch_matmul" {
            return self.emit_named_matmul(b, op, &name);
        }
        if let Some(form) = generic_matmul(op, &s) {
            // Dots that lower to a generic: bf16 × bf16 → f32 and i8 × i8 →
            // i32 (the MXU takes the narrow operands and accumulates wide, as
            // Pallas' jnp.dot with preferred_element_type does), and
            // operands stored transposed (q·kᵀ).
            return self.emit_generic_matmul(b, op, form);
        }
        // SAFETY: `op` is a live linalg.generic (the named matmuls returned above), which has one region: its body.
        let region_block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        let inner = raw::block_ops(region_block);
        // SAFETY: `region_block` is the generic's live body block; `i` stays below its argument count.
        let args: Vec<MlirValue> =
            unsafe { (0..mlirBlockGetNumArguments(region_block)).map(|i| mlirBlockGetArgument(region_block, i)).collect() };
        let ni = s.num_inputs;
        let no = results.len();
        let mut ins = Vec::new();
        for (i, &operand) in operands.iter().enumerate().take(ni) {
            let (v, shape) = self.val(op, operand)?;
            let v = self.reverse(b, op, v, &shape, &s.reversed[i])?;
            ins.push(self.expand(b, op, v, &shape, &s.maps[i], &loops)?);
        }
        if s.reversed[ni..].iter().flatten().any(|&r| r) {
            return Err(fail(op, "a structured op that writes its result backwards has no TPU lowering yet"));
        }
        let reduced: Vec<usize> = (0..s.num_loops).filter(|&l| !s.parallel[l]).collect();
        let out_loops: Vec<Vec<usize>> = (0..no)
            .map(|j| s.maps[ni + j].iter().map(|l| l.ok_or_else(|| fail(op, "a result indexed by a constant"))).collect::<R<Vec<usize>>>())
            .collect::<R<_>>()?;
        let so = StructuredOp { op, s, operands, results, inner, args, loops, axes, ins, reduced, out_loops };
        if so.reduced.is_empty() { self.emit_parallel_structured(b, so) } else { self.emit_structured_reduction(b, so) }
    }

    /// A structured op without reductions: the body on the vectors of its
    /// blocked loops (outputs passed in only where the body reads them).
    pub(crate) fn emit_parallel_structured(&mut self, b: &Builder, so: StructuredOp) -> R<()> {
        let StructuredOp { op, s, operands, results, inner, args, loops, axes, ins, out_loops, .. } = so;
        let (ni, no) = (s.num_inputs, results.len());
        let mut outs = Vec::new();
        for j in 0..no {
            let used = !raw::uses(args[ni + j]).is_empty();
            outs.push(if used {
                let (v, shape) = self.val(op, operands[ni + j])?;
                Some(self.expand(b, op, v, &shape, &s.maps[ni + j], &loops)?)
            } else {
                None
            });
        }
        let mut bind: HashMap<usize, MlirValue> = HashMap::new();
        for (i, &a) in args.iter().enumerate() {
            if let Some(v) = if i < ni { Some(ins[i]) } else { outs[i - ni] } {
                bind.insert(key(a), v);
            }
        }
        let yielded = self.apply_body(b, op, &inner, &mut bind, &loops, &axes)?;
        for (j, &r) in results.iter().enumerate() {
            let shape = self.block_of(r);
            let v = self.in_result_order(b, op, yielded[j], &out_loops[j], &shape)?;
            self.env.insert(key(r), Repr::Val { v, shape });
        }
        Ok(())
    }

    /// A structured op with reductions: the accumulators' initial values
    /// over the parallel loops, then one `vector.multi_reduction` when the
    /// body is a single combiner, else a tree of body applications.
    pub(crate) fn emit_structured_reduction(&mut self, b: &Builder, so: StructuredOp) -> R<()> {
        let (op, s) = (so.op, &so.s);
        let (ni, no) = (s.num_inputs, so.results.len());
        let par_loops: Vec<usize> = (0..s.num_loops).filter(|&l| s.parallel[l]).collect();
        let par_shape: Vec<i64> = par_loops.iter().map(|&l| so.loops[l]).collect();
        let mut inits = Vec::new();
        for j in 0..no {
            let (v, shape) = self.val(op, so.operands[ni + j])?;
            // Out map over the parallel loops, renumbered 0.. in loop order.
            let m: Vec<Option<usize>> = s.maps[ni + j].iter().map(|l| l.and_then(|l| par_loops.iter().position(|&p| p == l))).collect();
            inits.push(self.expand(b, op, v, &shape, &m, &par_shape)?);
        }
        let combiner = single_combiner(&so.inner, &so.args, ni);
        let reduced_vals: Vec<MlirValue> = if let (1, Some(combiner)) = (no, combiner) {
            vec![self.reduce_with_combiner(b, &so, combiner, inits[0], &par_shape)?]
        } else {
            self.reduce_by_tree(b, &so, &inits, &par_shape)?
        };
        for (j, &r) in so.results.iter().enumerate() {
            let shape = self.block_of(r);
            let renum: Vec<usize> = so.out_loops[j].iter().map(|l| par_loops.iter().position(|p| p == l).unwrap_or(0)).collect();
            let v = self.in_result_order(b, op, reduced_vals[j], &renum, &shape)?;
            self.env.insert(key(r), Repr::Val { v, shape });
        }
        Ok(())
    }

    /// out = combine(out, f(ins)) with `combiner` (the combining op and the
    /// value it takes besides the accumulator): f on vectors, then one
    /// `vector.multi_reduction` into `init`, of `par_shape`.
    pub(crate) fn reduce_with_combiner(
        &self,
        b: &Builder,
        so: &StructuredOp,
        (cop, x_is_arg): (MlirOperation, MlirValue),
        init: MlirValue,
        par_shape: &[i64],
    ) -> R<MlirValue> {
        let kind = combining_kind(&raw::name(cop)).expect("checked by single_combiner");
        let mut bind: HashMap<usize, MlirValue> = HashMap::new();
        for i in 0..so.s.num_inputs {
            bind.insert(key(so.args[i]), so.ins[i]);
        }
        let pre: Vec<MlirOperation> = so.inner.iter().copied().filter(|o| o.ptr != cop.ptr && raw::name(*o) != "linalg.yield").collect();
        self.apply_ops(b, so.op, &pre, &mut bind, &so.loops, &so.axes)?;
        let x = bind.get(&key(x_is_arg)).copied().ok_or_else(|| fail(cop, "internal error: the reduced value was not computed"))?;
        // SAFETY: `x` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(x) });
        let rt = b.vector(par_shape, elem);
        let kind_attr = floors_ir::attrs::vector::combining_kind(self.ctx, kind)
            .ok_or_else(|| fail(cop, format!("internal error: no #vector.kind for {kind:?}")))?;
        let red: Vec<i64> = so.reduced.iter().map(|&l| l as i64).collect();
        Ok(b.value("vector.multi_reduction", &[x, init], rt, &[("kind", kind_attr), ("reduction_dims", b.i64_array(&red))]))
    }

    /// Any other reduction body: a tree of body applications along each
    /// reduced loop (an in-order fold for bodies with several results,
    /// argmax's pairs), then one with the initial values `inits`, of
    /// `par_shape`.
    pub(crate) fn reduce_by_tree(&self, b: &Builder, so: &StructuredOp, inits: &[MlirValue], par_shape: &[i64]) -> R<Vec<MlirValue>> {
        let (op, inner, args) = (so.op, &so.inner, &so.args);
        let (ni, no) = (so.s.num_inputs, so.results.len());
        if inner.iter().any(|&o| raw::name(o) == "linalg.index") {
            return Err(fail(op, "a reduction body that reads its loop index has no TPU lowering yet"));
        }
        // SAFETY: `args` are live arguments of the structured op's body block (Rust's indexing bounds-checks both).
        if ni != no || (0..ni).any(|i| unsafe { !mlirTypeEqual(mlirValueGetType(args[i]), mlirValueGetType(args[ni + i])) }) {
            return Err(fail(op, "a reduction whose body is not a combiner of accumulator pairs has no TPU lowering"));
        }
        let mut cur = so.ins.clone();
        let mut shape = so.loops.clone();
        // Several results (argmax's value and index): the combiner may
        // prefer one side on ties that its comparison does not order (JAX's
        // argmax keeps its first operand when both are NaN), so its operands
        // must be whole runs of the sequence in order. The halving tree pairs
        // i with i + k/2, which after two levels mixes later elements into
        // the accumulator side (a later NaN's index won); such reductions
        // fold each reduced loop in order instead, innermost first (the
        // row-major order of the reduced elements, for an associative body).
        if no > 1 {
            for &r in so.reduced.iter().rev() {
                (cur, shape) = self.fold_in_order(b, so, cur, shape, r)?;
            }
        }
        for &r in so.reduced.iter().rev() {
            while shape[r] > 1 {
                let k = shape[r];
                let h = k / 2;
                let lo: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, 0, h, &shape)).collect();
                let hi: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, h, h, &shape)).collect();
                let mut half = shape.clone();
                half[r] = h;
                let mut next = self.combine(b, op, inner, args, &hi, &lo, &half)?;
                if k % 2 == 1 {
                    let mut one = shape.clone();
                    one[r] = 1;
                    let rest: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, k - 1, 1, &shape)).collect();
                    let first: Vec<MlirValue> = next.iter().map(|&v| self.slice_along(b, v, r, 0, 1, &half)).collect();
                    let merged = self.combine(b, op, inner, args, &rest, &first, &one)?;
                    next = next
                        .iter()
                        .zip(&merged)
                        .map(|(&n, &m)| {
                            // SAFETY: `n` is a live value of the kernel being built; only its type is read.
                            let elem = elem_of(self.ctx, unsafe { mlirValueGetType(n) });
                            b.value(
                                "vector.insert_strided_slice",
                                &[m, n],
                                b.vector(&half, elem),
                                &[
                                    ("offsets", self.i64_array_attr(&vec![0; half.len()])),
                                    ("strides", self.i64_array_attr(&vec![1; half.len()])),
                                ],
                            )
                        })
                        .collect();
                }
                cur = next;
                shape = half;
            }
        }
        let flat: Vec<MlirValue> =
            // SAFETY: `v` is a live value of the kernel being built; only its type is read.
            cur.iter().map(|&v| self.shape_cast(b, v, par_shape, elem_of(self.ctx, unsafe { mlirValueGetType(v) }))).collect();
        self.combine(b, op, inner, args, &flat, inits, par_shape)
    }

    /// Folds `cur` (of `shape`) along dim `r` in element order, the
    /// accumulator always the earlier run: one body application per element
    /// up to [`MAX_ORDERED_FOLD`]; a longer dimension of k = c·m elements
    /// (c, m ≤ [`MAX_ORDERED_FOLD`], m the divisor nearest √k) is viewed as
    /// c contiguous runs of m, each folded in order (all runs at once, m
    /// steps), then the c run results in order (c steps). Returns the values
    /// and their shape, dim `r` now 1. A longer dimension with no such split
    /// (a prime above the bound) is refused at the op.
    fn fold_in_order(
        &self,
        b: &Builder,
        so: &StructuredOp,
        cur: Vec<MlirValue>,
        shape: Vec<i64>,
        r: usize,
    ) -> R<(Vec<MlirValue>, Vec<i64>)> {
        let k = shape[r];
        if k <= MAX_ORDERED_FOLD {
            return self.fold_along(b, so, cur, shape, r);
        }
        let root = (k as f64).sqrt() as i64;
        let split = (1..=MAX_ORDERED_FOLD).filter(|&m| k % m == 0 && k / m <= MAX_ORDERED_FOLD).min_by_key(|&m| (m - root).abs());
        let Some(m) = split else {
            return Err(fail(
                so.op,
                format!(
                    "a reduction with {} results over {k} elements along one dimension has no TPU lowering yet \
                     (it is folded in order: up to {MAX_ORDERED_FOLD} elements, or runs of up to {MAX_ORDERED_FOLD} \
                     of a length that splits into them)",
                    so.results.len()
                ),
            ));
        };
        let c = k / m;
        let mut runs = shape.clone();
        runs.splice(r..=r, [c, m]);
        let elem = |v: MlirValue| {
            // SAFETY: `v` is a live value of the kernel being built; only its type is read.
            elem_of(self.ctx, unsafe { mlirValueGetType(v) })
        };
        let viewed: Vec<MlirValue> = cur.iter().map(|&v| self.shape_cast(b, v, &runs, elem(v))).collect();
        let (folded, _) = self.fold_along(b, so, viewed, runs, r + 1)?;
        let mut partial = shape.clone();
        partial[r] = c;
        let partials: Vec<MlirValue> = folded.iter().map(|&v| self.shape_cast(b, v, &partial, elem(v))).collect();
        self.fold_along(b, so, partials, partial, r)
    }

    /// One body application per element of dim `r` of `cur` (of `shape`),
    /// in order: acc = body(element i, acc).
    fn fold_along(&self, b: &Builder, so: &StructuredOp, cur: Vec<MlirValue>, shape: Vec<i64>, r: usize) -> R<(Vec<MlirValue>, Vec<i64>)> {
        let k = shape[r];
        let mut one = shape.clone();
        one[r] = 1;
        let mut acc: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, 0, 1, &shape)).collect();
        for i in 1..k {
            let next: Vec<MlirValue> = cur.iter().map(|&v| self.slice_along(b, v, r, i, 1, &shape)).collect();
            acc = self.combine(b, so.op, &so.inner, &so.args, &next, &acc, &one)?;
        }
        Ok((acc, one))
    }

    /// The `n` elements of vector `v` (of `shape`) from `from` along dim
    /// `r`.
    pub(crate) fn slice_along(&self, b: &Builder, v: MlirValue, r: usize, from: i64, n: i64, shape: &[i64]) -> MlirValue {
        // SAFETY: `v` is a live value of the kernel being built; only its type is read.
        let elem = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
        let mut offsets = vec![0; shape.len()];
        offsets[r] = from;
        let mut sizes = shape.to_vec();
        sizes[r] = n;
        b.value(
            "vector.extract_strided_slice",
            &[v],
            b.vector(&sizes, elem),
            &[
                ("offsets", self.i64_array_attr(&offsets)),
                ("sizes", self.i64_array_attr(&sizes)),
                ("strides", self.i64_array_attr(&vec![1; shape.len()])),
            ],
        )
    }

    /// The body applied to `ins` (as the inputs) and `outs` (as the
    /// accumulators), all of `shape`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn combine(
        &self,
        b: &Builder,
        op: MlirOperation,
        inner: &[MlirOperation],
        args: &[MlirValue],
        ins: &[MlirValue],
        outs: &[MlirValue],
        shape: &[i64],
    ) -> R<Vec<MlirValue>> {
        let mut bind = HashMap::new();
        for (i, &v) in ins.iter().enumerate() {
            bind.insert(key(args[i]), v);
        }
        for (j, &v) in outs.iter().enumerate() {
            bind.insert(key(args[ins.len() + j]), v);
        }
        // Index-free bodies only: a tree has no loop index to give.
        let no_axes = vec![None; shape.len()];
        self.apply_body(b, op, inner, &mut bind, shape, &no_axes)
    }

    /// Applies a structured op's scalar body to vectors of `loops`; returns the yielded values.
    pub(crate) fn apply_body(
        &self,
        b: &Builder,
        op: MlirOperation,
        inner: &[MlirOperation],
        bind: &mut HashMap<usize, MlirValue>,
        loops: &[i64],
        axes: &[Option<usize>],
    ) -> R<Vec<MlirValue>> {
        let (body, yield_op) = inner.split_at(inner.len().saturating_sub(1));
        self.apply_ops(b, op, body, bind, loops, axes)?;
        let y = yield_op.first().ok_or_else(|| fail(op, "a linalg body without a yield"))?;
        raw::operands(*y).iter().map(|&v| self.operand(b, op, v, bind, loops)).collect()
    }

    /// A body operand as a vector of `loops`: bound, or a scalar from
    /// outside the body broadcast.
    pub(crate) fn operand(
        &self,
        b: &Builder,
        at: MlirOperation,
        v: MlirValue,
        bind: &HashMap<usize, MlirValue>,
        loops: &[i64],
    ) -> R<MlirValue> {
        if let Some(&x) = bind.get(&key(v)) {
            return Ok(x);
        }
        let (s, shape) = self.val(at, v)?;
        if !shape.is_empty() {
            return Err(fail(at, "a structured op's body reads an array from outside it"));
        }
        Ok(if loops.is_empty() {
            s
        } else {
            // SAFETY: `s` is a live value of the kernel being built; only its type is read.
            b.value("vector.broadcast", &[s], b.vector(loops, elem_of(self.ctx, unsafe { mlirValueGetType(s) })), &[])
        })
    }

    pub(crate) fn apply_ops(
        &self,
        b: &Builder,
        at: MlirOperation,
        ops: &[MlirOperation],
        bind: &mut HashMap<usize, MlirValue>,
        loops: &[i64],
        axes: &[Option<usize>],
    ) -> R<()> {
        // SAFETY: `self.ctx` is the live context of the kernel being emitted.
        let i32t = unsafe { mlirIntegerTypeGet(self.ctx, 32) };
        for &o in ops {
            let name = raw::name(o);
            let results = raw::results(o);
            let vt = |e: MlirType| b.vector(loops, e);
            let v = match name.as_str() {
                "linalg.index" => {
                    // SAFETY: `a` is the non-null `dim` of the linalg.index `o`: an IntegerAttr by its verifier.
                    let d = raw::attr(o, "dim").map(|a| unsafe { mlirIntegerAttrGetValueInt(a) }).unwrap_or(0) as usize;
                    if loops.is_empty() {
                        return Err(fail(o, "linalg.index in a 0-d body"));
                    }
                    let mut v = b.value("tpu.iota", &[], vt(i32t), &[("dimensions", b.i32_array(&[d as i32]))]);
                    if let Some(Some(axis)) = axes.get(d) {
                        let block = b.i32_const(self.plan.block[*axis]);
                        let off = b.value("arith.muli", &[self.grid[*axis], block], i32t, &[]);
                        let off = b.value("vector.broadcast", &[off], vt(i32t), &[]);
                        v = b.value("arith.addi", &[v, off], vt(i32t), &[]);
                    }
                    v
                }
                "arith.index_cast" | "arith.index_castui" => {
                    let x = self.operand(b, o, raw::operands(o)[0], bind, loops)?;
                    // SAFETY: `results[0]` is a result of the live op `o`; only its type is read.
                    let to = elem_of(self.ctx, unsafe { mlirValueGetType(results[0]) });
                    // SAFETY: `x` is a live value of the kernel being built; only its type is read.
                    let from = elem_of(self.ctx, unsafe { mlirValueGetType(x) });
                    // SAFETY: `from` and `to` are integer types: index_cast converts between index and integers, and
                    // `elem_of` makes index i32.
                    let (fw, tw) = unsafe { (mlirIntegerTypeGetWidth(from), mlirIntegerTypeGetWidth(to)) };
                    // An index (i32 in a kernel) widened to i64 only to become a
                    // float or a narrower integer (iota's lowering): it stays
                    // i32, as Mosaic has no 64-bit vectors.
                    let narrow_uses = raw::uses(results[0]).iter().all(|(u, _)| {
                        let n = raw::name(*u);
                        // SAFETY: `r` is a result of the live use `u`; only its type is read.
                        let bits = raw::results(*u).first().map(|&r| super::blocks::element_bits(unsafe { mlirValueGetType(r) }));
                        matches!(n.as_str(), "arith.sitofp" | "arith.uitofp" | "arith.trunci") && bits.is_some_and(|b| b <= 32)
                    });
                    if fw == tw || (tw > 32 && fw == 32 && !loops.is_empty() && narrow_uses) {
                        x
                    } else if tw > fw {
                        let ext = if name == "arith.index_cast" { "arith.extsi" } else { "arith.extui" };
                        b.value(ext, &[x], vt(to), &[])
                    } else {
                        b.value("arith.trunci", &[x], vt(to), &[])
                    }
                }
                "arith.trunci" | "arith.extsi" | "arith.extui" => {
                    let x = self.operand(b, o, raw::operands(o)[0], bind, loops)?;
                    // SAFETY: `x` and `results[0]` are live values; only their types are read.
                    let (from, to) = unsafe { (elem_of(self.ctx, mlirValueGetType(x)), elem_of(self.ctx, mlirValueGetType(results[0]))) };
                    // SAFETY: `from` and `to` are live types of the same context.
                    if unsafe { mlirTypeEqual(from, to) } {
                        // An index kept narrow above: already of the result's width.
                        x
                    } else {
                        b.value(&name, &[x], vt(to), &[])
                    }
                }
                "arith.constant" => {
                    // SAFETY: `results[0]` is a result of the live op `o`; only its type is read.
                    let t = elem_of(self.ctx, unsafe { mlirValueGetType(results[0]) });
                    let mut value = raw::attr(o, "value").ok_or_else(|| fail(o, "an arith.constant without a value"))?;
                    // SAFETY: as above; this only reads the type's kind.
                    if unsafe { mlirTypeIsAIndex(mlirValueGetType(results[0])) } {
                        // SAFETY: `value` is an index-typed arith.constant's, so an IntegerAttr (its verifier gives it
                        // the result's type); `t` is i32.
                        value = unsafe { mlirIntegerAttrGet(t, mlirIntegerAttrGetValueInt(value)) };
                    }
                    if loops.is_empty() {
                        b.value("arith.constant", &[], t, &[("value", value)])
                    } else {
                        // SAFETY: `vt(t)` is a vector type (`loops` is not empty here) of `t`, and `value` an attribute
                        // of `t`: a scalar constant of the body, rebuilt as i32 above when it was an index.
                        let splat = unsafe { mlirDenseElementsAttrSplatGet(vt(t), value) };
                        b.value("arith.constant", &[], vt(t), &[("value", splat)])
                    }
                }
                _ => {
                    let mut operands = Vec::new();
                    for v in raw::operands(o) {
                        operands.push(self.operand(b, o, v, bind, loops)?);
                    }
                    // SAFETY: `r` is a result of the live op `o`; only its type is read.
                    let types: Vec<MlirType> = results.iter().map(|&r| vt(elem_of(self.ctx, unsafe { mlirValueGetType(r) }))).collect();
                    let attrs = copy_attrs(o);
                    let new = b.op(&name, &operands, &types, &attr_refs(&attrs));
                    for (i, &r) in results.iter().enumerate() {
                        // SAFETY: `new` was just built with one result per entry of `results`, so `i` is below its
                        // result count.
                        bind.insert(key(r), unsafe { mlirOperationGetResult(new, i as isize) });
                    }
                    continue;
                }
            };
            bind.insert(key(results[0]), v);
        }
        let _ = at;
        Ok(())
    }

    /// `linalg.matmul` / `linalg.batch_matmul` inside a rows or whole kernel:
    /// `tpu.matmul` of the operands' blocks, added to the initial value.
    /// `tpu.matmul` of `x` [.., M, K] and `y` [.., K, N] into a zero
    /// accumulator of [.., M, N], with every dimension the MXU rule would
    /// refuse (see floors-tpu-check-legality: more than one tile and not a
    /// multiple of it) zero-padded first and the result sliced back: zeros
    /// along K add nothing, extra rows and columns are dropped.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn mxu_matmul(
        &self,
        b: &Builder,
        at: MlirOperation,
        (x, xs): (MlirValue, &[i64]),
        (y, ys): (MlirValue, &[i64]),
        out: &[i64],
        elem: MlirType,
        dn: MlirAttribute,
    ) -> R<MlirValue> {
        let r = xs.len();
        if r < 2 || ys.len() != r || out.len() != r {
            return Err(fail(at, "internal error: matmul operands of unexpected ranks"));
        }
        let round = |n: i64, m: i64| if n > m && n % m != 0 { (n + m - 1) / m * m } else { n };
        // SAFETY: `x` is a live value of the kernel being built; only its type is read.
        let sx = super::blocks::sublanes(super::blocks::element_bits(unsafe { mlirValueGetType(x) }));
        // SAFETY: `y` is a live value of the kernel being built; only its type is read.
        let sy = super::blocks::sublanes(super::blocks::element_bits(unsafe { mlirValueGetType(y) }));
        let (m, k, n) = (xs[r - 2], xs[r - 1], ys[r - 1]);
        let mp = round(m, sx);
        // K is the lhs's lane dimension and the rhs's sublane dimension.
        let kp = if k > 128 { round(k, 128) } else { round(k, sy) };
        let np = round(n, 128);
        let pad = |v: MlirValue, shape: &[i64], rows: i64, cols: i64| -> R<(MlirValue, Vec<i64>)> {
            let mut target = shape.to_vec();
            target[r - 2] = rows;
            target[r - 1] = cols;
            if target == shape {
                return Ok((v, target));
            }
            // SAFETY: `v` is a live value of the kernel being built; only its type is read.
            let e = elem_of(self.ctx, unsafe { mlirValueGetType(v) });
            let zero = self.zero_vector(b, at, &target, e)?;
            let padded = b.value(
                "vector.insert_strided_slice",
                &[v, zero],
                b.vector(&target, e),
                &[("offsets", self.i64_array_attr(&vec![0; r])), ("strides", self.i64_array_attr(&vec![1; r]))],
            );
            Ok((padded, target))
        };
        let (xp, _) = pad(x, xs, mp, kp)?;
        let (yp, _) = pad(y, ys, kp, np)?;
        let mut outp = out.to_vec();
        outp[r - 2] = mp;
        outp[r - 1] = np;
        let zero = self.zero_vector(b, at, &outp, elem)?;
        let mut attrs = vec![("dimension_numbers", dn), ("transpose_lhs_hint", b.bool_attr(false))];
        // f32 operands at precision HIGH/HIGHEST: full f32 passes on the MXU
        // (`#tpu.contract_precision<fp32>`, what Pallas writes for HIGHEST);
        // DEFAULT leaves Mosaic's default (bf16 passes on hardware).
        // SAFETY: `x` is a live value of the kernel being built; only its type is read; f32 is made in its live context.
        let f32_operands = unsafe { mlirTypeEqual(elem_of(self.ctx, mlirValueGetType(x)), mlirF32TypeGet(self.ctx)) };
        if f32_operands && raw::attr(at, floors_ir::contract::PRECISION_ATTR).is_some() {
            // SAFETY: the context is live; the getter builds the enum attribute in it.
            attrs.push(("precision", unsafe { floors_ir::capi::floorsTpuContractPrecisionGet(self.ctx, true) }));
        }
        let prod = b.value("tpu.matmul", &[xp, yp, zero], b.vector(&outp, elem), &attrs);
        if outp == out {
            return Ok(prod);
        }
        Ok(b.value(
            "vector.extract_strided_slice",
            &[prod],
            b.vector(out, elem),
            &[
                ("offsets", self.i64_array_attr(&vec![0; r])),
                ("sizes", self.i64_array_attr(out)),
                ("strides", self.i64_array_attr(&vec![1; r])),
            ],
        ))
    }

    pub(crate) fn emit_named_matmul(&mut self, b: &Builder, op: MlirOperation, name: &str) -> R<()> {
        let form = MatmulForm { batched: name != "linalg.matmul", transpose_lhs: false, transpose_rhs: false };
        self.emit_generic_matmul(b, op, form)
    }

    /// A matmul of `form` on the MXU: transposed operands turned (an XLU
    /// `vector.transpose`), then `tpu.matmul` into the result's type, plus
    /// the initial value.
    pub(crate) fn emit_generic_matmul(&mut self, b: &Builder, op: MlirOperation, form: MatmulForm) -> R<()> {
        let operands = raw::operands(op);
        let result = raw::results(op)[0];
        let turn = |this: &Self, v: MlirValue, shape: Vec<i64>, t: bool| -> (MlirValue, Vec<i64>) {
            if !t {
                return (v, shape);
            }
            let turned = vec![shape[1], shape[0]];
            let e = value_elem(this.ctx, v);
            (b.value("vector.transpose", &[v], b.vector(&turned, e), &[("permutation", b.i64_array(&[1, 0]))]), turned)
        };
        let (x, xs) = self.val(op, operands[0])?;
        let (x, xs) = turn(self, x, xs, form.transpose_lhs);
        let (y, ys) = self.val(op, operands[1])?;
        let (y, ys) = turn(self, y, ys, form.transpose_rhs);
        let name = if form.batched { "linalg.batch_matmul" } else { "linalg.matmul" };
        let shape = self.block_of(result);
        let elem = value_elem(self.ctx, result);
        let vt = b.vector(&shape, elem);
        let dims = if name == "linalg.matmul" { MATMUL_DIMS } else { BATCH_MATMUL_DIMS };
        let dn = dot_dimension_numbers(self.ctx, dims).ok_or_else(|| fail(op, "internal error: no #tpu.dot_dimension_numbers"))?;
        let prod = self.mxu_matmul(b, op, (x, &xs), (y, &ys), &shape, elem, dn)?;
        let v = match self.repr(op, operands[2])? {
            Repr::Empty { .. } => prod,
            Repr::Val { v: init, .. } => {
                let add = if is_float(elem) { "arith.addf" } else { "arith.addi" };
                b.value(add, &[init, prod], vt, &[])
            }
        };
        self.env.insert(key(result), Repr::Val { v, shape });
        Ok(())
    }
}

/// A structured op (not a named matmul) being emitted: its structure,
/// operands and results, its body (ops and block arguments), the block sizes
/// of its loops with their grid axes, its inputs expanded over the loops,
/// its reduced loops, and per result the loops of its dims.
pub(crate) struct StructuredOp {
    pub(crate) op: MlirOperation,
    pub(crate) s: super::blocks::Structured,
    pub(crate) operands: Vec<MlirValue>,
    pub(crate) results: Vec<MlirValue>,
    pub(crate) inner: Vec<MlirOperation>,
    pub(crate) args: Vec<MlirValue>,
    pub(crate) loops: Vec<i64>,
    pub(crate) axes: Vec<Option<usize>>,
    pub(crate) ins: Vec<MlirValue>,
    pub(crate) reduced: Vec<usize>,
    pub(crate) out_loops: Vec<Vec<usize>>,
}

/// How a matmul's operands are laid out: batched (`linalg.batch_matmul`'s
/// maps), or 2-D with either operand stored transposed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MatmulForm {
    pub(crate) batched: bool,
    pub(crate) transpose_lhs: bool,
    pub(crate) transpose_rhs: bool,
}

/// The matmul form of a linalg.generic that is a dot: loops (m, n, k) with
/// A[m, k] or A[k, m], B[k, n] or B[n, k], C[m, n] (or the batch matmul's
/// maps), and a body `out + a * b` with each multiplicand widened at most
/// once (floats `extf`, integers `extsi`), as a dot_general of narrow
/// operands with a wide result, or of transposed operands, lowers.
pub(crate) fn generic_matmul(op: MlirOperation, s: &super::blocks::Structured) -> Option<MatmulForm> {
    use floors_linalg::maps::BATCH_MATMUL_MAPS;
    if raw::name(op) != "linalg.generic" || s.num_inputs != 2 || raw::results(op).len() != 1 || s.reversed.iter().flatten().any(|&r| r) {
        return None;
    }
    // The MXU accumulates in 32 bits: f64 dots, and narrow results
    // accumulated narrow, stay on the vector unit.
    let bits = |v: MlirValue| {
        // SAFETY: `v` is a live operand of `op`; only its type is read.
        raw::shape(v).map(|_| super::blocks::element_bits(unsafe { mlirValueGetType(v) }))
    };
    let operands = raw::operands(op);
    if bits(operands[2]) != Some(32) || operands[..2].iter().any(|&v| bits(v).is_none_or(|b| b > 32)) {
        return None;
    }
    let map = |i: usize| s.maps[i].iter().map(|l| l.map(|l| l as i64).unwrap_or(-1)).collect::<Vec<i64>>();
    let (a_map, b_map, c_map) = (map(0), map(1), map(2));
    let batch = BATCH_MATMUL_MAPS.1;
    let form = if s.num_loops == 3 && c_map == [0, 1] && s.parallel == [true, true, false] {
        let transpose_lhs = match a_map[..] {
            [0, 2] => false,
            [2, 0] => true,
            _ => return None,
        };
        let transpose_rhs = match b_map[..] {
            [2, 1] => false,
            [1, 2] => true,
            _ => return None,
        };
        MatmulForm { batched: false, transpose_lhs, transpose_rhs }
    } else if s.num_loops == BATCH_MATMUL_MAPS.0
        && s.parallel == [true, true, true, false]
        && [&a_map, &b_map, &c_map].iter().zip(batch).all(|(got, want)| got.iter().copied().eq(want.iter().map(|&l| l as i64)))
    {
        MatmulForm { batched: true, transpose_lhs: false, transpose_rhs: false }
    } else {
        return None;
    };
    // SAFETY: `op` is a live linalg.generic, which has one region: its body.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
    // SAFETY: `body` is the generic's live body block; `i` stays below its argument count (3: two inputs, the output).
    let args: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(body)).map(|i| mlirBlockGetArgument(body, i)).collect() };
    let [a, bb, out] = args[..] else { return None };
    let ops = raw::block_ops(body);
    let y = *ops.last()?;
    let add = raw::producer(*raw::operands(y).first()?)?;
    let float = match raw::name(add).as_str() {
        "arith.addf" => true,
        "arith.addi" => false,
        _ => return None,
    };
    let add_ops = raw::operands(add);
    let prod = match add_ops[..] {
        [x, p] | [p, x] if x.ptr == out.ptr && raw::uses(out).len() == 1 => p,
        _ => return None,
    };
    let mul = raw::producer(prod)?;
    if raw::name(mul) != if float { "arith.mulf" } else { "arith.muli" } {
        return None;
    }
    let widen = if float { "arith.extf" } else { "arith.extsi" };
    // The block argument a multiplicand reads, through at most one widening.
    let source = |v: MlirValue| match raw::producer(v) {
        Some(p) if raw::name(p) == widen => raw::operands(p).first().copied(),
        Some(_) => None,
        None => Some(v),
    };
    let m = raw::operands(mul);
    let (x, z) = (source(m[0])?, source(m[1])?);
    let reads = |p: MlirValue, q: MlirValue| (x.ptr == p.ptr && z.ptr == q.ptr) || (x.ptr == q.ptr && z.ptr == p.ptr);
    // Only these ops: the widenings, the multiply, the add, the yield.
    let expected = 3 + [m[0], m[1]].iter().filter(|&&v| raw::producer(v).is_some()).count();
    (reads(a, bb) && ops.len() == expected).then_some(form)
}

/// For a one-output reduction body `out = comb(out, x)` (either order) with
/// a known combining kind and `out` used nowhere else: the combining op and
/// the value it combines in.
pub(crate) fn single_combiner(inner: &[MlirOperation], args: &[MlirValue], ni: usize) -> Option<(MlirOperation, MlirValue)> {
    let out = *args.get(ni)?;
    let y = *inner.last()?;
    let yv = *raw::operands(y).first()?;
    let cop = raw::producer(yv)?;
    combining_kind(&raw::name(cop))?;
    let ops = raw::operands(cop);
    if ops.len() != 2 || raw::uses(out).len() != 1 {
        return None;
    }
    if ops[0].ptr == out.ptr {
        Some((cop, ops[1]))
    } else if ops[1].ptr == out.ptr {
        Some((cop, ops[0]))
    } else {
        None
    }
}
