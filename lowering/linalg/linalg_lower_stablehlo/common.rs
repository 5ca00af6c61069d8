//! Shared machinery of `floors-linalg-lower-stablehlo`: reading a stablehlo op
//! (types, attributes), and the IR template each lowering fills in.
//!
//! A lowering writes its replacement as MLIR text in the upstream dialects'
//! pretty syntax, wrapped in a `func.func` whose arguments are the op's
//! operands and whose `return` gives the op's results. The function is parsed
//! with `mlirOperationCreateParse` in the pass's context and its body spliced
//! in place of the op (arguments → operands, returned values → results), the
//! same splice `floors-hlo-inline` does. Every spliced op gets the stablehlo
//! op's location. Writing `linalg.generic` with explicit affine maps as text
//! keeps each lowering close to how one would write it by hand and read it in
//! a lit test; the parser checks every template.

use std::collections::HashMap;

use mlir_sys::*;

pub use floors_ir::{
    ir::raw::{attr_text, i64s_of, sref, string as to_string, type_text},
    pass::fail_at as fail,
};

use floors_ir::pass::PassFailure;

pub type R<T> = Result<T, PassFailure>;

pub fn op_name_raw(op: MlirOperation) -> String {
    // SAFETY: callers pass live, non-null ops (the pass's collected ops, their ancestors and the
    // ops nested in them).
    unsafe { to_string(mlirIdentifierStr(mlirOperationGetName(op))) }
}

/// A ranked, static tensor type.
#[derive(Clone, Debug, PartialEq)]
pub struct Ty {
    pub shape: Vec<i64>,
    pub elem: String,
}

impl Ty {
    pub fn new(shape: &[i64], elem: &str) -> Self {
        Self { shape: shape.to_vec(), elem: elem.to_string() }
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn numel(&self) -> i64 {
        self.shape.iter().product()
    }
    pub fn with_elem(&self, elem: &str) -> Ty {
        Ty::new(&self.shape, elem)
    }
    pub fn with_shape(&self, shape: &[i64]) -> Ty {
        Ty::new(shape, &self.elem)
    }
    /// The element type as the lowered IR spells it ([`storage`]: unsigned
    /// integers become signless).
    pub fn s(&self) -> String {
        storage(&self.elem)
    }
    /// `tensor<4x8xf32>`, `tensor<f32>`, in the lowered IR's spelling
    /// (`tensor<4xi32>` for `tensor<4xui32>`).
    pub fn t(&self) -> String {
        tensor_text(&self.shape, &self.s())
    }
    /// The tensor type as the program declares it (`tensor<4xui32>`): what
    /// host-level ops (control flow, constants) keep.
    pub fn t_decl(&self) -> String {
        tensor_text(&self.shape, &self.elem)
    }
}

fn tensor_text(shape: &[i64], elem: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(elem);
    s.push('>');
    s
}

/// The element type the lowered IR computes on: MLIR's arith, math and
/// linalg work on signless integers, so `uiN` is stored as `iN` (the
/// unsigned semantics are chosen per op from the stablehlo types, see
/// `scalar`); every other spelling is itself.
pub fn storage(elem: &str) -> String {
    match kind(elem) {
        Kind::UInt(w) => format!("i{w}"),
        _ => elem.to_string(),
    }
}

/// The spelling of an element type the lowering supports, read from the type
/// itself (f16, bf16, f32, f64, signless integers of any width, unsigned
/// integers as `uiN`, `complex<f32>` and `complex<f64>`); None for any other
/// element type.
pub fn elem_spelling(e: MlirType) -> Option<String> {
    // SAFETY: `e` is a live type; the integer getters run only after `mlirTypeIsAInteger`.
    unsafe {
        if mlirTypeIsAF16(e) {
            Some("f16".into())
        } else if mlirTypeIsABF16(e) {
            Some("bf16".into())
        } else if mlirTypeIsAF32(e) {
            Some("f32".into())
        } else if mlirTypeIsAF64(e) {
            Some("f64".into())
        } else if mlirTypeIsAInteger(e) && mlirIntegerTypeIsSignless(e) {
            Some(format!("i{}", mlirIntegerTypeGetWidth(e)))
        } else if mlirTypeIsAInteger(e) && mlirIntegerTypeIsUnsigned(e) {
            Some(format!("ui{}", mlirIntegerTypeGetWidth(e)))
        } else if mlirTypeIsAComplex(e) {
            let part = mlirComplexTypeGetElementType(e);
            (mlirTypeIsAF32(part) || mlirTypeIsAF64(part)).then(|| format!("complex<{}>", if mlirTypeIsAF32(part) { "f32" } else { "f64" }))
        } else {
            None
        }
    }
}

/// Reads a value's type as a static ranked tensor of a supported element
/// type ([`elem_spelling`]).
pub fn tensor_ty(op: MlirOperation, t: MlirType) -> R<Ty> {
    // SAFETY: `t` is a live type; the shaped getters run only after `mlirTypeIsARankedTensor`, with
    // `i` below the rank.
    unsafe {
        if !mlirTypeIsARankedTensor(t) {
            return Err(fail(op, format!("cannot lower '{}' with a non-tensor type {} to linalg yet", op_name_raw(op), type_text(t))));
        }
        let rank = mlirShapedTypeGetRank(t);
        let mut shape = Vec::new();
        for i in 0..rank {
            if mlirShapedTypeIsDynamicDim(t, i as isize) {
                return Err(fail(op, format!("cannot lower '{}' with a dynamic shape {} to linalg yet", op_name_raw(op), type_text(t))));
            }
            shape.push(mlirShapedTypeGetDimSize(t, i as isize));
        }
        let e = mlirShapedTypeGetElementType(t);
        let elem = elem_spelling(e)
            .ok_or_else(|| fail(op, format!("cannot lower '{}' on element type {} to linalg yet", op_name_raw(op), type_text(e))))?;
        Ok(Ty { shape, elem })
    }
}

/// What kind of scalar an element type is (of the spellings the lowering
/// writes: [`elem_spelling`]'s and its own `f32`, `i1`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// f16, bf16, f32, f64 (bit width).
    Float(u32),
    /// Signless integer, i1 included (signed semantics; i1 is a bool).
    Int(u32),
    /// Unsigned integer (`uiN`, stored as `iN`).
    UInt(u32),
    Other,
}

pub fn kind(elem: &str) -> Kind {
    match elem {
        "f16" | "bf16" => Kind::Float(16),
        "f32" => Kind::Float(32),
        "f64" => Kind::Float(64),
        _ => {
            if let Some(w) = elem.strip_prefix('i').and_then(|w| w.parse::<u32>().ok()) {
                Kind::Int(w)
            } else if let Some(w) = elem.strip_prefix("ui").and_then(|w| w.parse::<u32>().ok()) {
                Kind::UInt(w)
            } else {
                Kind::Other
            }
        }
    }
}

/// A stablehlo op as the lowerings see it.
pub struct Op {
    pub raw: MlirOperation,
    pub name: String,
    pub operands: Vec<Ty>,
    pub results: Vec<Ty>,
}

/// The operand types of the ops the pass lowers, as the program declares
/// them, recorded before any op is lowered: a lowered producer's result has
/// the storage type (`tensor<4xi32>` for `tensor<4xui32>`), so its consumers
/// read their operands' stablehlo types from here.
#[derive(Default)]
pub struct DeclaredTypes(HashMap<usize, Vec<MlirType>>);

impl DeclaredTypes {
    pub fn record(&mut self, op: MlirOperation) {
        // SAFETY: `v` is an operand of the live op `op`, recorded before any op is lowered.
        let tys = operands_of(op).into_iter().map(|v| unsafe { mlirValueGetType(v) }).collect();
        self.0.insert(op.ptr as usize, tys);
    }

    /// Operand `i`'s declared type (its current type for an op not recorded).
    pub fn operand(&self, op: MlirOperation, i: isize) -> MlirType {
        match self.0.get(&(op.ptr as usize)) {
            Some(tys) => tys[i as usize],
            // SAFETY: `op` is live and `i` below its operand count (`Op::read` asks for its
            // operands only).
            None => unsafe { mlirValueGetType(mlirOperationGetOperand(op, i)) },
        }
    }
}

impl Op {
    pub fn read(raw: MlirOperation, declared: &DeclaredTypes) -> R<Op> {
        let name = op_name_raw(raw);
        let mut operands = Vec::new();
        let mut results = Vec::new();
        // SAFETY: `raw` is a live stablehlo op (collected, not lowered yet); `i` is below the
        // operand or result count.
        unsafe {
            for i in 0..mlirOperationGetNumOperands(raw) {
                operands.push(tensor_ty(raw, declared.operand(raw, i))?);
            }
            for i in 0..mlirOperationGetNumResults(raw) {
                results.push(tensor_ty(raw, mlirValueGetType(mlirOperationGetResult(raw, i)))?);
            }
        }
        Ok(Op { raw, name, operands, results })
    }

    pub fn fail(&self, msg: impl Into<String>) -> PassFailure {
        fail(self.raw, msg)
    }

    pub fn unsupported(&self, why: &str) -> PassFailure {
        self.fail(format!("cannot lower '{}' {} to linalg yet", self.name, why))
    }

    pub fn attr(&self, name: &str) -> Option<MlirAttribute> {
        // SAFETY: `self.raw` is the live op being lowered; the name outlives the call.
        let a = unsafe { mlirOperationGetAttributeByName(self.raw, sref(name)) };
        (!a.ptr.is_null()).then_some(a)
    }

    pub fn i64_attr(&self, name: &str) -> Option<i64> {
        let a = self.attr(name)?;
        // SAFETY: the value is read only after `mlirAttributeIsAInteger`.
        unsafe { mlirAttributeIsAInteger(a).then(|| mlirIntegerAttrGetValueInt(a)) }
    }

    /// `array<i64: ...>` or a dense integer elements attribute (splat or not).
    pub fn i64s(&self, name: &str) -> Option<Vec<i64>> {
        self.attr(name).and_then(i64s_of)
    }

    pub fn i64s_or(&self, name: &str, n: usize, default: i64) -> Vec<i64> {
        self.i64s(name).unwrap_or_else(|| vec![default; n])
    }

    /// `array<i1: ...>` as bools.
    pub fn bools(&self, name: &str) -> Option<Vec<bool>> {
        let a = self.attr(name)?;
        // SAFETY: the elements are read only after `mlirAttributeIsADenseBoolArray`, at indices
        // below its count.
        unsafe {
            if mlirAttributeIsADenseBoolArray(a) {
                let n = mlirDenseArrayGetNumElements(a);
                return Some((0..n).map(|i| mlirDenseBoolArrayGetElement(a, i)).collect());
            }
        }
        i64s_of(a).map(|v| v.into_iter().map(|x| x != 0).collect())
    }

    pub fn num_regions(&self) -> isize {
        // SAFETY: `self.raw` is the live op being lowered.
        unsafe { mlirOperationGetNumRegions(self.raw) }
    }

    pub fn region(&self, i: isize) -> MlirRegion {
        // SAFETY: `self.raw` is live; callers ask only for regions the op has by its definition
        // (region 0 of reduce, reduce_window, sort, scatter, map; 0 and 1 of select_and_scatter).
        unsafe { mlirOperationGetRegion(self.raw, i) }
    }
}

/// `affine_map<(d0, d1) -> (d1, 0)>`.
pub fn amap(ndims: usize, exprs: &[String]) -> String {
    let dims: Vec<String> = (0..ndims).map(|i| format!("d{i}")).collect();
    format!("affine_map<({}) -> ({})>", dims.join(", "), exprs.join(", "))
}

/// Every multi-index below `sizes`, row-major (the positions of a window).
pub fn multi_indices(sizes: &[i64]) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for &n in sizes {
        all = all.into_iter().flat_map(|p: Vec<i64>| (0..n).map(move |i| p.iter().copied().chain([i]).collect())).collect();
    }
    all
}

pub fn identity_map(n: usize) -> String {
    amap(n, &(0..n).map(|i| format!("d{i}")).collect::<Vec<_>>())
}

/// `[#linalg.iterator_type<parallel>, ...]` in the pretty form the parser takes.
pub fn iterators(kinds: &[&str]) -> String {
    format!("[{}]", kinds.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", "))
}

pub fn join(v: &[String]) -> String {
    v.join(", ")
}

/// The replacement being written for one op.
pub struct Tpl {
    pub arg_types: Vec<String>,
    pub lines: Vec<String>,
    n: usize,
    /// Arguments and results in the declared types ([`Tpl::new_decl`]).
    decl: bool,
}

/// A tensor value in a template with its type.
#[derive(Clone, Debug)]
pub struct TV {
    pub v: String,
    pub ty: Ty,
}

impl TV {
    pub fn new(v: impl Into<String>, ty: Ty) -> Self {
        Self { v: v.into(), ty }
    }
}

impl Tpl {
    pub fn new(op: &Op) -> Tpl {
        Tpl { arg_types: op.operands.iter().map(|t| t.t()).collect(), lines: Vec::new(), n: 0, decl: false }
    }

    /// A template whose arguments keep the declared types (`tensor<4xui32>`):
    /// for host-level ops (control flow) that only move values.
    pub fn new_decl(op: &Op) -> Tpl {
        Tpl { arg_types: op.operands.iter().map(|t| t.t_decl()).collect(), lines: Vec::new(), n: 0, decl: true }
    }

    pub fn arg(&self, i: usize) -> String {
        format!("%a{i}")
    }

    /// The op's operand `i` as a typed value.
    pub fn operand(&self, op: &Op, i: usize) -> TV {
        TV::new(self.arg(i), op.operands[i].clone())
    }

    pub fn fresh(&mut self) -> String {
        self.n += 1;
        format!("%v{}", self.n)
    }

    pub fn line(&mut self, s: impl Into<String>) {
        self.lines.push(s.into());
    }

    /// Emits `%vN = rhs` and returns `%vN`.
    pub fn v(&mut self, rhs: impl AsRef<str>) -> String {
        let v = self.fresh();
        self.lines.push(format!("{v} = {}", rhs.as_ref()));
        v
    }

    pub fn cst_index(&mut self, i: i64) -> String {
        self.v(format!("arith.constant {i} : index"))
    }

    /// `arith.constant` of a scalar attribute (`1.0e-05 : f32`, `3 : i32`,
    /// `true`), printed into the template as it is.
    pub fn cst_attr(&mut self, a: MlirAttribute) -> String {
        self.v(format!("arith.constant {}", attr_text(a)))
    }

    pub fn cst(&mut self, lit: impl std::fmt::Display, elem: &str) -> String {
        let lit = lit.to_string();
        if elem == "i1" {
            // i1 literals are spelled true/false (any integer: its low bit).
            let b = match lit.as_str() {
                "true" | "false" => lit,
                n => {
                    if n.parse::<i64>().map(|x| x & 1 == 1).unwrap_or(false) {
                        "true".into()
                    } else {
                        "false".into()
                    }
                }
            };
            return self.v(format!("arith.constant {b}"));
        }
        if let Some(part) = elem.strip_prefix("complex<").and_then(|p| p.strip_suffix('>')) {
            // A real literal as a complex number (imaginary part 0).
            let re = if lit.parse::<i64>().is_ok() { format!("{lit}.0") } else { lit };
            return self.v(format!("complex.constant [{re} : {part}, 0.0 : {part}] : {elem}"));
        }
        self.v(format!("arith.constant {lit} : {}", storage(elem)))
    }

    pub fn empty(&mut self, ty: &Ty) -> TV {
        let text = if self.decl { ty.t_decl() } else { ty.t() };
        let v = self.v(format!("tensor.empty() : {text}"));
        TV::new(v, ty.clone())
    }

    /// `linalg.fill` of a new tensor with a scalar.
    pub fn fill(&mut self, scalar: &str, ty: &Ty) -> TV {
        let e = self.empty(ty);
        let v = self.v(format!("linalg.fill ins({scalar} : {}) outs({} : {}) -> {}", ty.s(), e.v, ty.t(), ty.t()));
        TV::new(v, ty.clone())
    }

    /// The scalar of a 0-d tensor.
    pub fn extract0(&mut self, x: &TV) -> String {
        self.v(format!("tensor.extract {}[] : {}", x.v, x.ty.t()))
    }

    /// `tensor.extract %t[%i, ...]`.
    pub fn extract(&mut self, x: &TV, idx: &[String]) -> String {
        self.v(format!("tensor.extract {}[{}] : {}", x.v, join(idx), x.ty.t()))
    }

    /// `%t[%i...]` ← scalar.
    pub fn insert(&mut self, s: &str, x: &TV, idx: &[String]) -> TV {
        let v = self.v(format!("tensor.insert {s} into {}[{}] : {}", x.v, join(idx), x.ty.t()));
        TV::new(v, x.ty.clone())
    }

    /// A `linalg.generic`. `ins`/`outs` come with their indexing maps; the
    /// body gets the block arguments (ins then outs, as scalars) and returns
    /// the values to yield. Returns the results.
    pub fn generic(
        &mut self,
        ndims: usize,
        iters: &[&str],
        ins: &[(TV, String)],
        outs: &[(TV, String)],
        body: impl FnOnce(&mut Tpl, &[String]) -> R<Vec<String>>,
    ) -> R<Vec<TV>> {
        self.generic_attrs(ndims, iters, ins, outs, &[], body)
    }

    /// [`Tpl::generic`] with extra (discardable) attributes: `(name, value
    /// as MLIR text)`.
    pub fn generic_attrs(
        &mut self,
        ndims: usize,
        iters: &[&str],
        ins: &[(TV, String)],
        outs: &[(TV, String)],
        attrs: &[(&str, String)],
        body: impl FnOnce(&mut Tpl, &[String]) -> R<Vec<String>>,
    ) -> R<Vec<TV>> {
        let _ = ndims;
        let extra: String = attrs.iter().map(|(n, v)| format!(", {n} = {v}")).collect();
        let maps: Vec<String> = ins.iter().chain(outs.iter()).map(|(_, m)| m.clone()).collect();
        let args: Vec<String> = ins.iter().chain(outs.iter()).map(|_| self.fresh()).collect();
        let arg_decl: Vec<String> =
            ins.iter().chain(outs.iter()).zip(args.iter()).map(|((tv, _), a)| format!("{a}: {}", tv.ty.s())).collect();
        let ins_txt = if ins.is_empty() {
            String::new()
        } else {
            format!(
                " ins({} : {})",
                join(&ins.iter().map(|(t, _)| t.v.clone()).collect::<Vec<_>>()),
                join(&ins.iter().map(|(t, _)| t.ty.t()).collect::<Vec<_>>())
            )
        };
        let outs_txt = format!(
            " outs({} : {})",
            join(&outs.iter().map(|(t, _)| t.v.clone()).collect::<Vec<_>>()),
            join(&outs.iter().map(|(t, _)| t.ty.t()).collect::<Vec<_>>())
        );
        let res_tys: Vec<String> = outs.iter().map(|(t, _)| t.ty.t()).collect();
        let res = self.fresh();
        let header = format!(
            "{res}{} = linalg.generic {{indexing_maps = [{}], iterator_types = {}{extra}}}{ins_txt}{outs_txt} {{",
            if outs.len() > 1 { format!(":{}", outs.len()) } else { String::new() },
            join(&maps),
            iterators(iters)
        );
        self.line(header);
        self.line(format!("^bb0({}):", join(&arg_decl)));
        let ys = body(self, &args)?;
        let out_elems: Vec<String> = outs.iter().map(|(t, _)| t.ty.s()).collect();
        self.line(format!("linalg.yield {} : {}", join(&ys), join(&out_elems)));
        self.line(format!("}} -> ({})", join(&res_tys)));
        Ok(outs
            .iter()
            .enumerate()
            .map(|(i, (t, _))| TV::new(if outs.len() > 1 { format!("{res}#{i}") } else { res.clone() }, t.ty.clone()))
            .collect())
    }

    /// An elementwise `linalg.generic` over `out` (a shape + element type):
    /// every input has the output's shape or is 0-d (broadcast).
    pub fn map(&mut self, ins: &[TV], out: &Ty, body: impl FnOnce(&mut Tpl, &[String]) -> R<String>) -> R<TV> {
        let n = out.rank();
        let id = identity_map(n);
        let ins: Vec<(TV, String)> = ins
            .iter()
            .map(|t| {
                let m = if t.ty.rank() == 0 && n > 0 { amap(n, &[]) } else { id.clone() };
                (t.clone(), m)
            })
            .collect();
        let e = self.empty(out);
        let iters = vec!["parallel"; n];
        let r = self.generic(n, &iters, &ins, &[(e, id.clone())], |t, args| Ok(vec![body(t, &args[..args.len() - 1])?]))?;
        Ok(r.into_iter().next().unwrap())
    }

    /// The whole template as a `func.func` text returning `results`.
    pub fn text(&self, results: &[TV]) -> String {
        let args: Vec<String> = self.arg_types.iter().enumerate().map(|(i, t)| format!("%a{i}: {t}")).collect();
        let rtys: Vec<String> = results.iter().map(|r| if self.decl { r.ty.t_decl() } else { r.ty.t() }).collect();
        let mut s = format!("func.func @floors_linalg_tpl({}) -> ({}) {{\n", join(&args), join(&rtys));
        for l in &self.lines {
            s.push_str("  ");
            s.push_str(l);
            s.push('\n');
        }
        if results.is_empty() {
            s.push_str("  func.return\n}\n");
        } else {
            let vs: Vec<String> = results.iter().map(|r| r.v.clone()).collect();
            s.push_str(&format!("  func.return {} : {}\n}}\n", join(&vs), join(&rtys)));
        }
        s
    }
}

/// Replaces `op` by the template's body; returns the spliced top-level ops.
pub fn splice(op: &Op, tpl: &Tpl, results: &[TV]) -> R<Vec<MlirOperation>> {
    splice_with(op.raw, tpl, results, &[])
}

std::thread_local! {
    /// The templates parsed by this thread's current run of the pass, by text
    /// ([`TemplateCache`]).
    static TEMPLATES: std::cell::RefCell<Option<HashMap<String, MlirOperation>>> = const { std::cell::RefCell::new(None) };
}

/// Parsed templates reused within one run of the pass: programs repeat the
/// same op at the same types (layers, chains, unrolled loops), and cloning a
/// parsed, verified function is much cheaper than parsing its text again.
/// While the guard lives, [`splice_with`] parses each distinct text once on
/// this thread and splices clones; dropping it destroys the parsed originals
/// (detached functions the cache owns), so nothing outlives the pass's run or
/// crosses contexts.
pub struct TemplateCache(());

impl TemplateCache {
    pub fn install() -> Self {
        TEMPLATES.with(|t| *t.borrow_mut() = Some(HashMap::new()));
        Self(())
    }
}

impl Drop for TemplateCache {
    fn drop(&mut self) {
        let cached = TEMPLATES.with(|t| t.borrow_mut().take()).unwrap_or_default();
        for f in cached.into_values() {
            // SAFETY: each cached function was parsed by this thread during the run now ending, is detached (only its
            // clones were spliced) and owned by the cache alone; it is destroyed once, here.
            unsafe { mlirOperationDestroy(f) };
        }
    }
}

/// The template `text` as a detached `func.func` in `raw`'s context: parsed
/// (and checked) the first time this run of the pass sees the text, cloned
/// from the cache after (see [`TemplateCache`]). The caller owns the result.
fn parse_template(raw: MlirOperation, text: String) -> R<MlirOperation> {
    // SAFETY: `raw` is the live op being lowered; the text outlives the parse, which copies what it keeps; a cached
    // function was parsed in the same context (the cache lives for one run of the pass) and is only cloned, the
    // clone detached and handed to the caller, as is a fresh parse when nothing caches.
    unsafe {
        if let Some(parsed) = TEMPLATES.with(|t| t.borrow().as_ref().and_then(|m| m.get(&text).copied())) {
            return Ok(mlirOperationClone(parsed));
        }
        let f = mlirOperationCreateParse(mlirOperationGetContext(raw), sref(&text), sref("floors-linalg-lower-stablehlo-template"));
        if f.ptr.is_null() {
            return Err(fail(
                raw,
                format!("internal error: the lowering of '{}' produced IR that does not parse:\n{text}", op_name_raw(raw)),
            ));
        }
        let kept = TEMPLATES.with(|t| {
            t.borrow_mut().as_mut().map(|m| {
                m.insert(text, f);
            })
        });
        // Cached: hand out a clone, the cache keeps the parse.
        Ok(if kept.is_some() { mlirOperationClone(f) } else { f })
    }
}

/// Like [`splice`], with the op's operands given explicitly as values
/// (`operands`; empty means the op's own operands).
pub fn splice_with(raw: MlirOperation, tpl: &Tpl, results: &[TV], operands: &[MlirValue]) -> R<Vec<MlirOperation>> {
    let f = parse_template(raw, tpl.text(results))?;
    // SAFETY: `raw` is the live op being lowered, in a block; `f` the detached template this call owns (one argument
    // per operand, returning one value per result); the operands are `raw`'s own, below its count (no caller passes
    // others); the lowering never uses `raw` again.
    unsafe {
        let operands: Vec<MlirValue> = if operands.is_empty() {
            (0..mlirOperationGetNumOperands(raw)).map(|i| mlirOperationGetOperand(raw, i)).collect()
        } else {
            operands.to_vec()
        };
        let loc = mlirOperationGetLocation(raw);
        let (moved, ()) = floors_ir::ir::raw::splice_function_body(raw, f, &operands, Some(loc), |_| ());
        Ok(moved)
    }
}

/// Maps MLIR values to the scalar names a template uses for them.
#[derive(Default)]
pub struct ValueMap(pub HashMap<usize, String>);

impl ValueMap {
    pub fn set(&mut self, v: MlirValue, name: String) {
        self.0.insert(v.ptr as usize, name);
    }
    pub fn get(&self, v: MlirValue) -> Option<&String> {
        self.0.get(&(v.ptr as usize))
    }
}

/// The blocks of a region.
pub fn blocks(r: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    // SAFETY: `r` is a live region (callers pass regions of live ops).
    let mut b = unsafe { mlirRegionGetFirstBlock(r) };
    while !b.ptr.is_null() {
        out.push(b);
        // SAFETY: `b` is a live, non-null block of that region.
        b = unsafe { mlirBlockGetNextInRegion(b) };
    }
    out
}

/// The ops of a block.
pub fn block_ops(b: MlirBlock) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    // SAFETY: `b` is a live block (callers pass blocks of live regions).
    let mut o = unsafe { mlirBlockGetFirstOperation(b) };
    while !o.ptr.is_null() {
        out.push(o);
        // SAFETY: `o` is a live, non-null op of that block.
        o = unsafe { mlirOperationGetNextInBlock(o) };
    }
    out
}

impl Tpl {
    /// A nest of `scf.for` loops over `dims` (0..n step 1) carrying `inits`;
    /// `body` gets the induction variables and the carried tensors and returns
    /// the new ones. Returns the loop results (or `body`'s when `dims` is empty).
    pub fn for_nest(&mut self, dims: &[i64], inits: &[TV], body: impl FnOnce(&mut Tpl, &[String], &[TV]) -> R<Vec<TV>>) -> R<Vec<TV>> {
        let raw: Vec<(String, String)> = inits.iter().map(|x| (x.v.clone(), x.ty.t())).collect();
        let tys: Vec<Ty> = inits.iter().map(|x| x.ty.clone()).collect();
        let tys2 = tys.clone();
        let vs = self.for_nest_raw(dims, &raw, |t, ivs, cur| {
            let cur: Vec<TV> = cur.iter().zip(&tys2).map(|(v, ty)| TV::new(v.clone(), ty.clone())).collect();
            Ok(body(t, ivs, &cur)?.into_iter().map(|x| x.v).collect())
        })?;
        Ok(vs.into_iter().zip(tys).map(|(v, ty)| TV::new(v, ty)).collect())
    }

    /// [`Tpl::for_nest`] over values of any type: `inits` are (value, type).
    pub fn for_nest_raw(
        &mut self,
        dims: &[i64],
        inits: &[(String, String)],
        body: impl FnOnce(&mut Tpl, &[String], &[String]) -> R<Vec<String>>,
    ) -> R<Vec<String>> {
        let c0 = self.cst_index(0);
        let c1 = self.cst_index(1);
        self.nest_levels(dims, (&c0, &c1), inits, Vec::new(), body)
    }

    /// The loops of [`Tpl::for_nest_raw`] from `dims[0]` inwards, each one
    /// [`Tpl::for_range`] from `c0` step `c1`; `ivs` are the outer loops'.
    fn nest_levels(
        &mut self,
        dims: &[i64],
        (c0, c1): (&str, &str),
        inits: &[(String, String)],
        mut ivs: Vec<String>,
        body: impl FnOnce(&mut Tpl, &[String], &[String]) -> R<Vec<String>>,
    ) -> R<Vec<String>> {
        let Some((&n, inner)) = dims.split_first() else {
            let cur: Vec<String> = inits.iter().map(|x| x.0.clone()).collect();
            return body(self, &ivs, &cur);
        };
        let cn = self.cst_index(n);
        let tys: Vec<String> = inits.iter().map(|x| x.1.clone()).collect();
        self.for_range(c0, &cn, c1, inits, |t, iv, cur| {
            ivs.push(iv.to_string());
            let carried: Vec<(String, String)> = cur.iter().cloned().zip(tys).collect();
            t.nest_levels(inner, (c0, c1), &carried, ivs, body)
        })
    }

    /// One `scf.for {iv} = lb to ub step step` (SSA index values) carrying
    /// `inits` (value, type); `body` gets the induction variable and the
    /// carried values and returns the new ones. Returns the loop's results.
    pub fn for_range(
        &mut self,
        lb: &str,
        ub: &str,
        step: &str,
        inits: &[(String, String)],
        body: impl FnOnce(&mut Tpl, &str, &[String]) -> R<Vec<String>>,
    ) -> R<Vec<String>> {
        let k = inits.len();
        let tys: Vec<String> = inits.iter().map(|x| x.1.clone()).collect();
        let iv = self.fresh();
        let args: Vec<String> = inits.iter().map(|_| self.fresh()).collect();
        let res = self.fresh();
        let binds: Vec<String> = args.iter().zip(inits).map(|(a, c)| format!("{a} = {}", c.0)).collect();
        self.line(format!(
            "{res}{} = scf.for {iv} = {lb} to {ub} step {step} iter_args({}) -> ({}) {{",
            if k > 1 { format!(":{k}") } else { String::new() },
            join(&binds),
            join(&tys)
        ));
        let ys = body(self, &iv, &args)?;
        self.line(format!("scf.yield {} : {}", join(&ys), join(&tys)));
        self.line("}");
        Ok((0..k).map(|i| if k > 1 { format!("{res}#{i}") } else { res.clone() }).collect())
    }

    /// `scf.if` yielding tensors.
    pub fn if_tensors(
        &mut self,
        cond: &str,
        tys: &[Ty],
        then_: impl FnOnce(&mut Tpl) -> R<Vec<TV>>,
        else_: impl FnOnce(&mut Tpl) -> R<Vec<TV>>,
    ) -> R<Vec<TV>> {
        let ts: Vec<String> = tys.iter().map(|t| t.t()).collect();
        let values = |vs: Vec<TV>| vs.into_iter().map(|x| x.v).collect();
        let res = self.if_raw(cond, &ts, |t| then_(t).map(values), |t| else_(t).map(values))?;
        Ok(res.into_iter().zip(tys).map(|(v, t)| TV::new(v, t.clone())).collect())
    }

    /// `scf.if cond -> (tys)` over values of any type: each branch returns
    /// the values it yields.
    pub fn if_raw(
        &mut self,
        cond: &str,
        tys: &[String],
        then_: impl FnOnce(&mut Tpl) -> R<Vec<String>>,
        else_: impl FnOnce(&mut Tpl) -> R<Vec<String>>,
    ) -> R<Vec<String>> {
        let k = tys.len();
        let res = self.fresh();
        self.line(format!("{res}{} = scf.if {cond} -> ({}) {{", if k > 1 { format!(":{k}") } else { String::new() }, join(tys)));
        let a = then_(self)?;
        self.line(format!("scf.yield {} : {}", join(&a), join(tys)));
        self.line("} else {");
        let b = else_(self)?;
        self.line(format!("scf.yield {} : {}", join(&b), join(tys)));
        self.line("}");
        Ok((0..k).map(|i| if k > 1 { format!("{res}#{i}") } else { res.clone() }).collect())
    }

    /// An integer of type `elem` (signed or unsigned) → `index`.
    pub fn index_cast(&mut self, v: &str, elem: &str) -> String {
        let cast = if matches!(kind(elem), Kind::UInt(_)) { "arith.index_castui" } else { "arith.index_cast" };
        self.v(format!("{cast} {v} : {} to index", storage(elem)))
    }
}

/// Like [`splice`], calling `hook` with the spliced ops before the old op is
/// destroyed (to move its regions into the new ops).
pub fn splice_hook(op: &Op, tpl: &Tpl, results: &[TV], hook: impl FnOnce(&[MlirOperation]) -> R<()>) -> R<()> {
    let raw = op.raw;
    let f = parse_template(raw, tpl.text(results))?;
    // SAFETY: as in `splice_with`; `hook` runs before `raw` is destroyed.
    unsafe {
        let operands: Vec<MlirValue> = (0..mlirOperationGetNumOperands(raw)).map(|i| mlirOperationGetOperand(raw, i)).collect();
        let loc = mlirOperationGetLocation(raw);
        let (_, r) = floors_ir::ir::raw::splice_function_body(raw, f, &operands, Some(loc), hook);
        r
    }
}

/// Creates an op with operands and result types (no attributes) before `before`.
pub fn create_before(before: MlirOperation, name: &str, operands: &[MlirValue], results: &[MlirType]) -> MlirOperation {
    // SAFETY: callers pass a live `before` in a block (a region terminator), live operands and
    // result types; the state copies them; the created op is inserted into `before`'s block, which
    // owns it.
    unsafe {
        let loc = mlirOperationGetLocation(before);
        let mut st = mlirOperationStateGet(sref(name), loc);
        mlirOperationStateAddOperands(&mut st, operands.len() as isize, operands.as_ptr());
        mlirOperationStateAddResults(&mut st, results.len() as isize, results.as_ptr());
        let o = mlirOperationCreate(&mut st);
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, o);
        o
    }
}

pub fn operands_of(op: MlirOperation) -> Vec<MlirValue> {
    // SAFETY: callers pass live ops; `i` is below the operand count.
    unsafe { (0..mlirOperationGetNumOperands(op)).map(|i| mlirOperationGetOperand(op, i)).collect() }
}
