//! A small stablehlo op builder on the C API, shared by the HLO passes that
//! expand one op into several (`floors-hlo-legalize-chlo`,
//! `floors-hlo-expand-rng-bit-generator`): every method inserts one op and
//! returns its result; the verifier after the pass checks what was built.

use std::ffi::CString;

use melior::{dialect::DialectHandle, ir::Type};
use mlir_sys::*;

use floors_ir::pass::PassFailure;

/// The stablehlo dialect, which the expanding passes create ops of.
pub(super) fn stablehlo_dialect() -> Vec<DialectHandle> {
    // SAFETY: the getter takes nothing and returns the dialect's static handle.
    vec![unsafe { DialectHandle::from_raw(floors_ir::capi::mlirGetDialectHandle__stablehlo__()) }]
}

/// Replaces each of `ops` by the values `expand` builds before it (with a
/// builder typed by the op's first result), result for result. An op
/// `expand` refuses stays and gets a located error.
pub(super) fn expand_each(
    pass: &str,
    ops: Vec<MlirOperation>,
    mut expand: impl FnMut(&B, MlirOperation) -> Result<Vec<MlirValue>, String>,
) -> Result<(), PassFailure> {
    let Some(&first) = ops.first() else { return Ok(()) };
    // SAFETY: `first` is one of `ops`, live ops the pass collected from the IR it runs on.
    let ctx = unsafe { mlirOperationGetContext(first) };
    let Some(enums) = Enums::build(ctx) else {
        // SAFETY: as above: `first` is live.
        let loc = unsafe { mlirOperationGetLocation(first) };
        return Err(PassFailure { location: Some(loc), message: "the stablehlo dialect is not available".into() });
    };
    let mut failures: Vec<PassFailure> = Vec::new();
    for op in ops {
        // SAFETY: `op` is live: each op of `ops` is destroyed only after its own expansion, below.
        let loc = unsafe { mlirOperationGetLocation(op) };
        // SAFETY: `op` is live, and every op the passes expand (the chlo ops, `stablehlo.rng_bit_generator`) has at
        // least one result, so result 0 exists.
        let b = B { ctx, loc, at: At::Before(op), ty: unsafe { mlirValueGetType(mlirOperationGetResult(op, 0)) }, enums };
        match expand(&b, op) {
            // SAFETY: `op` is still live; `expand` returned at most as many values as `op` has results (one per
            // result), so every index is in range; once its uses are rewired, `op` is destroyed and never used again
            // (`ops` holds each op once).
            Ok(values) => unsafe {
                for (i, v) in values.into_iter().enumerate() {
                    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i as isize), v);
                }
                mlirOperationDestroy(op);
            },
            Err(message) => failures.push(PassFailure { location: Some(loc), message }),
        }
    }
    report(pass, failures)
}

/// Every op a pass could not expand gets its own located error; the last one
/// is the pass's failure (the adapter emits it).
fn report(pass: &str, mut failures: Vec<PassFailure>) -> Result<(), PassFailure> {
    let last = failures.pop();
    for f in failures {
        let msg = CString::new(format!("{pass}: {}", f.message).replace('\0', " ")).expect("NUL removed");
        if let Some(loc) = f.location {
            // SAFETY: `loc` is the location of an op of the live module; `msg` is a NUL-terminated string alive for
            // the call, which MLIR copies into the diagnostic.
            unsafe { mlirEmitError(loc, msg.as_ptr()) };
        }
    }
    match last {
        Some(f) => Err(f),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// Small raw-IR helpers
// ---------------------------------------------------------------------------

/// No result of `op` is used (a dead op the canonicalizer will remove).
pub(super) fn unused(op: MlirOperation) -> bool {
    floors_ir::ir::raw::results(op).iter().all(|&v| floors_ir::ir::raw::uses(v).is_empty())
}

pub(super) fn sref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

pub(super) fn type_str(t: MlirType) -> String {
    // SAFETY: `t` is a live type of the context the pass runs in (callers pass types of live values or types built
    // here); the wrapper only prints it.
    unsafe { Type::from_raw(t) }.to_string()
}

pub(super) fn value_type(v: MlirValue) -> MlirType {
    // SAFETY: callers pass live values: operands and results of the ops being expanded, or values the builder just
    // created.
    unsafe { mlirValueGetType(v) }
}

pub(super) fn elem(t: MlirType) -> MlirType {
    // SAFETY: callers pass shaped (tensor) types only: the types of chlo/stablehlo tensor values, or tensors built by
    // `tensor`.
    unsafe { mlirShapedTypeGetElementType(t) }
}

pub(super) fn shape(t: MlirType) -> Vec<i64> {
    // SAFETY: as for `elem`: callers pass ranked tensor types (checked static, or built by `tensor`), so the rank is
    // known and each index is below it.
    unsafe { (0..mlirShapedTypeGetRank(t) as isize).map(|i| mlirShapedTypeGetDimSize(t, i)).collect() }
}

pub(super) fn is_static(t: MlirType) -> bool {
    // SAFETY: `t` is a live type; the shape query runs only once `t` is known to be a ranked tensor (`&&`
    // short-circuits).
    unsafe { mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) }
}

/// A ranked tensor of `shape` and element type `e`.
pub(super) fn tensor(shape: &[i64], e: MlirType) -> MlirType {
    // SAFETY: `shape` is a live slice of `shape.len()` dims, which MLIR copies; `e` is a live element type and the
    // null encoding means none.
    unsafe { mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), e, mlirAttributeGetNull()) }
}

/// `t`'s shape with element type `e`.
pub(super) fn with_elem(t: MlirType, e: MlirType) -> MlirType {
    tensor(&shape(t), e)
}

/// Comparison directions in the numbering of `FloorsChloComparisonDirection`
/// (also StableHLO's).
#[derive(Clone, Copy)]
pub(super) enum Dir {
    Eq = 0,
    Ne = 1,
    Ge = 2,
    Gt = 3,
    Le = 4,
    Lt = 5,
}

pub(super) const CMP_FLOAT: usize = 1;
// 2 is TOTALORDER, which no expansion builds.
pub(super) const CMP_SIGNED: usize = 3;
pub(super) const CMP_UNSIGNED: usize = 4;

/// The `#stablehlo<comparison_direction X>` / `#stablehlo<comparison_type X>`
/// attributes, built once per run through the dialect's C API (indexed by
/// its numbering, which [`Dir`] and `CMP_*` share).
#[derive(Clone, Copy)]
pub(super) struct Enums {
    pub(super) dir: [MlirAttribute; 6],
    pub(super) cmp_type: [MlirAttribute; 5],
}

impl Enums {
    /// None if the dialect cannot build one of them (it is not loaded).
    pub(super) fn build(ctx: MlirContext) -> Option<Self> {
        use floors_ir::dialects::stablehlo::{ComparisonDirection, ComparisonType};
        let non_null = |a: MlirAttribute| (!a.ptr.is_null()).then_some(a);
        // SAFETY: a null attribute, only a placeholder until every entry is set below.
        let null = unsafe { mlirAttributeGetNull() };
        let mut dir = [null; 6];
        for d in ComparisonDirection::ALL {
            dir[d.code() as usize] = non_null(d.to_attr(ctx))?;
        }
        let mut cmp_type = [null; 5];
        for t in ComparisonType::ALL {
            cmp_type[t.code() as usize] = non_null(t.to_attr(ctx))?;
        }
        Some(Self { dir, cmp_type })
    }
}

/// Where new ops go.
#[derive(Clone, Copy)]
pub(super) enum At {
    Before(MlirOperation),
}

/// A tiny op builder: every method inserts one stablehlo op and returns its
/// result. `ty` is the tensor type constants are splatted to (and the type of
/// the float recipes' values).
#[derive(Clone, Copy)]
pub(super) struct B {
    pub(super) ctx: MlirContext,
    pub(super) loc: MlirLocation,
    pub(super) at: At,
    pub(super) ty: MlirType,
    pub(super) enums: Enums,
}

impl B {
    pub(super) fn with_ty(&self, ty: MlirType) -> Self {
        Self { ty, ..*self }
    }

    pub(super) fn f64(&self) -> bool {
        // SAFETY: `self.ty` is the tensor type of the value being expanded, so `elem` is given a shaped type.
        unsafe { mlirTypeIsAF64(elem(self.ty)) }
    }

    pub(super) fn build(
        &self,
        name: &str,
        operands: &[MlirValue],
        results: &[MlirType],
        attrs: &[(&str, MlirAttribute)],
        regions: &[MlirRegion],
    ) -> MlirOperation {
        // SAFETY: `self.loc`, `self.ctx` and the operands, result types, attributes and regions are live handles of
        // the pass's context; the state copies the arrays (which outlive the calls) and takes the regions; `sref`
        // strings outlive the calls and MLIR copies them. The new op is inserted before the live `anchor` in its
        // block, or appended to the live `block`, which then owns it.
        unsafe {
            let mut st = mlirOperationStateGet(sref(name), self.loc);
            mlirOperationStateAddOperands(&mut st, operands.len() as isize, operands.as_ptr());
            mlirOperationStateAddResults(&mut st, results.len() as isize, results.as_ptr());
            let named: Vec<MlirNamedAttribute> =
                attrs.iter().map(|(n, a)| mlirNamedAttributeGet(mlirIdentifierGet(self.ctx, sref(n)), *a)).collect();
            mlirOperationStateAddAttributes(&mut st, named.len() as isize, named.as_ptr());
            if !regions.is_empty() {
                mlirOperationStateAddOwnedRegions(&mut st, regions.len() as isize, regions.as_ptr());
            }
            // Without result-type inference, creation cannot fail; the
            // verifier after the pass checks what was built.
            let op = mlirOperationCreate(&mut st);
            match self.at {
                At::Before(anchor) => mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, op),
            }
            op
        }
    }

    pub(super) fn op(&self, name: &str, operands: &[MlirValue], result: MlirType, attrs: &[(&str, MlirAttribute)]) -> MlirValue {
        // SAFETY: `build` was given exactly one result type, so the new op has result 0.
        unsafe { mlirOperationGetResult(self.build(name, operands, &[result], attrs, &[]), 0) }
    }

    // ---- attributes
    pub(super) fn i64_attr(&self, v: i64) -> MlirAttribute {
        // SAFETY: `self.ctx` is the context the pass runs in.
        unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.ctx, 64), v) }
    }
    pub(super) fn i64_array(&self, v: &[i64]) -> MlirAttribute {
        // SAFETY: `self.ctx` is live; `v` provides `v.len()` elements, which MLIR copies.
        unsafe { mlirDenseI64ArrayGet(self.ctx, v.len() as isize, v.as_ptr()) }
    }

    // ---- constants
    /// A `stablehlo.constant` splat of `element` with type `ty`.
    pub(super) fn splat(&self, ty: MlirType, element: MlirAttribute) -> MlirValue {
        // SAFETY: `ty` is a static tensor type and `element` a scalar attribute of its element type (built by
        // `c`/`ci` or checked by the caller), as a splat requires.
        let value = unsafe { mlirDenseElementsAttrSplatGet(ty, element) };
        self.op("stablehlo.constant", &[], ty, &[("value", value)])
    }
    /// `c(v)`: a float splat of `self.ty`.
    pub(super) fn c(&self, v: f64) -> MlirValue {
        // SAFETY: `self.ctx` is live and `elem(self.ty)` is the float element type of the value being expanded (the
        // recipes run on float tensors).
        self.splat(self.ty, unsafe { mlirFloatAttrDoubleGet(self.ctx, elem(self.ty), v) })
    }
    /// An integer splat of type `ty`.
    pub(super) fn ci(&self, ty: MlirType, v: i64) -> MlirValue {
        // SAFETY: `ty` is an integer tensor type, so `elem(ty)` is the integer type the attribute needs.
        self.splat(ty, unsafe { mlirIntegerAttrGet(elem(ty), v) })
    }

    // ---- elementwise
    pub(super) fn un(&self, name: &str, x: MlirValue) -> MlirValue {
        self.op(name, &[x], value_type(x), &[])
    }
    pub(super) fn bin(&self, name: &str, a: MlirValue, b: MlirValue) -> MlirValue {
        self.op(name, &[a, b], value_type(a), &[])
    }
    pub(super) fn add(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.add", a, b)
    }
    pub(super) fn sub(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.subtract", a, b)
    }
    pub(super) fn mul(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.multiply", a, b)
    }
    pub(super) fn div(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.divide", a, b)
    }
    pub(super) fn and(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.and", a, b)
    }
    pub(super) fn or(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.or", a, b)
    }
    pub(super) fn pow(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.power", a, b)
    }
    pub(super) fn rem(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.remainder", a, b)
    }
    pub(super) fn atan2(&self, a: MlirValue, b: MlirValue) -> MlirValue {
        self.bin("stablehlo.atan2", a, b)
    }
    pub(super) fn neg(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.negate", x)
    }
    pub(super) fn abs(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.abs", x)
    }
    pub(super) fn exp(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.exponential", x)
    }
    pub(super) fn expm1(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.exponential_minus_one", x)
    }
    pub(super) fn log(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.log", x)
    }
    pub(super) fn log1p(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.log_plus_one", x)
    }
    pub(super) fn sqrt(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.sqrt", x)
    }
    pub(super) fn sign(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.sign", x)
    }
    pub(super) fn floor(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.floor", x)
    }
    pub(super) fn sin(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.sine", x)
    }
    pub(super) fn tan(&self, x: MlirValue) -> MlirValue {
        self.un("stablehlo.tan", x)
    }
    pub(super) fn select(&self, p: MlirValue, a: MlirValue, b: MlirValue) -> MlirValue {
        self.op("stablehlo.select", &[p, a, b], value_type(a), &[])
    }
    pub(super) fn clamp(&self, lo: MlirValue, x: MlirValue, hi: MlirValue) -> MlirValue {
        self.op("stablehlo.clamp", &[lo, x, hi], value_type(x), &[])
    }
    pub(super) fn convert(&self, x: MlirValue, ty: MlirType) -> MlirValue {
        self.op("stablehlo.convert", &[x], ty, &[])
    }
    pub(super) fn bitcast(&self, x: MlirValue, ty: MlirType) -> MlirValue {
        self.op("stablehlo.bitcast_convert", &[x], ty, &[])
    }

    /// `compare dir, a, b` with an explicit compare_type index.
    pub(super) fn cmp_typed(&self, dir: Dir, a: MlirValue, b: MlirValue, cmp_type: usize) -> MlirValue {
        // SAFETY: `self.ctx` is the context the pass runs in.
        let i1 = unsafe { mlirIntegerTypeGet(self.ctx, 1) };
        self.op(
            "stablehlo.compare",
            &[a, b],
            with_elem(value_type(a), i1),
            &[("comparison_direction", self.enums.dir[dir as usize]), ("compare_type", self.enums.cmp_type[cmp_type])],
        )
    }
    /// `compare dir, a, b`: FLOAT for floats, SIGNED for signless integers,
    /// UNSIGNED for unsigned integers and i1.
    pub(super) fn cmp(&self, dir: Dir, a: MlirValue, b: MlirValue) -> MlirValue {
        self.cmp_typed(dir, a, b, default_compare_type(elem(value_type(a))))
    }

    /// `horner([a0, …, an], y) = ((a0·y + a1)·y + …)·y + an`, as multiply/add.
    pub(super) fn horner(&self, coeffs: &[f64], y: MlirValue) -> MlirValue {
        let mut acc = self.c(coeffs[0]);
        for &a in &coeffs[1..] {
            acc = self.add(self.mul(acc, y), self.c(a));
        }
        acc
    }

    /// Chebyshev series Σ c[j]·T_j(t) by Clenshaw's recurrence:
    /// (b1, b2) ← (2t·b1 − b2 + c[j], b1) for j = n−1 … 1, then t·b1 − b2 + c[0].
    /// The first steps, where b1 and b2 are still 0, are folded exactly.
    pub(super) fn clenshaw(&self, coeffs: &[f64], t: MlirValue) -> MlirValue {
        let two_t = self.mul(self.c(2.0), t);
        let n = coeffs.len();
        let mut b1 = self.c(coeffs[n - 1]);
        let mut b2: Option<MlirValue> = None;
        for j in (1..n - 1).rev() {
            let mut v = self.mul(two_t, b1);
            if let Some(b2v) = b2 {
                v = self.sub(v, b2v);
            }
            let next = self.add(v, self.c(coeffs[j]));
            b2 = Some(b1);
            b1 = next;
        }
        let mut v = self.mul(t, b1);
        if let Some(b2v) = b2 {
            v = self.sub(v, b2v);
        }
        self.add(v, self.c(coeffs[0]))
    }
}

pub(super) fn default_compare_type(e: MlirType) -> usize {
    // SAFETY: `e` is a live element type; the integer queries run only once `e` is known to be an integer type (`&&`
    // short-circuits).
    unsafe {
        if mlirTypeIsAFloat(e) {
            CMP_FLOAT
        } else if mlirTypeIsAInteger(e) && (mlirIntegerTypeIsUnsigned(e) || mlirIntegerTypeGetWidth(e) == 1) {
            CMP_UNSIGNED
        } else if mlirTypeIsAInteger(e) {
            CMP_SIGNED
        } else {
            CMP_FLOAT
        }
    }
}
