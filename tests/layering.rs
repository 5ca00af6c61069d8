//! The dependency rules of ARCHITECTURE.md.
//!
//! Cargo enforces the layers between crates; [`crate_graph_follows_the_layers`]
//! reads `cargo metadata` and fails on any edge the layers forbid (floors
//! never depend on each other, the shared lowering on no floor, the toolkit
//! and the runtime on no compiler crate). Inside a crate, a text check:
//! - no pass file imports another pass file (shared helpers live in shared
//!   modules): every `use` tree and inline `crate::`/`super::`/`self::`/
//!   `floors_*::` path is resolved to the module it names;
//! - no pass probes the machine (environment variables, CPUID): passes read
//!   the target attribute;
//! - the runtime crate imports nothing of the compiler, MLIR or LLVM;
//! - `dialects/` knows nothing of `lowering/` or the runtime.

use std::path::{Path, PathBuf};

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

/// The workspace crates a crate may depend on (any kind of dependency);
/// None: any. The floors are `floors-cpu`, `floors-gpu`, `floors-tpu`.
fn allowed(krate: &str) -> Option<&'static [&'static str]> {
    const FLOOR: &[&str] = &["floors-ir", "floors-hlo", "floors-linalg", "floors-host", "floors-runtime"];
    Some(match krate {
        // The simulated GPU: below the runtime, nothing of the compiler.
        "floors-ptx-sim" => &[],
        "floors-runtime" => &["floors-ptx-sim"],
        "floors-ir" => &["floors-runtime"],
        "floors-hlo" => &["floors-ir"],
        "floors-linalg" => &["floors-ir", "floors-hlo"],
        "floors-host" => &["floors-ir", "floors-runtime"],
        "floors-cpu" | "floors-gpu" | "floors-tpu" => FLOOR,
        _ => return None,
    })
}

/// The forbidden edges among `edges` (from, to) between workspace crates.
fn forbidden_edges(edges: &[(String, String)]) -> Vec<String> {
    edges
        .iter()
        .filter(|(from, to)| allowed(from).is_some_and(|ok| !ok.contains(&to.as_str())))
        .map(|(from, to)| format!("{from} depends on {to}"))
        .collect()
}

/// The dependency edges between the workspace's crates, from `cargo metadata`.
fn workspace_edges() -> Vec<(String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline", "--manifest-path"])
        .arg(repo().join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let names: Vec<&str> = packages.iter().map(|p| p["name"].as_str().unwrap()).collect();
    let mut edges = Vec::new();
    for p in packages {
        for d in p["dependencies"].as_array().unwrap() {
            let to = d["name"].as_str().unwrap();
            if names.contains(&to) {
                edges.push((p["name"].as_str().unwrap().to_string(), to.to_string()));
            }
        }
    }
    edges
}

#[test]
fn crate_graph_follows_the_layers() {
    let edges = workspace_edges();
    // The graph is the one the layers describe: every floor is a crate.
    for krate in ["floors-ir", "floors-hlo", "floors-linalg", "floors-host", "floors-cpu", "floors-gpu", "floors-tpu"] {
        assert!(edges.iter().any(|(from, _)| from == krate), "{krate} is not a workspace crate with dependencies: {edges:?}");
    }
    let bad = forbidden_edges(&edges);
    assert!(bad.is_empty(), "{bad:#?}");
}

/// The check above fails on each kind of forbidden edge.
#[test]
fn crate_graph_check_sees_forbidden_edges() {
    let edge = |a: &str, b: &str| (a.to_string(), b.to_string());
    let cases = [
        edge("floors-cpu", "floors-gpu"),
        edge("floors-tpu", "floors-cpu"),
        edge("floors-linalg", "floors-cpu"),
        edge("floors-hlo", "floors-linalg"),
        edge("floors-ir", "floors-hlo"),
        edge("floors-runtime", "floors-ir"),
        edge("floors-host", "floors-gpu"),
        edge("floors-gpu", "floors"),
    ];
    for case in &cases {
        assert_eq!(forbidden_edges(std::slice::from_ref(case)).len(), 1, "{case:?} not caught");
    }
    let fine = [edge("floors-gpu", "floors-linalg"), edge("floors", "floors-tpu"), edge("floors-pjrt", "floors")];
    assert!(forbidden_edges(&fine).is_empty());
}

/// The crate a file under `lowering/` belongs to (`floors_cpu`, ...).
fn crate_of(rel: &Path) -> String {
    let folder = rel.components().nth(1).map(|c| c.as_os_str().to_string_lossy().into_owned()).unwrap_or_default();
    format!("floors_{folder}")
}

/// The module path of a file under `lowering/` (`lowering/gpu/gemm.rs` →
/// `[floors_gpu, gemm]`; `lib.rs` is the crate root, a `mod.rs` its folder).
fn module_of(rel: &Path) -> Vec<String> {
    let mut m = vec![crate_of(rel)];
    let comps: Vec<String> = rel.components().skip(2).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    for (i, c) in comps.iter().enumerate() {
        let stem = c.trim_end_matches(".rs");
        if i + 1 == comps.len() && (stem == "lib" || stem == "mod") {
            continue;
        }
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
        if word_start && ["crate", "super", "self", "floors_"].iter().any(|r| tree.trim_start().starts_with(r)) {
            let mut paths = Vec::new();
            expand(&tree.split_whitespace().collect::<Vec<_>>().join(" "), "", &mut paths);
            out.extend(paths.into_iter().map(|p| (line_of(at), p.replace(' ', ""))));
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::", "floors_"] {
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
/// path that starts with its crate (`crate::x` in floors_gpu → `[floors_gpu, x]`).
fn resolve(here: &[String], path: &str) -> Vec<String> {
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let mut m: Vec<String> = match parts.next() {
        Some("crate") => here[..1].to_vec(),
        Some(krate) if krate.starts_with("floors_") => vec![krate.to_string()],
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
/// `passes`: the pass modules' paths (`[floors_gpu, gpu_emit_gemm]`).
fn pass_imports(files: &[(PathBuf, String)], passes: &[Vec<String>]) -> Vec<String> {
    let mut bad = Vec::new();
    for (rel, source) in files {
        if rel.file_name().is_some_and(|f| f == "lib.rs") {
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
        case("lowering/gpu/d.rs", "use crate::gpu_emit_kernels as k;"),
        case("lowering/tpu/e.rs", "use super::{blocks::{self, Plan}, tpu_select_blocks::{body_of, the_matmul}};"),
        case("lowering/cpu/f.rs", "use floors_tpu::tpu_select_blocks;"),
        case("lowering/cpu/h.rs", "fn f() { floors_gpu::gpu_emit_kernels::classify(x) }"),
        // Not imports of a pass: a helper module, the pass itself, comments.
        case("lowering/gpu/g.rs", "use super::{builder::Builder, launch::create_for}; // super::gpu_emit_kernels::x"),
        case("lowering/gpu/gpu_emit_kernels.rs", "use self::inner::x; fn f() { self::g() }"),
    ];
    let bad = pass_imports(&files, &passes);
    for name in ["a.rs", "b.rs", "c.rs", "d.rs", "e.rs", "f.rs", "h.rs"] {
        assert!(bad.iter().any(|b| b.contains(name)), "{name} not caught: {bad:#?}");
    }
    assert!(!bad.iter().any(|b| b.contains("g.rs") || b.contains("gpu_emit_kernels.rs:")), "{bad:#?}");
}

/// The files under `lowering/` that are not passes: the modules that run
/// after the pipeline (code generation, serialization into artifacts; they
/// may ask the machine how many threads to generate code on) and the
/// crates' shared build script.
const NOT_PASSES: [&str; 6] = ["cpu/codegen.rs", "gpu/artifact.rs", "tpu/import.rs", "tpu/handoff.rs", "host/lib.rs", "lowering/rpath.rs"];

#[test]
fn passes_do_not_probe_the_machine() {
    let mut bad = Vec::new();
    for path in files(&repo().join("lowering"), &["rs"]) {
        if NOT_PASSES.iter().any(|s| path.ends_with(s)) {
            continue;
        }
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
    for dep in ["melior", "mlir-sys", "floors =", "floors = {", "bindgen", "tblgen"] {
        if manifest.contains(dep) {
            bad.push(format!("runtime/Cargo.toml depends on {dep}"));
        }
    }
    // Its one build step compiles the C++ shim that calls FFI handlers
    // behind a `catch` (`runtime/cxx/`, with `cc`, a build dependency only):
    // no MLIR, no LLVM, no generated bindings.
    let (dependencies, build_dependencies) = manifest.split_once("[build-dependencies]").unwrap_or((&manifest, ""));
    if dependencies.contains("cc =")
        || build_dependencies.lines().any(|l| l.contains('=') && !l.trim_start().starts_with('#') && !l.starts_with("cc ="))
    {
        bad.push("runtime/Cargo.toml: `cc` may only be a build dependency, and the only one".into());
    }
    if let Ok(script) = std::fs::read_to_string(runtime.join("build.rs")) {
        for needle in ["mlir", "llvm", "bindgen", "tblgen", "cmake"] {
            if script.to_lowercase().contains(needle) {
                bad.push(format!("runtime/build.rs mentions {needle}"));
            }
        }
        for line in script.lines().filter(|l| l.contains(".file(")) {
            if !line.contains("\"cxx/") {
                bad.push(format!("runtime/build.rs compiles something outside runtime/cxx: {}", line.trim()));
            }
        }
    }
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

/// Every module is in the crate whose folder holds it: no `#[path]`.
#[test]
fn no_module_is_borrowed_by_path() {
    let mut bad = Vec::new();
    for dir in ["src", "ir", "lowering", "runtime", "pjrt", "plugin", "tests", "fuzz"] {
        for path in files(&repo().join(dir), &["rs"]) {
            for (n, line) in code_lines(&path) {
                if line.trim_start().starts_with("#[path") {
                    bad.push(format!("{}:{n}", path.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
