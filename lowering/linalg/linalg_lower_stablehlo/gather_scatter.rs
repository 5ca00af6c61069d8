//! gather → `linalg.generic` over the result whose body reads the start
//! indices and the operand with `tensor.extract` (start indices clamped as
//! the spec says); scatter → an `scf.for` nest over the update elements
//! carrying the operands, applying the update computation in order, and
//! skipping an update whose window does not fit in the operand (XLA).

use super::common::*;
use super::scalar;
use floors_ir::dialects::stablehlo::{GatherOp, ScatterOp};

mod slices;

/// Reads start-index component `c` for a batch position (`batch` holds the
/// index of every indices dim except `ivd`) as an `index`.
fn start_component(t: &mut Tpl, indices: &TV, ivd: usize, batch: &[String], c: usize) -> String {
    let mut idx = batch.to_vec();
    if ivd < indices.ty.rank() {
        let ci = t.cst_index(c as i64);
        idx.insert(ivd, ci);
    }
    let v = t.extract(indices, &idx);
    let e = indices.ty.elem.clone();
    t.index_cast(&v, &e)
}

pub fn gather(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let operand = t.operand(op, 0);
    let indices = t.operand(op, 1);
    let out = op.results[0].clone();
    let dn = GatherOp::cast(op.raw).and_then(|g| g.dimension_numbers()).ok_or_else(|| op.fail("gather without dimension_numbers"))?;
    let offset_dims = dn.offset_dims;
    let collapsed = dn.collapsed_slice_dims;
    let op_batching = dn.operand_batching_dims;
    let idx_batching = dn.start_indices_batching_dims;
    let sim = dn.start_index_map;
    let ivd = dn.index_vector_dim as usize;
    let sizes = op.i64s("slice_sizes").ok_or_else(|| op.fail("gather without slice_sizes"))?;
    let r = out.rank();
    let batch_dims: Vec<usize> = (0..r).filter(|d| !offset_dims.contains(&(*d as i64))).collect();
    // operand dims that are windowed (not collapsed, not batching), in order ↔ offset_dims
    let window_dims: Vec<usize> =
        (0..operand.ty.rank()).filter(|d| !collapsed.contains(&(*d as i64)) && !op_batching.contains(&(*d as i64))).collect();
    let e = t.empty(&out);
    // Each start index component is an input of the generic, read at the
    // output's batch position (component c at index_vector_dim): an affine
    // read, so the elementwise ops computing the indices (JAX's negative
    // index wrap) fuse into the gather and a split kernel computes only its
    // own share of them, instead of every workgroup materializing them all.
    let index_ins: Vec<(TV, String)> = (0..sim.len())
        .map(|c| {
            let mut exprs: Vec<String> = batch_dims.iter().map(|d| format!("d{d}")).collect();
            if ivd < indices.ty.rank() {
                exprs.insert(ivd, c.to_string());
            }
            (indices.clone(), amap(r, &exprs))
        })
        .collect();
    let res = t.generic(r, &vec!["parallel"; r], &index_ins, &[(e, identity_map(r))], |t, args| {
        let ix: Vec<String> = (0..r).map(|d| t.v(format!("linalg.index {d} : index"))).collect();
        let batch: Vec<String> = batch_dims.iter().map(|&d| ix[d].clone()).collect();
        let zero = t.cst_index(0);
        let mut full = vec![zero.clone(); operand.ty.rank()];
        for (c, &d) in sim.iter().enumerate() {
            let s = t.index_cast(&args[c], &indices.ty.elem);
            let hi = t.cst_index(operand.ty.shape[d as usize] - sizes[d as usize]);
            let mut a = t.v(format!("arith.minsi {s}, {hi} : index"));
            if matches!(kind(&indices.ty.elem), Kind::UInt(_)) {
                // An unsigned index too big for a signed `index` is still big.
                let wrapped = t.v(format!("arith.cmpi slt, {s}, {zero} : index"));
                a = t.v(format!("arith.select {wrapped}, {hi}, {a} : index"));
            }
            full[d as usize] = t.v(format!("arith.maxsi {a}, {zero} : index"));
        }
        // batching dims: the operand batch index is the indices batch index
        for (k, &od) in op_batching.iter().enumerate() {
            let id = idx_batching[k] as usize;
            // position of indices dim `id` among the batch dims (ivd removed)
            let bpos = if id > ivd && ivd < indices.ty.rank() { id - 1 } else { id };
            full[od as usize] = batch[bpos].clone();
        }
        for (k, &d) in window_dims.iter().enumerate() {
            let o = ix[offset_dims[k] as usize].clone();
            full[d] = t.v(format!("arith.addi {}, {o} : index", full[d]));
        }
        Ok(vec![t.extract(&operand, &full)])
    })?;
    splice(op, &t, &res)?;
    Ok(())
}

pub fn scatter(op: &Op) -> R<()> {
    let mut t = Tpl::new(op);
    let n = (op.operands.len() - 1) / 2;
    let inputs: Vec<TV> = (0..n).map(|i| t.operand(op, i)).collect();
    let indices = t.operand(op, n);
    let updates: Vec<TV> = (0..n).map(|i| t.operand(op, n + 1 + i)).collect();
    let dn =
        ScatterOp::cast(op.raw).and_then(|s| s.dimension_numbers()).ok_or_else(|| op.fail("scatter without scatter_dimension_numbers"))?;
    let uwd = dn.update_window_dims;
    let iwd = dn.inserted_window_dims;
    let in_batching = dn.input_batching_dims;
    let idx_batching = dn.scatter_indices_batching_dims;
    let sdod = dn.scatter_dims_to_operand_dims;
    let ivd = dn.index_vector_dim as usize;
    let ushape = updates[0].ty.shape.clone();
    let ur = ushape.len();
    let orank = inputs[0].ty.rank();
    let scatter_dims: Vec<usize> = (0..ur).filter(|d| !uwd.contains(&(*d as i64))).collect();
    let window_dims: Vec<usize> = (0..orank).filter(|d| !iwd.contains(&(*d as i64)) && !in_batching.contains(&(*d as i64))).collect();
    // window size per operand dim (1 for inserted / batching dims)
    let mut wsize = vec![1i64; orank];
    for (k, &d) in window_dims.iter().enumerate() {
        wsize[d] = ushape[uwd[k] as usize];
    }
    let raw = op.raw;
    let region = op.region(0);
    let tys: Vec<Ty> = inputs.iter().map(|x| x.ty.clone()).collect();
    let res = t.for_nest(&ushape, &inputs, |t, iv, cur| {
        let batch: Vec<String> = scatter_dims.iter().map(|&d| iv[d].clone()).collect();
        let zero = t.cst_index(0);
        let mut start = vec![zero.clone(); orank];
        for (c, &d) in sdod.iter().enumerate() {
            start[d as usize] = start_component(t, &indices, ivd, &batch, c);
        }
        for (k, &od) in in_batching.iter().enumerate() {
            let id = idx_batching[k] as usize;
            let bpos = if id > ivd && ivd < indices.ty.rank() { id - 1 } else { id };
            start[od as usize] = batch[bpos].clone();
        }
        // in bounds: 0 <= start_d <= dim_d - window_d for every operand dim
        let mut ok = t.v("arith.constant true");
        for d in 0..orank {
            let hi = t.cst_index(tys[0].shape[d] - wsize[d]);
            let a = t.v(format!("arith.cmpi sge, {}, {zero} : index", start[d]));
            let b = t.v(format!("arith.cmpi sle, {}, {hi} : index", start[d]));
            let ab = t.v(format!("arith.andi {a}, {b} : i1"));
            ok = t.v(format!("arith.andi {ok}, {ab} : i1"));
        }
        let mut full = start.clone();
        for (k, &d) in window_dims.iter().enumerate() {
            full[d] = t.v(format!("arith.addi {}, {} : index", start[d], iv[uwd[k] as usize]));
        }
        let cur2 = cur.to_vec();
        let cur3 = cur.to_vec();
        t.if_tensors(
            &ok,
            &tys,
            |t| {
                let mut args = Vec::new();
                for x in &cur2 {
                    args.push(t.extract(x, &full));
                }
                for u in &updates {
                    args.push(t.extract(u, iv));
                }
                let ys = scalar::scalarize_region(t, raw, region, &args)?;
                Ok(cur2.iter().zip(ys).map(|(x, y)| t.insert(&y, x, &full)).collect())
            },
            |_| Ok(cur3),
        )
    })?;
    splice(op, &t, &res)?;
    Ok(())
}

/// `stablehlo.select_and_scatter`: the result starts as the init value; for
/// every source element (one window of the padded operand) an `scf.for` nest
/// over the window picks an element with the `select` body (the first
/// element that `select(selected, current)` does not keep replaces the
/// selection; padding is never selected), then the `scatter` body combines
/// the result at that position with the source element.
pub fn select_and_scatter(op: &Op, as_slices: bool) -> R<()> {
    let mut t = Tpl::new(op);
    let r = op.operands[0].rank();
    let wd = op.i64s("window_dimensions").unwrap_or_else(|| vec![1; r]);
    let ws = op.i64s_or("window_strides", r, 1);
    let pad = op.i64s_or("padding", 2 * r, 0);
    if as_slices {
        return slices::select_and_scatter(op, t, (&wd, &ws, &pad));
    }
    let operand = t.operand(op, 0);
    let source = t.operand(op, 1);
    let init = t.operand(op, 2);
    let elem = operand.ty.s();
    let s0 = t.extract0(&init);
    let result = t.fill(&s0, &op.results[0]);
    let raw = op.raw;
    let (sel_region, sc_region) = (op.region(0), op.region(1));
    let res = t.for_nest(&source.ty.shape, &[result], |t, ivs, cur| {
        let zero = t.cst_index(0);
        let fls = t.v("arith.constant false");
        let mut inits: Vec<(String, String)> = vec![(s0.clone(), elem.clone()), (fls, "i1".to_string())];
        for _ in 0..r {
            inits.push((zero.clone(), "index".to_string()));
        }
        let sel = t.for_nest_raw(&wd, &inits, |t, w, st| {
            let (best, has) = (st[0].clone(), st[1].clone());
            let mut inb = t.v("arith.constant true");
            let mut cpos = Vec::new();
            for d in 0..r {
                let stride = t.cst_index(ws[d]);
                let lo = t.cst_index(pad[2 * d]);
                let a = t.v(format!("arith.muli {}, {stride} : index", ivs[d]));
                let b = t.v(format!("arith.addi {a}, {} : index", w[d]));
                let p = t.v(format!("arith.subi {b}, {lo} : index"));
                let hi = t.cst_index(operand.ty.shape[d] - 1);
                let ge = t.v(format!("arith.cmpi sge, {p}, {zero} : index"));
                let le = t.v(format!("arith.cmpi sle, {p}, {hi} : index"));
                let both = t.v(format!("arith.andi {ge}, {le} : i1"));
                inb = t.v(format!("arith.andi {inb}, {both} : i1"));
                let c1 = t.v(format!("arith.maxsi {p}, {zero} : index"));
                cpos.push(t.v(format!("arith.minsi {c1}, {hi} : index")));
            }
            let val = t.extract(&operand, &cpos);
            let keep = scalar::scalarize_region(t, raw, sel_region, &[best.clone(), val.clone()])?;
            let tru = t.v("arith.constant true");
            let nkeep = t.v(format!("arith.xori {}, {tru} : i1", keep[0]));
            let nhas = t.v(format!("arith.xori {has}, {tru} : i1"));
            let better = t.v(format!("arith.ori {nhas}, {nkeep} : i1"));
            let take = t.v(format!("arith.andi {inb}, {better} : i1"));
            let mut out = vec![t.v(format!("arith.select {take}, {val}, {best} : {elem}")), t.v(format!("arith.ori {has}, {inb} : i1"))];
            for d in 0..r {
                out.push(t.v(format!("arith.select {take}, {}, {} : index", cpos[d], st[2 + d])));
            }
            Ok(out)
        })?;
        let has = sel[1].clone();
        let idx: Vec<String> = sel[2..].to_vec();
        let cur2 = cur[0].clone();
        let cur3 = cur.to_vec();
        let src = source.clone();
        t.if_tensors(
            &has,
            std::slice::from_ref(&cur2.ty),
            |t| {
                let old = t.extract(&cur2, &idx);
                let s = t.extract(&src, ivs);
                let y = scalar::scalarize_region(t, raw, sc_region, &[old, s])?;
                Ok(vec![t.insert(&y[0], &cur2, &idx)])
            },
            |_| Ok(cur3),
        )
    })?;
    splice(op, &t, &res)?;
    Ok(())
}
