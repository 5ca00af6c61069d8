//! while / case / if → scf.while / scf.index_switch / scf.if on tensors.
//!
//! The stablehlo regions move as they are into the scf op (so values they
//! capture stay valid); their `stablehlo.return` becomes `scf.condition`
//! (with the 0-d predicate extracted) or `scf.yield`. The ops inside are
//! stablehlo ops on tensors and are lowered by the pass in turn.
//!
//! The scf ops carry the declared types (`tensor<4xui32>`): at the host
//! level of a fused program that is what the host program reads; inside a
//! function the pass lowers whole, the final retyping makes them signless.

use mlir_sys::*;

use super::common::*;

/// Moves `from`'s body into `to` (replacing the placeholder body there).
fn take(to: MlirRegion, from: MlirRegion) {
    // SAFETY: callers pass live regions: a placeholder region of a just-spliced scf op and the
    // matching region of the stablehlo op (destroyed only after the hook). The placeholder body
    // that `to` drops is self-contained; nothing outside refers into it.
    unsafe { mlirRegionTakeBody(to, from) };
}

/// Replaces every `stablehlo.return` terminating a block of `r` by `scf.yield`.
fn returns_to_yield(r: MlirRegion) {
    for b in blocks(r) {
        // SAFETY: `b` is a live block of `r`.
        let term = unsafe { mlirBlockGetTerminator(b) };
        if !term.ptr.is_null() && op_name_raw(term) == "stablehlo.return" {
            create_before(term, "scf.yield", &operands_of(term), &[]);
            // SAFETY: `term` is the live `stablehlo.return` just replaced by the `scf.yield` before
            // it; it has no results, so no use dangles, and it is not used again.
            unsafe { mlirOperationDestroy(term) };
        }
    }
}

fn find(moved: &[MlirOperation], name: &str) -> Option<MlirOperation> {
    moved.iter().copied().find(|o| op_name_raw(*o) == name)
}

pub fn while_(op: &Op) -> R<()> {
    let mut t = Tpl::new_decl(op);
    let n = op.operands.len();
    let args: Vec<TV> = (0..n).map(|i| t.operand(op, i)).collect();
    let inner: Vec<String> = (0..n).map(|_| t.fresh()).collect();
    let tys: Vec<String> = op.operands.iter().map(|x| x.t_decl()).collect();
    let res = t.fresh();
    let binds: Vec<String> = inner.iter().zip(&args).map(|(i, a)| format!("{i} = {}", a.v)).collect();
    t.line(format!(
        "{res}{} = scf.while ({}) : ({}) -> ({}) {{",
        if n > 1 { format!(":{n}") } else { String::new() },
        join(&binds),
        join(&tys),
        join(&tys)
    ));
    let f = t.fresh();
    t.line(format!("{f} = arith.constant false"));
    t.line(format!("scf.condition({f}) {} : {}", join(&inner), join(&tys)));
    t.line("} do {");
    let after: Vec<String> = (0..n).map(|_| t.fresh()).collect();
    t.line(format!("^bb0({}):", join(&after.iter().zip(&tys).map(|(a, ty)| format!("{a}: {ty}")).collect::<Vec<_>>())));
    t.line(format!("scf.yield {} : {}", join(&after), join(&tys)));
    t.line("}");
    let results: Vec<TV> =
        (0..n).map(|i| TV::new(if n > 1 { format!("{res}#{i}") } else { res.clone() }, op.operands[i].clone())).collect();
    let raw = op.raw;
    splice_hook(op, &t, &results, |moved| {
        let w = find(moved, "scf.while").ok_or_else(|| fail(raw, "internal error: no scf.while"))?;
        // SAFETY: `w` is the spliced `scf.while` (two regions) and `raw` the live `stablehlo.while`
        // (two regions, cond and body; destroyed only after this hook). `term` is checked non-null;
        // its operand 0 is the condition's single value (stablehlo's verifier); the extract has the
        // one result given to it; `i` is below the block's argument count; `term` has no results
        // and is destroyed after `scf.condition` replaced it.
        unsafe {
            let before = mlirOperationGetRegion(w, 0);
            let after = mlirOperationGetRegion(w, 1);
            take(before, mlirOperationGetRegion(raw, 0));
            take(after, mlirOperationGetRegion(raw, 1));
            // cond: stablehlo.return %p : tensor<i1> → scf.condition(extract %p) %args
            for b in blocks(before) {
                let term = mlirBlockGetTerminator(b);
                if term.ptr.is_null() || op_name_raw(term) != "stablehlo.return" {
                    return Err(fail(raw, "while condition must end in stablehlo.return"));
                }
                let p = mlirOperationGetOperand(term, 0);
                let i1 = mlirIntegerTypeGet(mlirOperationGetContext(raw), 1);
                let e = create_before(term, "tensor.extract", &[p], &[i1]);
                let mut ops = vec![mlirOperationGetResult(e, 0)];
                for i in 0..mlirBlockGetNumArguments(b) {
                    ops.push(mlirBlockGetArgument(b, i));
                }
                create_before(term, "scf.condition", &ops, &[]);
                mlirOperationDestroy(term);
            }
            returns_to_yield(after);
            // The loop's known trip count (`floors-hlo-annotate-trip-counts`) stays with it.
            let known = floors_ir::contract::KNOWN_TRIP_COUNT_ATTR;
            if let Some(a) = floors_ir::ir::raw::attr(raw, known) {
                mlirOperationSetAttributeByName(w, sref(known), a);
            }
        }
        Ok(())
    })
}

/// `case` (index → branch, out of range → last branch) and `if`.
pub fn case(op: &Op, short: &str) -> R<()> {
    let mut t = Tpl::new_decl(op);
    let sel = t.operand(op, 0);
    let s = t.extract0(&sel);
    let nres = op.results.len();
    let rtys: Vec<String> = op.results.iter().map(|x| x.t_decl()).collect();
    let res = t.fresh();
    let lhs = match nres {
        0 => String::new(),
        1 => format!("{res} = "),
        k => format!("{res}:{k} = "),
    };
    let arrow = if nres == 0 {
        String::new()
    } else if short == "if" {
        format!(" -> ({})", join(&rtys))
    } else {
        format!(" -> {}", join(&rtys))
    };
    let nb = op.num_regions();
    let placeholder = |t: &mut Tpl| {
        let es: Vec<String> = op.results.iter().map(|r| t.empty(r).v).collect();
        if nres == 0 {
            t.line("scf.yield");
        } else {
            t.line(format!("scf.yield {} : {}", join(&es), join(&rtys)));
        }
    };
    let new_name;
    if short == "if" {
        new_name = "scf.if";
        t.line(format!("{lhs}scf.if {s}{arrow} {{"));
        placeholder(&mut t);
        t.line("} else {");
        placeholder(&mut t);
        t.line("}");
    } else {
        new_name = "scf.index_switch";
        let i = t.index_cast(&s, &sel.ty.elem);
        t.line(format!("{lhs}scf.index_switch {i}{arrow}"));
        for c in 0..nb - 1 {
            t.line(format!("case {c} {{"));
            placeholder(&mut t);
            t.line("}");
        }
        t.line("default {");
        placeholder(&mut t);
        t.line("}");
    }
    let results: Vec<TV> =
        (0..nres).map(|i| TV::new(if nres > 1 { format!("{res}#{i}") } else { res.clone() }, op.results[i].clone())).collect();
    let raw = op.raw;
    splice_hook(op, &t, &results, |moved| {
        let sw = find(moved, new_name).ok_or_else(|| fail(raw, "internal error: no switch"))?;
        // SAFETY: `sw` is the spliced `scf.if` (two regions) or `scf.index_switch` (written with a
        // default and a case per region of `raw` but the last: `nb` regions), and `raw` the live
        // `stablehlo.if` (two regions) or `stablehlo.case` (`nb` regions), destroyed only after
        // this hook: every region index is in range.
        unsafe {
            if new_name == "scf.if" {
                for k in 0..2 {
                    let to = mlirOperationGetRegion(sw, k);
                    take(to, mlirOperationGetRegion(raw, k));
                    returns_to_yield(to);
                }
            } else {
                // scf.index_switch regions: default first, then the cases.
                let def = mlirOperationGetRegion(sw, 0);
                take(def, mlirOperationGetRegion(raw, nb - 1));
                returns_to_yield(def);
                for c in 0..nb - 1 {
                    let to = mlirOperationGetRegion(sw, 1 + c);
                    take(to, mlirOperationGetRegion(raw, c));
                    returns_to_yield(to);
                }
            }
        }
        Ok(())
    })
}
