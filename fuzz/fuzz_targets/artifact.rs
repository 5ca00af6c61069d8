//! The artifact loader on arbitrary bytes: see `floors_fuzz::artifact`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| floors_fuzz::artifact(data));
