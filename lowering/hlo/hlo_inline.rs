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
    let a = unsafe { mlirOperationGetAttributeByName(op, sref(name)) };
    if a.ptr.is_null() || !unsafe { mlirAttributeIsAString(a) } {
        return None;
    }
    Some(to_string(unsafe { mlirStringAttrGetValue(a) }))
}

/// The function a `func.call` calls, or the decomposition of a
/// `stablehlo.composite` (whose meaning, by the spec, is a call of it).
fn callee_of(call: MlirOperation) -> Option<String> {
    let name = if floors_ir::ir::raw::name(call) == "stablehlo.composite" { "decomposition" } else { "callee" };
    let a = unsafe { mlirOperationGetAttributeByName(call, sref(name)) };
    if a.ptr.is_null() || !unsafe { mlirAttributeIsAFlatSymbolRef(a) } {
        return None;
    }
    Some(to_string(unsafe { mlirFlatSymbolRefAttrGetValue(a) }))
}

/// Every symbol name referenced by an attribute (through arrays and dicts).
fn symbol_refs(a: MlirAttribute, out: &mut HashSet<String>) {
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
    let mut b = unsafe { mlirRegionGetFirstBlock(region) };
    while !b.ptr.is_null() {
        n += 1;
        b = unsafe { mlirBlockGetNextInRegion(b) };
    }
    n
}

/// Replaces `call` by a copy of `callee`'s single block.
fn inline_call(call: MlirOperation, callee: MlirOperation) {
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
                    let region = unsafe { mlirOperationGetRegion(f, 0) };
                    (count_blocks(region) == 1).then_some((call, f))
                })
                .collect();
            if inlinable.is_empty() {
                break;
            }
            if depth == MAX_DEPTH {
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
                let fref = unsafe { OperationRef::from_raw(f) };
                for o in collect_ops(&fref, |_| true) {
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
                    unsafe { mlirOperationDestroy(f) };
                }
            }
        }
        Ok(())
    }
}
