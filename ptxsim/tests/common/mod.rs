#![allow(dead_code)]
//! Runs a hand-written PTX kernel on buffers of bytes.

use floors_ptx_sim::{Checks, GlobalMemory, LaunchParams, LaunchStats, SimError};

pub struct Buf {
    pub bytes: Vec<u8>,
    /// Uploaded (initialized) or only allocated.
    pub init: bool,
}

pub fn input(bytes: Vec<u8>) -> Buf {
    Buf { bytes, init: true }
}

pub fn output(len: usize) -> Buf {
    Buf { bytes: vec![0; len], init: false }
}

pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn u32s(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect()
}

pub fn to_u32(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// Launches `entry` of `ptx` with one pointer parameter per buffer (then
/// `extra` 32-bit parameters); returns the buffers after the launch.
pub fn launch(
    ptx: &str,
    entry: &str,
    grid: [u32; 3],
    block: [u32; 3],
    bufs: &[Buf],
    extra: &[u32],
    checks: Checks,
) -> Result<(Vec<Vec<u8>>, LaunchStats), SimError> {
    let module = floors_ptx_sim::parse(ptx)?;
    let mut mem = GlobalMemory::new();
    let globals = mem.load_globals(&module, entry)?;
    let addrs: Vec<u64> =
        bufs.iter().enumerate().map(|(i, b)| mem.alloc(b.bytes.len() as u64, format!("buffer {i}"))).collect::<Result<_, _>>()?;
    for (b, &a) in bufs.iter().zip(&addrs) {
        if b.init {
            mem.write(a, &b.bytes)?;
        }
    }
    let mut params: Vec<u8> = addrs.iter().flat_map(|a| a.to_le_bytes()).collect();
    for &x in extra {
        params.extend_from_slice(&x.to_le_bytes());
    }
    let allowed: Vec<(u64, u64)> = bufs.iter().zip(&addrs).map(|(b, &a)| (a, b.bytes.len() as u64)).collect();
    let p = LaunchParams {
        kernel: entry,
        entry,
        grid,
        block,
        dynamic_shared: 0,
        params: &params,
        allowed: &allowed,
        globals: &globals,
        checks,
        max_shared: 227 * 1024,
    };
    let stats = floors_ptx_sim::launch(&module, &mem, &p)?;
    let out = bufs.iter().zip(&addrs).map(|(b, &a)| mem.read(a, b.bytes.len() as u64)).collect::<Result<Vec<_>, _>>()?;
    Ok((out, stats))
}
