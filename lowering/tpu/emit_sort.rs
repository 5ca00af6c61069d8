//! Sorts on the TPU floor (not a pass): a `stablehlo.sort` inside a fusion
//! (left there by `floors-linalg-lower-stablehlo{keep-sorts=true}`) becomes
//! a bitonic sorting network on vectors, the way a Pallas author sorts in a
//! kernel: the whole sort dimension in one block (the grid tiles the other
//! dimensions, `blocks::analyze`), padded to a power of two P with
//! `tpu.concatenate`, and log₂P·(log₂P+1)/2 compare-exchange stages. In a
//! stage of distance j inside runs of k, element i meets element i ^ j:
//! both neighbours come from `tpu.dynamic_rotate` (`pltpu.roll`) by ±j and a
//! lane mask picks the partner; the comparator region, applied to whole
//! vectors, says which of the two goes first, and every operand of the sort
//! moves with the same mask. The result is sliced back to the array's length
//! with `vector.extract_strided_slice`.
//!
//! The order is a strict total one, so the network's result is the stable
//! sort's, as on the CPU floor: `a` goes before `b` when
//! `comp(a, b) || (!comp(b, a) && index(a) < index(b))`, with each element's
//! original index carried through the network as an extra i32 vector, and
//! padding (index ≥ n) after every element. Work: O(n log² n) on the vector
//! unit (what a sorting network costs on a TPU; XLA's TPU sort is a network
//! too). Comparators may use constants, compare (every direction; FLOAT,
//! TOTALORDER, SIGNED, UNSIGNED), select, the logical ops, add, subtract,
//! multiply, negate, abs, maximum, minimum, convert and same-width
//! bitcast_convert; anything else, and 64-bit elements (Mosaic has no 64-bit
//! vectors), is refused at the op by name.

use std::collections::HashMap;

use mlir_sys::*;

use super::blocks::{element_bits, key};
use floors_ir::{
    dialects::stablehlo::{CompareOp, ComparisonType},
    ir::raw,
    op_builder::Builder,
    pass::fail_at as fail,
};

use super::emitter::*;

/// The stablehlo ops a sort comparator (a scatter's update computation) may
/// hold on the TPU floor.
pub(crate) const REGION_OPS: &[&str] = &[
    "stablehlo.constant",
    "stablehlo.compare",
    "stablehlo.select",
    "stablehlo.and",
    "stablehlo.or",
    "stablehlo.xor",
    "stablehlo.not",
    "stablehlo.add",
    "stablehlo.subtract",
    "stablehlo.multiply",
    "stablehlo.negate",
    "stablehlo.abs",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.convert",
    "stablehlo.bitcast_convert",
    "stablehlo.return",
];

/// The sort's dimension, non-negative.
pub(crate) fn sort_dimension(op: MlirOperation) -> usize {
    let rank = raw::operands(op).first().and_then(|&v| raw::shape(v)).map_or(1, |s| s.len()) as i64;
    let d = raw::int_attr(op, "dimension").unwrap_or(-1);
    (if d < 0 { d + rank } else { d }).clamp(0, (rank - 1).max(0)) as usize
}

/// Why the TPU floor cannot sort with `op` (the op to blame and the
/// reason), or `None`.
pub(crate) fn unsupported_sort(op: MlirOperation) -> Option<(MlirOperation, String)> {
    for v in raw::operands(op) {
        // SAFETY: `v` is an operand of the live op `op`; only its type is read.
        if element_bits(unsafe { mlirValueGetType(v) }) > 32 {
            return Some((op, "a sort of 64-bit elements has no TPU lowering (Mosaic has no 64-bit vectors)".into()));
        }
    }
    for block in raw::region_blocks(op) {
        for inner in raw::block_ops(block) {
            let n = raw::name(inner);
            if !REGION_OPS.contains(&n.as_str()) {
                return Some((inner, format!("'{n}' in a sort comparator has no TPU lowering")));
            }
            // SAFETY: `r` is a result of the live op `inner`; only its type is read.
            if raw::results(inner).iter().any(|&r| element_bits(unsafe { mlirValueGetType(r) }) > 32) {
                return Some((inner, format!("'{n}' on 64-bit values in a sort comparator has no TPU lowering")));
            }
        }
    }
    None
}

/// Whether `a` goes strictly before `b`, element by element, from the
/// comparator both ways (`comp(a, b)`, `comp(b, a)`) and the original
/// indices: real elements before padding (index >= `limit`), then the
/// comparator, then the lower index.
fn goes_before(
    b: &Builder,
    (ab, ba): (MlirValue, MlirValue),
    (ia, ib): (MlirValue, MlirValue),
    limit: MlirValue,
    shape: &[i64],
) -> MlirValue {
    let bools = b.vector(shape, b.i1_type());
    let cmpi = |p: &str, l: MlirValue, r: MlirValue| b.value("arith.cmpi", &[l, r], bools, &[("predicate", b.cmpi_predicate(p))]);
    // SAFETY: `bools` is a vector of i1 made in the live context.
    let all_true = b.value("arith.constant", &[], bools, &[("value", unsafe { mlirDenseElementsAttrBoolSplatGet(bools, true) })]);
    let not_ba = b.value("arith.xori", &[ba, all_true], bools, &[]);
    let tie = b.value("arith.andi", &[not_ba, cmpi("slt", ia, ib)], bools, &[]);
    let ordered = b.value("arith.ori", &[ab, tie], bools, &[]);
    let either = b.value("arith.ori", &[cmpi("sge", ib, limit), ordered], bools, &[]);
    b.value("arith.andi", &[cmpi("slt", ia, limit), either], bools, &[])
}

/// `arith.cmpf`'s `predicate` attribute (its i64 enum value).
fn cmpf_predicate(ctx: MlirContext, name: &str) -> MlirAttribute {
    const NAMES: [&str; 16] =
        ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"];
    let v = NAMES.iter().position(|&n| n == name).unwrap_or(0);
    // SAFETY: `ctx` is the live context of the kernel being built; the type is made in it.
    unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v as i64) }
}

impl Emitter<'_> {
    /// `stablehlo.sort` as a bitonic network (see the module comment).
    pub(crate) fn emit_sort(&mut self, b: &Builder, op: MlirOperation) -> R<()> {
        let d = sort_dimension(op);
        let operands = raw::operands(op);
        let shape = self.block_of(operands[0]);
        let mut vals = Vec::new();
        let mut elems = Vec::new();
        for &x in &operands {
            let (v, s) = self.val(op, x)?;
            if s != shape {
                return Err(fail(op, "internal error: sort operands of different block shapes"));
            }
            vals.push(v);
            elems.push(value_elem(self.ctx, x));
        }
        let n = shape.get(d).copied().unwrap_or(1);
        if n > 1 {
            let p = (n as u64).next_power_of_two() as i64;
            let mut padded = shape.clone();
            padded[d] = p;
            if p != n {
                let mut fill = shape.clone();
                fill[d] = p - n;
                for (v, &e) in vals.iter_mut().zip(&elems) {
                    let filler = self.zero_vector(b, op, &fill, e)?;
                    // SAFETY: the context is live; the type is made in it.
                    let dim = unsafe { mlirIntegerAttrGet(b.i32_type(), d as i64) };
                    *v = b.value("tpu.concatenate", &[*v, filler], b.vector(&padded, e), &[("dimension", dim)]);
                }
            }
            vals = self.bitonic(b, op, vals, &elems, &padded, d, n)?;
            if p != n {
                let ones = vec![1; shape.len()];
                for (v, &e) in vals.iter_mut().zip(&elems) {
                    *v = b.value(
                        "vector.extract_strided_slice",
                        &[*v],
                        b.vector(&shape, e),
                        &[
                            ("offsets", self.i64_array_attr(&vec![0; shape.len()])),
                            ("sizes", self.i64_array_attr(&shape)),
                            ("strides", self.i64_array_attr(&ones)),
                        ],
                    );
                }
            }
        }
        for (r, v) in raw::results(op).into_iter().zip(vals) {
            self.env.insert(key(r), Repr::Val { v, shape: shape.clone() });
        }
        Ok(())
    }

    /// The compare-exchange stages over vectors of `shape` (the sort
    /// dimension `d` a power of two; positions from `n` on are padding).
    #[allow(clippy::too_many_arguments)]
    fn bitonic(
        &self,
        b: &Builder,
        op: MlirOperation,
        mut vals: Vec<MlirValue>,
        elems: &[MlirType],
        shape: &[i64],
        d: usize,
        n: i64,
    ) -> R<Vec<MlirValue>> {
        let p = shape[d];
        let i32t = b.i32_type();
        let ints = b.vector(shape, i32t);
        let bools = b.vector(shape, b.i1_type());
        let splat = |c: i64| b.value("vector.broadcast", &[b.i32_const(c)], ints, &[]);
        let pos = b.value("tpu.iota", &[], ints, &[("dimensions", b.i32_array(&[d as i32]))]);
        // Bit `bit` of each position is clear.
        let clear = |bit: i64| {
            let masked = b.value("arith.andi", &[pos, splat(bit)], ints, &[]);
            b.value("arith.cmpi", &[masked, splat(0)], bools, &[("predicate", b.cmpi_predicate("eq"))])
        };
        let roll = |v: MlirValue, e: MlirType, by: i64| {
            b.value("tpu.dynamic_rotate", &[v, b.i32_const(by)], b.vector(shape, e), &[("dimension", b.si32_attr(d as i64))])
        };
        let mut all_elems = elems.to_vec();
        all_elems.push(i32t);
        // The original index of each element rides along as the last operand.
        vals.push(pos);
        let count = vals.len();
        let limit = splat(n);
        let mut k = 2;
        while k <= p {
            let ascending = clear(k);
            let mut j = k / 2;
            while j >= 1 {
                let lower = clear(j);
                let partner: Vec<MlirValue> = vals
                    .iter()
                    .zip(&all_elems)
                    .map(|(&v, &e)| {
                        let (up, down) = (roll(v, e, p - j), roll(v, e, j));
                        b.value("arith.select", &[lower, up, down], b.vector(shape, e), &[])
                    })
                    .collect();
                // The comparator both ways, once per stage: each order below uses both.
                let data = count - 1;
                let p_first = self.comparator(b, op, &partner[..data], &vals[..data], shape)?;
                let v_first = self.comparator(b, op, &vals[..data], &partner[..data], shape)?;
                let (ip, iv) = (partner[data], vals[data]);
                let ahead = goes_before(b, (p_first, v_first), (ip, iv), limit, shape);
                let behind = goes_before(b, (v_first, p_first), (iv, ip), limit, shape);
                // The lower element of an ascending pair keeps the smaller one.
                let keep_smaller = b.value("arith.cmpi", &[lower, ascending], bools, &[("predicate", b.cmpi_predicate("eq"))]);
                let take = b.value("arith.select", &[keep_smaller, ahead, behind], bools, &[]);
                for i in 0..count {
                    vals[i] = b.value("arith.select", &[take, partner[i], vals[i]], b.vector(shape, all_elems[i]), &[]);
                }
                j /= 2;
            }
            k *= 2;
        }
        vals.pop();
        Ok(vals)
    }

    /// The sort's comparator applied to vectors: `lhs[k]`, `rhs[k]` bound to
    /// its arguments 2k and 2k+1; the i1 vector it returns.
    fn comparator(&self, b: &Builder, op: MlirOperation, lhs: &[MlirValue], rhs: &[MlirValue], shape: &[i64]) -> R<MlirValue> {
        let args: Vec<MlirValue> = lhs.iter().zip(rhs).flat_map(|(&l, &r)| [l, r]).collect();
        let vals = self.region_on_vectors(b, op, &args, shape, "a sort comparator")?;
        vals.first().copied().ok_or_else(|| fail(op, "a comparator that returns nothing"))
    }

    /// The first region of `op` (a sort's comparator, a scatter's update
    /// computation: 0-d stablehlo ops of [`REGION_OPS`]) applied to vectors
    /// of `shape`: its arguments bound to `args` in order; the vectors it
    /// returns. `what` names the region in errors.
    pub(crate) fn region_on_vectors(
        &self,
        b: &Builder,
        op: MlirOperation,
        args: &[MlirValue],
        shape: &[i64],
        what: &str,
    ) -> R<Vec<MlirValue>> {
        let block = raw::region_blocks(op).into_iter().next().ok_or_else(|| fail(op, format!("{what} is missing")))?;
        // SAFETY: `block` is the live entry block of `op`'s first region; `i` is below its argument count.
        let params: Vec<MlirValue> = unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| mlirBlockGetArgument(block, i)).collect() };
        if params.len() != args.len() {
            return Err(fail(op, format!("{what} takes {} arguments, not {}", params.len(), args.len())));
        }
        let mut bind: HashMap<usize, MlirValue> = params.iter().zip(args).map(|(&p, &a)| (key(p), a)).collect();
        let unbound = |o: MlirOperation| fail(o, format!("internal error: an unbound value in {what}"));
        for inner in raw::block_ops(block) {
            let name = raw::name(inner);
            if name == "stablehlo.return" {
                return raw::operands(inner).iter().map(|r| bind.get(&key(*r)).copied().ok_or_else(|| unbound(inner))).collect();
            }
            let mut ins = Vec::new();
            for v in raw::operands(inner) {
                ins.push(*bind.get(&key(v)).ok_or_else(|| unbound(inner))?);
            }
            let result = raw::results(inner).first().copied().ok_or_else(|| fail(inner, format!("an op without a result in {what}")))?;
            let v = self.region_op(b, inner, (&name, what), &ins, result, shape)?;
            bind.insert(key(result), v);
        }
        Err(fail(op, format!("{what} without a return")))
    }

    /// One op of a region (see [`Emitter::region_on_vectors`]) on vectors of `shape`.
    fn region_op(
        &self,
        b: &Builder,
        o: MlirOperation,
        (name, what): (&str, &str),
        ins: &[MlirValue],
        result: MlirValue,
        shape: &[i64],
    ) -> R<MlirValue> {
        let out_elem = value_elem(self.ctx, result);
        let vt = b.vector(shape, out_elem);
        let in_elem = raw::operands(o).first().map(|&v| value_elem(self.ctx, v));
        let float = in_elem.is_some_and(is_float);
        let bin = |f: &str, i: &str| b.value(if float { f } else { i }, ins, vt, &[]);
        Ok(match name {
            "stablehlo.constant" => {
                let value = raw::attr(o, "value").ok_or_else(|| fail(o, "a constant without a value"))?;
                // SAFETY: `value` is the dense elements value of a 0-d stablehlo.constant (its verifier); `vt` is a
                // vector of its element type.
                let splat = unsafe { mlirDenseElementsAttrSplatGet(vt, mlirDenseElementsAttrGetSplatValue(value)) };
                b.value("arith.constant", &[], vt, &[("value", splat)])
            }
            "stablehlo.compare" => self.compare(b, o, ins, in_elem.unwrap_or(out_elem), shape)?,
            "stablehlo.select" => b.value("arith.select", ins, vt, &[]),
            "stablehlo.and" => b.value("arith.andi", ins, vt, &[]),
            "stablehlo.or" => b.value("arith.ori", ins, vt, &[]),
            "stablehlo.xor" => b.value("arith.xori", ins, vt, &[]),
            "stablehlo.not" => {
                // SAFETY: `out_elem` is an integer type (stablehlo.not takes booleans and integers).
                let all_ones = unsafe { mlirIntegerAttrGet(out_elem, -1) };
                // SAFETY: as above; `vt` is a vector of it.
                let ones = b.value("arith.constant", &[], vt, &[("value", unsafe { mlirDenseElementsAttrSplatGet(vt, all_ones) })]);
                b.value("arith.xori", &[ins[0], ones], vt, &[])
            }
            "stablehlo.add" => bin("arith.addf", "arith.addi"),
            "stablehlo.subtract" => bin("arith.subf", "arith.subi"),
            "stablehlo.multiply" => bin("arith.mulf", "arith.muli"),
            "stablehlo.maximum" => bin("arith.maximumf", "arith.maxsi"),
            "stablehlo.minimum" => bin("arith.minimumf", "arith.minsi"),
            "stablehlo.abs" => bin("math.absf", "math.absi"),
            "stablehlo.negate" if float => b.value("arith.negf", ins, vt, &[]),
            "stablehlo.negate" => {
                let zero = self.zero_vector(b, o, shape, out_elem)?;
                b.value("arith.subi", &[zero, ins[0]], vt, &[])
            }
            "stablehlo.bitcast_convert" => {
                if in_elem.map(element_bits) != Some(element_bits(out_elem)) {
                    return Err(fail(o, format!("a bitcast_convert between widths in {what} has no TPU lowering")));
                }
                b.value("arith.bitcast", ins, vt, &[])
            }
            "stablehlo.convert" => self.convert(b, o, ins[0], in_elem.unwrap_or(out_elem), out_elem, shape)?,
            _ => return Err(fail(o, format!("'{name}' in {what} has no TPU lowering"))),
        })
    }

    /// `stablehlo.compare` of two vectors of `elem`.
    fn compare(&self, b: &Builder, o: MlirOperation, ins: &[MlirValue], elem: MlirType, shape: &[i64]) -> R<MlirValue> {
        let cmp = CompareOp::cast(o);
        let dir = cmp.and_then(|c| c.direction()).ok_or_else(|| fail(o, "a compare without a comparison_direction"))?;
        let ty = cmp.and_then(|c| c.compare_type());
        let (fp, si, ui) = dir.arith_predicates();
        let bools = b.vector(shape, b.i1_type());
        if !is_float(elem) {
            // SAFETY: `elem` is an integer type here (the comparator's operands are floats or integers).
            let width = unsafe { mlirIntegerTypeGetWidth(elem) };
            let unsigned = matches!(ty, Some(ComparisonType::Unsigned)) || (ty.is_none() && width == 1);
            return Ok(b.value("arith.cmpi", ins, bools, &[("predicate", b.cmpi_predicate(if unsigned { ui } else { si }))]));
        }
        if ty != Some(ComparisonType::TotalOrder) {
            return Ok(b.value("arith.cmpf", ins, bools, &[("predicate", cmpf_predicate(self.ctx, fp))]));
        }
        // The total order: the bits as a signed integer, negative values'
        // magnitude bits flipped (-NaN < -inf < ... < -0 < +0 < ... < +inf < NaN).
        let w = element_bits(elem) as u32;
        // SAFETY: the context is live; the integer type is made in it.
        let it = unsafe { mlirIntegerTypeGet(self.ctx, w) };
        let ivt = b.vector(shape, it);
        let c = |v: i64| {
            // SAFETY: `it` is an integer type and `ivt` a vector of it.
            let a = unsafe { mlirDenseElementsAttrSplatGet(ivt, mlirIntegerAttrGet(it, v)) };
            b.value("arith.constant", &[], ivt, &[("value", a)])
        };
        let keys: Vec<MlirValue> = ins
            .iter()
            .map(|&x| {
                let bits = b.value("arith.bitcast", &[x], ivt, &[]);
                let sign = b.value("arith.shrsi", &[bits, c(w as i64 - 1)], ivt, &[]);
                let magnitude = b.value("arith.shrui", &[sign, c(1)], ivt, &[]);
                b.value("arith.xori", &[bits, magnitude], ivt, &[])
            })
            .collect();
        Ok(b.value("arith.cmpi", &keys, bools, &[("predicate", b.cmpi_predicate(si))]))
    }

    /// `stablehlo.convert` of a vector from `from` to `to` elements.
    fn convert(&self, b: &Builder, o: MlirOperation, x: MlirValue, from: MlirType, to: MlirType, shape: &[i64]) -> R<MlirValue> {
        let vt = b.vector(shape, to);
        let (fb, tb) = (element_bits(from), element_bits(to));
        // SAFETY: both are live types; only their kinds and widths are read.
        let bool_from = !is_float(from) && unsafe { mlirIntegerTypeGetWidth(from) } == 1;
        Ok(match (is_float(from), is_float(to)) {
            // SAFETY: as above.
            _ if unsafe { mlirTypeEqual(from, to) } => x,
            (true, true) if tb > fb => b.value("arith.extf", &[x], vt, &[]),
            (true, true) => b.value("arith.truncf", &[x], vt, &[]),
            (false, true) if bool_from => b.value("arith.uitofp", &[x], vt, &[]),
            (false, true) => b.value("arith.sitofp", &[x], vt, &[]),
            (true, false) => b.value("arith.fptosi", &[x], vt, &[]),
            (false, false) => {
                // SAFETY: both are integer types here.
                let (fw, tw) = unsafe { (mlirIntegerTypeGetWidth(from), mlirIntegerTypeGetWidth(to)) };
                if tw == 1 {
                    let zero = self.zero_vector(b, o, shape, from)?;
                    let bools = b.vector(shape, to);
                    b.value("arith.cmpi", &[x, zero], bools, &[("predicate", b.cmpi_predicate("ne"))])
                } else if tw > fw {
                    b.value(if bool_from { "arith.extui" } else { "arith.extsi" }, &[x], vt, &[])
                } else {
                    b.value("arith.trunci", &[x], vt, &[])
                }
            }
        })
    }
}
