//! `floors-linalg-outline-kernels`: every `floors.fusion` becomes one kernel
//! function in destination-passing style, in a kernel module nested in the
//! program's module.
//!
//! Input: a fused module after `floors-linalg-lower-stablehlo` (fusion bodies on
//! tensors). For the N-th fusion in walk order (pre-order over the whole
//! module, so fusions inside `scf.while` / `scf.if` / `scf.index_switch`
//! bodies are found too) the pass
//! - adds `func.func @fusion_N(%in0: tensor<..> {bufferization.writable = false}, ...,
//!   %out0: memref<..>, ...) attributes {floors.kernel,
//!   floors.kind = #floors.kind<..>, floors.num_inputs = K}` to the nested
//!   `module @floors_kernels`: the fusion's body with its block arguments as
//!   the inputs, and `floors.yield %v...` replaced by
//!   `bufferization.materialize_in_destination %v in restrict writable %outI`.
//!   Inputs are read-only (`bufferization.writable = false`: a kernel never
//!   writes an input buffer, as the runtime's buffer uses declare); outputs are
//!   memrefs the caller owns, so after `eliminate-empty-tensors` +
//!   `one-shot-bufferize` the last op of the fusion writes straight into the
//!   output buffer (no copy);
//! - skips a fusion a runtime library computes (`floors.library_call`: the
//!   host program makes it the library's thunk; N still counts it);
//! - marks the fusion op `floors.kernel = "fusion_N"` (the host program keeps
//!   the fusion op, body included, so its operands/results say what to pass);
//! - first moves the fusions of a loop body whose results only the yield
//!   reads to the end of the body, each after the others that read the
//!   state it replaces ([`sink_loop_updates`]: a counter's `i + 1` then no
//!   longer precedes the body's other reads of `i`);
//! - computes a result in place when it may ([`in_place_pairs`]): an update
//!   (dynamic_update_slice, scatter) of an operand no later op reads, or an
//!   elementwise result reusing such an operand's buffer; the kernel reads
//!   that operand through its output (`bufferization.to_tensor %outI
//!   restrict writable`) and the fusion gets `floors.in_place = [result,
//!   operand, ...]`, which the host program must honor (one slice for both);
//! - when the module says `floors.max_workgroups = W` (W > 1) and the kernel
//!   can be split ([`grid_for`]), sets `floors.grid = G` on the kernel and the
//!   fusion op (the runtime calls the kernel over a G×1×1 grid);
//! - compiles identical kernels once (XLA:GPU's kernel reuse): a fusion
//!   whose kernel is structurally the same as an earlier one's (body, types
//!   and attributes, locations aside: `raw::structure`) and whose own attributes are the same
//!   (kind, hero, in-place pairs, grid, the floor's plan) gets that kernel's
//!   name in `floors.kernel`, and its copy is dropped. Repeated layers,
//!   unrolled loops and long chains of one pattern then cost one kernel's
//!   code generation;
//! - records the manifest `floors.kernels = ["fusion_0", ...]` (the kernels
//!   left) on the kernel module.
//!
//! Why one module holding both: a named pipeline can then lower the kernels
//! with `builtin.module(...)` nesting (`floors-lower-cpu`) while the host
//! program stays on tensors next to them, and `--dump-to` shows both. The Rust
//! side splits them with [`extract_kernels`] (the kernel module as its own
//! `Module`, for the JIT and LLVM translation) and [`kernel_manifest`] (which
//! fusion calls which kernel, in walk order).
//!
//! The outlining is target-neutral: every floor's kernels start as these
//! functions on tensors.
//!
//! Output buffers are memrefs rather than `tensor` + `bufferization.writable`
//! results: `restrict writable` needs a memref destination, and a kernel then
//! returns nothing, which is exactly the host ABI (outputs are arguments).

use melior::{
    dialect::DialectHandle,
    ir::{Module, OperationRef},
};
use mlir_sys::*;

use floors_ir::{
    contract::{
        GRID_ATTR, IN_PLACE_ATTR, KERNEL_ATTR, KERNEL_MODULE_NAME, MANIFEST_ATTR, MAX_WORKGROUPS_ATTR, MIN_ITERATIONS_ATTR, NUM_INPUTS_ATTR,
    },
    ir::{raw, raw::sref},
    pass::{FloorsPass, PassFailure, fail_at as fail},
};

use crate::{
    destination::write_reshapes_into_destination,
    workgroups::{MIN_ITERATIONS, grid_for},
};

#[derive(Clone, Default)]
pub struct LinalgOutlineKernels;

fn named_attr(ctx: MlirContext, name: &str, a: MlirAttribute) -> MlirNamedAttribute {
    // SAFETY: callers pass the pass's live context and an attribute of it; the name outlives the
    // call, and MLIR copies it into the identifier.
    unsafe { mlirNamedAttributeGet(mlirIdentifierGet(ctx, sref(name)), a) }
}

fn str_attr(ctx: MlirContext, s: &str) -> MlirAttribute {
    // SAFETY: callers pass the pass's live context; MLIR copies `s` into the attribute.
    unsafe { mlirStringAttrGet(ctx, sref(s)) }
}

fn is_kernel_module(op: MlirOperation) -> bool {
    super::is_module_named(op, KERNEL_MODULE_NAME)
}

/// Fusions in pre-order, not looking into an existing kernel module.
fn collect_fusions(op: MlirOperation, out: &mut Vec<MlirOperation>) {
    out.extend(super::collect_fusions(op, KERNEL_MODULE_NAME));
}

/// Ops the host program may hold outside fusions: functions, control flow
/// (the runtime's while/conditional thunks), constants, and reading a scalar
/// (a loop condition, a case index) out of a tensor.
const HOST_OPS: &[&str] = &[
    "func.func",
    "func.return",
    "floors.fusion",
    "scf.while",
    "scf.condition",
    "scf.yield",
    "scf.if",
    "scf.index_switch",
    "arith.constant",
    "tensor.extract",
];

fn is_shaped(t: MlirType) -> bool {
    // SAFETY: callers pass live types (of values of the module).
    unsafe { mlirTypeIsAShaped(t) }
}

/// The first op outside fusions that is neither host control flow nor scalar
/// arithmetic: computation no kernel would cover.
fn uncovered_compute(op: MlirOperation) -> Option<MlirOperation> {
    for b in raw::region_blocks(op) {
        for o in raw::block_ops(b) {
            let name = raw::name(o);
            // Custom calls run as runtime thunks (lowering/host/lib.rs).
            if is_kernel_module(o) || name == "floors.fusion" || name == "stablehlo.custom_call" {
                continue;
            }
            let scalar = (name.starts_with("arith.") || name.starts_with("math."))
                // SAFETY: `v` is an operand or result of the live op `o`.
                && raw::operands(o).iter().chain(raw::results(o).iter()).all(|&v| !is_shaped(unsafe { mlirValueGetType(v) }));
            if !HOST_OPS.contains(&name.as_str()) && !scalar {
                return Some(o);
            }
            if let Some(x) = uncovered_compute(o) {
                return Some(x);
            }
        }
    }
    None
}

/// `memref<..>` with the identity layout for a static tensor type.
fn memref_of(op: MlirOperation, t: MlirType) -> Result<MlirType, PassFailure> {
    // SAFETY: `t` is a live type; the element type is read only after `mlirTypeIsARankedTensor`;
    // `shape` lives for the call, which copies it; a null memory space is the default one.
    unsafe {
        if !mlirTypeIsARankedTensor(t) || raw::type_shape(t).is_none() {
            return Err(fail(op, "cannot outline a fusion with a result that is not a statically shaped tensor yet"));
        }
        let shape = raw::type_shape(t).unwrap();
        Ok(mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(t), shape.len() as isize, shape.as_ptr(), mlirAttributeGetNull()))
    }
}

/// Results the fusion can compute in place, as (result, operand) pairs (and
/// whether one of them is an update), with
/// operand k a buffer the host may overwrite ([`overwritable`]: no op reads
/// it after this fusion, defined in the fusion's block, never a parameter,
/// a constant or a custom call's output):
/// - an update: the yielded value is a chain of `tensor.insert_slice`s
///   (dynamic_update_slice) and `scf.for`s carrying it (scatter) into block
///   argument k (XLA's in-place DUS and scatter);
/// - a reused destination: the chain ends in a `tensor.empty` or in a
///   `linalg.generic`/`linalg.map` whose init is one (its body not reading
///   it), and operand k has the yielded type — the dead buffer becomes the
///   destination (what XLA's buffer assignment does for a loop's state: no
///   copy back into the carried buffer), when every read of operand k is
///   an elementwise read of the same index ([`elementwise_slice`]). The
///   empty init is replaced here (this rewrites the fusion's body) by block
///   argument k, which the kernel reads through its output.
fn in_place_pairs(fusion: MlirOperation) -> (Vec<(usize, usize)>, bool) {
    // SAFETY: `fusion` is a live `floors.fusion` with one region whose block ends in floors.yield
    // (checked by the caller before this is used); values and ops read here belong to it or to its
    // enclosing block.
    unsafe {
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0));
        let term = mlirBlockGetTerminator(body);
        if term.ptr.is_null() {
            return (Vec::new(), false);
        }
        let operands = raw::operands(fusion);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut updates_in_place = false;
        for (r, yielded) in raw::operands(term).into_iter().enumerate() {
            let mut v = yielded;
            // Through the updates (dynamic_update_slice) and the loops
            // that update a carried tensor in place (scatter) to their destination.
            let mut updates = 0;
            while let Some(p) = raw::producer(v) {
                v = match raw::name(p).as_str() {
                    "tensor.insert_slice" => raw::operands(p)[1],
                    // scf.for's operands are (lb, ub, step, inits...).
                    "scf.for" => raw::operands(p)[3 + mlirOpResultGetResultNumber(v) as usize],
                    _ => break,
                };
                updates += 1;
            }
            let taken = |k: usize, pairs: &[(usize, usize)]| pairs.iter().any(|&(_, j)| j == k);
            let same_type = |k: usize| mlirTypeEqual(mlirValueGetType(mlirBlockGetArgument(body, k as isize)), mlirValueGetType(yielded));
            if mlirValueIsABlockArgument(v) {
                let k = mlirBlockArgumentGetArgNumber(v) as usize;
                let ok = updates > 0 && mlirBlockArgumentGetOwner(v).ptr == body.ptr && same_type(k);
                if ok && !taken(k, &pairs) && overwritable(operands[k], fusion) {
                    pairs.push((r, k));
                    updates_in_place = true;
                }
                continue;
            }
            let Some(init) = empty_destination(v) else { continue };
            // The op computing the yielded value itself, when it is the one
            // written into the reused buffer.
            let root = if updates == 0 { raw::producer(v) } else { None };
            let reusable = |k: usize| {
                same_type(k)
                    && !taken(k, &pairs)
                    && elementwise_slice(mlirBlockGetArgument(body, k as isize), root, term)
                    && overwritable(operands[k], fusion)
            };
            let Some(k) = (0..operands.len()).find(|&k| reusable(k)) else { continue };
            // The empty init becomes block argument k (its contents were
            // undefined and nothing reads them).
            let (owner, index) = init;
            mlirOperationSetOperand(owner, index, mlirBlockGetArgument(body, k as isize));
            pairs.push((r, k));
        }
        (pairs, updates_in_place)
    }
}

/// Whether the result of `root` may be written into `arg`'s buffer: `arg` is
/// not read at all, or everything computed from it (its forward slice in the
/// body) is elementwise — `linalg.map`s and all-parallel `linalg.generic`s
/// reading it, and each other, through identity maps — and flows only into
/// `root`, whose value goes only to the kernel's output. Then however the
/// kernel pipeline fuses, tiles or vectorizes those ops, element i of `arg`
/// is read before element i of the output is written, and by nothing after.
/// (A transposed, reversed, shifted or reducing read is not safe; nor is a
/// read whose value reaches another op, which elementwise fusion may
/// recompute after `root` wrote the buffer; one-shot bufferization does not
/// see reads that a fused op's own body makes.)
fn elementwise_slice(arg: MlirValue, root: Option<MlirOperation>, term: MlirOperation) -> bool {
    let mut slice: Vec<MlirOperation> = Vec::new();
    let mut frontier = vec![arg];
    while let Some(v) = frontier.pop() {
        for (user, index) in raw::uses(v) {
            // The output (checked below: root's value only).
            if user.ptr == term.ptr {
                continue;
            }
            // Every use is checked, also a second one by an op already seen.
            let elementwise = match raw::name(user).as_str() {
                "linalg.map" => true,
                "linalg.generic" => identity_elementwise(user, index as usize),
                _ => false,
            };
            if !elementwise || raw::block_of(user).ptr != raw::block_of(term).ptr {
                return false;
            }
            if slice.iter().any(|o| o.ptr == user.ptr) {
                continue;
            }
            slice.push(user);
            frontier.extend(raw::results(user));
        }
    }
    let yielded_directly = raw::uses(arg).iter().any(|(u, _)| u.ptr == term.ptr);
    let Some(root) = root else { return slice.is_empty() && !yielded_directly };
    if yielded_directly {
        return false;
    }
    if slice.is_empty() {
        return true;
    }
    // Every value of the slice is used inside it, except root's, used once by
    // the kernel's output.
    slice.iter().any(|o| o.ptr == root.ptr)
        && slice.iter().all(|&o| {
            raw::results(o).into_iter().all(|r| {
                let uses = raw::uses(r);
                if o.ptr == root.ptr {
                    return uses.len() == 1 && uses[0].0.ptr == term.ptr;
                }
                uses.iter().all(|(u, _)| slice.iter().any(|s| s.ptr == u.ptr))
            })
        })
}

/// `generic` is all-parallel, its operand `index` and every init are read and
/// written through identity maps.
fn identity_elementwise(generic: MlirOperation, index: usize) -> bool {
    let (Some(maps), Some(iters)) = (raw::attr(generic, "indexing_maps"), raw::attr(generic, "iterator_types")) else { return false };
    let n_operands = raw::operands(generic).len();
    let n_results = raw::results(generic).len();
    // SAFETY: `maps` and `iters` are the live array attributes of a linalg.generic (its verifier: one affine map
    // per operand, one iterator type per loop); elements are read below their counts, maps only after the kind check.
    unsafe {
        if !mlirAttributeIsAArray(maps) || mlirArrayAttrGetNumElements(maps) as usize != n_operands {
            return false;
        }
        let parallel =
            (0..mlirArrayAttrGetNumElements(iters)).all(|i| raw::attr_text(mlirArrayAttrGetElement(iters, i)).contains("parallel"));
        let identity = |i: usize| {
            let m = mlirArrayAttrGetElement(maps, i as isize);
            mlirAttributeIsAAffineMap(m) && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(m))
        };
        parallel && identity(index) && (n_operands - n_results..n_operands).all(identity)
    }
}

/// Where `v`'s value is first written, if it is a fresh destination: (op,
/// operand index) of a `tensor.empty` used only there — `v` itself when the
/// chain of updates starts from it (its user), or the init of the
/// `linalg.generic` / `linalg.map` computing `v`, whose body does not read it.
fn empty_destination(v: MlirValue) -> Option<(MlirOperation, isize)> {
    let p = raw::producer(v)?;
    let single_empty = |e: MlirValue| raw::producer(e).is_some_and(|q| raw::name(q) == "tensor.empty") && raw::uses(e).len() == 1;
    match raw::name(p).as_str() {
        "tensor.empty" => {
            let uses = raw::uses(v);
            let [(user, index)] = uses.as_slice() else { return None };
            Some((*user, *index))
        }
        "linalg.generic" | "linalg.map" => {
            // One result, one init: the last operand.
            if raw::results(p).len() != 1 {
                return None;
            }
            let ops = raw::operands(p);
            let index = ops.len() - 1;
            if !single_empty(ops[index]) {
                return None;
            }
            if raw::name(p) == "linalg.generic" {
                // SAFETY: `p` is a live linalg.generic, whose one region has one block with an argument per operand
                // (ins..., init), so the last argument is the init's.
                let init_arg = unsafe {
                    let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
                    mlirBlockGetArgument(block, mlirBlockGetNumArguments(block) - 1)
                };
                if !raw::uses(init_arg).is_empty() {
                    return None;
                }
            }
            Some((p, index as isize))
        }
        _ => None,
    }
}

/// The host value `v` may be overwritten by `fusion` (see [`in_place_pairs`]):
/// the fusion uses it once, and every other use is in an op before the fusion
/// in its block (the runtime orders conflicting thunks by program order, so
/// those reads happen first).
fn overwritable(v: MlirValue, fusion: MlirOperation) -> bool {
    let block = raw::block_of(fusion);
    let uses = raw::uses(v);
    if uses.iter().filter(|u| u.0.ptr == fusion.ptr).count() != 1 {
        return false;
    }
    let earlier = |user: MlirOperation| {
        let mut a = user;
        while !a.ptr.is_null() && raw::block_of(a).ptr != block.ptr {
            // SAFETY: `a` is a live, non-null op (a user of `v` or one of its ancestors).
            a = unsafe { mlirOperationGetParentOperation(a) };
        }
        // SAFETY: `a` and `fusion` are live ops of the same block.
        !a.ptr.is_null() && unsafe { mlirOperationIsBeforeInBlock(a, fusion) }
    };
    if !uses.iter().all(|u| u.0.ptr == fusion.ptr || earlier(u.0)) {
        return false;
    }
    // SAFETY: `v` is a live operand of `fusion`; its owner block and that block's parent op are read
    // only once it is known to be a block argument.
    unsafe {
        if mlirValueIsABlockArgument(v) {
            let owner = mlirBlockArgumentGetOwner(v);
            return owner.ptr == block.ptr && raw::name(mlirBlockGetParentOperation(owner)) == "scf.while";
        }
    }
    raw::producer(v).is_some_and(|p| {
        raw::block_of(p).ptr == block.ptr && matches!(raw::name(p).as_str(), "floors.fusion" | "scf.while" | "scf.if" | "scf.index_switch")
    })
}

/// Moves the fusions of a loop body whose results only the body's yield
/// reads to the end of the body, ordered so that each comes after the
/// other moved fusions that read the state it replaces (XLA's scheduler
/// places a loop's state update after the state's last reader; with a
/// cycle among them, their own order is kept): its operands are then dead
/// after it, so a state update like a counter's `i + 1` can be computed in
/// place ([`in_place_pairs`]) instead of copied back each iteration. The
/// values computed do not change: a moved fusion's operands are defined
/// earlier and its results are used by the yield only. Returns how many
/// loop bodies were reordered.
fn sink_loop_updates(op: MlirOperation) -> usize {
    let mut reordered = 0;
    for block in raw::region_blocks(op) {
        for o in raw::block_ops(block) {
            reordered += sink_loop_updates(o);
        }
    }
    if raw::name(op) != "scf.while" {
        return reordered;
    }
    let Some(&after) = raw::region_blocks(op).get(1) else { return reordered };
    let ops = raw::block_ops(after);
    let Some((&term, body)) = ops.split_last() else { return reordered };
    let yielded = raw::operands(term);
    let only_yielded = |f: MlirOperation| raw::results(f).iter().all(|&r| raw::uses(r).iter().all(|(u, _)| u.ptr == term.ptr));
    let sinkable: Vec<MlirOperation> = body.iter().copied().filter(|&f| raw::name(f) == "floors.fusion" && only_yielded(f)).collect();
    if sinkable.is_empty() {
        return reordered;
    }
    // The states (after-block arguments) each sinkable fusion replaces.
    let replaces = |f: MlirOperation| -> Vec<MlirValue> {
        yielded
            .iter()
            .enumerate()
            .filter(|(_, y)| raw::results(f).iter().any(|r| r.ptr == y.ptr))
            // SAFETY: `after` is the loop's live after-block; its arguments match the yield's operands in number
            // (scf.while's verifier), so index `k` is below their count.
            .map(|(k, _)| unsafe { mlirBlockGetArgument(after, k as isize) })
            .collect()
    };
    let reads = |g: MlirOperation, v: MlirValue| raw::operands(g).iter().any(|o| o.ptr == v.ptr);
    // Kahn's order: `g` before `f` when `g` reads a state `f` replaces; ties in block order.
    let n = sinkable.len();
    let before: Vec<Vec<usize>> = (0..n)
        .map(|fi| {
            let states = replaces(sinkable[fi]);
            (0..n).filter(|&gi| gi != fi && states.iter().any(|&s| reads(sinkable[gi], s))).collect()
        })
        .collect();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while order.len() < n {
        let Some(next) = (0..n).find(|&i| !placed[i] && before[i].iter().all(|&j| placed[j])) else {
            // A cycle: the rest keep their block order.
            order.extend((0..n).filter(|&i| !placed[i]));
            break;
        };
        placed[next] = true;
        order.push(next);
    }
    let target: Vec<MlirOperation> =
        body.iter().copied().filter(|f| !sinkable.iter().any(|s| s.ptr == f.ptr)).chain(order.iter().map(|&i| sinkable[i])).collect();
    if target.iter().zip(body).all(|(a, b)| a.ptr == b.ptr) {
        return reordered;
    }
    for &i in &order {
        // SAFETY: `sinkable[i]` and `term` are live ops of the loop's after-block; moving a fusion whose only
        // user is the terminator right before it keeps its operands (defined earlier) and its uses valid.
        unsafe { mlirOperationMoveBefore(sinkable[i], term) };
    }
    reordered + 1
}

/// Outlines `fusion` as `@name` into `kernels_body`.
fn outline(fusion: MlirOperation, name: &str, kernels_body: MlirBlock, split: (i64, i64)) -> Result<MlirOperation, PassFailure> {
    // SAFETY: `fusion` is a live `floors.fusion` (one region, its body) and `kernels_body` the body
    // of the live kernel module. Indices stay below the counts read; the terminators are checked
    // non-null. Every op created here (the materializes, the return) is inserted into the clone's
    // entry block, which owns it; the old terminator, once replaced, is destroyed (it has no
    // results). The clone's body moves into a new region that the created func owns; the clone is
    // then destroyed (on error too) and the func appended to `kernels_body`, which owns it. Arrays
    // passed with their lengths outlive the calls; every attribute is of the fusion's context.
    unsafe {
        let ctx = mlirOperationGetContext(fusion);
        let loc = mlirOperationGetLocation(fusion);
        // The kernel's types are its body's: the block arguments and the
        // yielded values (signless where the fusion's operands and results
        // are unsigned integers).
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(fusion, 0));
        let inputs: Vec<MlirType> = (0..mlirBlockGetNumArguments(body)).map(|i| mlirValueGetType(mlirBlockGetArgument(body, i))).collect();
        for &t in &inputs {
            if !mlirTypeIsARankedTensor(t) || raw::type_shape(t).is_none() {
                return Err(fail(fusion, "cannot outline a fusion with an operand that is not a statically shaped tensor yet"));
            }
        }
        let body_term = mlirBlockGetTerminator(body);
        if body_term.ptr.is_null() || raw::name(body_term) != "floors.yield" {
            return Err(fail(fusion, "fusion body does not end in floors.yield"));
        }
        let mut outputs = Vec::new();
        for v in raw::operands(body_term) {
            outputs.push(memref_of(fusion, mlirValueGetType(v))?);
        }

        // Decided before the clone below adds a use to every operand.
        let (in_place, updates_in_place) = in_place_pairs(fusion);
        // The body: a clone of the fusion, whose region the func takes.
        let clone = mlirOperationClone(fusion);
        let region = mlirOperationGetRegion(clone, 0);
        let entry = mlirRegionGetFirstBlock(region);
        let outs: Vec<MlirValue> = outputs.iter().map(|&t| mlirBlockAddArgument(entry, t, loc)).collect();
        // In place: input k is read through output r (the host passes one
        // buffer for both), so the updates write only what they change.
        let unit = mlirUnitAttrGet(ctx);
        for &(r, k) in &in_place {
            let arg = mlirBlockGetArgument(entry, k as isize);
            let mut st = mlirOperationStateGet(sref("bufferization.to_tensor"), loc);
            mlirOperationStateAddOperands(&mut st, 1, [outs[r]].as_ptr());
            mlirOperationStateAddResults(&mut st, 1, [mlirValueGetType(arg)].as_ptr());
            let attrs = [named_attr(ctx, "restrict", unit), named_attr(ctx, "writable", unit)];
            mlirOperationStateAddAttributes(&mut st, 2, attrs.as_ptr());
            let view = mlirOperationCreate(&mut st);
            mlirBlockInsertOwnedOperationBefore(entry, mlirBlockGetFirstOperation(entry), view);
            mlirValueReplaceAllUsesOfWith(arg, mlirOperationGetResult(view, 0));
        }
        let term = mlirBlockGetTerminator(entry);
        let yielded = raw::operands(term);
        let mut materializes = Vec::new();
        for (v, out) in yielded.iter().zip(&outs) {
            let mut st = mlirOperationStateGet(sref("bufferization.materialize_in_destination"), loc);
            let ops = [*v, *out];
            mlirOperationStateAddOperands(&mut st, 2, ops.as_ptr());
            let attrs = [named_attr(ctx, "restrict", unit), named_attr(ctx, "writable", unit)];
            mlirOperationStateAddAttributes(&mut st, 2, attrs.as_ptr());
            let m = mlirOperationCreate(&mut st);
            mlirBlockInsertOwnedOperationBefore(entry, term, m);
            materializes.push(m);
        }
        let mut st = mlirOperationStateGet(sref("func.return"), loc);
        let ret = mlirOperationCreate(&mut st);
        mlirBlockInsertOwnedOperationBefore(entry, term, ret);
        mlirOperationDestroy(term);
        for m in materializes {
            if let Err(e) = write_reshapes_into_destination(m) {
                mlirOperationDestroy(clone);
                return Err(e);
            }
        }

        // The func op.
        let all: Vec<MlirType> = inputs.iter().chain(outputs.iter()).copied().collect();
        let fty = mlirFunctionTypeGet(ctx, all.len() as isize, all.as_ptr(), 0, std::ptr::null());
        let read_only = [named_attr(ctx, "bufferization.writable", mlirBoolAttrGet(ctx, 0))];
        let ro = mlirDictionaryAttrGet(ctx, 1, read_only.as_ptr());
        let empty = mlirDictionaryAttrGet(ctx, 0, std::ptr::null());
        let arg_attrs: Vec<MlirAttribute> = (0..all.len()).map(|i| if i < inputs.len() { ro } else { empty }).collect();
        let kind = raw::attr(fusion, "kind").unwrap_or_else(|| str_attr(ctx, "unknown"));
        let i64t = mlirIntegerTypeGet(ctx, 64);
        let attrs = [
            named_attr(ctx, "sym_name", str_attr(ctx, name)),
            named_attr(ctx, "function_type", mlirTypeAttrGet(fty)),
            named_attr(ctx, "arg_attrs", mlirArrayAttrGet(ctx, arg_attrs.len() as isize, arg_attrs.as_ptr())),
            named_attr(ctx, KERNEL_ATTR, unit),
            named_attr(ctx, "floors.kind", kind),
            named_attr(ctx, NUM_INPUTS_ATTR, mlirIntegerAttrGet(i64t, inputs.len() as i64)),
        ];
        let mut st = mlirOperationStateGet(sref("func.func"), loc);
        mlirOperationStateAddAttributes(&mut st, attrs.len() as isize, attrs.as_ptr());
        let new_region = mlirRegionCreate();
        mlirRegionTakeBody(new_region, region);
        mlirOperationStateAddOwnedRegions(&mut st, 1, [new_region].as_ptr());
        let func = mlirOperationCreate(&mut st);
        mlirOperationDestroy(clone);
        mlirBlockAppendOwnedOperation(kernels_body, func);

        mlirOperationSetAttributeByName(fusion, sref(KERNEL_ATTR), str_attr(ctx, name));
        if !in_place.is_empty() {
            let flat: Vec<i64> = in_place.iter().flat_map(|&(r, k)| [r as i64, k as i64]).collect();
            mlirOperationSetAttributeByName(fusion, sref(IN_PLACE_ATTR), mlirDenseI64ArrayGet(ctx, flat.len() as isize, flat.as_ptr()));
            // An update in place is one workgroup (its updates are small); an
            // elementwise result reusing a buffer splits like any other: each
            // workgroup reads and writes its own elements.
            if updates_in_place {
                return Ok(func);
            }
        }
        if let Some(g) = grid_for(func, split.0, split.1) {
            let a = mlirIntegerAttrGet(i64t, g);
            mlirOperationSetAttributeByName(func, sref(GRID_ATTR), a);
            mlirOperationSetAttributeByName(fusion, sref(GRID_ATTR), a);
        }
        Ok(func)
    }
}

/// What decides whether two outlined fusions may share one kernel: the
/// kernel function's structure but its name ([`raw::structure`]: body, types
/// and attributes, locations aside), and the fusion op's attributes but its
/// kernel name (its kind, hero, in-place pairs, grid and whatever plan a floor
/// recorded on it).
fn kernel_key(fusion: MlirOperation, func: MlirOperation) -> Vec<usize> {
    let mut key = raw::structure(func, &["sym_name"]);
    // SAFETY: `fusion` is the live fusion op; each named attribute read is one of its own, its index below the count
    // read.
    unsafe {
        for i in 0..mlirOperationGetNumAttributes(fusion) {
            let a = mlirOperationGetAttribute(fusion, i);
            if raw::string(mlirIdentifierStr(a.name)) != KERNEL_ATTR {
                key.extend([a.name.ptr as usize, a.attribute.ptr as usize]);
            }
        }
    }
    key
}

impl FloorsPass for LinalgOutlineKernels {
    const ARGUMENT: &'static str = "floors-linalg-outline-kernels";
    const NAME: &'static str = "FloorsLinalgOutlineKernels";
    const DESCRIPTION: &'static str = "Outline every floors.fusion into a destination-passing kernel func.func @fusion_N \
         in the nested module @floors_kernels; tag the fusion with floors.kernel";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<DialectHandle> {
        // SAFETY: each getter takes nothing and returns the static handle of a dialect linked into
        // this binary.
        vec![DialectHandle::func(), unsafe { DialectHandle::from_raw(mlirGetDialectHandle__bufferization__()) }, unsafe {
            DialectHandle::from_raw(mlirGetDialectHandle__memref__())
        }]
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        let root = op.to_raw();
        // SAFETY: `root` is the live `builtin.module` the pass runs on, which has one region.
        let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(root, 0)) };
        if raw::block_ops(body).into_iter().any(is_kernel_module) {
            return Err(fail(root, format!("the module already has a kernel module @{KERNEL_MODULE_NAME}")));
        }
        if let Some(o) = uncovered_compute(root) {
            return Err(fail(
                o,
                format!(
                    "'{}' in the host program is outside every fusion; only fusions become kernels \
                     (an unfused op other than a custom call needs a kernel or thunk of its own, not implemented yet)",
                    raw::name(o)
                ),
            ));
        }
        let sunk = sink_loop_updates(root);
        if sunk > 0 {
            tracing::debug!("floors-linalg-outline-kernels: {sunk} loop bodies with their state updates moved last");
        }
        let mut fusions = Vec::new();
        collect_fusions(root, &mut fusions);
        let int = |name: &str| {
            // SAFETY: `a` is a live attribute of `root`, read as an integer only after
            // `mlirAttributeIsAInteger`.
            raw::attr(root, name).filter(|&a| unsafe { mlirAttributeIsAInteger(a) }).map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
        };
        let max_workgroups = int(MAX_WORKGROUPS_ATTR).unwrap_or(1);
        let min_iterations = int(MIN_ITERATIONS_ATTR).unwrap_or(MIN_ITERATIONS);
        // SAFETY: `root` is live. The kernel module is created here and owned by this code until it
        // is appended to `root`'s body, which then owns it, or destroyed on error; `names` lives
        // for the array getter, which copies it. A duplicate kernel is erased right after it was
        // outlined: nothing refers to it yet (its fusion is renamed to the earlier kernel first).
        unsafe {
            let ctx = mlirOperationGetContext(root);
            let loc = mlirOperationGetLocation(root);
            let kmod = mlirModuleCreateEmpty(loc);
            let kop = mlirModuleGetOperation(kmod);
            mlirOperationSetAttributeByName(kop, sref("sym_name"), str_attr(ctx, KERNEL_MODULE_NAME));
            let kbody = mlirModuleGetBody(kmod);
            let mut names = Vec::new();
            // The kernels so far by `kernel_key`.
            let mut seen: std::collections::HashMap<Vec<usize>, MlirAttribute> = std::collections::HashMap::new();
            for (i, &f) in fusions.iter().enumerate() {
                // A library call (`floors.library_call`) is a runtime thunk, not a kernel.
                if super::is_library_call(f) {
                    continue;
                }
                let name = format!("fusion_{i}");
                let func = match outline(f, &name, kbody, (max_workgroups, min_iterations)) {
                    Ok(func) => func,
                    Err(e) => {
                        mlirModuleDestroy(kmod);
                        return Err(e);
                    }
                };
                match seen.entry(kernel_key(f, func)) {
                    std::collections::hash_map::Entry::Occupied(first) => {
                        // The same kernel as an earlier fusion's: call that one.
                        mlirOperationSetAttributeByName(f, sref(KERNEL_ATTR), *first.get());
                        mlirOperationDestroy(func);
                    }
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        let a = str_attr(ctx, &name);
                        slot.insert(a);
                        names.push(a);
                    }
                }
            }
            mlirOperationSetAttributeByName(kop, sref(MANIFEST_ATTR), mlirArrayAttrGet(ctx, names.len() as isize, names.as_ptr()));
            mlirBlockAppendOwnedOperation(body, kop);
        }
        Ok(())
    }
}

/// The nested kernel module of an outlined program, if any.
pub fn kernel_module_op(module: &Module<'_>) -> Option<MlirOperation> {
    // SAFETY: `module` is a live module (borrowed), whose op has one region.
    let body = unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(module.as_operation().to_raw(), 0)) };
    raw::block_ops(body).into_iter().find(|&o| is_kernel_module(o))
}

/// A copy of the kernel module (`@floors_kernels`) as a module of its own, in
/// the same context: what code generation (the CPU floor's `codegen`) and the LLVM
/// translation take. `None` when the module was not outlined.
pub fn extract_kernels<'c>(module: &Module<'c>) -> Option<Module<'c>> {
    let op = kernel_module_op(module)?;
    // SAFETY: `op` is the live kernel module op; the clone is detached and owned here.
    let clone = unsafe { mlirOperationClone(op) };
    // SAFETY: `clone` is a `builtin.module` (`is_kernel_module` checked the name).
    let m = unsafe { mlirModuleFromOperation(clone) };
    // SAFETY: `m` is non-null and wraps the detached clone, which the returned `Module` owns from
    // here on; it lives in `module`'s context, hence the lifetime `'c`.
    (!m.ptr.is_null()).then(|| unsafe { Module::from_raw(m) })
}

/// One entry of the kernel manifest: a fusion op of the host program and the
/// name of the kernel that computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelEntry {
    pub kernel: String,
    pub num_inputs: usize,
    pub num_outputs: usize,
}

/// The fusions of the host program that carry `floors.kernel`, in walk order.
pub fn kernel_manifest(module: &Module<'_>) -> Vec<KernelEntry> {
    let mut fusions = Vec::new();
    collect_fusions(module.as_operation().to_raw(), &mut fusions);
    fusions
        .into_iter()
        .filter_map(|f| {
            let a = raw::attr(f, KERNEL_ATTR)?;
            // SAFETY: `a` is read as a string only after `mlirAttributeIsAString`.
            let kernel = unsafe { mlirAttributeIsAString(a).then(|| raw::string(mlirStringAttrGetValue(a)))? };
            Some(KernelEntry { kernel, num_inputs: raw::operands(f).len(), num_outputs: raw::results(f).len() })
        })
        .collect()
}
