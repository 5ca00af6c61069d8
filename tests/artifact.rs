//! Compiled artifacts (`.floors`): every public corpus program compiled by
//! one process (`floors compile -o`) and run by another (`floors-run`, the
//! runtime crate's binary with no MLIR/LLVM) matches JAX; damaged, truncated
//! and future-version artifacts are clear errors; `floors-run` links no
//! libMLIR/libLLVM and the runtime crate depends on no MLIR/LLVM crate.

use crate::common;

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use floors::{
    CompileOptions, Compiler,
    npy::{self, ElementType, HostArray},
    run::Program,
    runtime::{Artifact, artifact::FORMAT_VERSION},
};

fn floors_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_floors"))
}

/// `floors-run` beside `floors` in the same target directory (cargo builds
/// every workspace binary before running tests).
fn floors_run_bin() -> PathBuf {
    let p = floors_bin().with_file_name("floors-run");
    assert!(p.exists(), "{} is missing: build the workspace (cargo test --workspace)", p.display());
    p
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floors-artifact-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn close(got: &HostArray, want: &HostArray, tol: f64) -> Result<(), String> {
    if got.element_type != want.element_type || got.shape != want.shape {
        return Err(format!("got {} expected {}", got.describe(), want.describe()));
    }
    if got.element_type != ElementType::F32 {
        return (got.bytes == want.bytes).then_some(()).ok_or_else(|| "bytes differ".into());
    }
    let f = |b: &[u8]| b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect::<Vec<_>>();
    for (i, (p, q)) in f(&got.bytes).iter().zip(f(&want.bytes)).enumerate() {
        if !((p.is_nan() && q.is_nan()) || *p == q || ((p - q).abs() as f64) <= tol + tol * q.abs() as f64) {
            return Err(format!("element {i}: got {p}, expected {q}"));
        }
    }
    Ok(())
}

fn corpus(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().trim_end_matches(".stablehlo.mlir").to_string(), p))
        .collect();
    v.sort();
    v
}

fn inputs(dir: &Path, name: &str) -> Vec<PathBuf> {
    (0..).map(|i| dir.join(format!("{name}.in{i}.npy"))).take_while(|p| p.exists()).collect()
}

/// Two processes per program: the compiler writes the artifact, the runtime
/// binary runs it (with 1 and 2 threads).
#[test]
fn corpus_compiled_by_one_process_runs_in_another() {
    let dir = common::corpus_dir().join("public");
    let work = scratch("corpus");
    let mut failures = Vec::new();
    for (name, path) in corpus(&dir) {
        let artifact = work.join(format!("{name}.floors"));
        let out = Command::new(floors_bin()).arg("compile").arg(&path).arg("-o").arg(&artifact).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        for threads in ["1", "2"] {
            let outdir = work.join(format!("{name}-{threads}"));
            let mut cmd = Command::new(floors_run_bin());
            cmd.arg(&artifact).arg("--output-dir").arg(&outdir).args(["--threads", threads]);
            for i in inputs(&dir, &name) {
                cmd.arg("--input").arg(i);
            }
            let out = cmd.output().unwrap();
            assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
            for k in 0.. {
                let want = dir.join(format!("{name}.out{k}.npy"));
                if !want.exists() {
                    break;
                }
                let got = npy::read(&outdir.join(format!("out{k}.npy"))).unwrap();
                let tol =
                    if ["softmax", "gelu_erf", "unary_math", "elementwise_chain", "mlp"].contains(&name.as_str()) { 1e-4 } else { 1e-5 };
                if let Err(e) = close(&got, &npy::read(&want).unwrap(), tol) {
                    failures.push(format!("{name} out{k} ({threads} threads): {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// `floors run X.floors` runs an artifact as `floors-run` does.
#[test]
fn floors_run_accepts_artifacts() {
    let dir = common::corpus_dir().join("public");
    let work = scratch("cli");
    let artifact = work.join("bias_add.floors");
    let ok =
        Command::new(floors_bin()).args(["compile"]).arg(dir.join("bias_add.stablehlo.mlir")).arg("-o").arg(&artifact).status().unwrap();
    assert!(ok.success());
    let mut cmd = Command::new(floors_bin());
    cmd.arg("run").arg(&artifact).arg("--output-dir").arg(work.join("out"));
    for i in inputs(&dir, "bias_add") {
        cmd.arg("--input").arg(i);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = npy::read(&work.join("out/out0.npy")).unwrap();
    close(&got, &npy::read(&dir.join("bias_add.out0.npy")).unwrap(), 0.0).unwrap();
}

fn good_artifact_bytes() -> Vec<u8> {
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let text = std::fs::read_to_string(common::corpus_dir().join("public/bias_add.stablehlo.mlir")).unwrap();
    let program = Program::compile(&compiler, "bias_add.mlir", &text).unwrap();
    program.artifact().to_bytes().unwrap()
}

/// Runs `floors-run` on `bytes`; its exit code and stderr.
fn run_bytes(work: &Path, name: &str, bytes: &[u8]) -> (i32, String) {
    let path = work.join(name);
    std::fs::write(&path, bytes).unwrap();
    let dir = common::corpus_dir().join("public");
    let mut cmd = Command::new(floors_run_bin());
    cmd.arg(&path).arg("--output-dir").arg(work.join("out"));
    for i in inputs(&dir, "bias_add") {
        cmd.arg("--input").arg(i);
    }
    let out = cmd.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn damaged_artifacts_are_clear_errors() {
    let work = scratch("damaged");
    let good = good_artifact_bytes();
    assert_eq!(run_bytes(&work, "good.floors", &good).0, 0);

    let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
    let mut magic = good.clone();
    magic[0] = b'X';
    cases.push(("magic.floors", magic, "not a floors artifact"));
    let mut newer = good.clone();
    newer[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    cases.push(("newer.floors", newer, "is newer than this runtime"));
    let mut older = good.clone();
    older[8..12].copy_from_slice(&(FORMAT_VERSION - 1).to_le_bytes());
    cases.push(("older.floors", older, "recompile"));
    cases.push(("header.floors", good[..20].to_vec(), "truncated"));
    cases.push(("truncated.floors", good[..good.len() / 2].to_vec(), "truncated"));
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 0x55;
    cases.push(("flipped.floors", flipped, "checksum"));
    let mut trailing = good.clone();
    trailing.extend_from_slice(b"junk");
    cases.push(("trailing.floors", trailing, "after the payload"));
    cases.push(("empty.floors", Vec::new(), "not a floors artifact"));
    for (name, bytes, needle) in cases {
        let (code, err) = run_bytes(&work, name, &bytes);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains(name) && err.contains(needle), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

/// An artifact whose header and checksum are right but whose kernel code is
/// not a loadable shared object, or whose program does not fit its kernel
/// table or allocations: errors naming the artifact, never a crash.
#[test]
fn inconsistent_artifacts_are_refused_when_loaded() {
    let work = scratch("inconsistent");
    let good = Artifact::from_bytes(&good_artifact_bytes(), "good").unwrap();

    let mut garbage = good.clone();
    garbage.code =
        floors::runtime::KernelCode::CpuSharedObject(b"\x7fELF not really an ELF file at all, padded to sixty-four bytes...".to_vec());
    let (code, err) = run_bytes(&work, "garbage_code.floors", &garbage.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("garbage_code.floors") && err.contains("cannot load the kernels"), "{err}");

    let mut not_elf = good.clone();
    not_elf.code = floors::runtime::KernelCode::CpuSharedObject(vec![0; 100]);
    let (code, err) = run_bytes(&work, "not_elf.floors", &not_elf.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not an ELF shared object"), "{err}");

    let mut table = good.clone();
    table.kernels.clear();
    let (code, err) = run_bytes(&work, "no_table.floors", &table.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not in the kernel table"), "{err}");

    let mut slices = good.clone();
    for a in &mut slices.program.allocations {
        a.size = 1;
    }
    let (code, err) = run_bytes(&work, "bad_slices.floors", &slices.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("invalid program"), "{err}");

    let mut arch = good.clone();
    if let floors::runtime::Target::Cpu { triple, .. } = &mut arch.target {
        *triple = "sparc64-unknown-linux-gnu".into();
    }
    let (code, err) = run_bytes(&work, "arch.floors", &arch.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("compiled for sparc64"), "{err}");

    // Kernel code for another floor than the target says.
    let mut mixed = good.clone();
    mixed.target = floors::runtime::Target::Tpu { generation: "v5e".into() };
    let (code, err) = run_bytes(&work, "mixed.floors", &mixed.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("kernel code CpuSharedObject") && err.contains("Tpu"), "{err}");
    let mut chip = good.clone();
    chip.target = floors::runtime::Target::Tpu { generation: "v9z".into() };
    chip.code = floors::runtime::KernelCode::TpuKernels(vec![]);
    let (code, err) = run_bytes(&work, "chip.floors", &chip.to_bytes().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unknown TPU generation `v9z`"), "{err}");
}

/// The runtime stays free of the compiler: no MLIR/LLVM crate in its
/// dependency tree, and no libMLIR/libLLVM in `floors-run`'s dynamic section.
#[test]
fn runtime_links_no_mlir_or_llvm() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", "floors-runtime", "--edges", "normal,build", "--prefix", "none", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.contains("floors-runtime"), "{tree}");
    for forbidden in ["mlir-sys", "melior", "llvm-sys", "tblgen", "bindgen", "floors v"] {
        assert!(!tree.contains(forbidden), "floors-runtime depends on {forbidden}:\n{tree}");
    }
    let out = Command::new("ldd").arg(floors_run_bin()).output().unwrap();
    let libs = String::from_utf8_lossy(&out.stdout);
    assert!(libs.contains("libc.so"), "{libs}");
    assert!(!libs.contains("libMLIR") && !libs.contains("libLLVM"), "{libs}");
    // The GPU runtime loads the CUDA driver and cuBLAS at run time (dlopen).
    assert!(!libs.contains("libcuda") && !libs.contains("libcublas"), "{libs}");
}

/// A program saved by the Rust API and loaded again runs the same.
#[test]
fn save_and_load_round_trip() {
    let work = scratch("api");
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let dir = common::corpus_dir().join("public");
    let text = std::fs::read_to_string(dir.join("softmax.stablehlo.mlir")).unwrap();
    let program = Program::compile(&compiler, "softmax.mlir", &text).unwrap();
    let path = work.join("softmax.floors");
    program.save(&path).unwrap();
    let loaded = Program::load(&path).unwrap();
    assert_eq!(loaded.artifact(), program.artifact());
    let ins: Vec<(PathBuf, HostArray)> = inputs(&dir, "softmax").into_iter().map(|p| (p.clone(), npy::read(&p).unwrap())).collect();
    assert_eq!(loaded.executable().execute(&ins, None).unwrap(), program.executable().execute(&ins, None).unwrap());
}

/// Count of `zmm` register operands in an object's disassembly (objdump from
/// binutils, which the linker needs anyway).
fn zmm_count(object: &[u8], work: &Path, name: &str) -> usize {
    let path = work.join(name);
    std::fs::write(&path, object).unwrap();
    let out = Command::new("objdump").arg("-d").arg(&path).output().expect("objdump (binutils) is installed with the linker");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).matches("zmm").count()
}

/// The target is data: on any host, `x86-64-v3` code has no AVX-512
/// register and `x86-64-v4` matmul code uses them; each runs the corpus
/// correctly wherever the machine has the features (the loader refuses
/// code this machine cannot run, with a clear error).
#[test]
fn cross_compiled_targets() {
    use floors::{Stage, target::CpuTarget};
    let work = scratch("cross");
    let matmul = std::fs::read_to_string(common::corpus_dir().join("bench/matmul.stablehlo.mlir")).unwrap();
    for (cpu, wants_zmm) in [("x86-64-v3", false), ("x86-64-v4", true)] {
        let target = CpuTarget::resolve(cpu).unwrap();
        let compiler =
            Compiler::new(CompileOptions { target: floors::floor::Target::Cpu(Some(target.clone())), ..CompileOptions::default() })
                .unwrap();
        let obj = compiler.compile_output("matmul.mlir", &matmul, Stage::Obj).unwrap();
        let zmm = zmm_count(&obj, &work, &format!("matmul-{cpu}.o"));
        assert_eq!(zmm > 0, wants_zmm, "{cpu}: {zmm} zmm operands");

        let dir = common::corpus_dir().join("public");
        let host_can_run = !wants_zmm || std::arch::is_x86_feature_detected!("avx512f");
        for (name, path) in corpus(&dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            let compiled = Program::compile(&compiler, &name, &text);
            let program = match (compiled, host_can_run) {
                (Ok(p), true) => p,
                (Err(e), false) => {
                    assert!(e.to_string().contains("lacks"), "{cpu} {name}: {e}");
                    continue;
                }
                (Ok(_), false) => panic!("{cpu} {name}: loaded code this machine cannot run"),
                (Err(e), true) => panic!("{cpu} {name}: {e}"),
            };
            let ins: Vec<(PathBuf, HostArray)> = inputs(&dir, &name).into_iter().map(|p| (p.clone(), npy::read(&p).unwrap())).collect();
            let outs = program.executable().execute(&ins, None).unwrap();
            for (k, got) in outs.iter().enumerate() {
                let want = npy::read(&dir.join(format!("{name}.out{k}.npy"))).unwrap();
                close(got, &want, 1e-4).unwrap_or_else(|e| panic!("{cpu} {name} out{k}: {e}"));
            }
        }
    }
}
