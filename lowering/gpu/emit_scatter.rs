//! The scatter emitter with atomics (XLA:GPU's scatter) for
//! `floors-gpu-emit-kernels`.
//!
//! Input: the `scf.for` nest floors' scatter lowering leaves after
//! bufferization: one loop per update dimension, the body computing the
//! destination index from the indices array and, under an `scf.if` (in
//! bounds), loading the destination element, combining it with the update
//! and storing it back. When that combination is one op with a hardware
//! atomic (`arith.addf` on f32/f64, `arith.addi`/`maxsi`/`minsi`/`maxui`/
//! `minui` on i32/i64), the nest becomes a grid-stride launch with one thread
//! per update element and the load-combine-store a `memref.atomic_rmw`:
//! updates that hit the same element are combined by the memory system in
//! some order (the combiner is commutative and associative; f32 sums may
//! round differently from the serial order, as in XLA). Anything else (a
//! combiner with no atomic, such as a plain overwrite whose result would
//! depend on the order, several stores, iter_args, dynamic bounds) is not
//! applicable: the function keeps the serial single-block code, which the
//! select pass also reports for such combiners.

use mlir_sys::*;

use super::{
    builder::Builder,
    launch::{Dim, Names, create_grid_stride, delinearize, loop_dims},
};
use floors_ir::{ir::raw, target::GpuTarget};

/// A matched scatter nest.
pub struct Scatter {
    root: MlirOperation,
    dims: Vec<Dim>,
    /// The innermost body (its ops move into the launch).
    body: MlirBlock,
    load: MlirOperation,
    combine: MlirOperation,
    store: MlirOperation,
    /// The `arith.atomic_rmw_kind` and the update operand.
    kind: &'static str,
    update: MlirValue,
}

/// Matches a scatter nest rooted at the top-level `scf.for` `root`.
pub fn analyze(root: MlirOperation) -> Result<Scatter, String> {
    let mut dims = Vec::new();
    let mut op = root;
    let body = loop {
        if raw::name(op) != "scf.for" {
            return Err("not an scf.for nest".into());
        }
        dims.extend(loop_dims(op)?);
        // SAFETY: `op` is a live scf.for (checked just above), whose region 0 holds its body block.
        let block = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)) };
        let ops = raw::block_ops(block);
        match &ops[..ops.len() - 1] {
            [one] if raw::name(*one) == "scf.for" => op = *one,
            _ => break block,
        }
    };
    if dims.iter().any(|d| d.extent == 0) {
        return Err("an empty loop".into());
    }
    // The store: in the body or in its one `scf.if` (no else, no results).
    let mut stores = Vec::new();
    for o in super::builder::all_ops(op) {
        let n = raw::name(o);
        if n == "memref.store" {
            stores.push(o);
        } else if n.starts_with("memref.") && n != "memref.load" || n == "func.call" || n.starts_with("gpu.") {
            return Err(format!("the body holds '{n}'"));
        } else if !raw::region_blocks(o).is_empty() && n != "scf.if" {
            return Err(format!("the body holds '{n}' with a region"));
        } else if n == "scf.if"
            // SAFETY: `o` is a live scf.if, which has two regions (then, else); an empty else region has a null first
            // block, which is what is tested.
            && (!raw::results(o).is_empty() || unsafe { !mlirRegionGetFirstBlock(mlirOperationGetRegion(o, 1)).ptr.is_null() })
        {
            return Err("an scf.if with results or an else branch".into());
        }
    }
    let [store] = stores.as_slice() else { return Err(format!("{} stores", stores.len())) };
    let store = *store;
    let s = raw::operands(store);
    let combine = raw::producer(s[0]).ok_or("the stored value is not computed")?;
    let same_place = |l: MlirOperation| {
        raw::name(l) == "memref.load" && {
            let lo = raw::operands(l);
            lo.len() + 1 == s.len() && lo.iter().zip(&s[1..]).all(|(&a, &b)| raw::same_value(a, b))
        }
    };
    let c = raw::operands(combine);
    if c.len() != 2 || !raw::name(combine).starts_with("arith.") {
        return Err("the stored value is not combined with the destination element (an overwrite: its result depends on the order)".into());
    }
    let (load, update) = match (raw::producer(c[0]), raw::producer(c[1])) {
        (Some(l), _) if same_place(l) => (l, c[1]),
        (_, Some(l)) if same_place(l) => (l, c[0]),
        _ => return Err("the combiner does not read the destination element".into()),
    };
    // Nothing else may read the destination.
    let dst = s[1];
    for o in super::builder::all_ops(op) {
        if raw::name(o) == "memref.load" && o.ptr != load.ptr && raw::same_value(raw::operands(o)[0], dst) {
            return Err("the destination is read elsewhere".into());
        }
    }
    if raw::uses(raw::results(load)[0]).len() != 1 || raw::uses(raw::results(combine)[0]).len() != 1 {
        return Err("the destination element or the combination has other uses".into());
    }
    // SAFETY: `s[0]` is the value stored by the live memref.store `store`.
    let t = unsafe { mlirValueGetType(s[0]) };
    let (f32_or_64, i32_or_64) =
        // SAFETY: `t` is the type just read; the width is read only once `t` is known to be an integer type.
        unsafe { (mlirTypeIsAF32(t) || mlirTypeIsAF64(t), mlirTypeIsAInteger(t) && matches!(mlirIntegerTypeGetWidth(t), 32 | 64)) };
    let name = raw::name(combine);
    let kind = match name.as_str() {
        "arith.addf" if f32_or_64 => "addf",
        "arith.addi" if i32_or_64 => "addi",
        "arith.maximumf" if f32_or_64 => "maximumf",
        "arith.minimumf" if f32_or_64 => "minimumf",
        "arith.maxsi" if i32_or_64 => "maxs",
        "arith.minsi" if i32_or_64 => "mins",
        "arith.maxui" if i32_or_64 => "maxu",
        "arith.minui" if i32_or_64 => "minu",
        _ => return Err(format!("the combiner '{name}' on {} has no hardware atomic", raw::type_text(t))),
    };
    Ok(Scatter { root, dims, body, load, combine, store, kind, update })
}

/// Emits the atomic scatter before `sc.root` and erases the nest; returns the launch.
pub fn emit(sc: &Scatter, target: &GpuTarget, names: &mut Names) -> MlirOperation {
    let total: i64 = sc.dims.iter().map(|d| d.extent).product();
    let (launch, fb, linear) = create_grid_stride(sc.root, total, target, names, "scatter(atomic)".into());
    for (d, v) in sc.dims.iter().zip(delinearize(&fb, linear, &sc.dims)) {
        // SAFETY: `d.iv` is a live induction variable of the matched nest and `v` a live index value of the launch.
        unsafe { mlirValueReplaceAllUsesOfWith(d.iv, v) };
    }
    let ops = raw::block_ops(sc.body);
    for &o in &ops[..ops.len() - 1] {
        fb.move_here(o);
    }
    // load + combine + store → atomic_rmw at the store.
    let at = Builder::before(sc.store);
    let s = raw::operands(sc.store);
    // arith::AtomicRMWKind's values (an i64 enum attribute).
    let code = match sc.kind {
        "addf" => 0,
        "addi" => 1,
        "maximumf" => 4,
        "maxs" => 6,
        "maxu" => 7,
        "minimumf" => 8,
        "mins" => 10,
        _ => 11, // minu
    };
    // SAFETY: `at.ctx` is the live context of the store's function.
    let kind = unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(at.ctx, 64), code) };
    let mut operands = vec![sc.update];
    operands.extend(&s[1..]);
    // SAFETY: `s[0]` is the stored value of the live `sc.store`.
    at.op("memref.atomic_rmw", &operands, &[unsafe { mlirValueGetType(s[0]) }], &[("kind", kind)]);
    // SAFETY: the four ops are live and distinct; each is destroyed after its only user: the store has no results, the
    // combine's one use was the store, the load's one use the combine (`analyze` checked both), and the root nest yields
    // nothing and now holds only loop skeletons.
    unsafe {
        mlirOperationDestroy(sc.store);
        mlirOperationDestroy(sc.combine);
        mlirOperationDestroy(sc.load);
        mlirOperationDestroy(sc.root);
    }
    launch
}
