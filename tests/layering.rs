//! The dependency rules of ARCHITECTURE.md that a text search can check:
//! - no floor in `lowering/` imports another floor, and the shared folders
//!   (`hlo/`, `linalg/`) import no floor;
//! - no pass file imports another pass file (shared helpers live in shared
//!   modules);
//! - nothing under `lowering/` probes the machine (environment variables,
//!   CPUID): passes read the target attribute;
//! - the runtime crate imports nothing of the compiler, MLIR or LLVM;
//! - `dialects/` knows nothing of `lowering/` or the runtime.

use std::path::{Path, PathBuf};

const FLOORS: [&str; 3] = ["cpu", "gpu", "tpu"];
const SHARED: [&str; 2] = ["hlo", "linalg"];

fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(files(&p, exts));
        } else if p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Code lines (comments dropped), with their line numbers.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

/// The folder of `lowering/` a file is in (`cpu`, `hlo`, ...).
fn folder_of(path: &Path) -> String {
    let rel = path.strip_prefix(repo().join("lowering")).unwrap();
    rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned()
}

/// Pass modules: `lowering/<folder>/<name>.rs` files that implement a pass.
fn pass_modules() -> Vec<(String, String)> {
    files(&repo().join("lowering"), &["rs"])
        .into_iter()
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("impl FloorsPass for"))
        .map(|p| (folder_of(&p), p.file_stem().unwrap().to_string_lossy().into_owned()))
        .collect()
}

#[test]
fn floors_do_not_import_each_other() {
    let mut bad = Vec::new();
    for path in files(&repo().join("lowering"), &["rs"]) {
        let own = folder_of(&path);
        for (n, line) in code_lines(&path) {
            for other in FLOORS {
                let imports = line.contains(&format!("lowering::{other}")) || line.contains(&format!("super::super::{other}"));
                let allowed = own == other;
                if imports && !allowed {
                    bad.push(format!("{}:{n}: lowering/{own} uses lowering/{other}: {}", path.display(), line.trim()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // The shared folders exist and are what every floor may use.
    for s in SHARED {
        assert!(repo().join("lowering").join(s).is_dir(), "lowering/{s} is missing");
    }
}

#[test]
fn pass_files_do_not_import_pass_files() {
    let passes = pass_modules();
    assert!(passes.len() > 8, "found only {passes:?}");
    let mut bad = Vec::new();
    for path in files(&repo().join("lowering"), &["rs"]) {
        let this = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.file_name().is_some_and(|f| f == "mod.rs") {
            continue; // registration
        }
        for (n, line) in code_lines(&path) {
            for (folder, pass) in &passes {
                let needle = format!("{folder}::{pass}");
                let own = *pass == this || path.components().any(|c| c.as_os_str() == pass.as_str());
                if !own && line.contains(&needle) {
                    bad.push(format!("{}:{n}: imports pass module {needle}: {}", path.display(), line.trim()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn lowering_does_not_probe_the_machine() {
    let mut bad = Vec::new();
    for path in files(&repo().join("lowering"), &["rs"]) {
        for (n, line) in code_lines(&path) {
            for needle in ["std::env::var", "env::var(", "is_x86_feature_detected", "cpuid", "__cpuid", "available_parallelism"] {
                if line.contains(needle) {
                    bad.push(format!("{}:{n}: {needle}", path.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn runtime_imports_nothing_of_the_compiler() {
    let mut bad = Vec::new();
    let runtime = repo().join("runtime");
    for path in files(&runtime.join("src"), &["rs"]).into_iter().chain(files(&runtime.join("tests"), &["rs"])) {
        for (n, line) in code_lines(&path) {
            for needle in ["floors::", "mlir_sys", "melior", "llvm_sys", "#[path"] {
                if line.contains(needle) {
                    bad.push(format!("{}:{n}: {needle}", path.display()));
                }
            }
        }
    }
    let manifest = std::fs::read_to_string(runtime.join("Cargo.toml")).unwrap();
    for dep in ["melior", "mlir-sys", "floors =", "floors = {", "bindgen", "tblgen", "cc ="] {
        if manifest.contains(dep) {
            bad.push(format!("runtime/Cargo.toml depends on {dep}"));
        }
    }
    assert!(!runtime.join("build.rs").exists(), "the runtime crate must have no build script");
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn dialects_know_nothing_of_lowering_or_runtime() {
    let mut bad = Vec::new();
    for path in files(&repo().join("dialects"), &["td", "cpp", "h"]) {
        for (n, line) in code_lines(&path) {
            for needle in ["lowering/", "runtime/", "floors_runtime", "Floors/Pass"] {
                if line.contains(needle) {
                    bad.push(format!("{}:{n}: {needle}", path.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
