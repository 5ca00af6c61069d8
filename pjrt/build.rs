// rpath does not propagate from the floors crate; re-emit it so the plugin,
// dlopened by JAX, resolves libMLIR.so without LD_LIBRARY_PATH.
fn main() {
    let libdir = std::env::var("DEP_FLOORS_MLIR_LLVM_LIBDIR").unwrap_or_else(|_| "/usr/lib/llvm-22/lib".into());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
}
