//! The build script every crate under `lowering/` shares: its unit-test
//! binaries load libMLIR.so at run time, and the rpath floors-ir's build
//! script sets reaches only floors-ir's own targets, so the LLVM library
//! directory floors-ir found (its `links` metadata) is recorded here again.

fn main() {
    let libdir = std::env::var("DEP_FLOORS_MLIR_LLVM_LIBDIR").expect("floors-ir's build script sets llvm_libdir");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
}
