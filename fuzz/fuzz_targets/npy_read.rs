//! `floors_runtime::npy::read` on arbitrary bytes (it reads a path: the input
//! is written to a file first). Whatever it accepts must be a consistent
//! array that fits its own spec and survives a write + read round trip;
//! whatever it refuses must be an error, never a panic, an abort or a huge
//! allocation (libFuzzer's -malloc_limit_mb catches those).
#![no_main]

use std::{path::PathBuf, sync::OnceLock};

use floors_runtime::npy::{self, TensorSpec};
use libfuzzer_sys::fuzz_target;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("floors-fuzz-npy-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    })
}

fuzz_target!(|data: &[u8]| {
    let path = dir().join("in.npy");
    std::fs::write(&path, data).expect("write the input");
    let Ok(a) = npy::read(&path) else { return };
    let elements: u128 = a.shape.iter().map(|&d| u128::from(d)).product();
    assert_eq!(a.bytes.len() as u128, elements * a.element_type.bytes() as u128, "{}: data length", a.describe());
    let spec = TensorSpec { element_type: a.element_type, shape: a.shape.clone() };
    spec.check(0, &path, &a).expect("an array fits its own spec");
    let _ = (spec.describe(), a.describe());
    let out = dir().join("out.npy");
    npy::write(&out, &a).expect("write what was read");
    let b = npy::read(&out).expect("read what was written");
    assert_eq!(a, b, "write + read changed the array");
});
