//! A small op builder over MLIR's C API, shared by the floors' kernel
//! emitters (the TPU floor's Mosaic kernels, the GPU floor's launches): ops
//! are created from a name, operands, result types, attributes and regions,
//! and inserted before a fixed op of a block (a terminator, or the op being
//! replaced). Attributes of other dialects (`#vector.kind<add>`,
//! `#tpu.dot_dimension_numbers<...>`) come from their typed builders
//! ([`crate::attrs`], the dialects' C APIs), never from printed text.

use mlir_sys::*;

use crate::ir::raw::sref;

#[derive(Clone, Copy)]
pub struct Builder {
    pub ctx: MlirContext,
    pub block: MlirBlock,
    /// New ops go right before this one.
    pub before: MlirOperation,
    pub loc: MlirLocation,
}

/// A region of a new op: None is empty, Some(types) one block with those arguments.
pub type RegionSpec = Option<Vec<MlirType>>;

impl Builder {
    /// A builder inserting before `before`, new ops at its location.
    pub fn before(before: MlirOperation) -> Self {
        // SAFETY: callers pass a live op in a block (the insertion point).
        Self::before_at(before, unsafe { mlirOperationGetLocation(before) })
    }

    /// A builder inserting before `before`, new ops at `loc`.
    pub fn before_at(before: MlirOperation, loc: MlirLocation) -> Self {
        // SAFETY: as above: `before` is a live op; its context and block are read.
        unsafe { Self { ctx: mlirOperationGetContext(before), block: mlirOperationGetBlock(before), before, loc } }
    }

    /// The same insertion point, new ops at `loc`.
    pub fn at(&self, loc: MlirLocation) -> Self {
        Self { loc, ..*self }
    }

    /// Creates and inserts `name(operands) {attrs} : results` with `regions`; returns the op.
    pub fn op_regions(
        &self,
        name: &str,
        operands: &[MlirValue],
        results: &[MlirType],
        attrs: &[(&str, MlirAttribute)],
        regions: &[RegionSpec],
    ) -> MlirOperation {
        // SAFETY: the builder's context, block, insertion op and location are live (taken from a live op by
        // `before_at`); the state copies the operand, result and attribute arrays, which outlive the calls, and takes
        // the regions made here (each with its new block); the `sref` strings outlive the calls and MLIR copies them.
        // The new op is inserted before `self.before` in `self.block`, which owns it from then on.
        unsafe {
            let mut state = mlirOperationStateGet(sref(name), self.loc);
            mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
            mlirOperationStateAddResults(&mut state, results.len() as isize, results.as_ptr());
            let named: Vec<MlirNamedAttribute> =
                attrs.iter().map(|(n, a)| mlirNamedAttributeGet(mlirIdentifierGet(self.ctx, sref(n)), *a)).collect();
            mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
            let mut rs: Vec<MlirRegion> = regions
                .iter()
                .map(|spec| {
                    let r = mlirRegionCreate();
                    if let Some(types) = spec {
                        let locs = vec![self.loc; types.len()];
                        mlirRegionAppendOwnedBlock(r, mlirBlockCreate(types.len() as isize, types.as_ptr(), locs.as_ptr()));
                    }
                    r
                })
                .collect();
            mlirOperationStateAddOwnedRegions(&mut state, rs.len() as isize, rs.as_mut_ptr());
            let op = mlirOperationCreate(&mut state);
            mlirBlockInsertOwnedOperationBefore(self.block, self.before, op);
            op
        }
    }

    /// Creates and inserts `name(operands) {attrs} : results`; returns the op.
    pub fn op(&self, name: &str, operands: &[MlirValue], results: &[MlirType], attrs: &[(&str, MlirAttribute)]) -> MlirOperation {
        self.op_regions(name, operands, results, attrs, &[])
    }

    /// The single result of a new op.
    pub fn value(&self, name: &str, operands: &[MlirValue], result: MlirType, attrs: &[(&str, MlirAttribute)]) -> MlirValue {
        // SAFETY: `op` was given exactly one result type, so the new op has result 0.
        unsafe { mlirOperationGetResult(self.op(name, operands, &[result], attrs), 0) }
    }

    pub fn i32_type(&self) -> MlirType {
        // SAFETY: `self.ctx` is the live context of the insertion point.
        unsafe { mlirIntegerTypeGet(self.ctx, 32) }
    }

    pub fn i1_type(&self) -> MlirType {
        // SAFETY: `self.ctx` is the live context of the insertion point.
        unsafe { mlirIntegerTypeGet(self.ctx, 1) }
    }

    /// A signed 32-bit `IntegerAttr` (`v : si32`, as `tpu.dynamic_rotate`'s
    /// `dimension`).
    pub fn si32_attr(&self, v: i64) -> MlirAttribute {
        // SAFETY: `self.ctx` is the live context of the insertion point; the type is made in it.
        unsafe { mlirIntegerAttrGet(mlirIntegerTypeSignedGet(self.ctx, 32), v) }
    }

    /// `arith.cmpi`'s `predicate` attribute for `eq`, `ne`, `slt`, `sle`,
    /// `sgt`, `sge`, `ult`, `ule`, `ugt`, `uge` (its i64 enum values);
    /// panics on another name, a programming error.
    pub fn cmpi_predicate(&self, name: &str) -> MlirAttribute {
        const NAMES: [&str; 10] = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
        let v = NAMES.iter().position(|&n| n == name).unwrap_or_else(|| panic!("no arith.cmpi predicate `{name}`"));
        // SAFETY: `self.ctx` is the live context of the insertion point; the type is made in it.
        unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(self.ctx, 64), v as i64) }
    }

    pub fn index_type(&self) -> MlirType {
        // SAFETY: `self.ctx` is the live context of the insertion point.
        unsafe { mlirIndexTypeGet(self.ctx) }
    }

    /// `vector<shape x elem>`; a 0-d shape gives `elem` itself.
    pub fn vector(&self, shape: &[i64], elem: MlirType) -> MlirType {
        if shape.is_empty() {
            return elem;
        }
        // SAFETY: `shape` is non-empty and provides `shape.len()` dims, which MLIR copies; `elem` is a live element
        // type.
        unsafe { mlirVectorTypeGet(shape.len() as isize, shape.as_ptr(), elem) }
    }

    pub fn i64_array(&self, v: &[i64]) -> MlirAttribute {
        // SAFETY: `self.ctx` is live; `v` provides `v.len()` elements, which MLIR copies.
        unsafe { mlirDenseI64ArrayGet(self.ctx, v.len() as isize, v.as_ptr()) }
    }

    pub fn i32_array(&self, v: &[i32]) -> MlirAttribute {
        // SAFETY: `self.ctx` is live; `v` provides `v.len()` elements, which MLIR copies.
        unsafe { mlirDenseI32ArrayGet(self.ctx, v.len() as isize, v.as_ptr()) }
    }

    pub fn bool_attr(&self, b: bool) -> MlirAttribute {
        // SAFETY: `self.ctx` is the live context of the insertion point.
        unsafe { mlirBoolAttrGet(self.ctx, b as i32) }
    }

    /// `arith.constant v : index`.
    pub fn index_const(&self, v: i64) -> MlirValue {
        let t = self.index_type();
        // SAFETY: `t` is the index type just made in the live context.
        self.value("arith.constant", &[], t, &[("value", unsafe { mlirIntegerAttrGet(t, v) })])
    }

    /// `arith.constant v : i32`.
    pub fn i32_const(&self, v: i64) -> MlirValue {
        let t = self.i32_type();
        // SAFETY: `t` is the i32 type just made in the live context.
        self.value("arith.constant", &[], t, &[("value", unsafe { mlirIntegerAttrGet(t, v) })])
    }

    /// `arith.<name> a, b : index`.
    pub fn index_binop(&self, name: &str, a: MlirValue, b: MlirValue) -> MlirValue {
        self.value(name, &[a, b], self.index_type(), &[])
    }

    /// A builder inserting at the end of block 0 of region `i` of `op`
    /// (created empty when the region has none), before a new `terminator`
    /// op it appends there.
    pub fn into_region(&self, op: MlirOperation, i: isize, terminator: &str) -> Builder {
        // SAFETY: `op` is a live op and `i` one of its region indices (callers pass an index below its region count;
        // not checked here); a block made here belongs to the region once appended, and the new terminator to the
        // block; `terminator` outlives the call.
        unsafe {
            let region = mlirOperationGetRegion(op, i);
            let mut block = mlirRegionGetFirstBlock(region);
            if block.ptr.is_null() {
                block = mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
                mlirRegionAppendOwnedBlock(region, block);
            }
            let mut state = mlirOperationStateGet(sref(terminator), self.loc);
            let t = mlirOperationCreate(&mut state);
            mlirBlockAppendOwnedOperation(block, t);
            Builder { ctx: self.ctx, block, before: t, loc: self.loc }
        }
    }

    /// Moves `op` (from anywhere) to this builder's insertion point.
    pub fn move_here(&self, op: MlirOperation) {
        // SAFETY: `op` and `self.before` are live ops; moving unlinks `op` from its block, if any, and links it
        // before the insertion point.
        unsafe { mlirOperationMoveBefore(op, self.before) }
    }
}
