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
    builder::{Builder, all_ops},
    gpu_emit_kernels::{Class, classify, finish_launch, move_body_at},
    launch::{Dim, Names, StaticView, all_true, cmpi, create_grid_stride, create_if, delinearize, loop_dims, memref_shape, static_subview},
};
use crate::{ir::raw, pass::PassFailure, target::GpuTarget};

/// One operand of the concatenation: the op writing it and its extents.
struct Operand {
    op: MlirOperation,
    extents: Vec<i64>,
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
        self.operands.iter().map(|o| o.op).collect()
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
        if !matches!(raw::name(p).as_str(), "memref.subview" | "memref.cast" | "memref.expand_shape" | "memref.collapse_shape" | "memref.reinterpret_cast")
        {
            break;
        }
        v = raw::operands(p)[0];
    }
    v
}

/// The subview `op` (a top-level copy or nest) writes, when it writes one
/// static subview only.
fn written_view(op: MlirOperation) -> Result<StaticView, String> {
    let name = raw::name(op);
    let target = if name == "memref.copy" {
        raw::operands(op)[1]
    } else {
        let mut target: Option<MlirValue> = None;
        for o in all_ops(op) {
            let n = raw::name(o);
            if n == "memref.store" {
                let t = raw::operands(o)[1];
                if target.is_some_and(|x| !raw::same_value(x, t)) {
                    return Err("an operand's nest stores into more than one buffer".into());
                }
                target = Some(t);
            } else if n != "memref.load" && super::gpu_emit_kernels::writes_memory(o) && raw::region_blocks(o).is_empty() {
                return Err(format!("an operand's nest writes memory through '{n}'"));
            }
        }
        target.ok_or("an operand's nest stores nothing")?
    };
    static_subview(target).ok_or_else(|| "an operand is not written into a static subview".to_string())
}

/// Matches the concatenation among the top-level ops `body` (terminator
/// excluded) of a `concatenate` kernel function; Err(reason) when they do
/// not have its structure.
pub fn analyze(body: &[MlirOperation]) -> Result<Concatenate, String> {
    let mut views: Vec<(MlirOperation, StaticView)> = Vec::new();
    let mut ended = false;
    for &o in body {
        match classify(o) {
            Class::Hoisted | Class::Sinkable => continue,
            Class::Parallel => {}
            Class::Serial => {
                if !views.is_empty() {
                    ended = true;
                }
                continue;
            }
        }
        let view = written_view(o);
        match view {
            Ok(v) if !ended && views.first().is_none_or(|(_, f)| raw::same_value(root_buffer(f.base), root_buffer(v.base))) => {
                views.push((o, v))
            }
            Ok(_) if !views.is_empty() && !ended => return Err("the operands write different buffers".into()),
            _ if !views.is_empty() => ended = true,
            _ => {}
        }
    }
    if views.len() < 2 {
        return Err(format!("{} operand(s) written into subviews of the output, expected at least 2", views.len()));
    }
    if views.iter().any(|(_, v)| v.strides.iter().any(|&s| s != 1)) {
        return Err("an operand's subview is strided".into());
    }
    let base = views[0].1.base;
    if views.iter().any(|(_, v)| !raw::same_value(v.base, base)) {
        return Err("the operands' subviews have different sources".into());
    }
    let rank = views[0].1.sizes.len();
    // The concatenation dimension: the only one where offsets or sizes differ.
    let differs = |d: usize| views.iter().any(|(_, v)| v.offsets[d] != views[0].1.offsets[d] || v.sizes[d] != views[0].1.sizes[d]);
    let dims: Vec<usize> = (0..rank).filter(|&d| differs(d)).collect();
    let [dim] = dims.as_slice() else {
        return Err(format!("the operands' subviews differ along {} dimensions, expected 1", dims.len()));
    };
    let mut spans: Vec<(i64, i64)> = views.iter().map(|(_, v)| (v.offsets[*dim], v.offsets[*dim] + v.sizes[*dim])).collect();
    spans.sort();
    if spans.windows(2).any(|w| w[1].0 < w[0].1) {
        return Err("the operands' subviews overlap".into());
    }
    let root = root_buffer(base);
    let mut operands = Vec::new();
    for (op, view) in &views {
        if raw::name(*op) == "memref.copy" {
            let src = raw::operands(*op)[0];
            if memref_shape(src).as_ref() != Some(&view.sizes) {
                return Err("a copied operand's shape is not its subview's".into());
            }
            if raw::same_value(root_buffer(src), root) {
                return Err("an operand reads the concatenation's output".into());
            }
        } else {
            let ld = loop_dims(*op)?;
            if ld.iter().any(|d| d.lb != 0 || d.step != 1) || ld.iter().map(|d| d.extent).collect::<Vec<_>>() != view.sizes {
                return Err("an operand's nest does not span its subview".into());
            }
            let reads_output = all_ops(*op)
                .into_iter()
                .any(|o| raw::name(o) == "memref.load" && raw::same_value(root_buffer(raw::operands(o)[0]), root));
            if reads_output {
                return Err("an operand's nest reads the concatenation's output".into());
            }
        }
        operands.push(Operand { op: *op, extents: view.sizes.clone() });
    }
    let largest = operands.iter().max_by_key(|o| o.extents.iter().product::<i64>()).map(|o| o.extents.clone()).unwrap_or_default();
    // Off the concatenation dimension all extents agree, so the largest operand's shape covers every operand.
    Ok(Concatenate { operands, extents: largest })
}

/// Emits the concatenation's launch before its last operand's op and
/// erases the operands' ops.
pub fn emit(c: &Concatenate, target: &GpuTarget, names: &mut Names) -> Result<(), PassFailure> {
    let total: i64 = c.extents.iter().product();
    if total == 0 {
        for o in &c.operands {
            unsafe { mlirOperationDestroy(o.op) };
        }
        return Ok(());
    }
    let last = c.operands.last().map(|o| o.op).expect("analyze matched at least 2 operands");
    let (launch, b, linear) = create_grid_stride(last, total, target, names, c.label());
    let dims: Vec<Dim> = c.extents.iter().map(|&e| Dim { iv: linear, lb: 0, step: 1, extent: e }).collect();
    let ivs = delinearize(&b, linear, &dims);
    for o in &c.operands {
        if o.extents.iter().product::<i64>() == 0 {
            unsafe { mlirOperationDestroy(o.op) };
            continue;
        }
        // Bound checks where this operand is shorter than the launch (the concatenation dimension only).
        let conds: Vec<MlirValue> = (0..ivs.len())
            .filter(|&d| o.extents[d] < c.extents[d])
            .map(|d| {
                let e = b.index_const(o.extents[d]);
                cmpi(&b, 6, ivs[d], e)
            })
            .collect();
        let at: Builder = match all_true(&b, &conds) {
            Some(g) => create_if(&b, g),
            None => b,
        };
        move_body_at(o.op, &at, &ivs);
    }
    finish_launch(launch)
}
