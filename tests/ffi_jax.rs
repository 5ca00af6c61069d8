//! Custom calls through XLA's FFI, end to end against JAX: the handlers of
//! `tests/ffi/handlers.cc`, written against jaxlib 0.10.2's own `ffi.h`, are
//! built with clang++ into one shared library; `tests/ffi/jax_side.py`
//! registers that library with XLA:CPU (`jax.ffi.register_ffi_target(...,
//! platform="cpu")`), lowers three programs that call it and runs them; the
//! StableHLO JAX printed then runs on floors with the same library
//! (`floors run --ffi-lib`, `floors compile -o` + `floors-run --ffi-lib`, and
//! the Rust API) and must give exactly JAX's outputs: an RMS norm with an
//! `eps : f32` attribute between kernels, a handler with two results of two
//! dtypes, and a stateful handler (state made in the instantiate stage, kept
//! across runs), and one whose result aliases its operand
//! (`input_output_aliases`: the handler checks the pointers). Attribute errors, a handler built for a newer FFI major
//! version and a target without a handler are errors at the call's location.
//!
//! Needs the test venv with jax/jaxlib 0.10.2 (`FLOORS_PYTHON`, else
//! `.venv-test/bin/python`, made by `scripts/pyenv.sh`) and clang++: without
//! the venv the tests are skipped, except under CI (`CI` set), where they fail.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use floors::{CompileOptions, Compiler, npy, run::Program, runtime::CustomCallRegistry};

const PROGRAMS: [(&str, usize); 4] = [("rms_block", 1), ("two_results", 2), ("stateful", 1), ("aliased", 1)];

/// How floors is told which symbols are which targets.
const MAPPING: &str = "RmsNorm=rms_norm,AffineArgmax=affine_argmax,ScaleInPlace=scale_in_place,instantiate:CounterInstantiate=counter,CounterExecute=counter,\
                       type:CounterStateTypeId+CounterStateTypeInfo=counter_state";

struct Fixture {
    dir: PathBuf,
    lib: PathBuf,
}

impl Fixture {
    fn spec(&self) -> String {
        format!("{}:{MAPPING}", self.lib.display())
    }
    fn file(&self, name: &str) -> PathBuf {
        self.dir.join("jax").join(name)
    }
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn python() -> Option<PathBuf> {
    let candidates = [std::env::var_os("FLOORS_PYTHON").map(PathBuf::from), Some(repo().join(".venv-test/bin/python"))];
    candidates.into_iter().flatten().find(|p| p.exists())
}

fn clangxx() -> String {
    let c = "/usr/lib/llvm-22/bin/clang++";
    if Path::new(c).exists() { c.into() } else { "clang++".into() }
}

fn run_ok(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(out.status.success(), "{what} failed:\n{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Builds the handler library and runs the JAX side once for all tests.
fn fixture() -> Option<&'static Fixture> {
    static FIXTURE: OnceLock<Option<Fixture>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| {
            let Some(py) = python() else {
                assert!(std::env::var_os("CI").is_none(), "CI: no test venv (FLOORS_PYTHON or .venv-test); run scripts/pyenv.sh");
                eprintln!("skipped: no test venv (set FLOORS_PYTHON or run scripts/pyenv.sh)");
                return None;
            };
            let include = run_ok(Command::new(&py).args(["-c", "import jax.ffi; print(jax.ffi.include_dir())"]), "jax.ffi.include_dir()");
            // Cargo's scratch directory for integration tests (under target/), cleared first.
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ffi-jax");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let lib = dir.join("libfloors_test_ffi.so");
            run_ok(
                Command::new(clangxx())
                    .args(["-std=c++17", "-O2", "-shared", "-fPIC", "-I"])
                    .arg(include.trim())
                    .arg(repo().join("tests/ffi/handlers.cc"))
                    .arg("-o")
                    .arg(&lib),
                "building tests/ffi/handlers.cc",
            );
            run_ok(
                Command::new(&py).arg(repo().join("tests/ffi/jax_side.py")).arg(&lib).arg(dir.join("jax")).env("JAX_PLATFORMS", "cpu"),
                "tests/ffi/jax_side.py",
            );
            Some(Fixture { dir, lib })
        })
        .as_ref()
}

fn floors_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_floors"))
}

fn assert_same(jax: &Path, floors: &Path) {
    let (a, b) = (npy::read(jax).unwrap(), npy::read(floors).unwrap());
    assert_eq!((a.element_type, &a.shape), (b.element_type, &b.shape), "{} vs {}", jax.display(), floors.display());
    assert!(a.bytes == b.bytes, "{} and {} differ", jax.display(), floors.display());
}

#[test]
fn jax_handlers_run_on_floors_run_with_the_same_outputs() {
    let Some(f) = fixture() else { return };
    for (name, outputs) in PROGRAMS {
        for threads in ["1", "2"] {
            let out = f.dir.join(format!("floors-{name}-{threads}"));
            run_ok(
                Command::new(floors_bin())
                    .arg("run")
                    .arg(f.file(&format!("{name}.mlir")))
                    .arg("--input")
                    .arg(f.file(&format!("{name}.in0.npy")))
                    .arg("--output-dir")
                    .arg(&out)
                    .args(["--threads", threads, "--ffi-lib"])
                    .arg(f.spec()),
                &format!("floors run {name}"),
            );
            for k in 0..outputs {
                assert_same(&f.file(&format!("{name}.run0.out{k}.npy")), &out.join(format!("out{k}.npy")));
            }
        }
    }
}

#[test]
fn artifacts_need_their_handlers_only_when_they_run() {
    let Some(f) = fixture() else { return };
    let floors_run = floors_bin().with_file_name("floors-run");
    assert!(floors_run.exists(), "build floors-run first (cargo build --workspace)");
    for (name, outputs) in PROGRAMS {
        let artifact = f.dir.join(format!("{name}.floors"));
        // No handler library at compile time.
        run_ok(Command::new(floors_bin()).arg("compile").arg(f.file(&format!("{name}.mlir"))).arg("-o").arg(&artifact), "floors compile");
        let out = f.dir.join(format!("floors-run-{name}"));
        let input = f.file(&format!("{name}.in0.npy"));
        run_ok(
            Command::new(&floors_run)
                .arg(&artifact)
                .arg("--input")
                .arg(&input)
                .arg("--output-dir")
                .arg(&out)
                .arg("--ffi-lib")
                .arg(f.spec()),
            &format!("floors-run {name}"),
        );
        for k in 0..outputs {
            assert_same(&f.file(&format!("{name}.run0.out{k}.npy")), &out.join(format!("out{k}.npy")));
        }
        // Without the library: the target is named, nothing runs.
        let o = Command::new(&floors_run).arg(&artifact).arg("--input").arg(&input).arg("--output-dir").arg(&out).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1));
        assert!(err.contains(&format!("{name}.mlir:")) && err.contains("error: no handler is registered for custom_call target"), "{err}");
    }
}

#[test]
fn the_rust_api_runs_the_library_and_keeps_handler_state_across_runs() {
    let Some(f) = fixture() else { return };
    let registry = Arc::new(CustomCallRegistry::with_libraries(&[f.spec()]).unwrap());
    let compiler = Compiler::new(CompileOptions::default()).unwrap();
    let text = std::fs::read_to_string(f.file("stateful.mlir")).unwrap();
    let program = Program::compile_with_custom_calls(&compiler, "stateful.mlir", &text, registry.clone()).unwrap();
    let input = f.file("stateful.in0.npy");
    let inputs = vec![(input.clone(), npy::read(&input).unwrap())];
    // JAX ran the one executable three times; so does floors: the count goes on.
    for run in 0..3 {
        let out = program.executable().execute(&inputs, None).unwrap();
        let dir = f.dir.join(format!("rust-stateful-{run}"));
        floors::runtime::write_outputs(&dir, &out).unwrap();
        assert_same(&f.file(&format!("stateful.run{run}.out0.npy")), &dir.join("out0.npy"));
    }
    // A second executable has call sites of its own: it starts over.
    let again = Program::compile_with_custom_calls(&compiler, "stateful.mlir", &text, registry).unwrap();
    let out = again.executable().execute(&inputs, None).unwrap();
    let dir = f.dir.join("rust-stateful-again");
    floors::runtime::write_outputs(&dir, &out).unwrap();
    assert_same(&f.file("stateful.run0.out0.npy"), &dir.join("out0.npy"));
    assert!(program.executable().to_string().contains("custom_call @counter {start = 3 : i32} (handler: libfloors_test_ffi.so:"));
}

/// `floors run` on `text` (written next to the fixture as `name`) with the
/// library; its exit code and stderr.
fn run_text(f: &Fixture, name: &str, text: &str, spec: &str) -> (Option<i32>, String) {
    let path = f.dir.join(name);
    std::fs::write(&path, text).unwrap();
    let o = Command::new(floors_bin())
        .arg("run")
        .arg(&path)
        .arg("--input")
        .arg(f.file("rms_block.in0.npy"))
        .arg("--output-dir")
        .arg(f.dir.join("err-out"))
        .arg("--ffi-lib")
        .arg(spec)
        .output()
        .unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn attribute_errors_and_refused_handlers_are_reported_at_the_call() {
    let Some(f) = fixture() else { return };
    let text = std::fs::read_to_string(f.file("rms_block.mlir")).unwrap();
    let eps = "eps = 9.99999974E-6 : f32";
    assert!(text.contains(eps), "{text}");
    let line = text.lines().position(|l| l.contains("custom_call @rms_norm")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("stablehlo.custom_call").unwrap() + 1;
    let at = |file: &str| format!("{}:{line}:{col}: error: custom call `rms_norm` failed: ", f.dir.join(file).display());
    // The wrong type: the handler's own decoding error, at the call.
    let (code, err) = run_text(f, "wrong_type.mlir", &text.replace(eps, "eps = 1 : i32"), &f.spec());
    assert_eq!(code, Some(1));
    assert!(err.starts_with(&at("wrong_type.mlir")), "{err}");
    assert!(err.contains("Wrong scalar data type: expected F32 but got S32"), "{err}");
    // Missing.
    let (code, err) = run_text(f, "missing.mlir", &text.replace(eps, ""), &f.spec());
    assert_eq!(code, Some(1));
    assert!(err.starts_with(&at("missing.mlir")) && err.contains("Wrong number of attributes: expected 1 but got 0"), "{err}");
    // A handler built for a newer major version is refused when it is loaded.
    let (code, err) = run_text(f, "future.mlir", &text, &format!("{}:FromTheFuture=rms_norm", f.lib.display()));
    assert_eq!(code, Some(1));
    assert!(err.contains("it was built for XLA FFI API 1.0, a newer major version than floors implements (0.3)"), "{err}");
    // No handler for the target.
    let (code, err) = run_text(f, "unhandled.mlir", &text, &format!("{}:AffineArgmax=affine_argmax", f.lib.display()));
    assert_eq!(code, Some(1));
    let want = format!(
        "{}:{line}:{col}: error: no handler is registered for custom_call target 'rms_norm'",
        f.dir.join("unhandled.mlir").display()
    );
    assert!(err.starts_with(&want), "{err}");
    // A handler that throws: the call's error, the process alive to report it.
    let (code, err) = run_text(f, "throws.mlir", &text, &format!("{}:Throws=rms_norm", f.lib.display()));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with(&at("throws.mlir")) && err.contains("the handler threw a C++ exception: thrown from the handler"), "{err}");
    // A symbol that is not there.
    let (code, err) = run_text(f, "nosym.mlir", &text, &format!("{}:Nope=rms_norm", f.lib.display()));
    assert_eq!((code, err.trim()), (Some(1), format!("error: FFI library {}: no symbol `Nope`", f.lib.display()).as_str()));
}
