//! The Rust definitions of XLA's FFI C ABI (`floors_runtime::ffi::c_api`)
//! against the `c_api.h` jaxlib 0.10.2 ships: a small C program compiled
//! against that header prints `sizeof`, `_Alignof`, `offsetof` of every
//! field, every `*_STRUCT_SIZE` and every enum value; all must equal the
//! Rust side. Every struct the header defines must be on the Rust side.
//!
//! Needs the test venv (`FLOORS_PYTHON`, else `<repo>/.venv-test/bin/python`,
//! made by `scripts/pyenv.sh`) for `jax.ffi.include_dir()`: without one the
//! test is skipped, except under CI (`CI` set), where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use floors_runtime::ffi::c_api;

fn python() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("FLOORS_PYTHON").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv-test/bin/python")),
    ];
    candidates.into_iter().flatten().find(|p| p.exists())
}

/// jaxlib's FFI include dir, or None (skip) outside CI.
fn ffi_include_dir() -> Option<PathBuf> {
    let Some(py) = python() else {
        assert!(std::env::var_os("CI").is_none(), "CI: no test venv (FLOORS_PYTHON or .venv-test); run scripts/pyenv.sh");
        eprintln!("skipped: no test venv (set FLOORS_PYTHON or run scripts/pyenv.sh)");
        return None;
    };
    let out = Command::new(&py).args(["-c", "import jax.ffi; print(jax.ffi.include_dir())"]).output().expect("run python");
    assert!(out.status.success(), "jax.ffi.include_dir(): {}", String::from_utf8_lossy(&out.stderr));
    let dir = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    assert!(dir.join("xla/ffi/api/c_api.h").exists(), "no c_api.h under {}", dir.display());
    Some(dir)
}

fn c_compiler() -> String {
    let clang = "/usr/lib/llvm-22/bin/clang";
    if Path::new(clang).exists() { clang.into() } else { "cc".into() }
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let d = std::env::temp_dir().join(format!("floors-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// C's name of a Rust field (`type` is a Rust keyword).
fn c_field(f: &str) -> &str {
    if f == "type_" { "type" } else { f }
}

#[test]
fn rust_layout_matches_c_api_h() {
    let Some(include) = ffi_include_dir() else { return };
    let layouts = c_api::layouts();
    let enums = c_api::enum_values();
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include \"xla/ffi/api/c_api.h\"\nint main(void) {\n");
    for l in &layouts {
        c += &format!("  printf(\"S {0} %zu %zu\\n\", sizeof({0}), _Alignof({0}));\n", l.name);
        for (f, _) in &l.fields {
            c += &format!("  printf(\"F {0}.{1} %zu\\n\", offsetof({0}, {2}));\n", l.name, f, c_field(f));
        }
        if l.declared_size.is_some() {
            c += &format!("  printf(\"D {0} %zu\\n\", (size_t){0}_STRUCT_SIZE);\n", l.name);
        }
    }
    for (name, _) in &enums {
        c += &format!("  printf(\"E {name} %lld\\n\", (long long)({name}));\n");
    }
    c += "  return 0;\n}\n";
    let dir = temp_dir("ffi-layout");
    std::fs::write(dir.join("layout.c"), &c).unwrap();
    let exe = dir.join("layout");
    let out = Command::new(c_compiler())
        .arg("-std=c11")
        .arg("-I")
        .arg(&include)
        .arg(dir.join("layout.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the C compiler");
    assert!(out.status.success(), "compiling the layout program failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();

    let mut expected = String::new();
    for l in &layouts {
        expected += &format!("S {} {} {}\n", l.name, l.size, l.align);
        for (f, off) in &l.fields {
            expected += &format!("F {}.{} {}\n", l.name, f, off);
        }
        if let Some(d) = l.declared_size {
            expected += &format!("D {} {}\n", l.name, d);
        }
    }
    for (name, v) in &enums {
        expected += &format!("E {name} {v}\n");
    }
    for (c_line, rust_line) in printed.lines().zip(expected.lines()) {
        assert_eq!(c_line, rust_line, "C (left) and Rust (right) disagree");
    }
    assert_eq!(printed.lines().count(), expected.lines().count());

    // Every struct with a body in the header is covered.
    let header = std::fs::read_to_string(include.join("xla/ffi/api/c_api.h")).unwrap();
    let re_struct = |line: &str| -> Option<String> {
        let l = line.trim_start();
        let rest = l.strip_prefix("typedef struct ").or_else(|| l.strip_prefix("struct "))?;
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        rest[name.len()..].trim_start().starts_with('{').then_some(name)
    };
    let defined: Vec<String> = header.lines().filter_map(re_struct).collect();
    assert!(defined.len() > 25, "found only {defined:?}");
    for name in &defined {
        assert!(layouts.iter().any(|l| l.name == name), "c_api.h defines {name}, the Rust side lacks it");
    }
    // And the two version macros.
    assert!(header.contains(&format!("#define XLA_FFI_API_MAJOR {}", c_api::XLA_FFI_API_MAJOR)));
    assert!(header.contains(&format!("#define XLA_FFI_API_MINOR {}", c_api::XLA_FFI_API_MINOR)));
    std::fs::remove_dir_all(dir).ok();
}
