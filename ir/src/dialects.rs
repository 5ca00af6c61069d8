//! floors' dialects as seen from Rust: registration handles and typed
//! accessors for the ops the passes build and read.

pub mod stablehlo;

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    ir::{Attribute, OperationRef, attribute::StringAttribute, operation::OperationLike},
};

use mlir_sys::{MlirAttribute, MlirContext};

use crate::capi;

/// Every dialect the project defines, in a stable order.
pub fn handles() -> Vec<DialectHandle> {
    #[allow(unused_mut)]
    // SAFETY: the getter takes nothing and returns the dialect's static registration handle.
    let mut v = vec![unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__floors__()) }];
    #[cfg(floors_dialect_stablehlo)]
    // SAFETY: as above: a static registration handle.
    v.push(unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__stablehlo__()) });
    #[cfg(floors_dialect_chlo)]
    // SAFETY: as above: a static registration handle.
    v.push(unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__chlo__()) });
    #[cfg(floors_dialect_sdy)]
    // SAFETY: as above: a static registration handle.
    v.push(unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__sdy__()) });
    #[cfg(floors_dialect_tpu)]
    // SAFETY: as above: a static registration handle.
    v.push(unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__tpu__()) });
    #[cfg(floors_dialect_mosaic)]
    // SAFETY: as above: a static registration handle.
    v.push(unsafe { DialectHandle::from_raw(capi::mlirGetDialectHandle__mosaic__()) });
    v
}

/// Inserts floors' dialects into a registry (used by contexts and the plugin).
pub fn insert_into(registry: &DialectRegistry) {
    for h in handles() {
        h.insert_dialect(registry);
    }
}

/// The kind of a `floors.fusion`, as in `dialects/floors/FloorsOps.td`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusionKind {
    Loop,
    Reduction,
    Transpose,
    Concatenate,
    InputSlices,
    Scatter,
    Gemm,
    Convolution,
    Custom,
}

impl FusionKind {
    pub const ALL: [FusionKind; 9] = [
        FusionKind::Loop,
        FusionKind::Reduction,
        FusionKind::Transpose,
        FusionKind::Concatenate,
        FusionKind::InputSlices,
        FusionKind::Scatter,
        FusionKind::Gemm,
        FusionKind::Convolution,
        FusionKind::Custom,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FusionKind::Loop => "loop",
            FusionKind::Reduction => "reduction",
            FusionKind::Transpose => "transpose",
            FusionKind::Concatenate => "concatenate",
            FusionKind::InputSlices => "input_slices",
            FusionKind::Scatter => "scatter",
            FusionKind::Gemm => "gemm",
            FusionKind::Convolution => "convolution",
            FusionKind::Custom => "custom",
        }
    }

    fn to_c(self) -> capi::FloorsFusionKind {
        self as u32 as capi::FloorsFusionKind
    }

    fn from_c(k: capi::FloorsFusionKind) -> Self {
        Self::ALL[k as usize]
    }

    /// From the C API's numbering.
    pub fn from_c_public(k: capi::FloorsFusionKind) -> Self {
        Self::from_c(k)
    }

    /// To the C API's numbering.
    pub fn to_c_public(self) -> capi::FloorsFusionKind {
        self.to_c()
    }

    /// The `#floors.kind<...>` attribute of the kind, in `ctx`.
    pub fn to_attribute(self, ctx: MlirContext) -> MlirAttribute {
        // SAFETY: `ctx` is a live context with the floors dialect; the kind is in the C enum's range.
        unsafe { capi::floorsFusionKindAttrGet(ctx, self.to_c()) }
    }

    /// The kind of a `#floors.kind<...>`; None for a null attribute or any other attribute.
    pub fn from_attribute(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null and a #floors.kind before its value is read.
        unsafe {
            (!attr.ptr.is_null() && capi::floorsAttributeIsAFusionKind(attr))
                .then(|| Self::from_c(capi::floorsFusionKindAttrGetValue(attr)))
        }
    }
}

/// A `floors.fusion` op, checked on construction.
#[derive(Clone, Copy)]
pub struct FusionOp<'c, 'a> {
    op: OperationRef<'c, 'a>,
}

impl<'c, 'a> FusionOp<'c, 'a> {
    pub fn cast(op: OperationRef<'c, 'a>) -> Option<Self> {
        // SAFETY: `op` is a live op (the `OperationRef` borrows it); the shim only asks its kind.
        unsafe { capi::floorsOperationIsAFusion(op.to_raw()) }.then_some(Self { op })
    }

    pub fn kind(&self) -> FusionKind {
        // SAFETY: `self.op` is live and was checked to be a `floors.fusion` by `cast`, as the shim's `cast<FusionOp>`
        // requires.
        FusionKind::from_c(unsafe { capi::floorsFusionGetKind(self.op.to_raw()) })
    }

    pub fn set_kind(&self, kind: FusionKind) {
        // SAFETY: as above: `self.op` is a live `floors.fusion`; `kind.to_c()` is one of the C enum's values.
        unsafe { capi::floorsFusionSetKind(self.op.to_raw(), kind.to_c()) }
    }

    /// The op named as the fusion's hero, if any.
    pub fn hero(&self) -> Option<String> {
        let a: Attribute = self.op.attribute("hero").ok()?;
        StringAttribute::try_from(a).ok().map(|s| s.value().to_string())
    }

    pub fn operation(&self) -> OperationRef<'c, 'a> {
        self.op
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fusion_kinds_round_trip_through_their_attribute() {
        let c = crate::context::create_context();
        for k in FusionKind::ALL {
            let a = k.to_attribute(c.to_raw());
            assert_eq!(crate::ir::raw::attr_text(a), format!("#floors.kind<{}>", k.as_str()));
            assert_eq!(FusionKind::from_attribute(a), Some(k));
        }
        // SAFETY: a null attribute, and a unit attribute of the live context.
        let (null, unit) = unsafe { (mlir_sys::mlirAttributeGetNull(), mlir_sys::mlirUnitAttrGet(c.to_raw())) };
        assert_eq!(FusionKind::from_attribute(null), None);
        assert_eq!(FusionKind::from_attribute(unit), None);
    }
}
