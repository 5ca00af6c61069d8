//! Custom-call attributes as data, and their encoding into the C layout a
//! call frame carries.
//!
//! The compiler turns a custom call's attribute dictionary (`mhlo.backend_config
//! = {eps = 1.0e-05 : f32}` as JAX prints it) into [`Attrs`]: names sorted,
//! each value a scalar (bool, i8…i64, u8…u64, f32, f64), a dense array of
//! one of those, a string, or a nested dictionary — what XLA's FFI passes
//! (`xla/ffi/attribute_map.cc`). The artifact stores them; the runtime
//! encodes them once per call site ([`EncodedAttrs`]: `XLA_FFI_Attrs` with
//! its names, `XLA_FFI_Scalar`s, `XLA_FFI_Array`s, byte spans and nested
//! dictionaries, all kept at stable addresses) and every call frame points
//! at that one copy.

use std::ffi::{c_int, c_void};
use std::fmt;

use serde::{Deserialize, Serialize};

use super::c_api::*;
use crate::npy::ElementType;

/// An element type of FFI buffers, scalars and arrays (XLA's numbering is
/// [`DataType::code`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DataType {
    Pred,
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bf16,
    C64,
    C128,
}

impl DataType {
    pub const ALL: [DataType; 15] = [
        DataType::Pred,
        DataType::S8,
        DataType::S16,
        DataType::S32,
        DataType::S64,
        DataType::U8,
        DataType::U16,
        DataType::U32,
        DataType::U64,
        DataType::F16,
        DataType::F32,
        DataType::F64,
        DataType::Bf16,
        DataType::C64,
        DataType::C128,
    ];

    /// `XLA_FFI_DataType` value.
    pub fn code(self) -> XLA_FFI_DataType {
        match self {
            DataType::Pred => XLA_FFI_DataType_PRED,
            DataType::S8 => XLA_FFI_DataType_S8,
            DataType::S16 => XLA_FFI_DataType_S16,
            DataType::S32 => XLA_FFI_DataType_S32,
            DataType::S64 => XLA_FFI_DataType_S64,
            DataType::U8 => XLA_FFI_DataType_U8,
            DataType::U16 => XLA_FFI_DataType_U16,
            DataType::U32 => XLA_FFI_DataType_U32,
            DataType::U64 => XLA_FFI_DataType_U64,
            DataType::F16 => XLA_FFI_DataType_F16,
            DataType::F32 => XLA_FFI_DataType_F32,
            DataType::F64 => XLA_FFI_DataType_F64,
            DataType::Bf16 => XLA_FFI_DataType_BF16,
            DataType::C64 => XLA_FFI_DataType_C64,
            DataType::C128 => XLA_FFI_DataType_C128,
        }
    }

    pub fn from_code(code: XLA_FFI_DataType) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.code() == code)
    }

    pub fn bytes(self) -> usize {
        match self {
            DataType::Pred | DataType::S8 | DataType::U8 => 1,
            DataType::S16 | DataType::U16 | DataType::F16 | DataType::Bf16 => 2,
            DataType::S32 | DataType::U32 | DataType::F32 => 4,
            DataType::S64 | DataType::U64 | DataType::F64 | DataType::C64 => 8,
            DataType::C128 => 16,
        }
    }

    /// The MLIR spelling (`i1`, `i32`, `ui8`, `f32`, `bf16`, ...).
    pub fn mlir_name(self) -> &'static str {
        match self {
            DataType::Pred => "i1",
            DataType::S8 => "i8",
            DataType::S16 => "i16",
            DataType::S32 => "i32",
            DataType::S64 => "i64",
            DataType::U8 => "ui8",
            DataType::U16 => "ui16",
            DataType::U32 => "ui32",
            DataType::U64 => "ui64",
            DataType::F16 => "f16",
            DataType::F32 => "f32",
            DataType::F64 => "f64",
            DataType::Bf16 => "bf16",
            DataType::C64 => "complex<f32>",
            DataType::C128 => "complex<f64>",
        }
    }

    /// The FFI type of a buffer of `.npy`-carried element type `t`.
    pub fn of_element_type(t: ElementType) -> Self {
        match t {
            ElementType::Bool => DataType::Pred,
            ElementType::I8 => DataType::S8,
            ElementType::I16 => DataType::S16,
            ElementType::I32 => DataType::S32,
            ElementType::I64 => DataType::S64,
            ElementType::U8 => DataType::U8,
            ElementType::U16 => DataType::U16,
            ElementType::U32 => DataType::U32,
            ElementType::U64 => DataType::U64,
            ElementType::F16 => DataType::F16,
            ElementType::F32 => DataType::F32,
            ElementType::F64 => DataType::F64,
            ElementType::Bf16 => DataType::Bf16,
            ElementType::C64 => DataType::C64,
            ElementType::C128 => DataType::C128,
        }
    }
}

/// The name of an `XLA_FFI_DataType` value in messages (`f32`, or `dtype 99`).
pub fn dtype_name(code: XLA_FFI_DataType) -> String {
    DataType::from_code(code).map_or_else(|| format!("dtype {code}"), |d| d.mlir_name().to_string())
}

/// A Rust type that is an FFI scalar / array element type.
pub trait NativeType: Copy + Send + Sync + 'static {
    const DTYPE: DataType;
    /// The value's bytes, little-endian, zero-extended to 8.
    fn to_bits(self) -> u64;
    /// From the first `size_of::<Self>()` bytes (native order).
    fn from_bits(bits: u64) -> Self;
}

macro_rules! native {
    ($($t:ty => $d:ident),* $(,)?) => {$(
        impl NativeType for $t {
            const DTYPE: DataType = DataType::$d;
            fn to_bits(self) -> u64 {
                let mut b = [0u8; 8];
                b[..size_of::<$t>()].copy_from_slice(&self.to_le_bytes());
                u64::from_le_bytes(b)
            }
            fn from_bits(bits: u64) -> Self {
                let b = bits.to_le_bytes();
                <$t>::from_le_bytes(b[..size_of::<$t>()].try_into().expect("width"))
            }
        }
    )*};
}
native!(i8 => S8, i16 => S16, i32 => S32, i64 => S64, u8 => U8, u16 => U16, u32 => U32, u64 => U64, f32 => F32, f64 => F64);

impl NativeType for bool {
    const DTYPE: DataType = DataType::Pred;
    fn to_bits(self) -> u64 {
        self as u64
    }
    fn from_bits(bits: u64) -> Self {
        bits & 0xff != 0
    }
}

/// One attribute value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attr {
    /// `value` is the scalar's bytes, little-endian, in the low bytes.
    Scalar {
        dtype: DataType,
        bits: u64,
    },
    /// Elements little-endian, `bytes.len()` a multiple of the element size.
    Array {
        dtype: DataType,
        #[serde(with = "serde_bytes")]
        bytes: Vec<u8>,
    },
    String(String),
    Dict(Attrs),
}

impl Attr {
    pub fn scalar<T: NativeType>(v: T) -> Self {
        Attr::Scalar { dtype: T::DTYPE, bits: v.to_bits() }
    }

    pub fn array<T: NativeType>(v: &[T]) -> Self {
        let n = T::DTYPE.bytes();
        Attr::Array { dtype: T::DTYPE, bytes: v.iter().flat_map(|x| x.to_bits().to_le_bytes()[..n].to_vec()).collect() }
    }

    pub fn string(s: impl Into<String>) -> Self {
        Attr::String(s.into())
    }

    /// What it is, for messages: `f32 scalar`, `i64 array`, `string`, `dictionary`.
    pub fn kind(&self) -> String {
        match self {
            Attr::Scalar { dtype, .. } => format!("{} scalar", dtype.mlir_name()),
            Attr::Array { dtype, .. } => format!("{} array", dtype.mlir_name()),
            Attr::String(_) => "string".into(),
            Attr::Dict(_) => "dictionary".into(),
        }
    }
}

fn fmt_scalar(f: &mut fmt::Formatter<'_>, dtype: DataType, bits: u64) -> fmt::Result {
    match dtype {
        DataType::Pred => write!(f, "{}", <bool as NativeType>::from_bits(bits)),
        DataType::S8 => write!(f, "{}", <i8 as NativeType>::from_bits(bits)),
        DataType::S16 => write!(f, "{}", <i16 as NativeType>::from_bits(bits)),
        DataType::S32 => write!(f, "{}", <i32 as NativeType>::from_bits(bits)),
        DataType::S64 => write!(f, "{}", <i64 as NativeType>::from_bits(bits)),
        DataType::U8 | DataType::U16 | DataType::U32 | DataType::U64 => write!(f, "{bits}"),
        DataType::F32 => write!(f, "{:?}", <f32 as NativeType>::from_bits(bits)),
        DataType::F64 => write!(f, "{:?}", <f64 as NativeType>::from_bits(bits)),
        DataType::F16 | DataType::Bf16 => write!(f, "0x{bits:04x}"),
        // Never an attribute (floors encodes none); shown as bits.
        DataType::C64 | DataType::C128 => write!(f, "0x{bits:x}"),
    }
}

impl fmt::Display for Attr {
    /// MLIR-like: `1e-5 : f32`, `true`, `array<i64: 1, 2>`, `"s"`, `{a = ...}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attr::Scalar { dtype: DataType::Pred, bits } => write!(f, "{}", <bool as NativeType>::from_bits(*bits)),
            Attr::Scalar { dtype, bits } => {
                fmt_scalar(f, *dtype, *bits)?;
                write!(f, " : {}", dtype.mlir_name())
            }
            Attr::Array { dtype, bytes } => {
                write!(f, "array<{}", dtype.mlir_name())?;
                for (i, chunk) in bytes.chunks_exact(dtype.bytes()).enumerate() {
                    let mut b = [0u8; 8];
                    b[..chunk.len()].copy_from_slice(chunk);
                    f.write_str(if i == 0 { ": " } else { ", " })?;
                    fmt_scalar(f, *dtype, u64::from_le_bytes(b))?;
                }
                f.write_str(">")
            }
            Attr::String(s) => write!(f, "{s:?}"),
            Attr::Dict(d) => write!(f, "{d}"),
        }
    }
}

/// An attribute dictionary: names sorted and unique (as the FFI passes them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attrs {
    entries: Vec<(String, Attr)>,
}

impl Attrs {
    /// Sorts by name; a name given twice is an error.
    pub fn new(entries: impl IntoIterator<Item = (String, Attr)>) -> Result<Self, String> {
        let mut entries: Vec<(String, Attr)> = entries.into_iter().collect();
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("attribute `{}` is given twice", w[0].0));
        }
        Ok(Self { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Attr)> {
        self.entries.iter().map(|(n, a)| (n.as_str(), a))
    }

    pub fn get(&self, name: &str) -> Option<&Attr> {
        self.entries.binary_search_by(|(n, _)| n.as_bytes().cmp(name.as_bytes())).ok().map(|i| &self.entries[i].1)
    }

    /// Names sorted and unique, arrays whole elements, at every level: what
    /// a deserialized dictionary must be before it is encoded.
    pub fn check(&self) -> Result<(), String> {
        if let Some(w) = self.entries.windows(2).find(|w| w[0].0.as_bytes() >= w[1].0.as_bytes()) {
            return Err(format!("attributes `{}` and `{}` are not sorted by name", w[0].0, w[1].0));
        }
        for (name, a) in &self.entries {
            match a {
                Attr::Array { dtype, bytes } if bytes.len() % dtype.bytes() != 0 => {
                    return Err(format!("attribute `{name}`: {} bytes is not a whole number of {}", bytes.len(), dtype.mlir_name()));
                }
                // A bool is one byte, 0 or 1: a handler reads it as C's bool.
                Attr::Array { dtype: DataType::Pred, bytes } if bytes.iter().any(|&b| b > 1) => {
                    return Err(format!("attribute `{name}`: a bool array holds bytes other than 0 and 1"));
                }
                Attr::Scalar { dtype: DataType::Pred, bits } if *bits > 1 => {
                    return Err(format!("attribute `{name}`: a bool scalar is {bits}, not 0 or 1"));
                }
                // No bits above the scalar's width.
                Attr::Scalar { dtype, bits } if dtype.bytes() < 8 && bits >> (8 * dtype.bytes()) != 0 => {
                    return Err(format!("attribute `{name}`: bits above the width of {}", dtype.mlir_name()));
                }
                Attr::Dict(d) => d.check().map_err(|e| format!("attribute `{name}`: {e}"))?,
                _ => {}
            }
        }
        Ok(())
    }
}

impl fmt::Display for Attrs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (n, a)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n} = {a}")?;
        }
        f.write_str("}")
    }
}

// ---------------------------------------------------------------------------

/// An [`Attrs`] in the FFI's C layout. Every pointer in it points into heap
/// blocks this value owns and never moves or writes after `encode`, so one
/// encoding serves every call frame of a call site, from any thread.
pub struct EncodedAttrs {
    root: XLA_FFI_Attrs,
    _store: Store,
}

// SAFETY: immutable after construction; the raw pointers only point into
// `_store`, which lives as long as the value.
unsafe impl Send for EncodedAttrs {}
unsafe impl Sync for EncodedAttrs {}

/// Boxes, not plain vectors: every pointer handed out must stay put while
/// more entries are pushed.
#[derive(Default)]
#[allow(clippy::vec_box)]
struct Store {
    bytes: Vec<Box<[u8]>>,
    words: Vec<Box<[u64]>>,
    spans: Vec<Box<XLA_FFI_ByteSpan>>,
    scalars: Vec<Box<XLA_FFI_Scalar>>,
    arrays: Vec<Box<XLA_FFI_Array>>,
    dicts: Vec<Box<XLA_FFI_Attrs>>,
    types: Vec<Box<[c_int]>>,
    names: Vec<Box<[*mut XLA_FFI_ByteSpan]>>,
    values: Vec<Box<[*mut c_void]>>,
}

impl Store {
    fn span(&mut self, s: &str) -> *mut XLA_FFI_ByteSpan {
        let bytes: Box<[u8]> = s.as_bytes().into();
        let mut span = Box::new(XLA_FFI_ByteSpan { ptr: bytes.as_ptr().cast(), len: bytes.len() });
        self.bytes.push(bytes);
        let p: *mut XLA_FFI_ByteSpan = &mut *span;
        self.spans.push(span);
        p
    }

    /// 8-byte aligned storage holding `bytes`.
    fn aligned(&mut self, bytes: &[u8]) -> *mut c_void {
        let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)].into_boxed_slice();
        // SAFETY: `words` has at least `bytes.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), words.as_mut_ptr().cast::<u8>(), bytes.len()) };
        let p = words.as_mut_ptr().cast();
        self.words.push(words);
        p
    }

    fn dict(&mut self, attrs: &Attrs) -> XLA_FFI_Attrs {
        let mut types = Vec::with_capacity(attrs.len());
        let mut names = Vec::with_capacity(attrs.len());
        let mut values = Vec::with_capacity(attrs.len());
        for (name, a) in attrs.iter() {
            names.push(self.span(name));
            let (t, v): (c_int, *mut c_void) = match a {
                Attr::Scalar { dtype, bits } => {
                    let value = self.aligned(&bits.to_le_bytes());
                    let mut s = Box::new(XLA_FFI_Scalar { dtype: dtype.code(), value });
                    let p: *mut XLA_FFI_Scalar = &mut *s;
                    self.scalars.push(s);
                    (XLA_FFI_AttrType_SCALAR, p.cast())
                }
                Attr::Array { dtype, bytes } => {
                    let data = self.aligned(bytes);
                    let mut arr = Box::new(XLA_FFI_Array { dtype: dtype.code(), size: bytes.len() / dtype.bytes(), data });
                    let p: *mut XLA_FFI_Array = &mut *arr;
                    self.arrays.push(arr);
                    (XLA_FFI_AttrType_ARRAY, p.cast())
                }
                Attr::String(s) => (XLA_FFI_AttrType_STRING, self.span(s).cast()),
                Attr::Dict(d) => {
                    let mut inner = Box::new(self.dict(d));
                    let p: *mut XLA_FFI_Attrs = &mut *inner;
                    self.dicts.push(inner);
                    (XLA_FFI_AttrType_DICTIONARY, p.cast())
                }
            };
            types.push(t);
            values.push(v);
        }
        let mut types = types.into_boxed_slice();
        let mut names = names.into_boxed_slice();
        let mut values = values.into_boxed_slice();
        let raw = XLA_FFI_Attrs {
            struct_size: XLA_FFI_Attrs_STRUCT_SIZE,
            extension_start: std::ptr::null_mut(),
            size: attrs.len() as i64,
            types: types.as_mut_ptr(),
            names: names.as_mut_ptr(),
            attrs: values.as_mut_ptr(),
        };
        self.types.push(types);
        self.names.push(names);
        self.values.push(values);
        raw
    }
}

impl EncodedAttrs {
    pub fn encode(attrs: &Attrs) -> Result<Self, String> {
        attrs.check()?;
        let mut store = Store::default();
        let root = store.dict(attrs);
        Ok(Self { root, _store: store })
    }

    /// The top-level dictionary, as a call frame holds it (by value).
    pub fn raw(&self) -> XLA_FFI_Attrs {
        self.root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attrs_sort_refuse_duplicates_and_print_like_mlir() {
        let a = Attrs::new([
            ("shift".to_string(), Attr::scalar(-1i64)),
            ("eps".to_string(), Attr::scalar(1e-5f32)),
            ("dims".to_string(), Attr::array(&[1i64, 2])),
            ("flag".to_string(), Attr::scalar(true)),
            ("name".to_string(), Attr::string("x")),
        ])
        .unwrap();
        assert_eq!(a.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["dims", "eps", "flag", "name", "shift"]);
        assert_eq!(a.to_string(), r#"{dims = array<i64: 1, 2>, eps = 1e-5 : f32, flag = true, name = "x", shift = -1 : i64}"#);
        assert_eq!(a.get("eps"), Some(&Attr::scalar(1e-5f32)));
        assert!(Attrs::new([("a".to_string(), Attr::scalar(1i32)), ("a".to_string(), Attr::scalar(2i32))]).is_err());
    }

    #[test]
    fn encoding_has_the_c_layout() {
        let inner = Attrs::new([("k".to_string(), Attr::scalar(7u8))]).unwrap();
        let a = Attrs::new([
            ("arr".to_string(), Attr::array(&[1.5f64, -2.0])),
            ("d".to_string(), Attr::Dict(inner)),
            ("s".to_string(), Attr::string("hello")),
            ("x".to_string(), Attr::scalar(2.5f32)),
        ])
        .unwrap();
        let enc = EncodedAttrs::encode(&a).unwrap();
        let raw = enc.raw();
        assert_eq!(raw.size, 4);
        unsafe {
            let name = |i: usize| {
                let s = &**raw.names.add(i);
                std::str::from_utf8(std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len)).unwrap().to_string()
            };
            assert_eq!((0..4).map(name).collect::<Vec<_>>(), ["arr", "d", "s", "x"]);
            assert_eq!(*raw.types, XLA_FFI_AttrType_ARRAY);
            let arr = &*(*raw.attrs).cast::<XLA_FFI_Array>();
            assert_eq!((arr.dtype, arr.size), (XLA_FFI_DataType_F64, 2));
            assert_eq!(std::slice::from_raw_parts(arr.data.cast::<f64>(), 2), [1.5, -2.0]);
            assert_eq!(*raw.types.add(1), XLA_FFI_AttrType_DICTIONARY);
            let d = &*(*raw.attrs.add(1)).cast::<XLA_FFI_Attrs>();
            let k = &*(*d.attrs).cast::<XLA_FFI_Scalar>();
            assert_eq!((d.size, k.dtype, *k.value.cast::<u8>()), (1, XLA_FFI_DataType_U8, 7));
            assert_eq!(*raw.types.add(2), XLA_FFI_AttrType_STRING);
            let s = &*(*raw.attrs.add(2)).cast::<XLA_FFI_ByteSpan>();
            assert_eq!(std::slice::from_raw_parts(s.ptr.cast::<u8>(), s.len), b"hello");
            let x = &*(*raw.attrs.add(3)).cast::<XLA_FFI_Scalar>();
            assert_eq!((x.dtype, *x.value.cast::<f32>()), (XLA_FFI_DataType_F32, 2.5));
        }
    }

    #[test]
    fn unsorted_or_ragged_attributes_are_refused() {
        let bad: Attrs = postcard::from_bytes(
            &postcard::to_stdvec(&vec![("b".to_string(), Attr::scalar(1i32)), ("a".to_string(), Attr::scalar(2i32))]).unwrap(),
        )
        .unwrap();
        assert!(EncodedAttrs::encode(&bad).err().unwrap().contains("not sorted"));
        let ragged = Attrs::new([("a".to_string(), Attr::Array { dtype: DataType::F32, bytes: vec![0; 5] })]).unwrap();
        assert!(EncodedAttrs::encode(&ragged).err().unwrap().contains("whole number"));
    }
}
