//! The safe Rust binding of the FFI: what floors' own handlers (and any Rust
//! handler) are written against. A handler gets a [`CallFrame`] over the
//! same `XLA_FFI_CallFrame` a C++ handler gets, and decodes it with typed
//! accessors that return [`FfiError`]s naming the argument or attribute and
//! the expected type — never a panic, never a read outside a buffer.
//!
//! ```
//! use floors_runtime::ffi::{CustomCallRegistry, FfiError};
//!
//! let mut registry = CustomCallRegistry::with_builtins();
//! // y = x * scale + shift, for `custom_call @affine(%x) {mhlo.backend_config = {scale = 2.0 : f32, shift = 1 : i64}}`
//! registry.register_rust("affine", |frame| {
//!     let scale: f32 = frame.attr("scale")?;
//!     let shift: i64 = frame.attr("shift")?;
//!     let x = frame.arg::<f32>(0)?;
//!     let y = frame.ret::<f32>(0)?;
//!     if x.len() != y.len() {
//!         return Err(FfiError::invalid_argument("x and y differ in size"));
//!     }
//!     for (y, x) in y.iter_mut().zip(x) {
//!         *y = x * scale + shift as f32;
//!     }
//!     Ok(())
//! });
//! ```

use std::any::Any;
use std::cell::Cell;
use std::ffi::c_void;
use std::fmt;

use super::api::{self, ExecutionContext};
use super::attrs::{Attr, Attrs, DataType, NativeType, dtype_name};
use super::c_api::*;

/// An execution stage (XLA_FFI_ExecutionStage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    Instantiate,
    Prepare,
    Initialize,
    Execute,
}

impl Stage {
    pub const ALL: [Stage; 4] = [Stage::Instantiate, Stage::Prepare, Stage::Initialize, Stage::Execute];

    pub fn code(self) -> XLA_FFI_ExecutionStage {
        match self {
            Stage::Instantiate => XLA_FFI_ExecutionStage_INSTANTIATE,
            Stage::Prepare => XLA_FFI_ExecutionStage_PREPARE,
            Stage::Initialize => XLA_FFI_ExecutionStage_INITIALIZE,
            Stage::Execute => XLA_FFI_ExecutionStage_EXECUTE,
        }
    }

    pub fn from_code(code: XLA_FFI_ExecutionStage) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.code() == code)
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Instantiate => "instantiate",
            Stage::Prepare => "prepare",
            Stage::Initialize => "initialize",
            Stage::Execute => "execute",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A handler's error: an `XLA_FFI_Error_Code` and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfiError {
    pub code: XLA_FFI_Error_Code,
    pub message: String,
}

impl FfiError {
    pub fn new(code: XLA_FFI_Error_Code, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(XLA_FFI_Error_Code_INVALID_ARGUMENT, message)
    }
    pub fn failed_precondition(message: impl Into<String>) -> Self {
        Self::new(XLA_FFI_Error_Code_FAILED_PRECONDITION, message)
    }
    pub fn unimplemented(message: impl Into<String>) -> Self {
        Self::new(XLA_FFI_Error_Code_UNIMPLEMENTED, message)
    }
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(XLA_FFI_Error_Code_INTERNAL, message)
    }
}

impl fmt::Display for FfiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FfiError {}

/// A buffer argument or result as the frame describes it.
#[derive(Clone, Copy, Debug)]
pub struct BufferInfo<'a> {
    /// `XLA_FFI_DataType` value.
    pub dtype: XLA_FFI_DataType,
    pub data: *mut c_void,
    pub dims: &'a [i64],
}

impl BufferInfo<'_> {
    pub fn data_type(&self) -> Option<DataType> {
        DataType::from_code(self.dtype)
    }

    pub fn element_count(&self) -> u64 {
        self.dims.iter().map(|&d| d.max(0) as u64).product()
    }

    /// Bytes, for a data type floors knows.
    pub fn byte_size(&self) -> Option<usize> {
        Some(self.element_count() as usize * self.data_type()?.bytes())
    }

    /// `f32[2,4]`.
    pub fn describe(&self) -> String {
        format!("{}[{}]", dtype_name(self.dtype), self.dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","))
    }

    fn range(&self) -> Option<(usize, usize)> {
        let n = self.byte_size()?;
        (!self.data.is_null() && n > 0).then(|| (self.data as usize, self.data as usize + n))
    }
}

/// One call of a handler: buffers, attributes, stage and context. Only
/// floors builds these for its own handlers; [`invoke`] builds one over a
/// frame another runtime passes in.
pub struct CallFrame<'a> {
    raw: &'a XLA_FFI_CallFrame,
    /// Results handed out as `&mut` (each at most once).
    taken: Vec<Cell<bool>>,
}

impl<'a> CallFrame<'a> {
    /// A view of `frame`.
    ///
    /// # Safety
    /// `frame` is a valid call frame for `'a` (every array as long as its
    /// size says, every buffer as large as its dtype and dims say), and no
    /// other `CallFrame` over it exists meanwhile.
    pub unsafe fn from_raw(frame: *const XLA_FFI_CallFrame) -> Result<Self, FfiError> {
        if frame.is_null() {
            return Err(FfiError::invalid_argument("NULL call frame"));
        }
        let raw = unsafe { &*frame };
        if raw.struct_size < XLA_FFI_CallFrame_STRUCT_SIZE {
            return Err(FfiError::invalid_argument(format!(
                "XLA_FFI_CallFrame declares {} bytes, expected at least {XLA_FFI_CallFrame_STRUCT_SIZE}",
                raw.struct_size
            )));
        }
        let taken = (0..raw.rets.size.max(0)).map(|_| Cell::new(false)).collect();
        Ok(Self { raw, taken })
    }

    pub fn stage(&self) -> Option<Stage> {
        Stage::from_code(self.raw.stage)
    }

    pub fn num_args(&self) -> usize {
        self.raw.args.size.max(0) as usize
    }

    pub fn num_rets(&self) -> usize {
        self.raw.rets.size.max(0) as usize
    }

    fn buffer(&self, ret: bool, i: usize) -> Result<BufferInfo<'a>, FfiError> {
        let (what, n, types, ptrs) = if ret {
            ("result", self.num_rets(), self.raw.rets.types, self.raw.rets.rets)
        } else {
            ("argument", self.num_args(), self.raw.args.types, self.raw.args.args)
        };
        if i >= n {
            return Err(FfiError::invalid_argument(format!("{what} {i} does not exist: the call has {n}")));
        }
        // SAFETY: `i` < size, and the frame's arrays have `size` entries.
        let (t, p) = unsafe { (*types.add(i), *ptrs.add(i)) };
        if t != XLA_FFI_ArgType_BUFFER || p.is_null() {
            return Err(FfiError::invalid_argument(format!("{what} {i} is not a buffer")));
        }
        let b = unsafe { &*p.cast::<XLA_FFI_Buffer>() };
        let dims = if b.rank <= 0 || b.dims.is_null() { &[][..] } else { unsafe { std::slice::from_raw_parts(b.dims, b.rank as usize) } };
        Ok(BufferInfo { dtype: b.dtype, data: b.data, dims })
    }

    pub fn arg_info(&self, i: usize) -> Result<BufferInfo<'a>, FfiError> {
        self.buffer(false, i)
    }

    pub fn ret_info(&self, i: usize) -> Result<BufferInfo<'a>, FfiError> {
        self.buffer(true, i)
    }

    /// The bytes of a buffer, checked: data present (not in the instantiate
    /// stage), dtype known, `T`'s alignment.
    fn checked(&self, what: &str, i: usize, b: &BufferInfo<'a>, want: Option<DataType>, align: usize) -> Result<(), FfiError> {
        if let Some(w) = want
            && b.dtype != w.code()
        {
            return Err(FfiError::invalid_argument(format!("{what} {i} is {}, expected {} elements", b.describe(), w.mlir_name())));
        }
        if b.byte_size().is_none() {
            return Err(FfiError::invalid_argument(format!("{what} {i} has a data type floors does not know ({})", b.describe())));
        }
        if b.data.is_null() && b.element_count() > 0 {
            let stage = self.stage().map_or("this".into(), |s| s.to_string());
            return Err(FfiError::failed_precondition(format!("{what} {i} has no data in the {stage} stage")));
        }
        if !(b.data as usize).is_multiple_of(align) {
            return Err(FfiError::invalid_argument(format!("{what} {i} is not aligned to {align} bytes")));
        }
        Ok(())
    }

    /// The result a range of bytes overlaps, if any (other than `except`).
    fn overlapping_ret(&self, range: Option<(usize, usize)>, except: Option<usize>) -> Option<usize> {
        let (lo, hi) = range?;
        (0..self.num_rets())
            .filter(|&j| Some(j) != except)
            .find(|&j| self.ret_info(j).ok().and_then(|r| r.range()).is_some_and(|(rl, rh)| lo < rh && rl < hi))
    }

    fn arg_raw(&self, i: usize, want: Option<DataType>, align: usize) -> Result<(*const u8, usize), FfiError> {
        let b = self.arg_info(i)?;
        self.checked("argument", i, &b, want, align)?;
        if let Some(j) = self.overlapping_ret(b.range(), None) {
            return Err(FfiError::invalid_argument(format!(
                "argument {i} shares memory with result {j} (an output-operand alias): use ret({j}), which holds the argument's value"
            )));
        }
        let n = b.byte_size().unwrap_or(0);
        Ok((if n == 0 { std::ptr::NonNull::<u64>::dangling().as_ptr().cast() } else { b.data.cast::<u8>() }, n))
    }

    fn ret_raw(&self, i: usize, want: Option<DataType>, align: usize) -> Result<(*mut u8, usize), FfiError> {
        let b = self.ret_info(i)?;
        self.checked("result", i, &b, want, align)?;
        if let Some(j) = self.overlapping_ret(b.range(), Some(i)) {
            return Err(FfiError::invalid_argument(format!("result {i} shares memory with result {j}")));
        }
        if self.taken[i].replace(true) {
            return Err(FfiError::invalid_argument(format!("result {i} was already taken from this frame")));
        }
        let n = b.byte_size().unwrap_or(0);
        Ok((if n == 0 { std::ptr::NonNull::<u64>::dangling().as_ptr().cast() } else { b.data.cast::<u8>() }, n))
    }

    /// The result argument `i` shares memory with (an output-operand
    /// alias: the result starts out holding the argument's value), if any.
    pub fn arg_alias(&self, i: usize) -> Option<usize> {
        let b = self.arg_info(i).ok()?;
        self.overlapping_ret(b.range(), None)
    }

    /// A copy of result `i`'s bytes as they are now (before it is taken).
    pub fn ret_snapshot(&self, i: usize) -> Result<Vec<u8>, FfiError> {
        let b = self.ret_info(i)?;
        self.checked("result", i, &b, None, 1)?;
        if self.taken[i].get() {
            return Err(FfiError::invalid_argument(format!("result {i} was already taken from this frame")));
        }
        let n = b.byte_size().unwrap_or(0);
        // SAFETY: in bounds, and no `&mut` to it was handed out.
        Ok(if n == 0 { Vec::new() } else { unsafe { std::slice::from_raw_parts(b.data.cast::<u8>(), n) }.to_vec() })
    }

    /// Argument `i` as `T`s (its dtype must be `T`'s).
    pub fn arg<T: NativeType>(&self, i: usize) -> Result<&'a [T], FfiError> {
        let (p, n) = self.arg_raw(i, Some(T::DTYPE), align_of::<T>())?;
        // SAFETY: checked: in bounds (dtype × dims), aligned, no result aliases it.
        Ok(unsafe { std::slice::from_raw_parts(p.cast::<T>(), n / size_of::<T>()) })
    }

    /// Argument `i`'s bytes, whatever its dtype.
    pub fn arg_bytes(&self, i: usize) -> Result<&'a [u8], FfiError> {
        let (p, n) = self.arg_raw(i, None, 1)?;
        Ok(unsafe { std::slice::from_raw_parts(p, n) })
    }

    /// Result `i` as `T`s, writable; each result can be taken once per frame.
    #[allow(clippy::mut_from_ref)]
    pub fn ret<T: NativeType>(&self, i: usize) -> Result<&'a mut [T], FfiError> {
        let (p, n) = self.ret_raw(i, Some(T::DTYPE), align_of::<T>())?;
        // SAFETY: checked as `arg`, and handed out once: no other reference to it exists.
        Ok(unsafe { std::slice::from_raw_parts_mut(p.cast::<T>(), n / size_of::<T>()) })
    }

    /// Result `i`'s bytes, writable; each result can be taken once per frame.
    #[allow(clippy::mut_from_ref)]
    pub fn ret_bytes(&self, i: usize) -> Result<&'a mut [u8], FfiError> {
        let (p, n) = self.ret_raw(i, None, 1)?;
        Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
    }

    /// The call's attributes.
    pub fn attrs(&self) -> Dict<'a> {
        Dict { raw: &self.raw.attrs }
    }

    /// Attribute `name` decoded as `T`: an error names the attribute and
    /// the expected type when it is missing or of another type.
    pub fn attr<T: FromAttr<'a>>(&self, name: &str) -> Result<T, FfiError> {
        self.attrs().get(name)
    }

    /// floors' context behind this frame, if floors made it.
    fn context(&self) -> Option<&'a ExecutionContext<'a>> {
        (std::ptr::eq(self.raw.api, api::api()) && !self.raw.ctx.is_null())
            .then(|| unsafe { &*self.raw.ctx.cast::<ExecutionContext<'a>>() })
    }

    /// The state a Rust handler's instantiate stage returned for this call site.
    pub fn state<T: Any + Send + Sync>(&self) -> Result<&'a T, FfiError> {
        let ctx = self.context().ok_or_else(|| FfiError::failed_precondition("no floors execution context in this frame"))?;
        let state = ctx
            .instance
            .rust_state
            .get()
            .ok_or_else(|| FfiError::failed_precondition("no state: the handler's instantiate stage did not make one"))?;
        state.downcast_ref::<T>().ok_or_else(|| FfiError::invalid_argument(format!("the state is not a {}", std::any::type_name::<T>())))
    }

    /// Threads of the pool the program runs on (1: the caller's thread only).
    pub fn num_threads(&self) -> usize {
        self.context().and_then(|c| c.pool).map_or(1, |p| p.current_num_threads())
    }

    /// The underlying C frame.
    pub fn raw(&self) -> &'a XLA_FFI_CallFrame {
        self.raw
    }
}

// ---------------------------------------------------------------------------
// Attributes

/// A dictionary of attributes (the call's, or a nested one), sorted by name.
#[derive(Clone, Copy)]
pub struct Dict<'a> {
    raw: &'a XLA_FFI_Attrs,
}

/// One attribute as the frame holds it.
#[derive(Clone, Copy)]
pub enum AttrRef<'a> {
    Scalar { dtype: XLA_FFI_DataType, value: *const c_void },
    Array { dtype: XLA_FFI_DataType, size: usize, data: *const c_void },
    String(&'a [u8]),
    Dict(Dict<'a>),
    Unknown(XLA_FFI_AttrType),
}

impl AttrRef<'_> {
    /// `f32 scalar`, `i64 array`, `string`, `dictionary`.
    pub fn kind(&self) -> String {
        match self {
            AttrRef::Scalar { dtype, .. } => format!("{} scalar", dtype_name(*dtype)),
            AttrRef::Array { dtype, .. } => format!("{} array", dtype_name(*dtype)),
            AttrRef::String(_) => "string".into(),
            AttrRef::Dict(_) => "dictionary".into(),
            AttrRef::Unknown(t) => format!("attribute of unknown type {t}"),
        }
    }
}

impl<'a> Dict<'a> {
    pub fn len(&self) -> usize {
        self.raw.size.max(0) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn name(&self, i: usize) -> &'a str {
        // SAFETY: i < size; names are byte spans of the frame.
        unsafe {
            let span = *self.raw.names.add(i);
            if span.is_null() || (*span).ptr.is_null() {
                return "";
            }
            std::str::from_utf8(std::slice::from_raw_parts((*span).ptr.cast::<u8>(), (*span).len)).unwrap_or("")
        }
    }

    /// Names in order.
    pub fn names(&self) -> Vec<&'a str> {
        (0..self.len()).map(|i| self.name(i)).collect()
    }

    fn at(&self, i: usize) -> AttrRef<'a> {
        // SAFETY: i < size; entries are what their types say (the ABI).
        unsafe {
            let (t, p) = (*self.raw.types.add(i), *self.raw.attrs.add(i));
            match t {
                XLA_FFI_AttrType_SCALAR => {
                    let s = &*p.cast::<XLA_FFI_Scalar>();
                    AttrRef::Scalar { dtype: s.dtype, value: s.value }
                }
                XLA_FFI_AttrType_ARRAY => {
                    let a = &*p.cast::<XLA_FFI_Array>();
                    AttrRef::Array { dtype: a.dtype, size: a.size, data: a.data }
                }
                XLA_FFI_AttrType_STRING => {
                    let s = &*p.cast::<XLA_FFI_ByteSpan>();
                    AttrRef::String(if s.ptr.is_null() { &[] } else { std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len) })
                }
                XLA_FFI_AttrType_DICTIONARY => AttrRef::Dict(Dict { raw: &*p.cast::<XLA_FFI_Attrs>() }),
                t => AttrRef::Unknown(t),
            }
        }
    }

    /// Attribute `name`, undecoded.
    pub fn get_raw(&self, name: &str) -> Option<AttrRef<'a>> {
        (0..self.len()).find(|&i| self.name(i) == name).map(|i| self.at(i))
    }

    /// Attribute `name` as `T`.
    pub fn get<T: FromAttr<'a>>(&self, name: &str) -> Result<T, FfiError> {
        let Some(a) = self.get_raw(name) else {
            let names = self.names();
            let has =
                if names.is_empty() { "the call has no attributes".to_string() } else { format!("the call has {}", names.join(", ")) };
            return Err(FfiError::invalid_argument(format!("missing attribute `{name}` ({}; {has})", T::expected())));
        };
        T::from_attr(&a)
            .ok_or_else(|| FfiError::invalid_argument(format!("attribute `{name}`: expected {}, got {}", T::expected(), a.kind())))
    }

    /// An owned copy of every attribute.
    pub fn to_attrs(&self) -> Result<Attrs, FfiError> {
        let mut out = Vec::with_capacity(self.len());
        for i in 0..self.len() {
            let name = self.name(i);
            let a = self.at(i);
            let v = Attr::from_attr(&a)
                .ok_or_else(|| FfiError::invalid_argument(format!("attribute `{name}`: {} cannot be copied", a.kind())))?;
            out.push((name.to_string(), v));
        }
        Attrs::new(out).map_err(FfiError::invalid_argument)
    }
}

/// A Rust type an attribute decodes to.
pub trait FromAttr<'a>: Sized {
    /// What the attribute must be (`f32 scalar`), for errors.
    fn expected() -> String;
    fn from_attr(a: &AttrRef<'a>) -> Option<Self>;
}

macro_rules! scalar_from_attr {
    ($($t:ty),*) => {$(
        impl<'a> FromAttr<'a> for $t {
            fn expected() -> String {
                format!("{} scalar", <$t as NativeType>::DTYPE.mlir_name())
            }
            fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
                match *a {
                    AttrRef::Scalar { dtype, value } if dtype == <$t as NativeType>::DTYPE.code() && !value.is_null() => {
                        // SAFETY: a scalar of this dtype points to one such value.
                        Some(unsafe { value.cast::<$t>().read_unaligned() })
                    }
                    _ => None,
                }
            }
        }
        impl<'a> FromAttr<'a> for &'a [$t] {
            fn expected() -> String {
                format!("{} array", <$t as NativeType>::DTYPE.mlir_name())
            }
            fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
                match *a {
                    AttrRef::Array { dtype, size, data } if dtype == <$t as NativeType>::DTYPE.code() => {
                        if size == 0 {
                            return Some(&[]);
                        }
                        if data.is_null() || !(data as usize).is_multiple_of(align_of::<$t>()) {
                            return None;
                        }
                        Some(unsafe { std::slice::from_raw_parts(data.cast::<$t>(), size) })
                    }
                    _ => None,
                }
            }
        }
        impl<'a> FromAttr<'a> for Vec<$t> {
            fn expected() -> String {
                <&[$t]>::expected()
            }
            fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
                <&[$t]>::from_attr(a).map(<[$t]>::to_vec)
            }
        }
    )*};
}
scalar_from_attr!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

impl<'a> FromAttr<'a> for &'a str {
    fn expected() -> String {
        "string".into()
    }
    fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
        match a {
            AttrRef::String(b) => std::str::from_utf8(b).ok(),
            _ => None,
        }
    }
}

impl<'a> FromAttr<'a> for String {
    fn expected() -> String {
        "string".into()
    }
    fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
        <&str>::from_attr(a).map(str::to_string)
    }
}

impl<'a> FromAttr<'a> for Dict<'a> {
    fn expected() -> String {
        "dictionary".into()
    }
    fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
        match a {
            AttrRef::Dict(d) => Some(*d),
            _ => None,
        }
    }
}

impl<'a> FromAttr<'a> for Attr {
    fn expected() -> String {
        "attribute".into()
    }
    fn from_attr(a: &AttrRef<'a>) -> Option<Self> {
        Some(match *a {
            AttrRef::Scalar { dtype, value } => {
                let dtype = DataType::from_code(dtype)?;
                if value.is_null() {
                    return None;
                }
                let mut b = [0u8; 8];
                unsafe { std::ptr::copy_nonoverlapping(value.cast::<u8>(), b.as_mut_ptr(), dtype.bytes()) };
                Attr::Scalar { dtype, bits: u64::from_le_bytes(b) }
            }
            AttrRef::Array { dtype, size, data } => {
                let dtype = DataType::from_code(dtype)?;
                let n = size * dtype.bytes();
                let bytes = if n == 0 || data.is_null() {
                    Vec::new()
                } else {
                    unsafe { std::slice::from_raw_parts(data.cast::<u8>(), n) }.to_vec()
                };
                Attr::Array { dtype, bytes }
            }
            AttrRef::String(b) => Attr::String(String::from_utf8_lossy(b).into_owned()),
            AttrRef::Dict(d) => Attr::Dict(d.to_attrs().ok()?),
            AttrRef::Unknown(_) => return None,
        })
    }
}

// ---------------------------------------------------------------------------
// Handlers as C functions

/// Answers XLA's metadata query (a frame whose extension is
/// `XLA_FFI_Metadata_Extension`): this binding speaks FFI 0.3.
///
/// # Safety
/// `ext` is the frame's extension chain.
unsafe fn answer_metadata(ext: *mut XLA_FFI_Extension_Base, state_type_id: i64) -> Option<Result<(), FfiError>> {
    if ext.is_null() || unsafe { (*ext).type_ } != XLA_FFI_Extension_Metadata {
        return None;
    }
    let ext = ext.cast::<XLA_FFI_Metadata_Extension>();
    unsafe {
        if (*ext).extension_base.struct_size < XLA_FFI_Metadata_Extension_STRUCT_SIZE || (*ext).metadata.is_null() {
            return Some(Err(FfiError::invalid_argument("XLA_FFI_Metadata_Extension is too small")));
        }
        let m = (*ext).metadata;
        if (*m).struct_size < XLA_FFI_Metadata_STRUCT_SIZE {
            return Some(Err(FfiError::invalid_argument("XLA_FFI_Metadata is too small")));
        }
        (*m).api_version = XLA_FFI_Api_Version {
            struct_size: XLA_FFI_Api_Version_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            major_version: XLA_FFI_API_MAJOR,
            minor_version: XLA_FFI_API_MINOR,
        };
        (*m).traits = 0;
        (*m).state_type_id = XLA_FFI_TypeId { type_id: state_type_id };
    }
    Some(Ok(()))
}

/// Runs `handler` as an XLA FFI handler over `frame`: what an `extern "C"`
/// handler written in Rust calls, so the same Rust code can be registered
/// with floors (`register_c`) or with JAX. Answers the metadata query
/// itself, turns an `Err` or a panic into an `XLA_FFI_Error` made through the
/// frame's own API table.
///
/// # Safety
/// `frame` is NULL or a call frame its caller keeps valid during the call.
pub unsafe fn invoke(frame: *mut XLA_FFI_CallFrame, handler: impl FnOnce(&CallFrame<'_>) -> Result<(), FfiError>) -> *mut XLA_FFI_Error {
    if frame.is_null() {
        return api::new_error(XLA_FFI_Error_Code_INVALID_ARGUMENT, "NULL call frame");
    }
    let api_table = unsafe { (*frame).api };
    let result = match unsafe { answer_metadata((*frame).extension_start, 0) } {
        Some(r) => r,
        None => match unsafe { CallFrame::from_raw(frame) } {
            Ok(view) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&view)))
                .unwrap_or_else(|p| Err(FfiError::internal(format!("the handler panicked: {}", panic_message(&*p))))),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(()) => std::ptr::null_mut(),
        Err(e) => unsafe { make_error(api_table, e) },
    }
}

/// An error made through `api` (the caller's table), or floors' own.
unsafe fn make_error(api_table: *const XLA_FFI_Api, e: FfiError) -> *mut XLA_FFI_Error {
    if api_table.is_null() || std::ptr::eq(api_table, api::api()) {
        return api::new_error(e.code, e.message);
    }
    let msg = std::ffi::CString::new(e.message.replace('\0', "\\0")).unwrap_or_default();
    let mut args = XLA_FFI_Error_Create_Args {
        struct_size: XLA_FFI_Error_Create_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        message: msg.as_ptr(),
        errc: e.code,
    };
    unsafe { ((*api_table).XLA_FFI_Error_Create)(&mut args) }
}

/// A panic payload's message.
pub(crate) fn panic_message(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}
