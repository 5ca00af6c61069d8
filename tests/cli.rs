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
    let mut files: Vec<String> =
        std::fs::read_dir(dir.join("jit_helpers")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    files.sort();
    assert_eq!(files, ["0000.input.mlir", "0001.floors-hlo-inline.mlir", "0009.floors-hlo-inline.mlir"]);
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

mod run {
    use super::floors;

    fn corpus(p: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public").join(p)
    }

    #[test]
    fn runs_and_writes_outputs() {
        let out_dir = std::env::temp_dir().join(format!("floors-run-{}", std::process::id()));
        let out = floors()
            .arg("run")
            .arg(corpus("relu.stablehlo.mlir"))
            .arg("--input")
            .arg(corpus("relu.in0.npy"))
            .arg("--output-dir")
            .arg(&out_dir)
            .args(["--threads", "2"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let got = floors::npy::read(&out_dir.join("out0.npy")).unwrap();
        let expected = floors::npy::read(&corpus("relu.out0.npy")).unwrap();
        assert_eq!(got, expected);
    }

    fn run_err(args: &[std::ffi::OsString]) -> String {
        let out = floors().arg("run").args(args).args(["--output-dir", "/tmp/floors-run-err"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        stderr
    }

    #[test]
    fn bad_inputs_are_clear_errors() {
        let prog = corpus("bias_add.stablehlo.mlir").into_os_string();
        let a = corpus("bias_add.in0.npy").into_os_string();
        let b = corpus("bias_add.in1.npy").into_os_string();
        let i = || "--input".into();
        // Wrong count.
        let e = run_err(&[prog.clone(), i(), a.clone()]);
        assert!(
            e.contains("bias_add.stablehlo.mlir: error: the program takes 2 inputs (tensor<8x16xf32>, tensor<16xf32>), 1 were given"),
            "{e}"
        );
        // Wrong shape (arguments swapped).
        let e = run_err(&[prog.clone(), i(), b.clone(), i(), a.clone()]);
        assert!(e.contains("input 0") && e.contains("expected tensor<8x16xf32>"), "{e}");
        // Wrong dtype.
        let ints = corpus("argmax.out0.npy").into_os_string(); // i32[8]
        let e = run_err(&[prog.clone(), i(), a.clone(), i(), ints]);
        assert!(e.contains("input 1") && e.contains("<i4"), "{e}");
        // Missing file.
        let e = run_err(&[prog.clone(), i(), a.clone(), i(), "/nonexistent/x.npy".into()]);
        assert!(e.contains("/nonexistent/x.npy: error:"), "{e}");
        // Not an npy file.
        let e = run_err(&[prog, i(), a, i(), corpus("bias_add.stablehlo.mlir").into_os_string()]);
        assert!(e.contains("not a .npy file"), "{e}");
    }

    #[test]
    fn unsupported_op_is_a_located_error() {
        let dir = std::env::temp_dir().join(format!("floors-run-unsup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let prog = dir.join("cc.mlir");
        std::fs::write(
            &prog,
            "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.custom_call @mystery(%arg0) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
        )
        .unwrap();
        let e = run_err(&[prog.into_os_string()]);
        assert!(e.contains("cc.mlir:2:8: error:") && e.contains("custom_call target 'mystery'"), "{e}");
        // An op the CPU floor cannot lower: located too.
        let prog = dir.join("f8.mlir");
        std::fs::write(
            &prog,
            "func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n  %0 = stablehlo.convert %arg0 : (tensor<2xf32>) -> tensor<2xf8E4M3FN>\n  %1 = stablehlo.convert %0 : (tensor<2xf8E4M3FN>) -> tensor<2xf32>\n  return %1 : tensor<2xf32>\n}\n",
        )
        .unwrap();
        let e = run_err(&[prog.into_os_string()]);
        assert!(e.contains("f8.mlir:2:") && e.contains("error:") && e.contains("f8E4M3FN"), "{e}");
    }
}

/// What JAX 0.10.2 prints with Shardy annotations: over a one-device mesh the
/// program compiles (the shardings dropped); a two-device mesh in a module
/// lowered for one device is a located error naming the mesh; a malformed sharding is a located parse error.
#[test]
fn sharded_programs_of_one_device_compile_and_others_are_refused() {
    let one = include_str!("inputs/one_device_sharding.mlir");
    let (code, stderr) = run_on(one.as_bytes(), "one_device.mlir");
    assert_eq!(code, 0, "{stderr}");
    let two = one.replace("\"x\"=1", "\"x\"=2");
    let (code, stderr) = run_on(two.as_bytes(), "two_devices.mlir");
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("two_devices.mlir:2:3: error:")
            && stderr.contains("'sdy.mesh' <[\"x\"=2]>: a program sharded over several devices must be lowered for them"),
        "{stderr}"
    );
    let bad = one.replace("[{\"x\"}]>}", "[{\"x\"}]}");
    let (code, stderr) = run_on(bad.as_bytes(), "bad_sharding.mlir");
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("bad_sharding.mlir:3:") && !stderr.contains("panicked"), "{stderr}");
}

/// A `shard_map` program JAX lowered for 4 devices (ring `ppermute` and
/// `psum` of column sums) runs whole from the CLI: `floors run` with the
/// global inputs splits them by the program's tiling, runs the 4 devices in
/// this process and assembles the results; the artifact does the same under
/// `floors-run`. Values as JAX computes them on 4 XLA:CPU devices.
#[test]
fn a_program_for_four_devices_runs_whole_from_the_cli() {
    use floors_runtime::npy::{ElementType, HostArray};
    let dir = std::env::temp_dir().join(format!("floors-spmd-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let f32s = |shape: &[u64], v: Vec<f32>| HostArray {
        element_type: ElementType::F32,
        shape: shape.to_vec(),
        bytes: floors_runtime::AlignedBuffer::copy_from(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()),
    };
    let a: Vec<f32> = (0..32).map(|i| i as f32).collect();
    floors_runtime::npy::write(&dir.join("a.npy"), &f32s(&[8, 4], a.clone())).unwrap();
    floors_runtime::npy::write(&dir.join("b.npy"), &f32s(&[8, 4], vec![1.0; 32])).unwrap();
    let program = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/inputs/shard_map_ring.mlir");
    // c = 2a + 1; out0 = column sums of c over all rows; out1 = c with each
    // device's 2-row block moved to the next device (ring).
    let c: Vec<f32> = a.iter().map(|x| 2.0 * x + 1.0).collect();
    let sums: Vec<f32> = (0..4).map(|j| (0..8).map(|i| c[i * 4 + j]).sum()).collect();
    let ring: Vec<f32> = (0..32).map(|k| c[(k + 32 - 8) % 32]).collect();
    let check = |out: &std::path::Path| {
        let o0 = floors_runtime::npy::read(&out.join("out0.npy")).unwrap();
        let o1 = floors_runtime::npy::read(&out.join("out1.npy")).unwrap();
        assert_eq!(o0, f32s(&[1, 4], sums.clone()));
        assert_eq!(o1, f32s(&[8, 4], ring.clone()));
    };
    let out = floors()
        .arg("run")
        .arg(program)
        .arg("--input")
        .arg(dir.join("a.npy"))
        .arg("--input")
        .arg(dir.join("b.npy"))
        .arg("--output-dir")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    check(&dir.join("out"));
    let artifact = dir.join("ring.floors");
    let out = floors().arg("compile").arg(program).arg("-o").arg(&artifact).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = std::process::Command::new(std::path::PathBuf::from(env!("CARGO_BIN_EXE_floors")).with_file_name("floors-run"))
        .arg(&artifact)
        .arg("--input")
        .arg(dir.join("a.npy"))
        .arg("--input")
        .arg(dir.join("b.npy"))
        .arg("--output-dir")
        .arg(dir.join("out2"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    check(&dir.join("out2"));
    let _ = std::fs::remove_dir_all(&dir);
}
