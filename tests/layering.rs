//! The dependency rules of ARCHITECTURE.md that a text search can check:
//! - no floor in `lowering/` imports another floor, and the shared folders
//!   (`hlo/`, `linalg/`) import no floor;
//! - no pass file imports another pass file (shared helpers live in shared
//!   modules): every `use` tree and inline `crate::`/`super::`/`self::` path
//!   is resolved to the module it names;
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
#[test]
fn floors_do_not_import_each_other() {
    let mut bad = Vec::new();
    for path in files(&repo().join("lowering"), &["rs"]) {
        let own = folder_of(&path);
        let rel = path.strip_prefix(repo()).unwrap();
        let here = module_of(rel);
        for (n, written) in named_paths(&std::fs::read_to_string(&path).unwrap()) {
            let target = resolve(&here, &written);
            if let [first, floor, ..] = target.as_slice()
                && first == "lowering"
                && FLOORS.contains(&floor.as_str())
                && *floor != own
            {
                bad.push(format!("{}:{n}: lowering/{own} uses lowering/{floor}: {written}", path.display()));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
    // The shared folders exist and are what every floor may use.
    for s in SHARED {
        assert!(repo().join("lowering").join(s).is_dir(), "lowering/{s} is missing");
    }
}

/// The module path of a file under `lowering/` (`lowering/gpu/gemm.rs` →
/// `[lowering, gpu, gemm]`; a `mod.rs` is its folder).
fn module_of(rel: &Path) -> Vec<String> {
    let mut m: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = m.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" {
        m.push(stem.to_string());
    }
    m
}

/// Every path a Rust source names from `crate::`, `super::` or `self::`:
/// `use` trees expanded (`use super::{a::{b, c}, d};` → `super::a::b`,
/// `super::a::c`, `super::d`) and inline paths (`super::x::f(..)`).
fn named_paths(source: &str) -> Vec<(usize, String)> {
    fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head = tree[..open].trim().trim_end_matches("::");
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let base = if head.is_empty() { prefix.to_string() } else { format!("{prefix}{head}::") };
            // Split `inner` at top-level commas.
            let (mut depth, mut start) = (0, 0);
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&inner[start..i], &base, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&inner[start..], &base, out);
        } else if !tree.is_empty() {
            let item = tree.split(" as ").next().unwrap_or(tree).trim();
            out.push(if item == "self" { prefix.trim_end_matches("::").to_string() } else { format!("{prefix}{item}") });
        }
    }
    // Comments out, lines kept.
    let code: String = source.lines().map(|l| format!("{}\n", l.split("//").next().unwrap_or(""))).collect();
    let line_of = |pos: usize| code[..pos].matches('\n').count() + 1;
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(i) = code[rest..].find("use ") {
        let at = rest + i;
        rest = at + 4;
        let word_start = at == 0 || !code.as_bytes()[at - 1].is_ascii_alphanumeric() && code.as_bytes()[at - 1] != b'_';
        let Some(end) = code[at..].find(';') else { break };
        let tree = &code[at + 4..at + end];
        if word_start && ["crate", "super", "self"].iter().any(|r| tree.trim_start().starts_with(r)) {
            let mut paths = Vec::new();
            expand(&tree.split_whitespace().collect::<Vec<_>>().join(" "), "", &mut paths);
            out.extend(paths.into_iter().map(|p| (line_of(at), p.replace(' ', ""))));
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let end = code[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| at + e);
            out.push((line_of(at), code[at..end].trim_end_matches(':').to_string()));
        }
    }
    out
}

/// Resolves `path` (as written in the module `here`) to an absolute module
/// path from the crate root (`lowering` is at the crate root).
fn resolve(here: &[String], path: &str) -> Vec<String> {
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let mut m: Vec<String> = match parts.next() {
        Some("crate") => Vec::new(),
        Some("self") => here.to_vec(),
        Some("super") => here[..here.len().saturating_sub(1)].to_vec(),
        _ => return Vec::new(),
    };
    for p in parts {
        if p == "super" {
            m.pop();
        } else {
            m.push(p.to_string());
        }
    }
    m
}

/// Each place a file under `lowering/` names a pass module other than the
/// one it is part of. `files`: (path relative to the repository, source);
/// `passes`: the pass modules' paths (`[lowering, gpu, gpu_emit_gemm]`).
fn pass_imports(files: &[(PathBuf, String)], passes: &[Vec<String>]) -> Vec<String> {
    let mut bad = Vec::new();
    for (rel, source) in files {
        if rel.file_name().is_some_and(|f| f == "mod.rs") {
            continue; // registration
        }
        let here = module_of(rel);
        for (line, path) in named_paths(source) {
            let target = resolve(&here, &path);
            for pass in passes {
                let reaches = target.len() >= pass.len() && target[..pass.len()] == pass[..];
                let inside = here.len() >= pass.len() && here[..pass.len()] == pass[..];
                if reaches && !inside {
                    bad.push(format!("{}:{line}: imports pass module {}: {path}", rel.display(), pass.join("::")));
                }
            }
        }
    }
    bad
}

#[test]
fn pass_files_do_not_import_pass_files() {
    let lowering = repo().join("lowering");
    let files: Vec<(PathBuf, String)> = files(&lowering, &["rs"])
        .into_iter()
        .map(|p| (p.strip_prefix(repo()).unwrap().to_path_buf(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    let passes: Vec<Vec<String>> = files.iter().filter(|(_, s)| s.contains("impl FloorsPass for")).map(|(rel, _)| module_of(rel)).collect();
    assert!(passes.len() > 8, "found only {passes:?}");
    let bad = pass_imports(&files, &passes);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The check above catches every spelling of an import of a pass module.
#[test]
fn pass_import_check_sees_every_spelling() {
    let passes = vec![module_of(Path::new("lowering/gpu/gpu_emit_kernels.rs")), module_of(Path::new("lowering/tpu/tpu_select_blocks.rs"))];
    let case = |name: &str, source: &str| (PathBuf::from(name), source.to_string());
    let files = vec![
        case("lowering/gpu/a.rs", "use super::gpu_emit_kernels::finish_launch;"),
        case("lowering/gpu/b.rs", "use super::{\n    builder::Builder,\n    gpu_emit_kernels::{Class, classify},\n};"),
        case("lowering/gpu/c.rs", "fn f() { super::gpu_emit_kernels::finish_launch(x) }"),
        case("lowering/gpu/d.rs", "use crate::lowering::gpu::gpu_emit_kernels as k;"),
        case("lowering/tpu/e.rs", "use super::{blocks::{self, Plan}, tpu_select_blocks::{body_of, the_matmul}};"),
        case("lowering/cpu/f.rs", "use super::super::tpu::tpu_select_blocks;"),
        // Not imports of a pass: a helper module, the pass itself, comments.
        case("lowering/gpu/g.rs", "use super::{builder::Builder, launch::create_for}; // super::gpu_emit_kernels::x"),
        case("lowering/gpu/gpu_emit_kernels.rs", "use self::inner::x; fn f() { self::g() }"),
    ];
    let bad = pass_imports(&files, &passes);
    for name in ["a.rs", "b.rs", "c.rs", "d.rs", "e.rs", "f.rs"] {
        assert!(bad.iter().any(|b| b.contains(name)), "{name} not caught: {bad:#?}");
    }
    assert!(!bad.iter().any(|b| b.contains("g.rs") || b.contains("gpu_emit_kernels.rs:")), "{bad:#?}");
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
