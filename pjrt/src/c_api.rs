//! The C types of `xla/pjrt/c/pjrt_c_api.h` at the XLA commit jaxlib 0.10.2
//! pins (openxla/xla 5a9e73cb, `PJRT_API_MAJOR 0`, `PJRT_API_MINOR 112`),
//! written by hand in header order and with the header's names so that this
//! file can be read side by side with it. Only the argument structs of the
//! entries floors implements are here; every other entry is a stub that takes
//! an untyped pointer (see `api.rs`). `tests/layout.rs` checks every size and
//! offset against numbers taken from the header with a C compiler.
//!
//! ABI rules the header states and the plugin follows:
//! - every argument struct starts with `struct_size` and `extension_start`;
//!   the caller sets `struct_size` to the size it was compiled with, so a
//!   field past it must be neither read nor written (`has_field`);
//! - `PJRT_Error` and `PJRT_Memory` are not opaque at 0.112: both start with a
//!   pointer to a function table the framework may call through;
//! - strings are pointer + size, never NUL-terminated by contract.
#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]

use std::ffi::{c_char, c_int, c_void};

pub const PJRT_API_MAJOR: c_int = 0;
pub const PJRT_API_MINOR: c_int = 112;

/// `PJRT_STRUCT_SIZE(T, last)`: the offset of the last field plus its size
/// (no tail padding), what a struct's `struct_size` holds.
#[macro_export]
macro_rules! struct_size {
    ($t:ty, $field:ident) => {{
        // The field's size, from a never-built value's field through a raw pointer.
        const fn size_of_pointee<T>(_: *const T) -> usize {
            ::std::mem::size_of::<T>()
        }
        let u = ::std::mem::MaybeUninit::<$t>::uninit();
        // SAFETY: only the address of the field is taken, nothing is read.
        let p = unsafe { ::std::ptr::addr_of!((*u.as_ptr()).$field) };
        ::std::mem::offset_of!($t, $field) + size_of_pointee(p)
    }};
}

/// Whether the caller's struct (of `struct_size` bytes) holds `field`.
#[macro_export]
macro_rules! has_field {
    ($args:expr, $t:ty, $field:ident) => {
        ($args).struct_size >= $crate::struct_size!($t, $field)
    };
}

#[repr(C)]
pub struct PJRT_Extension_Base {
    pub struct_size: usize,
    pub type_: c_int,
    pub next: *mut PJRT_Extension_Base,
}

#[repr(C)]
pub struct PJRT_Api_Version {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub major_version: c_int,
    pub minor_version: c_int,
}

// ---------------------------------- Errors -----------------------------------

pub type PJRT_Error_Code = c_int;
pub const PJRT_Error_Code_OK: PJRT_Error_Code = 0;
pub const PJRT_Error_Code_CANCELLED: PJRT_Error_Code = 1;
pub const PJRT_Error_Code_UNKNOWN: PJRT_Error_Code = 2;
pub const PJRT_Error_Code_INVALID_ARGUMENT: PJRT_Error_Code = 3;
pub const PJRT_Error_Code_NOT_FOUND: PJRT_Error_Code = 5;
pub const PJRT_Error_Code_FAILED_PRECONDITION: PJRT_Error_Code = 9;
pub const PJRT_Error_Code_OUT_OF_RANGE: PJRT_Error_Code = 11;
pub const PJRT_Error_Code_UNIMPLEMENTED: PJRT_Error_Code = 12;
pub const PJRT_Error_Code_INTERNAL: PJRT_Error_Code = 13;
pub const PJRT_Error_Code_UNAVAILABLE: PJRT_Error_Code = 14;

pub type PJRT_Error_PayloadVisitor =
    Option<unsafe extern "C" fn(key: *const c_char, key_size: usize, value: *const c_char, value_size: usize, user_arg: *mut c_void)>;

#[repr(C)]
pub struct PJRT_Error_FunctionTable {
    pub struct_size: usize,
    pub instance_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub destroy: unsafe extern "C" fn(error: *mut PJRT_Error),
    pub message: unsafe extern "C" fn(error: *const PJRT_Error, message: *mut *const c_char, message_size: *mut usize),
    pub get_code: unsafe extern "C" fn(error: *const PJRT_Error) -> PJRT_Error_Code,
    pub for_each_payload: unsafe extern "C" fn(error: *const PJRT_Error, visitor: PJRT_Error_PayloadVisitor, user_arg: *mut c_void),
}

/// The header's `PJRT_Error`: a function-table pointer, then (floors' part)
/// the code and message.
#[repr(C)]
pub struct PJRT_Error {
    pub vtable: *const PJRT_Error_FunctionTable,
    pub code: PJRT_Error_Code,
    pub message: String,
}

#[repr(C)]
pub struct PJRT_Error_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub error: *mut PJRT_Error,
}

#[repr(C)]
pub struct PJRT_Error_Message_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub error: *const PJRT_Error,
    pub message: *const c_char,
    pub message_size: usize,
}

#[repr(C)]
pub struct PJRT_Error_GetCode_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub error: *const PJRT_Error,
    pub code: PJRT_Error_Code,
}

#[repr(C)]
pub struct PJRT_Error_ForEachPayload_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub error: *const PJRT_Error,
    pub visitor: PJRT_Error_PayloadVisitor,
    pub user_arg: *mut c_void,
}

// ---------------------------- Named Values -----------------------------------

pub type PJRT_NamedValue_Type = c_int;
pub const PJRT_NamedValue_kString: PJRT_NamedValue_Type = 0;
pub const PJRT_NamedValue_kInt64: PJRT_NamedValue_Type = 1;
pub const PJRT_NamedValue_kInt64List: PJRT_NamedValue_Type = 2;
pub const PJRT_NamedValue_kFloat: PJRT_NamedValue_Type = 3;
pub const PJRT_NamedValue_kBool: PJRT_NamedValue_Type = 4;

#[repr(C)]
#[derive(Clone, Copy)]
pub union PJRT_NamedValue_Value {
    pub string_value: *const c_char,
    pub int64_value: i64,
    pub int64_array_value: *const i64,
    pub float_value: f32,
    pub bool_value: bool,
}

#[repr(C)]
pub struct PJRT_NamedValue {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub name: *const c_char,
    pub name_size: usize,
    pub type_: PJRT_NamedValue_Type,
    pub value: PJRT_NamedValue_Value,
    pub value_size: usize,
}

// ---------------------------------- Plugin -----------------------------------

#[repr(C)]
pub struct PJRT_Plugin_Initialize_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
}

#[repr(C)]
pub struct PJRT_Plugin_Attributes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub attributes: *const PJRT_NamedValue,
    pub num_attributes: usize,
}

// ---------------------------------- Events -----------------------------------

pub use crate::event::PJRT_Event;

#[repr(C)]
pub struct PJRT_Event_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
}

#[repr(C)]
pub struct PJRT_Event_IsReady_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
    pub is_ready: bool,
}

#[repr(C)]
pub struct PJRT_Event_Error_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
}

pub type PJRT_Event_Await_Args = PJRT_Event_Error_Args;

pub type PJRT_Event_OnReadyCallback = Option<unsafe extern "C" fn(error: *mut PJRT_Error, user_arg: *mut c_void)>;

#[repr(C)]
pub struct PJRT_Event_OnReady_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
    pub callback: PJRT_Event_OnReadyCallback,
    pub user_arg: *mut c_void,
}

#[repr(C)]
pub struct PJRT_Event_Create_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
}

#[repr(C)]
pub struct PJRT_Event_Set_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub event: *mut PJRT_Event,
    pub error_code: PJRT_Error_Code,
    pub error_message: *const c_char,
    pub error_message_size: usize,
}

// ---------------------------------- Client -----------------------------------

pub use crate::buffer::PJRT_Buffer;
pub use crate::client::{PJRT_Client, PJRT_Device, PJRT_DeviceDescription, PJRT_Memory, PJRT_TopologyDescription};
pub use crate::executable::{PJRT_Executable, PJRT_LoadedExecutable};

#[repr(C)]
pub struct PJRT_Memory_FunctionTable {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub instance_struct_size: usize,
    pub get_user_data: unsafe extern "C" fn(memory: *mut PJRT_Memory, key: *const c_void) -> *mut c_void,
    pub set_user_data: unsafe extern "C" fn(
        memory: *mut PJRT_Memory,
        key: *const c_void,
        data: *mut c_void,
        dtor: Option<unsafe extern "C" fn(*mut c_void)>,
    ),
}

#[repr(C)]
pub struct PJRT_Client_Create_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub create_options: *const PJRT_NamedValue,
    pub num_options: usize,
    pub kv_get_callback: *mut c_void,
    pub kv_get_user_arg: *mut c_void,
    pub kv_put_callback: *mut c_void,
    pub kv_put_user_arg: *mut c_void,
    pub client: *mut PJRT_Client,
    pub kv_try_get_callback: *mut c_void,
    pub kv_try_get_user_arg: *mut c_void,
}

#[repr(C)]
pub struct PJRT_Client_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
}

/// `PJRT_Client_PlatformName_Args` and `PJRT_Client_PlatformVersion_Args`.
#[repr(C)]
pub struct PJRT_Client_String_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub string: *const c_char,
    pub string_size: usize,
}

#[repr(C)]
pub struct PJRT_Client_ProcessIndex_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub process_index: c_int,
}

pub type PJRT_ProcessState = u32;
pub const PJRT_ProcessState_kError: PJRT_ProcessState = 4;

#[repr(C)]
pub struct PJRT_ProcessInfo {
    pub struct_size: usize,
    pub task_id: c_int,
    pub incarnation_id: u64,
    pub state: PJRT_ProcessState,
    pub error_code: c_int,
    pub error_message: *const c_char,
    pub error_message_size: usize,
}

#[repr(C)]
pub struct PJRT_Client_UpdateGlobalProcessInfo_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub process_infos: *mut PJRT_ProcessInfo,
    pub num_process_infos: usize,
}

#[repr(C)]
pub struct PJRT_Client_TopologyDescription_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub topology: *mut PJRT_TopologyDescription,
}

/// `PJRT_Client_Devices_Args` and `PJRT_Client_AddressableDevices_Args`.
#[repr(C)]
pub struct PJRT_Client_Devices_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub devices: *const *mut PJRT_Device,
    pub num_devices: usize,
}

/// `PJRT_Client_LookupDevice_Args` (`id`) and
/// `PJRT_Client_LookupAddressableDevice_Args` (`local_hardware_id`).
#[repr(C)]
pub struct PJRT_Client_LookupDevice_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub id: c_int,
    pub device: *mut PJRT_Device,
}

#[repr(C)]
pub struct PJRT_Client_AddressableMemories_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub addressable_memories: *const *mut PJRT_Memory,
    pub num_addressable_memories: usize,
}

#[repr(C)]
pub struct PJRT_Program {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub code: *mut c_char,
    pub code_size: usize,
    pub format: *const c_char,
    pub format_size: usize,
}

#[repr(C)]
pub struct PJRT_Client_Compile_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub program: *const PJRT_Program,
    pub compile_options: *const c_char,
    pub compile_options_size: usize,
    pub executable: *mut PJRT_LoadedExecutable,
}

#[repr(C)]
pub struct PJRT_Client_DefaultDeviceAssignment_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub num_replicas: c_int,
    pub num_partitions: c_int,
    pub default_assignment_size: usize,
    pub default_assignment: *mut c_int,
}

pub type PJRT_Buffer_Type = c_int;
pub const PJRT_Buffer_Type_INVALID: PJRT_Buffer_Type = 0;
pub const PJRT_Buffer_Type_PRED: PJRT_Buffer_Type = 1;
pub const PJRT_Buffer_Type_S8: PJRT_Buffer_Type = 2;
pub const PJRT_Buffer_Type_S16: PJRT_Buffer_Type = 3;
pub const PJRT_Buffer_Type_S32: PJRT_Buffer_Type = 4;
pub const PJRT_Buffer_Type_S64: PJRT_Buffer_Type = 5;
pub const PJRT_Buffer_Type_U8: PJRT_Buffer_Type = 6;
pub const PJRT_Buffer_Type_U16: PJRT_Buffer_Type = 7;
pub const PJRT_Buffer_Type_U32: PJRT_Buffer_Type = 8;
pub const PJRT_Buffer_Type_U64: PJRT_Buffer_Type = 9;
pub const PJRT_Buffer_Type_F16: PJRT_Buffer_Type = 10;
pub const PJRT_Buffer_Type_F32: PJRT_Buffer_Type = 11;
pub const PJRT_Buffer_Type_F64: PJRT_Buffer_Type = 12;
pub const PJRT_Buffer_Type_BF16: PJRT_Buffer_Type = 13;
pub const PJRT_Buffer_Type_C64: PJRT_Buffer_Type = 14;
pub const PJRT_Buffer_Type_C128: PJRT_Buffer_Type = 15;
/// The last enumerator of the 0.112 header (`PJRT_Buffer_Type_U1`).
pub const PJRT_Buffer_Type_LAST: PJRT_Buffer_Type = 33;

pub type PJRT_HostBufferSemantics = c_int;

pub type PJRT_Buffer_MemoryLayout_Type = c_int;
pub const PJRT_Buffer_MemoryLayout_Type_Tiled: PJRT_Buffer_MemoryLayout_Type = 0;
pub const PJRT_Buffer_MemoryLayout_Type_Strides: PJRT_Buffer_MemoryLayout_Type = 1;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PJRT_Buffer_MemoryLayout_Tiled {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub minor_to_major: *const i64,
    pub minor_to_major_size: usize,
    pub tile_dims: *const i64,
    pub tile_dim_sizes: *const usize,
    pub num_tiles: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PJRT_Buffer_MemoryLayout_Strides {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub byte_strides: *const i64,
    pub num_byte_strides: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union PJRT_Buffer_MemoryLayout_Union {
    pub tiled: PJRT_Buffer_MemoryLayout_Tiled,
    pub strides: PJRT_Buffer_MemoryLayout_Strides,
}

#[repr(C)]
pub struct PJRT_Buffer_MemoryLayout {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub layout: PJRT_Buffer_MemoryLayout_Union,
    pub type_: PJRT_Buffer_MemoryLayout_Type,
}

#[repr(C)]
pub struct PJRT_Client_CreateUninitializedBuffer_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub shape_dims: *const i64,
    pub shape_num_dims: usize,
    pub shape_element_type: PJRT_Buffer_Type,
    pub shape_layout: *mut PJRT_Buffer_MemoryLayout,
    pub device: *mut PJRT_Device,
    pub memory: *mut PJRT_Memory,
    pub buffer: *mut PJRT_Buffer,
}

#[repr(C)]
pub struct PJRT_Client_BufferFromHostBuffer_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub client: *mut PJRT_Client,
    pub data: *const c_void,
    pub type_: PJRT_Buffer_Type,
    pub dims: *const i64,
    pub num_dims: usize,
    pub byte_strides: *const i64,
    pub num_byte_strides: usize,
    pub host_buffer_semantics: PJRT_HostBufferSemantics,
    pub device: *mut PJRT_Device,
    pub memory: *mut PJRT_Memory,
    pub device_layout: *mut PJRT_Buffer_MemoryLayout,
    pub done_with_host_buffer: *mut PJRT_Event,
    pub buffer: *mut PJRT_Buffer,
}

// -------------------------- Device Descriptions ------------------------------

#[repr(C)]
pub struct PJRT_DeviceDescription_Id_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device_description: *mut PJRT_DeviceDescription,
    pub id: c_int,
}

pub type PJRT_DeviceDescription_ProcessIndex_Args = PJRT_DeviceDescription_Id_Args;

#[repr(C)]
pub struct PJRT_DeviceDescription_Attributes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device_description: *mut PJRT_DeviceDescription,
    pub num_attributes: usize,
    pub attributes: *const PJRT_NamedValue,
}

/// `PJRT_DeviceDescription_Kind_Args`, `_DebugString_Args`, `_ToString_Args`.
#[repr(C)]
pub struct PJRT_DeviceDescription_String_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device_description: *mut PJRT_DeviceDescription,
    pub string: *const c_char,
    pub string_size: usize,
}

// --------------------------------- Devices -----------------------------------

#[repr(C)]
pub struct PJRT_Device_GetDescription_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub device_description: *mut PJRT_DeviceDescription,
}

#[repr(C)]
pub struct PJRT_Device_IsAddressable_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub is_addressable: bool,
}

#[repr(C)]
pub struct PJRT_Device_LocalHardwareId_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub local_hardware_id: c_int,
}

#[repr(C)]
pub struct PJRT_Device_AddressableMemories_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub memories: *const *mut PJRT_Memory,
    pub num_memories: usize,
}

#[repr(C)]
pub struct PJRT_Device_DefaultMemory_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub memory: *mut PJRT_Memory,
}

pub type PJRT_Device_Attributes = c_void;

#[repr(C)]
pub struct PJRT_Device_GetAttributes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub device: *mut PJRT_Device,
    pub attributes: *const PJRT_NamedValue,
    pub num_attributes: usize,
    pub device_attributes: *mut PJRT_Device_Attributes,
    pub attributes_deleter: Option<unsafe extern "C" fn(device_attributes: *mut PJRT_Device_Attributes)>,
}

//-------------------------------- Memory --------------------------------------

/// `PJRT_Memory_Id_Args` (`id`) and `PJRT_Memory_Kind_Id_Args` (`kind_id`).
#[repr(C)]
pub struct PJRT_Memory_Id_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub memory: *mut PJRT_Memory,
    pub id: c_int,
}

/// `PJRT_Memory_Kind_Args`, `_DebugString_Args`, `_ToString_Args`.
#[repr(C)]
pub struct PJRT_Memory_String_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub memory: *mut PJRT_Memory,
    pub string: *const c_char,
    pub string_size: usize,
}

#[repr(C)]
pub struct PJRT_Memory_AddressableByDevices_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub memory: *mut PJRT_Memory,
    pub devices: *const *mut PJRT_Device,
    pub num_devices: usize,
}

// ------------------------------- Execute Context -----------------------------

pub struct PJRT_ExecuteContext;

#[repr(C)]
pub struct PJRT_ExecuteContext_Create_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub context: *mut PJRT_ExecuteContext,
}

pub type PJRT_ExecuteContext_Destroy_Args = PJRT_ExecuteContext_Create_Args;

// ------------------------------- Executables ---------------------------------

#[repr(C)]
pub struct PJRT_Executable_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
}

/// `PJRT_LoadedExecutable_Destroy_Args`, `_Delete_Args`.
#[repr(C)]
pub struct PJRT_LoadedExecutable_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_GetExecutable_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub loaded_executable: *mut PJRT_LoadedExecutable,
    pub executable: *mut PJRT_Executable,
}

/// The serialized-bytes-with-deleter pattern:
/// `PJRT_LoadedExecutable_GetDeviceAssignment_Args`,
/// `PJRT_Executable_Serialize_Args`, `PJRT_Executable_GetCompileOptions_Args`
/// (the handle is an `executable` of either kind).
#[repr(C)]
pub struct PJRT_SerializedBytes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut c_void,
    pub serialized_bytes: *const c_char,
    pub serialized_bytes_size: usize,
    pub holder: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(holder: *mut c_void)>,
}

/// `PJRT_Executable_Name_Args`, `PJRT_Executable_Fingerprint_Args`.
#[repr(C)]
pub struct PJRT_Executable_String_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub string: *const c_char,
    pub string_size: usize,
}

/// `PJRT_Executable_NumReplicas_Args`, `_NumPartitions_Args`, `_NumOutputs_Args`.
#[repr(C)]
pub struct PJRT_Executable_Count_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub count: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PJRT_LogicalDeviceIds {
    pub replica: c_int,
    pub partition: c_int,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_AddressableDevices_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
    pub addressable_devices: *const *mut PJRT_Device,
    pub num_addressable_devices: usize,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
    pub addressable_device_logical_ids: *mut PJRT_LogicalDeviceIds,
    pub num_addressable_device_logical_ids: usize,
}

/// `PJRT_Extension_Type_Shardings` (pjrt_c_api.h's extension enum; the
/// extension exists since C API 0.91).
pub const PJRT_Extension_Type_Shardings: c_int = 19;

/// `PJRT_Shardings_PJRT_Executable_ParameterShardings_Args` and
/// `..._OutputShardings_Args` (pjrt_c_api_shardings_extension.h): one layout,
/// `num` is `num_parameters` or `num_outputs`.
#[repr(C)]
pub struct PJRT_Shardings_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub num: usize,
    pub shardings: *const *const c_char,
    pub sharding_sizes: *const usize,
}

/// `PJRT_Shardings_Extension`: the base, then the two entries.
#[repr(C)]
pub struct PJRT_Shardings_Extension {
    pub base: PJRT_Extension_Base,
    pub parameter_shardings: unsafe extern "C" fn(*mut PJRT_Shardings_Args) -> *mut PJRT_Error,
    pub output_shardings: unsafe extern "C" fn(*mut PJRT_Shardings_Args) -> *mut PJRT_Error,
}

#[repr(C)]
pub struct PJRT_Executable_OptimizedProgram_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub program: *mut PJRT_Program,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_IsDeleted_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
    pub is_deleted: bool,
}

#[repr(C)]
pub struct PJRT_ExecuteOptions {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub send_callbacks: *mut *mut c_void,
    pub recv_callbacks: *mut *mut c_void,
    pub num_send_ops: usize,
    pub num_recv_ops: usize,
    pub launch_id: c_int,
    pub non_donatable_input_indices: *const i64,
    pub num_non_donatable_input_indices: usize,
    pub context: *mut PJRT_ExecuteContext,
    pub call_location: *const c_char,
    pub num_tasks: usize,
    pub task_ids: *mut c_int,
    pub incarnation_ids: *mut i64,
    pub multi_slice_config: *mut c_void,
    pub use_major_to_minor_data_layout_for_callbacks: bool,
    pub hlo_output_callbacks: *mut c_void,
    pub num_hlo_output_callbacks: usize,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_Execute_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
    pub options: *mut PJRT_ExecuteOptions,
    pub argument_lists: *const *const *mut PJRT_Buffer,
    pub num_devices: usize,
    pub num_args: usize,
    pub output_lists: *const *mut *mut PJRT_Buffer,
    pub device_complete_events: *mut *mut PJRT_Event,
    pub execute_device: *mut PJRT_Device,
}

#[repr(C)]
pub struct PJRT_Executable_SizeOfGeneratedCodeInBytes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub size_in_bytes: i64,
}

#[repr(C)]
pub struct PJRT_Executable_GetCostAnalysis_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub num_properties: usize,
    pub properties: *const PJRT_NamedValue,
}

#[repr(C)]
pub struct PJRT_Executable_GetCompiledMemoryStats_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub generated_code_size_in_bytes: i64,
    pub argument_size_in_bytes: i64,
    pub output_size_in_bytes: i64,
    pub alias_size_in_bytes: i64,
    pub temp_size_in_bytes: i64,
    pub host_generated_code_size_in_bytes: i64,
    pub host_argument_size_in_bytes: i64,
    pub host_output_size_in_bytes: i64,
    pub host_alias_size_in_bytes: i64,
    pub host_temp_size_in_bytes: i64,
    pub peak_memory_in_bytes: i64,
    pub total_size_in_bytes: i64,
    pub total_allocation_bytes: i64,
    pub indefinite_allocations: i64,
    pub peak_unpadded_heap_bytes: i64,
}

#[repr(C)]
pub struct PJRT_Executable_OutputElementTypes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub output_types: *mut PJRT_Buffer_Type,
    pub num_output_types: usize,
}

#[repr(C)]
pub struct PJRT_Executable_OutputDimensions_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub num_outputs: usize,
    pub dims: *const i64,
    pub dim_sizes: *const usize,
}

/// `PJRT_Executable_ParameterMemoryKinds_Args` (`num_parameters`) and
/// `PJRT_Executable_OutputMemoryKinds_Args` (`num_outputs`).
#[repr(C)]
pub struct PJRT_Executable_MemoryKinds_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_Executable,
    pub count: usize,
    pub memory_kinds: *const *const c_char,
    pub memory_kind_sizes: *const usize,
}

#[repr(C)]
pub struct PJRT_LoadedExecutable_Fingerprint_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub executable: *mut PJRT_LoadedExecutable,
    pub executable_fingerprint: *const c_char,
    pub executable_fingerprint_size: usize,
}

// ---------------------------------- Buffers ----------------------------------

/// `PJRT_Buffer_Destroy_Args`, `_Delete_Args`,
/// `_IncreaseExternalReferenceCount_Args`, `_DecreaseExternalReferenceCount_Args`.
#[repr(C)]
pub struct PJRT_Buffer_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
}

#[repr(C)]
pub struct PJRT_Buffer_ElementType_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub type_: PJRT_Buffer_Type,
}

/// `PJRT_Buffer_Dimensions_Args`, `_UnpaddedDimensions_Args`.
#[repr(C)]
pub struct PJRT_Buffer_Dimensions_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub dims: *const i64,
    pub num_dims: usize,
}

#[repr(C)]
pub struct PJRT_Buffer_DynamicDimensionIndices_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub dynamic_dim_indices: *const usize,
    pub num_dynamic_dims: usize,
}

#[repr(C)]
pub struct PJRT_Buffer_GetMemoryLayout_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub layout: PJRT_Buffer_MemoryLayout,
}

#[repr(C)]
pub struct PJRT_Buffer_ToHostBuffer_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub src: *mut PJRT_Buffer,
    pub host_layout: *mut PJRT_Buffer_MemoryLayout,
    pub dst: *mut c_void,
    pub dst_size: usize,
    pub event: *mut PJRT_Event,
}

#[repr(C)]
pub struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub on_device_size_in_bytes: usize,
}

/// `PJRT_Buffer_IsDeleted_Args`, `PJRT_Buffer_IsOnCpu_Args`.
#[repr(C)]
pub struct PJRT_Buffer_Bool_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub value: bool,
}

#[repr(C)]
pub struct PJRT_Buffer_CopyRawToHost_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub dst: *mut c_void,
    pub offset: i64,
    pub transfer_size: i64,
    pub event: *mut PJRT_Event,
}

/// `PJRT_Buffer_CopyToDevice_Args` (`dst_device`) and
/// `PJRT_Buffer_CopyToMemory_Args` (`dst_memory`).
#[repr(C)]
pub struct PJRT_Buffer_CopyTo_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub dst: *mut c_void,
    pub dst_buffer: *mut PJRT_Buffer,
}

#[repr(C)]
pub struct PJRT_Buffer_Device_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub device: *mut PJRT_Device,
}

#[repr(C)]
pub struct PJRT_Buffer_Memory_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub memory: *mut PJRT_Memory,
}

#[repr(C)]
pub struct PJRT_Buffer_ReadyEvent_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub event: *mut PJRT_Event,
}

/// `PJRT_Buffer_UnsafePointer_Args` (`uintptr_t`) and
/// `PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args` (`void*`).
#[repr(C)]
pub struct PJRT_Buffer_Pointer_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub buffer: *mut PJRT_Buffer,
    pub pointer: *mut c_void,
}

// ---------------------------- Topology ---------------------------------------

#[repr(C)]
pub struct PJRT_TopologyDescription_Destroy_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub topology: *mut PJRT_TopologyDescription,
}

/// `PJRT_TopologyDescription_PlatformVersion_Args`, `_PlatformName_Args`.
#[repr(C)]
pub struct PJRT_TopologyDescription_String_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub topology: *mut PJRT_TopologyDescription,
    pub string: *const c_char,
    pub string_size: usize,
}

#[repr(C)]
pub struct PJRT_TopologyDescription_GetDeviceDescriptions_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub topology: *mut PJRT_TopologyDescription,
    pub descriptions: *const *mut PJRT_DeviceDescription,
    pub num_descriptions: usize,
}

#[repr(C)]
pub struct PJRT_TopologyDescription_Attributes_Args {
    pub struct_size: usize,
    pub extension_start: *mut PJRT_Extension_Base,
    pub topology: *mut PJRT_TopologyDescription,
    pub attributes: *const PJRT_NamedValue,
    pub num_attributes: usize,
}
