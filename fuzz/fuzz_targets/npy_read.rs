//! `floors_runtime::npy::read` on arbitrary bytes (written to a file first):
//! see `floors_fuzz::npy_read`.
#![no_main]

use std::{path::PathBuf, sync::OnceLock};

use libfuzzer_sys::fuzz_target;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("floors-fuzz-npy-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    })
}

fuzz_target!(|data: &[u8]| floors_fuzz::npy_read(dir(), data));
