//! `floors-hlo-inline`: inline JAX's private helper functions into the public
//! entry points and delete the helpers no one references any more.
//!
//! JAX wraps every `jnp` helper (`argmax`, `_where`, `relu`, ...) in a private
//! `func.func` and calls it with `func.call`. Fusion needs one flat body, so
//! every call to a private, single-block callee is replaced by the callee's
//! body, and so is every `stablehlo.composite` by its decomposition's (the
//! spec defines a composite as a call of it; its name and attributes only
//! let a backend that knows the name do better, which floors does not). Written on the C API (clone the callee, splice its ops before the
//! call, forward values) so it needs no inliner interface from the dialects.

use std::collections::{HashMap, HashSet};

use melior::ir::{BlockLike, OperationRef, RegionLike, attribute::AttributeLike, operation::OperationLike};
use mlir_sys::*;

use floors_ir::{
    ir::{
        collect_ops, op_name,
        raw::{sref, string as to_string},
    },
    pass::{FloorsPass, PassFailure},
};

/// How many rounds of nested calls are inlined before the pass gives up
/// (each round inlines the calls the previous round exposed).
const MAX_DEPTH: usize = 256;

#[derive(Clone, Default)]
pub struct HloInline;

fn string_attr(op: MlirOperation, name: &str) -> Option<String> {
    // SAFETY: `op` is a live op of the module (a function); `name` outlives the call.
    let a = unsafe { mlirOperationGetAttributeByName(op, sref(name)) };
    // SAFETY: `a` was checked non-null just before (`||` short-circuits).
    if a.ptr.is_null() || !unsafe { mlirAttributeIsAString(a) } {
        return None;
    }
    // SAFETY: `a` is a non-null string attribute (checked above), as the getter assumes; `to_string` copies the text
    // while `op` lives.
    Some(to_string(unsafe { mlirStringAttrGetValue(a) }))
}

/// The function a `func.call` calls, or the decomposition of a
/// `stablehlo.composite` (whose meaning, by the spec, is a call of it).
fn callee_of(call: MlirOperation) -> Option<String> {
    let name = if floors_ir::ir::raw::name(call) == "stablehlo.composite" { "decomposition" } else { "callee" };
    // SAFETY: `call` is a live call or composite of a public function; `name` is a static string.
    let a = unsafe { mlirOperationGetAttributeByName(call, sref(name)) };
    // SAFETY: `a` was checked non-null just before (`||` short-circuits).
    if a.ptr.is_null() || !unsafe { mlirAttributeIsAFlatSymbolRef(a) } {
        return None;
    }
    // SAFETY: `a` is a non-null flat symbol reference (checked above), as the getter assumes; `to_string` copies the
    // name.
    Some(to_string(unsafe { mlirFlatSymbolRefAttrGetValue(a) }))
}

/// Every symbol name referenced by an attribute (through arrays and dicts).
fn symbol_refs(a: MlirAttribute, out: &mut HashSet<String>) {
    // SAFETY: `a` is null-checked first; each getter runs only after the kind check it assumes, and every index is
    // below the element count just read.
    unsafe {
        if a.ptr.is_null() {
            return;
        }
        if mlirAttributeIsAFlatSymbolRef(a) {
            out.insert(to_string(mlirFlatSymbolRefAttrGetValue(a)));
        } else if mlirAttributeIsASymbolRef(a) {
            out.insert(to_string(mlirSymbolRefAttrGetRootReference(a)));
        } else if mlirAttributeIsAArray(a) {
            for i in 0..mlirArrayAttrGetNumElements(a) {
                symbol_refs(mlirArrayAttrGetElement(a, i), out);
            }
        } else if mlirAttributeIsADictionary(a) {
            for i in 0..mlirDictionaryAttrGetNumElements(a) {
                symbol_refs(mlirDictionaryAttrGetElement(a, i).attribute, out);
            }
        }
    }
}

fn count_blocks(region: MlirRegion) -> usize {
    let mut n = 0;
    // SAFETY: `region` is region 0 of a live `func.func` of the module.
    let mut b = unsafe { mlirRegionGetFirstBlock(region) };
    while !b.ptr.is_null() {
        n += 1;
        // SAFETY: `b` is a non-null block of that region (the loop condition).
        b = unsafe { mlirBlockGetNextInRegion(b) };
    }
    n
}

/// Replaces `call` by a copy of `callee`'s single block.
fn inline_call(call: MlirOperation, callee: MlirOperation) {
    // SAFETY: `callee` is a live `func.func` of the module; the clone is detached, and `splice_function_body` below
    // consumes it.
    let copy = unsafe { mlirOperationClone(callee) };
    // SAFETY: `call` is a live call in a block whose results match the
    // callee's return; `copy` is a fresh detached clone of the callee; the
    // operands are the call's own. The pass drops `call` after this.
    unsafe { floors_ir::ir::raw::splice_function_body(call, copy, &floors_ir::ir::raw::operands(call), None, |_| ()) };
}

impl FloorsPass for HloInline {
    const ARGUMENT: &'static str = "floors-hlo-inline";
    const NAME: &'static str = "FloorsHloInline";
    const DESCRIPTION: &'static str = "Inline calls to private single-block func.func helpers and erase helpers left unreferenced";

    fn new() -> Self {
        Self
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailure> {
        // The module's functions by name; only direct children are symbols here.
        let mut funcs: HashMap<String, MlirOperation> = HashMap::new();
        let mut private: HashSet<String> = HashSet::new();
        let mut roots: Vec<MlirOperation> = Vec::new();
        let body = module.region(0).map_err(|_| PassFailure::at(&module, "expected a module with a body"))?;
        let mut op = body.first_block().and_then(|b| b.first_operation());
        while let Some(o) = op {
            if op_name(&o) == "func.func"
                && let Some(name) = string_attr(o.to_raw(), "sym_name")
            {
                if string_attr(o.to_raw(), "sym_visibility").as_deref() == Some("private") {
                    private.insert(name.clone());
                } else {
                    roots.push(o.to_raw());
                }
                funcs.insert(name, o.to_raw());
            }
            op = o.next_in_block();
        }

        for depth in 0..=MAX_DEPTH {
            let mut calls = Vec::new();
            for &root in &roots {
                // SAFETY: `root` is a live public function of the module (roots are never erased), borrowed only for
                // this walk.
                let root = unsafe { OperationRef::from_raw(root) };
                calls.extend(collect_ops(&root, |o| matches!(op_name(&o).as_str(), "func.call" | "stablehlo.composite")));
            }
            let inlinable: Vec<(MlirOperation, MlirOperation)> = calls
                .into_iter()
                .filter_map(|call| {
                    let callee = callee_of(call)?;
                    // A composite is its decomposition, public or not.
                    let composite = floors_ir::ir::raw::name(call) == "stablehlo.composite";
                    if !composite && !private.contains(&callee) {
                        return None;
                    }
                    let f = *funcs.get(&callee)?;
                    // SAFETY: `f` is a live `func.func` of the module (`funcs` holds only functions not erased yet),
                    // which has one region.
                    let region = unsafe { mlirOperationGetRegion(f, 0) };
                    (count_blocks(region) == 1).then_some((call, f))
                })
                .collect();
            if inlinable.is_empty() {
                break;
            }
            if depth == MAX_DEPTH {
                // SAFETY: `inlinable[0].0` is a live call collected in this round (nothing was inlined yet), borrowed
                // only for its location.
                let call = unsafe { OperationRef::from_raw(inlinable[0].0) };
                return Err(PassFailure::at(
                    &call,
                    format!(
                        "calls nest deeper than {MAX_DEPTH} levels; is '@{}' recursive?",
                        callee_of(inlinable[0].0).unwrap_or_default()
                    ),
                ));
            }
            for (call, callee) in inlinable {
                inline_call(call, callee);
            }
        }

        // Erase private helpers nothing outside themselves refers to any more.
        loop {
            let mut referenced = HashSet::new();
            for (name, &f) in &funcs {
                let _ = name;
                // SAFETY: `f` is a live function of the module: `funcs` drops each function it erases.
                let fref = unsafe { OperationRef::from_raw(f) };
                for o in collect_ops(&fref, |_| true) {
                    // SAFETY: `o` is a live op nested in `f`, just collected; nothing is erased during the walk.
                    let o = unsafe { OperationRef::from_raw(o) };
                    for (_, a) in o.attributes() {
                        symbol_refs(a.to_raw(), &mut referenced);
                    }
                }
            }
            // References from outside any function (e.g. module attributes).
            for (_, a) in module.attributes() {
                symbol_refs(a.to_raw(), &mut referenced);
            }
            let dead: Vec<String> = funcs.keys().filter(|n| private.contains(*n) && !referenced.contains(*n)).cloned().collect();
            if dead.is_empty() {
                break;
            }
            for name in dead {
                if let Some(f) = funcs.remove(&name) {
                    // SAFETY: `f` is a live private function that nothing references any more; it is removed from
                    // `funcs` first, so no handle to it is used again (MLIR's destroy unlinks it from the module).
                    unsafe { mlirOperationDestroy(f) };
                }
            }
        }
        Ok(())
    }
}
