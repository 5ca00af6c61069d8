//! A short, fixed-seed mutation sweep of the CLI over the corpus (the sweep
//! of `scripts/fuzz.sh`, `fuzz/sweep/`): a few hundred mutated programs
//! through `floors compile --emit llvm` (some also `--emit fused`, `floors
//! run` with their inputs, mutated inputs, mutated artifacts through
//! `floors-run`). No run may crash (signal, panic, abort, exit code other
//! than 0/1/2) or time out. Unlocated errors are printed (and kept under
//! the target dir's tmp) but do not fail the test.
//!
//! `FLOORS_FUZZ_COUNT`, `FLOORS_FUZZ_SEED` and `FLOORS_FUZZ_TIMEOUT` (seconds)
//! override the defaults.
//!
//! The cases the sweeps found are regression inputs here: the programs in
//! `tests/inputs/fuzz/`, a run with the wrong number of inputs and an
//! artifact whose program does not fit its allocations; none may crash.
//!
//! The checks of the libFuzzer targets (`fuzz/src/lib.rs`: npy reader,
//! artifact loader, FFI attributes) run here too, without libFuzzer, on
//! seeds from the corpus and seeded mutations of them
//! (`scripts/fuzz_targets.sh` runs them coverage-guided).

use floors_fuzz as fuzz_checks;
use floors_sweep as sweep;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn fixed_seed_sweep_has_no_crash_or_timeout() {
    let floors = Path::new(env!("CARGO_BIN_EXE_floors")).to_path_buf();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_sweep");
    let _ = std::fs::remove_dir_all(&out);
    let mut cfg = sweep::Config::new(floors, &corpus, out.clone()).expect("corpus");
    cfg.seed = env_num("FLOORS_FUZZ_SEED", 14);
    cfg.count = env_num("FLOORS_FUZZ_COUNT", 300) as usize;
    cfg.timeout = Duration::from_secs(env_num("FLOORS_FUZZ_TIMEOUT", 20));
    cfg.jobs = 2;
    let report = sweep::run(&cfg).expect("sweep");
    println!("fixed-seed sweep (seed {}, {} mutants):\n{}", cfg.seed, cfg.count, report.table());
    let findings = report.findings();
    if !findings.is_empty() {
        println!("findings (kept under {}):\n{findings}", out.display());
    }
    let (crashes, timeouts) = (report.count(sweep::Class::Crash), report.count(sweep::Class::Timeout));
    assert!(
        crashes == 0 && timeouts == 0,
        "{crashes} crashes and {timeouts} timeouts in the fixed-seed sweep; cases under {}:\n{findings}",
        out.display()
    );
    assert!(
        report.count(sweep::Class::Ok) > 0 && report.count(sweep::Class::Located) > 0,
        "a sweep that never succeeds or never fails tests nothing"
    );
}

fn floors_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_floors"))
}

/// Runs `argv` as the sweep does (timeout, memory limit) and classifies it;
/// `paths` are the files an error may name instead of a `file:line:col`.
fn classify_run(name: &str, argv: &[String], paths: &[String]) -> (sweep::Class, String, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_regressions");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let (exit, stderr, _) = sweep::run_limited(argv, Duration::from_secs(60), 8192, &dir.join(format!("{name}.stderr")));
    let (class, signature) = sweep::classify(exit, &stderr, paths);
    (class, signature, stderr)
}

#[test]
fn sweep_findings_do_not_crash() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_regressions");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("tmp dir");
    let floors = floors_bin().display().to_string();
    let mut cases: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    // Programs: compile to LLVM.
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/fuzz");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&inputs).expect("tests/inputs/fuzz").map(|e| e.expect("entry").path()).collect();
    files.sort();
    for f in files {
        let p = f.display().to_string();
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        cases.push((
            name,
            vec![floors.clone(), "compile".into(), p.clone(), "--emit".into(), "llvm".into(), "-o".into(), "/dev/null".into()],
            vec![p],
        ));
    }
    // A run with too few and too many inputs.
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public");
    let relu = public.join("relu.stablehlo.mlir").display().to_string();
    let input = public.join("relu.in0.npy").display().to_string();
    let out = tmp.join("out").display().to_string();
    let run = |inputs: &[&str]| {
        let mut argv = vec![floors.clone(), "run".into(), relu.clone()];
        for i in inputs {
            argv.extend(["--input".to_string(), i.to_string()]);
        }
        argv.extend(["--output-dir".to_string(), out.clone()]);
        argv
    };
    cases.push(("run without inputs".into(), run(&[]), vec![relu.clone(), input.clone()]));
    cases.push(("run with two inputs".into(), run(&[&input, &input]), vec![relu.clone(), input.clone()]));
    // An artifact whose result slice is larger than its allocation (checksum right).
    let compiled = tmp.join("relu.floors");
    let status = std::process::Command::new(&floors).args(["compile", &relu, "-o"]).arg(&compiled).status().expect("floors compile");
    assert!(status.success(), "floors compile {relu} -o relu.floors");
    let mut artifact = floors_runtime::Artifact::read(&compiled).expect("artifact");
    if let Some((_, slice)) = artifact.program.results.first_mut() {
        slice.size += 1;
    }
    let bad = tmp.join("bad_result_slice.floors");
    artifact.write(&bad).expect("write artifact");
    // One whose parameter's size does not fit in 64 bits (found by the
    // artifact fuzz target: `TensorSpec::bytes` overflowed).
    let mut artifact = floors_runtime::Artifact::read(&compiled).expect("artifact");
    if let Some((spec, _)) = artifact.program.params.first_mut() {
        spec.shape = vec![1 << 32, 1 << 32];
    }
    let huge = tmp.join("huge_parameter.floors");
    artifact.write(&huge).expect("write artifact");
    let floors_run = floors_bin().with_file_name("floors-run");
    if floors_run.exists() {
        for (what, file) in [("a result slice past its allocation", &bad), ("a parameter of 2^64 elements", &huge)] {
            let file = file.display().to_string();
            cases.push((
                format!("artifact with {what}"),
                vec![floors_run.display().to_string(), file.clone(), "--input".into(), input.clone(), "--output-dir".into(), out.clone()],
                vec![file, input.clone()],
            ));
        }
    }
    let mut crashes = Vec::new();
    for (name, argv, paths) in &cases {
        let (class, signature, stderr) = classify_run(&name.replace(' ', "_"), argv, paths);
        println!("{name}: {} {signature}", class.name());
        match class {
            sweep::Class::Crash | sweep::Class::Timeout | sweep::Class::LongRun => crashes.push(format!("{name}: {signature}\n{stderr}")),
            sweep::Class::Unlocated => println!("  unlocated (should name its file or location):\n{stderr}"),
            _ => {}
        }
    }
    assert!(crashes.is_empty(), "{} regression inputs crash:\n{}", crashes.len(), crashes.join("\n"));
}

/// Seeded byte-level mutations: flips, interesting values, inserted and
/// deleted runs, truncation, splices of another seed.
fn mutate_bytes(rng: &mut sweep::Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(7) {
            0 if at < b.len() => b[at] ^= 1 << rng.below(8),
            1 if at < b.len() => b[at] = *rng.pick(&[0u8, 1, 0x7f, 0x80, 0xff, b'(', b'\'', b',', b'<', b'>']),
            2 => {
                let v = *rng.pick(&[0u64, 1, u64::from(u32::MAX), u64::MAX, 1 << 40, 0x7fff_ffff_ffff_ffff]);
                let end = (at + 8).min(b.len());
                b.splice(at..end, v.to_le_bytes()[..end - at].iter().copied());
            }
            3 => {
                let n = rng.below(16);
                b.splice(at..at, (0..n).map(|_| rng.next_u64() as u8));
            }
            4 => {
                let end = (at + 1 + rng.below(16)).min(b.len());
                b.drain(at..end);
            }
            5 => b.truncate(at),
            _ => {
                let from = rng.below(other.len() + 1);
                let n = rng.below(32).min(other.len() - from);
                b.splice(at..at, other[from..from + n].iter().copied());
            }
        }
    }
    b
}

fn random_attrs(rng: &mut sweep::Rng, depth: usize) -> Option<floors_runtime::ffi::Attrs> {
    use floors_runtime::ffi::{Attr, Attrs, DataType};
    const TYPES: [DataType; 13] = [
        DataType::Pred,
        DataType::S8,
        DataType::S16,
        DataType::S32,
        DataType::S64,
        DataType::U8,
        DataType::U16,
        DataType::U32,
        DataType::U64,
        DataType::F16,
        DataType::Bf16,
        DataType::F32,
        DataType::F64,
    ];
    let mut entries = Vec::new();
    for _ in 0..rng.below(5) {
        let name = rng.pick(&["eps", "dims", "b", "", "name", "nested", "x\u{e9}", "z"]).to_string();
        let dtype = *rng.pick(&TYPES);
        let a = match rng.below(4) {
            0 => Attr::Scalar { dtype, bits: if rng.chance(1, 2) { rng.next_u64() } else { rng.below(3) as u64 } },
            1 => {
                let n = rng.below(12);
                Attr::Array {
                    dtype,
                    bytes: (0..n).map(|_| if rng.chance(1, 2) { rng.below(2) as u8 } else { rng.next_u64() as u8 }).collect(),
                }
            }
            2 => Attr::String((0..rng.below(8)).map(|_| *rng.pick(&['a', 'Z', '\0', '\u{1F600}', '"'])).collect()),
            _ if depth < 3 => Attr::Dict(random_attrs(rng, depth + 1).unwrap_or_default()),
            _ => Attr::String(String::new()),
        };
        entries.push((name, a));
    }
    Attrs::new(entries).ok()
}

/// Runs `check` on `input`; a failing check's input is kept under `dir`.
fn replay(dir: &Path, target: &str, k: usize, input: &[u8], check: impl FnOnce(&[u8])) -> Option<String> {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(input)));
    r.err().map(|e| {
        let file = dir.join(format!("{target}-failure-{k}"));
        let _ = std::fs::write(&file, input);
        let msg = e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
        format!("{target} #{k}: {msg} (input: {}; replay it with target/fuzz/.../{target} FILE)", file.display())
    })
}

#[test]
fn fuzz_target_checks_on_seeds_and_mutations() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_checks");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("tmp dir");
    let per_target = env_num("FLOORS_FUZZ_CHECKS", 1500) as usize;
    let mut rng = sweep::Rng::new(env_num("FLOORS_FUZZ_SEED", 14));
    let public = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public");
    let mut failures = Vec::new();

    // npy: every corpus .npy, then mutations of them.
    let mut npys: Vec<PathBuf> = std::fs::read_dir(&public)
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "npy"))
        .collect();
    npys.sort();
    let npys: Vec<Vec<u8>> = npys.iter().map(|p| std::fs::read(p).expect("read npy")).collect();
    let mut inputs: Vec<Vec<u8>> = npys.clone();
    for _ in 0..per_target {
        let (a, b) = (rng.pick(&npys), rng.pick(&npys));
        inputs.push(mutate_bytes(&mut rng, a, b));
    }
    for (k, input) in inputs.iter().enumerate() {
        failures.extend(replay(&tmp, "npy_read", k, input, |d| fuzz_checks::npy_read(&tmp, d)));
    }

    // Artifacts of a few programs (whole files and payloads with the kernel
    // code cut short), then mutations, mostly of payloads.
    let mut seeds = Vec::new();
    for name in ["relu", "mlp", "fori_loop", "gather_rows", "dynamic_slice_update", "int_ops"] {
        let file = tmp.join(format!("{name}.floors"));
        let status = std::process::Command::new(floors_bin())
            .arg("compile")
            .arg(public.join(format!("{name}.stablehlo.mlir")))
            .arg("-o")
            .arg(&file)
            .status()
            .expect("floors compile");
        assert!(status.success(), "floors compile {name} -o");
        let bytes = std::fs::read(&file).expect("read artifact");
        let mut a = floors_runtime::Artifact::from_bytes(&bytes, name).expect("artifact");
        if let floors_runtime::KernelCode::CpuSharedObject(code) = &mut a.code {
            code.truncate(16);
        }
        seeds.push(a.to_bytes().expect("encode")[floors_runtime::artifact::HEADER_BYTES..].to_vec());
        seeds.push(bytes);
    }
    let mut inputs: Vec<Vec<u8>> = seeds.clone();
    for _ in 0..per_target {
        let seed = if rng.chance(4, 5) { &seeds[2 * rng.below(seeds.len() / 2)] } else { rng.pick(&seeds) };
        let other = rng.pick(&seeds);
        inputs.push(mutate_bytes(&mut rng, seed, other));
    }
    for (k, input) in inputs.iter().enumerate() {
        failures.extend(replay(&tmp, "artifact", k, input, fuzz_checks::artifact));
    }

    // FFI attributes: random dictionaries (odd bits, partial array elements,
    // nesting).
    for k in 0..per_target {
        let Some(attrs) = random_attrs(&mut rng, 0) else { continue };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fuzz_checks::ffi_attrs(&attrs)));
        if r.is_err() {
            failures.push(format!("ffi_attrs #{k}: {attrs:?}"));
        }
    }
    assert!(failures.is_empty(), "{} fuzz-target checks failed:\n{}", failures.len(), failures.join("\n"));
}
