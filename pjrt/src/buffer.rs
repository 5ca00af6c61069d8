//! `PJRT_Buffer`: an immutable host array in floors' runtime layout (dense,
//! row-major, little-endian; `npy::HostArray`) on the one device. Host data
//! in other layouts (byte strides, a permuted minor-to-major order) is copied
//! into that layout on the way in and out of it on the way out; tiled layouts
//! are refused.

use std::ffi::c_void;
use std::sync::RwLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use floors_runtime::npy::{ElementType, HostArray};

use crate::c_api::*;
use crate::client::client;
use crate::error::{Error, Result, args, guard, handle};
use crate::event::PJRT_Event;

/// The floors element type of a PJRT buffer type.
pub fn element_type(t: PJRT_Buffer_Type) -> Result<ElementType> {
    Ok(match t {
        PJRT_Buffer_Type_PRED => ElementType::Bool,
        PJRT_Buffer_Type_S8 => ElementType::I8,
        PJRT_Buffer_Type_S16 => ElementType::I16,
        PJRT_Buffer_Type_S32 => ElementType::I32,
        PJRT_Buffer_Type_S64 => ElementType::I64,
        PJRT_Buffer_Type_U8 => ElementType::U8,
        PJRT_Buffer_Type_U16 => ElementType::U16,
        PJRT_Buffer_Type_U32 => ElementType::U32,
        PJRT_Buffer_Type_U64 => ElementType::U64,
        PJRT_Buffer_Type_F16 => ElementType::F16,
        PJRT_Buffer_Type_F32 => ElementType::F32,
        PJRT_Buffer_Type_F64 => ElementType::F64,
        PJRT_Buffer_Type_BF16 => ElementType::Bf16,
        PJRT_Buffer_Type_C64 => ElementType::C64,
        PJRT_Buffer_Type_C128 => ElementType::C128,
        _ => return Err(Error::unimplemented(format!("the floors CPU floor has no {} element type", pjrt_type_name(t)))),
    })
}

/// The PJRT buffer type of a floors element type.
pub fn pjrt_type(t: ElementType) -> PJRT_Buffer_Type {
    match t {
        ElementType::Bool => PJRT_Buffer_Type_PRED,
        ElementType::I8 => PJRT_Buffer_Type_S8,
        ElementType::I16 => PJRT_Buffer_Type_S16,
        ElementType::I32 => PJRT_Buffer_Type_S32,
        ElementType::I64 => PJRT_Buffer_Type_S64,
        ElementType::U8 => PJRT_Buffer_Type_U8,
        ElementType::U16 => PJRT_Buffer_Type_U16,
        ElementType::U32 => PJRT_Buffer_Type_U32,
        ElementType::U64 => PJRT_Buffer_Type_U64,
        ElementType::F16 => PJRT_Buffer_Type_F16,
        ElementType::F32 => PJRT_Buffer_Type_F32,
        ElementType::F64 => PJRT_Buffer_Type_F64,
        ElementType::Bf16 => PJRT_Buffer_Type_BF16,
        ElementType::C64 => PJRT_Buffer_Type_C64,
        ElementType::C128 => PJRT_Buffer_Type_C128,
    }
}

fn pjrt_type_name(t: PJRT_Buffer_Type) -> String {
    const NAMES: [&str; 34] = [
        "INVALID",
        "PRED",
        "S8",
        "S16",
        "S32",
        "S64",
        "U8",
        "U16",
        "U32",
        "U64",
        "F16",
        "F32",
        "F64",
        "BF16",
        "C64 (complex64)",
        "C128 (complex128)",
        "F8E5M2",
        "F8E4M3FN",
        "F8E4M3B11FNUZ",
        "F8E5M2FNUZ",
        "F8E4M3FNUZ",
        "S4",
        "U4",
        "TOKEN",
        "S2",
        "U2",
        "F8E4M3",
        "F8E3M4",
        "F8E8M0FNU",
        "F4E2M1FN",
        "S1",
        "U1",
        "?",
        "?",
    ];
    usize::try_from(t).ok().and_then(|i| NAMES.get(i)).map_or_else(|| format!("buffer type {t}"), |s| s.to_string())
}

pub struct PJRT_Buffer {
    pub element_type: ElementType,
    pub dims: Vec<i64>,
    /// `[rank-1, ..., 0]`: the layout `PJRT_Buffer_GetMemoryLayout` reports.
    minor_to_major: Vec<i64>,
    /// None once deleted.
    array: RwLock<Option<HostArray>>,
    device: *mut PJRT_Device,
    memory: *mut PJRT_Memory,
    external_references: AtomicUsize,
}

// SAFETY: the device and memory pointers are the client's, immutable and
// alive as long as the client; the array is behind a lock.
unsafe impl Send for PJRT_Buffer {}
unsafe impl Sync for PJRT_Buffer {}

impl PJRT_Buffer {
    pub fn new(array: HostArray, device: *mut PJRT_Device, memory: *mut PJRT_Memory) -> *mut PJRT_Buffer {
        let rank = array.shape.len() as i64;
        Box::into_raw(Box::new(PJRT_Buffer {
            element_type: array.element_type,
            dims: array.shape.iter().map(|&d| d as i64).collect(),
            minor_to_major: (0..rank).rev().collect(),
            array: RwLock::new(Some(array)),
            device,
            memory,
            external_references: AtomicUsize::new(0),
        }))
    }

    /// The array behind its read lock (None inside once deleted): what an
    /// execution reads in place for as long as it runs.
    pub fn read(&self) -> std::sync::RwLockReadGuard<'_, Option<HostArray>> {
        self.array.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the array, or fails if the buffer was deleted.
    pub fn with_array<T>(&self, f: impl FnOnce(&HostArray) -> Result<T>) -> Result<T> {
        let guard = self.array.read().unwrap_or_else(|e| e.into_inner());
        match guard.as_ref() {
            Some(a) => f(a),
            None => Err(Error::new(PJRT_Error_Code_FAILED_PRECONDITION, "the buffer was deleted")),
        }
    }

    fn delete(&self) {
        *self.array.write().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn is_deleted(&self) -> bool {
        self.array.read().unwrap_or_else(|e| e.into_inner()).is_none()
    }
}

pub unsafe fn buffer<'a>(p: *mut PJRT_Buffer) -> Result<&'a PJRT_Buffer> {
    unsafe { handle(p, "PJRT_Buffer") }
}

/// Dimensions as element counts (refusing negative ones).
fn shape_of(dims: *const i64, n: usize) -> Result<Vec<u64>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if dims.is_null() {
        return Err(Error::invalid("null dimensions"));
    }
    let dims = unsafe { std::slice::from_raw_parts(dims, n) };
    dims.iter().map(|&d| u64::try_from(d).map_err(|_| Error::invalid(format!("negative dimension {d} in {dims:?}")))).collect()
}

/// Dense row-major byte strides of `shape`.
fn dense_strides(shape: &[u64], elem: usize) -> Vec<i64> {
    let mut strides = vec![0i64; shape.len()];
    let mut s = elem as i64;
    for i in (0..shape.len()).rev() {
        strides[i] = s;
        s *= shape[i] as i64;
    }
    strides
}

/// Byte strides of a layout given as minor-to-major dimension order.
fn strides_of_minor_to_major(shape: &[u64], elem: usize, minor_to_major: &[i64]) -> Result<Vec<i64>> {
    let rank = shape.len();
    let mut seen = vec![false; rank];
    if minor_to_major.len() != rank
        || !minor_to_major
            .iter()
            .all(|&d| usize::try_from(d).ok().filter(|&d| d < rank).is_some_and(|d| !std::mem::replace(&mut seen[d], true)))
    {
        return Err(Error::invalid(format!("minor_to_major {minor_to_major:?} is not a permutation of the {rank} dimensions")));
    }
    let mut strides = vec![0i64; rank];
    let mut s = elem as i64;
    for &d in minor_to_major {
        strides[d as usize] = s;
        s *= shape[d as usize] as i64;
    }
    Ok(strides)
}

/// Byte strides a `PJRT_Buffer_MemoryLayout` describes (None: dense row-major).
unsafe fn layout_strides(layout: *const PJRT_Buffer_MemoryLayout, shape: &[u64], elem: usize) -> Result<Vec<i64>> {
    let Some(l) = (unsafe { layout.as_ref() }) else { return Ok(dense_strides(shape, elem)) };
    match l.type_ {
        PJRT_Buffer_MemoryLayout_Type_Tiled => {
            let t = unsafe { l.layout.tiled };
            if t.num_tiles != 0 {
                return Err(Error::unimplemented("floors buffers are not tiled: a tiled layout cannot be used"));
            }
            let m2m = if t.minor_to_major_size == 0 {
                &[][..]
            } else {
                unsafe { std::slice::from_raw_parts(t.minor_to_major, t.minor_to_major_size) }
            };
            strides_of_minor_to_major(shape, elem, m2m)
        }
        PJRT_Buffer_MemoryLayout_Type_Strides => {
            let s = unsafe { l.layout.strides };
            if s.num_byte_strides != shape.len() {
                return Err(Error::invalid(format!("{} byte strides for a rank-{} array", s.num_byte_strides, shape.len())));
            }
            Ok(if s.num_byte_strides == 0 {
                Vec::new()
            } else {
                unsafe { std::slice::from_raw_parts(s.byte_strides, s.num_byte_strides) }.to_vec()
            })
        }
        t => Err(Error::invalid(format!("unknown memory layout type {t}"))),
    }
}

/// Copies an array of `shape` between two strided layouts (byte strides;
/// negative strides allowed, as the header permits). Row by row when both
/// sides' innermost dimension is contiguous.
///
/// # Safety
/// Every element address the strides reach must be valid on both sides.
unsafe fn copy_strided(shape: &[u64], elem: usize, src: *const u8, src_strides: &[i64], dst: *mut u8, dst_strides: &[i64]) {
    if shape.contains(&0) {
        return;
    }
    let rank = shape.len();
    if rank == 0 {
        unsafe { std::ptr::copy_nonoverlapping(src, dst, elem) };
        return;
    }
    let inner = shape[rank - 1] as usize;
    let contiguous = src_strides[rank - 1] == elem as i64 && dst_strides[rank - 1] == elem as i64;
    let mut index = vec![0u64; rank - 1];
    loop {
        let (mut s, mut d) = (0isize, 0isize);
        for (i, &ix) in index.iter().enumerate() {
            s += ix as isize * src_strides[i] as isize;
            d += ix as isize * dst_strides[i] as isize;
        }
        unsafe {
            if contiguous {
                std::ptr::copy_nonoverlapping(src.offset(s), dst.offset(d), inner * elem);
            } else {
                for k in 0..inner as isize {
                    std::ptr::copy_nonoverlapping(
                        src.offset(s + k * src_strides[rank - 1] as isize),
                        dst.offset(d + k * dst_strides[rank - 1] as isize),
                        elem,
                    );
                }
            }
        }
        // Next index of the outer dimensions.
        let mut i = rank - 1;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            index[i] += 1;
            if index[i] < shape[i] {
                break;
            }
            index[i] = 0;
        }
    }
}

fn element_count(shape: &[u64]) -> Result<usize> {
    shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d as usize)).ok_or_else(|| Error::invalid(format!("shape {shape:?} is too large")))
}

pub unsafe extern "C" fn PJRT_Client_BufferFromHostBuffer(a: *mut PJRT_Client_BufferFromHostBuffer_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_BufferFromHostBuffer", || {
        let a = unsafe { args(a, "PJRT_Client_BufferFromHostBuffer") }?;
        let c = unsafe { client(a.client) }?;
        let element_type = element_type(a.type_)?;
        let shape = shape_of(a.dims, a.num_dims)?;
        let elem = element_type.bytes();
        if !a.device_layout.is_null() {
            let wanted = unsafe { layout_strides(a.device_layout, &shape, elem) }?;
            if wanted != dense_strides(&shape, elem) && !shape.contains(&0) {
                return Err(Error::unimplemented("floors buffers are dense row-major: another device layout cannot be used"));
            }
        }
        let src_strides = if a.num_byte_strides == 0 || a.byte_strides.is_null() {
            dense_strides(&shape, elem)
        } else if a.num_byte_strides != shape.len() {
            return Err(Error::invalid(format!("{} byte strides for a rank-{} array", a.num_byte_strides, shape.len())));
        } else {
            unsafe { std::slice::from_raw_parts(a.byte_strides, a.num_byte_strides) }.to_vec()
        };
        let n = element_count(&shape)?;
        // Aligned from the start (no second copy): kernels stream into 64-byte aligned buffers.
        let mut bytes = floors_runtime::AlignedBuffer::zeros(n * elem);
        if n > 0 {
            if a.data.is_null() {
                return Err(Error::invalid("PJRT_Client_BufferFromHostBuffer: null data"));
            }
            // SAFETY: the caller promises `data` holds the array its strides describe.
            unsafe { copy_strided(&shape, elem, a.data.cast(), &src_strides, bytes.as_mut_ptr(), &dense_strides(&shape, elem)) };
        }
        let (device, memory) = c.placement(a.device, a.memory)?;
        a.buffer = PJRT_Buffer::new(HostArray { element_type, shape, bytes }, device, memory);
        // The data was copied: the host buffer may be freed at once.
        a.done_with_host_buffer = PJRT_Event::ready(None);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_CreateUninitializedBuffer(a: *mut PJRT_Client_CreateUninitializedBuffer_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_CreateUninitializedBuffer", || {
        let a = unsafe { args(a, "PJRT_Client_CreateUninitializedBuffer") }?;
        let c = unsafe { client(a.client) }?;
        let element_type = element_type(a.shape_element_type)?;
        let shape = shape_of(a.shape_dims, a.shape_num_dims)?;
        let bytes = floors_runtime::AlignedBuffer::zeros(element_count(&shape)? * element_type.bytes());
        let (device, memory) = c.placement(a.device, a.memory)?;
        a.buffer = PJRT_Buffer::new(HostArray { element_type, shape, bytes }, device, memory);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_Destroy(a: *mut PJRT_Buffer_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_Destroy", || {
        let a = unsafe { args(a, "PJRT_Buffer_Destroy") }?;
        if !a.buffer.is_null() {
            drop(unsafe { Box::from_raw(a.buffer) });
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_ElementType(a: *mut PJRT_Buffer_ElementType_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_ElementType", || {
        let a = unsafe { args(a, "PJRT_Buffer_ElementType") }?;
        a.type_ = pjrt_type(unsafe { buffer(a.buffer) }?.element_type);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_Dimensions(a: *mut PJRT_Buffer_Dimensions_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_Dimensions", || {
        let a = unsafe { args(a, "PJRT_Buffer_Dimensions") }?;
        let b = unsafe { buffer(a.buffer) }?;
        a.dims = b.dims.as_ptr();
        a.num_dims = b.dims.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_UnpaddedDimensions(a: *mut PJRT_Buffer_Dimensions_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_UnpaddedDimensions", || {
        let a = unsafe { args(a, "PJRT_Buffer_UnpaddedDimensions") }?;
        let b = unsafe { buffer(a.buffer) }?;
        a.dims = b.dims.as_ptr();
        a.num_dims = b.dims.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_DynamicDimensionIndices(a: *mut PJRT_Buffer_DynamicDimensionIndices_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_DynamicDimensionIndices", || {
        let a = unsafe { args(a, "PJRT_Buffer_DynamicDimensionIndices") }?;
        a.dynamic_dim_indices = std::ptr::null();
        a.num_dynamic_dims = 0;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_GetMemoryLayout(a: *mut PJRT_Buffer_GetMemoryLayout_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_GetMemoryLayout", || {
        let a = unsafe { args(a, "PJRT_Buffer_GetMemoryLayout") }?;
        let b = unsafe { buffer(a.buffer) }?;
        a.layout = PJRT_Buffer_MemoryLayout {
            struct_size: crate::struct_size!(PJRT_Buffer_MemoryLayout, type_),
            extension_start: std::ptr::null_mut(),
            layout: PJRT_Buffer_MemoryLayout_Union {
                tiled: PJRT_Buffer_MemoryLayout_Tiled {
                    struct_size: crate::struct_size!(PJRT_Buffer_MemoryLayout_Tiled, num_tiles),
                    extension_start: std::ptr::null_mut(),
                    minor_to_major: b.minor_to_major.as_ptr(),
                    minor_to_major_size: b.minor_to_major.len(),
                    tile_dims: std::ptr::null(),
                    tile_dim_sizes: std::ptr::null(),
                    num_tiles: 0,
                },
            },
            type_: PJRT_Buffer_MemoryLayout_Type_Tiled,
        };
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_OnDeviceSizeInBytes(a: *mut PJRT_Buffer_OnDeviceSizeInBytes_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_OnDeviceSizeInBytes", || {
        let a = unsafe { args(a, "PJRT_Buffer_OnDeviceSizeInBytes") }?;
        a.on_device_size_in_bytes = unsafe { buffer(a.buffer) }?.with_array(|arr| Ok(arr.bytes.len()))?;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_Device(a: *mut PJRT_Buffer_Device_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_Device", || {
        let a = unsafe { args(a, "PJRT_Buffer_Device") }?;
        a.device = unsafe { buffer(a.buffer) }?.device;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_Memory(a: *mut PJRT_Buffer_Memory_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_Memory", || {
        let a = unsafe { args(a, "PJRT_Buffer_Memory") }?;
        a.memory = unsafe { buffer(a.buffer) }?.memory;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_Delete(a: *mut PJRT_Buffer_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_Delete", || {
        let a = unsafe { args(a, "PJRT_Buffer_Delete") }?;
        unsafe { buffer(a.buffer) }?.delete();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_IsDeleted(a: *mut PJRT_Buffer_Bool_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_IsDeleted", || {
        let a = unsafe { args(a, "PJRT_Buffer_IsDeleted") }?;
        a.value = unsafe { buffer(a.buffer) }?.is_deleted();
        Ok(())
    })
}

/// A copy of the buffer on the device (`CopyToDevice`) or in the memory
/// (`CopyToMemory`) named by `dst` (the buffer's own when null).
fn copy_buffer(a: &mut PJRT_Buffer_CopyTo_Args, to_memory: bool) -> Result<()> {
    let b = unsafe { buffer(a.buffer) }?;
    let array = b.with_array(|arr| Ok(arr.clone()))?;
    let (device, memory) = if a.dst.is_null() {
        (b.device, b.memory)
    } else if to_memory {
        let m = a.dst.cast::<crate::client::PJRT_Memory>();
        (unsafe { crate::client::memory(m) }?.devices[0], m)
    } else {
        let d = a.dst.cast::<PJRT_Device>();
        (d, unsafe { crate::client::device(d) }?.memories[0])
    };
    if !unsafe { crate::client::device(device) }?.addressable {
        return Err(Error::unimplemented(
            "a copy to a device of another process (cross-host transfers: floors' processes exchange data only in collectives)",
        ));
    }
    a.dst_buffer = PJRT_Buffer::new(array, device, memory);
    Ok(())
}

pub unsafe extern "C" fn PJRT_Buffer_CopyToDevice(a: *mut PJRT_Buffer_CopyTo_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_CopyToDevice", || copy_buffer(unsafe { args(a, "PJRT_Buffer_CopyToDevice") }?, false))
}

pub unsafe extern "C" fn PJRT_Buffer_CopyToMemory(a: *mut PJRT_Buffer_CopyTo_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_CopyToMemory", || copy_buffer(unsafe { args(a, "PJRT_Buffer_CopyToMemory") }?, true))
}

pub unsafe extern "C" fn PJRT_Buffer_ToHostBuffer(a: *mut PJRT_Buffer_ToHostBuffer_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_ToHostBuffer", || {
        let a = unsafe { args(a, "PJRT_Buffer_ToHostBuffer") }?;
        let b = unsafe { buffer(a.src) }?;
        b.with_array(|arr| {
            let elem = arr.element_type.bytes();
            let dst_strides = unsafe { layout_strides(a.host_layout, &arr.shape, elem) }?;
            // Bytes the destination layout spans (strides may be permuted).
            let needed = if arr.shape.contains(&0) {
                0
            } else {
                arr.shape.iter().zip(&dst_strides).map(|(&d, &s)| (d as i64 - 1) * s.abs()).sum::<i64>() as usize + elem
            };
            if a.dst.is_null() {
                a.dst_size = needed;
                return Ok(());
            }
            if a.dst_size < needed {
                return Err(Error::invalid(format!("PJRT_Buffer_ToHostBuffer: {} bytes given, {needed} needed", a.dst_size)));
            }
            if dst_strides.iter().any(|&s| s < 0) {
                return Err(Error::unimplemented("PJRT_Buffer_ToHostBuffer: negative destination strides"));
            }
            if needed > 0 {
                // SAFETY: checked that `dst` spans every address the strides reach.
                unsafe { copy_strided(&arr.shape, elem, arr.bytes.as_ptr(), &dense_strides(&arr.shape, elem), a.dst.cast(), &dst_strides) };
            }
            a.event = PJRT_Event::ready(None);
            Ok(())
        })
    })
}

pub unsafe extern "C" fn PJRT_Buffer_CopyRawToHost(a: *mut PJRT_Buffer_CopyRawToHost_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_CopyRawToHost", || {
        let a = unsafe { args(a, "PJRT_Buffer_CopyRawToHost") }?;
        let b = unsafe { buffer(a.buffer) }?;
        b.with_array(|arr| {
            let (offset, size) = (usize::try_from(a.offset), usize::try_from(a.transfer_size));
            let range = match (offset, size) {
                (Ok(o), Ok(n)) if o.checked_add(n).is_some_and(|end| end <= arr.bytes.len()) => o..o + n,
                _ => {
                    return Err(Error::new(
                        PJRT_Error_Code_OUT_OF_RANGE,
                        format!("bytes {}..+{} of a {}-byte buffer", a.offset, a.transfer_size, arr.bytes.len()),
                    ));
                }
            };
            if !range.is_empty() {
                if a.dst.is_null() {
                    return Err(Error::invalid("PJRT_Buffer_CopyRawToHost: null destination"));
                }
                unsafe { std::ptr::copy_nonoverlapping(arr.bytes[range.clone()].as_ptr(), a.dst.cast::<u8>(), range.len()) };
            }
            a.event = PJRT_Event::ready(None);
            Ok(())
        })
    })
}

/// floors buffers live in host memory but are not handed to the framework as
/// CPU buffers: JAX then copies them out with `PJRT_Buffer_ToHostBuffer`
/// instead of aliasing them.
pub unsafe extern "C" fn PJRT_Buffer_IsOnCpu(a: *mut PJRT_Buffer_Bool_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_IsOnCpu", || {
        unsafe { args(a, "PJRT_Buffer_IsOnCpu") }?.value = false;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_ReadyEvent(a: *mut PJRT_Buffer_ReadyEvent_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_ReadyEvent", || {
        let a = unsafe { args(a, "PJRT_Buffer_ReadyEvent") }?;
        unsafe { buffer(a.buffer) }?;
        a.event = PJRT_Event::ready(None);
        Ok(())
    })
}

fn data_pointer(a: &mut PJRT_Buffer_Pointer_Args) -> Result<()> {
    let b = unsafe { buffer(a.buffer) }?;
    // The bytes never move while the buffer lives (they are never written).
    a.pointer = b.with_array(|arr| Ok(arr.bytes.as_ptr() as *mut c_void))?;
    Ok(())
}

pub unsafe extern "C" fn PJRT_Buffer_UnsafePointer(a: *mut PJRT_Buffer_Pointer_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_UnsafePointer", || data_pointer(unsafe { args(a, "PJRT_Buffer_UnsafePointer") }?))
}

pub unsafe extern "C" fn PJRT_Buffer_OpaqueDeviceMemoryDataPointer(a: *mut PJRT_Buffer_Pointer_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_OpaqueDeviceMemoryDataPointer", || data_pointer(unsafe { args(a, "PJRT_Buffer_OpaqueDeviceMemoryDataPointer") }?))
}

pub unsafe extern "C" fn PJRT_Buffer_IncreaseExternalReferenceCount(a: *mut PJRT_Buffer_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_IncreaseExternalReferenceCount", || {
        let a = unsafe { args(a, "PJRT_Buffer_IncreaseExternalReferenceCount") }?;
        unsafe { buffer(a.buffer) }?.external_references.fetch_add(1, Ordering::Relaxed);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Buffer_DecreaseExternalReferenceCount(a: *mut PJRT_Buffer_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Buffer_DecreaseExternalReferenceCount", || {
        let a = unsafe { args(a, "PJRT_Buffer_DecreaseExternalReferenceCount") }?;
        let b = unsafe { buffer(a.buffer) }?;
        b.external_references
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
            .map_err(|_| Error::new(PJRT_Error_Code_FAILED_PRECONDITION, "the buffer has no external reference to drop"))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_copy_transposes_and_reverses() {
        // A 2x3 int32 array stored column-major (strides 4, 8), read into row-major.
        let col_major: Vec<i32> = vec![1, 4, 2, 5, 3, 6];
        let mut out = vec![0i32; 6];
        unsafe { copy_strided(&[2, 3], 4, col_major.as_ptr().cast(), &[4, 8], out.as_mut_ptr().cast(), &[12, 4]) };
        assert_eq!(out, [1, 2, 3, 4, 5, 6]);
        // Negative inner stride: the row reversed (data points at its last element).
        let row: Vec<i32> = vec![1, 2, 3];
        let mut out = vec![0i32; 3];
        unsafe { copy_strided(&[3], 4, row.as_ptr().add(2).cast(), &[-4], out.as_mut_ptr().cast(), &[4]) };
        assert_eq!(out, [3, 2, 1]);
        // A scalar and an empty array.
        let mut one = [0u8; 2];
        unsafe { copy_strided(&[], 2, [7u8, 9].as_ptr(), &[], one.as_mut_ptr(), &[]) };
        assert_eq!(one, [7, 9]);
        unsafe { copy_strided(&[0, 4], 4, std::ptr::null(), &[16, 4], std::ptr::null_mut(), &[16, 4]) };
    }

    #[test]
    fn layouts_give_strides() {
        assert_eq!(dense_strides(&[2, 3, 4], 4), [48, 16, 4]);
        assert_eq!(strides_of_minor_to_major(&[2, 3, 4], 4, &[2, 1, 0]).unwrap(), [48, 16, 4]);
        assert_eq!(strides_of_minor_to_major(&[2, 3], 4, &[0, 1]).unwrap(), [4, 8]);
        assert!(strides_of_minor_to_major(&[2, 3], 4, &[0, 0]).is_err());
        assert!(strides_of_minor_to_major(&[2, 3], 4, &[0]).is_err());
    }

    #[test]
    fn element_types_round_trip() {
        for t in 0..=PJRT_Buffer_Type_LAST {
            if let Ok(e) = element_type(t) {
                assert_eq!(pjrt_type(e), t);
            } else {
                assert!(element_type(t).unwrap_err().message.contains(&pjrt_type_name(t)));
            }
        }
        assert!(element_type(16).unwrap_err().message.contains("F8E5M2"));
    }
}
