//! The CLI contract: exit 0 on success, exit 1 with `file:line:col: error:`
//! on bad input, never a panic or an abort.

use std::process::Command;

fn floors() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floors"))
}

fn run_on(contents: &[u8], name: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("floors-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    let out = floors().arg("compile").arg(&path).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn malformed_inputs_are_located_errors() {
    let cases: &[(&str, &[u8], &str)] = &[
        ("syntax.mlir", b"module {\n  func.func @f(%a: f32) -> f32 {\n    %0 = arith.addf %a : f32\n", "syntax.mlir:3:23: error:"),
        ("unknown.mlir", b"module {\n  %0 = nosuch.op : f32\n}\n", "unknown.mlir:2:8: error:"),
        ("verify.mlir", b"func.func @f(%a: f32) -> f32 {\n  return\n}\n", "verify.mlir:2:3: error:"),
        ("nul.mlir", b"module {\0}", "nul.mlir:1:9: error: NUL byte"),
        ("utf8.mlir", b"module { \xff }", "utf8.mlir:1:10: error: input is not valid UTF-8"),
        ("empty_type.mlir", b"module {\n func.func @f(%a: tensor<-1xf32>) { return }\n}", "empty_type.mlir:2:"),
        ("truncated.mlir", b"module {\n func.func @f(", "truncated.mlir:2:"),
    ];
    for (name, text, expected) in cases {
        let (code, stderr) = run_on(text, name);
        assert_eq!(code, 1, "{name}: exit code {code}, stderr:\n{stderr}");
        assert!(stderr.contains(expected), "{name}: expected `{expected}` in:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{name} panicked:\n{stderr}");
    }
}

#[test]
fn missing_file_is_an_error() {
    let out = floors().args(["compile", "/nonexistent/prog.mlir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/prog.mlir: error:"), "{stderr}");
}

#[test]
fn dump_writes_only_input_and_matching_pass() {
    let dir = std::env::temp_dir().join(format!("floors-dump-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let input = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/helpers.mlir");
    let out = floors()
        .args(["compile", input, "--dump-pass-re", "inline", "-o"])
        .arg(dir.join("out.mlir"))
        .arg("--dump-to")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut files: Vec<String> = std::fs::read_dir(dir.join("jit_helpers"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["0000.input.mlir", "0001.floors-hlo-inline.mlir"]);
}

/// Every file in tests/inputs/broken is bad StableHLO (bad dims, wrong types,
/// unknown ops, bad attributes, broken regions): each must give a located
/// error and exit 1, never a crash. New files are picked up automatically.
#[test]
fn broken_programs_are_located_errors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/broken");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 8, "expected the broken-program set in {}", dir.display());
    let located = regex::Regex::new(r"\.mlir:\d+:\d+: error: ").unwrap();
    for path in files {
        let out = floors().arg("compile").arg(&path).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: status {:?}\n{stderr}", path.display(), out.status);
        assert!(located.is_match(&stderr), "{}: no located error in:\n{stderr}", path.display());
        assert!(!stderr.contains("panicked"), "{}: panicked\n{stderr}", path.display());
    }
}
