//! The input-slices emitter (XLA:GPU's `InputSlicesFusion`) for
//! `floors-gpu-emit-kernels`.
//!
//! Input: an `input_slices` kernel function (several roots, all slices of
//! one value) after bufferization and `convert-linalg-to-parallel-loops`:
//! each slice is a `memref.copy` from a static subview (offsets, sizes,
//! strides) of one source buffer into its output, and the source is either
//! a fusion input or written just before by an `scf.parallel` over its
//! whole shape (the fused elementwise computation, storing each point once
//! at its induction variables).
//!
//! Output: one grid-stride launch over the source's shape. Thread point
//! `i` computes the fused value once (the nest's body at `i`, or a load of
//! the source when it is an input or was written by earlier launches) and, for every slice that contains `i` (per dimension
//! `offset ≤ i < offset + (size - 1)·stride + 1` and `(i - offset) % stride
//! = 0`, checks left out where they always hold), stores it at
//! `(i - offset) / stride` in that slice's output. When the source is a
//! temporary only the slices read, its store and the temporary go: the
//! full value is never written to memory.

use mlir_sys::*;

use super::{
    builder::{Builder, all_ops},
    kernel_body::{Class, classify, finish_launch, move_body_at},
    launch::{Dim, Names, StaticView, all_true, cmpi, create_grid_stride, create_if, delinearize, loop_dims, memref_shape, static_subview},
};
use floors_ir::{
    ir::raw,
    pass::{PassFailure, fail_at as fail},
    target::GpuTarget,
};

/// A matched input-slices kernel.
pub struct InputSlices {
    /// The nest computing the source, if the source is not an input.
    producer: Option<MlirOperation>,
    /// The source buffer and its shape (the launch's space).
    source: MlirValue,
    extents: Vec<i64>,
    /// The slices: copy op and the subview it reads.
    slices: Vec<(MlirOperation, StaticView)>,
}

impl InputSlices {
    /// The ops the emitter takes (in order); the launch goes before the last.
    pub fn ops(&self) -> Vec<MlirOperation> {
        self.producer.iter().copied().chain(self.slices.iter().map(|(c, _)| *c)).collect()
    }

    /// The `floors.gpu_codegen` label.
    pub fn label(&self) -> String {
        let dims: Vec<String> = self.extents.iter().map(|e| e.to_string()).collect();
        format!("input-slices({} slices of {})", self.slices.len(), dims.join("x"))
    }
}

/// Matches the slices among the top-level ops `body` (terminator excluded)
/// of an `input_slices` kernel function; Err(reason) otherwise.
pub fn analyze(body: &[MlirOperation]) -> Result<InputSlices, String> {
    let work: Vec<MlirOperation> = body.iter().copied().filter(|&o| !matches!(classify(o), Class::Hoisted | Class::Sinkable)).collect();
    // The trailing copies out of subviews of one source.
    let mut slices: Vec<(MlirOperation, StaticView)> = Vec::new();
    for &o in work.iter().rev() {
        let view = (raw::name(o) == "memref.copy").then(|| static_subview(raw::operands(o)[0])).flatten();
        match view {
            Some(v) if slices.first().is_none_or(|(_, f)| raw::same_value(f.base, v.base)) => slices.insert(0, (o, v)),
            _ => break,
        }
    }
    let Some((_, first)) = slices.first() else { return Err("no copy out of a static subview ends the kernel".into()) };
    let source = first.base;
    let extents = memref_shape(source).ok_or("the sliced buffer has a dynamic shape")?;
    for (c, v) in &slices {
        if memref_shape(raw::operands(*c)[1]).as_ref() != Some(&v.sizes) {
            return Err("a slice's output is not the shape of its subview".into());
        }
        if v.strides.iter().any(|&s| s <= 0) {
            return Err("a slice has a non-positive stride".into());
        }
    }
    // The nest writing the source, right before the copies.
    let producer = work
        .len()
        .checked_sub(slices.len() + 1)
        .map(|i| work[i])
        .filter(|&p| all_ops(p).into_iter().any(|o| raw::name(o) == "memref.store" && raw::same_value(raw::operands(o)[1], source)));
    if let Some(p) = producer {
        if raw::name(p) != "scf.parallel" {
            return Err(format!("the sliced buffer is written by '{}', not a loop nest", raw::name(p)));
        }
        let dims = loop_dims(p)?;
        if dims.iter().any(|d| d.lb != 0 || d.step != 1) || dims.iter().map(|d| d.extent).collect::<Vec<_>>() != extents {
            return Err("the nest writing the sliced buffer does not span it".into());
        }
        let touches = |o: MlirOperation, name: &str, at: usize| raw::name(o) == name && raw::same_value(raw::operands(o)[at], source);
        let nested = all_ops(p);
        if nested.iter().any(|&o| touches(o, "memref.load", 0)) {
            return Err("the nest writing the sliced buffer reads it too".into());
        }
        let stores: Vec<MlirOperation> = top_stores(p).into_iter().filter(|&s| touches(s, "memref.store", 1)).collect();
        let [store] = stores.as_slice() else {
            return Err("the sliced value is not stored exactly once per point in the nest's body".into());
        };
        if nested.iter().filter(|&&o| touches(o, "memref.store", 1)).count() != 1 {
            return Err("the sliced value is not stored exactly once per point in the nest's body".into());
        };
        let idx = &raw::operands(*store)[2..];
        if idx.len() != dims.len() || idx.iter().zip(&dims).any(|(&i, d)| !raw::same_value(i, d.iv)) {
            return Err("the sliced value is not stored at the nest's induction variables".into());
        }
    }
    if slices.len() < 2 {
        return Err(format!("{} slice(s), expected several", slices.len()));
    }
    Ok(InputSlices { producer, source, extents, slices })
}

/// The `memref.store`s directly in the body of nest `p`.
fn top_stores(p: MlirOperation) -> Vec<MlirOperation> {
    raw::region_blocks(p).into_iter().flat_map(raw::block_ops).filter(|&o| raw::name(o) == "memref.store").collect()
}

/// Emits the launch before the last slice's copy and erases the matched
/// ops (and the source, when it is a temporary only the slices read).
pub fn emit(s: &InputSlices, target: &GpuTarget, names: &mut Names) -> Result<(), PassFailure> {
    let copies: Vec<MlirOperation> = s.slices.iter().map(|(c, _)| *c).collect();
    let total: i64 = s.extents.iter().product();
    let Some(&last) = copies.last() else { return Ok(()) };
    if total == 0 {
        for o in s.ops() {
            // SAFETY: `s.ops()` are the distinct, live producer nest and slice copies `analyze` matched, none with
            // results; each is destroyed once and not used again.
            unsafe { mlirOperationDestroy(o) };
        }
        return Ok(());
    }
    let temp = raw::producer(s.source).filter(|&a| raw::name(a) == "memref.alloc");
    // SAFETY: `s.source` is a live memref value (`analyze` read its static shape), so its type is shaped.
    let elem = unsafe { mlirShapedTypeGetElementType(mlirValueGetType(s.source)) };
    let (launch, b, linear) = create_grid_stride(last, total, target, names, s.label());
    let dims: Vec<Dim> = s.extents.iter().map(|&e| Dim { iv: linear, lb: 0, step: 1, extent: e }).collect();
    let ivs = delinearize(&b, linear, &dims);
    // The fused value at this point, computed once.
    let value = match s.producer {
        Some(p) => {
            let store = top_stores(p)
                .into_iter()
                .find(|&o| raw::same_value(raw::operands(o)[1], s.source))
                .ok_or_else(|| fail(p, "internal error: the sliced value's store is gone"))?;
            move_body_at(p, &b, &ivs);
            let v = raw::operands(store)[0];
            // A temporary only the slices read is never written.
            let only_slices = temp.is_some()
                && raw::uses(s.source).iter().all(|&(u, _)| u.ptr == store.ptr || s.slices.iter().any(|(_, v)| v.op.ptr == u.ptr))
                && s.slices
                    .iter()
                    .all(|(_, v)| raw::uses(raw::results(v.op)[0]).iter().all(|&(u, _)| copies.iter().any(|c| c.ptr == u.ptr)));
            if only_slices {
                // SAFETY: `store` is the live, result-less memref.store of the source, now moved into the launch;
                // nothing uses it afterwards.
                unsafe { mlirOperationDestroy(store) };
            }
            v
        }
        None => {
            let mut operands = vec![s.source];
            operands.extend(&ivs);
            b.value("memref.load", &operands, elem, &[])
        }
    };
    for (copy, view) in &s.slices {
        if view.sizes.contains(&0) {
            continue;
        }
        let dst = raw::operands(*copy)[1];
        let mut conds = Vec::new();
        let mut idx = Vec::new();
        for (d, &iv) in ivs.iter().enumerate() {
            let (off, size, stride) = (view.offsets[d], view.sizes[d], view.strides[d]);
            let end = off + (size - 1) * stride + 1;
            if off > 0 {
                let c = b.index_const(off);
                conds.push(cmpi(&b, 9, iv, c));
            }
            if end < s.extents[d] {
                let c = b.index_const(end);
                conds.push(cmpi(&b, 6, iv, c));
            }
            let rel = if off > 0 {
                let c = b.index_const(off);
                b.index_binop("arith.subi", iv, c)
            } else {
                iv
            };
            if stride > 1 && size > 1 {
                let c = b.index_const(stride);
                let r = b.index_binop("arith.remui", rel, c);
                let zero = b.index_const(0);
                conds.push(cmpi(&b, 0, r, zero));
                idx.push(b.index_binop("arith.divui", rel, c));
            } else {
                idx.push(rel);
            }
        }
        let at: Builder = match all_true(&b, &conds) {
            Some(g) => create_if(&b, g),
            None => b,
        };
        let mut operands = vec![value, dst];
        operands.extend(&idx);
        at.op("memref.store", &operands, &[], &[]);
    }
    for c in copies {
        // SAFETY: `c` is a live, result-less slice copy, destroyed once; its operands were read above.
        unsafe { mlirOperationDestroy(c) };
    }
    let mut views: Vec<MlirOperation> = s.slices.iter().map(|(_, v)| v.op).collect();
    views.sort_by_key(|o| o.ptr as usize);
    views.dedup_by_key(|o| o.ptr);
    for v in views {
        if raw::results(v).iter().all(|&r| raw::uses(r).is_empty()) {
            // SAFETY: `v` is a live subview (deduplicated above) whose results have no uses left.
            unsafe { mlirOperationDestroy(v) };
        }
    }
    if let Some(a) = temp
        && raw::uses(s.source).is_empty()
    {
        // SAFETY: `a` is the live allocation of the temporary, whose result `s.source` has no uses left.
        unsafe { mlirOperationDestroy(a) };
    }
    finish_launch(launch)
}
