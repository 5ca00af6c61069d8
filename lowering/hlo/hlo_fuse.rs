//! `floors-hlo-fuse`: group StableHLO ops into `floors.fusion` ops, XLA's
//! rules as the baseline.
//!
//! Ops are visited from the last to the first; each op not yet taken starts a
//! group and pulls in its producers while the group stays legal:
//! - a producer moves into the group only if every user of it is already in
//!   the group or comes after the group's root (then the fusion also writes
//!   the value out: producer-consumer multi-output fusion, at most
//!   `MAX_EXTRA_OUTPUTS_PER_FUSION` such values; nothing is computed twice),
//!   except
//! - constants, iota, and broadcasts/reshapes/converts of those or of function
//!   arguments, which are cheap and are duplicated into each group that uses
//!   them instead of being materialised;
//! - a group with a reduction computes in a "row space": every reduction reduces
//!   the same dimensions of same-shaped inputs, and every value computed in the
//!   group is indexed by a projection of the full input space, so the group can
//!   run row by row (softmax and layernorm become one fusion each);
//! - a dot or convolution takes its elementwise epilogue (bias add,
//!   activation) but not its operands' producers;
//! - an expanding broadcast never recomputes an expensive producer;
//! - scatter, sort, reduce_window, select_and_scatter form fusions of their
//!   own; a dynamic_update_slice takes the cheap producers of its update and
//!   start indices that nothing else reads, a scatter those of its indices
//!   and updates ([`legal_update_in_place`]; the kernel computes them where
//!   it reads them, `floors-linalg-scalarize-extracts`);
//!   while/case/if stay as ops and their bodies are fused recursively; custom
//!   calls are not fused.
//!
//! The kind and hero of each fusion come from `fusion_analysis`, the same code
//! the floors use to read them back.

use std::collections::{HashMap, HashSet};

use melior::ir::OperationRef;
use mlir_sys::*;

use super::fusion_analysis::{self, OpClass, classify};
use floors_ir::{
    dialects::FusionKind,
    ir::raw,
    pass::{FloorsPass, PassFailure},
};

/// Most ops in one fusion (XLA bounds fusion size to keep compile time and
/// register pressure sane).
pub const MAX_OPS_PER_FUSION: usize = 256;
/// Most distinct inputs of one fusion.
pub const MAX_INPUTS_PER_FUSION: usize = 64;
/// Most values a fusion also writes out for later users (XLA's
/// producer-consumer multi-output fusion; see `form_groups`).
pub const MAX_EXTRA_OUTPUTS_PER_FUSION: usize = 16;

#[derive(Clone, Default)]
pub struct HloFuse;

type Key = *const std::ffi::c_void;

fn key(op: MlirOperation) -> Key {
    op.ptr as Key
}

fn vkey(v: MlirValue) -> Key {
    v.ptr as Key
}

/// `classify` of the block's ops, computed once per op: the legality checks
/// below run on every candidate group, so a group of n ops would otherwise
/// classify its ops (names, shapes, regions) n times as it grows.
#[derive(Default)]
struct Classes(std::cell::RefCell<HashMap<Key, OpClass>>);

impl Classes {
    fn of(&self, op: MlirOperation) -> OpClass {
        if let Some(&c) = self.0.borrow().get(&key(op)) {
            return c;
        }
        let c = classify(op);
        self.0.borrow_mut().insert(key(op), c);
        c
    }
}

/// An op that keeps a loop group a loop group whatever it is fused with: an
/// elementwise op, a leaf, or data movement other than an expanding (or
/// dynamically shaped) broadcast. For a group of such ops `legal` reduces to
/// its two size limits (`legal_loop` has no broadcast to check), which
/// `form_groups` then checks incrementally.
fn plain_loop_op(op: MlirOperation, class: OpClass) -> bool {
    match class {
        OpClass::Elementwise { .. } | OpClass::Leaf => true,
        OpClass::Movement => {
            let name = raw::name(op);
            if name != "stablehlo.broadcast_in_dim" && name != "stablehlo.broadcast" {
                return true;
            }
            let (Some(&out), Some(&inp)) = (raw::results(op).first(), raw::operands(op).first()) else { return false };
            matches!((raw::num_elements(out), raw::num_elements(inp)), (Some(o), Some(i)) if o <= i)
        }
        _ => false,
    }
}

struct Group {
    ops: Vec<MlirOperation>,
    members: HashSet<Key>,
    /// The values the group reads from outside (`legal`'s input count):
    /// operands of members produced neither by a member nor by a clone.
    inputs: HashSet<Key>,
    /// Every member is a `plain_loop_op`.
    plain: bool,
    /// Members whose values later ops outside the group read too.
    extra_outputs: usize,
    /// Cheap ops cloned into this group (the originals stay for other users).
    dups: Vec<MlirOperation>,
    dup_set: HashSet<Key>,
}

impl Group {
    fn new(root: MlirOperation, classes: &Classes) -> Self {
        let mut members = HashSet::new();
        members.insert(key(root));
        let inputs = outside_inputs(&[root], &members, &HashSet::new());
        let plain = plain_loop_op(root, classes.of(root));
        Self { ops: vec![root], members, inputs, plain, extra_outputs: 0, dups: vec![], dup_set: HashSet::new() }
    }

    /// The inputs once `p` joins as a member.
    fn inputs_with(&self, p: MlirOperation) -> HashSet<Key> {
        let mut inputs = self.inputs.clone();
        for r in raw::results(p) {
            inputs.remove(&vkey(r));
        }
        for v in raw::operands(p) {
            let from_group = raw::producer(v).is_some_and(|q| q.ptr == p.ptr || self.contains(q));
            if !from_group {
                inputs.insert(vkey(v));
            }
        }
        inputs
    }

    /// Records `d` as cloned into the group: its results are no inputs.
    fn add_dup(&mut self, d: MlirOperation) {
        self.dups.push(d);
        self.dup_set.insert(key(d));
        for r in raw::results(d) {
            self.inputs.remove(&vkey(r));
        }
    }

    fn contains(&self, op: MlirOperation) -> bool {
        self.members.contains(&key(op)) || self.dup_set.contains(&key(op))
    }
}

/// Cheap to duplicate: a leaf, or a broadcast/reshape/convert of a duplicable
/// op or of a block argument.
fn duplicable(op: MlirOperation, block: MlirBlock, classes: &Classes) -> bool {
    match classes.of(op) {
        OpClass::Leaf => true,
        _ => {
            let name = raw::name(op);
            let cheap_shape =
                matches!(name.as_str(), "stablehlo.broadcast_in_dim" | "stablehlo.broadcast" | "stablehlo.reshape" | "stablehlo.convert");
            cheap_shape
                && classes.of(op) != OpClass::Opaque
                && raw::operands(op).iter().all(|&v| match raw::producer(v) {
                    None => true,
                    // SAFETY: `p` is the producer of an operand of `op`, a live op of the function being fused.
                    Some(p) => (unsafe { mlirOperationGetBlock(p).ptr == block.ptr }) && duplicable(p, block, classes),
                })
        }
    }
}

/// Index mapping of a value computed in a reduction group: for each of its
/// dimensions, the dimension of the full input space it walks, or None for a
/// unit dimension.
type Mapping = Vec<Option<usize>>;

/// The values `ops` read that neither a member nor a clone computes.
fn outside_inputs(ops: &[MlirOperation], members: &HashSet<Key>, dups: &HashSet<Key>) -> HashSet<Key> {
    let mut inputs = HashSet::new();
    for &op in ops {
        for v in raw::operands(op) {
            if !raw::producer(v).is_some_and(|p| members.contains(&key(p)) || dups.contains(&key(p))) {
                inputs.insert(vkey(v));
            }
        }
    }
    inputs
}

/// The legality check of a candidate group (order of `ops` is block order).
fn legal(ops: &[MlirOperation], members: &HashSet<Key>, dups: &HashSet<Key>, classes: &Classes) -> bool {
    if ops.len() > MAX_OPS_PER_FUSION {
        return false;
    }
    if outside_inputs(ops, members, dups).len() > MAX_INPUTS_PER_FUSION {
        return false;
    }
    let memo = classes;
    let classes: Vec<OpClass> = ops.iter().map(|&o| memo.of(o)).collect();
    let count = |c: OpClass| classes.iter().filter(|&&x| x == c).count();
    if classes.iter().any(|c| matches!(c, OpClass::Opaque)) {
        return false;
    }
    let standalone = count(OpClass::Standalone) + count(OpClass::Scatter);
    if standalone > 0 {
        return ops.len() == 1 || legal_update_in_place(ops, &classes, members);
    }
    let dots = count(OpClass::Dot) + count(OpClass::Convolution);
    let reduces = count(OpClass::Reduce);
    if dots > 0 {
        return dots == 1 && reduces == 0 && legal_gemm(ops, &classes, members);
    }
    if reduces > 0 {
        return legal_rows(ops, &classes, members, None, memo);
    }
    // A loop group is fine if it never recomputes an expensive value under an
    // expanding broadcast, or if it is row-consistent over its root's shape
    // (then a row-wise kernel computes each row value once, and the group
    // may still grow into a reduction fusion).
    legal_loop(ops, &classes, members) || {
        let root_shape = ops.last().and_then(|&o| raw::results(o).first().and_then(|&v| raw::shape(v)));
        root_shape.is_some_and(|s| legal_rows(ops, &classes, members, Some(s), memo))
    }
}

/// A `dynamic_update_slice` fusion (XLA's in-place DUS fusion): the update
/// is the root, and the group's other ops compute its update or start
/// indices (`x.at[i].set(2 * u)`: the product is written straight into the
/// result's window, not into a buffer of its own first). A scatter likewise
/// takes what computes its indices and updates (JAX's wrap of negative
/// indices, `select(i < 0, i + n, i)`), cheap ops only. They are
/// elementwise ops, broadcasts and reshapes, read by the group only (no
/// second output), never by the updated operand (the buffer the update
/// writes into, kept a fusion input so it can be updated in place), and do
/// not recompute an expensive value under an expanding broadcast.
fn legal_update_in_place(ops: &[MlirOperation], classes: &[OpClass], members: &HashSet<Key>) -> bool {
    let Some((&root, rest)) = ops.split_last() else { return false };
    // The operands updated in place: a dynamic_update_slice's first, a
    // scatter's inputs (the first half of its operands but one).
    let updated = match raw::name(root).as_str() {
        "stablehlo.dynamic_update_slice" => 1,
        "stablehlo.scatter" => (raw::operands(root).len() - 1) / 2,
        _ => return false,
    };
    // A scatter reads an index once per element of its update window: only
    // cheap ops are computed there (never an expensive one, recomputed).
    let scatter = raw::name(root) == "stablehlo.scatter";
    let cheap = |o: MlirOperation, c: OpClass| {
        matches!(c, OpClass::Elementwise { expensive } if !(expensive && scatter))
            || matches!(raw::name(o).as_str(), "stablehlo.broadcast_in_dim" | "stablehlo.reshape")
    };
    if !rest.iter().zip(classes).all(|(&o, &c)| cheap(o, c)) {
        return false;
    }
    // Every use of a member's result is in the group, and none is an
    // updated operand of the root.
    let read_inside = rest.iter().all(|&o| {
        raw::results(o)
            .iter()
            .all(|&r| raw::uses(r).iter().all(|&(u, i)| members.contains(&key(u)) && !(u.ptr == root.ptr && (i as usize) < updated)))
    });
    read_inside && legal_loop(rest, &classes[..rest.len()], members)
}

fn is_expensive(c: OpClass) -> bool {
    matches!(c, OpClass::Elementwise { expensive: true })
}

/// True if broadcasting `v` would make a row-wise emitter recompute an
/// expensive op: an expensive op computed in the group feeds `v` through a
/// re-indexing (transpose, slice, ...) that keeps `v` from being computed once
/// at its own shape. Chains of elementwise ops, reshapes and broadcasts are
/// computed at their own shape and are safe.
fn recompute_hazard(v: MlirValue, members: &HashSet<Key>, classes: &Classes) -> bool {
    let mut stack = vec![v];
    let mut seen = HashSet::new();
    let (mut expensive, mut reindexing) = (false, false);
    while let Some(v) = stack.pop() {
        let Some(p) = raw::producer(v) else { continue };
        if !members.contains(&key(p)) || !seen.insert(key(p)) {
            continue;
        }
        let class = classes.of(p);
        expensive |= is_expensive(class);
        let name = raw::name(p);
        reindexing |= class == OpClass::Movement && !matches!(name.as_str(), "stablehlo.broadcast_in_dim" | "stablehlo.reshape");
        stack.extend(raw::operands(p));
    }
    expensive && reindexing
}

/// Loop fusions recompute producers per output element: an expanding
/// broadcast must not sit on top of an expensive op computed in the group.
fn legal_loop(ops: &[MlirOperation], classes: &[OpClass], members: &HashSet<Key>) -> bool {
    let class_of: HashMap<Key, OpClass> = ops.iter().zip(classes).map(|(&o, &c)| (key(o), c)).collect();
    for &op in ops {
        let name = raw::name(op);
        if name != "stablehlo.broadcast_in_dim" && name != "stablehlo.broadcast" {
            continue;
        }
        let (Some(n_out), Some(n_in)) = (raw::num_elements(raw::results(op)[0]), raw::num_elements(raw::operands(op)[0])) else {
            return false;
        };
        if n_out <= n_in {
            continue;
        }
        // Any expensive op in the in-group producer closure of the operand?
        let mut stack: Vec<MlirValue> = raw::operands(op);
        let mut seen = HashSet::new();
        while let Some(v) = stack.pop() {
            let Some(p) = raw::producer(v) else { continue };
            if !members.contains(&key(p)) || !seen.insert(key(p)) {
                continue;
            }
            if class_of.get(&key(p)).copied().is_some_and(is_expensive) {
                return false;
            }
            stack.extend(raw::operands(p));
        }
    }
    true
}

/// Gemm/convolution fusions: the hero plus its elementwise epilogue at the
/// hero's shape, and cheap ops on inputs (bias broadcasts). The hero's own
/// operands are never computed in the group.
fn legal_gemm(ops: &[MlirOperation], classes: &[OpClass], members: &HashSet<Key>) -> bool {
    let Some(hi) = classes.iter().position(|c| matches!(c, OpClass::Dot | OpClass::Convolution)) else {
        return false;
    };
    let hero = ops[hi];
    if raw::operands(hero).iter().any(|&v| raw::producer(v).is_some_and(|p| members.contains(&key(p)))) {
        return false;
    }
    let hero_shape = raw::shape(raw::results(hero)[0]);
    // Values that depend on the hero.
    let mut depends: HashSet<Key> = raw::results(hero).iter().map(|&v| vkey(v)).collect();
    for (&op, &class) in ops.iter().zip(classes) {
        if op.ptr == hero.ptr {
            continue;
        }
        let on_hero = raw::operands(op).iter().any(|&v| depends.contains(&vkey(v)));
        if on_hero {
            let at_hero_shape = raw::results(op).iter().all(|&v| raw::shape(v) == hero_shape);
            if !matches!(class, OpClass::Elementwise { .. }) || !at_hero_shape {
                return false;
            }
            depends.extend(raw::results(op).iter().map(|&v| vkey(v)));
        } else {
            let name = raw::name(op);
            let cheap = matches!(class, OpClass::Elementwise { expensive: false } | OpClass::Leaf)
                || matches!(name.as_str(), "stablehlo.broadcast_in_dim" | "stablehlo.reshape" | "stablehlo.convert");
            if !cheap {
                return false;
            }
        }
    }
    true
}

/// Reduction fusions: see the module doc ("row space"). Without a reduction,
/// `full` names the space (the root's shape) and no dimension is reduced.
fn legal_rows(ops: &[MlirOperation], classes: &[OpClass], members: &HashSet<Key>, full: Option<Vec<i64>>, memo: &Classes) -> bool {
    // The full space and the reduced dimensions, from the first reduction.
    let first = ops.iter().zip(classes).find(|(_, c)| **c == OpClass::Reduce).map(|(o, _)| *o);
    let (full, reduced) = match (first, full) {
        (Some(first), _) => {
            let Some(full) = raw::shape(raw::operands(first)[0]) else { return false };
            let Some(mut reduced) = raw::i64_array(first, "dimensions") else { return false };
            reduced.sort();
            (full, reduced)
        }
        (None, Some(full)) => (full, vec![]),
        (None, None) => return false,
    };
    let rank = full.len();
    let identity: Mapping = (0..rank).map(Some).collect();
    let mut maps: HashMap<Key, Mapping> = HashMap::new();
    let computed = |v: MlirValue| raw::producer(v).is_some_and(|p| members.contains(&key(p)));

    for (&op, &class) in ops.iter().zip(classes) {
        let name = raw::name(op);
        let ins = raw::operands(op);
        let outs = raw::results(op);
        let known: Vec<Option<&Mapping>> = ins.iter().map(|&v| if computed(v) { maps.get(&vkey(v)) } else { None }).collect();
        let result: Option<Mapping> = match class {
            OpClass::Leaf => None,
            OpClass::Elementwise { .. } => {
                let mut m: Option<Mapping> = None;
                for k in known.iter().flatten() {
                    match &m {
                        None => m = Some((*k).clone()),
                        Some(prev) if prev != *k => return false,
                        _ => {}
                    }
                }
                m
            }
            OpClass::Reduce => {
                let n = ins.len() / 2;
                let Some(mut dims) = raw::i64_array(op, "dimensions") else { return false };
                dims.sort();
                if dims != reduced {
                    return false;
                }
                for i in 0..n {
                    if raw::shape(ins[i]).as_deref() != Some(&full[..]) {
                        return false;
                    }
                    if let Some(m) = known[i]
                        && *m != identity
                    {
                        return false;
                    }
                }
                // Init values are scalars from outside or leaves.
                if ins[n..].iter().any(|&v| computed(v)) {
                    return false;
                }
                Some((0..rank).filter(|d| !reduced.contains(&(*d as i64))).map(Some).collect())
            }
            OpClass::Movement if name == "stablehlo.broadcast_in_dim" => match known[0] {
                // An unmapped value is recomputed per output element: only if cheap.
                None => {
                    let expanding = raw::num_elements(outs[0]) > raw::num_elements(ins[0]);
                    if expanding && recompute_hazard(ins[0], members, memo) {
                        return false;
                    }
                    None
                }
                Some(m) => {
                    let dims = match raw::i64_array(op, "broadcast_dimensions") {
                        Some(d) => d,
                        None => return false,
                    };
                    let (Some(src), Some(dst)) = (raw::shape(ins[0]), raw::shape(outs[0])) else { return false };
                    if dst == full {
                        for (i, &d) in dims.iter().enumerate() {
                            let ok = m[i] == Some(d as usize) || (m[i].is_none() && src[i] == 1);
                            if !ok {
                                return false;
                            }
                        }
                        Some(identity.clone())
                    } else {
                        let mut out: Mapping = vec![None; dst.len()];
                        for (k, &size) in dst.iter().enumerate() {
                            match dims.iter().position(|&d| d as usize == k) {
                                Some(i) if src[i] == size => out[k] = m[i],
                                _ if size == 1 => out[k] = None,
                                _ => return false,
                            }
                        }
                        Some(out)
                    }
                }
            },
            OpClass::Movement if name == "stablehlo.reshape" => match known[0] {
                None => None,
                Some(m) => {
                    let (Some(src), Some(dst)) = (raw::shape(ins[0]), raw::shape(outs[0])) else { return false };
                    let src_nonunit: Vec<(usize, i64)> = src.iter().copied().enumerate().filter(|(_, s)| *s != 1).collect();
                    let dst_nonunit: Vec<(usize, i64)> = dst.iter().copied().enumerate().filter(|(_, s)| *s != 1).collect();
                    if src_nonunit.len() != dst_nonunit.len() || src_nonunit.iter().zip(&dst_nonunit).any(|(a, b)| a.1 != b.1) {
                        return false;
                    }
                    let mut out: Mapping = vec![None; dst.len()];
                    for (a, b) in src_nonunit.iter().zip(&dst_nonunit) {
                        out[b.0] = m[a.0];
                    }
                    Some(out)
                }
            },
            // Other movement only on values not computed in the group.
            OpClass::Movement if known.iter().all(|k| k.is_none()) => None,
            _ => return false,
        };
        if let Some(m) = result {
            // Every mapped dimension must have the size of the full dimension.
            for &v in &outs {
                let Some(s) = raw::shape(v) else { return false };
                if s.len() != m.len() {
                    return false;
                }
                for (d, md) in m.iter().enumerate() {
                    if let Some(fd) = md
                        && s[d] != full[*fd]
                    {
                        return false;
                    }
                }
                maps.insert(vkey(v), m.clone());
            }
        }
    }
    true
}

/// The op of `block` that is or encloses `op`.
fn ancestor_in_block(op: MlirOperation, block: MlirBlock) -> Option<MlirOperation> {
    let mut cur = op;
    // SAFETY: `cur` is non-null in the loop: `op` is a live op of the function being fused and each parent is checked
    // for null before use.
    unsafe {
        while !cur.ptr.is_null() {
            if mlirOperationGetBlock(cur).ptr == block.ptr {
                return Some(cur);
            }
            cur = mlirOperationGetParentOperation(cur);
        }
    }
    None
}

/// Groups the ops of one block; returns the groups in the order they formed.
/// With `grow == false` every op is a group of its own (fusion disabled);
/// constants, iota and their broadcasts are still cloned into it.
fn form_groups(block: MlirBlock, grow: bool, classes: &Classes) -> Vec<Group> {
    let ops = raw::block_ops(block);
    let position: HashMap<Key, usize> = ops.iter().enumerate().map(|(i, &o)| (key(o), i)).collect();
    let mut taken: HashSet<Key> = HashSet::new();
    // Duplicable ops every user of which cloned them.
    let mut cloned_away: HashSet<Key> = HashSet::new();
    let mut groups = Vec::new();
    let in_block = |p: MlirOperation| position.contains_key(&key(p));

    for &root in ops.iter().rev() {
        if taken.contains(&key(root)) {
            continue;
        }
        // Constants stay in the host program (host constants) unless a
        // group clones them in; an iota read outside every group (a result,
        // a loop's initial value: `jnp.arange`) becomes a fusion of its own,
        // since nothing but a kernel computes it.
        match classes.of(root) {
            OpClass::Opaque => continue,
            OpClass::Leaf if raw::name(root) != "stablehlo.iota" => continue,
            _ => {}
        }
        // Cheap ops whose users all formed groups were cloned into them.
        let all_users_grouped = raw::results(root).iter().all(|&r| {
            raw::uses(r)
                .iter()
                .all(|(u, _)| ancestor_in_block(*u, block).is_some_and(|a| taken.contains(&key(a)) || cloned_away.contains(&key(a))))
        });
        if duplicable(root, block, classes) && all_users_grouped {
            cloned_away.insert(key(root));
            continue;
        }
        let mut g = Group::new(root, classes);
        if !legal(&g.ops, &g.members, &g.dup_set, classes) {
            continue;
        }
        taken.insert(key(root));
        // Grow to a fixed point: each op's producers are tried as it joins
        // (a worklist), then every op's once more, in block order (a
        // producer turned away because a user was still outside may fit
        // now), until a full round adds nothing.
        let mut pending: std::collections::VecDeque<MlirOperation> = [root].into();
        loop {
            let mut changed = false;
            while let Some(op) = pending.pop_front() {
                for v in raw::operands(op) {
                    let Some(p) = raw::producer(v) else { continue };
                    if !in_block(p) || taken.contains(&key(p)) || g.contains(p) {
                        continue;
                    }
                    if duplicable(p, block, classes) {
                        g.add_dup(p);
                        pending.push_back(p);
                        changed = true;
                        continue;
                    }
                    // Fusion off: only the cheap leaves above are cloned in.
                    if !grow {
                        continue;
                    }
                    let class = classes.of(p);
                    if matches!(class, OpClass::Opaque | OpClass::Standalone | OpClass::Scatter) {
                        continue;
                    }
                    // Users outside the group are fine when they all come after
                    // the group's root: the fusion then also writes the value
                    // out (multi-output, as XLA's producer-consumer fusion),
                    // and no cycle can form (nothing in the group reads a
                    // later op). Without this a long chain whose values are
                    // reused a few ops later splits into one kernel per op
                    // once the first group reaches its size limit.
                    let mut outside_later = false;
                    let root_pos = position[&key(root)];
                    let users_ok = raw::results(p).iter().all(|&r| {
                        raw::uses(r).iter().all(|(u, _)| {
                            // A use nested in a group member's region counts as inside.
                            let Some(a) = ancestor_in_block(*u, block) else { return false };
                            if g.members.contains(&key(a)) {
                                return true;
                            }
                            let later = position[&key(a)] > root_pos;
                            outside_later |= later;
                            later
                        })
                    });
                    if !users_ok || (outside_later && g.extra_outputs >= MAX_EXTRA_OUTPUTS_PER_FUSION) {
                        tracing::trace!("fuse: {} stays out of group of {}: a user is outside", raw::name(p), raw::name(root));
                        continue;
                    }
                    let at = g.ops.partition_point(|o| position[&key(*o)] < position[&key(p)]);
                    let inputs = g.inputs_with(p);
                    let plain = g.plain && plain_loop_op(p, class);
                    let ok = if plain {
                        // `legal` of a plain loop group: its size limits.
                        g.ops.len() < MAX_OPS_PER_FUSION && inputs.len() <= MAX_INPUTS_PER_FUSION
                    } else {
                        let mut candidate = g.ops.clone();
                        candidate.insert(at, p);
                        let mut members = g.members.clone();
                        members.insert(key(p));
                        legal(&candidate, &members, &g.dup_set, classes)
                    };
                    if ok {
                        g.ops.insert(at, p);
                        g.members.insert(key(p));
                        g.inputs = inputs;
                        g.plain = plain;
                        g.extra_outputs += usize::from(outside_later);
                        taken.insert(key(p));
                        pending.push_back(p);
                        changed = true;
                    } else {
                        tracing::trace!("fuse: {} stays out of group of {}: illegal", raw::name(p), raw::name(root));
                    }
                }
            }
            if !changed {
                break;
            }
            pending.extend(g.ops.iter().chain(g.dups.iter()).copied());
        }
        g.dups.sort_by_key(|o| position[&key(*o)]);
        groups.push(g);
    }
    if grow { merge_siblings(groups, &position, block, classes) } else { groups }
}

/// The iteration space of a reduction group: (full input shape, reduced dims).
type Space = (Vec<i64>, Vec<i64>);

/// The reduction space of a group: that of its first reduce, if it has one.
fn reduction_space(g: &Group, classes: &Classes) -> Option<Space> {
    let r = g.ops.iter().copied().find(|&o| classes.of(o) == OpClass::Reduce)?;
    let full = raw::shape(raw::operands(r)[0])?;
    let mut dims = raw::i64_array(r, "dimensions")?;
    dims.sort();
    Some((full, dims))
}

/// Values a group reads from outside (not computed or cloned in it).
fn group_inputs(g: &Group) -> Vec<MlirValue> {
    let mut out = Vec::new();
    for &op in g.ops.iter().chain(g.dups.iter()) {
        for v in raw::operands(op) {
            if !raw::producer(v).is_some_and(|p| g.contains(p)) {
                out.push(v);
            }
        }
    }
    out
}

/// What sibling merging asks of a reduction group, computed once per group
/// (and once per merged group) instead of once per compared pair.
struct SiblingInfo {
    /// Block positions of the group's first and last op.
    first: usize,
    last: usize,
    /// The values the group reads from outside (`group_inputs`), deduplicated.
    inputs: HashSet<Key>,
    /// The latest block position of an op producing one of `inputs` (None
    /// when each is a block argument or comes from outside the block).
    latest_input: Option<usize>,
    /// The earliest block position of an op outside the group that reads a
    /// result of one of its ops (None when there is none).
    first_outside_user: Option<usize>,
    /// Some outside reader is not itself an op of the block (it is nested in
    /// the region of an op outside the group), so it is never "after" an op.
    unplaced_user: bool,
}

impl SiblingInfo {
    fn of(g: &Group, position: &HashMap<Key, usize>, block: MlirBlock) -> Self {
        let pos = |o: MlirOperation| position[&key(o)];
        let first = g.ops.iter().map(|&o| pos(o)).min().unwrap_or(0);
        let last = g.ops.iter().map(|&o| pos(o)).max().unwrap_or(0);
        let mut inputs: HashSet<Key> = HashSet::new();
        let mut latest_input: Option<usize> = None;
        for v in group_inputs(g) {
            if inputs.insert(vkey(v))
                && let Some(&pp) = raw::producer(v).and_then(|p| position.get(&key(p)))
            {
                latest_input = latest_input.max(Some(pp));
            }
        }
        let mut first_outside_user: Option<usize> = None;
        let mut unplaced_user = false;
        for v in g.ops.iter().flat_map(|&o| raw::results(o)) {
            for (u, _) in raw::uses(v) {
                // A use nested in a member's region is inside the group: of the
                // block's ops, a use is within (`raw::is_within`) only the one
                // `ancestor_in_block` finds.
                if ancestor_in_block(u, block).is_some_and(|a| g.members.contains(&key(a))) {
                    continue;
                }
                match position.get(&key(u)) {
                    Some(&up) => first_outside_user = Some(first_outside_user.map_or(up, |f| f.min(up))),
                    None => unplaced_user = true,
                }
            }
        }
        Self { first, last, inputs, latest_input, first_outside_user, unplaced_user }
    }

    /// True if this group (`a`, the one that ends later) reads nothing
    /// computed at or after `b`'s first op.
    fn independent_of(&self, b: &SiblingInfo) -> bool {
        self.latest_input.is_none_or(|l| l < b.first)
    }

    /// True if every outside user of this group (`b`) is an op of the block
    /// that comes after `a`'s last op, where the merged fusion goes.
    fn users_after(&self, a: &SiblingInfo) -> bool {
        !self.unplaced_user && self.first_outside_user.is_none_or(|f| f > a.last)
    }
}

/// Sibling multi-output fusion: two reduction groups over the same rows that
/// read a common input and do not depend on each other become one fusion
/// with several results, so the input is read once.
///
/// Groups are taken in the order they formed; each in turn absorbs, one after
/// the other in that order, every later group of its reduction space it can
/// merge with. Merging keeps a group's space (the merge's first reduce is the
/// first reduce of one of the two), so groups are compared only within a
/// space and each space is handled on its own; what a comparison reads of a
/// group (`SiblingInfo`) is computed once per group, so it is a few lookups,
/// and only pairs that pass them build a candidate and run `legal`.
fn merge_siblings(mut groups: Vec<Group>, position: &HashMap<Key, usize>, block: MlirBlock, classes: &Classes) -> Vec<Group> {
    let spaces: Vec<Option<Space>> = groups.iter().map(|g| reduction_space(g, classes)).collect();
    // Reduction groups by space, each list in formation order.
    let mut bucket_of: HashMap<&Space, usize> = HashMap::new();
    let mut buckets: Vec<Vec<usize>> = Vec::new();
    for (i, space) in spaces.iter().enumerate() {
        let Some(space) = space else { continue };
        let next = buckets.len();
        let b = *bucket_of.entry(space).or_insert(next);
        if b == next {
            buckets.push(Vec::new());
        }
        buckets[b].push(i);
    }
    let mut info: Vec<Option<SiblingInfo>> =
        groups.iter().zip(&spaces).map(|(g, s)| s.as_ref().map(|_| SiblingInfo::of(g, position, block))).collect();
    let mut absorbed = vec![false; groups.len()];
    for bucket in &buckets {
        for (k, &i) in bucket.iter().enumerate() {
            if absorbed[i] {
                continue;
            }
            for &j in &bucket[k + 1..] {
                if absorbed[j] {
                    continue;
                }
                let info_of = |x: usize| info[x].as_ref().expect("reduction groups have sibling info");
                // `a` ends later; the merged fusion goes where `a`'s root is.
                let (a, b) = if info_of(i).last >= info_of(j).last { (i, j) } else { (j, i) };
                let (sa, sb) = (info_of(a), info_of(b));
                // `a` must not read anything computed at or after `b`'s first op, every outside user of `b` must
                // come after `a`'s root, and the two must read a common input.
                let mergeable = sa.independent_of(sb) && sb.users_after(sa) && !sa.inputs.is_disjoint(&sb.inputs);
                if !mergeable {
                    continue;
                }
                let Some(merged) = merge_if_legal(&groups[a], &groups[b], position, classes) else { continue };
                debug_assert!(reduction_space(&merged, classes) == spaces[i], "a merge keeps the reduction space");
                info[i] = Some(SiblingInfo::of(&merged, position, block));
                groups[i] = merged;
                absorbed[j] = true;
            }
        }
    }
    groups.into_iter().zip(absorbed).filter_map(|(g, gone)| (!gone).then_some(g)).collect()
}

/// The union of two groups (ops and clones in block order), if it is legal.
fn merge_if_legal(ga: &Group, gb: &Group, position: &HashMap<Key, usize>, classes: &Classes) -> Option<Group> {
    // `legal`'s first test, before building the candidate.
    if ga.ops.len() + gb.ops.len() > MAX_OPS_PER_FUSION {
        return None;
    }
    let mut ops: Vec<MlirOperation> = ga.ops.iter().chain(gb.ops.iter()).copied().collect();
    ops.sort_by_key(|o| position[&key(*o)]);
    let members: HashSet<Key> = ops.iter().map(|&o| key(o)).collect();
    let mut dups: Vec<MlirOperation> = ga.dups.clone();
    let mut dup_set: HashSet<Key> = ga.dup_set.clone();
    for &d in &gb.dups {
        if dup_set.insert(key(d)) {
            dups.push(d);
        }
    }
    dups.sort_by_key(|o| position[&key(*o)]);
    if !legal(&ops, &members, &dup_set, classes) {
        return None;
    }
    let inputs = outside_inputs(&ops, &members, &dup_set);
    let plain = ga.plain && gb.plain;
    Some(Group { ops, members, inputs, plain, extra_outputs: ga.extra_outputs + gb.extra_outputs, dups, dup_set })
}

/// Replaces a group by one `floors.fusion` placed where its last op was.
fn materialize(g: &Group, context: MlirContext) -> Result<MlirOperation, String> {
    let root = *g.ops.last().expect("groups are never empty");
    let block = raw::block_of(root);
    // A use nested in a member's region is in the group.
    let in_group = |op: MlirOperation| ancestor_in_block(op, block).is_some_and(|a| g.members.contains(&key(a)));
    let produced_inside = |v: MlirValue| raw::producer(v).is_some_and(|p| g.contains(p));

    // Inputs, in first-use order.
    let mut inputs: Vec<MlirValue> = Vec::new();
    let mut input_index: HashMap<Key, usize> = HashMap::new();
    for &op in g.dups.iter().chain(g.ops.iter()) {
        for v in raw::operands(op) {
            if !produced_inside(v) && !input_index.contains_key(&vkey(v)) {
                input_index.insert(vkey(v), inputs.len());
                inputs.push(v);
            }
        }
    }
    // Outputs: values used by anything outside the group.
    let mut outputs: Vec<MlirValue> = Vec::new();
    for &op in &g.ops {
        for v in raw::results(op) {
            if raw::uses(v).iter().any(|(u, _)| !in_group(*u)) {
                outputs.push(v);
            }
        }
    }

    // SAFETY: `root` is a live op of `block` (the group's last op) and `inputs`/`outputs` are live values of the
    // function; `context` is the module's own. The state copies the operand/result/attribute arrays, and the block
    // and region created here are owned by the new op, which is null-checked and then inserted before `root` (the
    // block owns it). Clones and moved group ops are appended to `body`, which then owns them; each `j` is below
    // `outputs.len()`, the fusion's result count. The floors dialect is loaded (a dependent dialect of the pass), so
    // the new op is a `FusionOp`, as `floorsFusionSetKind` requires; the `sref` strings outlive the calls and MLIR
    // copies them.
    unsafe {
        let loc = mlirOperationGetLocation(root);
        let name = raw::sref("floors.fusion");
        let mut state = mlirOperationStateGet(name, loc);
        mlirOperationStateAddOperands(&mut state, inputs.len() as isize, inputs.as_ptr());
        let out_types: Vec<MlirType> = outputs.iter().map(|&v| mlirValueGetType(v)).collect();
        mlirOperationStateAddResults(&mut state, out_types.len() as isize, out_types.as_ptr());
        let kind_attr = floors_ir::capi::floorsFusionKindAttrGet(context, FusionKind::Loop.to_c_public());
        let kind_name = mlirIdentifierGet(context, raw::sref("kind"));
        let named = [mlirNamedAttributeGet(kind_name, kind_attr)];
        mlirOperationStateAddAttributes(&mut state, 1, named.as_ptr());
        let in_types: Vec<MlirType> = inputs.iter().map(|&v| mlirValueGetType(v)).collect();
        let locs: Vec<MlirLocation> = inputs.iter().map(|_| loc).collect();
        let body = mlirBlockCreate(in_types.len() as isize, in_types.as_ptr(), locs.as_ptr());
        let region = mlirRegionCreate();
        mlirRegionAppendOwnedBlock(region, body);
        let regions = [region];
        mlirOperationStateAddOwnedRegions(&mut state, 1, regions.as_ptr());
        let fusion = mlirOperationCreate(&mut state);
        if fusion.ptr.is_null() {
            return Err("cannot create floors.fusion".into());
        }
        mlirBlockInsertOwnedOperationBefore(block, root, fusion);

        // Clone the duplicated ops, then move the group's ops, rewiring operands.
        let mut remap: HashMap<Key, MlirValue> = HashMap::new();
        for (v, i) in inputs.iter().zip(0..) {
            remap.insert(vkey(*v), mlirBlockGetArgument(body, i));
        }
        let rewire = |op: MlirOperation, remap: &HashMap<Key, MlirValue>| {
            for (i, v) in raw::operands(op).into_iter().enumerate() {
                if let Some(&nv) = remap.get(&vkey(v)) {
                    mlirOperationSetOperand(op, i as isize, nv);
                }
            }
        };
        for &d in &g.dups {
            let c = mlirOperationClone(d);
            mlirBlockAppendOwnedOperation(body, c);
            rewire(c, &remap);
            for (orig, new) in raw::results(d).into_iter().zip(raw::results(c)) {
                remap.insert(vkey(orig), new);
            }
        }
        for &op in &g.ops {
            mlirOperationRemoveFromParent(op);
            mlirBlockAppendOwnedOperation(body, op);
            rewire(op, &remap);
        }
        // Outside users now read the fusion's results.
        for (j, &v) in outputs.iter().enumerate() {
            let new = mlirOperationGetResult(fusion, j as isize);
            for (user, idx) in raw::uses(v) {
                if !raw::is_within(user, fusion) {
                    mlirOperationSetOperand(user, idx, new);
                }
            }
        }
        let mut ystate = mlirOperationStateGet(raw::sref("floors.yield"), loc);
        mlirOperationStateAddOperands(&mut ystate, outputs.len() as isize, outputs.as_ptr());
        let y = mlirOperationCreate(&mut ystate);
        mlirBlockAppendOwnedOperation(body, y);

        // Kind and hero, by the same analysis the floors read.
        let body_ops: Vec<MlirOperation> = raw::block_ops(body).into_iter().filter(|o| o.ptr != y.ptr).collect();
        let roots: Vec<MlirOperation> = outputs.iter().filter_map(|&v| raw::producer(v)).collect();
        let (kind, hero) = fusion_analysis::derive_kind(FusionKind::Loop, &body_ops, &roots);
        floors_ir::capi::floorsFusionSetKind(fusion, kind.to_c_public());
        if let Some(h) = hero {
            let hero_name = raw::name(h);
            let attr = mlirStringAttrGet(context, raw::sref(&hero_name));
            mlirOperationSetAttributeByName(fusion, raw::sref("hero"), attr);
        }
        Ok(fusion)
    }
}

/// Fuses one block, after fusing the bodies of its control-flow ops.
fn fuse_block(block: MlirBlock, context: MlirContext, grow: bool) -> Result<(), (MlirOperation, String)> {
    for op in raw::block_ops(block) {
        let name = raw::name(op);
        if matches!(name.as_str(), "stablehlo.while" | "stablehlo.case" | "stablehlo.if") {
            for b in raw::region_blocks(op) {
                fuse_block(b, context, grow)?;
            }
        }
    }
    let classes = Classes::default();
    let was_duplicable: HashSet<Key> = raw::block_ops(block).into_iter().filter(|&o| duplicable(o, block, &classes)).map(key).collect();
    let groups = form_groups(block, grow, &classes);
    for g in &groups {
        materialize(g, context).map_err(|e| (g.ops[0], e))?;
    }
    // Duplicated originals that nothing uses any more (reverse order, so a
    // chain dies from its end).
    for op in raw::block_ops(block).into_iter().rev() {
        let dead = was_duplicable.contains(&key(op)) && raw::results(op).iter().all(|&v| raw::uses(v).is_empty());
        if dead {
            // SAFETY: `op` is a live op of `block` (just listed) whose results have no uses left, so nothing refers
            // to it; it is not used afterwards.
            unsafe { mlirOperationDestroy(op) };
        }
    }
    Ok(())
}

impl FloorsPass for HloFuse {
    const ARGUMENT: &'static str = "floors-hlo-fuse";
    const NAME: &'static str = "FloorsHloFuse";
    const DESCRIPTION: &'static str = "Group StableHLO ops into floors.fusion ops (loop, reduction, gemm, ... by XLA's rules)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        floors_ir::context::floors_dialect_handles()
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        fuse_module(module, true)
    }
}

/// The first op (in program order, nested regions included) that no floor
/// compiles, with why.
fn first_unsupported(op: MlirOperation) -> Option<(MlirOperation, String)> {
    for b in raw::region_blocks(op) {
        for o in raw::block_ops(b) {
            if let Some(why) = fusion_analysis::unsupported_reason(o) {
                return Some((o, why));
            }
            if let Some(found) = first_unsupported(o) {
                return Some(found);
            }
        }
    }
    None
}

fn fuse_module(module: OperationRef<'_, '_>, grow: bool) -> Result<(), PassFailure> {
    // Ops no floor compiles stop here, at the op, whatever the target.
    if let Some((at, why)) = first_unsupported(module.to_raw()) {
        // SAFETY: `at` is a live op of the module the pass runs on (from `first_unsupported`), borrowed only to
        // report its location.
        let at = unsafe { OperationRef::from_raw(at) };
        return Err(PassFailure::at(&at, why));
    }
    // SAFETY: `module` is the live module the pass runs on.
    let context = unsafe { mlirOperationGetContext(module.to_raw()) };
    for b in raw::region_blocks(module.to_raw()) {
        for op in raw::block_ops(b) {
            if raw::name(op) != "func.func" {
                continue;
            }
            for body in raw::region_blocks(op) {
                if let Err((at, msg)) = fuse_block(body, context, grow) {
                    // SAFETY: `at` is an op of the group that failed to materialize: still live in the function
                    // (materialize fails before it moves anything), borrowed only for its location.
                    let at = unsafe { OperationRef::from_raw(at) };
                    return Err(PassFailure::at(&at, msg));
                }
            }
        }
    }
    Ok(())
}

/// `floors-hlo-fuse-singletons`: fusion switched off: every compute op
/// becomes a `floors.fusion` of its own (a kernel), so the floors run the
/// program op by op. It exists to check that fusion preserves semantics.
#[derive(Clone, Default)]
pub struct HloFuseSingletons;

impl FloorsPass for HloFuseSingletons {
    const ARGUMENT: &'static str = "floors-hlo-fuse-singletons";
    const NAME: &'static str = "FloorsHloFuseSingletons";
    const DESCRIPTION: &'static str = "Wrap every StableHLO compute op in a floors.fusion of its own (fusion disabled)";

    fn new() -> Self {
        Self
    }

    fn dependent_dialects() -> Vec<melior::dialect::DialectHandle> {
        floors_ir::context::floors_dialect_handles()
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        fuse_module(module, false)
    }
}
