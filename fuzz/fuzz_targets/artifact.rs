//! The artifact loader on arbitrary bytes. An input that starts with the
//! artifact magic is taken as a whole file; anything else as a payload that
//! gets a valid header (magic, version, length, checksum), so the fuzzer
//! reaches the decoder and the program checks instead of the checksum.
//!
//! Whatever decodes must encode back to the same artifact, and building its
//! executable over stub kernels (the checks of `Executable::new`: slices in
//! their allocations, parameters, results, custom calls, then the thunks)
//! must give a value or an error. Small programs without loops are also
//! executed on zero inputs with kernels that do nothing. The kernel code is
//! never loaded: `instantiate` dlopens it, and code is trusted.
#![no_main]

use std::{path::PathBuf, sync::Arc};

use floors_runtime::{
    Artifact, ExecutorOptions, KernelLibrary, ThunkSpec,
    artifact::{FORMAT_VERSION, HEADER_BYTES, MAGIC},
    kernel_abi::{HostKernelFn, KernelCallFrame, KernelError},
    npy::HostArray,
    program::Executable,
    thunk::CustomCallRegistry,
};
use libfuzzer_sys::fuzz_target;

unsafe extern "C" fn nothing(_: *const KernelCallFrame) -> *const KernelError {
    std::ptr::null()
}

struct Stub;

impl KernelLibrary for Stub {
    fn kernel(&self, _: &str) -> Option<HostKernelFn> {
        Some(nothing)
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn with_header(payload: &[u8]) -> Vec<u8> {
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
/// has a loop: what decides whether the fuzzer executes it.
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

fuzz_target!(|data: &[u8]| {
    let bytes = if data.starts_with(&MAGIC) { data.to_vec() } else { with_header(data) };
    let Ok(artifact) = Artifact::from_bytes(&bytes, "fuzz.floors") else { return };
    let encoded = artifact.to_bytes().expect("encode what was decoded");
    assert_eq!(Artifact::from_bytes(&encoded, "again").expect("decode what was encoded"), artifact);
    let program = &artifact.program;
    let _ = (program.kernel_names(), program.custom_call_targets(), format!("{artifact:?}"));
    let registry = Arc::new(CustomCallRegistry::with_builtins());
    let Ok(exe) = Executable::new(program.clone(), Arc::new(Stub), registry, ExecutorOptions::default()) else { return };
    let _ = exe.to_string();
    // Run small loop-free programs (a big grid only calls the stub kernel
    // that many times): every thunk over its checked slices.
    let total: u64 = program.allocations.iter().map(|a| a.size).fold(0u64, u64::saturating_add);
    if work(&program.body).is_none_or(|n| n > 1 << 16) || total > 64 << 20 {
        return;
    }
    let inputs: Vec<(PathBuf, HostArray)> = exe
        .parameters()
        .iter()
        .map(|s| {
            let n = s.shape.iter().fold(1u64, |a, &d| a.saturating_mul(d)).saturating_mul(s.element_type.bytes() as u64);
            (
                PathBuf::from("zero.npy"),
                HostArray { element_type: s.element_type, shape: s.shape.clone(), bytes: vec![0; n.min(1 << 24) as usize] },
            )
        })
        .collect();
    let _ = exe.execute(&inputs, None);
});
