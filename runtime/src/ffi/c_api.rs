//! XLA's FFI C ABI (`xla/ffi/api/c_api.h`) as jaxlib 0.10.2 ships it: FFI
//! API version 0.3. Every struct has the C layout (`#[repr(C)]`, the same
//! field order and types); `runtime/tests/ffi_layout.rs` compiles a C program
//! against the shipped header and checks every size and offset here.
//!
//! Names are C's, so the header and this file read side by side. Enums are
//! C `int`s with their values as constants. `*_STRUCT_SIZE` are the header's
//! `XLA_FFI_DEFINE_STRUCT_TRAITS` sizes: the offset of the struct's declared
//! last field plus its size (for `XLA_FFI_CallFrame` that excludes `future`,
//! for `XLA_FFI_Metadata` it excludes `state_type_id`, for
//! `XLA_FFI_Future_Create_Args` it excludes `future`: as the header says).
//!
//! Struct-size rules (c_api.h): every struct passed across the boundary
//! starts with its size and only ever grows at the end. floors reads a struct
//! a handler passes in only up to the size it declares (a field past it is
//! absent), and refuses one too short for the fields a call needs.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

use std::ffi::{c_char, c_int, c_void};
use std::mem::{offset_of, size_of};

/// Incremented for ABI-incompatible changes (c_api.h `XLA_FFI_API_MAJOR`).
pub const XLA_FFI_API_MAJOR: c_int = 0;
/// Incremented for compatible additions (c_api.h `XLA_FFI_API_MINOR`).
pub const XLA_FFI_API_MINOR: c_int = 3;

macro_rules! struct_size {
    ($t:ty, $field:ident: $ft:ty) => {
        offset_of!($t, $field) + size_of::<$ft>()
    };
}

// --- Extensions ----------------------------------------------------------

pub type XLA_FFI_Extension_Type = c_int;
pub const XLA_FFI_Extension_Metadata: XLA_FFI_Extension_Type = 1;

#[repr(C)]
#[derive(Debug)]
pub struct XLA_FFI_Extension_Base {
    pub struct_size: usize,
    pub type_: XLA_FFI_Extension_Type,
    pub next: *mut XLA_FFI_Extension_Base,
}
pub const XLA_FFI_Extension_Base_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Extension_Base, next: *mut XLA_FFI_Extension_Base);

// --- Version -------------------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Api_Version {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub major_version: c_int,
    pub minor_version: c_int,
}
pub const XLA_FFI_Api_Version_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Api_Version, minor_version: c_int);

// --- Errors --------------------------------------------------------------

/// Opaque to handlers; floors' errors are `super::api::FfiErrorObject`s.
#[repr(C)]
pub struct XLA_FFI_Error {
    _opaque: [u8; 0],
}

pub type XLA_FFI_Error_Code = c_int;
pub const XLA_FFI_Error_Code_OK: XLA_FFI_Error_Code = 0;
pub const XLA_FFI_Error_Code_CANCELLED: XLA_FFI_Error_Code = 1;
pub const XLA_FFI_Error_Code_UNKNOWN: XLA_FFI_Error_Code = 2;
pub const XLA_FFI_Error_Code_INVALID_ARGUMENT: XLA_FFI_Error_Code = 3;
pub const XLA_FFI_Error_Code_DEADLINE_EXCEEDED: XLA_FFI_Error_Code = 4;
pub const XLA_FFI_Error_Code_NOT_FOUND: XLA_FFI_Error_Code = 5;
pub const XLA_FFI_Error_Code_ALREADY_EXISTS: XLA_FFI_Error_Code = 6;
pub const XLA_FFI_Error_Code_PERMISSION_DENIED: XLA_FFI_Error_Code = 7;
pub const XLA_FFI_Error_Code_RESOURCE_EXHAUSTED: XLA_FFI_Error_Code = 8;
pub const XLA_FFI_Error_Code_FAILED_PRECONDITION: XLA_FFI_Error_Code = 9;
pub const XLA_FFI_Error_Code_ABORTED: XLA_FFI_Error_Code = 10;
pub const XLA_FFI_Error_Code_OUT_OF_RANGE: XLA_FFI_Error_Code = 11;
pub const XLA_FFI_Error_Code_UNIMPLEMENTED: XLA_FFI_Error_Code = 12;
pub const XLA_FFI_Error_Code_INTERNAL: XLA_FFI_Error_Code = 13;
pub const XLA_FFI_Error_Code_UNAVAILABLE: XLA_FFI_Error_Code = 14;
pub const XLA_FFI_Error_Code_DATA_LOSS: XLA_FFI_Error_Code = 15;
pub const XLA_FFI_Error_Code_UNAUTHENTICATED: XLA_FFI_Error_Code = 16;

#[repr(C)]
pub struct XLA_FFI_Error_Create_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub message: *const c_char,
    pub errc: XLA_FFI_Error_Code,
}
pub const XLA_FFI_Error_Create_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Error_Create_Args, errc: c_int);

#[repr(C)]
pub struct XLA_FFI_Error_GetMessage_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub error: *mut XLA_FFI_Error,
    pub message: *const c_char,
}
pub const XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Error_GetMessage_Args, message: *const c_char);

#[repr(C)]
pub struct XLA_FFI_Error_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub error: *mut XLA_FFI_Error,
}
pub const XLA_FFI_Error_Destroy_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Error_Destroy_Args, error: *mut XLA_FFI_Error);

// --- Data types ----------------------------------------------------------

/// `xla::PrimitiveType` numbering.
pub type XLA_FFI_DataType = c_int;
pub const XLA_FFI_DataType_INVALID: XLA_FFI_DataType = 0;
pub const XLA_FFI_DataType_PRED: XLA_FFI_DataType = 1;
pub const XLA_FFI_DataType_S1: XLA_FFI_DataType = 30;
pub const XLA_FFI_DataType_S2: XLA_FFI_DataType = 26;
pub const XLA_FFI_DataType_S4: XLA_FFI_DataType = 21;
pub const XLA_FFI_DataType_S8: XLA_FFI_DataType = 2;
pub const XLA_FFI_DataType_S16: XLA_FFI_DataType = 3;
pub const XLA_FFI_DataType_S32: XLA_FFI_DataType = 4;
pub const XLA_FFI_DataType_S64: XLA_FFI_DataType = 5;
pub const XLA_FFI_DataType_U1: XLA_FFI_DataType = 31;
pub const XLA_FFI_DataType_U2: XLA_FFI_DataType = 27;
pub const XLA_FFI_DataType_U4: XLA_FFI_DataType = 22;
pub const XLA_FFI_DataType_U8: XLA_FFI_DataType = 6;
pub const XLA_FFI_DataType_U16: XLA_FFI_DataType = 7;
pub const XLA_FFI_DataType_U32: XLA_FFI_DataType = 8;
pub const XLA_FFI_DataType_U64: XLA_FFI_DataType = 9;
pub const XLA_FFI_DataType_F16: XLA_FFI_DataType = 10;
pub const XLA_FFI_DataType_F32: XLA_FFI_DataType = 11;
pub const XLA_FFI_DataType_F64: XLA_FFI_DataType = 12;
pub const XLA_FFI_DataType_BF16: XLA_FFI_DataType = 16;
pub const XLA_FFI_DataType_C64: XLA_FFI_DataType = 15;
pub const XLA_FFI_DataType_C128: XLA_FFI_DataType = 18;
pub const XLA_FFI_DataType_TOKEN: XLA_FFI_DataType = 17;
pub const XLA_FFI_DataType_F8E5M2: XLA_FFI_DataType = 19;
pub const XLA_FFI_DataType_F8E3M4: XLA_FFI_DataType = 29;
pub const XLA_FFI_DataType_F8E4M3: XLA_FFI_DataType = 28;
pub const XLA_FFI_DataType_F8E4M3FN: XLA_FFI_DataType = 20;
pub const XLA_FFI_DataType_F8E4M3B11FNUZ: XLA_FFI_DataType = 23;
pub const XLA_FFI_DataType_F8E5M2FNUZ: XLA_FFI_DataType = 24;
pub const XLA_FFI_DataType_F8E4M3FNUZ: XLA_FFI_DataType = 25;
pub const XLA_FFI_DataType_F4E2M1FN: XLA_FFI_DataType = 32;
pub const XLA_FFI_DataType_F8E8M0FNU: XLA_FFI_DataType = 33;

// --- Arguments, results, attributes --------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Buffer {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub dtype: XLA_FFI_DataType,
    pub data: *mut c_void,
    pub rank: i64,
    /// `rank` entries.
    pub dims: *mut i64,
}
pub const XLA_FFI_Buffer_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Buffer, dims: *mut i64);

pub type XLA_FFI_ArgType = c_int;
pub const XLA_FFI_ArgType_BUFFER: XLA_FFI_ArgType = 1;

pub type XLA_FFI_RetType = c_int;
pub const XLA_FFI_RetType_BUFFER: XLA_FFI_RetType = 1;

pub type XLA_FFI_AttrType = c_int;
pub const XLA_FFI_AttrType_ARRAY: XLA_FFI_AttrType = 1;
pub const XLA_FFI_AttrType_DICTIONARY: XLA_FFI_AttrType = 2;
pub const XLA_FFI_AttrType_SCALAR: XLA_FFI_AttrType = 3;
pub const XLA_FFI_AttrType_STRING: XLA_FFI_AttrType = 4;

/// Opaque to handlers: floors' is `super::api::ExecutionContext`.
#[repr(C)]
pub struct XLA_FFI_ExecutionContext {
    _opaque: [u8; 0],
}

/// A string that need not be NUL-terminated.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_ByteSpan {
    pub ptr: *const c_char,
    pub len: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Scalar {
    pub dtype: XLA_FFI_DataType,
    pub value: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Array {
    pub dtype: XLA_FFI_DataType,
    pub size: usize,
    pub data: *mut c_void,
}

// --- Type registry -------------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct XLA_FFI_TypeId {
    pub type_id: i64,
}
pub const XLA_FFI_UNKNOWN_TYPE_ID: XLA_FFI_TypeId = XLA_FFI_TypeId { type_id: 0 };

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_TypeInfo {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub deleter: Option<unsafe extern "C" fn(object: *mut c_void)>,
}
pub const XLA_FFI_TypeInfo_STRUCT_SIZE: usize = struct_size!(XLA_FFI_TypeInfo, deleter: Option<unsafe extern "C" fn(*mut c_void)>);

// --- Futures -------------------------------------------------------------

/// Opaque to handlers: floors' is `super::api::FutureObject`.
#[repr(C)]
pub struct XLA_FFI_Future {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct XLA_FFI_Future_Create_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    /// Out. (Past the header's declared size, as c_api.h has it.)
    pub future: *mut XLA_FFI_Future,
}
pub const XLA_FFI_Future_Create_Args_STRUCT_SIZE: usize =
    struct_size!(XLA_FFI_Future_Create_Args, extension_start: *mut XLA_FFI_Extension_Base);

#[repr(C)]
pub struct XLA_FFI_Future_SetAvailable_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub future: *mut XLA_FFI_Future,
}
pub const XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Future_SetAvailable_Args, future: *mut XLA_FFI_Future);

#[repr(C)]
pub struct XLA_FFI_Future_SetError_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub future: *mut XLA_FFI_Future,
    /// Ownership passes to the runtime.
    pub error: *mut XLA_FFI_Error,
}
pub const XLA_FFI_Future_SetError_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Future_SetError_Args, error: *mut XLA_FFI_Error);

// --- Call frame ----------------------------------------------------------

pub type XLA_FFI_ExecutionStage = c_int;
pub const XLA_FFI_ExecutionStage_INSTANTIATE: XLA_FFI_ExecutionStage = 0;
pub const XLA_FFI_ExecutionStage_PREPARE: XLA_FFI_ExecutionStage = 1;
pub const XLA_FFI_ExecutionStage_INITIALIZE: XLA_FFI_ExecutionStage = 2;
pub const XLA_FFI_ExecutionStage_EXECUTE: XLA_FFI_ExecutionStage = 3;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub size: i64,
    pub types: *mut XLA_FFI_ArgType,
    pub args: *mut *mut c_void,
}
pub const XLA_FFI_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Args, args: *mut *mut c_void);

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Rets {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub size: i64,
    pub types: *mut XLA_FFI_RetType,
    pub rets: *mut *mut c_void,
}
pub const XLA_FFI_Rets_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Rets, rets: *mut *mut c_void);

/// Attributes sorted by name (handlers may binary-search them).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Attrs {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub size: i64,
    pub types: *mut XLA_FFI_AttrType,
    pub names: *mut *mut XLA_FFI_ByteSpan,
    pub attrs: *mut *mut c_void,
}
pub const XLA_FFI_Attrs_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Attrs, attrs: *mut *mut c_void);

#[repr(C)]
#[derive(Debug)]
pub struct XLA_FFI_CallFrame {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub api: *const XLA_FFI_Api,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub stage: XLA_FFI_ExecutionStage,
    pub args: XLA_FFI_Args,
    pub rets: XLA_FFI_Rets,
    pub attrs: XLA_FFI_Attrs,
    /// Out: set by an asynchronous handler; the runtime waits for it.
    pub future: *mut XLA_FFI_Future,
}
/// Up to `attrs` (the header leaves `future` out of the declared size).
pub const XLA_FFI_CallFrame_STRUCT_SIZE: usize = struct_size!(XLA_FFI_CallFrame, attrs: XLA_FFI_Attrs);

pub type XLA_FFI_Handler = unsafe extern "C" fn(call_frame: *mut XLA_FFI_CallFrame) -> *mut XLA_FFI_Error;

/// One handler per execution stage; only `execute` is required.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct XLA_FFI_Handler_Bundle {
    pub instantiate: Option<XLA_FFI_Handler>,
    pub prepare: Option<XLA_FFI_Handler>,
    pub initialize: Option<XLA_FFI_Handler>,
    pub execute: Option<XLA_FFI_Handler>,
}

pub type XLA_FFI_Handler_Traits = u32;
pub const XLA_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE: XLA_FFI_Handler_Traits = 1;

#[repr(C)]
pub struct XLA_FFI_Handler_Register_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub name: XLA_FFI_ByteSpan,
    pub platform: XLA_FFI_ByteSpan,
    pub bundle: XLA_FFI_Handler_Bundle,
    pub traits: XLA_FFI_Handler_Traits,
}
pub const XLA_FFI_Handler_Register_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Handler_Register_Args, traits: u32);

#[repr(C)]
pub struct XLA_FFI_Type_Register_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub name: XLA_FFI_ByteSpan,
    /// In-out.
    pub type_id: *mut XLA_FFI_TypeId,
    /// Past the header's declared size (it ends at `type_id`).
    pub type_info: *const XLA_FFI_TypeInfo,
}
pub const XLA_FFI_Type_Register_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Type_Register_Args, type_id: *mut XLA_FFI_TypeId);

// --- Execution context, state, stream, memory, thread pool, ids ----------

#[repr(C)]
pub struct XLA_FFI_ExecutionContext_Get_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub type_id: *mut XLA_FFI_TypeId,
    pub data: *mut c_void,
}
pub const XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_ExecutionContext_Get_Args, data: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_State_Set_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub stage: XLA_FFI_ExecutionStage,
    pub type_id: *mut XLA_FFI_TypeId,
    pub state: *mut c_void,
}
pub const XLA_FFI_State_Set_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_State_Set_Args, state: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_State_Get_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub stage: XLA_FFI_ExecutionStage,
    pub type_id: *mut XLA_FFI_TypeId,
    pub state: *mut c_void,
}
pub const XLA_FFI_State_Get_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_State_Get_Args, state: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_Stream_Get_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub stream: *mut c_void,
}
pub const XLA_FFI_Stream_Get_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Stream_Get_Args, stream: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_DeviceMemory_Allocate_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub size: usize,
    pub alignment: usize,
    pub data: *mut c_void,
}
pub const XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_DeviceMemory_Allocate_Args, data: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_DeviceMemory_Free_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub size: usize,
    pub data: *mut c_void,
}
pub const XLA_FFI_DeviceMemory_Free_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_DeviceMemory_Free_Args, data: *mut c_void);

pub type XLA_FFI_Task = unsafe extern "C" fn(data: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_ThreadPool_Schedule_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub task: Option<XLA_FFI_Task>,
    pub data: *mut c_void,
}
pub const XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_ThreadPool_Schedule_Args, data: *mut c_void);

#[repr(C)]
pub struct XLA_FFI_ThreadPool_NumThreads_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    /// Out.
    pub num_threads: *mut i64,
}
pub const XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_ThreadPool_NumThreads_Args, num_threads: *mut i64);

#[repr(C)]
pub struct XLA_FFI_RunId_Get_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub run_id: i64,
}
pub const XLA_FFI_RunId_Get_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_RunId_Get_Args, run_id: i64);

#[repr(C)]
pub struct XLA_FFI_DeviceOrdinal_Get_Args {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub ctx: *mut XLA_FFI_ExecutionContext,
    pub device_ordinal: i32,
}
pub const XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE: usize = struct_size!(XLA_FFI_DeviceOrdinal_Get_Args, device_ordinal: i32);

// --- Metadata extension --------------------------------------------------

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct XLA_FFI_Metadata {
    pub struct_size: usize,
    pub api_version: XLA_FFI_Api_Version,
    pub traits: XLA_FFI_Handler_Traits,
    /// Past the header's declared size (it ends at `traits`).
    pub state_type_id: XLA_FFI_TypeId,
}
pub const XLA_FFI_Metadata_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Metadata, traits: u32);

#[repr(C)]
#[derive(Debug)]
pub struct XLA_FFI_Metadata_Extension {
    pub extension_base: XLA_FFI_Extension_Base,
    pub metadata: *mut XLA_FFI_Metadata,
}
pub const XLA_FFI_Metadata_Extension_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Metadata_Extension, metadata: *mut XLA_FFI_Metadata);

// --- The API table -------------------------------------------------------

/// Opaque; floors provides none (`internal_api` is NULL).
#[repr(C)]
pub struct XLA_FFI_InternalApi {
    _opaque: [u8; 0],
}

pub type XLA_FFI_Error_Create = unsafe extern "C" fn(*mut XLA_FFI_Error_Create_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Error_GetMessage = unsafe extern "C" fn(*mut XLA_FFI_Error_GetMessage_Args);
pub type XLA_FFI_Error_Destroy = unsafe extern "C" fn(*mut XLA_FFI_Error_Destroy_Args);
pub type XLA_FFI_Handler_Register = unsafe extern "C" fn(*mut XLA_FFI_Handler_Register_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Stream_Get = unsafe extern "C" fn(*mut XLA_FFI_Stream_Get_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Type_Register = unsafe extern "C" fn(*mut XLA_FFI_Type_Register_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_ExecutionContext_Get = unsafe extern "C" fn(*mut XLA_FFI_ExecutionContext_Get_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_State_Set = unsafe extern "C" fn(*mut XLA_FFI_State_Set_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_State_Get = unsafe extern "C" fn(*mut XLA_FFI_State_Get_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_DeviceMemory_Allocate = unsafe extern "C" fn(*mut XLA_FFI_DeviceMemory_Allocate_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_DeviceMemory_Free = unsafe extern "C" fn(*mut XLA_FFI_DeviceMemory_Free_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_ThreadPool_Schedule = unsafe extern "C" fn(*mut XLA_FFI_ThreadPool_Schedule_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_ThreadPool_NumThreads = unsafe extern "C" fn(*mut XLA_FFI_ThreadPool_NumThreads_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Future_Create = unsafe extern "C" fn(*mut XLA_FFI_Future_Create_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Future_SetAvailable = unsafe extern "C" fn(*mut XLA_FFI_Future_SetAvailable_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_Future_SetError = unsafe extern "C" fn(*mut XLA_FFI_Future_SetError_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_RunId_Get = unsafe extern "C" fn(*mut XLA_FFI_RunId_Get_Args) -> *mut XLA_FFI_Error;
pub type XLA_FFI_DeviceOrdinal_Get = unsafe extern "C" fn(*mut XLA_FFI_DeviceOrdinal_Get_Args) -> *mut XLA_FFI_Error;

#[repr(C)]
pub struct XLA_FFI_Api {
    pub struct_size: usize,
    pub extension_start: *mut XLA_FFI_Extension_Base,
    pub api_version: XLA_FFI_Api_Version,
    pub internal_api: *const XLA_FFI_InternalApi,
    pub XLA_FFI_Error_Create: XLA_FFI_Error_Create,
    pub XLA_FFI_Error_GetMessage: XLA_FFI_Error_GetMessage,
    pub XLA_FFI_Error_Destroy: XLA_FFI_Error_Destroy,
    pub XLA_FFI_Handler_Register: XLA_FFI_Handler_Register,
    pub XLA_FFI_Stream_Get: XLA_FFI_Stream_Get,
    pub XLA_FFI_Type_Register: XLA_FFI_Type_Register,
    pub XLA_FFI_ExecutionContext_Get: XLA_FFI_ExecutionContext_Get,
    pub XLA_FFI_State_Set: XLA_FFI_State_Set,
    pub XLA_FFI_State_Get: XLA_FFI_State_Get,
    pub XLA_FFI_DeviceMemory_Allocate: XLA_FFI_DeviceMemory_Allocate,
    pub XLA_FFI_DeviceMemory_Free: XLA_FFI_DeviceMemory_Free,
    pub XLA_FFI_ThreadPool_Schedule: XLA_FFI_ThreadPool_Schedule,
    pub XLA_FFI_ThreadPool_NumThreads: XLA_FFI_ThreadPool_NumThreads,
    pub XLA_FFI_Future_Create: XLA_FFI_Future_Create,
    pub XLA_FFI_Future_SetAvailable: XLA_FFI_Future_SetAvailable,
    pub XLA_FFI_Future_SetError: XLA_FFI_Future_SetError,
    pub XLA_FFI_RunId_Get: XLA_FFI_RunId_Get,
    pub XLA_FFI_DeviceOrdinal_Get: XLA_FFI_DeviceOrdinal_Get,
}
pub const XLA_FFI_Api_STRUCT_SIZE: usize = struct_size!(XLA_FFI_Api, XLA_FFI_DeviceOrdinal_Get: XLA_FFI_DeviceOrdinal_Get);

/// Every struct of the header with its size and field offsets (Rust side),
/// and its declared `_STRUCT_SIZE` where the header defines one: what the
/// layout test compares with the C compiler's view of `c_api.h`.
pub fn layouts() -> Vec<StructLayout> {
    macro_rules! layout {
        ($t:ident, declared: $d:expr, [$($f:ident),* $(,)?]) => {
            StructLayout {
                name: stringify!($t),
                size: size_of::<$t>(),
                align: std::mem::align_of::<$t>(),
                declared_size: $d,
                fields: vec![$((stringify!($f), offset_of!($t, $f))),*],
            }
        };
    }
    vec![
        layout!(XLA_FFI_Extension_Base, declared: Some(XLA_FFI_Extension_Base_STRUCT_SIZE), [struct_size, type_, next]),
        layout!(XLA_FFI_Api_Version, declared: Some(XLA_FFI_Api_Version_STRUCT_SIZE), [struct_size, extension_start, major_version, minor_version]),
        layout!(XLA_FFI_Error_Create_Args, declared: Some(XLA_FFI_Error_Create_Args_STRUCT_SIZE), [struct_size, extension_start, message, errc]),
        layout!(XLA_FFI_Error_GetMessage_Args, declared: Some(XLA_FFI_Error_GetMessage_Args_STRUCT_SIZE), [struct_size, extension_start, error, message]),
        layout!(XLA_FFI_Error_Destroy_Args, declared: Some(XLA_FFI_Error_Destroy_Args_STRUCT_SIZE), [struct_size, extension_start, error]),
        layout!(XLA_FFI_Buffer, declared: Some(XLA_FFI_Buffer_STRUCT_SIZE), [struct_size, extension_start, dtype, data, rank, dims]),
        layout!(XLA_FFI_ByteSpan, declared: None, [ptr, len]),
        layout!(XLA_FFI_Scalar, declared: None, [dtype, value]),
        layout!(XLA_FFI_Array, declared: None, [dtype, size, data]),
        layout!(XLA_FFI_TypeId, declared: None, [type_id]),
        layout!(XLA_FFI_TypeInfo, declared: Some(XLA_FFI_TypeInfo_STRUCT_SIZE), [struct_size, extension_start, deleter]),
        layout!(XLA_FFI_Future_Create_Args, declared: Some(XLA_FFI_Future_Create_Args_STRUCT_SIZE), [struct_size, extension_start, future]),
        layout!(XLA_FFI_Future_SetAvailable_Args, declared: Some(XLA_FFI_Future_SetAvailable_Args_STRUCT_SIZE), [struct_size, extension_start, future]),
        layout!(XLA_FFI_Future_SetError_Args, declared: Some(XLA_FFI_Future_SetError_Args_STRUCT_SIZE), [struct_size, extension_start, future, error]),
        layout!(XLA_FFI_Args, declared: Some(XLA_FFI_Args_STRUCT_SIZE), [struct_size, extension_start, size, types, args]),
        layout!(XLA_FFI_Rets, declared: Some(XLA_FFI_Rets_STRUCT_SIZE), [struct_size, extension_start, size, types, rets]),
        layout!(XLA_FFI_Attrs, declared: Some(XLA_FFI_Attrs_STRUCT_SIZE), [struct_size, extension_start, size, types, names, attrs]),
        layout!(XLA_FFI_CallFrame, declared: Some(XLA_FFI_CallFrame_STRUCT_SIZE), [struct_size, extension_start, api, ctx, stage, args, rets, attrs, future]),
        layout!(XLA_FFI_Handler_Bundle, declared: None, [instantiate, prepare, initialize, execute]),
        layout!(XLA_FFI_Handler_Register_Args, declared: Some(XLA_FFI_Handler_Register_Args_STRUCT_SIZE), [struct_size, extension_start, name, platform, bundle, traits]),
        layout!(XLA_FFI_Type_Register_Args, declared: Some(XLA_FFI_Type_Register_Args_STRUCT_SIZE), [struct_size, extension_start, name, type_id, type_info]),
        layout!(XLA_FFI_ExecutionContext_Get_Args, declared: Some(XLA_FFI_ExecutionContext_Get_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, type_id, data]),
        layout!(XLA_FFI_State_Set_Args, declared: Some(XLA_FFI_State_Set_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, stage, type_id, state]),
        layout!(XLA_FFI_State_Get_Args, declared: Some(XLA_FFI_State_Get_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, stage, type_id, state]),
        layout!(XLA_FFI_Stream_Get_Args, declared: Some(XLA_FFI_Stream_Get_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, stream]),
        layout!(XLA_FFI_DeviceMemory_Allocate_Args, declared: Some(XLA_FFI_DeviceMemory_Allocate_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, size, alignment, data]),
        layout!(XLA_FFI_DeviceMemory_Free_Args, declared: Some(XLA_FFI_DeviceMemory_Free_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, size, data]),
        layout!(XLA_FFI_ThreadPool_Schedule_Args, declared: Some(XLA_FFI_ThreadPool_Schedule_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, task, data]),
        layout!(XLA_FFI_ThreadPool_NumThreads_Args, declared: Some(XLA_FFI_ThreadPool_NumThreads_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, num_threads]),
        layout!(XLA_FFI_RunId_Get_Args, declared: Some(XLA_FFI_RunId_Get_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, run_id]),
        layout!(XLA_FFI_DeviceOrdinal_Get_Args, declared: Some(XLA_FFI_DeviceOrdinal_Get_Args_STRUCT_SIZE), [struct_size, extension_start, ctx, device_ordinal]),
        layout!(XLA_FFI_Metadata, declared: Some(XLA_FFI_Metadata_STRUCT_SIZE), [struct_size, api_version, traits, state_type_id]),
        layout!(XLA_FFI_Metadata_Extension, declared: Some(XLA_FFI_Metadata_Extension_STRUCT_SIZE), [extension_base, metadata]),
        layout!(XLA_FFI_Api, declared: Some(XLA_FFI_Api_STRUCT_SIZE), [
            struct_size, extension_start, api_version, internal_api,
            XLA_FFI_Error_Create, XLA_FFI_Error_GetMessage, XLA_FFI_Error_Destroy, XLA_FFI_Handler_Register,
            XLA_FFI_Stream_Get, XLA_FFI_Type_Register, XLA_FFI_ExecutionContext_Get, XLA_FFI_State_Set,
            XLA_FFI_State_Get, XLA_FFI_DeviceMemory_Allocate, XLA_FFI_DeviceMemory_Free, XLA_FFI_ThreadPool_Schedule,
            XLA_FFI_ThreadPool_NumThreads, XLA_FFI_Future_Create, XLA_FFI_Future_SetAvailable, XLA_FFI_Future_SetError,
            XLA_FFI_RunId_Get, XLA_FFI_DeviceOrdinal_Get,
        ]),
    ]
}

/// Enum constants as the header names them, for the layout test.
pub fn enum_values() -> Vec<(&'static str, i64)> {
    macro_rules! values {
        ($($c:ident),* $(,)?) => { vec![$((stringify!($c), $c as i64)),*] };
    }
    values![
        XLA_FFI_API_MAJOR,
        XLA_FFI_API_MINOR,
        XLA_FFI_Extension_Metadata,
        XLA_FFI_Error_Code_OK,
        XLA_FFI_Error_Code_CANCELLED,
        XLA_FFI_Error_Code_UNKNOWN,
        XLA_FFI_Error_Code_INVALID_ARGUMENT,
        XLA_FFI_Error_Code_DEADLINE_EXCEEDED,
        XLA_FFI_Error_Code_NOT_FOUND,
        XLA_FFI_Error_Code_ALREADY_EXISTS,
        XLA_FFI_Error_Code_PERMISSION_DENIED,
        XLA_FFI_Error_Code_RESOURCE_EXHAUSTED,
        XLA_FFI_Error_Code_FAILED_PRECONDITION,
        XLA_FFI_Error_Code_ABORTED,
        XLA_FFI_Error_Code_OUT_OF_RANGE,
        XLA_FFI_Error_Code_UNIMPLEMENTED,
        XLA_FFI_Error_Code_INTERNAL,
        XLA_FFI_Error_Code_UNAVAILABLE,
        XLA_FFI_Error_Code_DATA_LOSS,
        XLA_FFI_Error_Code_UNAUTHENTICATED,
        XLA_FFI_DataType_INVALID,
        XLA_FFI_DataType_PRED,
        XLA_FFI_DataType_S1,
        XLA_FFI_DataType_S2,
        XLA_FFI_DataType_S4,
        XLA_FFI_DataType_S8,
        XLA_FFI_DataType_S16,
        XLA_FFI_DataType_S32,
        XLA_FFI_DataType_S64,
        XLA_FFI_DataType_U1,
        XLA_FFI_DataType_U2,
        XLA_FFI_DataType_U4,
        XLA_FFI_DataType_U8,
        XLA_FFI_DataType_U16,
        XLA_FFI_DataType_U32,
        XLA_FFI_DataType_U64,
        XLA_FFI_DataType_F16,
        XLA_FFI_DataType_F32,
        XLA_FFI_DataType_F64,
        XLA_FFI_DataType_BF16,
        XLA_FFI_DataType_C64,
        XLA_FFI_DataType_C128,
        XLA_FFI_DataType_TOKEN,
        XLA_FFI_DataType_F8E5M2,
        XLA_FFI_DataType_F8E3M4,
        XLA_FFI_DataType_F8E4M3,
        XLA_FFI_DataType_F8E4M3FN,
        XLA_FFI_DataType_F8E4M3B11FNUZ,
        XLA_FFI_DataType_F8E5M2FNUZ,
        XLA_FFI_DataType_F8E4M3FNUZ,
        XLA_FFI_DataType_F4E2M1FN,
        XLA_FFI_DataType_F8E8M0FNU,
        XLA_FFI_ArgType_BUFFER,
        XLA_FFI_RetType_BUFFER,
        XLA_FFI_AttrType_ARRAY,
        XLA_FFI_AttrType_DICTIONARY,
        XLA_FFI_AttrType_SCALAR,
        XLA_FFI_AttrType_STRING,
        XLA_FFI_ExecutionStage_INSTANTIATE,
        XLA_FFI_ExecutionStage_PREPARE,
        XLA_FFI_ExecutionStage_INITIALIZE,
        XLA_FFI_ExecutionStage_EXECUTE,
        XLA_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE,
    ]
}

/// One struct's layout as Rust sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    pub name: &'static str,
    pub size: usize,
    pub align: usize,
    /// The header's `<name>_STRUCT_SIZE`, where it defines one.
    pub declared_size: Option<usize>,
    pub fields: Vec<(&'static str, usize)>,
}
