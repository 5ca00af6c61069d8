//! Host arrays in NumPy's `.npy` format (through the `npyz` crate), and the
//! checks that an array fits a function argument before anything runs.
//! bf16 travels as its uint16 bit pattern, as the corpus stores it.

use std::path::Path;

use npyz::WriterBuilder;

use crate::buffer::AlignedBuffer;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Element types floors moves between `.npy` files and tensors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    /// IEEE half, `<f2` in `.npy`.
    F16,
    /// bf16, stored in `.npy` as `<u2` bit patterns.
    Bf16,
    /// `complex<f32>`: (re, im) as two f32, `<c8` in `.npy`.
    C64,
    /// `complex<f64>`: (re, im) as two f64, `<c16` in `.npy`.
    C128,
}

impl ElementType {
    pub fn bytes(self) -> usize {
        match self {
            ElementType::Bool | ElementType::I8 | ElementType::U8 => 1,
            ElementType::I16 | ElementType::U16 | ElementType::Bf16 | ElementType::F16 => 2,
            ElementType::I32 | ElementType::U32 | ElementType::F32 => 4,
            ElementType::I64 | ElementType::U64 | ElementType::F64 | ElementType::C64 => 8,
            ElementType::C128 => 16,
        }
    }

    /// Bytes of one scalar component: the element's, or a complex number's
    /// real part (what a byte swap reverses).
    pub fn component_bytes(self) -> usize {
        match self {
            ElementType::C64 => 4,
            ElementType::C128 => 8,
            t => t.bytes(),
        }
    }

    /// Whether this is a complex type.
    pub fn is_complex(self) -> bool {
        matches!(self, ElementType::C64 | ElementType::C128)
    }

    /// The `.npy` type string that stores this element type.
    pub fn npy_descr(self) -> &'static str {
        match self {
            ElementType::Bool => "|b1",
            ElementType::I8 => "|i1",
            ElementType::I16 => "<i2",
            ElementType::I32 => "<i4",
            ElementType::I64 => "<i8",
            ElementType::U8 => "|u1",
            ElementType::U16 | ElementType::Bf16 => "<u2",
            ElementType::U32 => "<u4",
            ElementType::U64 => "<u8",
            ElementType::F32 => "<f4",
            ElementType::F64 => "<f8",
            ElementType::F16 => "<f2",
            ElementType::C64 => "<c8",
            ElementType::C128 => "<c16",
        }
    }

    /// The element type MLIR spells `name` (`f32`, `ui32`, `i1`, ...).
    pub fn from_mlir_name(name: &str) -> Option<Self> {
        use ElementType::*;
        [Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, F16, Bf16, C64, C128].into_iter().find(|t| t.mlir_name() == name)
    }

    /// The MLIR spelling (`f32`, `i1`, `bf16` ...).
    pub fn mlir_name(self) -> &'static str {
        match self {
            ElementType::Bool => "i1",
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::I64 => "i64",
            ElementType::U8 => "ui8",
            ElementType::U16 => "ui16",
            ElementType::U32 => "ui32",
            ElementType::U64 => "ui64",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
            ElementType::F16 => "f16",
            ElementType::Bf16 => "bf16",
            ElementType::C64 => "complex<f32>",
            ElementType::C128 => "complex<f64>",
        }
    }

    fn from_descr(descr: &str) -> Option<Self> {
        // '=' and '<' both mean little endian on the machines floors targets.
        let d = descr.replace('=', "<");
        Some(match d.as_str() {
            "|b1" => ElementType::Bool,
            "|i1" => ElementType::I8,
            "<i2" => ElementType::I16,
            "<i4" => ElementType::I32,
            "<i8" => ElementType::I64,
            "|u1" => ElementType::U8,
            "<u2" => ElementType::U16,
            "<u4" => ElementType::U32,
            "<u8" => ElementType::U64,
            "<f4" => ElementType::F32,
            "<f8" => ElementType::F64,
            "<f2" => ElementType::F16,
            "<c8" => ElementType::C64,
            "<c16" => ElementType::C128,
            _ => return None,
        })
    }
}

/// A dense, row-major host array.
#[derive(Clone, Debug, PartialEq)]
pub struct HostArray {
    pub element_type: ElementType,
    pub shape: Vec<u64>,
    /// Little-endian element bytes, row-major; 64-byte aligned (see
    /// [`AlignedBuffer`]: kernels stream big outputs with non-temporal
    /// stores, which need aligned buffers).
    pub bytes: AlignedBuffer,
}

impl HostArray {
    /// Saturates at u64::MAX (a shape that overflows fits no buffer).
    pub fn num_elements(&self) -> u64 {
        self.shape.iter().fold(1u64, |a, &d| a.saturating_mul(d))
    }

    /// `f32[8,16]`-style description for messages.
    pub fn describe(&self) -> String {
        format!("{}{:?}", self.element_type.mlir_name(), self.shape)
    }
}

fn bad(path: &Path, message: impl Into<String>) -> Error {
    Error::Npy { path: path.into(), message: message.into() }
}

/// Header bytes a `.npy` file may have; numpy's own are a few hundred.
const MAX_HEADER_BYTES: usize = 1 << 20;

/// Reads a `.npy` file. The header is read and checked first (magic,
/// version, dtype, shape, and that the file holds exactly the data it
/// promises), so a file that is not an array fails at once whatever its size.
/// Big-endian arrays are byte-swapped and Fortran-order arrays transposed
/// to row-major, as numpy reads them.
pub fn read(path: &Path) -> Result<HostArray> {
    use std::io::Read;
    let io = |source| Error::Io { path: path.into(), source };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(bad(path, "not a regular file (a .npy input must be a file)"));
    }
    let mut prefix = [0u8; 12];
    let got = read_up_to(&mut file, &mut prefix).map_err(io)?;
    if got < 10 || &prefix[..6] != b"\x93NUMPY" {
        return Err(bad(path, "not a .npy file (no \\x93NUMPY magic)"));
    }
    let (header_len, data_offset) = match prefix[6] {
        1 => {
            let n = u16::from_le_bytes([prefix[8], prefix[9]]) as usize;
            (n, 10 + n)
        }
        2 | 3 if got == 12 => {
            let n = u32::from_le_bytes([prefix[8], prefix[9], prefix[10], prefix[11]]) as usize;
            (n, 12 + n)
        }
        v => return Err(bad(path, format!("unsupported .npy format version {v}"))),
    };
    if header_len > MAX_HEADER_BYTES {
        return Err(bad(path, format!("a {header_len}-byte header is not a .npy header")));
    }
    let mut head = prefix[..got].to_vec();
    head.resize(data_offset, 0);
    if got < data_offset {
        file.read_exact(&mut head[got..]).map_err(|_| bad(path, "truncated .npy header"))?;
    }
    let parsed = npyz::NpyFile::new(&head[..]).map_err(|e| bad(path, format!("not a .npy file: {e}")))?;
    let (descr, fortran, shape) = match parsed.dtype() {
        npyz::DType::Plain(t) => (t.to_string(), parsed.order() == npyz::Order::Fortran, parsed.shape().to_vec()),
        other => return Err(bad(path, format!("unsupported dtype {}", other.descr()))),
    };
    let big_endian = descr.starts_with('>');
    let element_type =
        ElementType::from_descr(&descr.replacen('>', "<", 1)).ok_or_else(|| bad(path, format!("unsupported dtype '{descr}'")))?;
    let size = element_type.bytes();
    let component = element_type.component_bytes();
    let expected =
        shape.iter().try_fold(size as u64, |acc, &d| acc.checked_mul(d)).ok_or_else(|| bad(path, format!("shape {shape:?} overflows")))?;
    let have = meta.len().saturating_sub(data_offset as u64);
    if have != expected {
        return Err(bad(path, format!("data holds {have} bytes, the header promises {expected}")));
    }
    let mut data = AlignedBuffer::zeros(expected as usize);
    std::io::Read::read_exact(&mut file, &mut data).map_err(io)?;
    if big_endian && component > 1 {
        data.chunks_exact_mut(component).for_each(|c| c.reverse());
    }
    if element_type == ElementType::Bool && data.iter().any(|&b| b > 1) {
        return Err(bad(path, "a bool array holds bytes other than 0 and 1"));
    }
    if fortran && shape.len() > 1 {
        data = fortran_to_c(&data, &shape, size).into();
    }
    Ok(HostArray { element_type, shape, bytes: data })
}

/// Fills `buf` as far as the file allows; how many bytes were read.
fn read_up_to(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    use std::io::Read;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Column-major element bytes to row-major.
fn fortran_to_c(data: &[u8], shape: &[u64], size: usize) -> Vec<u8> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let mut out = vec![0u8; data.len()];
    // Fortran strides (in elements): the first dimension is contiguous.
    let mut fstride = vec![1usize; dims.len()];
    for k in 1..dims.len() {
        fstride[k] = fstride[k - 1] * dims[k - 1];
    }
    let mut index = vec![0usize; dims.len()];
    for c in 0..data.len() / size.max(1) {
        let f: usize = index.iter().zip(&fstride).map(|(i, s)| i * s).sum();
        out[c * size..(c + 1) * size].copy_from_slice(&data[f * size..(f + 1) * size]);
        // Next row-major index: last dimension fastest.
        for k in (0..dims.len()).rev() {
            index[k] += 1;
            if index[k] < dims[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

macro_rules! write_as {
    ($path:expr, $arr:expr, $t:ty, $n:expr) => {{
        let values: Vec<$t> =
            $arr.bytes.chunks_exact($n).map(|c| <$t>::from_le_bytes(c.try_into().expect("chunk of element size"))).collect();
        write_values($path, $arr, values)
    }};
}

fn write_values<T: npyz::Serialize + npyz::AutoSerialize>(path: &Path, arr: &HostArray, values: Vec<T>) -> Result<()> {
    let io = |source| Error::Io { path: path.into(), source };
    let descr: npyz::TypeStr = arr.element_type.npy_descr().parse().map_err(|_| bad(path, "bad dtype"))?;
    let file = std::fs::File::create(path).map_err(io)?;
    let mut writer = npyz::WriteOptions::new()
        .dtype(npyz::DType::Plain(descr))
        .shape(&arr.shape)
        .writer(std::io::BufWriter::new(file))
        .begin_nd()
        .map_err(io)?;
    writer.extend(values).map_err(io)?;
    writer.finish().map_err(io)
}

/// f16 has no Rust primitive npyz writes: the raw little-endian bits under
/// an `<f2` header.
/// Writes the bytes as they are under the element type's descr (f16 and
/// complex, which `npyz` does not serialize here).
fn write_raw(path: &Path, arr: &HostArray) -> Result<()> {
    let io = |source| Error::Io { path: path.into(), source };
    let dims: Vec<String> = arr.shape.iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", arr.element_type.npy_descr());
    // Magic (6) + version (2) + length (2) + header + newline, padded to 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + arr.bytes.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&arr.bytes);
    std::fs::write(path, out).map_err(io)
}

/// Writes a `.npy` file (C order).
pub fn write(path: &Path, arr: &HostArray) -> Result<()> {
    if arr.bytes.len() as u64 != arr.num_elements() * arr.element_type.bytes() as u64 {
        return Err(bad(path, format!("array {} has {} bytes of data", arr.describe(), arr.bytes.len())));
    }
    match arr.element_type {
        ElementType::Bool => write_values(path, arr, arr.bytes.iter().map(|&b| b != 0).collect::<Vec<bool>>()),
        ElementType::I8 => write_as!(path, arr, i8, 1),
        ElementType::I16 => write_as!(path, arr, i16, 2),
        ElementType::I32 => write_as!(path, arr, i32, 4),
        ElementType::I64 => write_as!(path, arr, i64, 8),
        ElementType::U8 => write_as!(path, arr, u8, 1),
        ElementType::U16 | ElementType::Bf16 => write_as!(path, arr, u16, 2),
        ElementType::F16 | ElementType::C64 | ElementType::C128 => write_raw(path, arr),
        ElementType::U32 => write_as!(path, arr, u32, 4),
        ElementType::U64 => write_as!(path, arr, u64, 8),
        ElementType::F32 => write_as!(path, arr, f32, 4),
        ElementType::F64 => write_as!(path, arr, f64, 8),
    }
}

/// What a function argument or result holds: element type and static shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorSpec {
    pub element_type: ElementType,
    pub shape: Vec<u64>,
}

impl TensorSpec {
    /// Bytes of a dense row-major array of this type.
    /// Saturates at u64::MAX (a shape that overflows fits no buffer).
    pub fn bytes(&self) -> u64 {
        self.shape.iter().fold(self.element_type.bytes() as u64, |a, &d| a.saturating_mul(d))
    }

    /// `tensor<8x16xf32>`.
    pub fn describe(&self) -> String {
        let dims: Vec<String> = self.shape.iter().map(|d| d.to_string()).collect();
        if dims.is_empty() {
            format!("tensor<{}>", self.element_type.mlir_name())
        } else {
            format!("tensor<{}x{}>", dims.join("x"), self.element_type.mlir_name())
        }
    }

    /// Checks that `arr` (read from `path`) can be argument `index`.
    pub fn check(&self, index: usize, path: &Path, arr: &HostArray) -> Result<()> {
        // bf16 arrives as uint16 bits; that is the only accepted stand-in.
        let type_ok =
            arr.element_type == self.element_type || (self.element_type == ElementType::Bf16 && arr.element_type == ElementType::U16);
        if !type_ok || arr.shape != self.shape {
            return Err(Error::Input {
                origin: path.display().to_string(),
                message: format!(
                    "input {index} ({}): expected {} (.npy dtype {}, shape {:?}), got dtype {} shape {:?}",
                    path.display(),
                    self.describe(),
                    self.element_type.npy_descr(),
                    self.shape,
                    arr.element_type.npy_descr(),
                    arr.shape
                ),
            });
        }
        Ok(())
    }
}
