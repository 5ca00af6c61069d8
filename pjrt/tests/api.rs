//! The plugin driven through its `PJRT_Api` table as JAX drives it (no
//! Python): a client, host buffers in and out (strided), compile StableHLO
//! text, execute, and the errors a caller gets back instead of a crash.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use floors_pjrt::api::API;
use floors_pjrt::c_api::*;

/// Calls a table slot with its argument struct (`struct_size` set here).
fn call<A>(slot: *const c_void, args: &mut A) -> *mut PJRT_Error {
    unsafe {
        *(args as *mut A as *mut usize) = std::mem::size_of::<A>();
        let f: unsafe extern "C" fn(*mut A) -> *mut PJRT_Error = std::mem::transmute(slot);
        f(args)
    }
}

fn zeroed<A>() -> A {
    unsafe { std::mem::zeroed() }
}

/// The error's code and message; frees it.
fn take_error(e: *mut PJRT_Error) -> Option<(PJRT_Error_Code, String)> {
    if e.is_null() {
        return None;
    }
    let mut m: PJRT_Error_Message_Args = zeroed();
    m.error = e;
    unsafe {
        m.struct_size = std::mem::size_of_val(&m);
        let f: unsafe extern "C" fn(*mut PJRT_Error_Message_Args) = std::mem::transmute(API.PJRT_Error_Message);
        f(&mut m);
    }
    let message = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(m.message.cast::<u8>(), m.message_size) }).into_owned();
    let mut c: PJRT_Error_GetCode_Args = zeroed();
    c.error = e;
    assert!(call(API.PJRT_Error_GetCode, &mut c).is_null());
    let mut d: PJRT_Error_Destroy_Args = zeroed();
    d.error = e;
    unsafe {
        d.struct_size = std::mem::size_of_val(&d);
        let f: unsafe extern "C" fn(*mut PJRT_Error_Destroy_Args) = std::mem::transmute(API.PJRT_Error_Destroy);
        f(&mut d);
    }
    Some((c.code, message))
}

fn ok(e: *mut PJRT_Error) {
    if let Some((code, message)) = take_error(e) {
        panic!("error {code}: {message}");
    }
}

fn buffer_from_host(client: *mut PJRT_Client, data: &[f32], dims: &[i64], byte_strides: Option<&[i64]>) -> *mut PJRT_Buffer {
    let mut a: PJRT_Client_BufferFromHostBuffer_Args = zeroed();
    a.client = client;
    a.data = data.as_ptr().cast();
    a.type_ = PJRT_Buffer_Type_F32;
    a.dims = dims.as_ptr();
    a.num_dims = dims.len();
    if let Some(s) = byte_strides {
        a.byte_strides = s.as_ptr();
        a.num_byte_strides = s.len();
    }
    ok(call(API.PJRT_Client_BufferFromHostBuffer, &mut a));
    destroy_event(a.done_with_host_buffer);
    a.buffer
}

fn destroy_event(event: *mut PJRT_Event) {
    let mut e: PJRT_Event_Destroy_Args = zeroed();
    e.event = event;
    ok(call(API.PJRT_Event_Destroy, &mut e));
}

fn to_host(buffer: *mut PJRT_Buffer) -> Vec<f32> {
    let mut a: PJRT_Buffer_ToHostBuffer_Args = zeroed();
    a.src = buffer;
    ok(call(API.PJRT_Buffer_ToHostBuffer, &mut a));
    let mut out = vec![0f32; a.dst_size / 4];
    a.dst = out.as_mut_ptr().cast();
    ok(call(API.PJRT_Buffer_ToHostBuffer, &mut a));
    let mut w: PJRT_Event_Await_Args = zeroed();
    w.event = a.event;
    ok(call(API.PJRT_Event_Await, &mut w));
    destroy_event(a.event);
    out
}

fn destroy_buffer(buffer: *mut PJRT_Buffer) {
    let mut a: PJRT_Buffer_Destroy_Args = zeroed();
    a.buffer = buffer;
    ok(call(API.PJRT_Buffer_Destroy, &mut a));
}

fn compile(client: *mut PJRT_Client, format: &str, code: &str) -> Result<*mut PJRT_LoadedExecutable, (PJRT_Error_Code, String)> {
    let mut program: PJRT_Program = zeroed();
    program.struct_size = std::mem::size_of::<PJRT_Program>();
    program.code = code.as_ptr().cast_mut().cast();
    program.code_size = code.len();
    program.format = format.as_ptr().cast();
    program.format_size = format.len();
    let mut a: PJRT_Client_Compile_Args = zeroed();
    a.client = client;
    a.program = &program;
    match take_error(call(API.PJRT_Client_Compile, &mut a)) {
        None => Ok(a.executable),
        Some(e) => Err(e),
    }
}

fn execute(exe: *mut PJRT_LoadedExecutable, args: &[*mut PJRT_Buffer], outputs: usize) -> Result<Vec<*mut PJRT_Buffer>, String> {
    let mut out = vec![null_mut::<PJRT_Buffer>(); outputs];
    let arg_list = args.as_ptr();
    let out_list = out.as_mut_ptr();
    let mut event: *mut PJRT_Event = null_mut();
    let mut options: PJRT_ExecuteOptions = zeroed();
    options.struct_size = std::mem::size_of::<PJRT_ExecuteOptions>();
    let mut a: PJRT_LoadedExecutable_Execute_Args = zeroed();
    a.executable = exe;
    a.options = &mut options;
    a.argument_lists = &arg_list;
    a.num_devices = 1;
    a.num_args = args.len();
    a.output_lists = &out_list;
    a.device_complete_events = &mut event;
    if let Some((_, message)) = take_error(call(API.PJRT_LoadedExecutable_Execute, &mut a)) {
        return Err(message);
    }
    destroy_event(event);
    Ok(out)
}

const PROGRAM: &str = r#"
module @jit_axpy {
  func.func public @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
    %0 = stablehlo.multiply %a, %b : tensor<2x3xf32>
    %1 = stablehlo.add %0, %a : tensor<2x3xf32>
    %2 = stablehlo.transpose %b, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    return %1, %2 : tensor<2x3xf32>, tensor<3x2xf32>
  }
}
"#;

#[test]
fn client_buffers_compile_execute_and_errors() {
    let mut init: PJRT_Plugin_Initialize_Args = zeroed();
    ok(call(API.PJRT_Plugin_Initialize, &mut init));
    let mut attrs: PJRT_Plugin_Attributes_Args = zeroed();
    ok(call(API.PJRT_Plugin_Attributes, &mut attrs));
    let names: Vec<String> = (0..attrs.num_attributes)
        .map(|i| unsafe {
            let v = &*attrs.attributes.add(i);
            String::from_utf8_lossy(std::slice::from_raw_parts(v.name.cast::<u8>(), v.name_size)).into_owned()
        })
        .collect();
    assert!(names.contains(&"stablehlo_current_version".to_string()), "{names:?}");

    let mut create: PJRT_Client_Create_Args = zeroed();
    ok(call(API.PJRT_Client_Create, &mut create));
    let client = create.client;

    let mut name: PJRT_Client_String_Args = zeroed();
    name.client = client;
    ok(call(API.PJRT_Client_PlatformName, &mut name));
    assert_eq!(unsafe { std::slice::from_raw_parts(name.string.cast::<u8>(), name.string_size) }, b"floors");
    let mut devices: PJRT_Client_Devices_Args = zeroed();
    devices.client = client;
    ok(call(API.PJRT_Client_Devices, &mut devices));
    assert_eq!(devices.num_devices, 1);
    let mut memory: PJRT_Device_DefaultMemory_Args = zeroed();
    memory.device = unsafe { *devices.devices };
    ok(call(API.PJRT_Device_DefaultMemory, &mut memory));
    let mut kind: PJRT_Memory_String_Args = zeroed();
    kind.memory = memory.memory;
    ok(call(API.PJRT_Memory_Kind, &mut kind));
    assert_eq!(unsafe { std::slice::from_raw_parts(kind.string.cast::<u8>(), kind.string_size) }, b"device");

    // A column-major 2x3 host array arrives row-major.
    let a = buffer_from_host(client, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0], &[2, 3], Some(&[4, 8]));
    assert_eq!(to_host(a), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let b = buffer_from_host(client, &[2.0; 6], &[2, 3], None);

    let exe = compile(client, "mlir", PROGRAM).expect("compiles");
    let outs = execute(exe, &[a, b], 2).expect("runs");
    assert_eq!(to_host(outs[0]), [3.0, 6.0, 9.0, 12.0, 15.0, 18.0]);
    assert_eq!(to_host(outs[1]), [2.0; 6]);
    // The same text again comes from the cache; arguments swapped: 2 * a + 2.
    let again = compile(client, "mlir", PROGRAM).expect("compiles");
    let outs2 = execute(again, &[b, a], 2).expect("runs");
    assert_eq!(to_host(outs2[0]), [4.0, 6.0, 8.0, 10.0, 12.0, 14.0]);

    // A shape mismatch at run time is an error naming what was expected.
    let wrong = buffer_from_host(client, &[0.0; 6], &[3, 2], None);
    let e = execute(exe, &[a, wrong], 2).unwrap_err();
    assert!(e.contains("input 1") && e.contains("tensor<2x3xf32>") && e.contains("[3, 2]"), "{e}");
    let e = execute(exe, &[a], 2).unwrap_err();
    assert!(e.contains("takes 2 arguments, 1 were given"), "{e}");

    // A deleted buffer is an error, not a use after free.
    let mut del: PJRT_Buffer_Destroy_Args = zeroed();
    del.buffer = wrong;
    ok(call(API.PJRT_Buffer_Delete, &mut del));
    let e = execute(exe, &[a, wrong], 2).unwrap_err();
    assert!(e.contains("argument 1") && e.contains("deleted"), "{e}");

    // A program floors cannot parse: floors' located diagnostic.
    let (code, e) =
        compile(client, "mlir", "module @jit_bad {\n  func.func public @main() {\n    %0 = stablehlo.bogus\n  }\n}").unwrap_err();
    assert_eq!(code, PJRT_Error_Code_INVALID_ARGUMENT);
    assert!(e.contains("jit_bad.stablehlo.mlir:3:") && e.contains("error:"), "{e}");
    // A format floors does not read.
    let (code, e) = compile(client, "hlo", "").unwrap_err();
    assert_eq!(code, PJRT_Error_Code_UNIMPLEMENTED);
    assert!(e.contains("`hlo`"), "{e}");

    // A stub names itself.
    let (code, e) = take_error(call(API.PJRT_Compile, &mut [0usize; 16])).expect("a stub fails");
    assert_eq!(code, PJRT_Error_Code_UNIMPLEMENTED);
    assert!(e.contains("PJRT_Compile is not implemented"), "{e}");

    for buf in [a, b, wrong].into_iter().chain(outs).chain(outs2) {
        destroy_buffer(buf);
    }
    for exe in [exe, again] {
        let mut d: PJRT_LoadedExecutable_Destroy_Args = zeroed();
        d.executable = exe;
        ok(call(API.PJRT_LoadedExecutable_Destroy, &mut d));
    }
    let mut d: PJRT_Client_Destroy_Args = zeroed();
    d.client = client;
    ok(call(API.PJRT_Client_Destroy, &mut d));
    let _ = null::<u8>();
}
