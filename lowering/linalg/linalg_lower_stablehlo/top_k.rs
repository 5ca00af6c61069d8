//! `chlo.top_k` → a per-row selection with a binary heap of the k best,
//! O(n log k) (XLA:CPU's top-k runs `std::partial_sort`, a heap, per batch).
//!
//! Elements are compared by a signed integer key: the value itself for
//! signed integers, the value with its sign bit flipped for unsigned ones,
//! and for floats the bit pattern with the magnitude bits flipped when the
//! sign is set — the total order -NaN < -inf < … < -0.0 < +0.0 < … < +inf <
//! NaN that top_k's TOTALORDER `GT` uses. Ties go to the lower index (a
//! stable descending sort). The heap holds (key, index) pairs with the worst
//! at the root; it starts full of sentinels (the least key, index i32::MAX)
//! that every element beats. Each element of the row is compared with the
//! root (kept in registers) and, when better, replaces it and sifts down
//! (a fixed ⌊log2 k⌋ levels, branch-free). Then the heap is drained worst
//! first into positions k−1 … 0; the values are read back at the indices.

use super::common::*;

/// With `as_sort` (a sort inside a fusion that the pass keeps for the floor,
/// `keep-sorts`), the top k as a kept sort instead ([`as_sorted_prefix`]).
pub fn top_k(op: &Op, as_sort: bool) -> R<()> {
    if as_sort {
        return as_sorted_prefix(op);
    }
    let mut t = Tpl::new(op);
    let x = t.operand(op, 0);
    let rank = x.ty.rank();
    if rank == 0 {
        return Err(op.unsupported("on a rank-0 operand"));
    }
    let n = x.ty.shape[rank - 1];
    let k = op.results[0].shape[rank - 1];
    let width = key_width(&x.ty.elem).ok_or_else(|| op.unsupported(&format!("on element type {}", x.ty.elem)))?;
    let outs = [t.empty(&op.results[0]), t.empty(&op.results[1])];
    let res = if k == 0 {
        outs.to_vec()
    } else {
        let row = Row { x: &x, n, k, width };
        t.for_nest(&x.ty.shape[..rank - 1], &outs, |t, outer, cur| {
            let heap = select(t, &row, outer)?;
            drain(t, &row, outer, heap, cur)
        })?
    };
    splice(op, &t, &res)?;
    Ok(())
}

/// One row's geometry: the operand, its last extent, k and the key width.
struct Row<'a> {
    x: &'a TV,
    n: i64,
    k: i64,
    width: u32,
}

/// The heap: keys and indices, 1-D tensors of k.
struct Heap {
    keys: TV,
    idxs: TV,
}

fn key_width(elem: &str) -> Option<u32> {
    match kind(elem) {
        Kind::Float(w) | Kind::UInt(w) => Some(w),
        Kind::Int(1) => Some(8),
        Kind::Int(w) => Some(w),
        Kind::Other => None,
    }
}

/// The signed integer key of the scalar `v` of element type `elem`.
fn key_of(t: &mut Tpl, v: &str, elem: &str, width: u32) -> String {
    let it = format!("i{width}");
    match kind(elem) {
        Kind::Float(_) => {
            let bits = t.v(format!("arith.bitcast {v} : {} to {it}", storage(elem)));
            let top = t.cst(width - 1, &it);
            let one = t.cst(1, &it);
            let sign = t.v(format!("arith.shrsi {bits}, {top} : {it}"));
            let mask = t.v(format!("arith.shrui {sign}, {one} : {it}"));
            t.v(format!("arith.xori {bits}, {mask} : {it}"))
        }
        Kind::UInt(_) => {
            let flip = t.cst(i64_min_text(width), &it);
            t.v(format!("arith.xori {v}, {flip} : {it}"))
        }
        Kind::Int(1) => t.v(format!("arith.extui {v} : i1 to {it}")),
        _ => v.to_string(),
    }
}

fn i64_min_text(width: u32) -> String {
    if width >= 64 { i64::MIN.to_string() } else { (-(1i64 << (width - 1))).to_string() }
}

/// `(ka, ia)` is worse than `(kb, ib)`: a smaller key, or an equal key at a
/// larger index.
fn worse(t: &mut Tpl, (ka, ia): (&str, &str), (kb, ib): (&str, &str), width: u32) -> String {
    let less = t.v(format!("arith.cmpi slt, {ka}, {kb} : i{width}"));
    let eq = t.v(format!("arith.cmpi eq, {ka}, {kb} : i{width}"));
    let later = t.v(format!("arith.cmpi sgt, {ia}, {ib} : i32"));
    let tie = t.v(format!("arith.andi {eq}, {later} : i1"));
    t.v(format!("arith.ori {less}, {tie} : i1"))
}

/// The heap of the row's k best elements.
fn select(t: &mut Tpl, row: &Row, outer: &[String]) -> R<Heap> {
    let (k, width) = (row.k, row.width);
    let key_ty = Ty::new(&[k], &format!("i{width}"));
    let idx_ty = Ty::new(&[k], "i32");
    let least = t.cst(i64_min_text(width), &format!("i{width}"));
    let far = t.cst(i32::MAX, "i32");
    let keys = filled(t, &least, &key_ty);
    let idxs = filled(t, &far, &idx_ty);
    let inits = vec![
        (keys.v.clone(), key_ty.t()),
        (idxs.v.clone(), idx_ty.t()),
        (least.clone(), format!("i{width}")),
        (far.clone(), "i32".to_string()),
    ];
    let c0 = t.cst_index(0);
    let c1 = t.cst_index(1);
    let cn = t.cst_index(row.n);
    let ck = t.cst_index(k);
    let out = t.for_range(&c0, &cn, &c1, &inits, |t, j, cur| {
        let mut at = outer.to_vec();
        at.push(j.to_string());
        let v = t.extract(row.x, &at);
        let key = key_of(t, &v, &row.x.ty.elem, width);
        let jj = t.v(format!("arith.index_cast {j} : index to i32"));
        let better = worse(t, (&cur[2], &cur[3]), (&key, &jj), width);
        let heap = Heap { keys: TV::new(cur[0].clone(), key_ty.clone()), idxs: TV::new(cur[1].clone(), idx_ty.clone()) };
        let tys: Vec<String> = inits.iter().map(|i| i.1.clone()).collect();
        t.if_raw(
            &better,
            &tys,
            |t| {
                let h = sift_down(t, heap, &ck, (&key, &jj), k, width)?;
                let c0 = t.cst_index(0);
                let rk = t.extract(&h.keys, std::slice::from_ref(&c0));
                let ri = t.extract(&h.idxs, std::slice::from_ref(&c0));
                Ok(vec![h.keys.v, h.idxs.v, rk, ri])
            },
            |_| Ok(cur.to_vec()),
        )
    })?;
    Ok(Heap { keys: TV::new(out[0].clone(), key_ty), idxs: TV::new(out[1].clone(), idx_ty) })
}

/// A new tensor of `ty` filled with `scalar` (its own allocation: CSE must
/// not merge two heaps' buffers).
fn filled(t: &mut Tpl, scalar: &str, ty: &Ty) -> TV {
    let e = t.v(format!("bufferization.alloc_tensor() : {}", ty.t()));
    let v = t.v(format!("linalg.fill ins({scalar} : {}) outs({e} : {}) -> {}", ty.s(), ty.t(), ty.t()));
    TV::new(v, ty.clone())
}

/// The root replaced by `new` and sifted down in a heap of `size` (an index
/// value ≤ k) elements: ⌊log2 k⌋ levels, each moving the worse child up
/// while it is worse than `new`; `new` lands where the moves stop.
fn sift_down(t: &mut Tpl, heap: Heap, size: &str, new: (&str, &str), k: i64, width: u32) -> R<Heap> {
    let levels = 63 - (k as u64).leading_zeros() as i64;
    let c0 = t.cst_index(0);
    let yes = t.v("arith.constant true");
    let inits = vec![
        (c0.clone(), "index".to_string()),
        (yes, "i1".to_string()),
        (heap.keys.v.clone(), heap.keys.ty.t()),
        (heap.idxs.v.clone(), heap.idxs.ty.t()),
    ];
    let (kt, it) = (heap.keys.ty.clone(), heap.idxs.ty.clone());
    let out = if levels == 0 {
        inits.iter().map(|i| i.0.clone()).collect()
    } else {
        t.for_nest_raw(&[levels], &inits, |t, _, cur| {
            let h = Heap { keys: TV::new(cur[2].clone(), kt.clone()), idxs: TV::new(cur[3].clone(), it.clone()) };
            sift_level(t, &h, (&cur[0], &cur[1]), size, new, k, width)
        })?
    };
    let pos = std::slice::from_ref(&out[0]);
    let keys = t.insert(new.0, &TV::new(out[2].clone(), kt), pos);
    let idxs = t.insert(new.1, &TV::new(out[3].clone(), it), pos);
    Ok(Heap { keys, idxs })
}

/// One level of [`sift_down`] at `pos` (while `active`): returns the new
/// (pos, active, keys, idxs).
fn sift_level(t: &mut Tpl, h: &Heap, (pos, active): (&str, &str), size: &str, new: (&str, &str), k: i64, width: u32) -> R<Vec<String>> {
    let c1 = t.cst_index(1);
    let last = t.cst_index(k - 1);
    let twice = t.v(format!("arith.addi {pos}, {pos} : index"));
    let a = t.v(format!("arith.addi {twice}, {c1} : index"));
    let b = t.v(format!("arith.addi {a}, {c1} : index"));
    let a_in = t.v(format!("arith.cmpi slt, {a}, {size} : index"));
    let b_in = t.v(format!("arith.cmpi slt, {b}, {size} : index"));
    let ac = t.v(format!("arith.minsi {a}, {last} : index"));
    let bc = t.v(format!("arith.minsi {b}, {last} : index"));
    let (ka, ia) = (t.extract(&h.keys, std::slice::from_ref(&ac)), t.extract(&h.idxs, std::slice::from_ref(&ac)));
    let (kb, ib) = (t.extract(&h.keys, std::slice::from_ref(&bc)), t.extract(&h.idxs, std::slice::from_ref(&bc)));
    let b_worse = worse(t, (&kb, &ib), (&ka, &ia), width);
    let pick_b = t.v(format!("arith.andi {b_in}, {b_worse} : i1"));
    let ck = t.v(format!("arith.select {pick_b}, {kb}, {ka} : i{width}"));
    let ci = t.v(format!("arith.select {pick_b}, {ib}, {ia} : i32"));
    let child = t.v(format!("arith.select {pick_b}, {b}, {a} : index"));
    let child_worse = worse(t, (&ck, &ci), new, width);
    let open = t.v(format!("arith.andi {active}, {a_in} : i1"));
    let mv = t.v(format!("arith.andi {open}, {child_worse} : i1"));
    let p = std::slice::from_ref(&pos.to_string()).to_vec();
    let (pk, pi) = (t.extract(&h.keys, &p), t.extract(&h.idxs, &p));
    let wk = t.v(format!("arith.select {mv}, {ck}, {pk} : i{width}"));
    let wi = t.v(format!("arith.select {mv}, {ci}, {pi} : i32"));
    let keys = t.insert(&wk, &h.keys, &p);
    let idxs = t.insert(&wi, &h.idxs, &p);
    let next = t.v(format!("arith.select {mv}, {child}, {pos} : index"));
    Ok(vec![next, mv, keys.v, idxs.v])
}

/// The heap popped worst first into output positions k−1 … 0 of the row
/// (values read back from the operand at the indices).
fn drain(t: &mut Tpl, row: &Row, outer: &[String], heap: Heap, outs: &[TV]) -> R<Vec<TV>> {
    let k = row.k;
    let (kt, it) = (heap.keys.ty.clone(), heap.idxs.ty.clone());
    let carried = vec![heap.keys.clone(), heap.idxs.clone(), outs[0].clone(), outs[1].clone()];
    let out = t.for_nest(&[k], &carried, |t, step, cur| {
        let c0 = t.cst_index(0);
        let ck1 = t.cst_index(k - 1);
        let h = Heap { keys: TV::new(cur[0].v.clone(), kt.clone()), idxs: TV::new(cur[1].v.clone(), it.clone()) };
        let root = std::slice::from_ref(&c0);
        let ri = t.extract(&h.idxs, root);
        let p = t.v(format!("arith.subi {ck1}, {} : index", step[0]));
        let src = t.v(format!("arith.index_cast {ri} : i32 to index"));
        let mut at = outer.to_vec();
        at.push(src);
        let v = t.extract(row.x, &at);
        let mut dst = outer.to_vec();
        dst.push(p.clone());
        let vals = t.insert(&v, &cur[2], &dst);
        let idxs = t.insert(&ri, &cur[3], &dst);
        // The last live element replaces the root of a heap one smaller.
        let lk = t.extract(&h.keys, std::slice::from_ref(&p));
        let li = t.extract(&h.idxs, std::slice::from_ref(&p));
        let h = sift_down(t, h, &p, (&lk, &li), k, row.width)?;
        Ok(vec![h.keys, h.idxs, vals, idxs])
    })?;
    Ok(out[2..].to_vec())
}

/// The top k as the first k of a stable descending sort along the last
/// dimension — values with their positions (an iota), compared by `GT` in
/// TOTALORDER for floats (NaN first, -NaN last) and SIGNED for integers,
/// ties in index order — left as a `stablehlo.sort` for the floor (the TPU
/// floor's bitonic network), then sliced. Unsigned integers are sorted as
/// signed keys with the sign bit flipped (the same order), flipped back
/// after; booleans are refused.
fn as_sorted_prefix(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let x = t.operand(op, 0);
    let rank = x.ty.rank();
    let (direction, flip) = match kind(&x.ty.elem) {
        _ if rank == 0 => return Err(op.unsupported("on a rank-0 operand")),
        Kind::Float(_) => ("TOTALORDER", None),
        Kind::Int(w) if w > 1 => ("SIGNED", None),
        Kind::UInt(w) => ("SIGNED", Some(w)),
        _ => return Err(op.fail(format!("a top_k of {} cannot be a kept sort (keep-sorts) yet", x.ty.elem))),
    };
    // Unsigned: x xor the sign bit orders as a signed integer as x does unsigned.
    let flipped = |t: &mut Tpl, v: &TV, w: u32| {
        let s = v.ty.s();
        let bit = t.v(format!("arith.constant {} : {s}", i64::MIN >> (64 - w)));
        t.map(std::slice::from_ref(v), &v.ty, |t, a| Ok(t.v(format!("arith.xori {}, {bit} : {s}", a[0]))))
    };
    let x = match flip {
        Some(w) => flipped(&mut t, &x, w)?,
        None => x,
    };
    let last = rank - 1;
    let idx_ty = x.ty.with_elem("i32");
    let e = t.empty(&idx_ty);
    let iota = t.generic(rank, &vec!["parallel"; rank], &[], &[(e, identity_map(rank))], |t, _| {
        let i = t.v(format!("linalg.index {last} : index"));
        Ok(vec![t.v(format!("arith.index_cast {i} : index to i32"))])
    })?;
    let iota = iota.into_iter().next().unwrap();
    let (s, a, b, c, d, g) = (t.fresh(), t.fresh(), t.fresh(), t.fresh(), t.fresh(), t.fresh());
    let (el, ix) = (format!("tensor<{}>", x.ty.s()), "tensor<i32>");
    t.line(format!("{s}:2 = \"stablehlo.sort\"({}, {}) <{{dimension = {last} : i64, is_stable = true}}> ({{", x.v, iota.v));
    t.line(format!("^bb0({a}: {el}, {b}: {el}, {c}: {ix}, {d}: {ix}):"));
    t.line(format!("{g} = stablehlo.compare GT, {a}, {b}, {direction} : ({el}, {el}) -> tensor<i1>"));
    t.line(format!("stablehlo.return {g} : tensor<i1>"));
    t.line(format!("}}) : ({}, {}) -> ({}, {})", x.ty.t(), idx_ty.t(), x.ty.t(), idx_ty.t()));
    let sorted = [TV::new(format!("{s}#0"), x.ty.clone()), TV::new(format!("{s}#1"), idx_ty)];
    let zeros = vec!["0".to_string(); rank];
    let res: Vec<TV> =
        sorted.iter().zip(&op.results).map(|(v, r)| super::shape::extract_slice(&mut t, v, &zeros, &r.shape, &vec![1; rank])).collect();
    let res = match flip {
        Some(w) => vec![flipped(&mut t, &res[0], w)?, res[1].clone()],
        None => res,
    };
    splice(op, &t, &res)?;
    Ok(())
}
