//! The `PJRT_Api` table `GetPjrtApi` returns: `struct_size`,
//! `extension_start`, the version, then 138 function pointers in the
//! header's order. No slot is null: an entry floors does not implement is a
//! stub returning an UNIMPLEMENTED error that names it (the framework's own
//! messages then say which entry a feature needs).

use std::ffi::c_void;

use crate::c_api::*;

macro_rules! entry {
    ($name:ident, stub) => {{
        unsafe extern "C" fn stub(_args: *mut c_void) -> *mut PJRT_Error {
            crate::error::unimplemented_entry(stringify!($name))
        }
        stub as *const c_void
    }};
    ($name:ident, $module:ident) => {
        crate::$module::$name as *const c_void
    };
}

macro_rules! pjrt_api {
    ($($name:ident = $kind:ident),* $(,)?) => {
        /// The header's `PJRT_Api`, one field per entry (all pointer-sized).
        #[repr(C)]
        pub struct PJRT_Api {
            pub struct_size: usize,
            pub extension_start: *mut PJRT_Extension_Base,
            pub pjrt_api_version: PJRT_Api_Version,
            $(pub $name: *const c_void,)*
        }

        pub static API: PJRT_Api = PJRT_Api {
            struct_size: std::mem::size_of::<PJRT_Api>(),
            // The extensions floors provides: the shardings of an executable.
            extension_start: (&crate::executable::SHARDINGS_EXTENSION as *const PJRT_Shardings_Extension).cast_mut().cast(),
            pjrt_api_version: PJRT_Api_Version {
                struct_size: std::mem::offset_of!(PJRT_Api_Version, minor_version) + std::mem::size_of::<std::ffi::c_int>(),
                extension_start: std::ptr::null_mut(),
                major_version: PJRT_API_MAJOR,
                minor_version: PJRT_API_MINOR,
            },
            $($name: entry!($name, $kind),)*
        };

        /// Every entry's name, in table order.
        pub const ENTRY_NAMES: &[&str] = &[$(stringify!($name)),*];
        /// The entries floors implements (the rest are stubs).
        pub const IMPLEMENTED: &[&str] = &[$(implemented_name!($name, $kind)),*];
    };
}

macro_rules! implemented_name {
    ($name:ident, stub) => {
        ""
    };
    ($name:ident, $module:ident) => {
        stringify!($name)
    };
}

// SAFETY: the table is immutable and holds only function pointers and null.
unsafe impl Sync for PJRT_Api {}

pjrt_api! {
    PJRT_Error_Destroy = error,
    PJRT_Error_Message = error,
    PJRT_Error_GetCode = error,

    PJRT_Plugin_Initialize = client,
    PJRT_Plugin_Attributes = client,

    PJRT_Event_Destroy = event,
    PJRT_Event_IsReady = event,
    PJRT_Event_Error = event,
    PJRT_Event_Await = event,
    PJRT_Event_OnReady = event,

    PJRT_Client_Create = client,
    PJRT_Client_Destroy = client,
    PJRT_Client_PlatformName = client,
    PJRT_Client_ProcessIndex = client,
    PJRT_Client_PlatformVersion = client,
    PJRT_Client_Devices = client,
    PJRT_Client_AddressableDevices = client,
    PJRT_Client_LookupDevice = client,
    PJRT_Client_LookupAddressableDevice = client,
    PJRT_Client_AddressableMemories = client,
    PJRT_Client_Compile = executable,
    PJRT_Client_DefaultDeviceAssignment = client,
    PJRT_Client_BufferFromHostBuffer = buffer,

    PJRT_DeviceDescription_Id = client,
    PJRT_DeviceDescription_ProcessIndex = client,
    PJRT_DeviceDescription_Attributes = client,
    PJRT_DeviceDescription_Kind = client,
    PJRT_DeviceDescription_DebugString = client,
    PJRT_DeviceDescription_ToString = client,

    PJRT_Device_GetDescription = client,
    PJRT_Device_IsAddressable = client,
    PJRT_Device_LocalHardwareId = client,
    PJRT_Device_AddressableMemories = client,
    PJRT_Device_DefaultMemory = client,
    PJRT_Device_MemoryStats = stub,

    PJRT_Memory_Id = client,
    PJRT_Memory_Kind = client,
    PJRT_Memory_DebugString = client,
    PJRT_Memory_ToString = client,
    PJRT_Memory_AddressableByDevices = client,

    PJRT_Executable_Destroy = executable,
    PJRT_Executable_Name = executable,
    PJRT_Executable_NumReplicas = executable,
    PJRT_Executable_NumPartitions = executable,
    PJRT_Executable_NumOutputs = executable,
    PJRT_Executable_SizeOfGeneratedCodeInBytes = executable,
    PJRT_Executable_GetCostAnalysis = executable,
    PJRT_Executable_OutputMemoryKinds = executable,
    PJRT_Executable_OptimizedProgram = stub,
    PJRT_Executable_Serialize = stub,

    PJRT_LoadedExecutable_Destroy = executable,
    PJRT_LoadedExecutable_GetExecutable = executable,
    PJRT_LoadedExecutable_AddressableDevices = executable,
    PJRT_LoadedExecutable_Delete = executable,
    PJRT_LoadedExecutable_IsDeleted = executable,
    PJRT_LoadedExecutable_Execute = executable,
    PJRT_Executable_DeserializeAndLoad = stub,
    PJRT_LoadedExecutable_Fingerprint = executable,

    PJRT_Buffer_Destroy = buffer,
    PJRT_Buffer_ElementType = buffer,
    PJRT_Buffer_Dimensions = buffer,
    PJRT_Buffer_UnpaddedDimensions = buffer,
    PJRT_Buffer_DynamicDimensionIndices = buffer,
    PJRT_Buffer_GetMemoryLayout = buffer,
    PJRT_Buffer_OnDeviceSizeInBytes = buffer,
    PJRT_Buffer_Device = buffer,
    PJRT_Buffer_Memory = buffer,
    PJRT_Buffer_Delete = buffer,
    PJRT_Buffer_IsDeleted = buffer,
    PJRT_Buffer_CopyToDevice = buffer,
    PJRT_Buffer_ToHostBuffer = buffer,
    PJRT_Buffer_IsOnCpu = buffer,
    PJRT_Buffer_ReadyEvent = buffer,
    PJRT_Buffer_UnsafePointer = buffer,
    PJRT_Buffer_IncreaseExternalReferenceCount = buffer,
    PJRT_Buffer_DecreaseExternalReferenceCount = buffer,
    PJRT_Buffer_OpaqueDeviceMemoryDataPointer = buffer,

    PJRT_CopyToDeviceStream_Destroy = stub,
    PJRT_CopyToDeviceStream_AddChunk = stub,
    PJRT_CopyToDeviceStream_TotalBytes = stub,
    PJRT_CopyToDeviceStream_GranuleSize = stub,
    PJRT_CopyToDeviceStream_CurrentBytes = stub,

    PJRT_TopologyDescription_Create = stub,
    PJRT_TopologyDescription_Destroy = client,
    PJRT_TopologyDescription_PlatformName = client,
    PJRT_TopologyDescription_PlatformVersion = client,
    PJRT_TopologyDescription_GetDeviceDescriptions = client,
    PJRT_TopologyDescription_Serialize = stub,
    PJRT_TopologyDescription_Attributes = client,

    PJRT_Compile = stub,

    PJRT_Executable_OutputElementTypes = executable,
    PJRT_Executable_OutputDimensions = executable,

    PJRT_Buffer_CopyToMemory = buffer,

    PJRT_Client_CreateViewOfDeviceBuffer = stub,

    PJRT_Executable_Fingerprint = executable,

    PJRT_Client_TopologyDescription = client,

    PJRT_Executable_GetCompiledMemoryStats = executable,

    PJRT_Memory_Kind_Id = client,

    PJRT_ExecuteContext_Create = executable,
    PJRT_ExecuteContext_Destroy = executable,
    PJRT_Buffer_CopyRawToHost = buffer,
    PJRT_AsyncHostToDeviceTransferManager_Destroy = stub,
    PJRT_AsyncHostToDeviceTransferManager_TransferData = stub,
    PJRT_Client_CreateBuffersForAsyncHostToDevice = stub,
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer = stub,
    PJRT_AsyncHostToDeviceTransferManager_Device = stub,
    PJRT_AsyncHostToDeviceTransferManager_BufferCount = stub,
    PJRT_AsyncHostToDeviceTransferManager_BufferSize = stub,
    PJRT_AsyncHostToDeviceTransferManager_SetBufferError = stub,
    PJRT_AsyncHostToDeviceTransferManager_AddMetadata = stub,
    PJRT_Client_DmaMap = stub,
    PJRT_Client_DmaUnmap = stub,

    PJRT_Client_CreateUninitializedBuffer = buffer,
    PJRT_Client_UpdateGlobalProcessInfo = client,
    PJRT_TopologyDescription_Deserialize = stub,
    PJRT_Client_CreateAliasBuffer = stub,
    PJRT_Client_FulfillAliasBuffer = stub,
    PJRT_LoadedExecutable_GetDeviceAssignment = executable,
    PJRT_Client_CreateErrorBuffer = stub,
    PJRT_AsyncHostToDeviceTransferManager_TransferLiteral = stub,
    PJRT_Buffer_CopyRawToHostFuture = stub,
    PJRT_Device_PoisonExecution = stub,
    PJRT_Device_CreateAsyncTrackingEvent = stub,
    PJRT_AsyncTrackingEvent_Destroy = stub,
    PJRT_Executable_GetCompileOptions = executable,
    PJRT_Buffer_DonateWithControlDependency = stub,
    PJRT_Event_Create = event,
    PJRT_Event_Set = event,
    PJRT_Device_GetAttributes = client,

    PJRT_Client_Load = stub,
    PJRT_LoadedExecutable_AddressableDeviceLogicalIds = executable,
    PJRT_Buffer_Bitcast = stub,

    PJRT_Error_ForEachPayload = error,
    PJRT_TopologyDescription_Fingerprint = stub,
    PJRT_Executable_ParameterMemoryKinds = executable,
    PJRT_Device_ClearMemoryStats = stub,
    PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace = stub,
    PJRT_TopologyDescription_GetMemorySpaceKindIds = stub,
}
