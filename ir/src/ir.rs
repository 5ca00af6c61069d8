//! Small IR helpers over melior/mlir-sys that several passes share.

use melior::ir::{
    BlockLike, OperationRef, RegionLike,
    operation::{OperationLike, OperationPrintingFlags},
};
use mlir_sys::MlirOperation;

/// The op's name as a Rust string.
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.name().as_string_ref().as_str().unwrap_or("<non-utf8>").to_string()
}

/// Every op nested in `root` (not `root` itself), pre-order, as raw handles,
/// collected first so callers may mutate the IR while using them.
pub fn collect_ops<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    mut keep: impl FnMut(OperationRef<'c, '_>) -> bool,
) -> Vec<MlirOperation> {
    let mut out = Vec::new();
    fn rec<'c>(op: OperationRef<'c, '_>, out: &mut Vec<MlirOperation>, keep: &mut dyn FnMut(OperationRef<'c, '_>) -> bool) {
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut inner = b.first_operation();
                while let Some(o) = inner {
                    if keep(o) {
                        out.push(o.to_raw());
                    }
                    rec(o, out, keep);
                    inner = o.next_in_block();
                }
                block = b.next_in_region();
            }
        }
    }
    // SAFETY: `root` is a live operation the caller borrows for the whole call; the `OperationRef` does not outlive
    // it.
    let r = unsafe { OperationRef::from_raw(root.to_raw()) };
    rec(r, &mut out, &mut keep);
    out
}

/// Prints an op in the pretty form with locations elided (what dumps and
/// snapshots show).
pub fn print_op<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.to_string_with_flags(OperationPrintingFlags::new()).unwrap_or_else(|_| op.to_string())
}

/// Raw-handle helpers for passes that restructure IR through the C API.
///
/// # Handles and safety
///
/// `MlirOperation`, `MlirValue`, `MlirAttribute`, ... are `Copy` pointers
/// with no lifetime: nothing stops a caller from keeping one after the IR it
/// points into was erased. Two kinds of helper live here:
/// - helpers that erase or replace IR, or run arbitrary rewrites, so that
///   handles the caller holds may dangle afterwards
///   ([`splice_function_body`], [`parse_and_splice`],
///   [`apply_transform_script`]), are `unsafe fn`s with a `# Safety` section;
///   they have a handful of call sites, each of which says why it holds;
/// - the readers ([`name`], [`attr`], [`operands`], [`block_ops`], ... used
///   at a few hundred call sites) stay safe functions: they check for null
///   handles and then return an empty answer (`""`, `None`, an empty `Vec`)
///   instead of passing null to MLIR, which would dereference it. A handle
///   that is non-null but dangling cannot be detected; the rule for it is
///   MLIR's own (a handle is valid while the IR it names lives) and every
///   pass keeps it by re-collecting handles after a rewrite. Marking the
///   readers `unsafe` would put an `unsafe` block at every one of those call
///   sites without checking anything more.
pub mod raw {
    use mlir_sys::*;

    /// A string reference to `s` for the C API (valid while `s` lives).
    pub fn sref(s: &str) -> MlirStringRef {
        MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
    }

    /// The text of a string reference the C API returned (an identifier, a
    /// string attribute's value, a printer chunk): owned by MLIR and valid
    /// while what it came from lives, which is the case for every reference
    /// the C API hands out during a call. Empty for a null reference.
    pub fn string(s: MlirStringRef) -> String {
        if s.data.is_null() {
            return String::new();
        }
        // SAFETY: `s.data` is non-null (checked above) and, by the C API's contract for the references it hands out,
        // points at `s.length` bytes valid while what it came from lives, which covers this call.
        let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
        String::from_utf8_lossy(bytes).into_owned()
    }

    /// The printer callback of [`attr_text`] and [`type_text`]: appends one
    /// chunk of the printed text to the `String` that `data` points at.
    ///
    /// # Safety
    ///
    /// `data` must point at a live `String` that nothing else accesses during
    /// the call, and `s` must be a valid string reference (MLIR's printer
    /// passes a chunk it owns for the call).
    unsafe extern "C" fn print_cb(s: MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `&mut String` that `attr_text`/`type_text` pass to the print call running this
        // callback; nothing else touches that string meanwhile.
        let out = unsafe { &mut *(data as *mut String) };
        out.push_str(&string(s));
    }

    /// An attribute as MLIR prints it (for diagnostics and IR templates, never
    /// to read information back), `<<NULL ATTRIBUTE>>` for a null handle.
    pub fn attr_text(a: MlirAttribute) -> String {
        if a.ptr.is_null() {
            return "<<NULL ATTRIBUTE>>".into();
        }
        let mut s = String::new();
        // SAFETY: `a` is non-null (checked above) and live by the handle rule of this module; `print_cb` is given the
        // local `s`, which outlives the synchronous print.
        unsafe { mlirAttributePrint(a, Some(print_cb), &mut s as *mut String as *mut _) };
        s
    }

    /// The structure of `op` as a sequence of numbers: for `op` and every op
    /// nested in it (pre-order), its name, its attributes (names and
    /// values), its result types, its operands (as the numbers of the values
    /// they use, numbered in order of first appearance), its successors and
    /// its regions (blocks, their argument types, their ops). Names, types
    /// and attributes are uniqued in the context, so they enter as their
    /// handles: two ops of one context have the same sequence exactly when
    /// they are the same IR up to locations and value names (what kernel
    /// deduplication compares). The attributes of `op` itself named in `skip`
    /// are left out (e.g. `sym_name`). Empty for a null handle.
    pub fn structure(op: MlirOperation, skip: &[&str]) -> Vec<usize> {
        #[derive(Default)]
        struct Walk {
            out: Vec<usize>,
            values: std::collections::HashMap<usize, usize>,
            blocks: std::collections::HashMap<usize, usize>,
        }
        impl Walk {
            fn value(&mut self, v: MlirValue) {
                let next = self.values.len();
                let id = *self.values.entry(v.ptr as usize).or_insert(next);
                self.out.push(id);
            }
            /// A value defined here (a result, a block argument): its type, then its number.
            fn def(&mut self, v: MlirValue) {
                // SAFETY: `v` is a live result or block argument of the op being walked; only its type is read.
                self.out.push(unsafe { mlirValueGetType(v) }.ptr as usize);
                self.value(v);
            }
            fn op(&mut self, op: MlirOperation, skip: &[&str]) {
                // SAFETY: `op` is a live op (the caller's, or one nested in it); every index is below the count read
                // just before; regions, blocks and ops come from the live op and are only read.
                unsafe {
                    self.out.push(mlirOperationGetName(op).ptr as usize);
                    let n = mlirOperationGetNumAttributes(op);
                    for i in 0..n {
                        let a = mlirOperationGetAttribute(op, i);
                        if !skip.is_empty() && skip.contains(&string(mlirIdentifierStr(a.name)).as_str()) {
                            continue;
                        }
                        self.out.extend([a.name.ptr as usize, a.attribute.ptr as usize]);
                    }
                    self.out.push(usize::MAX);
                    let n = mlirOperationGetNumOperands(op);
                    self.out.push(n as usize);
                    for i in 0..n {
                        self.value(mlirOperationGetOperand(op, i));
                    }
                    let n = mlirOperationGetNumResults(op);
                    self.out.push(n as usize);
                    for i in 0..n {
                        self.def(mlirOperationGetResult(op, i));
                    }
                    let n = mlirOperationGetNumSuccessors(op);
                    self.out.push(n as usize);
                    for i in 0..n {
                        let b = mlirOperationGetSuccessor(op, i).ptr as usize;
                        self.out.push(self.blocks.get(&b).copied().unwrap_or(usize::MAX));
                    }
                    let n = mlirOperationGetNumRegions(op);
                    self.out.push(n as usize);
                    for i in 0..n {
                        let r = mlirOperationGetRegion(op, i);
                        // Blocks are numbered before their ops, as a branch may name a later block.
                        let mut bs = Vec::new();
                        let mut b = mlirRegionGetFirstBlock(r);
                        while !b.ptr.is_null() {
                            let next = self.blocks.len();
                            self.blocks.insert(b.ptr as usize, next);
                            bs.push(b);
                            b = mlirBlockGetNextInRegion(b);
                        }
                        self.out.push(bs.len());
                        for b in bs {
                            let n = mlirBlockGetNumArguments(b);
                            self.out.push(n as usize);
                            for k in 0..n {
                                self.def(mlirBlockGetArgument(b, k));
                            }
                            let mut o = mlirBlockGetFirstOperation(b);
                            while !o.ptr.is_null() {
                                self.op(o, &[]);
                                o = mlirOperationGetNextInBlock(o);
                            }
                            self.out.push(usize::MAX);
                        }
                    }
                }
            }
        }
        if op.ptr.is_null() {
            return Vec::new();
        }
        let mut w = Walk::default();
        w.op(op, skip);
        w.out
    }

    /// A type as MLIR prints it (for diagnostics and IR templates, never to
    /// read information back), `<<NULL TYPE>>` for a null handle.
    pub fn type_text(t: MlirType) -> String {
        if t.ptr.is_null() {
            return "<<NULL TYPE>>".into();
        }
        let mut s = String::new();
        // SAFETY: `t` is non-null (checked above) and live by the handle rule of this module; `print_cb` is given the
        // local `s`, which outlives the synchronous print.
        unsafe { mlirTypePrint(t, Some(print_cb), &mut s as *mut String as *mut _) };
        s
    }

    /// Parses `text` (one `func.func`) in `op`'s context and splices its body
    /// in place of `op` (see [`splice_function_body`]), every new op at
    /// `op`'s location. The spliced ops, or the text when it does not parse.
    ///
    /// # Safety
    ///
    /// `op` must be a live operation in a block, `operands` live values that
    /// dominate it (one per argument of the parsed function, as in
    /// [`splice_function_body`]). On success `op` is destroyed: the caller
    /// must not use `op`, or any handle into it, afterwards.
    pub unsafe fn parse_and_splice(
        op: MlirOperation,
        text: &str,
        operands: &[MlirValue],
        source: &str,
    ) -> Result<Vec<MlirOperation>, String> {
        // SAFETY: `op` is live (the caller's contract), so its context is; `text` and `source` outlive the parse,
        // which copies what it keeps. `f` is non-null and detached, owned here until `splice_function_body` consumes
        // it; that call needs `f` to have an entry block ending in a terminator, which holds when `text` is one
        // `func.func` with a body, as documented (not checked here); `operands` is the caller's contract.
        unsafe {
            let f = mlirOperationCreateParse(mlirOperationGetContext(op), sref(text), sref(source));
            if f.ptr.is_null() {
                return Err(text.to_string());
            }
            let loc = mlirOperationGetLocation(op);
            Ok(splice_function_body(op, f, operands, Some(loc), |_| ()).0)
        }
    }

    /// Applies the transform script `text` (a module holding one
    /// `transform.named_sequence`) to `root`; the script is parsed in a
    /// separate module, so nothing of it stays in the IR. Err: the text when it
    /// does not parse, or None when a transform failed (MLIR reported why).
    ///
    /// # Safety
    ///
    /// `root` must be a live operation. The script may erase and replace any
    /// op nested in `root`: the caller must not use handles into `root` taken
    /// before the call (re-collect them, e.g. by attribute, afterwards).
    pub unsafe fn apply_transform_script(root: MlirOperation, text: &str, source: &str) -> Result<(), Option<String>> {
        // SAFETY: `root` is live (the caller's contract) and the script is parsed in its context from strings that
        // outlive the call; `transform` is non-null, detached and owned here, and is destroyed (as are `options`)
        // after its last use. Region 0 of `transform`, its first block and that block's first op exist when `text` is
        // a module holding the named sequence, as documented (not checked here).
        unsafe {
            let transform = mlirOperationCreateParse(mlirOperationGetContext(root), sref(text), sref(source));
            if transform.ptr.is_null() {
                return Err(Some(text.to_string()));
            }
            let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(transform, 0));
            let entry = mlirBlockGetFirstOperation(body);
            let options = mlirTransformOptionsCreate();
            let result = mlirTransformApplyNamedSequence(root, entry, transform, options);
            mlirTransformOptionsDestroy(options);
            mlirOperationDestroy(transform);
            if result.value == 0 { Err(None) } else { Ok(()) }
        }
    }

    std::thread_local! {
        /// The diagnostics this thread emits inside [`with_quiet_diagnostics`].
        static QUIET: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
    }

    /// The diagnostic handler of [`with_quiet_diagnostics`]: takes the
    /// diagnostic when this thread is in a quiet attempt.
    ///
    /// # Safety
    ///
    /// `d` must be a diagnostic being handled, valid for the call (as MLIR's
    /// diagnostic engine passes it); the user data is not read.
    unsafe extern "C" fn quiet_handler(d: MlirDiagnostic, _user: *mut std::ffi::c_void) -> MlirLogicalResult {
        /// Appends one printed chunk of the diagnostic to the `String` at `user`.
        ///
        /// # Safety
        ///
        /// `user` must point at a live `String` that nothing else accesses
        /// during the call, and `s` must be a valid string reference.
        unsafe extern "C" fn append(s: MlirStringRef, user: *mut std::ffi::c_void) {
            // SAFETY: `user` is the `String` below, alive for the print.
            unsafe { &mut *user.cast::<String>() }.push_str(&string(s));
        }
        let handled = QUIET.with(|q| {
            let mut q = q.borrow_mut();
            let Some(sink) = q.as_mut() else { return false };
            let mut text = String::new();
            // SAFETY: `d` is the diagnostic being handled, valid during this
            // call; `append` only writes to `text`.
            unsafe { mlirDiagnosticPrint(d, Some(append), (&mut text as *mut String).cast()) };
            sink.push(text);
            true
        });
        MlirLogicalResult { value: i8::from(handled) }
    }

    /// Runs `f` with the diagnostics this thread emits meanwhile taken
    /// (not reported) and returned as text: for an attempt whose failure the
    /// caller recovers from. Diagnostics of other threads (a pass manager
    /// running sibling functions) pass through: the handler is the context's
    /// newest, and it asks whether the emitting thread is in an attempt.
    pub fn with_quiet_diagnostics<T>(ctx: MlirContext, f: impl FnOnce() -> T) -> (T, Vec<String>) {
        let outer = QUIET.with(|q| q.replace(Some(Vec::new())));
        // SAFETY: `ctx` is live (the caller holds IR of it); the handler
        // reads no user data and is detached before returning.
        let id = unsafe { mlirContextAttachDiagnosticHandler(ctx, Some(quiet_handler), std::ptr::null_mut(), None) };
        let value = f();
        // SAFETY: `id` was attached to `ctx` above.
        unsafe { mlirContextDetachDiagnosticHandler(ctx, id) };
        let taken = QUIET.with(|q| q.replace(outer)).unwrap_or_default();
        (value, taken)
    }

    /// A copy of an op to return to when a transformation of it fails.
    pub struct Snapshot(MlirOperation);

    impl Snapshot {
        /// Copies `op` (detached, with its regions).
        ///
        /// # Safety
        ///
        /// `op` must be a live operation.
        pub unsafe fn of(op: MlirOperation) -> Self {
            // SAFETY: the caller guarantees `op` is live (see `# Safety`); the clone is detached and owned by the
            // snapshot alone.
            Self(unsafe { mlirOperationClone(op) })
        }

        /// Puts the copied regions' contents back into `op`, which must be the
        /// op (or an op with as many regions) the snapshot was taken of.
        ///
        /// # Safety
        ///
        /// `op` must be a live operation; handles into its regions taken
        /// before are invalid afterwards.
        pub unsafe fn restore(self, op: MlirOperation) {
            // SAFETY: `self.0` is the snapshot's own live clone; `op` is live with as many regions (the caller's
            // contract), so every index is below both region counts.
            unsafe {
                for i in 0..mlirOperationGetNumRegions(self.0) {
                    mlirRegionTakeBody(mlirOperationGetRegion(op, i), mlirOperationGetRegion(self.0, i));
                }
            }
        }
    }

    impl Drop for Snapshot {
        fn drop(&mut self) {
            // SAFETY: the clone is detached and owned by this snapshot alone.
            unsafe { mlirOperationDestroy(self.0) };
        }
    }

    /// The op's name (`stablehlo.add`); empty for a null handle.
    pub fn name(op: MlirOperation) -> String {
        if op.ptr.is_null() {
            return String::new();
        }
        // SAFETY: `op` is non-null (checked above) and live by the handle rule; the name's text lives in the context
        // and is copied at once.
        unsafe { string(mlirIdentifierStr(mlirOperationGetName(op))) }
    }

    /// The attribute `name` of `op`; None when absent or `op` is null.
    pub fn attr(op: MlirOperation, name: &str) -> Option<MlirAttribute> {
        if op.ptr.is_null() {
            return None;
        }
        // SAFETY: `op` is non-null (checked above); `name` outlives the call. A missing attribute comes back null.
        let a = unsafe { mlirOperationGetAttributeByName(op, sref(name)) };
        (!a.ptr.is_null()).then_some(a)
    }

    /// An integer attribute of `op` as an i64; None when absent or not an integer.
    pub fn int_attr(op: MlirOperation, name: &str) -> Option<i64> {
        let a = attr(op, name)?;
        // SAFETY: `a` is non-null (from `attr`); the value is read only once `a` is known to be an integer attribute.
        unsafe { mlirAttributeIsAInteger(a).then(|| mlirIntegerAttrGetValueInt(a)) }
    }

    /// A string attribute of `op`; None when it is missing or not a string.
    pub fn str_attr(op: MlirOperation, name: &str) -> Option<String> {
        let a = attr(op, name)?;
        // SAFETY: `a` is non-null (from `attr`); its value is read only once `a` is known to be a string attribute.
        unsafe { mlirAttributeIsAString(a).then(|| string(mlirStringAttrGetValue(a))) }
    }

    /// An integer-array attribute of `op` as a Vec (see [`i64s_of`]).
    pub fn i64_array(op: MlirOperation, name: &str) -> Option<Vec<i64>> {
        i64s_of(attr(op, name)?)
    }

    /// `operand_layouts` / `result_layouts` of a custom call: one
    /// `minor_to_major` list per value; None when absent or not an array of
    /// integer lists.
    pub fn layouts(op: MlirOperation, name: &str) -> Option<Vec<Vec<i64>>> {
        let a = attr(op, name)?;
        // SAFETY: `a` is a non-null attribute of `op`; its elements are read only once it is an ArrayAttr, each index
        // below the count just read.
        unsafe {
            if !mlirAttributeIsAArray(a) {
                return None;
            }
            (0..mlirArrayAttrGetNumElements(a)).map(|i| i64s_of(mlirArrayAttrGetElement(a, i))).collect()
        }
    }

    /// Integers of a DenseI64Array, a dense int elements attr (any width,
    /// splats expanded) or an array of IntegerAttrs; None for a null handle.
    pub fn i64s_of(a: MlirAttribute) -> Option<Vec<i64>> {
        if a.ptr.is_null() {
            return None;
        }
        // SAFETY: `a` is non-null (checked above); each getter runs only after the kind check it assumes, and every
        // index is below the element count just read (a splat through its splat value). The dense element getter
        // matches the element width: i1/i8/i16/i32 use theirs, i64 and index the 64-bit one; other widths are not read.
        unsafe {
            if mlirAttributeIsADenseI64Array(a) {
                let n = mlirDenseArrayGetNumElements(a);
                return Some((0..n).map(|i| mlirDenseI64ArrayGetElement(a, i)).collect());
            }
            if mlirAttributeIsADenseIntElements(a) {
                let n = mlirElementsAttrGetNumElements(a);
                if mlirDenseElementsAttrIsSplat(a) {
                    let v = mlirIntegerAttrGetValueInt(mlirDenseElementsAttrGetSplatValue(a));
                    return Some(vec![v; n as usize]);
                }
                let et = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
                // index elements are stored as 64 bits; an integer width with
                // no getter (i4, i128) is not read at all.
                let w = if mlirTypeIsAInteger(et) { mlirIntegerTypeGetWidth(et) } else { 64 };
                if ![1, 8, 16, 32, 64].contains(&w) {
                    return None;
                }
                return Some(
                    (0..n)
                        .map(|i| match w {
                            1 => mlirDenseElementsAttrGetBoolValue(a, i as isize) as i64,
                            8 => mlirDenseElementsAttrGetInt8Value(a, i as isize) as i64,
                            16 => mlirDenseElementsAttrGetInt16Value(a, i as isize) as i64,
                            32 => mlirDenseElementsAttrGetInt32Value(a, i as isize) as i64,
                            _ => mlirDenseElementsAttrGetInt64Value(a, i as isize),
                        })
                        .collect(),
                );
            }
            if mlirAttributeIsAArray(a) {
                let n = mlirArrayAttrGetNumElements(a);
                let mut out = Vec::new();
                for i in 0..n {
                    let e = mlirArrayAttrGetElement(a, i);
                    if !mlirAttributeIsAInteger(e) {
                        return None;
                    }
                    out.push(mlirIntegerAttrGetValueInt(e));
                }
                return Some(out);
            }
        }
        None
    }

    /// Replaces `op` by the body of `func`, a detached single-block function
    /// whose arguments stand for `operands` and whose terminator yields the
    /// values that replace `op`'s results (inlining, and the CPU lowering's
    /// templates). With `loc`, every spliced op takes that location. `hook`
    /// sees the spliced ops before `op` is destroyed. `func` is destroyed too.
    ///
    /// # Safety
    ///
    /// `op` must be a live operation in a block, with at least as many
    /// results as `func`'s terminator has operands; `func` a live, detached
    /// operation with one region whose entry block ends in a terminator;
    /// `operands` live values that dominate `op`. Both `op` and `func` are
    /// destroyed: the caller must not use them, or any handle into them other
    /// than the returned (moved) ops, afterwards.
    pub unsafe fn splice_function_body<T>(
        op: MlirOperation,
        func: MlirOperation,
        operands: &[MlirValue],
        loc: Option<MlirLocation>,
        hook: impl FnOnce(&[MlirOperation]) -> T,
    ) -> (Vec<MlirOperation>, T) {
        // SAFETY: the caller guarantees (see `# Safety`) that `op` is live in a block, `func` live and detached with
        // an entry block that ends in a terminator, and `operands` live values that dominate `op`. Argument indices
        // are below the entry block's argument count; moved ops go before `op` into its block, which takes them; each
        // result index `j` is below `op`'s result count and, by the contract, below the terminator's operand count;
        // `op` and `func` are destroyed once, after their last use.
        unsafe {
            let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
            for (i, &v) in operands.iter().enumerate().take(mlirBlockGetNumArguments(body) as usize) {
                mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i as isize), v);
            }
            let term = mlirBlockGetTerminator(body);
            let mut moved = Vec::new();
            let mut o = mlirBlockGetFirstOperation(body);
            while !o.ptr.is_null() && o.ptr != term.ptr {
                let next = mlirOperationGetNextInBlock(o);
                mlirOperationMoveBefore(o, op);
                if let Some(loc) = loc {
                    set_location_recursive(o, loc);
                }
                moved.push(o);
                o = next;
            }
            let r = hook(&moved);
            for j in 0..mlirOperationGetNumResults(op) {
                mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, j), mlirOperationGetOperand(term, j));
            }
            mlirOperationDestroy(op);
            mlirOperationDestroy(func);
            (moved, r)
        }
    }

    /// Sets the location of `op` and of everything nested in it.
    pub fn set_location_recursive(op: MlirOperation, loc: MlirLocation) {
        if op.ptr.is_null() || loc.ptr.is_null() {
            return;
        }
        // SAFETY: `op` and `loc` are non-null (checked above) and live by the handle rule.
        unsafe { mlirOperationSetLocation(op, loc) };
        for b in region_blocks(op) {
            for inner in block_ops(b) {
                set_location_recursive(inner, loc);
            }
        }
    }

    /// The op's operands; empty for a null handle.
    pub fn operands(op: MlirOperation) -> Vec<MlirValue> {
        if op.ptr.is_null() {
            return Vec::new();
        }
        // SAFETY: `op` is non-null (checked above); every index is below the operand count just read.
        unsafe { (0..mlirOperationGetNumOperands(op)).map(|i| mlirOperationGetOperand(op, i)).collect() }
    }

    /// The op's results; empty for a null handle.
    pub fn results(op: MlirOperation) -> Vec<MlirValue> {
        if op.ptr.is_null() {
            return Vec::new();
        }
        // SAFETY: `op` is non-null (checked above); every index is below the result count just read.
        unsafe { (0..mlirOperationGetNumResults(op)).map(|i| mlirOperationGetResult(op, i)).collect() }
    }

    /// The op defining `v`, or None for a block argument or a null handle.
    pub fn producer(v: MlirValue) -> Option<MlirOperation> {
        if v.ptr.is_null() {
            return None;
        }
        // SAFETY: `v` is non-null (checked above); the owner is asked only of an op result.
        unsafe { mlirValueIsAOpResult(v).then(|| mlirOpResultGetOwner(v)) }
    }

    /// (owner op, operand index) of every use of `v`; empty for a null handle.
    pub fn uses(v: MlirValue) -> Vec<(MlirOperation, isize)> {
        let mut out = Vec::new();
        if v.ptr.is_null() {
            return out;
        }
        // SAFETY: `v` is non-null (checked above); each use is checked non-null before it is read, and the walk
        // changes nothing.
        unsafe {
            let mut u = mlirValueGetFirstUse(v);
            while !u.ptr.is_null() {
                out.push((mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u) as isize));
                u = mlirOpOperandGetNextUse(u);
            }
        }
        out
    }

    /// Static shape of a ranked tensor value (None if unranked, dynamic or
    /// a null handle).
    pub fn shape(v: MlirValue) -> Option<Vec<i64>> {
        if v.ptr.is_null() {
            return None;
        }
        // SAFETY: `v` is non-null (checked above).
        type_shape(unsafe { mlirValueGetType(v) })
    }

    /// Static shape of a ranked tensor type (None if unranked, dynamic or a
    /// null handle).
    pub fn type_shape(t: MlirType) -> Option<Vec<i64>> {
        if t.ptr.is_null() {
            return None;
        }
        // SAFETY: `t` is non-null (checked above); the shape is read only of a ranked tensor type, and every index is
        // below its rank.
        unsafe {
            if !mlirTypeIsARankedTensor(t) {
                return None;
            }
            let rank = mlirShapedTypeGetRank(t);
            let dims: Vec<i64> = (0..rank).map(|i| mlirShapedTypeGetDimSize(t, i as isize)).collect();
            if dims.iter().any(|&d| d < 0) { None } else { Some(dims) }
        }
    }

    /// Bytes of one element of a tensor type (i1 counts as one byte); 0 for
    /// a null handle.
    pub fn element_bytes(t: MlirType) -> u64 {
        if t.ptr.is_null() {
            return 0;
        }
        // SAFETY: `t` is non-null (checked above); each getter runs only after the kind check it assumes (the element
        // type only of a shaped type).
        unsafe {
            let e = if mlirTypeIsAShaped(t) { mlirShapedTypeGetElementType(t) } else { t };
            if mlirTypeIsAInteger(e) {
                return (mlirIntegerTypeGetWidth(e) as u64).div_ceil(8).max(1);
            }
            if mlirTypeIsAFloat(e) {
                return (mlirFloatTypeGetWidth(e) as u64).div_ceil(8);
            }
            if mlirTypeIsAIndex(e) {
                return 8;
            }
            if mlirTypeIsAComplex(e) {
                return 2 * element_bytes(mlirComplexTypeGetElementType(e));
            }
            4
        }
    }

    /// Bytes of a statically shaped tensor value (0 when unknown).
    pub fn value_bytes(v: MlirValue) -> u64 {
        if v.ptr.is_null() {
            return 0;
        }
        // SAFETY: `v` is non-null (checked above).
        let t = unsafe { mlirValueGetType(v) };
        match type_shape(t) {
            Some(s) => s.iter().product::<i64>().max(0) as u64 * element_bytes(t),
            None => 0,
        }
    }

    /// Elements of a statically shaped tensor value (see [`shape`]).
    pub fn num_elements(v: MlirValue) -> Option<i64> {
        shape(v).map(|s| s.iter().product())
    }

    /// The block that holds `op`; a null block when `op` is detached or null.
    pub fn block_of(op: MlirOperation) -> MlirBlock {
        if op.ptr.is_null() {
            return MlirBlock { ptr: std::ptr::null_mut() };
        }
        // SAFETY: `op` is non-null (checked above).
        unsafe { mlirOperationGetBlock(op) }
    }

    /// Ops of a block in order (the terminator included); empty for a null block.
    pub fn block_ops(block: MlirBlock) -> Vec<MlirOperation> {
        let mut out = Vec::new();
        if block.ptr.is_null() {
            return out;
        }
        // SAFETY: `block` is non-null (checked above); each op is checked non-null before it is used.
        unsafe {
            let mut op = mlirBlockGetFirstOperation(block);
            while !op.ptr.is_null() {
                out.push(op);
                op = mlirOperationGetNextInBlock(op);
            }
        }
        out
    }

    /// Blocks of every region of `op`; empty for a null handle.
    pub fn region_blocks(op: MlirOperation) -> Vec<MlirBlock> {
        let mut out = Vec::new();
        if op.ptr.is_null() {
            return out;
        }
        // SAFETY: `op` is non-null (checked above); every region index is below the count just read, and each block
        // is checked non-null before it is used.
        unsafe {
            for r in 0..mlirOperationGetNumRegions(op) {
                let region = mlirOperationGetRegion(op, r);
                let mut b = mlirRegionGetFirstBlock(region);
                while !b.ptr.is_null() {
                    out.push(b);
                    b = mlirBlockGetNextInRegion(b);
                }
            }
        }
        out
    }

    /// True if `inner` is `outer` or nested anywhere inside it (false when
    /// either is null).
    pub fn is_within(inner: MlirOperation, outer: MlirOperation) -> bool {
        if outer.ptr.is_null() {
            return false;
        }
        let mut cur = inner;
        // SAFETY: `outer` is non-null (checked above) and `cur` is checked non-null before each use; the walk only
        // reads parents.
        unsafe {
            while !cur.ptr.is_null() {
                if cur.ptr == outer.ptr {
                    return true;
                }
                cur = mlirOperationGetParentOperation(cur);
            }
        }
        false
    }

    /// True if every value used inside `op`'s regions is defined inside `op`
    /// (so the op can move into an isolated-from-above fusion).
    pub fn regions_are_closed(op: MlirOperation) -> bool {
        let mut ok = true;
        fn visit(root: MlirOperation, cur: MlirOperation, ok: &mut bool) {
            for b in region_blocks(cur) {
                for inner in block_ops(b) {
                    for v in operands(inner) {
                        if v.ptr.is_null() {
                            continue;
                        }
                        // SAFETY: `v` is a non-null (checked above) operand of a live op; a value is either an op
                        // result or a block argument, and each owner getter is called only for its kind.
                        let def_owner = unsafe {
                            if mlirValueIsAOpResult(v) {
                                mlirOpResultGetOwner(v)
                            } else {
                                mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))
                            }
                        };
                        if !is_within(def_owner, root) {
                            *ok = false;
                        }
                    }
                    visit(root, inner, ok);
                }
            }
        }
        visit(op, op, &mut ok);
        ok
    }

    /// Whether two handles name the same value (compares pointers only).
    pub fn same_value(a: MlirValue, b: MlirValue) -> bool {
        a.ptr == b.ptr
    }

    /// `file:line:col` of `op`'s location, `<unknown>` without one or for a
    /// null handle.
    pub fn location_string(op: MlirOperation) -> String {
        if op.ptr.is_null() {
            return "<unknown>".into();
        }
        // SAFETY: `op` is non-null (checked above); the location lives in the op's context, and the wrapper is only
        // read by `source_pos`.
        let loc = unsafe { melior::ir::Location::from_raw(mlirOperationGetLocation(op)) };
        match crate::diagnostics::source_pos(loc) {
            Some(p) => format!("{}:{}:{}", p.file, p.line, p.column),
            None => "<unknown>".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::raw;

    fn attr(ctx: &melior::Context, text: &str) -> mlir_sys::MlirAttribute {
        // SAFETY: `ctx` is live and the text outlives the call (MLIR copies it).
        unsafe { mlir_sys::mlirAttributeParseGet(ctx.to_raw(), raw::sref(text)) }
    }

    #[test]
    fn dense_integers_are_read_at_their_width() {
        let ctx = crate::context::create_context();
        assert_eq!(raw::i64s_of(attr(&ctx, "dense<[true, false, true]> : tensor<3xi1>")), Some(vec![1, 0, 1]));
        assert_eq!(raw::i64s_of(attr(&ctx, "dense<[-1, 2]> : tensor<2xi8>")), Some(vec![-1, 2]));
        assert_eq!(raw::i64s_of(attr(&ctx, "dense<[7, -9]> : tensor<2xi64>")), Some(vec![7, -9]));
        assert_eq!(raw::i64s_of(attr(&ctx, "dense<[3, 4]> : tensor<2xindex>")), Some(vec![3, 4]));
        assert_eq!(raw::i64s_of(attr(&ctx, "array<i64: 5, 6>")), Some(vec![5, 6]));
        // A width with no getter is not read (rather than read past the data).
        assert_eq!(raw::i64s_of(attr(&ctx, "dense<[1, 2]> : tensor<2xi4>")), None);
    }

    #[test]
    fn string_attributes_are_checked_before_read() {
        let ctx = crate::context::create_context();
        let module = crate::source::parse_module(&ctx, "t.mlir", "module attributes {test.a = \"x\", test.b = 3 : i64} {}").unwrap();
        let op = melior::ir::operation::OperationLike::to_raw(&module.as_operation());
        assert_eq!(raw::str_attr(op, "test.a").as_deref(), Some("x"));
        assert_eq!(raw::str_attr(op, "test.b"), None);
        assert_eq!(raw::str_attr(op, "missing"), None);
    }
}
