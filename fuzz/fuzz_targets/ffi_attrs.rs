//! Custom-call attributes as an artifact carries them (postcard-encoded
//! `ffi::Attrs`) decoded from arbitrary bytes, then `floors_fuzz::ffi_attrs`.
#![no_main]

use floors_runtime::ffi::Attrs;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(attrs) = postcard::from_bytes::<Attrs>(data) {
        floors_fuzz::ffi_attrs(&attrs);
    }
});
