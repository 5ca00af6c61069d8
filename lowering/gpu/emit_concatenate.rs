//! The concatenate emitter (XLA:GPU's `ConcatenateFusion`) for
//! `floors-gpu-emit-kernels`.
//!
//! Input: a `concatenate` kernel function after bufferization and
//! `convert-linalg-to-parallel-loops`. The shared lowering makes
//! `stablehlo.concatenate` a chain of `tensor.insert_slice`s; bufferized,
//! each operand is one top-level op writing its own static subview of the
//! output: a `memref.copy` (an operand read as is) or an `scf.parallel`
//! over the operand's shape (its fused elementwise producers, storing into
//! the subview). Those ops, consecutive (only constants, temporaries and
//! views between them), writing subviews of one buffer that differ only
//! along one dimension and do not overlap, are the operands.
//!
//! Output: one grid-stride launch over the *largest operand's* shape (the
//! operands' extents agree off the concatenation dimension). Thread point
//! `i`, for each operand whose extent covers `i` (a bound check along the
//! concatenation dimension, none for the largest), computes that operand's
//! fused value at `i` and stores it at `i` in the operand's subview, i.e.
//! at `i + offset` in the output: no select chain over the operands, no
//! pass over the whole output index space. Ops before or after the
//! operands (a consumer reading the concatenation, fills) keep their own
//! launches, in order.

use mlir_sys::*;

use super::{
    builder::{Builder, all_ops, constant_int},
    kernel_body::{Class, classify, finish_launch, move_body_at},
    launch::{Dim, Names, StaticView, all_true, cmpi, create_grid_stride, create_if, delinearize, loop_dims, memref_shape, static_subview},
};
use floors_ir::{ir::raw, pass::PassFailure, target::GpuTarget};

/// One operand of the concatenation.
struct Operand {
    /// The ops writing it (a copy, a nest, or a nest into a temporary and
    /// the copy out of it), in order.
    ops: Vec<MlirOperation>,
    /// The nest computing it, if any, and for each of its dimensions the
    /// subview dimension its induction variable indexes.
    nest: Option<(MlirOperation, Vec<usize>)>,
    /// A temporary the nest writes and a copy moves into the output: the
    /// nest's stores go straight to the output subview instead.
    forward: Option<(MlirValue, MlirOperation)>,
    /// The output subview it is written to.
    view: StaticView,
}

/// The ops writing one operand, before it is matched.
struct Unit {
    ops: Vec<MlirOperation>,
    forward: Option<(MlirValue, MlirOperation)>,
}

/// A matched concatenation.
pub struct Concatenate {
    operands: Vec<Operand>,
    /// The launch's space: the largest operand's shape.
    extents: Vec<i64>,
}

impl Concatenate {
    /// The ops the emitter takes (in order); the launch goes before the last.
    pub fn ops(&self) -> Vec<MlirOperation> {
        self.operands.iter().flat_map(|o| o.ops.iter().copied()).collect()
    }

    /// The `floors.gpu_codegen` label.
    pub fn label(&self) -> String {
        let dims: Vec<String> = self.extents.iter().map(|e| e.to_string()).collect();
        format!("concatenate(largest operand {}, {} operands)", dims.join("x"), self.operands.len())
    }
}

/// The root of the buffer `v` views (through subviews, casts, reshapes).
fn root_buffer(mut v: MlirValue) -> MlirValue {
    while let Some(p) = raw::producer(v) {
        if !matches!(
            raw::name(p).as_str(),
            "memref.subview" | "memref.cast" | "memref.expand_shape" | "memref.collapse_shape" | "memref.reinterpret_cast"
        ) {
            break;
        }
        v = raw::operands(p)[0];
    }
    v
}

/// The one buffer nest `op` stores into; Err when it writes more or
/// otherwise.
fn stored_buffer(op: MlirOperation) -> Result<MlirValue, String> {
    let mut target: Option<MlirValue> = None;
    for o in all_ops(op) {
        let n = raw::name(o);
        if n == "memref.store" {
            let t = raw::operands(o)[1];
            if target.is_some_and(|x| !raw::same_value(x, t)) {
                return Err("an operand's nest stores into more than one buffer".into());
            }
            target = Some(t);
        } else if raw::region_blocks(o).is_empty() && super::kernel_body::writes_memory(o) {
            return Err(format!("an operand's nest writes memory through '{n}'"));
        }
    }
    target.ok_or_else(|| "an operand's nest stores nothing".into())
}

/// Whether `copy` moves what nest `p` (right before it) wrote into a
/// temporary nothing else uses: (the temporary's view, the copy).
fn forwarded(p: MlirOperation, copy: MlirOperation) -> Option<(MlirValue, MlirOperation)> {
    if raw::name(p) != "scf.parallel" || raw::name(copy) != "memref.copy" {
        return None;
    }
    let src = raw::operands(copy)[0];
    let alloc = raw::producer(root_buffer(src)).filter(|&a| raw::name(a) == "memref.alloc")?;
    let stores_src = stored_buffer(p).is_ok_and(|t| raw::same_value(t, src));
    // The temporary: used by the view (if any) only, the view by the nest's stores and the copy only.
    let view_ok = match raw::producer(src) {
        Some(v) if v.ptr != alloc.ptr => raw::uses(raw::results(alloc)[0]).len() == 1,
        _ => true,
    };
    let users_ok = raw::uses(src).iter().all(|&(u, _)| u.ptr == copy.ptr || raw::is_within(u, p));
    (stores_src && view_ok && users_ok).then_some((src, copy))
}

/// Matches the concatenation among the top-level ops `body` (terminator
/// excluded) of a `concatenate` kernel function; Err(reason) when they do
/// not have its structure.
pub fn analyze(body: &[MlirOperation]) -> Result<Concatenate, String> {
    let work: Vec<MlirOperation> = body.iter().copied().filter(|&o| !matches!(classify(o), Class::Hoisted | Class::Sinkable)).collect();
    // Units: a copy, a nest, or a nest into a temporary + the copy out of it.
    let mut units: Vec<Unit> = Vec::new();
    let mut i = 0;
    while i < work.len() {
        let forward = work.get(i + 1).and_then(|&c| forwarded(work[i], c));
        let n = if forward.is_some() { 2 } else { 1 };
        units.push(Unit { ops: work[i..i + n].to_vec(), forward });
        i += n;
    }
    // The run of consecutive units writing static subviews of one buffer.
    let mut run: Vec<(Unit, StaticView)> = Vec::new();
    for unit in units {
        let Some(&last) = unit.ops.last() else { break };
        let written = match raw::name(last).as_str() {
            "memref.copy" => Ok(raw::operands(last)[1]),
            "scf.parallel" => stored_buffer(last),
            _ => Err(String::new()),
        };
        let view = written.ok().and_then(static_subview);
        match view {
            Some(v) if run.first().is_none_or(|(_, f)| raw::same_value(root_buffer(f.base), root_buffer(v.base))) => run.push((unit, v)),
            _ if !run.is_empty() => break,
            _ => {}
        }
    }
    if run.len() < 2 {
        return Err(format!("{} operand(s) written into subviews of one buffer, expected at least 2", run.len()));
    }
    if run.iter().any(|(_, v)| v.strides.iter().any(|&s| s != 1)) {
        return Err("an operand's subview is strided".into());
    }
    let base = run[0].1.base;
    if run.iter().any(|(_, v)| !raw::same_value(v.base, base)) {
        return Err("the operands' subviews have different sources".into());
    }
    let rank = run[0].1.sizes.len();
    // The concatenation dimension: the only one where offsets or sizes differ.
    let first = &run[0].1;
    let differs = |d: usize| run.iter().any(|(_, v)| v.offsets[d] != first.offsets[d] || v.sizes[d] != first.sizes[d]);
    let dims: Vec<usize> = (0..rank).filter(|&d| differs(d)).collect();
    let [dim] = dims.as_slice() else {
        return Err(format!("the operands' subviews differ along {} dimensions, expected 1", dims.len()));
    };
    let mut spans: Vec<(i64, i64)> = run.iter().map(|(_, v)| (v.offsets[*dim], v.offsets[*dim] + v.sizes[*dim])).collect();
    spans.sort();
    if spans.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err("the operands' subviews overlap".into());
    }
    let root = root_buffer(base);
    let reads_output = |op: MlirOperation| {
        let mut ops = vec![op];
        ops.extend(all_ops(op));
        ops.into_iter().any(|o| match raw::name(o).as_str() {
            "memref.load" | "memref.copy" => raw::same_value(root_buffer(raw::operands(o)[0]), root),
            _ => false,
        })
    };
    let mut operands = Vec::new();
    for (Unit { ops, forward }, view) in run {
        if ops.iter().any(|&o| reads_output(o)) {
            return Err("an operand reads the concatenation's output".into());
        }
        let nest = match ops.first().copied().filter(|&o| raw::name(o) == "scf.parallel") {
            Some(n) => Some((n, nest_to_view(n, &view.sizes)?)),
            None => {
                if memref_shape(raw::operands(ops[0])[0]).as_ref() != Some(&view.sizes) {
                    return Err("a copied operand's shape is not its subview's".into());
                }
                None
            }
        };
        operands.push(Operand { ops, nest, forward, view });
    }
    let largest = operands.iter().map(|o| o.view.sizes.clone()).max_by_key(|s| s.iter().product::<i64>()).unwrap_or_default();
    // Off the concatenation dimension all extents agree, so the largest operand's shape covers every operand.
    Ok(Concatenate { operands, extents: largest })
}

/// For each dimension of nest `n`, the dimension of the operand (shape
/// `sizes`) its induction variable indexes in the nest's stores: each
/// store index is an induction variable of extent `sizes[d]` or a constant
/// 0 in a unit dimension (canonicalization drops unit loops).
fn nest_to_view(n: MlirOperation, sizes: &[i64]) -> Result<Vec<usize>, String> {
    let dims = loop_dims(n)?;
    if dims.iter().any(|d| d.lb != 0 || d.step != 1) {
        return Err("an operand's nest does not start at 0 with step 1".into());
    }
    let mut map: Option<Vec<usize>> = None;
    for o in all_ops(n).into_iter().filter(|&o| raw::name(o) == "memref.store") {
        let idx = &raw::operands(o)[2..];
        if idx.len() != sizes.len() {
            return Err("an operand's store does not index every dimension".into());
        }
        let mut m = vec![usize::MAX; dims.len()];
        for (d, &v) in idx.iter().enumerate() {
            match dims.iter().position(|x| raw::same_value(x.iv, v)) {
                Some(j) if m[j] == usize::MAX && dims[j].extent == sizes[d] => m[j] = d,
                None if sizes[d] == 1 && constant_int(v) == Some(0) => {}
                _ => return Err("an operand's nest does not store at its induction variables".into()),
            }
        }
        if m.contains(&usize::MAX) || map.as_ref().is_some_and(|x| *x != m) {
            return Err("an operand's nest does not store at its induction variables".into());
        }
        map = Some(m);
    }
    map.ok_or_else(|| "an operand's nest stores nothing".into())
}

/// Emits the concatenation's launch before its last operand's op and
/// erases the operands' ops.
pub fn emit(c: &Concatenate, target: &GpuTarget, names: &mut Names) -> Result<(), PassFailure> {
    let total: i64 = c.extents.iter().product();
    if total == 0 {
        for &o in c.ops().iter().rev() {
            // SAFETY: the operands' ops are distinct, live top-level copies and nests of the kernel (from `analyze`)
            // with no results; each is destroyed once and not used again.
            unsafe { mlirOperationDestroy(o) };
        }
        return Ok(());
    }
    let Some(&last) = c.ops().last() else { return Ok(()) };
    let (launch, b, linear) = create_grid_stride(last, total, target, names, c.label());
    let dims: Vec<Dim> = c.extents.iter().map(|&e| Dim { iv: linear, lb: 0, step: 1, extent: e }).collect();
    let ivs = delinearize(&b, linear, &dims);
    let mut dead = Vec::new();
    for o in &c.operands {
        if o.view.sizes.contains(&0) {
            for &op in o.ops.iter().rev() {
                // SAFETY: as above: `op` is a live, result-less op of this operand, destroyed once.
                unsafe { mlirOperationDestroy(op) };
            }
            continue;
        }
        // Bound checks where this operand is shorter than the launch (the concatenation dimension only).
        let conds: Vec<MlirValue> = (0..ivs.len())
            .filter(|&d| o.view.sizes[d] < c.extents[d])
            .map(|d| {
                let e = b.index_const(o.view.sizes[d]);
                cmpi(&b, 6, ivs[d], e)
            })
            .collect();
        let at: Builder = match all_true(&b, &conds) {
            Some(g) => create_if(&b, g),
            None => b,
        };
        match &o.nest {
            Some((nest, map)) => {
                if let Some((temp, copy)) = o.forward {
                    // The nest stores straight into the output's subview; the temporary goes.
                    let dst = raw::operands(copy)[1];
                    for s in all_ops(*nest).into_iter().filter(|&s| raw::name(s) == "memref.store") {
                        // SAFETY: `s` is a live memref.store of the nest (operand 1 is its memref) and `dst` the live
                        // destination of `copy`.
                        unsafe { mlirOperationSetOperand(s, 1, dst) };
                    }
                    // SAFETY: `copy` is this operand's live, result-less memref.copy; nothing refers to it afterwards.
                    unsafe { mlirOperationDestroy(copy) };
                    dead.push(temp);
                }
                let nest_ivs: Vec<MlirValue> = map.iter().map(|&d| ivs[d]).collect();
                move_body_at(*nest, &at, &nest_ivs);
            }
            None => move_body_at(o.ops[0], &at, &ivs),
        }
    }
    // Temporaries forwarded away: their views and allocations, once unused.
    for mut v in dead {
        while raw::uses(v).is_empty() {
            let Some(p) = raw::producer(v) else { break };
            let next = raw::operands(p).first().copied();
            // SAFETY: `v`, the only result of `p` (a view or the allocation of the forwarded temporary), has no uses
            // left, and `p`'s operand was read before.
            unsafe { mlirOperationDestroy(p) };
            match next {
                Some(n) => v = n,
                None => break,
            }
        }
    }
    finish_launch(launch)
}
