//! The checks of the fuzz targets, as plain functions: the libFuzzer
//! targets in `fuzz_targets/` call them, and `tests/fuzz_sweep.rs` (which
//! includes this file) replays them on seeds and seeded mutations in the
//! test command, without libFuzzer. Each returns normally for an input the
//! code under test accepts or refuses cleanly, and panics when a property
//! fails (the fuzzer reports that as a crash).
//!
//! Uses only std and `floors_runtime`.
#![allow(dead_code)]

use std::{path::Path, sync::Arc};

use floors_runtime::{
    Artifact, ExecutorOptions, KernelLibrary, ThunkSpec,
    artifact::{FORMAT_VERSION, HEADER_BYTES, MAGIC},
    ffi::{
        Attr, Attrs, CallFrame, DataType, Dict,
        attrs::EncodedAttrs,
        c_api::{
            XLA_FFI_Args, XLA_FFI_Args_STRUCT_SIZE, XLA_FFI_CallFrame, XLA_FFI_CallFrame_STRUCT_SIZE, XLA_FFI_ExecutionStage_EXECUTE,
            XLA_FFI_Rets, XLA_FFI_Rets_STRUCT_SIZE,
        },
    },
    kernel_abi::{HostKernelFn, KernelCallFrame, KernelError},
    npy::{self, HostArray, TensorSpec},
    program::Executable,
    thunk::CustomCallRegistry,
};

// ---------------------------------------------------------------------------
// npy

/// `npy::read` on `data` (written to `dir/in.npy`): what it accepts is a
/// consistent array that fits its own spec and survives write + read;
/// anything else is an error, not a panic or a huge allocation.
pub fn npy_read(dir: &Path, data: &[u8]) {
    let path = dir.join("in.npy");
    std::fs::write(&path, data).expect("write the input");
    let Ok(a) = npy::read(&path) else { return };
    let elements: u128 = a.shape.iter().map(|&d| u128::from(d)).product();
    assert_eq!(a.bytes.len() as u128, elements * a.element_type.bytes() as u128, "{}: data length", a.describe());
    let spec = TensorSpec { element_type: a.element_type, shape: a.shape.clone() };
    spec.check(0, &path, &a).expect("an array fits its own spec");
    let _ = (spec.describe(), a.describe());
    let out = dir.join("out.npy");
    npy::write(&out, &a).expect("write what was read");
    let b = npy::read(&out).expect("read what was written");
    assert_eq!(a, b, "write + read changed the array");
}

// ---------------------------------------------------------------------------
// Artifacts

unsafe extern "C" fn nothing(_: *const KernelCallFrame) -> *const KernelError {
    std::ptr::null()
}

/// Every kernel is a function that does nothing: no code is ever loaded.
struct Stub;

impl KernelLibrary for Stub {
    fn kernel(&self, _: &str) -> Option<HostKernelFn> {
        Some(nothing)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// `payload` behind a valid header (magic, version, length, checksum).
pub fn with_header(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Workgroups the program's kernel calls run (saturating), or None when it
/// has a loop: what decides whether it is executed.
fn work(body: &[ThunkSpec]) -> Option<u64> {
    let mut n = 0u64;
    for t in body {
        n = n.saturating_add(match t {
            ThunkSpec::While { .. } => return None,
            ThunkSpec::Kernel { grid, .. } => grid.iter().fold(1u64, |a, &g| a.saturating_mul(g.max(1))),
            ThunkSpec::Conditional { branches, .. } => branches.iter().map(|b| work(b)).sum::<Option<u64>>()?,
            _ => 1,
        });
    }
    Some(n)
}

/// The artifact loader on `data`: a whole file if it starts with the magic,
/// else a payload that gets a valid header (so the decoder and the program
/// checks see it, not just the checksum). What decodes must encode back to
/// the same artifact; its executable over stub kernels (`Executable::new`:
/// slices in their allocations, parameters, results, custom calls, thunks)
/// is a value or an error; small loop-free programs are executed on zero
/// inputs. The kernel code is never loaded (`instantiate` dlopens it, and
/// code is trusted).
pub fn artifact(data: &[u8]) {
    let bytes = if data.starts_with(&MAGIC) { data.to_vec() } else { with_header(data) };
    let Ok(artifact) = Artifact::from_bytes(&bytes, "fuzz.floors") else { return };
    let encoded = artifact.to_bytes().expect("encode what was decoded");
    assert_eq!(Artifact::from_bytes(&encoded, "again").expect("decode what was encoded"), artifact);
    let program = &artifact.program;
    let _ = (program.kernel_names(), program.custom_call_targets(), format!("{artifact:?}"));
    let registry = Arc::new(CustomCallRegistry::with_builtins());
    let Ok(exe) = Executable::new(program.clone(), Arc::new(Stub), registry, ExecutorOptions::default()) else { return };
    let _ = exe.to_string();
    // A big grid only calls the stub that many times: skip those, and loops.
    let total: u64 = program.allocations.iter().map(|a| a.size).fold(0u64, u64::saturating_add);
    if work(&program.body).is_none_or(|n| n > 1 << 16) || total > 64 << 20 {
        return;
    }
    let inputs: Vec<(std::path::PathBuf, HostArray)> = exe
        .parameters()
        .iter()
        .map(|s| {
            let n = s.shape.iter().fold(1u64, |a, &d| a.saturating_mul(d)).saturating_mul(s.element_type.bytes() as u64);
            let array = HostArray { element_type: s.element_type, shape: s.shape.clone(), bytes: vec![0; n.min(1 << 24) as usize].into() };
            ("zero.npy".into(), array)
        })
        .collect();
    let _ = exe.execute(&inputs, None);
}

// ---------------------------------------------------------------------------
// FFI attributes

/// `attrs` as the C encoding carries it: a scalar keeps only the bytes of
/// its dtype (`Attrs::check` lets higher bits through; they are never read).
pub fn canonical(attrs: &Attrs) -> Attrs {
    Attrs::new(attrs.iter().map(|(n, a)| {
        let a = match a {
            Attr::Scalar { dtype, bits } if dtype.bytes() < 8 => {
                Attr::Scalar { dtype: *dtype, bits: bits & ((1u64 << (8 * dtype.bytes())) - 1) }
            }
            Attr::Dict(d) => Attr::Dict(canonical(d)),
            a => a.clone(),
        };
        (n.to_string(), a)
    }))
    .expect("names were sorted and unique")
}

fn probe(d: &Dict<'_>, attrs: &Attrs, depth: usize) {
    for (name, a) in attrs.iter() {
        let _ = (d.get::<i8>(name), d.get::<i16>(name), d.get::<i32>(name), d.get::<i64>(name));
        let _ = (d.get::<u8>(name), d.get::<u16>(name), d.get::<u32>(name), d.get::<u64>(name));
        let _ = (d.get::<f32>(name), d.get::<f64>(name), d.get::<&str>(name), d.get::<String>(name), d.get::<Attr>(name));
        let _ = (d.get::<Vec<i64>>(name), d.get::<&[f32]>(name), d.get::<&[u8]>(name), d.get::<Vec<f64>>(name));
        // bool only where the stored byte is a valid bool: `Attrs::check`
        // lets a Pred byte other than 0/1 through, and reading that as
        // `bool` would be undefined behaviour (README, "Fuzzing").
        let valid_bools = match a {
            Attr::Scalar { dtype: DataType::Pred, bits } => bits & 0xff <= 1,
            Attr::Array { dtype: DataType::Pred, bytes } => bytes.iter().all(|&b| b <= 1),
            _ => true,
        };
        if valid_bools {
            let _ = (d.get::<bool>(name), d.get::<Vec<bool>>(name));
        }
        if let (Ok(inner), Attr::Dict(a)) = (d.get::<Dict<'_>>(name), a)
            && depth < 64
        {
            probe(&inner, a, depth + 1);
        }
    }
    let _ = d.get::<i32>("no such attribute");
}

/// A decoded attribute dictionary: `EncodedAttrs::encode` refuses what the
/// check refuses; what it encodes into the FFI's C structs decodes back
/// through the safe binding (`CallFrame::attrs`) to the same value, and every
/// typed getter answers a value or an error.
pub fn ffi_attrs(attrs: &Attrs) {
    let _ = attrs.to_string();
    let Ok(encoded) = EncodedAttrs::encode(attrs) else { return };
    let args = XLA_FFI_Args {
        struct_size: XLA_FFI_Args_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        size: 0,
        types: std::ptr::null_mut(),
        args: std::ptr::null_mut(),
    };
    let rets = XLA_FFI_Rets {
        struct_size: XLA_FFI_Rets_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        size: 0,
        types: std::ptr::null_mut(),
        rets: std::ptr::null_mut(),
    };
    let frame = XLA_FFI_CallFrame {
        struct_size: XLA_FFI_CallFrame_STRUCT_SIZE,
        extension_start: std::ptr::null_mut(),
        api: std::ptr::null(),
        ctx: std::ptr::null_mut(),
        stage: XLA_FFI_ExecutionStage_EXECUTE,
        args,
        rets,
        attrs: encoded.raw(),
        future: std::ptr::null_mut(),
    };
    // SAFETY: the frame has no buffers; its attributes are `encoded`'s, alive here.
    let f = unsafe { CallFrame::from_raw(&frame) }.expect("a well-formed frame");
    let d = f.attrs();
    assert_eq!(d.to_attrs().expect("decode what was encoded"), canonical(attrs));
    probe(&d, attrs, 0);
}
