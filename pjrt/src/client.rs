//! The plugin, the client, its devices (`floors:0` ... `floors:N-1`, each a
//! CPU-floor device in this process; N = `FLOORS_DEVICE_COUNT`, default 1,
//! like XLA:CPU's `--xla_force_host_platform_device_count`), each device's
//! description and its one memory (kind `device`), and the topology.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void};
use std::sync::Mutex;

use crate::c_api::*;
use crate::error::{Error, Result, args, guard, handle};

pub const PLATFORM_NAME: &str = "floors";
pub const DEVICE_KIND: &str = "floors cpu";
pub const MEMORY_KIND: &str = "device";
/// The StableHLO version floors reads: the one jaxlib 0.10.2 writes
/// (`stablehlo.get_current_version()`), so JAX serializes for it unchanged.
pub static STABLEHLO_VERSION: [i64; 3] = [1, 17, 0];
/// The oldest StableHLO version floors reads (jaxlib 0.10.2's minimum).
pub static STABLEHLO_MINIMUM_VERSION: [i64; 3] = [0, 9, 0];

/// A named value with a 'static name (the value's data lives as long as the caller keeps it).
pub fn named(name: &'static str, type_: PJRT_NamedValue_Type, value: PJRT_NamedValue_Value, value_size: usize) -> PJRT_NamedValue {
    PJRT_NamedValue {
        struct_size: crate::struct_size!(PJRT_NamedValue, value_size),
        extension_start: std::ptr::null_mut(),
        name: name.as_ptr().cast(),
        name_size: name.len(),
        type_,
        value,
        value_size,
    }
}

/// A list of named values the plugin owns for the process' lifetime.
pub struct NamedValues(pub Vec<PJRT_NamedValue>);
// SAFETY: the values point only at 'static data and are never written.
unsafe impl Send for NamedValues {}
unsafe impl Sync for NamedValues {}

// ------------------------------------------------------------------ plugin ---

pub unsafe extern "C" fn PJRT_Plugin_Initialize(a: *mut PJRT_Plugin_Initialize_Args) -> *mut PJRT_Error {
    guard("PJRT_Plugin_Initialize", || {
        unsafe { args(a, "PJRT_Plugin_Initialize") }?;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Plugin_Attributes(a: *mut PJRT_Plugin_Attributes_Args) -> *mut PJRT_Error {
    static ATTRS: std::sync::OnceLock<NamedValues> = std::sync::OnceLock::new();
    guard("PJRT_Plugin_Attributes", || {
        let a = unsafe { args(a, "PJRT_Plugin_Attributes") }?;
        let attrs = ATTRS.get_or_init(|| {
            NamedValues(vec![
                named(
                    "stablehlo_current_version",
                    PJRT_NamedValue_kInt64List,
                    PJRT_NamedValue_Value { int64_array_value: STABLEHLO_VERSION.as_ptr() },
                    STABLEHLO_VERSION.len(),
                ),
                named(
                    "stablehlo_minimum_version",
                    PJRT_NamedValue_kInt64List,
                    PJRT_NamedValue_Value { int64_array_value: STABLEHLO_MINIMUM_VERSION.as_ptr() },
                    STABLEHLO_MINIMUM_VERSION.len(),
                ),
                named("supports_cross_host_transfers", PJRT_NamedValue_kBool, PJRT_NamedValue_Value { bool_value: false }, 1),
            ])
        });
        a.attributes = attrs.0.as_ptr();
        a.num_attributes = attrs.0.len();
        Ok(())
    })
}

// ------------------------------------------------------------------ client ---

pub struct PJRT_Client {
    /// This process's first device and its memory (where a buffer goes when
    /// the caller names none).
    pub device: *mut PJRT_Device,
    pub memory: *mut PJRT_Memory,
    topology: *mut PJRT_TopologyDescription,
    /// Every device of the job, by id (the processes' devices in process order).
    pub devices: Vec<*mut PJRT_Device>,
    memories: Vec<*mut PJRT_Memory>,
    /// This process's devices and their memories.
    addressable: Vec<*mut PJRT_Device>,
    addressable_memories: Vec<*mut PJRT_Memory>,
    /// Which process of the job this is, of how many (`jax.distributed`'s
    /// `node_id` and `num_nodes`; 0 of 1 alone).
    pub process_index: usize,
    pub process_count: usize,
    /// The MPI job the processes' collectives run over (several processes).
    #[cfg(feature = "mpi")]
    pub mpi: Option<std::sync::Arc<floors_runtime::mpi_transport::Mpi>>,
    platform_version: String,
}

/// The number of devices the client exposes: `FLOORS_DEVICE_COUNT` (1 to
/// 1024), default 1.
pub fn device_count() -> Result<usize> {
    match std::env::var("FLOORS_DEVICE_COUNT") {
        Err(_) => Ok(1),
        Ok(s) => s
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=1024).contains(n))
            .ok_or_else(|| Error::invalid(format!("FLOORS_DEVICE_COUNT={s:?}: expected a number of devices from 1 to 1024"))),
    }
}

/// Where this client sits in a job of several processes: `node_id` and
/// `num_nodes` of the create options (what JAX passes once
/// `jax.distributed.initialize()` has run), (0, 1) when they are absent.
pub fn job_position(options: &[PJRT_NamedValue]) -> Result<(usize, usize)> {
    let int = |name: &str| -> Result<Option<i64>> {
        for o in options {
            // SAFETY: the caller's named values are valid for this call; the
            // name is `name_size` bytes.
            let n = unsafe { std::slice::from_raw_parts(o.name.cast::<u8>(), o.name_size) };
            if n == name.as_bytes() {
                if o.type_ != PJRT_NamedValue_kInt64 {
                    return Err(Error::invalid(format!("client option {name}: expected an integer")));
                }
                // SAFETY: the type tag says the union holds an int64.
                return Ok(Some(unsafe { o.value.int64_value }));
            }
        }
        Ok(None)
    };
    let (node, nodes) = (int("node_id")?.unwrap_or(0), int("num_nodes")?.unwrap_or(1));
    if nodes < 1 || node < 0 || node >= nodes {
        return Err(Error::invalid(format!("client options: node_id {node} of num_nodes {nodes} is not a process of the job")));
    }
    Ok((node as usize, nodes as usize))
}

impl PJRT_Client {
    /// `local` devices in each of `process_count` processes, this one being
    /// `process_index`: device ids run over the processes in order.
    fn create(local: usize, process_index: usize, process_count: usize) -> Box<PJRT_Client> {
        let n = local * process_count;
        let mut devices = Vec::with_capacity(n);
        let mut memories = Vec::with_capacity(n);
        for i in 0..n {
            let process = i / local;
            let device = Box::into_raw(Box::new(PJRT_Device {
                description: PJRT_DeviceDescription {
                    id: i as c_int,
                    process_index: process as c_int,
                    debug_string: format!("floors:{i}"),
                    to_string: if process_count > 1 {
                        format!("FloorsDevice(id={i}, process_index={process})")
                    } else {
                        format!("FloorsDevice(id={i})")
                    },
                },
                local_hardware_id: (i % local) as c_int,
                addressable: process == process_index,
                memories: [std::ptr::null_mut()],
            }));
            let memory = Box::into_raw(Box::new(PJRT_Memory {
                vtable: &MEMORY_VTABLE,
                id: i as c_int,
                devices: [device],
                debug_string: format!("floors:{i} device memory (host RAM)"),
                to_string: format!("MEMORY_SPACE_{i}"),
                user_data: Mutex::new(HashMap::new()),
            }));
            // SAFETY: `device` was just allocated and is owned by the client being built.
            unsafe { (*device).memories[0] = memory };
            devices.push(device);
            memories.push(memory);
        }
        // SAFETY: each device is live (owned by the client); its description is a field of it.
        let descriptions = devices.iter().map(|&d| unsafe { &mut (*d).description as *mut PJRT_DeviceDescription }).collect();
        let topology = Box::into_raw(Box::new(PJRT_TopologyDescription { descriptions }));
        let mine = process_index * local..(process_index + 1) * local;
        Box::new(PJRT_Client {
            device: devices[mine.start],
            memory: memories[mine.start],
            topology,
            addressable: devices[mine.clone()].to_vec(),
            addressable_memories: memories[mine].to_vec(),
            devices,
            memories,
            process_index,
            process_count,
            #[cfg(feature = "mpi")]
            mpi: None,
            platform_version: format!("floors {} (PJRT C API {PJRT_API_MAJOR}.{PJRT_API_MINOR})", env!("CARGO_PKG_VERSION")),
        })
    }

    /// The client of one process of a job of `process_count` (each process
    /// one device; the collectives between them over MPI).
    fn create_in_job(local: usize, process_index: usize, process_count: usize) -> Result<Box<PJRT_Client>> {
        if process_count == 1 {
            return Ok(Self::create(local, 0, 1));
        }
        if local != 1 {
            return Err(Error::invalid(format!(
                "FLOORS_DEVICE_COUNT={local} in a job of {process_count} processes: across processes floors runs one device per process (leave FLOORS_DEVICE_COUNT unset)"
            )));
        }
        Self::joined(process_index, process_count)
    }

    #[cfg(feature = "mpi")]
    fn joined(process_index: usize, process_count: usize) -> Result<Box<PJRT_Client>> {
        let mpi = floors_runtime::mpi_transport::Mpi::process_job().map_err(|e| {
            Error::invalid(format!("process {process_index} of {process_count}: floors' collectives across processes need MPI: {e}"))
        })?;
        if (mpi.rank(), mpi.size()) != (process_index, process_count) {
            return Err(Error::invalid(format!(
                "jax.distributed names this process {process_index} of {process_count}, but it is MPI rank {} of {}: start the processes with mpirun (jax.distributed.initialize() then takes Open MPI's ranks)",
                mpi.rank(),
                mpi.size()
            )));
        }
        let mut client = Self::create(1, process_index, process_count);
        client.mpi = Some(mpi);
        Ok(client)
    }

    #[cfg(not(feature = "mpi"))]
    fn joined(process_index: usize, process_count: usize) -> Result<Box<PJRT_Client>> {
        Err(Error::unimplemented(format!(
            "process {process_index} of {process_count}: this floors plugin was built without MPI (feature `mpi`), which its collectives across processes run over"
        )))
    }

    /// The index of `device` among the client's devices.
    pub fn index_of(&self, device: *mut PJRT_Device) -> Option<usize> {
        self.devices.iter().position(|&d| d == device)
    }

    /// The device a memory belongs to.
    pub fn device_of_memory(&self, memory: *mut PJRT_Memory) -> Option<*mut PJRT_Device> {
        self.memories.iter().position(|&m| m == memory).map(|i| self.devices[i])
    }

    /// The (device, memory) a new buffer goes to: the memory's device when a
    /// memory is named, else the device named (its memory), else this
    /// process's first device. Only this process's devices hold buffers.
    pub fn placement(&self, device: *mut PJRT_Device, memory: *mut PJRT_Memory) -> Result<(*mut PJRT_Device, *mut PJRT_Memory)> {
        let (d, m) = if !memory.is_null() {
            (self.device_of_memory(memory).ok_or_else(|| Error::invalid("the memory is not one of this client's"))?, memory)
        } else if !device.is_null() {
            let i = self.index_of(device).ok_or_else(|| Error::invalid("the device is not one of this client's"))?;
            (device, self.memories[i])
        } else {
            return Ok((self.device, self.memory));
        };
        if !self.addressable.contains(&d) {
            let i = self.index_of(d).unwrap_or(usize::MAX);
            return Err(Error::invalid(format!(
                "device floors:{i} belongs to another process of the job (this is process {} of {})",
                self.process_index, self.process_count
            )));
        }
        Ok((d, m))
    }
}

impl Drop for PJRT_Client {
    fn drop(&mut self) {
        // SAFETY: the client owns its devices, memories and topology, each freed once here.
        unsafe {
            drop(Box::from_raw(self.topology));
            for &m in &self.memories {
                drop(Box::from_raw(m));
            }
            for &d in &self.devices {
                drop(Box::from_raw(d));
            }
        }
    }
}

pub unsafe fn client<'a>(p: *mut PJRT_Client) -> Result<&'a PJRT_Client> {
    unsafe { handle(p, "PJRT_Client") }
}

pub unsafe extern "C" fn PJRT_Client_Create(a: *mut PJRT_Client_Create_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_Create", || {
        let a = unsafe { args(a, "PJRT_Client_Create") }?;
        let options: &[PJRT_NamedValue] = if a.create_options.is_null() || a.num_options == 0 {
            &[]
        } else {
            // SAFETY: the caller passes `num_options` named values that live for this call.
            unsafe { std::slice::from_raw_parts(a.create_options, a.num_options) }
        };
        let (node, nodes) = job_position(options)?;
        a.client = Box::into_raw(PJRT_Client::create_in_job(device_count()?, node, nodes)?);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_Destroy(a: *mut PJRT_Client_Destroy_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_Destroy", || {
        let a = unsafe { args(a, "PJRT_Client_Destroy") }?;
        if !a.client.is_null() {
            drop(unsafe { Box::from_raw(a.client) });
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_PlatformName(a: *mut PJRT_Client_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_PlatformName", || {
        let a = unsafe { args(a, "PJRT_Client_PlatformName") }?;
        a.string = PLATFORM_NAME.as_ptr().cast();
        a.string_size = PLATFORM_NAME.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_ProcessIndex(a: *mut PJRT_Client_ProcessIndex_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_ProcessIndex", || {
        let a = unsafe { args(a, "PJRT_Client_ProcessIndex") }?;
        a.process_index = unsafe { client(a.client) }?.process_index as c_int;
        Ok(())
    })
}

/// The coordination service's view of the job's processes (JAX forwards it
/// whenever it changes). A process in the error state will never reach the
/// collectives the others wait in: in a job of several processes this one
/// then ends the MPI job with that process's error instead of hanging.
pub unsafe extern "C" fn PJRT_Client_UpdateGlobalProcessInfo(a: *mut PJRT_Client_UpdateGlobalProcessInfo_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_UpdateGlobalProcessInfo", || {
        let a = unsafe { args(a, "PJRT_Client_UpdateGlobalProcessInfo") }?;
        let c = unsafe { client(a.client) }?;
        if c.process_count == 1 || a.process_infos.is_null() {
            return Ok(());
        }
        // SAFETY: the caller passes `num_process_infos` infos valid for this call.
        let infos = unsafe { std::slice::from_raw_parts(a.process_infos, a.num_process_infos) };
        for info in infos.iter().filter(|i| i.state == PJRT_ProcessState_kError && i.task_id as usize != c.process_index) {
            let message = if info.error_message.is_null() {
                String::new()
            } else {
                // SAFETY: `error_message_size` bytes at `error_message`, valid for this call.
                String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(info.error_message.cast::<u8>(), info.error_message_size) })
                    .into_owned()
            };
            eprintln!(
                "floors (process {} of {}): process {} of the job failed ({message}); ending the job",
                c.process_index, c.process_count, info.task_id
            );
            #[cfg(feature = "mpi")]
            if let Some(mpi) = &c.mpi {
                mpi.request_abort();
            }
        }
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_PlatformVersion(a: *mut PJRT_Client_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_PlatformVersion", || {
        let a = unsafe { args(a, "PJRT_Client_PlatformVersion") }?;
        let c = unsafe { client(a.client) }?;
        a.string = c.platform_version.as_ptr().cast();
        a.string_size = c.platform_version.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_TopologyDescription(a: *mut PJRT_Client_TopologyDescription_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_TopologyDescription", || {
        let a = unsafe { args(a, "PJRT_Client_TopologyDescription") }?;
        a.topology = unsafe { client(a.client) }?.topology;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_Devices(a: *mut PJRT_Client_Devices_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_Devices", || {
        let a = unsafe { args(a, "PJRT_Client_Devices") }?;
        let c = unsafe { client(a.client) }?;
        a.devices = c.devices.as_ptr();
        a.num_devices = c.devices.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_AddressableDevices(a: *mut PJRT_Client_Devices_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_AddressableDevices", || {
        let a = unsafe { args(a, "PJRT_Client_AddressableDevices") }?;
        let c = unsafe { client(a.client) }?;
        a.devices = c.addressable.as_ptr();
        a.num_devices = c.addressable.len();
        Ok(())
    })
}

/// Device `a.id` of `devices` (every device by id, or this process's by
/// local hardware id).
fn lookup(a: &mut PJRT_Client_LookupDevice_Args, entry: &str, addressable: bool) -> Result<()> {
    let c = unsafe { client(a.client) }?;
    let devices = if addressable { &c.addressable } else { &c.devices };
    let n = devices.len();
    if a.id < 0 || a.id as usize >= n {
        return Err(Error::new(
            PJRT_Error_Code_NOT_FOUND,
            format!("{entry}: no device {} (floors has devices 0 to {}; FLOORS_DEVICE_COUNT sets how many)", a.id, n - 1),
        ));
    }
    a.device = devices[a.id as usize];
    Ok(())
}

pub unsafe extern "C" fn PJRT_Client_LookupDevice(a: *mut PJRT_Client_LookupDevice_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_LookupDevice", || lookup(unsafe { args(a, "PJRT_Client_LookupDevice") }?, "PJRT_Client_LookupDevice", false))
}

pub unsafe extern "C" fn PJRT_Client_LookupAddressableDevice(a: *mut PJRT_Client_LookupDevice_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_LookupAddressableDevice", || {
        lookup(unsafe { args(a, "PJRT_Client_LookupAddressableDevice") }?, "PJRT_Client_LookupAddressableDevice", true)
    })
}

pub unsafe extern "C" fn PJRT_Client_AddressableMemories(a: *mut PJRT_Client_AddressableMemories_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_AddressableMemories", || {
        let a = unsafe { args(a, "PJRT_Client_AddressableMemories") }?;
        let c = unsafe { client(a.client) }?;
        a.addressable_memories = c.addressable_memories.as_ptr();
        a.num_addressable_memories = c.addressable_memories.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Client_DefaultDeviceAssignment(a: *mut PJRT_Client_DefaultDeviceAssignment_Args) -> *mut PJRT_Error {
    guard("PJRT_Client_DefaultDeviceAssignment", || {
        let a = unsafe { args(a, "PJRT_Client_DefaultDeviceAssignment") }?;
        let n = unsafe { client(a.client) }?.devices.len();
        let wanted = (a.num_replicas.max(0) as usize).saturating_mul(a.num_partitions.max(0) as usize);
        if wanted == 0 || wanted > n {
            return Err(Error::invalid(format!(
                "floors has {n} device(s): {} replicas x {} partitions cannot be placed (FLOORS_DEVICE_COUNT sets the device count)",
                a.num_replicas, a.num_partitions
            )));
        }
        if a.default_assignment_size < wanted || a.default_assignment.is_null() {
            return Err(Error::invalid("PJRT_Client_DefaultDeviceAssignment: no room for the assignment"));
        }
        // Replica r, partition p runs on device r * partitions + p.
        for i in 0..wanted {
            unsafe { *a.default_assignment.add(i) = i as c_int };
        }
        Ok(())
    })
}

// -------------------------------------------------------------- devices ---

pub struct PJRT_DeviceDescription {
    id: c_int,
    process_index: c_int,
    debug_string: String,
    to_string: String,
}

pub struct PJRT_Device {
    description: PJRT_DeviceDescription,
    /// Its index among its process's devices.
    local_hardware_id: c_int,
    /// Whether it is one of this process's devices.
    pub(crate) addressable: bool,
    pub(crate) memories: [*mut PJRT_Memory; 1],
}

unsafe fn description<'a>(p: *mut PJRT_DeviceDescription) -> Result<&'a PJRT_DeviceDescription> {
    unsafe { handle(p, "PJRT_DeviceDescription") }
}

pub unsafe fn device<'a>(p: *mut PJRT_Device) -> Result<&'a PJRT_Device> {
    unsafe { handle(p, "PJRT_Device") }
}

pub unsafe extern "C" fn PJRT_DeviceDescription_Id(a: *mut PJRT_DeviceDescription_Id_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_Id", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_Id") }?;
        a.id = unsafe { description(a.device_description) }?.id;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_DeviceDescription_ProcessIndex(a: *mut PJRT_DeviceDescription_ProcessIndex_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_ProcessIndex", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_ProcessIndex") }?;
        a.id = unsafe { description(a.device_description) }?.process_index;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_DeviceDescription_Attributes(a: *mut PJRT_DeviceDescription_Attributes_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_Attributes", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_Attributes") }?;
        a.attributes = std::ptr::null();
        a.num_attributes = 0;
        Ok(())
    })
}

fn set_str(string: &mut *const c_char, size: &mut usize, s: &str) {
    *string = s.as_ptr().cast();
    *size = s.len();
}

pub unsafe extern "C" fn PJRT_DeviceDescription_Kind(a: *mut PJRT_DeviceDescription_String_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_Kind", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_Kind") }?;
        set_str(&mut a.string, &mut a.string_size, DEVICE_KIND);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_DeviceDescription_DebugString(a: *mut PJRT_DeviceDescription_String_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_DebugString", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_DebugString") }?;
        let d = unsafe { description(a.device_description) }?;
        set_str(&mut a.string, &mut a.string_size, &d.debug_string);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_DeviceDescription_ToString(a: *mut PJRT_DeviceDescription_String_Args) -> *mut PJRT_Error {
    guard("PJRT_DeviceDescription_ToString", || {
        let a = unsafe { args(a, "PJRT_DeviceDescription_ToString") }?;
        let d = unsafe { description(a.device_description) }?;
        set_str(&mut a.string, &mut a.string_size, &d.to_string);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Device_GetDescription(a: *mut PJRT_Device_GetDescription_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_GetDescription", || {
        let a = unsafe { args(a, "PJRT_Device_GetDescription") }?;
        unsafe { device(a.device) }?;
        a.device_description = unsafe { &mut (*a.device).description };
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Device_IsAddressable(a: *mut PJRT_Device_IsAddressable_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_IsAddressable", || {
        let a = unsafe { args(a, "PJRT_Device_IsAddressable") }?;
        a.is_addressable = unsafe { device(a.device) }?.addressable;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Device_LocalHardwareId(a: *mut PJRT_Device_LocalHardwareId_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_LocalHardwareId", || {
        let a = unsafe { args(a, "PJRT_Device_LocalHardwareId") }?;
        a.local_hardware_id = unsafe { device(a.device) }?.local_hardware_id;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Device_AddressableMemories(a: *mut PJRT_Device_AddressableMemories_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_AddressableMemories", || {
        let a = unsafe { args(a, "PJRT_Device_AddressableMemories") }?;
        let d = unsafe { device(a.device) }?;
        a.memories = d.memories.as_ptr();
        a.num_memories = d.memories.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Device_DefaultMemory(a: *mut PJRT_Device_DefaultMemory_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_DefaultMemory", || {
        let a = unsafe { args(a, "PJRT_Device_DefaultMemory") }?;
        a.memory = unsafe { device(a.device) }?.memories[0];
        Ok(())
    })
}

unsafe extern "C" fn delete_device_attributes(_: *mut PJRT_Device_Attributes) {}

/// No attributes. (JAX builds its device objects from this entry; an
/// UNIMPLEMENTED answer here aborts the process.)
pub unsafe extern "C" fn PJRT_Device_GetAttributes(a: *mut PJRT_Device_GetAttributes_Args) -> *mut PJRT_Error {
    guard("PJRT_Device_GetAttributes", || {
        let a = unsafe { args(a, "PJRT_Device_GetAttributes") }?;
        a.attributes = std::ptr::null();
        a.num_attributes = 0;
        a.device_attributes = std::ptr::null_mut();
        a.attributes_deleter = Some(delete_device_attributes);
        Ok(())
    })
}

// --------------------------------------------------------------- memory ---

/// The header's `PJRT_Memory`: the function table first, then floors' part.
#[repr(C)]
pub struct PJRT_Memory {
    vtable: *const PJRT_Memory_FunctionTable,
    id: c_int,
    pub(crate) devices: [*mut PJRT_Device; 1],
    debug_string: String,
    to_string: String,
    /// key -> (data, destructor), what the framework attaches.
    user_data: Mutex<HashMap<usize, (usize, Option<unsafe extern "C" fn(*mut c_void)>)>>,
}

impl Drop for PJRT_Memory {
    fn drop(&mut self) {
        let data = std::mem::take(&mut *self.user_data.lock().unwrap_or_else(|e| e.into_inner()));
        for (_, (value, dtor)) in data {
            if let Some(dtor) = dtor {
                unsafe { dtor(value as *mut c_void) };
            }
        }
    }
}

static MEMORY_VTABLE: PJRT_Memory_FunctionTable = PJRT_Memory_FunctionTable {
    struct_size: std::mem::size_of::<PJRT_Memory_FunctionTable>(),
    extension_start: std::ptr::null_mut(),
    instance_struct_size: std::mem::size_of::<*const c_void>(),
    get_user_data: memory_get_user_data,
    set_user_data: memory_set_user_data,
};

// SAFETY: the table holds function pointers only.
unsafe impl Sync for PJRT_Memory_FunctionTable {}

unsafe extern "C" fn memory_get_user_data(memory: *mut PJRT_Memory, key: *const c_void) -> *mut c_void {
    match unsafe { memory.as_ref() } {
        Some(m) => {
            m.user_data.lock().unwrap_or_else(|e| e.into_inner()).get(&(key as usize)).map_or(std::ptr::null_mut(), |v| v.0 as *mut c_void)
        }
        None => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn memory_set_user_data(
    memory: *mut PJRT_Memory,
    key: *const c_void,
    data: *mut c_void,
    dtor: Option<unsafe extern "C" fn(*mut c_void)>,
) {
    if let Some(m) = unsafe { memory.as_ref() } {
        let old = m.user_data.lock().unwrap_or_else(|e| e.into_inner()).insert(key as usize, (data as usize, dtor));
        if let Some((value, Some(dtor))) = old {
            unsafe { dtor(value as *mut c_void) };
        }
    }
}

pub(crate) unsafe fn memory<'a>(p: *mut PJRT_Memory) -> Result<&'a PJRT_Memory> {
    unsafe { handle(p, "PJRT_Memory") }
}

pub unsafe extern "C" fn PJRT_Memory_Id(a: *mut PJRT_Memory_Id_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_Id", || {
        let a = unsafe { args(a, "PJRT_Memory_Id") }?;
        a.id = unsafe { memory(a.memory) }?.id;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Memory_Kind(a: *mut PJRT_Memory_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_Kind", || {
        let a = unsafe { args(a, "PJRT_Memory_Kind") }?;
        set_str(&mut a.string, &mut a.string_size, MEMORY_KIND);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Memory_Kind_Id(a: *mut PJRT_Memory_Id_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_Kind_Id", || {
        unsafe { args(a, "PJRT_Memory_Kind_Id") }?.id = 0;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Memory_DebugString(a: *mut PJRT_Memory_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_DebugString", || {
        let a = unsafe { args(a, "PJRT_Memory_DebugString") }?;
        let m = unsafe { memory(a.memory) }?;
        set_str(&mut a.string, &mut a.string_size, &m.debug_string);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Memory_ToString(a: *mut PJRT_Memory_String_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_ToString", || {
        let a = unsafe { args(a, "PJRT_Memory_ToString") }?;
        let m = unsafe { memory(a.memory) }?;
        set_str(&mut a.string, &mut a.string_size, &m.to_string);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_Memory_AddressableByDevices(a: *mut PJRT_Memory_AddressableByDevices_Args) -> *mut PJRT_Error {
    guard("PJRT_Memory_AddressableByDevices", || {
        let a = unsafe { args(a, "PJRT_Memory_AddressableByDevices") }?;
        let m = unsafe { memory(a.memory) }?;
        a.devices = m.devices.as_ptr();
        a.num_devices = m.devices.len();
        Ok(())
    })
}

// ------------------------------------------------------------- topology ---

pub struct PJRT_TopologyDescription {
    descriptions: Vec<*mut PJRT_DeviceDescription>,
}

pub unsafe extern "C" fn PJRT_TopologyDescription_Destroy(a: *mut PJRT_TopologyDescription_Destroy_Args) -> *mut PJRT_Error {
    // The client's topology is owned by the client (the only kind there is).
    guard("PJRT_TopologyDescription_Destroy", || {
        unsafe { args(a, "PJRT_TopologyDescription_Destroy") }?;
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_TopologyDescription_PlatformName(a: *mut PJRT_TopologyDescription_String_Args) -> *mut PJRT_Error {
    guard("PJRT_TopologyDescription_PlatformName", || {
        let a = unsafe { args(a, "PJRT_TopologyDescription_PlatformName") }?;
        set_str(&mut a.string, &mut a.string_size, PLATFORM_NAME);
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_TopologyDescription_PlatformVersion(a: *mut PJRT_TopologyDescription_String_Args) -> *mut PJRT_Error {
    guard("PJRT_TopologyDescription_PlatformVersion", || {
        let a = unsafe { args(a, "PJRT_TopologyDescription_PlatformVersion") }?;
        set_str(&mut a.string, &mut a.string_size, env!("CARGO_PKG_VERSION"));
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_TopologyDescription_GetDeviceDescriptions(
    a: *mut PJRT_TopologyDescription_GetDeviceDescriptions_Args,
) -> *mut PJRT_Error {
    guard("PJRT_TopologyDescription_GetDeviceDescriptions", || {
        let a = unsafe { args(a, "PJRT_TopologyDescription_GetDeviceDescriptions") }?;
        let t = unsafe { handle(a.topology, "PJRT_TopologyDescription") }?;
        a.descriptions = t.descriptions.as_ptr();
        a.num_descriptions = t.descriptions.len();
        Ok(())
    })
}

pub unsafe extern "C" fn PJRT_TopologyDescription_Attributes(a: *mut PJRT_TopologyDescription_Attributes_Args) -> *mut PJRT_Error {
    guard("PJRT_TopologyDescription_Attributes", || {
        let a = unsafe { args(a, "PJRT_TopologyDescription_Attributes") }?;
        a.attributes = std::ptr::null();
        a.num_attributes = 0;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_tables_come_first() {
        // The framework reads `vtable` at offset 0 of both (0.112 header).
        assert_eq!(std::mem::offset_of!(PJRT_Memory, vtable), 0);
        assert_eq!(std::mem::offset_of!(PJRT_Error, vtable), 0);
    }

    fn int(name: &'static str, v: i64) -> PJRT_NamedValue {
        named(name, PJRT_NamedValue_kInt64, PJRT_NamedValue_Value { int64_value: v }, 1)
    }

    #[test]
    fn the_job_position_comes_from_jax_distributed_options() {
        assert_eq!(job_position(&[]).unwrap(), (0, 1));
        assert_eq!(job_position(&[int("num_nodes", 2), int("node_id", 1)]).unwrap(), (1, 2));
        let e = job_position(&[int("node_id", 2), int("num_nodes", 2)]).unwrap_err().message;
        assert!(e.contains("node_id 2 of num_nodes 2"), "{e}");
        let text = named("node_id", PJRT_NamedValue_kString, PJRT_NamedValue_Value { string_value: c"1".as_ptr() }, 1);
        let e = job_position(&[text]).unwrap_err().message;
        assert!(e.contains("node_id: expected an integer"), "{e}");
    }

    #[test]
    fn a_client_of_a_job_holds_only_its_own_device() {
        let c = PJRT_Client::create(1, 1, 3);
        assert_eq!(c.devices.len(), 3);
        assert_eq!(c.addressable, vec![c.devices[1]]);
        assert_eq!(c.device, c.devices[1]);
        let d = unsafe { device(c.devices[2]) }.unwrap();
        assert!(!d.addressable);
        assert_eq!((d.description.id, d.description.process_index, d.local_hardware_id), (2, 2, 0));
        let e = c.placement(c.devices[0], std::ptr::null_mut()).unwrap_err().message;
        assert!(e.contains("belongs to another process of the job (this is process 1 of 3)"), "{e}");
        assert!(c.placement(c.devices[1], std::ptr::null_mut()).is_ok());
        let e = PJRT_Client::create_in_job(2, 0, 2).err().unwrap().message;
        assert!(e.contains("one device per process"), "{e}");
    }
}
