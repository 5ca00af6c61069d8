//! The GPU runtime without (and, where there is one, with) a GPU: GPU
//! artifacts round-trip through the `.floors` format, loading one without a
//! CUDA driver fails with the clear error (in the library and in
//! `floors-run`), a malformed one fails before any driver is looked for,
//! and the gemm/memset thunks run on the host. With a driver, the
//! self-tests run and match their expected outputs; every GPU test skips
//! with `no CUDA driver found` where there is none.

use std::sync::Arc;

use floors_runtime::gpu::{NO_DRIVER, driver_present, selftest};
use floors_runtime::{Artifact, CustomCallRegistry, ExecutorOptions, KernelCode};

fn registry() -> Arc<CustomCallRegistry> {
    Arc::new(CustomCallRegistry::new())
}

#[test]
fn gpu_artifacts_round_trip() {
    let dir = tempdir();
    for t in selftest::self_tests() {
        let bytes = t.artifact.to_bytes().unwrap();
        let back = Artifact::from_bytes(&bytes, t.name).unwrap();
        assert_eq!(back, t.artifact, "{}", t.name);
        let path = dir.join(format!("{}.floors", t.name));
        t.artifact.write(&path).unwrap();
        assert_eq!(Artifact::read(&path).unwrap(), t.artifact);
        let KernelCode::Ptx(modules) = &back.code else { panic!("{}: not PTX", t.name) };
        for m in modules {
            assert!(m.ptx.contains(".target sm_80"), "{}", m.kernel);
        }
    }
    // A header of the previous version is refused as older.
    let v = floors_runtime::artifact::FORMAT_VERSION;
    let mut old = selftest::self_tests().remove(0).artifact.to_bytes().unwrap();
    old[8..12].copy_from_slice(&(v - 1).to_le_bytes());
    let e = Artifact::from_bytes(&old, "old.floors").unwrap_err().to_string();
    assert!(e.contains(&format!("format version {} is older than this runtime's ({v})", v - 1)), "{e}");
}

#[test]
fn loading_without_a_driver_is_the_clear_error() {
    for t in selftest::self_tests() {
        let r = t.artifact.instantiate(t.name, registry(), ExecutorOptions::default());
        if driver_present() {
            let exe = r.unwrap_or_else(|e| panic!("{}: {e}", t.name));
            let inputs: Vec<_> = t.inputs.iter().enumerate().map(|(k, a)| (format!("in{k}").into(), a.clone())).collect();
            for streams in [1, 4] {
                let exe = if streams == 4 {
                    &exe
                } else {
                    &t.artifact.instantiate(t.name, registry(), ExecutorOptions { gpu_streams: 1, ..Default::default() }).unwrap()
                };
                let outs = exe.execute(&inputs, None).unwrap_or_else(|e| panic!("{}: {e}", t.name));
                assert_eq!(outs, t.expected, "{} on {streams} stream(s)", t.name);
            }
            continue;
        }
        let e = r.err().expect("no executable without a driver").to_string();
        assert!(e.starts_with(&format!("error: {NO_DRIVER} (")), "{}: {e}", t.name);
        eprintln!("skipped running {}: {NO_DRIVER}", t.name);
    }
}

#[test]
fn floors_run_says_no_driver() {
    let dir = tempdir();
    let names = selftest::write_self_tests(&dir).unwrap();
    assert_eq!(names, ["gpu_add", "gpu_gemm", "gpu_streams", "gpu_loop"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_floors-run"))
        .arg(dir.join("gpu_add.floors"))
        .args(["--input", dir.join("gpu_add.in0.npy").to_str().unwrap(), "--input", dir.join("gpu_add.in1.npy").to_str().unwrap()])
        .args(["--output-dir", dir.join("out").to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if driver_present() {
        assert!(out.status.success(), "{stderr}");
        let got = floors_runtime::npy::read(&dir.join("out/out0.npy")).unwrap();
        assert_eq!(got, floors_runtime::npy::read(&dir.join("gpu_add.out0.npy")).unwrap());
        return;
    }
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.starts_with(&format!("error: {NO_DRIVER}")), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_floors-run")).arg("--gpu-info").output().unwrap();
    assert_eq!(info.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&info.stderr).contains(NO_DRIVER));
    eprintln!("skipped running on a GPU: {NO_DRIVER}");
}

#[test]
fn a_malformed_gpu_artifact_fails_before_the_driver_is_looked_for() {
    let mut a = selftest::self_tests().remove(0).artifact;
    let KernelCode::Ptx(modules) = &mut a.code else { panic!("the self-test artifact holds PTX") };
    modules[0].launches[0].function = "missing_entry".into();
    let e = a.instantiate("bad.floors", registry(), ExecutorOptions::default()).err().unwrap().to_string();
    assert_eq!(e, "bad.floors: error: invalid program: PTX module of kernel `fusion_add`: no `.entry missing_entry` in the PTX");
    let KernelCode::Ptx(modules) = &mut a.code else { panic!("the self-test artifact holds PTX") };
    modules.clear();
    let e = a.instantiate("bad.floors", registry(), ExecutorOptions::default()).err().unwrap().to_string();
    assert!(e.contains("kernel `fusion_add` has 0 PTX modules"), "{e}");
    // PTX for a CPU target is a mismatch, named as such.
    let mut cpu = selftest::self_tests().remove(0).artifact;
    cpu.target = floors_runtime::Target::Cpu {
        triple: "x86_64-pc-linux-gnu".into(),
        cpu: "x86-64".into(),
        features: String::new(),
        vector_bits: 128,
        required_features: vec![],
    };
    let e = cpu.instantiate("cpu.floors", registry(), ExecutorOptions::default()).err().unwrap().to_string();
    assert!(e.contains("kernel code Ptx(fusion_add) for the target Cpu"), "{e}");
}

/// The gemm self-test has no kernels: its host program runs on the CPU
/// executor (the reference gemm thunk) and gives the expected outputs; so
/// do memsets and copies.
#[test]
fn gemm_and_memset_thunks_run_on_the_host() {
    struct NoKernels;
    impl floors_runtime::KernelLibrary for NoKernels {
        fn kernel(&self, _: &str) -> Option<floors_runtime::HostKernelFn> {
            None
        }
    }
    let t = selftest::self_tests().into_iter().find(|t| t.name == "gpu_gemm").unwrap();
    let exe =
        floors_runtime::Executable::new(t.artifact.program.clone(), Arc::new(NoKernels), registry(), ExecutorOptions::default()).unwrap();
    let inputs: Vec<_> = t.inputs.iter().map(|a| ("in".into(), a.clone())).collect();
    assert_eq!(exe.execute(&inputs, None).unwrap(), t.expected);
    assert!(exe.to_string().contains("gemm Bf16 1x4x4x8 lhsT"), "{exe}");
    // Timing on the host: whole executions.
    assert_eq!(exe.bench(&inputs, None, 1, 3).unwrap().len(), 3);
    // Memset and copy, from the streams self-test with its kernels dropped.
    let mut s = selftest::self_tests().into_iter().find(|t| t.name == "gpu_streams").unwrap();
    s.artifact.program.body.drain(..3);
    let exe =
        floors_runtime::Executable::new(s.artifact.program.clone(), Arc::new(NoKernels), registry(), ExecutorOptions::default()).unwrap();
    let inputs: Vec<_> = s.inputs.iter().map(|a| ("in".into(), a.clone())).collect();
    let outs = exe.execute(&inputs, None).unwrap();
    assert_eq!(outs[1..], s.expected[1..]);
}

fn tempdir() -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("floors-gpu-runtime-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
