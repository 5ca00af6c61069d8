//! Build script: MLIR link shim, ODS → C++ for every dialect, the C++ side of
//! the project (dialects + pass-registry/instrumentation shims), and bindgen
//! over the project's own C headers so Rust and C never drift.

use std::{env, fs, path::PathBuf, process::Command};

const LLVM_PREFIX_DEFAULT: &str = "/usr/lib/llvm-22";

/// The generators run over each dialect's entry `.td`; names are fixed so the
/// C++ can include `"<dialect>/<Camel><Suffix>.inc"`.
const GENERATORS: &[(&str, &str, bool)] = &[
    // (suffix, generator flag, needs -dialect=/-attrdefs-dialect=/-typedefs-dialect=)
    ("Dialect.h.inc", "-gen-dialect-decls", true),
    ("Dialect.cpp.inc", "-gen-dialect-defs", true),
    ("Ops.h.inc", "-gen-op-decls", false),
    ("Ops.cpp.inc", "-gen-op-defs", false),
    ("Attrs.h.inc", "-gen-attrdef-decls", true),
    ("Attrs.cpp.inc", "-gen-attrdef-defs", true),
    ("Enums.h.inc", "-gen-enum-decls", false),
    ("Enums.cpp.inc", "-gen-enum-defs", false),
    ("Types.h.inc", "-gen-typedef-decls", true),
    ("Types.cpp.inc", "-gen-typedef-defs", true),
];

/// The dialects built into floors, by folder under `dialects/`. A folder is
/// listed here once its ODS and C++ build, so work in progress cannot break
/// the crate.
const DIALECTS: &[&str] = &["floors", "stablehlo", "chlo", "sdy", "tpu"];

fn camel(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    if !out.status.success() {
        panic!("command failed: {cmd:?}\n{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    }
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let prefix = PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| LLVM_PREFIX_DEFAULT.to_string()));
    let libdir = prefix.join("lib");
    let incdir = prefix.join("include");
    let tblgen = prefix.join("bin").join("mlir-tblgen");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    // 1. libMLIR-C: Debian ships only static C-API archives. A linker script
    //    lets every artifact pull just the C-API objects it uses while the C++
    //    core stays in the one shared libMLIR.so.
    let mut capi: Vec<PathBuf> = fs::read_dir(&libdir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (is libmlir-22-dev installed?)", libdir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("libMLIRCAPI") && n.ends_with(".a")
        })
        .collect();
    capi.sort();
    assert!(!capi.is_empty(), "no libMLIRCAPI*.a in {}", libdir.display());
    let llvm_so = ["/usr/lib/x86_64-linux-gnu/libLLVM.so", &format!("{}/libLLVM.so", libdir.display())]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .expect("libLLVM.so not found");
    let script = format!(
        "GROUP ( {} {} {} )\n",
        capi.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "),
        libdir.join("libMLIR.so").display(),
        llvm_so.display()
    );
    fs::write(out_dir.join("libMLIR-C.so"), script).unwrap();
    println!("cargo:rustc-link-search=native={}", out_dir.display());
    println!("cargo:rustc-link-search=native={}", libdir.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", libdir.display());
    println!("cargo::metadata=llvm_libdir={}", libdir.display());

    // 2. ODS → C++ for each dialect folder that has an entry `<Camel>Ops.td`.
    // The dialects sit at the top of the repository, shared with the CMake build.
    let dialects_dir = manifest.join("..").join("dialects");
    println!("cargo:rerun-if-changed={}", dialects_dir.display());
    let gen_root = out_dir.join("gen");
    let dialects: Vec<(String, PathBuf)> = DIALECTS.iter().map(|d| (d.to_string(), dialects_dir.join(d))).collect();
    for d in ["floors", "stablehlo", "chlo", "sdy", "mosaic", "tpu"] {
        println!("cargo::rustc-check-cfg=cfg(floors_dialect_{d})");
    }
    for (name, _) in &dialects {
        println!("cargo::rustc-cfg=floors_dialect_{name}");
    }
    let mut cpp_files: Vec<PathBuf> = Vec::new();
    let mut capi_headers: Vec<PathBuf> = Vec::new();
    for (name, dir) in &dialects {
        let cname = camel(name);
        let gen_dir = gen_root.join(name);
        fs::create_dir_all(&gen_dir).unwrap();
        for entry in fs::read_dir(dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())) {
            println!("cargo:rerun-if-changed={}", entry.display());
        }
        let td = dir.join(format!("{cname}Ops.td"));
        for (suffix, generator, needs_dialect) in GENERATORS {
            let mut cmd = Command::new(&tblgen);
            cmd.arg(generator)
                .arg(format!("-I{}", incdir.display()))
                .arg(format!("-I{}", dialects_dir.display()))
                .arg(format!("-I{}", dir.display()));
            if *needs_dialect {
                let flag = match *generator {
                    "-gen-dialect-decls" | "-gen-dialect-defs" => "-dialect",
                    "-gen-attrdef-decls" | "-gen-attrdef-defs" => "-attrdefs-dialect",
                    _ => "-typedefs-dialect",
                };
                cmd.arg(format!("{flag}={name}"));
            }
            cmd.arg(&td).arg("-o").arg(gen_dir.join(format!("{cname}{suffix}")));
            run(&mut cmd);
        }
        let mut files: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cpp"))
            .collect();
        files.sort();
        cpp_files.extend(files);
        let header = dir.join(format!("{cname}CAPI.h"));
        if header.exists() {
            capi_headers.push(header);
        }
    }

    // 3. The project's C++: dialects + the shims in cxx/.
    let cxx_dir = manifest.join("cxx");
    println!("cargo:rerun-if-changed={}", cxx_dir.display());
    for entry in fs::read_dir(&cxx_dir).unwrap().filter_map(|e| e.ok().map(|e| e.path())) {
        println!("cargo:rerun-if-changed={}", entry.display());
        if entry.extension().is_some_and(|x| x == "cpp") {
            cpp_files.push(entry.clone());
        }
        if entry.extension().is_some_and(|x| x == "h") {
            capi_headers.push(entry);
        }
    }
    // MLIR gives trait TypeIDs by type *name* (from __PRETTY_FUNCTION__), and
    // gcc spells names differently from the clang that built libMLIR.so: with
    // g++, mlir-opt would not see our terminators as terminators. So the C++
    // is compiled by the clang of the same LLVM.
    let clang = prefix.join("bin").join("clang++");
    let mut build = cc::Build::new();
    if clang.exists() && env::var_os("CXX").is_none() {
        build.compiler(&clang);
    }
    build
        .cpp(true)
        .std("c++17")
        .include(&incdir)
        .include(&dialects_dir)
        .include(&gen_root)
        .include(&cxx_dir)
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .flag("-Wno-unused-parameter")
        .define("_GNU_SOURCE", None)
        .warnings(false)
        .files(&cpp_files);
    build.compile("floors_cxx");

    // 4. bindgen over the project's C headers; MLIR's own C types come from mlir-sys.
    let mut umbrella = String::new();
    for h in &capi_headers {
        umbrella.push_str(&format!("#include \"{}\"\n", h.display()));
    }
    let bindings = bindgen::Builder::default()
        .header_contents("floors_capi_umbrella.h", &umbrella)
        .clang_arg(format!("-I{}", incdir.display()))
        .clang_arg(format!("-I{}", dialects_dir.display()))
        .clang_arg(format!("-I{}", cxx_dir.display()))
        .allowlist_function("floors.*|mlirGetDialectHandle__.*")
        .allowlist_type("Floors.*")
        .allowlist_var("FLOORS_.*")
        .blocklist_type("Mlir.*")
        .raw_line("#[allow(unused_imports)] use mlir_sys::*;")
        .layout_tests(false)
        .generate()
        .expect("bindgen failed on the floors C headers");
    bindings.write_to_file(out_dir.join("floors_capi.rs")).unwrap();
}
