//! Typed access to the `stablehlo` dialect from Rust: its enums and
//! dimension-numbers attributes as plain Rust values, and typed views of the
//! ops the lowering reads, so that no pass has to parse attribute text.
//!
//! Everything is built on the dialect's C API (`dialects/stablehlo/StablehloCAPI.h`,
//! bindgen'd into [`crate::capi`]) and on MLIR's own C API for builtin
//! attributes. `spec: "x"` in a doc comment names the section of the
//! StableHLO specification (`docs/spec.md` of openxla/stablehlo) on op `x`.
//!
//! Conventions:
//! - `from_attr` returns `None` when the attribute is not of that kind;
//!   `to_attr` builds the attribute in a context.
//! - An op view (`DotGeneralOp`, ...) is a raw `MlirOperation` whose name was
//!   checked by `cast`; like the handles of [`crate::ir::raw`] it must not
//!   outlive the IR it points into.
//! - Accessors of attributes the op must carry return `Option`: `None` only
//!   for IR the verifier would reject (attribute missing or of the wrong kind).
//! - Accessors of optional attributes return the spec's default when the
//!   attribute is absent (strides 1, padding 0, dilation 1, no reversal,
//!   `DEFAULT` precision, `false` flags), and `None` when it is present but
//!   unreadable (e.g. a `padding` that is not `tensor<Nx2xi64>`).
#![cfg(floors_dialect_stablehlo)]

use std::fmt;
use std::str::FromStr;

use melior::ir::{Operation, OperationRef, operation::OperationLike};
use mlir_sys::*;

use crate::{capi, ir::raw};

// ---------------------------------------------------------------------------
// Ops as raw handles
// ---------------------------------------------------------------------------

/// Anything that names one operation: a raw handle or a melior operation.
pub trait AsRawOperation {
    fn as_raw_operation(&self) -> MlirOperation;
}

impl AsRawOperation for MlirOperation {
    fn as_raw_operation(&self) -> MlirOperation {
        *self
    }
}

impl AsRawOperation for OperationRef<'_, '_> {
    fn as_raw_operation(&self) -> MlirOperation {
        self.to_raw()
    }
}

impl AsRawOperation for Operation<'_> {
    fn as_raw_operation(&self) -> MlirOperation {
        self.to_raw()
    }
}

impl<T: AsRawOperation + ?Sized> AsRawOperation for &T {
    fn as_raw_operation(&self) -> MlirOperation {
        (**self).as_raw_operation()
    }
}

// ---------------------------------------------------------------------------
// Enums (spec: "compare", "dot_general" precision_config)
// ---------------------------------------------------------------------------

/// Declares a Rust enum mirroring one of the dialect's I32 enums. The variants
/// are listed in the C API's numbering (StablehloCAPI.h, "Enum attributes").
macro_rules! stablehlo_enum {
    (
        $(#[$doc:meta])*
        $name:ident, is_a: $isa:ident, get_value: $get_value:ident, get: $get:ident,
        { $($variant:ident = $code:literal => $text:literal),+ $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            /// Every value, in the C API's numbering.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value's spelling in JAX's text (`GT`, `FLOAT`, `DEFAULT`...).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The C API's int32 code of the value.
            pub fn code(self) -> i32 {
                match self {
                    $($name::$variant => $code),+
                }
            }

            /// The value of a C API int32 code; `None` if out of range.
            pub fn from_code(code: i32) -> Option<Self> {
                match code {
                    $($code => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// Reads the enum attribute; `None` if `attr` is null or of another kind.
            pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
                // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
                if attr.ptr.is_null() || !unsafe { capi::$isa(attr) } {
                    return None;
                }
                // SAFETY: `attr` is a non-null attribute of this enum's kind (checked above), as the shim's `cast`
                // requires.
                Self::from_code(unsafe { capi::$get_value(attr) })
            }

            /// Builds the enum attribute in `ctx`.
            pub fn to_attr(self, ctx: MlirContext) -> MlirAttribute {
                // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; `self.code()` is one of the
                // enum's codes (the shim returns null for any other).
                unsafe { capi::$get(ctx, self.code()) }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;

            /// Parses JAX's spelling (`GT`, `FLOAT`, ...).
            fn from_str(s: &str) -> Result<Self, String> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == s)
                    .ok_or_else(|| format!(concat!("unknown ", stringify!($name), " `{}`"), s))
            }
        }
    };
}

stablehlo_enum! {
    /// `comparison_direction` of `stablehlo.compare` (spec: "compare").
    ComparisonDirection,
    is_a: floorsStablehloAttrIsAComparisonDirection,
    get_value: floorsStablehloComparisonDirectionGetValue,
    get: floorsStablehloComparisonDirectionGet,
    { Eq = 0 => "EQ", Ne = 1 => "NE", Ge = 2 => "GE", Gt = 3 => "GT", Le = 4 => "LE", Lt = 5 => "LT" }
}

impl ComparisonDirection {
    /// The `arith` predicates of this direction: `arith.cmpf` (ordered; `une`
    /// for NE, as XLA), signed and unsigned `arith.cmpi`.
    pub fn arith_predicates(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ComparisonDirection::Eq => ("oeq", "eq", "eq"),
            ComparisonDirection::Ne => ("une", "ne", "ne"),
            ComparisonDirection::Lt => ("olt", "slt", "ult"),
            ComparisonDirection::Le => ("ole", "sle", "ule"),
            ComparisonDirection::Gt => ("ogt", "sgt", "ugt"),
            ComparisonDirection::Ge => ("oge", "sge", "uge"),
        }
    }
}

stablehlo_enum! {
    /// `compare_type` of `stablehlo.compare` (spec: "compare"): how the
    /// operands are ordered (IEEE float, total order, signed, unsigned).
    ComparisonType,
    is_a: floorsStablehloAttrIsAComparisonType,
    get_value: floorsStablehloComparisonTypeGetValue,
    get: floorsStablehloComparisonTypeGet,
    {
        NoType = 0 => "NOTYPE",
        Float = 1 => "FLOAT",
        TotalOrder = 2 => "TOTALORDER",
        Signed = 3 => "SIGNED",
        Unsigned = 4 => "UNSIGNED",
    }
}

stablehlo_enum! {
    /// One entry of `precision_config` of `stablehlo.dot_general` and
    /// `stablehlo.convolution` (spec: "dot_general", "convolution").
    Precision,
    is_a: floorsStablehloAttrIsAPrecision,
    get_value: floorsStablehloPrecisionGetValue,
    get: floorsStablehloPrecisionGet,
    { Default = 0 => "DEFAULT", High = 1 => "HIGH", Highest = 2 => "HIGHEST" }
}

stablehlo_enum! {
    /// `rng_algorithm` of `stablehlo.rng_bit_generator` (spec: "rng_bit_generator").
    RngAlgorithm,
    is_a: floorsStablehloAttrIsARngAlgorithm,
    get_value: floorsStablehloRngAlgorithmGetValue,
    get: floorsStablehloRngAlgorithmGet,
    { Default = 0 => "DEFAULT", ThreeFry = 1 => "THREE_FRY", Philox = 2 => "PHILOX" }
}

stablehlo_enum! {
    /// `transpose_a` of `stablehlo.triangular_solve` (spec: "triangular_solve").
    Transpose,
    is_a: floorsStablehloAttrIsATranspose,
    get_value: floorsStablehloTransposeGetValue,
    get: floorsStablehloTransposeGet,
    {
        TransposeInvalid = 0 => "TRANSPOSE_INVALID",
        NoTranspose = 1 => "NO_TRANSPOSE",
        Transpose = 2 => "TRANSPOSE",
        Adjoint = 3 => "ADJOINT",
    }
}

stablehlo_enum! {
    /// `fft_type` of `stablehlo.fft` (spec: "fft").
    FftType,
    is_a: floorsStablehloAttrIsAFftType,
    get_value: floorsStablehloFftTypeGetValue,
    get: floorsStablehloFftTypeGet,
    { Fft = 0 => "FFT", Ifft = 1 => "IFFT", Rfft = 2 => "RFFT", Irfft = 3 => "IRFFT" }
}

stablehlo_enum! {
    /// `rng_distribution` of `stablehlo.rng` (spec: "rng").
    RngDistribution,
    is_a: floorsStablehloAttrIsARngDistribution,
    get_value: floorsStablehloRngDistributionGetValue,
    get: floorsStablehloRngDistributionGet,
    { Uniform = 1 => "UNIFORM", Normal = 2 => "NORMAL" }
}

// ---------------------------------------------------------------------------
// Dimension numbers
// ---------------------------------------------------------------------------

type ListSize = unsafe extern "C" fn(MlirAttribute) -> isize;
type ListElem = unsafe extern "C" fn(MlirAttribute, isize) -> i64;

/// Reads one list field of a dimension-numbers attribute through the C API's
/// Size/Elem pair. `attr` must already be known to be of the right kind.
fn list_field(attr: MlirAttribute, size: ListSize, elem: ListElem) -> Vec<i64> {
    // SAFETY: callers pass a non-null attribute already checked to be of the kind `size` and `elem` read (this
    // function's contract).
    let n = unsafe { size(attr) };
    // SAFETY: as above; every `i` is below the size just read (and the `Elem` shims return 0 for any out-of-range
    // position).
    (0..n).map(|i| unsafe { elem(attr, i) }).collect()
}

/// (length, pointer) of a slice, as the C API's `...Get` constructors take it.
fn c_list(v: &[i64]) -> (isize, *const i64) {
    (v.len() as isize, v.as_ptr())
}

/// `#stablehlo.dot<...>`, the `dot_dimension_numbers` of `stablehlo.dot_general`
/// (spec: "dot_general", inputs `lhs_batching_dimensions` ... `rhs_contracting_dimensions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DotDimensionNumbers {
    pub lhs_batching_dims: Vec<i64>,
    pub rhs_batching_dims: Vec<i64>,
    pub lhs_contracting_dims: Vec<i64>,
    pub rhs_contracting_dims: Vec<i64>,
}

impl DotDimensionNumbers {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
        if attr.ptr.is_null() || !unsafe { capi::floorsStablehloAttrIsADotDimensionNumbers(attr) } {
            return None;
        }
        Some(Self {
            lhs_batching_dims: list_field(
                attr,
                capi::floorsStablehloDotDimensionNumbersGetLhsBatchingDimsSize,
                capi::floorsStablehloDotDimensionNumbersGetLhsBatchingDimsElem,
            ),
            rhs_batching_dims: list_field(
                attr,
                capi::floorsStablehloDotDimensionNumbersGetRhsBatchingDimsSize,
                capi::floorsStablehloDotDimensionNumbersGetRhsBatchingDimsElem,
            ),
            lhs_contracting_dims: list_field(
                attr,
                capi::floorsStablehloDotDimensionNumbersGetLhsContractingDimsSize,
                capi::floorsStablehloDotDimensionNumbersGetLhsContractingDimsElem,
            ),
            rhs_contracting_dims: list_field(
                attr,
                capi::floorsStablehloDotDimensionNumbersGetRhsContractingDimsSize,
                capi::floorsStablehloDotDimensionNumbersGetRhsContractingDimsElem,
            ),
        })
    }

    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        let (n_lb, lb) = c_list(&self.lhs_batching_dims);
        let (n_rb, rb) = c_list(&self.rhs_batching_dims);
        let (n_lc, lc) = c_list(&self.lhs_contracting_dims);
        let (n_rc, rc) = c_list(&self.rhs_contracting_dims);
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; each (length, pointer) pair comes from a
        // live slice of `self`, which the attribute copies.
        unsafe { capi::floorsStablehloDotDimensionNumbersGet(ctx, n_lb, lb, n_rb, rb, n_lc, lc, n_rc, rc) }
    }
}

/// `#stablehlo.conv<...>`, the `dimension_numbers` of `stablehlo.convolution`
/// (spec: "convolution", inputs `input_batch_dimension` ... `output_spatial_dimensions`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ConvDimensionNumbers {
    pub input_batch_dim: i64,
    pub input_feature_dim: i64,
    pub input_spatial_dims: Vec<i64>,
    pub kernel_input_feature_dim: i64,
    pub kernel_output_feature_dim: i64,
    pub kernel_spatial_dims: Vec<i64>,
    pub output_batch_dim: i64,
    pub output_feature_dim: i64,
    pub output_spatial_dims: Vec<i64>,
}

impl ConvDimensionNumbers {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
        if attr.ptr.is_null() || !unsafe { capi::floorsStablehloAttrIsAConvDimensionNumbers(attr) } {
            return None;
        }
        // SAFETY: `attr` is a non-null `#stablehlo.conv` (checked above), as the getters' `cast` requires.
        unsafe {
            Some(Self {
                input_batch_dim: capi::floorsStablehloConvDimensionNumbersGetInputBatchDim(attr),
                input_feature_dim: capi::floorsStablehloConvDimensionNumbersGetInputFeatureDim(attr),
                input_spatial_dims: list_field(
                    attr,
                    capi::floorsStablehloConvDimensionNumbersGetInputSpatialDimsSize,
                    capi::floorsStablehloConvDimensionNumbersGetInputSpatialDimsElem,
                ),
                kernel_input_feature_dim: capi::floorsStablehloConvDimensionNumbersGetKernelInputFeatureDim(attr),
                kernel_output_feature_dim: capi::floorsStablehloConvDimensionNumbersGetKernelOutputFeatureDim(attr),
                kernel_spatial_dims: list_field(
                    attr,
                    capi::floorsStablehloConvDimensionNumbersGetKernelSpatialDimsSize,
                    capi::floorsStablehloConvDimensionNumbersGetKernelSpatialDimsElem,
                ),
                output_batch_dim: capi::floorsStablehloConvDimensionNumbersGetOutputBatchDim(attr),
                output_feature_dim: capi::floorsStablehloConvDimensionNumbersGetOutputFeatureDim(attr),
                output_spatial_dims: list_field(
                    attr,
                    capi::floorsStablehloConvDimensionNumbersGetOutputSpatialDimsSize,
                    capi::floorsStablehloConvDimensionNumbersGetOutputSpatialDimsElem,
                ),
            })
        }
    }

    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        let (n_is, is) = c_list(&self.input_spatial_dims);
        let (n_ks, ks) = c_list(&self.kernel_spatial_dims);
        let (n_os, os) = c_list(&self.output_spatial_dims);
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; each (length, pointer) pair comes from a
        // live slice of `self`, which the attribute copies.
        unsafe {
            capi::floorsStablehloConvDimensionNumbersGet(
                ctx,
                self.input_batch_dim,
                self.input_feature_dim,
                n_is,
                is,
                self.kernel_input_feature_dim,
                self.kernel_output_feature_dim,
                n_ks,
                ks,
                self.output_batch_dim,
                self.output_feature_dim,
                n_os,
                os,
            )
        }
    }

    /// Number of spatial dimensions (the length of the window attributes).
    pub fn num_spatial_dims(&self) -> usize {
        self.input_spatial_dims.len()
    }
}

/// `#stablehlo.gather<...>`, the `dimension_numbers` of `stablehlo.gather`
/// (spec: "gather", inputs `offset_dims` ... `index_vector_dim`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GatherDimensionNumbers {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

impl GatherDimensionNumbers {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
        if attr.ptr.is_null() || !unsafe { capi::floorsStablehloAttrIsAGatherDimensionNumbers(attr) } {
            return None;
        }
        Some(Self {
            offset_dims: list_field(
                attr,
                capi::floorsStablehloGatherDimensionNumbersGetOffsetDimsSize,
                capi::floorsStablehloGatherDimensionNumbersGetOffsetDimsElem,
            ),
            collapsed_slice_dims: list_field(
                attr,
                capi::floorsStablehloGatherDimensionNumbersGetCollapsedSliceDimsSize,
                capi::floorsStablehloGatherDimensionNumbersGetCollapsedSliceDimsElem,
            ),
            operand_batching_dims: list_field(
                attr,
                capi::floorsStablehloGatherDimensionNumbersGetOperandBatchingDimsSize,
                capi::floorsStablehloGatherDimensionNumbersGetOperandBatchingDimsElem,
            ),
            start_indices_batching_dims: list_field(
                attr,
                capi::floorsStablehloGatherDimensionNumbersGetStartIndicesBatchingDimsSize,
                capi::floorsStablehloGatherDimensionNumbersGetStartIndicesBatchingDimsElem,
            ),
            start_index_map: list_field(
                attr,
                capi::floorsStablehloGatherDimensionNumbersGetStartIndexMapSize,
                capi::floorsStablehloGatherDimensionNumbersGetStartIndexMapElem,
            ),
            // SAFETY: `attr` is a non-null `#stablehlo.gather` (checked above), as the getter's `cast` requires.
            index_vector_dim: unsafe { capi::floorsStablehloGatherDimensionNumbersGetIndexVectorDim(attr) },
        })
    }

    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        let (n_off, off) = c_list(&self.offset_dims);
        let (n_col, col) = c_list(&self.collapsed_slice_dims);
        let (n_ob, ob) = c_list(&self.operand_batching_dims);
        let (n_ib, ib) = c_list(&self.start_indices_batching_dims);
        let (n_map, map) = c_list(&self.start_index_map);
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; each (length, pointer) pair comes from a
        // live slice of `self`, which the attribute copies.
        unsafe {
            capi::floorsStablehloGatherDimensionNumbersGet(
                ctx,
                n_off,
                off,
                n_col,
                col,
                n_ob,
                ob,
                n_ib,
                ib,
                n_map,
                map,
                self.index_vector_dim,
            )
        }
    }
}

/// `#stablehlo.scatter<...>`, the `scatter_dimension_numbers` of `stablehlo.scatter`
/// (spec: "scatter", inputs `update_window_dims` ... `index_vector_dim`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScatterDimensionNumbers {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

impl ScatterDimensionNumbers {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
        if attr.ptr.is_null() || !unsafe { capi::floorsStablehloAttrIsAScatterDimensionNumbers(attr) } {
            return None;
        }
        Some(Self {
            update_window_dims: list_field(
                attr,
                capi::floorsStablehloScatterDimensionNumbersGetUpdateWindowDimsSize,
                capi::floorsStablehloScatterDimensionNumbersGetUpdateWindowDimsElem,
            ),
            inserted_window_dims: list_field(
                attr,
                capi::floorsStablehloScatterDimensionNumbersGetInsertedWindowDimsSize,
                capi::floorsStablehloScatterDimensionNumbersGetInsertedWindowDimsElem,
            ),
            input_batching_dims: list_field(
                attr,
                capi::floorsStablehloScatterDimensionNumbersGetInputBatchingDimsSize,
                capi::floorsStablehloScatterDimensionNumbersGetInputBatchingDimsElem,
            ),
            scatter_indices_batching_dims: list_field(
                attr,
                capi::floorsStablehloScatterDimensionNumbersGetScatterIndicesBatchingDimsSize,
                capi::floorsStablehloScatterDimensionNumbersGetScatterIndicesBatchingDimsElem,
            ),
            scatter_dims_to_operand_dims: list_field(
                attr,
                capi::floorsStablehloScatterDimensionNumbersGetScatterDimsToOperandDimsSize,
                capi::floorsStablehloScatterDimensionNumbersGetScatterDimsToOperandDimsElem,
            ),
            // SAFETY: `attr` is a non-null `#stablehlo.scatter` (checked above), as the getter's `cast` requires.
            index_vector_dim: unsafe { capi::floorsStablehloScatterDimensionNumbersGetIndexVectorDim(attr) },
        })
    }

    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        let (n_uw, uw) = c_list(&self.update_window_dims);
        let (n_iw, iw) = c_list(&self.inserted_window_dims);
        let (n_ib, ib) = c_list(&self.input_batching_dims);
        let (n_sb, sb) = c_list(&self.scatter_indices_batching_dims);
        let (n_map, map) = c_list(&self.scatter_dims_to_operand_dims);
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; each (length, pointer) pair comes from a
        // live slice of `self`, which the attribute copies.
        unsafe {
            capi::floorsStablehloScatterDimensionNumbersGet(ctx, n_uw, uw, n_iw, iw, n_ib, ib, n_sb, sb, n_map, map, self.index_vector_dim)
        }
    }
}

// ---------------------------------------------------------------------------
// Builtin attribute readers (private)
// ---------------------------------------------------------------------------

/// A `DenseI64ArrayAttr` (`array<i64: ...>`) as a Vec.
fn i64s(a: MlirAttribute) -> Option<Vec<i64>> {
    // SAFETY: callers pass non-null attributes (from `raw::attr`); elements are read only of a dense i64 array, at
    // indices below its size.
    unsafe {
        if !mlirAttributeIsADenseI64Array(a) {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(a);
        Some((0..n).map(|i| mlirDenseI64ArrayGetElement(a, i)).collect())
    }
}

/// A `DenseBoolArrayAttr` (`array<i1: ...>`) as a Vec.
fn bools(a: MlirAttribute) -> Option<Vec<bool>> {
    // SAFETY: callers pass non-null attributes (from `raw::attr`); elements are read only of a dense bool array, at
    // indices below its size.
    unsafe {
        if !mlirAttributeIsADenseBoolArray(a) {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(a);
        Some((0..n).map(|i| mlirDenseBoolArrayGetElement(a, i)).collect())
    }
}

/// An `I64Attr` (`1 : i64`) as an i64; `None` for another integer width
/// (a `BoolAttr` is an i1 integer attribute, for one).
fn int(a: MlirAttribute) -> Option<i64> {
    // SAFETY: callers pass non-null attributes (from `raw::attr`); the type and value are read only of an integer
    // attribute, the width only of an integer type.
    unsafe {
        let is_i64 = mlirAttributeIsAInteger(a) && {
            let t = mlirAttributeGetType(a);
            mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64
        };
        is_i64.then(|| mlirIntegerAttrGetValueInt(a))
    }
}

/// A `BoolAttr` (`true` / `false`).
fn boolean(a: MlirAttribute) -> Option<bool> {
    // SAFETY: callers pass non-null attributes (from `raw::attr`); the value is read only of a bool attribute.
    unsafe { mlirAttributeIsABool(a).then(|| mlirBoolAttrGetValue(a)) }
}

/// An `I64ElementsAttr` of type `tensor<Nx2xi64>` (a `padding` attribute,
/// possibly a splat) as N (low, high) pairs.
fn pairs(a: MlirAttribute) -> Option<Vec<(i64, i64)>> {
    // SAFETY: callers pass non-null attributes (from `raw::attr`); the type is read of a dense int elements attribute
    // (a shaped type), the width only of an integer type, and the i64 getter only for 64-bit elements, at indices
    // below 2n, the element count of the `Nx2` shape (a splat answers any index).
    unsafe {
        if !mlirAttributeIsADenseIntElements(a) {
            return None;
        }
        let ty = mlirAttributeGetType(a);
        let elem = mlirShapedTypeGetElementType(ty);
        if !mlirTypeIsAInteger(elem) || mlirIntegerTypeGetWidth(elem) != 64 {
            return None;
        }
        let n = match raw::type_shape(ty)?.as_slice() {
            [n, 2] => *n as isize,
            _ => return None,
        };
        Some((0..n).map(|i| (mlirDenseElementsAttrGetInt64Value(a, 2 * i), mlirDenseElementsAttrGetInt64Value(a, 2 * i + 1))).collect())
    }
}

/// A required attribute, read with `read`.
fn required<T>(op: MlirOperation, name: &str, read: impl FnOnce(MlirAttribute) -> Option<T>) -> Option<T> {
    raw::attr(op, name).and_then(read)
}

/// An optional attribute: `default` when absent, `None` when present but not
/// readable with `read`.
fn optional<T>(op: MlirOperation, name: &str, read: impl FnOnce(MlirAttribute) -> Option<T>, default: impl FnOnce() -> T) -> Option<T> {
    match raw::attr(op, name) {
        None => Some(default()),
        Some(a) => read(a),
    }
}

/// An optional `BoolAttr` whose default is `false` (`DefaultValuedOptionalAttr<BoolAttr, "false">`).
fn flag(op: MlirOperation, name: &str) -> bool {
    raw::attr(op, name).and_then(boolean).unwrap_or(false)
}

/// An optional `precision_config`: one `Precision` per operand of a two-operand
/// op, `DEFAULT` for both when absent; `None` if an entry is not a precision.
pub fn precision_config(op: MlirOperation) -> Option<Vec<Precision>> {
    let Some(a) = raw::attr(op, "precision_config") else {
        return Some(vec![Precision::Default; 2]);
    };
    // SAFETY: `a` is non-null (from `raw::attr`); elements are read only of an array attribute, at indices below its
    // size.
    unsafe {
        if !mlirAttributeIsAArray(a) {
            return None;
        }
        (0..mlirArrayAttrGetNumElements(a)).map(|i| Precision::from_attr(mlirArrayAttrGetElement(a, i))).collect()
    }
}

fn num_operands(op: MlirOperation) -> usize {
    // SAFETY: `op` is the op of a view: non-null (checked by `cast`) and live by the handle rule.
    unsafe { mlirOperationGetNumOperands(op) as usize }
}

// ---------------------------------------------------------------------------
// Op views
// ---------------------------------------------------------------------------

/// Declares a typed view of one stablehlo op: a raw handle whose op name was
/// checked by `cast`.
macro_rules! op_view {
    ($(#[$doc:meta])* $view:ident = $name:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $view {
            op: MlirOperation,
        }

        impl $view {
            /// The op's name in the IR.
            pub const NAME: &'static str = $name;

            /// The view of `op`, or `None` if `op` is null or another op.
            pub fn cast(op: impl AsRawOperation) -> Option<Self> {
                let op = op.as_raw_operation();
                (!op.ptr.is_null() && raw::name(op) == Self::NAME).then_some(Self { op })
            }

            /// The underlying operation.
            pub fn operation(&self) -> MlirOperation {
                self.op
            }
        }
    };
}

op_view! {
    /// `stablehlo.dot_general` (spec: "dot_general").
    DotGeneralOp = "stablehlo.dot_general"
}

impl DotGeneralOp {
    /// The `dot_dimension_numbers` attribute.
    pub fn dimension_numbers(&self) -> Option<DotDimensionNumbers> {
        required(self.op, "dot_dimension_numbers", DotDimensionNumbers::from_attr)
    }

    /// `precision_config`: one entry per operand, `[DEFAULT, DEFAULT]` when absent.
    pub fn precision_config(&self) -> Option<Vec<Precision>> {
        precision_config(self.op)
    }
}

op_view! {
    /// `stablehlo.convolution` (spec: "convolution"). The window attributes
    /// have one entry per spatial dimension and default per the spec when absent.
    ConvolutionOp = "stablehlo.convolution"
}

impl ConvolutionOp {
    /// The `dimension_numbers` attribute.
    pub fn dimension_numbers(&self) -> Option<ConvDimensionNumbers> {
        required(self.op, "dimension_numbers", ConvDimensionNumbers::from_attr)
    }

    /// Number of spatial dimensions, from the dimension numbers.
    pub fn num_spatial_dims(&self) -> Option<usize> {
        self.dimension_numbers().map(|d| d.num_spatial_dims())
    }

    /// `window_strides`, all 1 when absent.
    pub fn window_strides(&self) -> Option<Vec<i64>> {
        let n = self.num_spatial_dims()?;
        optional(self.op, "window_strides", i64s, || vec![1; n])
    }

    /// `padding` as (low, high) per spatial dimension, all (0, 0) when absent.
    pub fn padding(&self) -> Option<Vec<(i64, i64)>> {
        let n = self.num_spatial_dims()?;
        optional(self.op, "padding", pairs, || vec![(0, 0); n])
    }

    /// `lhs_dilation`, all 1 when absent.
    pub fn lhs_dilation(&self) -> Option<Vec<i64>> {
        let n = self.num_spatial_dims()?;
        optional(self.op, "lhs_dilation", i64s, || vec![1; n])
    }

    /// `rhs_dilation`, all 1 when absent.
    pub fn rhs_dilation(&self) -> Option<Vec<i64>> {
        let n = self.num_spatial_dims()?;
        optional(self.op, "rhs_dilation", i64s, || vec![1; n])
    }

    /// `window_reversal`, all false when absent.
    pub fn window_reversal(&self) -> Option<Vec<bool>> {
        let n = self.num_spatial_dims()?;
        optional(self.op, "window_reversal", bools, || vec![false; n])
    }

    /// `feature_group_count`.
    pub fn feature_group_count(&self) -> Option<i64> {
        required(self.op, "feature_group_count", int)
    }

    /// `batch_group_count`.
    pub fn batch_group_count(&self) -> Option<i64> {
        required(self.op, "batch_group_count", int)
    }

    /// `precision_config`: one entry per operand, `[DEFAULT, DEFAULT]` when absent.
    pub fn precision_config(&self) -> Option<Vec<Precision>> {
        precision_config(self.op)
    }
}

op_view! {
    /// `stablehlo.gather` (spec: "gather").
    GatherOp = "stablehlo.gather"
}

impl GatherOp {
    /// The `dimension_numbers` attribute.
    pub fn dimension_numbers(&self) -> Option<GatherDimensionNumbers> {
        required(self.op, "dimension_numbers", GatherDimensionNumbers::from_attr)
    }

    /// `slice_sizes`.
    pub fn slice_sizes(&self) -> Option<Vec<i64>> {
        required(self.op, "slice_sizes", i64s)
    }

    /// `indices_are_sorted`, false when absent.
    pub fn indices_are_sorted(&self) -> bool {
        flag(self.op, "indices_are_sorted")
    }
}

op_view! {
    /// `stablehlo.scatter` (spec: "scatter"). Operands are `inputs...`,
    /// `scatter_indices`, `updates...`.
    ScatterOp = "stablehlo.scatter"
}

impl ScatterOp {
    /// The `scatter_dimension_numbers` attribute.
    pub fn dimension_numbers(&self) -> Option<ScatterDimensionNumbers> {
        required(self.op, "scatter_dimension_numbers", ScatterDimensionNumbers::from_attr)
    }

    /// `indices_are_sorted`, false when absent.
    pub fn indices_are_sorted(&self) -> bool {
        flag(self.op, "indices_are_sorted")
    }

    /// `unique_indices`, false when absent.
    pub fn unique_indices(&self) -> bool {
        flag(self.op, "unique_indices")
    }

    /// Number of `inputs` (= number of `updates`).
    pub fn num_inputs(&self) -> usize {
        num_operands(self.op).saturating_sub(1) / 2
    }
}

op_view! {
    /// `stablehlo.compare` (spec: "compare").
    CompareOp = "stablehlo.compare"
}

impl CompareOp {
    /// `comparison_direction`.
    pub fn direction(&self) -> Option<ComparisonDirection> {
        required(self.op, "comparison_direction", ComparisonDirection::from_attr)
    }

    /// `compare_type`; `None` when absent (the spec then derives it from the
    /// element type: FLOAT for floats, SIGNED/UNSIGNED for integers).
    pub fn compare_type(&self) -> Option<ComparisonType> {
        raw::attr(self.op, "compare_type").and_then(ComparisonType::from_attr)
    }
}

op_view! {
    /// `stablehlo.reduce` (spec: "reduce"). Operands are `inputs...`, `init_values...`.
    ReduceOp = "stablehlo.reduce"
}

impl ReduceOp {
    /// `dimensions` reduced.
    pub fn dimensions(&self) -> Option<Vec<i64>> {
        required(self.op, "dimensions", i64s)
    }

    /// Number of `inputs` (= number of `init_values` = number of results).
    pub fn num_inputs(&self) -> usize {
        num_operands(self.op) / 2
    }
}

op_view! {
    /// `stablehlo.broadcast_in_dim` (spec: "broadcast_in_dim").
    BroadcastInDimOp = "stablehlo.broadcast_in_dim"
}

impl BroadcastInDimOp {
    /// `broadcast_dimensions`: result dimension of each operand dimension.
    pub fn broadcast_dimensions(&self) -> Option<Vec<i64>> {
        required(self.op, "broadcast_dimensions", i64s)
    }
}

op_view! {
    /// `stablehlo.transpose` (spec: "transpose").
    TransposeOp = "stablehlo.transpose"
}

impl TransposeOp {
    /// `permutation`.
    pub fn permutation(&self) -> Option<Vec<i64>> {
        required(self.op, "permutation", i64s)
    }
}

op_view! {
    /// `stablehlo.slice` (spec: "slice").
    SliceOp = "stablehlo.slice"
}

impl SliceOp {
    /// `start_indices`.
    pub fn start_indices(&self) -> Option<Vec<i64>> {
        required(self.op, "start_indices", i64s)
    }

    /// `limit_indices` (exclusive).
    pub fn limit_indices(&self) -> Option<Vec<i64>> {
        required(self.op, "limit_indices", i64s)
    }

    /// `strides`.
    pub fn strides(&self) -> Option<Vec<i64>> {
        required(self.op, "strides", i64s)
    }
}

op_view! {
    /// `stablehlo.pad` (spec: "pad").
    PadOp = "stablehlo.pad"
}

impl PadOp {
    /// `edge_padding_low` (may be negative).
    pub fn edge_padding_low(&self) -> Option<Vec<i64>> {
        required(self.op, "edge_padding_low", i64s)
    }

    /// `edge_padding_high` (may be negative).
    pub fn edge_padding_high(&self) -> Option<Vec<i64>> {
        required(self.op, "edge_padding_high", i64s)
    }

    /// `interior_padding`.
    pub fn interior_padding(&self) -> Option<Vec<i64>> {
        required(self.op, "interior_padding", i64s)
    }
}

op_view! {
    /// `stablehlo.iota` (spec: "iota").
    IotaOp = "stablehlo.iota"
}

impl IotaOp {
    /// `iota_dimension`.
    pub fn iota_dimension(&self) -> Option<i64> {
        required(self.op, "iota_dimension", int)
    }
}

op_view! {
    /// `stablehlo.concatenate` (spec: "concatenate").
    ConcatenateOp = "stablehlo.concatenate"
}

impl ConcatenateOp {
    /// `dimension` along which the inputs are joined.
    pub fn dimension(&self) -> Option<i64> {
        required(self.op, "dimension", int)
    }
}

op_view! {
    /// `stablehlo.reverse` (spec: "reverse").
    ReverseOp = "stablehlo.reverse"
}

impl ReverseOp {
    /// `dimensions` reversed.
    pub fn dimensions(&self) -> Option<Vec<i64>> {
        required(self.op, "dimensions", i64s)
    }
}

op_view! {
    /// `stablehlo.dynamic_slice` (spec: "dynamic_slice").
    DynamicSliceOp = "stablehlo.dynamic_slice"
}

impl DynamicSliceOp {
    /// `slice_sizes`.
    pub fn slice_sizes(&self) -> Option<Vec<i64>> {
        required(self.op, "slice_sizes", i64s)
    }
}

op_view! {
    /// `stablehlo.sort` (spec: "sort").
    SortOp = "stablehlo.sort"
}

impl SortOp {
    /// `dimension` as written; -1 when absent (the dialect's default). The
    /// spec allows `-rank <= dimension < rank`; see [`Self::resolved_dimension`].
    pub fn dimension(&self) -> Option<i64> {
        optional(self.op, "dimension", int, || -1)
    }

    /// `dimension` in `0..rank` (a negative one counts from the back), using
    /// the rank of the first input; `None` if out of range or not ranked.
    pub fn resolved_dimension(&self) -> Option<i64> {
        let d = self.dimension()?;
        let first = raw::operands(self.op).into_iter().next()?;
        // SAFETY: `first` is an operand of the view's live op; the rank is read only of a ranked tensor type.
        let rank = unsafe {
            let t = mlirValueGetType(first);
            if !mlirTypeIsARankedTensor(t) {
                return None;
            }
            mlirShapedTypeGetRank(t)
        };
        let d = if d < 0 { d + rank } else { d };
        (0..rank).contains(&d).then_some(d)
    }

    /// `is_stable`, false when absent.
    pub fn is_stable(&self) -> bool {
        flag(self.op, "is_stable")
    }
}

op_view! {
    /// `stablehlo.reduce_window` (spec: "reduce_window"). Operands are
    /// `inputs...`, `init_values...`; the window attributes have one entry per
    /// input dimension and default per the spec when absent.
    ReduceWindowOp = "stablehlo.reduce_window"
}

impl ReduceWindowOp {
    /// `window_dimensions`.
    pub fn window_dimensions(&self) -> Option<Vec<i64>> {
        required(self.op, "window_dimensions", i64s)
    }

    fn rank(&self) -> Option<usize> {
        self.window_dimensions().map(|w| w.len())
    }

    /// `window_strides`, all 1 when absent.
    pub fn window_strides(&self) -> Option<Vec<i64>> {
        let n = self.rank()?;
        optional(self.op, "window_strides", i64s, || vec![1; n])
    }

    /// `base_dilations`, all 1 when absent.
    pub fn base_dilations(&self) -> Option<Vec<i64>> {
        let n = self.rank()?;
        optional(self.op, "base_dilations", i64s, || vec![1; n])
    }

    /// `window_dilations`, all 1 when absent.
    pub fn window_dilations(&self) -> Option<Vec<i64>> {
        let n = self.rank()?;
        optional(self.op, "window_dilations", i64s, || vec![1; n])
    }

    /// `padding` as (low, high) per dimension, all (0, 0) when absent.
    pub fn padding(&self) -> Option<Vec<(i64, i64)>> {
        let n = self.rank()?;
        optional(self.op, "padding", pairs, || vec![(0, 0); n])
    }

    /// Number of `inputs` (= number of `init_values` = number of results).
    pub fn num_inputs(&self) -> usize {
        num_operands(self.op) / 2
    }
}

op_view! {
    /// `stablehlo.constant` (spec: "constant").
    ConstantOp = "stablehlo.constant"
}

impl ConstantOp {
    /// The `value` attribute (an elements attribute).
    pub fn value(&self) -> Option<MlirAttribute> {
        // SAFETY: `a` is non-null (from `raw::attr`).
        required(self.op, "value", |a| unsafe { mlirAttributeIsAElements(a) }.then_some(a))
    }
}

/// One entry of `output_operand_aliases` (`#stablehlo.output_operand_alias<...>`):
/// output `output_tuple_indices` of the custom call is operand
/// `operand_index` (at `operand_tuple_indices`), updated in place.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct OutputOperandAlias {
    pub output_tuple_indices: Vec<i64>,
    pub operand_index: i64,
    pub operand_tuple_indices: Vec<i64>,
}

impl OutputOperandAlias {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: the shim's `isa` needs a non-null `attr`; this function does not check it, but its one caller
        // passes an element of a live array attribute, never null.
        if !unsafe { capi::floorsStablehloAttrIsAOutputOperandAlias(attr) } {
            return None;
        }
        Some(Self {
            output_tuple_indices: list_field(
                attr,
                capi::floorsStablehloOutputOperandAliasGetOutputTupleIndicesSize,
                capi::floorsStablehloOutputOperandAliasGetOutputTupleIndicesElem,
            ),
            // SAFETY: `attr` is a `#stablehlo.output_operand_alias` (checked above), as the getter's `cast` requires.
            operand_index: unsafe { capi::floorsStablehloOutputOperandAliasGetOperandIndex(attr) },
            operand_tuple_indices: list_field(
                attr,
                capi::floorsStablehloOutputOperandAliasGetOperandTupleIndicesSize,
                capi::floorsStablehloOutputOperandAliasGetOperandTupleIndicesElem,
            ),
        })
    }
}

/// A custom call's `backend_config`: absent, an opaque string, or (with
/// `api_version = 4`, the typed FFI) a dictionary.
#[derive(Clone, Copy, Debug)]
pub enum BackendConfig {
    None,
    String(MlirAttribute),
    Dictionary(MlirAttribute),
}

op_view! {
    /// `stablehlo.custom_call` (spec: "custom_call").
    CustomCallOp = "stablehlo.custom_call"
}

impl CustomCallOp {
    /// `call_target_name`.
    pub fn call_target_name(&self) -> Option<String> {
        required(self.op, "call_target_name", |a| {
            // SAFETY: `a` is non-null (from `raw::attr`); its string is read only of a string attribute and copied at
            // once.
            unsafe { mlirAttributeIsAString(a) }.then(|| raw::string(unsafe { mlirStringAttrGetValue(a) }))
        })
    }

    /// `has_side_effect` (default false).
    pub fn has_side_effect(&self) -> bool {
        flag(self.op, "has_side_effect")
    }

    /// `api_version` as an i32 (default 1, `API_VERSION_ORIGINAL`; 4 is
    /// `API_VERSION_TYPED_FFI`).
    pub fn api_version(&self) -> Option<i32> {
        optional(
            self.op,
            "api_version",
            // SAFETY: `a` is non-null (from `raw::attr`); the value is read only of an integer attribute.
            |a| unsafe { mlirAttributeIsAInteger(a) }.then(|| unsafe { mlirIntegerAttrGetValueInt(a) } as i32),
            || 1,
        )
    }

    /// `backend_config`.
    pub fn backend_config(&self) -> Option<BackendConfig> {
        match raw::attr(self.op, "backend_config") {
            None => Some(BackendConfig::None),
            // SAFETY: `a` is non-null (from `raw::attr`).
            Some(a) if unsafe { mlirAttributeIsAString(a) } => Some(BackendConfig::String(a)),
            // SAFETY: as above: `a` is non-null.
            Some(a) if unsafe { mlirAttributeIsADictionary(a) } => Some(BackendConfig::Dictionary(a)),
            Some(_) => None,
        }
    }

    /// `mhlo.backend_config`: the typed FFI attributes as JAX prints them
    /// (`{eps = 1.0e-05 : f32}`), when it is a dictionary.
    pub fn mhlo_backend_config(&self) -> Option<MlirAttribute> {
        // SAFETY: `a` is non-null (from `raw::attr`).
        raw::attr(self.op, "mhlo.backend_config").filter(|&a| unsafe { mlirAttributeIsADictionary(a) })
    }

    /// `output_operand_aliases` (default none); `None` if an entry is not an alias.
    pub fn output_operand_aliases(&self) -> Option<Vec<OutputOperandAlias>> {
        let Some(a) = raw::attr(self.op, "output_operand_aliases") else {
            return Some(Vec::new());
        };
        // SAFETY: `a` is non-null (from `raw::attr`); elements are read only of an array attribute, at indices below
        // its size.
        unsafe {
            if !mlirAttributeIsAArray(a) {
                return None;
            }
            (0..mlirArrayAttrGetNumElements(a)).map(|i| OutputOperandAlias::from_attr(mlirArrayAttrGetElement(a, i))).collect()
        }
    }
}

/// `#stablehlo.channel_handle<handle = 1, type = 1>` of collectives, send and
/// recv (spec: "send", `channel_id` and `channel_type`): `kind` 0 is invalid,
/// 1 device-to-device, 2 device-to-host, 3 host-to-device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChannelHandle {
    pub handle: i64,
    pub kind: i64,
}

impl ChannelHandle {
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: `attr` is checked non-null first (`||` short-circuits), as the shim's `isa` requires.
        if attr.ptr.is_null() || !unsafe { capi::floorsStablehloAttrIsAChannelHandle(attr) } {
            return None;
        }
        // SAFETY: `attr` is a non-null `#stablehlo.channel_handle` (checked above), as the getters' `cast` require.
        unsafe {
            Some(Self { handle: capi::floorsStablehloChannelHandleGetHandle(attr), kind: capi::floorsStablehloChannelHandleGetType(attr) })
        }
    }

    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        // SAFETY: `ctx` is a live context with the stablehlo dialect loaded.
        unsafe { capi::floorsStablehloChannelHandleGet(ctx, self.handle, self.kind) }
    }

    /// The `channel_handle` attribute of `op` (a collective, send or recv):
    /// handle 0, type 0 (no channel) when absent, as it may be on collectives;
    /// `None` when present but not a channel handle.
    pub fn of(op: impl AsRawOperation) -> Option<Self> {
        optional(op.as_raw_operation(), "channel_handle", Self::from_attr, Self::default)
    }
}

/// The bounds of a tensor type's dynamic dimensions (`tensor<?x4xf32,
/// #stablehlo.bounds<8, ?>>`): one entry per dimension, `None` for `?`.
/// `None` when the type has no bounds encoding.
pub fn tensor_bounds(ty: MlirType) -> Option<Vec<Option<i64>>> {
    // SAFETY: `ty` must be a live, non-null type (callers pass value types; this function does not check); the
    // encoding is read only of a ranked tensor, the bounds only of a non-null `#stablehlo.bounds`, at indices below
    // their count.
    unsafe {
        if !mlirTypeIsARankedTensor(ty) {
            return None;
        }
        let enc = mlirRankedTensorTypeGetEncoding(ty);
        if enc.ptr.is_null() || !capi::floorsStablehloAttrIsATypeExtensions(enc) {
            return None;
        }
        let dynamic = mlirShapedTypeGetDynamicSize();
        let bounds = list_field(enc, capi::floorsStablehloTypeExtensionsGetBoundsSize, capi::floorsStablehloTypeExtensionsGetBoundsElem);
        Some(bounds.into_iter().map(|b| (b != dynamic).then_some(b)).collect())
    }
}

/// `#stablehlo.bounds<...>` with one entry per dimension (`None` for `?`).
pub fn bounds_to_attr(ctx: MlirContext, bounds: &[Option<i64>]) -> MlirAttribute {
    // SAFETY: the getter takes nothing and returns a constant.
    let dynamic = unsafe { mlirShapedTypeGetDynamicSize() };
    let v: Vec<i64> = bounds.iter().map(|b| b.unwrap_or(dynamic)).collect();
    let (n, p) = c_list(&v);
    // SAFETY: `ctx` is a live context with the stablehlo dialect loaded; `v` (`n` entries) outlives the call and the
    // attribute copies it.
    unsafe { capi::floorsStablehloTypeExtensionsGet(ctx, n, p) }
}

op_view! {
    /// `stablehlo.triangular_solve` (spec: "triangular_solve").
    TriangularSolveOp = "stablehlo.triangular_solve"
}

impl TriangularSolveOp {
    /// `left_side`: solve op(a)·x = b (true) or x·op(a) = b (false).
    pub fn left_side(&self) -> Option<bool> {
        required(self.op, "left_side", boolean)
    }

    /// `lower`: a's lower (true) or upper (false) triangle is used.
    pub fn lower(&self) -> Option<bool> {
        required(self.op, "lower", boolean)
    }

    /// `unit_diagonal`: a's diagonal is taken to be ones.
    pub fn unit_diagonal(&self) -> Option<bool> {
        required(self.op, "unit_diagonal", boolean)
    }

    /// `transpose_a`: op(a) is a, its transpose or its adjoint.
    pub fn transpose_a(&self) -> Option<Transpose> {
        required(self.op, "transpose_a", Transpose::from_attr)
    }
}

op_view! {
    /// `stablehlo.fft` (spec: "fft").
    FftOp = "stablehlo.fft"
}

impl FftOp {
    /// `fft_type`.
    pub fn fft_type(&self) -> Option<FftType> {
        required(self.op, "fft_type", FftType::from_attr)
    }

    /// `fft_length`: the sizes of the transformed (minor) dimensions.
    pub fn fft_length(&self) -> Option<Vec<i64>> {
        required(self.op, "fft_length", i64s)
    }
}

op_view! {
    /// `stablehlo.cholesky` (spec: "cholesky").
    CholeskyOp = "stablehlo.cholesky"
}

impl CholeskyOp {
    /// `lower` (default false): the lower or the upper factor.
    pub fn lower(&self) -> bool {
        flag(self.op, "lower")
    }
}
