//! Host arrays in NumPy's `.npy` format (through the `npyz` crate), and the
//! checks that an array fits a function argument before anything runs.
//! bf16 travels as its uint16 bit pattern, as the corpus stores it.

use std::path::Path;

use npyz::WriterBuilder;

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
    /// bf16, stored in `.npy` as `<u2` bit patterns.
    Bf16,
}

impl ElementType {
    pub fn bytes(self) -> usize {
        match self {
            ElementType::Bool | ElementType::I8 | ElementType::U8 => 1,
            ElementType::I16 | ElementType::U16 | ElementType::Bf16 => 2,
            ElementType::I32 | ElementType::U32 | ElementType::F32 => 4,
            ElementType::I64 | ElementType::U64 | ElementType::F64 => 8,
        }
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
        }
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
            ElementType::Bf16 => "bf16",
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
            _ => return None,
        })
    }
}

/// A dense, row-major host array.
#[derive(Clone, Debug, PartialEq)]
pub struct HostArray {
    pub element_type: ElementType,
    pub shape: Vec<u64>,
    /// Little-endian element bytes, row-major.
    pub bytes: Vec<u8>,
}

impl HostArray {
    pub fn num_elements(&self) -> u64 {
        self.shape.iter().product()
    }

    /// `f32[8,16]`-style description for messages.
    pub fn describe(&self) -> String {
        format!("{}{:?}", self.element_type.mlir_name(), self.shape)
    }
}

fn bad(path: &Path, message: impl Into<String>) -> Error {
    Error::Npy { path: path.into(), message: message.into() }
}

macro_rules! read_as {
    ($file:expr, $t:ty, $path:expr) => {{
        let v: Vec<$t> = $file.into_vec::<$t>().map_err(|e| bad($path, format!("cannot read the data: {e}")))?;
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
    }};
}

/// Reads a `.npy` file; a file that is not one, a Fortran-order array, an
/// unsupported dtype or a short data section is an error naming the file.
pub fn read(path: &Path) -> Result<HostArray> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io { path: path.into(), source })?;
    let file = npyz::NpyFile::new(&bytes[..]).map_err(|e| bad(path, format!("not a .npy file: {e}")))?;
    if file.order() == npyz::Order::Fortran {
        return Err(bad(path, "Fortran-order arrays are not supported; save with C order"));
    }
    let descr = match file.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => return Err(bad(path, format!("unsupported dtype {}", other.descr()))),
    };
    let element_type = ElementType::from_descr(&descr).ok_or_else(|| bad(path, format!("unsupported dtype '{descr}'")))?;
    let shape = file.shape().to_vec();
    let data = match element_type {
        ElementType::Bool => {
            let v: Vec<bool> = file.into_vec::<bool>().map_err(|e| bad(path, format!("cannot read the data: {e}")))?;
            v.into_iter().map(u8::from).collect()
        }
        ElementType::I8 => read_as!(file, i8, path),
        ElementType::I16 => read_as!(file, i16, path),
        ElementType::I32 => read_as!(file, i32, path),
        ElementType::I64 => read_as!(file, i64, path),
        ElementType::U8 => read_as!(file, u8, path),
        ElementType::U16 | ElementType::Bf16 => read_as!(file, u16, path),
        ElementType::U32 => read_as!(file, u32, path),
        ElementType::U64 => read_as!(file, u64, path),
        ElementType::F32 => read_as!(file, f32, path),
        ElementType::F64 => read_as!(file, f64, path),
    };
    let expected = shape.iter().product::<u64>() as usize * element_type.bytes();
    if data.len() != expected {
        return Err(bad(path, format!("data holds {} bytes, the header promises {expected}", data.len())));
    }
    Ok(HostArray { element_type, shape, bytes: data })
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
    pub fn bytes(&self) -> u64 {
        self.shape.iter().product::<u64>() * self.element_type.bytes() as u64
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
            return Err(Error::Input(format!(
                "input {index} ({}): expected {} (.npy dtype {}, shape {:?}), got dtype {} shape {:?}",
                path.display(),
                self.describe(),
                self.element_type.npy_descr(),
                self.shape,
                arr.element_type.npy_descr(),
                arr.shape
            )));
        }
        Ok(())
    }
}
