//! The plugin's C types against `xla/pjrt/c/pjrt_c_api.h` at the XLA
//! commit jaxlib 0.10.2 pins (5a9e73cb, PJRT C API 0.112). The header is not
//! part of the tree (jaxlib does not ship it); the numbers below were printed
//! by a C program compiled against it (`sizeof`, the header's
//! `<T>_STRUCT_SIZE`, `offsetof` of every field floors reads or writes), and
//! the `PJRT_Api` table's 138 entry offsets likewise. A Rust struct that
//! stands for several C structs of the same shape (the `_String_Args` ...)
//! is checked against each of them.

use std::mem::{offset_of, size_of};

use floors_pjrt::api::{API, ENTRY_NAMES, IMPLEMENTED, PJRT_Api};
use floors_pjrt::c_api::*;

macro_rules! check {
    ($t:ty, $size:expr, $struct_size:expr, [$($field:ident => $offset:expr),* $(,)?]) => {{
        assert_eq!(size_of::<$t>(), $size, "sizeof {}", stringify!($t));
        assert!($struct_size <= $size);
        $(assert_eq!(offset_of!($t, $field), $offset, "offsetof({}, {})", stringify!($t), stringify!($field));)*
    }};
}

#[test]
fn argument_structs_match_the_header() {
    check!(PJRT_Extension_Base /* PJRT_Extension_Base */, 24, 24, [struct_size => 0, type_ => 8, next => 16]);
    check!(PJRT_Api_Version /* PJRT_Api_Version */, 24, 24, [struct_size => 0, extension_start => 8, major_version => 16, minor_version => 20]);
    check!(PJRT_Error_FunctionTable /* PJRT_Error_FunctionTable */, 56, 56, [struct_size => 0, instance_size => 8, extension_start => 16, destroy => 24, message => 32, get_code => 40, for_each_payload => 48]);
    check!(PJRT_Error_Destroy_Args /* PJRT_Error_Destroy_Args */, 24, 24, [error => 16]);
    check!(PJRT_Error_Message_Args /* PJRT_Error_Message_Args */, 40, 40, [error => 16, message => 24, message_size => 32]);
    check!(PJRT_Error_GetCode_Args /* PJRT_Error_GetCode_Args */, 32, 28, [error => 16, code => 24]);
    check!(PJRT_Error_ForEachPayload_Args /* PJRT_Error_ForEachPayload_Args */, 40, 40, [error => 16, visitor => 24, user_arg => 32]);
    check!(PJRT_NamedValue /* PJRT_NamedValue */, 56, 56, [name => 16, name_size => 24, type_ => 32, value => 40, value_size => 48]);
    check!(PJRT_Plugin_Initialize_Args /* PJRT_Plugin_Initialize_Args */, 16, 16, [extension_start => 8]);
    check!(PJRT_Plugin_Attributes_Args /* PJRT_Plugin_Attributes_Args */, 32, 32, [attributes => 16, num_attributes => 24]);
    check!(PJRT_Event_Destroy_Args /* PJRT_Event_Destroy_Args */, 24, 24, [event => 16]);
    check!(PJRT_Event_IsReady_Args /* PJRT_Event_IsReady_Args */, 32, 25, [event => 16, is_ready => 24]);
    check!(PJRT_Event_Error_Args /* PJRT_Event_Error_Args */, 24, 24, [event => 16]);
    check!(PJRT_Event_Await_Args /* PJRT_Event_Await_Args */, 24, 24, [event => 16]);
    check!(PJRT_Event_OnReady_Args /* PJRT_Event_OnReady_Args */, 40, 40, [event => 16, callback => 24, user_arg => 32]);
    check!(PJRT_Event_Create_Args /* PJRT_Event_Create_Args */, 24, 24, [event => 16]);
    check!(PJRT_Event_Set_Args /* PJRT_Event_Set_Args */, 48, 48, [event => 16, error_code => 24, error_message => 32, error_message_size => 40]);
    check!(PJRT_Memory_FunctionTable /* PJRT_Memory_FunctionTable */, 40, 40, [struct_size => 0, extension_start => 8, instance_struct_size => 16, get_user_data => 24, set_user_data => 32]);
    check!(PJRT_Client_Create_Args /* PJRT_Client_Create_Args */, 88, 88, [create_options => 16, num_options => 24, kv_get_callback => 32, kv_get_user_arg => 40, kv_put_callback => 48, kv_put_user_arg => 56, client => 64, kv_try_get_callback => 72, kv_try_get_user_arg => 80]);
    check!(PJRT_Client_Destroy_Args /* PJRT_Client_Destroy_Args */, 24, 24, [client => 16]);
    check!(PJRT_Client_String_Args /* PJRT_Client_PlatformName_Args */, 40, 40, [client => 16, string => 24, string_size => 32]);
    check!(PJRT_Client_String_Args /* PJRT_Client_PlatformVersion_Args */, 40, 40, [client => 16, string => 24, string_size => 32]);
    check!(PJRT_Client_ProcessIndex_Args /* PJRT_Client_ProcessIndex_Args */, 32, 28, [client => 16, process_index => 24]);
    check!(PJRT_Client_TopologyDescription_Args /* PJRT_Client_TopologyDescription_Args */, 32, 32, [client => 16, topology => 24]);
    check!(PJRT_Client_Devices_Args /* PJRT_Client_Devices_Args */, 40, 40, [client => 16, devices => 24, num_devices => 32]);
    check!(PJRT_Client_Devices_Args /* PJRT_Client_AddressableDevices_Args */, 40, 40, [client => 16, devices => 24, num_devices => 32]);
    check!(PJRT_Client_LookupDevice_Args /* PJRT_Client_LookupDevice_Args */, 40, 40, [client => 16, id => 24, device => 32]);
    check!(PJRT_Client_LookupDevice_Args /* PJRT_Client_LookupAddressableDevice_Args */, 40, 40, [client => 16, id => 24, device => 32]);
    check!(PJRT_Client_AddressableMemories_Args /* PJRT_Client_AddressableMemories_Args */, 40, 40, [client => 16, addressable_memories => 24, num_addressable_memories => 32]);
    check!(PJRT_Program /* PJRT_Program */, 48, 48, [code => 16, code_size => 24, format => 32, format_size => 40]);
    check!(PJRT_Client_Compile_Args /* PJRT_Client_Compile_Args */, 56, 56, [client => 16, program => 24, compile_options => 32, compile_options_size => 40, executable => 48]);
    check!(PJRT_Client_DefaultDeviceAssignment_Args /* PJRT_Client_DefaultDeviceAssignment_Args */, 48, 48, [client => 16, num_replicas => 24, num_partitions => 28, default_assignment_size => 32, default_assignment => 40]);
    check!(PJRT_Buffer_MemoryLayout_Tiled /* PJRT_Buffer_MemoryLayout_Tiled */, 56, 56, [minor_to_major => 16, minor_to_major_size => 24, tile_dims => 32, tile_dim_sizes => 40, num_tiles => 48]);
    check!(PJRT_Buffer_MemoryLayout_Strides /* PJRT_Buffer_MemoryLayout_Strides */, 32, 32, [byte_strides => 16, num_byte_strides => 24]);
    check!(PJRT_Buffer_MemoryLayout /* PJRT_Buffer_MemoryLayout */, 80, 76, [layout => 16, type_ => 72]);
    check!(PJRT_Client_CreateUninitializedBuffer_Args /* PJRT_Client_CreateUninitializedBuffer_Args */, 80, 80, [client => 16, shape_dims => 24, shape_num_dims => 32, shape_element_type => 40, shape_layout => 48, device => 56, memory => 64, buffer => 72]);
    check!(PJRT_Client_BufferFromHostBuffer_Args /* PJRT_Client_BufferFromHostBuffer_Args */, 120, 120, [client => 16, data => 24, type_ => 32, dims => 40, num_dims => 48, byte_strides => 56, num_byte_strides => 64, host_buffer_semantics => 72, device => 80, memory => 88, device_layout => 96, done_with_host_buffer => 104, buffer => 112]);
    check!(PJRT_DeviceDescription_Id_Args /* PJRT_DeviceDescription_Id_Args */, 32, 28, [device_description => 16, id => 24]);
    check!(PJRT_DeviceDescription_ProcessIndex_Args /* PJRT_DeviceDescription_ProcessIndex_Args */, 32, 28, [device_description => 16, id => 24]);
    check!(PJRT_DeviceDescription_Attributes_Args /* PJRT_DeviceDescription_Attributes_Args */, 40, 40, [device_description => 16, num_attributes => 24, attributes => 32]);
    check!(PJRT_DeviceDescription_String_Args /* PJRT_DeviceDescription_Kind_Args */, 40, 40, [device_description => 16, string => 24, string_size => 32]);
    check!(PJRT_DeviceDescription_String_Args /* PJRT_DeviceDescription_DebugString_Args */, 40, 40, [device_description => 16, string => 24, string_size => 32]);
    check!(PJRT_DeviceDescription_String_Args /* PJRT_DeviceDescription_ToString_Args */, 40, 40, [device_description => 16, string => 24, string_size => 32]);
    check!(PJRT_Device_GetDescription_Args /* PJRT_Device_GetDescription_Args */, 32, 32, [device => 16, device_description => 24]);
    check!(PJRT_Device_IsAddressable_Args /* PJRT_Device_IsAddressable_Args */, 32, 25, [device => 16, is_addressable => 24]);
    check!(PJRT_Device_LocalHardwareId_Args /* PJRT_Device_LocalHardwareId_Args */, 32, 28, [device => 16, local_hardware_id => 24]);
    check!(PJRT_Device_AddressableMemories_Args /* PJRT_Device_AddressableMemories_Args */, 40, 40, [device => 16, memories => 24, num_memories => 32]);
    check!(PJRT_Device_DefaultMemory_Args /* PJRT_Device_DefaultMemory_Args */, 32, 32, [device => 16, memory => 24]);
    check!(PJRT_Device_GetAttributes_Args /* PJRT_Device_GetAttributes_Args */, 56, 56, [device => 16, attributes => 24, num_attributes => 32, device_attributes => 40, attributes_deleter => 48]);
    check!(PJRT_Memory_Id_Args /* PJRT_Memory_Id_Args */, 32, 28, [memory => 16, id => 24]);
    check!(PJRT_Memory_Id_Args /* PJRT_Memory_Kind_Id_Args */, 32, 28, [memory => 16, id => 24]);
    check!(PJRT_Memory_String_Args /* PJRT_Memory_Kind_Args */, 40, 40, [memory => 16, string => 24, string_size => 32]);
    check!(PJRT_Memory_String_Args /* PJRT_Memory_DebugString_Args */, 40, 40, [memory => 16, string => 24, string_size => 32]);
    check!(PJRT_Memory_String_Args /* PJRT_Memory_ToString_Args */, 40, 40, [memory => 16, string => 24, string_size => 32]);
    check!(PJRT_Memory_AddressableByDevices_Args /* PJRT_Memory_AddressableByDevices_Args */, 40, 40, [memory => 16, devices => 24, num_devices => 32]);
    check!(PJRT_ExecuteContext_Create_Args /* PJRT_ExecuteContext_Create_Args */, 24, 24, [context => 16]);
    check!(PJRT_ExecuteContext_Destroy_Args /* PJRT_ExecuteContext_Destroy_Args */, 24, 24, [context => 16]);
    check!(PJRT_Executable_Destroy_Args /* PJRT_Executable_Destroy_Args */, 24, 24, [executable => 16]);
    check!(PJRT_LoadedExecutable_Destroy_Args /* PJRT_LoadedExecutable_Destroy_Args */, 24, 24, [executable => 16]);
    check!(PJRT_LoadedExecutable_Destroy_Args /* PJRT_LoadedExecutable_Delete_Args */, 24, 24, [executable => 16]);
    check!(PJRT_LoadedExecutable_GetExecutable_Args /* PJRT_LoadedExecutable_GetExecutable_Args */, 32, 32, [loaded_executable => 16, executable => 24]);
    check!(PJRT_SerializedBytes_Args /* PJRT_LoadedExecutable_GetDeviceAssignment_Args */, 56, 56, [executable => 16, serialized_bytes => 24, serialized_bytes_size => 32, holder => 40, deleter => 48]);
    check!(PJRT_SerializedBytes_Args /* PJRT_Executable_Serialize_Args */, 56, 56, [executable => 16, serialized_bytes => 24, serialized_bytes_size => 32, holder => 40, deleter => 48]);
    check!(PJRT_SerializedBytes_Args /* PJRT_Executable_GetCompileOptions_Args */, 56, 56, [executable => 16, serialized_bytes => 24, serialized_bytes_size => 32, holder => 40, deleter => 48]);
    check!(PJRT_Executable_String_Args /* PJRT_Executable_Name_Args */, 40, 40, [executable => 16, string => 24, string_size => 32]);
    check!(PJRT_Executable_String_Args /* PJRT_Executable_Fingerprint_Args */, 40, 40, [executable => 16, string => 24, string_size => 32]);
    check!(PJRT_Executable_Count_Args /* PJRT_Executable_NumReplicas_Args */, 32, 32, [executable => 16, count => 24]);
    check!(PJRT_Executable_Count_Args /* PJRT_Executable_NumPartitions_Args */, 32, 32, [executable => 16, count => 24]);
    check!(PJRT_Executable_Count_Args /* PJRT_Executable_NumOutputs_Args */, 32, 32, [executable => 16, count => 24]);
    check!(PJRT_LogicalDeviceIds /* PJRT_LogicalDeviceIds */, 8, 8, [replica => 0, partition => 4]);
    check!(PJRT_LoadedExecutable_AddressableDevices_Args /* PJRT_LoadedExecutable_AddressableDevices_Args */, 40, 40, [executable => 16, addressable_devices => 24, num_addressable_devices => 32]);
    check!(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args /* PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args */, 40, 40, [executable => 16, addressable_device_logical_ids => 24, num_addressable_device_logical_ids => 32]);
    check!(PJRT_Executable_OptimizedProgram_Args /* PJRT_Executable_OptimizedProgram_Args */, 32, 32, [executable => 16, program => 24]);
    check!(PJRT_LoadedExecutable_IsDeleted_Args /* PJRT_LoadedExecutable_IsDeleted_Args */, 32, 25, [executable => 16, is_deleted => 24]);
    check!(PJRT_ExecuteOptions /* PJRT_ExecuteOptions */, 144, 144, [send_callbacks => 16, recv_callbacks => 24, num_send_ops => 32, num_recv_ops => 40, launch_id => 48, non_donatable_input_indices => 56, num_non_donatable_input_indices => 64, context => 72, call_location => 80, num_tasks => 88, task_ids => 96, incarnation_ids => 104, multi_slice_config => 112, use_major_to_minor_data_layout_for_callbacks => 120, hlo_output_callbacks => 128, num_hlo_output_callbacks => 136]);
    check!(PJRT_LoadedExecutable_Execute_Args /* PJRT_LoadedExecutable_Execute_Args */, 80, 80, [executable => 16, options => 24, argument_lists => 32, num_devices => 40, num_args => 48, output_lists => 56, device_complete_events => 64, execute_device => 72]);
    check!(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args /* PJRT_Executable_SizeOfGeneratedCodeInBytes_Args */, 32, 32, [executable => 16, size_in_bytes => 24]);
    check!(PJRT_Executable_GetCostAnalysis_Args /* PJRT_Executable_GetCostAnalysis_Args */, 40, 40, [executable => 16, num_properties => 24, properties => 32]);
    check!(PJRT_Executable_GetCompiledMemoryStats_Args /* PJRT_Executable_GetCompiledMemoryStats_Args */, 144, 144, [executable => 16, generated_code_size_in_bytes => 24, argument_size_in_bytes => 32, output_size_in_bytes => 40, alias_size_in_bytes => 48, temp_size_in_bytes => 56, host_generated_code_size_in_bytes => 64, host_argument_size_in_bytes => 72, host_output_size_in_bytes => 80, host_alias_size_in_bytes => 88, host_temp_size_in_bytes => 96, peak_memory_in_bytes => 104, total_size_in_bytes => 112, total_allocation_bytes => 120, indefinite_allocations => 128, peak_unpadded_heap_bytes => 136]);
    check!(PJRT_Executable_OutputElementTypes_Args /* PJRT_Executable_OutputElementTypes_Args */, 40, 40, [executable => 16, output_types => 24, num_output_types => 32]);
    check!(PJRT_Executable_OutputDimensions_Args /* PJRT_Executable_OutputDimensions_Args */, 48, 48, [executable => 16, num_outputs => 24, dims => 32, dim_sizes => 40]);
    check!(PJRT_Executable_MemoryKinds_Args /* PJRT_Executable_ParameterMemoryKinds_Args */, 48, 48, [executable => 16, count => 24, memory_kinds => 32, memory_kind_sizes => 40]);
    check!(PJRT_Executable_MemoryKinds_Args /* PJRT_Executable_OutputMemoryKinds_Args */, 48, 48, [executable => 16, count => 24, memory_kinds => 32, memory_kind_sizes => 40]);
    check!(PJRT_LoadedExecutable_Fingerprint_Args /* PJRT_LoadedExecutable_Fingerprint_Args */, 40, 40, [executable => 16, executable_fingerprint => 24, executable_fingerprint_size => 32]);
    check!(PJRT_Buffer_Destroy_Args /* PJRT_Buffer_Destroy_Args */, 24, 24, [buffer => 16]);
    check!(PJRT_Buffer_Destroy_Args /* PJRT_Buffer_Delete_Args */, 24, 24, [buffer => 16]);
    check!(PJRT_Buffer_Destroy_Args /* PJRT_Buffer_IncreaseExternalReferenceCount_Args */, 24, 24, [buffer => 16]);
    check!(PJRT_Buffer_Destroy_Args /* PJRT_Buffer_DecreaseExternalReferenceCount_Args */, 24, 24, [buffer => 16]);
    check!(PJRT_Buffer_ElementType_Args /* PJRT_Buffer_ElementType_Args */, 32, 28, [buffer => 16, type_ => 24]);
    check!(PJRT_Buffer_Dimensions_Args /* PJRT_Buffer_Dimensions_Args */, 40, 40, [buffer => 16, dims => 24, num_dims => 32]);
    check!(PJRT_Buffer_Dimensions_Args /* PJRT_Buffer_UnpaddedDimensions_Args */, 40, 40, [buffer => 16, dims => 24, num_dims => 32]);
    check!(PJRT_Buffer_DynamicDimensionIndices_Args /* PJRT_Buffer_DynamicDimensionIndices_Args */, 40, 40, [buffer => 16, dynamic_dim_indices => 24, num_dynamic_dims => 32]);
    check!(PJRT_Buffer_GetMemoryLayout_Args /* PJRT_Buffer_GetMemoryLayout_Args */, 104, 104, [buffer => 16, layout => 24]);
    check!(PJRT_Buffer_ToHostBuffer_Args /* PJRT_Buffer_ToHostBuffer_Args */, 56, 56, [src => 16, host_layout => 24, dst => 32, dst_size => 40, event => 48]);
    check!(PJRT_Buffer_OnDeviceSizeInBytes_Args /* PJRT_Buffer_OnDeviceSizeInBytes_Args */, 32, 32, [buffer => 16, on_device_size_in_bytes => 24]);
    check!(PJRT_Buffer_Bool_Args /* PJRT_Buffer_IsDeleted_Args */, 32, 25, [buffer => 16, value => 24]);
    check!(PJRT_Buffer_Bool_Args /* PJRT_Buffer_IsOnCpu_Args */, 32, 25, [buffer => 16, value => 24]);
    check!(PJRT_Buffer_CopyRawToHost_Args /* PJRT_Buffer_CopyRawToHost_Args */, 56, 56, [buffer => 16, dst => 24, offset => 32, transfer_size => 40, event => 48]);
    check!(PJRT_Buffer_CopyTo_Args /* PJRT_Buffer_CopyToDevice_Args */, 40, 40, [buffer => 16, dst => 24, dst_buffer => 32]);
    check!(PJRT_Buffer_CopyTo_Args /* PJRT_Buffer_CopyToMemory_Args */, 40, 40, [buffer => 16, dst => 24, dst_buffer => 32]);
    check!(PJRT_Buffer_Device_Args /* PJRT_Buffer_Device_Args */, 32, 32, [buffer => 16, device => 24]);
    check!(PJRT_Buffer_Memory_Args /* PJRT_Buffer_Memory_Args */, 32, 32, [buffer => 16, memory => 24]);
    check!(PJRT_Buffer_ReadyEvent_Args /* PJRT_Buffer_ReadyEvent_Args */, 32, 32, [buffer => 16, event => 24]);
    check!(PJRT_Buffer_Pointer_Args /* PJRT_Buffer_UnsafePointer_Args */, 32, 32, [buffer => 16, pointer => 24]);
    check!(PJRT_Buffer_Pointer_Args /* PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args */, 32, 32, [buffer => 16, pointer => 24]);
    check!(PJRT_TopologyDescription_Destroy_Args /* PJRT_TopologyDescription_Destroy_Args */, 24, 24, [topology => 16]);
    check!(PJRT_TopologyDescription_String_Args /* PJRT_TopologyDescription_PlatformName_Args */, 40, 40, [topology => 16, string => 24, string_size => 32]);
    check!(PJRT_TopologyDescription_String_Args /* PJRT_TopologyDescription_PlatformVersion_Args */, 40, 40, [topology => 16, string => 24, string_size => 32]);
    check!(PJRT_TopologyDescription_GetDeviceDescriptions_Args /* PJRT_TopologyDescription_GetDeviceDescriptions_Args */, 40, 40, [topology => 16, descriptions => 24, num_descriptions => 32]);
    check!(PJRT_TopologyDescription_Attributes_Args /* PJRT_TopologyDescription_Attributes_Args */, 40, 40, [topology => 16, attributes => 24, num_attributes => 32]);
}

#[test]
fn the_api_table_matches_the_header() {
    const API_SIZE: usize = 1144;
    const API_STRUCT_SIZE: usize = 1144;
    const API_ENTRIES: &[(&str, usize)] = &[
        ("PJRT_Error_Destroy", 40),
        ("PJRT_Error_Message", 48),
        ("PJRT_Error_GetCode", 56),
        ("PJRT_Plugin_Initialize", 64),
        ("PJRT_Plugin_Attributes", 72),
        ("PJRT_Event_Destroy", 80),
        ("PJRT_Event_IsReady", 88),
        ("PJRT_Event_Error", 96),
        ("PJRT_Event_Await", 104),
        ("PJRT_Event_OnReady", 112),
        ("PJRT_Client_Create", 120),
        ("PJRT_Client_Destroy", 128),
        ("PJRT_Client_PlatformName", 136),
        ("PJRT_Client_ProcessIndex", 144),
        ("PJRT_Client_PlatformVersion", 152),
        ("PJRT_Client_Devices", 160),
        ("PJRT_Client_AddressableDevices", 168),
        ("PJRT_Client_LookupDevice", 176),
        ("PJRT_Client_LookupAddressableDevice", 184),
        ("PJRT_Client_AddressableMemories", 192),
        ("PJRT_Client_Compile", 200),
        ("PJRT_Client_DefaultDeviceAssignment", 208),
        ("PJRT_Client_BufferFromHostBuffer", 216),
        ("PJRT_DeviceDescription_Id", 224),
        ("PJRT_DeviceDescription_ProcessIndex", 232),
        ("PJRT_DeviceDescription_Attributes", 240),
        ("PJRT_DeviceDescription_Kind", 248),
        ("PJRT_DeviceDescription_DebugString", 256),
        ("PJRT_DeviceDescription_ToString", 264),
        ("PJRT_Device_GetDescription", 272),
        ("PJRT_Device_IsAddressable", 280),
        ("PJRT_Device_LocalHardwareId", 288),
        ("PJRT_Device_AddressableMemories", 296),
        ("PJRT_Device_DefaultMemory", 304),
        ("PJRT_Device_MemoryStats", 312),
        ("PJRT_Memory_Id", 320),
        ("PJRT_Memory_Kind", 328),
        ("PJRT_Memory_DebugString", 336),
        ("PJRT_Memory_ToString", 344),
        ("PJRT_Memory_AddressableByDevices", 352),
        ("PJRT_Executable_Destroy", 360),
        ("PJRT_Executable_Name", 368),
        ("PJRT_Executable_NumReplicas", 376),
        ("PJRT_Executable_NumPartitions", 384),
        ("PJRT_Executable_NumOutputs", 392),
        ("PJRT_Executable_SizeOfGeneratedCodeInBytes", 400),
        ("PJRT_Executable_GetCostAnalysis", 408),
        ("PJRT_Executable_OutputMemoryKinds", 416),
        ("PJRT_Executable_OptimizedProgram", 424),
        ("PJRT_Executable_Serialize", 432),
        ("PJRT_LoadedExecutable_Destroy", 440),
        ("PJRT_LoadedExecutable_GetExecutable", 448),
        ("PJRT_LoadedExecutable_AddressableDevices", 456),
        ("PJRT_LoadedExecutable_Delete", 464),
        ("PJRT_LoadedExecutable_IsDeleted", 472),
        ("PJRT_LoadedExecutable_Execute", 480),
        ("PJRT_Executable_DeserializeAndLoad", 488),
        ("PJRT_LoadedExecutable_Fingerprint", 496),
        ("PJRT_Buffer_Destroy", 504),
        ("PJRT_Buffer_ElementType", 512),
        ("PJRT_Buffer_Dimensions", 520),
        ("PJRT_Buffer_UnpaddedDimensions", 528),
        ("PJRT_Buffer_DynamicDimensionIndices", 536),
        ("PJRT_Buffer_GetMemoryLayout", 544),
        ("PJRT_Buffer_OnDeviceSizeInBytes", 552),
        ("PJRT_Buffer_Device", 560),
        ("PJRT_Buffer_Memory", 568),
        ("PJRT_Buffer_Delete", 576),
        ("PJRT_Buffer_IsDeleted", 584),
        ("PJRT_Buffer_CopyToDevice", 592),
        ("PJRT_Buffer_ToHostBuffer", 600),
        ("PJRT_Buffer_IsOnCpu", 608),
        ("PJRT_Buffer_ReadyEvent", 616),
        ("PJRT_Buffer_UnsafePointer", 624),
        ("PJRT_Buffer_IncreaseExternalReferenceCount", 632),
        ("PJRT_Buffer_DecreaseExternalReferenceCount", 640),
        ("PJRT_Buffer_OpaqueDeviceMemoryDataPointer", 648),
        ("PJRT_CopyToDeviceStream_Destroy", 656),
        ("PJRT_CopyToDeviceStream_AddChunk", 664),
        ("PJRT_CopyToDeviceStream_TotalBytes", 672),
        ("PJRT_CopyToDeviceStream_GranuleSize", 680),
        ("PJRT_CopyToDeviceStream_CurrentBytes", 688),
        ("PJRT_TopologyDescription_Create", 696),
        ("PJRT_TopologyDescription_Destroy", 704),
        ("PJRT_TopologyDescription_PlatformName", 712),
        ("PJRT_TopologyDescription_PlatformVersion", 720),
        ("PJRT_TopologyDescription_GetDeviceDescriptions", 728),
        ("PJRT_TopologyDescription_Serialize", 736),
        ("PJRT_TopologyDescription_Attributes", 744),
        ("PJRT_Compile", 752),
        ("PJRT_Executable_OutputElementTypes", 760),
        ("PJRT_Executable_OutputDimensions", 768),
        ("PJRT_Buffer_CopyToMemory", 776),
        ("PJRT_Client_CreateViewOfDeviceBuffer", 784),
        ("PJRT_Executable_Fingerprint", 792),
        ("PJRT_Client_TopologyDescription", 800),
        ("PJRT_Executable_GetCompiledMemoryStats", 808),
        ("PJRT_Memory_Kind_Id", 816),
        ("PJRT_ExecuteContext_Create", 824),
        ("PJRT_ExecuteContext_Destroy", 832),
        ("PJRT_Buffer_CopyRawToHost", 840),
        ("PJRT_AsyncHostToDeviceTransferManager_Destroy", 848),
        ("PJRT_AsyncHostToDeviceTransferManager_TransferData", 856),
        ("PJRT_Client_CreateBuffersForAsyncHostToDevice", 864),
        ("PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer", 872),
        ("PJRT_AsyncHostToDeviceTransferManager_Device", 880),
        ("PJRT_AsyncHostToDeviceTransferManager_BufferCount", 888),
        ("PJRT_AsyncHostToDeviceTransferManager_BufferSize", 896),
        ("PJRT_AsyncHostToDeviceTransferManager_SetBufferError", 904),
        ("PJRT_AsyncHostToDeviceTransferManager_AddMetadata", 912),
        ("PJRT_Client_DmaMap", 920),
        ("PJRT_Client_DmaUnmap", 928),
        ("PJRT_Client_CreateUninitializedBuffer", 936),
        ("PJRT_Client_UpdateGlobalProcessInfo", 944),
        ("PJRT_TopologyDescription_Deserialize", 952),
        ("PJRT_Client_CreateAliasBuffer", 960),
        ("PJRT_Client_FulfillAliasBuffer", 968),
        ("PJRT_LoadedExecutable_GetDeviceAssignment", 976),
        ("PJRT_Client_CreateErrorBuffer", 984),
        ("PJRT_AsyncHostToDeviceTransferManager_TransferLiteral", 992),
        ("PJRT_Buffer_CopyRawToHostFuture", 1000),
        ("PJRT_Device_PoisonExecution", 1008),
        ("PJRT_Device_CreateAsyncTrackingEvent", 1016),
        ("PJRT_AsyncTrackingEvent_Destroy", 1024),
        ("PJRT_Executable_GetCompileOptions", 1032),
        ("PJRT_Buffer_DonateWithControlDependency", 1040),
        ("PJRT_Event_Create", 1048),
        ("PJRT_Event_Set", 1056),
        ("PJRT_Device_GetAttributes", 1064),
        ("PJRT_Client_Load", 1072),
        ("PJRT_LoadedExecutable_AddressableDeviceLogicalIds", 1080),
        ("PJRT_Buffer_Bitcast", 1088),
        ("PJRT_Error_ForEachPayload", 1096),
        ("PJRT_TopologyDescription_Fingerprint", 1104),
        ("PJRT_Executable_ParameterMemoryKinds", 1112),
        ("PJRT_Device_ClearMemoryStats", 1120),
        ("PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace", 1128),
        ("PJRT_TopologyDescription_GetMemorySpaceKindIds", 1136),
    ];
    assert_eq!(size_of::<PJRT_Api>(), API_SIZE);
    assert_eq!(API.struct_size, API_STRUCT_SIZE);
    assert_eq!(offset_of!(PJRT_Api, pjrt_api_version), 16);
    assert_eq!(ENTRY_NAMES.len(), API_ENTRIES.len());
    let base = &API as *const PJRT_Api as usize;
    for (i, ((name, offset), ours)) in API_ENTRIES.iter().zip(ENTRY_NAMES).enumerate() {
        assert_eq!(name, ours, "entry {i}");
        // Every slot holds a function (a stub if floors does not implement it).
        let slot = unsafe { *((base + offset) as *const *const std::ffi::c_void) };
        assert!(!slot.is_null(), "{name} is null");
    }
    assert_eq!((API.pjrt_api_version.major_version, API.pjrt_api_version.minor_version), (0, 112));
    assert_eq!(API.pjrt_api_version.struct_size, 24);
}

#[test]
fn the_entries_jax_needs_are_implemented() {
    // What jaxlib 0.10.2 calls to list devices, compile, run and read back
    // (several abort the process when they answer UNIMPLEMENTED).
    for name in [
        "PJRT_Error_Destroy",
        "PJRT_Error_Message",
        "PJRT_Error_GetCode",
        "PJRT_Error_ForEachPayload",
        "PJRT_Plugin_Initialize",
        "PJRT_Plugin_Attributes",
        "PJRT_Event_Await",
        "PJRT_Event_OnReady",
        "PJRT_Client_Create",
        "PJRT_Client_Devices",
        "PJRT_Client_AddressableMemories",
        "PJRT_Client_Compile",
        "PJRT_Client_BufferFromHostBuffer",
        "PJRT_Device_GetAttributes",
        "PJRT_Device_DefaultMemory",
        "PJRT_Memory_Kind",
        "PJRT_LoadedExecutable_Execute",
        "PJRT_LoadedExecutable_AddressableDeviceLogicalIds",
        "PJRT_LoadedExecutable_GetDeviceAssignment",
        "PJRT_Executable_NumOutputs",
        "PJRT_Executable_OutputElementTypes",
        "PJRT_Executable_OutputDimensions",
        "PJRT_Executable_OutputMemoryKinds",
        "PJRT_Executable_Fingerprint",
        "PJRT_Buffer_ToHostBuffer",
        "PJRT_Buffer_Dimensions",
        "PJRT_Buffer_ElementType",
    ] {
        assert!(IMPLEMENTED.contains(&name), "{name} is a stub");
    }
    assert!(IMPLEMENTED.iter().filter(|n| !n.is_empty()).count() >= 70);
}
