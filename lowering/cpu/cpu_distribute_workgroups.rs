//! `floors-cpu-distribute-workgroups`: split a kernel into workgroups, so the
//! runtime can run one kernel on several threads (XLA:CPU's parallel loop
//! emitter partitions the outer dimension the same way).
//!
//! Three steps, in three places:
//! 1. **Grid** ([`grid_for`], called by `floors-cpu-outline-kernels`): a
//!    kernel with one output whose value comes straight from a linalg op (the
//!    root) with a parallel loop that indexes an output dimension (the first
//!    such loop with two or more iterations is split: rows of a matmul, the
//!    batch or else the output rows of a convolution), and enough work, gets
//!    `floors.grid = G` (G divides that loop, G ≤ the module's
//!    `floors.max_workgroups`), on the kernel and on the host's fusion op (the
//!    runtime's grid).
//! 2. **Distribute** (this pass, on tensors): the root is tiled with
//!    `scf.forall` into G chunks of that loop with every producer fused into
//!    the chunk (`transform.structured.fuse {use_forall}`), and the forall is marked
//!    `floors.workgroups`. Producers that cannot be fused stay before the
//!    forall: every workgroup computes them whole (redundant, never wrong).
//! 3. **Bind** ([`bind_workgroups`], called by `floors-cpu-emit-kernel-abi`
//!    after bufferization): the forall's body becomes the kernel's body and
//!    its induction variable a trailing `index` argument, the frame's
//!    workgroup id. It checks that the output buffers are written only inside
//!    the chunk, so G workgroups never write the same bytes.

use melior::{dialect::DialectHandle, ir::OperationRef};
use mlir_sys::*;
use crate::pass::fail_at as fail;
use crate::ir::raw::attr_text;

use crate::{
    ir::raw::{self, sref},
    lowering::cpu::cpu_pack_matmul::{BATCH_MATMUL_MAPS, MATMUL_MAPS},
    pass::{FloorsPass, PassFailure},
};

/// Module attribute (host module): the most workgroups a kernel may be split into.
pub const MAX_WORKGROUPS_ATTR: &str = "floors.max_workgroups";
/// Attribute on a kernel func and on its host fusion op: the grid's x size.
pub const GRID_ATTR: &str = "floors.grid";
/// Attribute on a kernel with a grid that could not be split: workgroup 0
/// runs all of it.
pub const SERIAL_ATTR: &str = "floors.workgroup_zero_only";
/// Attribute on the `scf.forall` whose iterations are the workgroups.
pub const FORALL_ATTR: &str = "floors.workgroups";
/// Tags while the transform script runs.
const ROOT_TAG: &str = "floors.distribute";

/// Module attribute (host module): the fewest iterations of a root worth
/// splitting (default [`MIN_ITERATIONS`]; tests set 1 to split everything).
pub const MIN_ITERATIONS_ATTR: &str = "floors.min_workgroup_iterations";
/// Below this many iterations of the root, one workgroup is cheaper than a
/// split (a rayon join costs microseconds).
pub const MIN_ITERATIONS: i64 = 1 << 16;

#[derive(Clone, Default)]
pub struct CpuDistributeWorkgroups;




fn int_attr(op: MlirOperation, name: &str) -> Option<i64> {
    raw::attr(op, name).filter(|&a| unsafe { mlirAttributeIsAInteger(a) }).map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
}

/// The ops of a kernel function's body (one block).
fn body_ops(func: MlirOperation) -> Vec<MlirOperation> {
    raw::region_blocks(func).into_iter().flat_map(raw::block_ops).collect()
}

/// The root of `func`: the linalg op whose result the single output is.
pub fn root_of(func: MlirOperation) -> Option<MlirOperation> {
    let outs: Vec<MlirOperation> =
        body_ops(func).into_iter().filter(|&o| raw::name(o) == "bufferization.materialize_in_destination").collect();
    let [out] = outs.as_slice() else { return None };
    let root = raw::producer(raw::operands(*out)[0])?;
    (raw::name(root).starts_with("linalg.") && raw::results(root).len() == 1).then_some(root)
}

/// How a root is split: its loop bounds and the loop cut into chunks.
struct Split {
    bounds: Vec<i64>,
    dim: usize,
}

/// The loop bounds of `root` and the loops that may be split: parallel loops
/// that index a dimension of the (single) output directly, so each chunk
/// writes its own slab.
fn splittable_loops(root: MlirOperation) -> Option<(Vec<i64>, Vec<usize>)> {
    let name = raw::name(root);
    let result = raw::shape(raw::results(root)[0])?;
    if result.is_empty() {
        return None;
    }
    let ops = raw::operands(root);
    let all = |n: usize| (0..n).collect::<Vec<_>>();
    match name.as_str() {
        "linalg.generic" => {
            let its = raw::attr(root, "iterator_types")?;
            let maps = raw::attr(root, "indexing_maps")?;
            unsafe {
                let n = mlirArrayAttrGetNumElements(maps);
                if n == 0 || mlirArrayAttrGetNumElements(its) == 0 {
                    return None;
                }
                let out_map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, n - 1));
                let nloops = mlirAffineMapGetNumDims(out_map) as usize;
                let mut dims = Vec::new();
                for r in 0..mlirAffineMapGetNumResults(out_map) {
                    let e = mlirAffineMapGetResult(out_map, r);
                    if mlirAffineExprIsADim(e) {
                        let d = mlirAffineDimExprGetPosition(e) as usize;
                        if attr_text(mlirArrayAttrGetElement(its, d as isize)).contains("parallel") {
                            dims.push(d);
                        }
                    }
                }
                dims.sort();
                // The loop bounds: each loop is some operand's dim (static shapes).
                let mut bounds = vec![-1i64; nloops];
                for (i, &v) in ops.iter().enumerate().take(n as usize) {
                    let m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i as isize));
                    let shape = raw::shape(v)?;
                    for (r, &d) in shape.iter().enumerate() {
                        let e = mlirAffineMapGetResult(m, r as isize);
                        if mlirAffineExprIsADim(e) {
                            bounds[mlirAffineDimExprGetPosition(e) as usize] = d;
                        }
                    }
                }
                (bounds.iter().all(|&b| b >= 0)).then_some((bounds, dims))
            }
        }
        // All-parallel ops whose iteration space is the output's shape.
        "linalg.map" | "linalg.fill" | "linalg.transpose" | "linalg.broadcast" => {
            let n = result.len();
            Some((result, all(n)))
        }
        "linalg.reduce" => {
            let reduced = raw::i64_array(root, "dimensions")?;
            let input = raw::shape(ops[0])?;
            let kept = (0..input.len()).filter(|d| !reduced.contains(&(*d as i64))).collect();
            Some((input, kept))
        }
        "linalg.matmul" | "linalg.batch_matmul"
            if raw::attr(root, "indexing_maps").is_none_or(|a| {
                let t = attr_text(a);
                t == MATMUL_MAPS || t == BATCH_MATMUL_MAPS
            }) =>
        {
            let a = raw::shape(ops[0])?;
            let n = result.len();
            let mut loops = result;
            loops.push(*a.last()?);
            Some((loops, all(n)))
        }
        // (n, oh, ow, f, kh, kw, c)
        "linalg.conv_2d_nhwc_hwcf" => {
            let w = raw::shape(ops[1])?;
            let mut loops = result;
            loops.extend([w[0], w[1], w[2]]);
            Some((loops, all(4)))
        }
        _ => None,
    }
}

/// Whether tiling computes `op`'s operand slices right: upstream's slice
/// computation assumes indices grow with the loop (it gives a flip's
/// `5 - d1` a slice of size 1), so maps with negative, modulo or division
/// terms are not tiled.
pub fn tileable(op: MlirOperation) -> bool {
    raw::attr(op, "indexing_maps").is_none_or(|m| {
        let t = attr_text(m);
        let results = t.split("->").skip(1).collect::<String>();
        !["-", "mod", "floordiv", "ceildiv"].iter().any(|bad| results.contains(bad))
    })
}

/// The first splittable loop of `root` with at least two iterations.
fn split_of(root: MlirOperation) -> Option<Split> {
    if !tileable(root) {
        return None;
    }
    let (bounds, dims) = splittable_loops(root)?;
    let dim = dims.into_iter().find(|&d| bounds[d] >= 2)?;
    Some(Split { bounds, dim })
}

/// The grid for kernel `func` with at most `max` workgroups and at least
/// `min_iterations` iterations of its root: the largest G ≤ max dividing the
/// split loop (preferring chunks that are a multiple of 8, which keeps
/// matmul register rows whole), or None when the kernel stays one workgroup.
pub fn grid_for(func: MlirOperation, max: i64, min_iterations: i64) -> Option<i64> {
    if max < 2 {
        return None;
    }
    let root = root_of(func)?;
    // Elementwise fusion runs between this decision and the split and folds
    // producers' maps into the root; if every map is tileable now, the
    // composed ones are too.
    let all_tileable = raw::region_blocks(func).into_iter().flat_map(raw::block_ops).all(|o| {
        !raw::name(o).starts_with("linalg.") || tileable(o)
    });
    if !all_tileable {
        return None;
    }
    let split = split_of(root)?;
    let iterations: i64 = split.bounds.iter().product();
    let d = split.bounds[split.dim];
    if iterations < min_iterations {
        return None;
    }
    let candidates: Vec<i64> = (2..=max.min(d)).rev().filter(|g| d % g == 0).collect();
    let whole_rows = candidates.iter().copied().find(|g| (d / g) % 8 == 0);
    // A matmul split elsewhere would lose its packed register rows.
    if raw::name(root) == "linalg.matmul" {
        return whole_rows;
    }
    whole_rows.or_else(|| candidates.first().copied())
}

/// The transform script; kernel i is (grid, split loop, its bound, number
/// of loops). `transform.structured.fuse` tiles the root and fuses every
/// producer use by use (so a value two consumers read is fused twice; CSE
/// merges the copies and DCE drops the whole-tensor originals).
/// (`fuse_into_containing_op` fuses a producer for one use only and would
/// leave the other consumers reading the original, computed whole by every
/// workgroup.)
fn script(kernels: &[(i64, usize, i64, usize)]) -> String {
    let mut s = String::from(
        "module attributes {transform.with_named_sequence} {\n  \
         transform.named_sequence @__floors_distribute(%root: !transform.any_op {transform.readonly}) {\n",
    );
    for (i, &(g, dim, bound, loops)) in kernels.iter().enumerate() {
        let mut tile = vec!["0".to_string(); loops];
        tile[dim] = (bound / g).to_string();
        s.push_str(&format!(
            "    %r{i} = transform.structured.match attributes {{{ROOT_TAG} = {i} : i64}} in %root : (!transform.any_op) -> !transform.any_op\n    \
             %t{i}, %f{i} = transform.structured.fuse %r{i} tile_sizes [{}] {{use_forall}} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n    \
             transform.annotate %f{i} \"{FORALL_ATTR}\" : !transform.any_op\n",
            tile.join(", ")
        ));
    }
    s.push_str("    transform.apply_dce to %root : !transform.any_op\n    transform.apply_cse to %root : !transform.any_op\n");
    s.push_str("    transform.yield\n  }\n}\n");
    s
}

fn set_int(op: MlirOperation, name: &str, v: i64) {
    unsafe {
        let ctx = mlirOperationGetContext(op);
        mlirOperationSetAttributeByName(op, sref(name), mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v));
    }
}

impl FloorsPass for CpuDistributeWorkgroups {
    const ARGUMENT: &'static str = "floors-cpu-distribute-workgroups";
    const NAME: &'static str = "FloorsCpuDistributeWorkgroups";
    const DESCRIPTION: &'static str = "Tile the root of every kernel with floors.grid = G into G scf.forall chunks of its \
         outer dimension and fuse its producers into the chunk (one chunk per workgroup)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        unsafe {
            vec![
                DialectHandle::from_raw(mlirGetDialectHandle__transform__()),
                DialectHandle::from_raw(mlirGetDialectHandle__scf__()),
                DialectHandle::from_raw(mlirGetDialectHandle__tensor__()),
                DialectHandle::from_raw(mlirGetDialectHandle__affine__()),
                DialectHandle::from_raw(mlirGetDialectHandle__linalg__()),
                DialectHandle::arith(),
            ]
        }
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let module = op.to_raw();
        let funcs = crate::ir::collect_ops(&op, |o| crate::ir::op_name(&o) == "func.func");
        let mut kernels = Vec::new();
        for f in funcs {
            let Some(g) = int_attr(f, GRID_ATTR).filter(|&g| g > 1) else { continue };
            let name = raw::attr(f, "sym_name").map(|a| raw::string(unsafe { mlirStringAttrGetValue(a) })).unwrap_or_default();
            // Elementwise fusion and its folds can change a kernel after its
            // grid was chosen (a max(-inf, x) folds to a copy): a kernel that
            // can no longer be split runs whole in workgroup 0, the others
            // return at once.
            let plan = root_of(f).and_then(|root| split_of(root).map(|split| (root, split)));
            let Some((root, split)) = plan.filter(|(_, split)| split.bounds[split.dim] % g == 0) else {
                tracing::debug!("@{name}: {GRID_ATTR} = {g} but no longer splittable; workgroup 0 runs it");
                unsafe { mlirOperationSetAttributeByName(f, sref(SERIAL_ATTR), mlirUnitAttrGet(mlirOperationGetContext(f))) };
                continue;
            };
            let i = kernels.len() as i64;
            set_int(root, ROOT_TAG, i);
            kernels.push((g, split.dim, split.bounds[split.dim], split.bounds.len()));
        }
        if kernels.is_empty() {
            return Ok(());
        }
        let text = script(&kernels);
        match raw::apply_transform_script(module, &text, "floors-cpu-distribute-workgroups") {
            Ok(()) => {}
            Err(Some(text)) => return Err(fail(module, format!("internal error: the distribution script does not parse:\n{text}"))),
            Err(None) => return Err(fail(module, "distributing kernels into workgroups failed (see the diagnostics above)")),
        }
        for o in crate::ir::collect_ops(&op, |o| raw::attr(o.to_raw(), ROOT_TAG).is_some()) {
            unsafe { mlirOperationRemoveAttributeByName(o, sref(ROOT_TAG)) };
        }
        Ok(())
    }
}

/// Ops that only make another view of a buffer.
const VIEWS: &[&str] =
    &["memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast", "memref.reinterpret_cast"];

/// How a kernel with a grid sees its workgroup.
pub struct Binding {
    pub grid: i64,
    /// Workgroup 0 runs the whole kernel (it could not be split); the
    /// kernel takes no workgroup argument.
    pub zero_only: bool,
}

/// After bufferization: makes the body of `func`'s `floors.workgroups` forall
/// the function's body, with the induction variable as a new trailing
/// `index` argument. Returns how the kernel is bound, or None when `func` has
/// no grid.
pub fn bind_workgroups(func: MlirOperation, name: &str, num_outputs: usize) -> Result<Option<Binding>, PassFailure> {
    let Some(g) = int_attr(func, GRID_ATTR).filter(|&g| g > 1) else { return Ok(None) };
    if raw::attr(func, SERIAL_ATTR).is_some() {
        return Ok(Some(Binding { grid: g, zero_only: true }));
    }
    let foralls: Vec<MlirOperation> =
        body_ops(func).into_iter().filter(|&o| raw::name(o) == "scf.forall" && raw::attr(o, FORALL_ATTR).is_some()).collect();
    let [forall] = foralls.as_slice() else {
        return Err(fail(func, format!("@{name} has {GRID_ATTR} = {g} but {} workgroup loops (run floors-cpu-distribute-workgroups)", foralls.len())));
    };
    let forall = *forall;
    // `scf.forall (%i) = (0) to (G·step) step (step)`: workgroup w runs %i = w·step.
    let bounds = (raw::i64_array(forall, "staticLowerBound"), raw::i64_array(forall, "staticUpperBound"), raw::i64_array(forall, "staticStep"));
    let step = match bounds {
        (Some(lb), Some(ub), Some(st)) if lb == [0] && st.len() == 1 && st[0] > 0 && ub == [st[0] * g] => st[0],
        _ => 0,
    };
    if step == 0 || !raw::results(forall).is_empty() {
        return Err(fail(forall, format!("@{name}: the workgroup loop must be one {g}-iteration `scf.forall` from 0 on buffers")));
    }
    unsafe {
        let entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
        let ctx = mlirOperationGetContext(func);
        let index = mlirIndexTypeGet(ctx);
        let wg = mlirBlockAddArgument(entry, index, mlirOperationGetLocation(func));
        // The function type gains the argument.
        let fty = mlirTypeAttrGetValue(raw::attr(func, "function_type").expect("func.func has a type"));
        let mut ins: Vec<MlirType> = (0..mlirFunctionTypeGetNumInputs(fty)).map(|i| mlirFunctionTypeGetInput(fty, i)).collect();
        ins.push(index);
        let nty = mlirFunctionTypeGet(ctx, ins.len() as isize, ins.as_ptr(), 0, std::ptr::null());
        mlirOperationSetAttributeByName(func, sref("function_type"), mlirTypeAttrGet(nty));
        if let Some(aa) = raw::attr(func, "arg_attrs") {
            let mut all: Vec<MlirAttribute> = (0..mlirArrayAttrGetNumElements(aa)).map(|i| mlirArrayAttrGetElement(aa, i)).collect();
            all.push(mlirDictionaryAttrGet(ctx, 0, std::ptr::null()));
            mlirOperationSetAttributeByName(func, sref("arg_attrs"), mlirArrayAttrGet(ctx, all.len() as isize, all.as_ptr()));
        }
        let fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
        // %i = %wg * step, at the top of the kernel.
        let loc = mlirOperationGetLocation(forall);
        let mut st = mlirOperationStateGet(sref("arith.constant"), loc);
        let value = [mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref("value")), mlirIntegerAttrGet(index, step))];
        mlirOperationStateAddAttributes(&mut st, 1, value.as_ptr());
        mlirOperationStateAddResults(&mut st, 1, [index].as_ptr());
        let cst = mlirOperationCreate(&mut st);
        let mut st = mlirOperationStateGet(sref("arith.muli"), loc);
        mlirOperationStateAddOperands(&mut st, 2, [wg, mlirOperationGetResult(cst, 0)].as_ptr());
        mlirOperationStateAddResults(&mut st, 1, [index].as_ptr());
        let mul = mlirOperationCreate(&mut st);
        let first = mlirBlockGetFirstOperation(entry);
        mlirBlockInsertOwnedOperationBefore(entry, first, cst);
        mlirBlockInsertOwnedOperationAfter(entry, cst, mul);
        mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, 0), mlirOperationGetResult(mul, 0));
        let term = mlirBlockGetTerminator(fbody);
        if mlirRegionGetFirstBlock(mlirOperationGetRegion(term, 0)).ptr.is_null()
            || !raw::block_ops(mlirRegionGetFirstBlock(mlirOperationGetRegion(term, 0))).is_empty()
        {
            return Err(fail(forall, format!("@{name}: the workgroup loop still yields tensors (run after bufferization)")));
        }
        let moved: Vec<MlirOperation> = raw::block_ops(fbody).into_iter().filter(|o| o.ptr != term.ptr).collect();
        for &o in &moved {
            mlirOperationMoveBefore(o, forall);
        }
        mlirOperationDestroy(forall);
        // Each workgroup may write only its chunk: every use of an output
        // buffer must be inside what was the loop body.
        let nargs = mlirBlockGetNumArguments(entry) as usize - 1;
        for i in nargs - num_outputs..nargs {
            // Views of the output (reshapes, subviews) count as the output.
            let mut values = vec![mlirBlockGetArgument(entry, i as isize)];
            while let Some(v) = values.pop() {
                for (user, _) in raw::uses(v) {
                    if moved.iter().any(|&m| m.ptr == user.ptr || raw::is_within(user, m)) {
                        continue;
                    }
                    if VIEWS.contains(&raw::name(user).as_str()) {
                        values.extend(raw::results(user));
                        continue;
                    }
                    return Err(fail(
                        user,
                        format!(
                            "@{name}: output {} is written outside its workgroup chunk by '{}'; the kernel cannot be split",
                            i - (nargs - num_outputs),
                            raw::name(user)
                        ),
                    ));
                }
            }
        }
    }
    Ok(Some(Binding { grid: g, zero_only: false }))
}
