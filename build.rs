//! Build script of the `floors` driver crate: its binaries and tests load
//! libMLIR.so and libLLVM.so at run time, and an rpath set by a dependency's
//! build script (floors-ir's, which builds the C++ side) reaches only that
//! dependency's own targets; so the LLVM library directory floors-ir found is
//! recorded again here.

fn main() {
    let libdir = std::env::var("DEP_FLOORS_MLIR_LLVM_LIBDIR").expect("floors-ir's build script sets llvm_libdir");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
}
