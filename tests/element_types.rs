//! Every element type JAX emits, end to end on the CPU floor: the JAX
//! programs of `tests/element_types/programs.py` (a uint32 hash mix,
//! `jax.random.bernoulli` dropout on threefry, a dropout mask from raw bits,
//! uint8/16/64 arithmetic with division, shifts and comparisons, unsigned
//! reductions, int ↔ float ↔ unsigned conversions, popcnt/clz, bitcasts,
//! unsigned gather indices and sort keys, boolean logic, f16 matmuls and
//! elementwise ops, f64 reductions, bf16) are lowered by JAX
//! (`jax.jit(f).lower(...).as_text()`), compiled and run by floors (fused,
//! unfused, and split into workgroups on a pool), and compared with what
//! JAX/XLA:CPU computed: integers and bools exactly, floats to a tolerance
//! of a few units in the last place of their type.
//!
//! Needs the test venv with jax/jaxlib 0.10.2 (`FLOORS_PYTHON`, else
//! `.venv-test/bin/python`, made by `scripts/pyenv.sh`): without it the tests
//! are skipped, except under CI (`CI` set), where they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use floors::{
    CompileOptions, Compiler, Stage,
    npy::{self, ElementType, HostArray},
    run::{Program, artifact_of_module},
    runtime::CustomCallRegistry,
};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> Option<PathBuf> {
    let candidates = [std::env::var_os("FLOORS_PYTHON").map(PathBuf::from), Some(repo().join(".venv-test/bin/python"))];
    candidates.into_iter().flatten().find(|p| p.exists())
}

struct Fixture {
    dir: PathBuf,
    names: Vec<String>,
}

/// Runs the JAX side once for all tests: programs, inputs, JAX's outputs.
fn fixture() -> Option<&'static Fixture> {
    static FIXTURE: OnceLock<Option<Fixture>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| {
            let Some(py) = python() else {
                assert!(std::env::var_os("CI").is_none(), "CI: no test venv (FLOORS_PYTHON or .venv-test); run scripts/pyenv.sh");
                eprintln!("skipped: no test venv (set FLOORS_PYTHON or run scripts/pyenv.sh)");
                return None;
            };
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("element-types");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let out = Command::new(&py)
                .arg(repo().join("tests/element_types/programs.py"))
                .arg(&dir)
                .output()
                .unwrap_or_else(|e| panic!("{}: {e}", py.display()));
            assert!(
                out.status.success(),
                "programs.py failed:\n{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let names: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).filter(|l| !l.is_empty()).collect();
            assert!(names.len() >= 10, "programs.py wrote only {names:?}");
            Some(Fixture { dir, names })
        })
        .as_ref()
}

/// IEEE half bits → f64.
fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = (h >> 10) & 0x1f;
    let frac = (h & 0x3ff) as f64;
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        0x1f if frac == 0.0 => f64::INFINITY,
        0x1f => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e as i32 - 15),
    }
}

/// Float elements as f64 and the relative precision of the type (one ulp
/// at 1.0), or None for integers and bools.
fn floats(a: &HostArray) -> Option<(Vec<f64>, f64)> {
    let b = &a.bytes;
    Some(match a.element_type {
        ElementType::F64 => (b.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect(), f64::EPSILON),
        ElementType::F32 => (b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64).collect(), f32::EPSILON as f64),
        ElementType::F16 => (b.chunks_exact(2).map(|c| f16_to_f64(u16::from_le_bytes(c.try_into().unwrap()))).collect(), 2f64.powi(-10)),
        ElementType::Bf16 => (
            b.chunks_exact(2).map(|c| f32::from_bits((u16::from_le_bytes(c.try_into().unwrap()) as u32) << 16) as f64).collect(),
            2f64.powi(-7),
        ),
        _ => return None,
    })
}

/// Integers and bools exactly; floats within 4 ulps of their type (relative
/// to the larger of the value and 1e-3), f32 and f64 to 1e-5 and 1e-13 (sums
/// in another order round apart), NaN where JAX has NaN. JAX's bf16 arrays
/// were saved as their uint16 bits.
fn compare(got: &HostArray, want: &HostArray) -> Result<(), String> {
    let mut want = want.clone();
    if got.element_type == ElementType::Bf16 && want.element_type == ElementType::U16 {
        want.element_type = ElementType::Bf16;
    }
    let want = &want;
    if got.element_type != want.element_type || got.shape != want.shape {
        return Err(format!("got {} expected {}", got.describe(), want.describe()));
    }
    let Some((g, ulp)) = floats(got) else {
        if got.bytes == want.bytes {
            return Ok(());
        }
        let w = got.element_type.bytes();
        let i = got.bytes.chunks(w).zip(want.bytes.chunks(w)).position(|(a, b)| a != b).unwrap();
        return Err(format!("element {i}: got bytes {:?}, expected {:?}", &got.bytes[i * w..(i + 1) * w], &want.bytes[i * w..(i + 1) * w]));
    };
    let (w, _) = floats(want).unwrap();
    let rel = match got.element_type {
        ElementType::F32 => 1e-5,
        ElementType::F64 => 1e-13,
        _ => 4.0 * ulp,
    };
    for (i, (p, q)) in g.iter().zip(&w).enumerate() {
        let ok = (p.is_nan() && q.is_nan()) || p == q || (p - q).abs() <= rel * q.abs().max(1e-3);
        if !ok {
            return Err(format!("element {i}: got {p}, expected {q}"));
        }
    }
    Ok(())
}

fn inputs(dir: &Path, name: &str) -> Vec<(PathBuf, HostArray)> {
    (0..)
        .map(|i| dir.join(format!("{name}.in{i}.npy")))
        .take_while(|p| p.exists())
        .map(|p| {
            let a = npy::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, a)
        })
        .collect()
}

/// The CPU pipeline with fusion switched off: one kernel per op.
const UNFUSED: &str = "builtin.module(floors-hlo-cleanup,floors-hlo-fuse-singletons,floors-lower-cpu)";

/// Compiles every program with `compiler` (through `pipeline` when given),
/// runs it and compares with JAX; returns the failures.
fn run_all(compiler: &Compiler, pipeline: Option<&str>, pool: Option<&rayon::ThreadPool>) -> Vec<String> {
    let Some(fx) = fixture() else { return Vec::new() };
    let mut failures = Vec::new();
    for name in &fx.names {
        let path = fx.dir.join(format!("{name}.mlir"));
        let text = std::fs::read_to_string(&path).unwrap();
        let label = path.display().to_string();
        let program = match pipeline {
            None => Program::compile(compiler, &label, &text),
            Some(p) => compiler
                .parse(&label, &text)
                .and_then(|mut m| {
                    compiler.attach_target(&m)?;
                    compiler.run_pipeline(&mut m, p, "unfused").map(|_| m)
                })
                .and_then(|m| artifact_of_module(compiler, &m, &label))
                .and_then(|a| Program::from_artifact(a, &label, Arc::new(CustomCallRegistry::with_builtins()))),
        };
        let program = match program {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: compile: {e}"));
                continue;
            }
        };
        let outs = match program.executable().execute(&inputs(&fx.dir, name), pool) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: run: {e}"));
                continue;
            }
        };
        for (i, got) in outs.iter().enumerate() {
            let want = npy::read(&fx.dir.join(format!("{name}.out{i}.npy"))).unwrap();
            if let Err(e) = compare(got, &want) {
                failures.push(format!("{name} out{i} ({}): {e}", want.describe()));
            }
        }
    }
    failures
}

#[test]
fn jax_programs_on_every_element_type_match_jax() {
    let failures = run_all(&Compiler::new(CompileOptions::default()).unwrap(), None, None);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn element_types_match_jax_with_fusion_disabled() {
    let failures = run_all(&Compiler::new(CompileOptions::default()).unwrap(), Some(UNFUSED), None);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn element_types_match_jax_split_into_workgroups() {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let options = CompileOptions { workgroups: 2, workgroup_min_iterations: Some(1), ..CompileOptions::default() };
    let failures = run_all(&Compiler::new(options).unwrap(), None, Some(&pool));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A uint32 parameter and result keep their type at the program boundary
/// (the host program reads `ui32`, the kernels compute on `i32`): a uint32
/// .npy is accepted and an int32 one is refused by the input check.
#[test]
fn unsigned_parameters_keep_their_dtype() {
    let Some(fx) = fixture() else { return };
    let text = std::fs::read_to_string(fx.dir.join("hash_mix.mlir")).unwrap();
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let linalg = compiler.compile_source("hash_mix.mlir", &text, Stage::Linalg).unwrap();
    assert!(linalg.contains("func.func public @main(%arg0: tensor<256xui32>"), "{linalg}");
    assert!(linalg.contains(": tensor<256xui32> as tensor<256xi32>"), "{linalg}");
    let program = Program::compile(&compiler, "hash_mix.mlir", &text).unwrap();
    let mut ins = inputs(&fx.dir, "hash_mix");
    let outs = program.executable().execute(&ins, None).unwrap();
    assert_eq!(outs[0].element_type, ElementType::U32);
    let bits = &mut ins[0].1;
    bits.element_type = ElementType::I32;
    let err = program.executable().execute(&ins, None).unwrap_err().to_string();
    assert!(err.contains("uint32") || err.contains("ui32") || err.contains("u4"), "{err}");
}
