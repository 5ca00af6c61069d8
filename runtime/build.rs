//! The C++ shim every C FFI handler is called through (`cxx/ffi_guard.cc`):
//! an exception a handler lets escape becomes the call's error instead of
//! unwinding into Rust.

fn main() {
    println!("cargo:rerun-if-changed=cxx/ffi_guard.cc");
    cc::Build::new().cpp(true).file("cxx/ffi_guard.cc").flag_if_supported("-std=c++17").compile("floors_ffi_guard");
}
