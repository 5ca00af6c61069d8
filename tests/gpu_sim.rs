//! The GPU floor on numbers, without a GPU: programs compiled with
//! `--target gpu` run on the PTX simulator (`floors_ptx_sim`, every check
//! on: memcheck, racecheck, initcheck, synccheck) for sm_80, sm_90 and
//! sm_90a (wgmma), with dots on the cuBLAS-contract library gemm and on
//! floors' own GEMM kernels, and match the corpus' expected outputs (public)
//! or the CPU floor's outputs on the same inputs (the ragged stress set, the
//! tensor-core programs).

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use floors::run::Program;
use floors::runtime::npy::{self, ElementType, HostArray};
use floors::runtime::{CustomCallRegistry, ExecutorOptions, GpuDevice, SimChecks};
use floors::{CompileOptions, Compiler, target::GpuTarget};
use floors_gpu::GemmMode;

const CHIPS: [&str; 3] = ["sm_80", "sm_90", "sm_90a"];
const GEMMS: [GemmMode; 2] = [GemmMode::Library, GemmMode::Emitter];

fn sim() -> ExecutorOptions {
    ExecutorOptions { gpu_device: GpuDevice::Sim(SimChecks::ALL), ..ExecutorOptions::default() }
}

fn compile_gpu(path: &Path, chip: &str, gemm: GemmMode) -> Program {
    let compiler = Compiler::new(CompileOptions {
        target: floors::floor::Target::Gpu { target: GpuTarget::resolve(chip).unwrap(), gemm },
        ..CompileOptions::default()
    })
    .unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    Program::compile_traced_with(&compiler, &name, &text, Arc::new(CustomCallRegistry::with_builtins()), None, sim())
        .unwrap_or_else(|e| panic!("{name} ({chip}, {gemm:?}): {e}"))
}

fn values(a: &HostArray) -> Vec<f64> {
    let b = &a.bytes;
    match a.element_type {
        ElementType::F32 => b.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64).collect(),
        ElementType::F64 => b.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect(),
        ElementType::F16 => b.chunks_exact(2).map(|c| half::f16::from_le_bytes(c.try_into().unwrap()).to_f64()).collect(),
        ElementType::Bf16 => b.chunks_exact(2).map(|c| half::bf16::from_le_bytes(c.try_into().unwrap()).to_f64()).collect(),
        _ => b.iter().map(|&x| x as f64).collect(),
    }
}

/// Equal for integers and bools; floats within a tolerance scaled by the
/// output's magnitude: 1e-4 for f32, 1e-2 for f16/bf16, and 5e-3 for f32
/// computed by cuBLAS dots on TF32 tensor cores (`tf32`: the program's f32
/// dots of precision DEFAULT went to the library, as XLA:GPU's do; each
/// operand element keeps 11 significant bits).
fn assert_matches_tf32(got: &HostArray, want: &HostArray, what: &str, tf32: bool) {
    assert_eq!(got.shape, want.shape, "{what}: shape");
    assert_eq!(got.element_type, want.element_type, "{what}: element type");
    let float = matches!(want.element_type, ElementType::F32 | ElementType::F64 | ElementType::F16 | ElementType::Bf16);
    if !float {
        assert!(got.bytes == want.bytes, "{what}: integer outputs differ");
        return;
    }
    let (g, w) = (values(got), values(want));
    let tol = match want.element_type {
        ElementType::F16 | ElementType::Bf16 => 1e-2,
        ElementType::F32 if tf32 => 5e-3,
        _ => 1e-4,
    };
    let scale = w.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, x| m.max(x.abs()));
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol * scale;
        assert!(ok, "{what}: element {k}: {a} vs {b} (tolerance {})", tol * scale);
    }
}

fn assert_matches(got: &HostArray, want: &HostArray, what: &str) {
    assert_matches_tf32(got, want, what, false)
}

fn public_programs() -> Vec<(PathBuf, Vec<PathBuf>, Vec<PathBuf>)> {
    let dir = common::corpus_dir().join("public");
    let mut out = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".stablehlo.mlir").map(String::from))
        .collect();
    names.sort();
    for name in names {
        let numbered = |kind: &str| (0..).map(|k| dir.join(format!("{name}.{kind}{k}.npy"))).take_while(|p| p.exists()).collect::<Vec<_>>();
        out.push((dir.join(format!("{name}.stablehlo.mlir")), numbered("in"), numbered("out")));
    }
    out
}

/// Every public program, every chip, both gemm modes: 108 runs, all clean
/// under every check, all matching the expected outputs.
#[test]
fn public_corpus_runs_on_the_simulated_gpu() {
    let start = Instant::now();
    let mut runs = 0;
    for (prog, ins, outs) in public_programs() {
        let inputs: Vec<(PathBuf, HostArray)> = ins.iter().map(|p| (p.clone(), npy::read(p).unwrap())).collect();
        let wants: Vec<HostArray> = outs.iter().map(|p| npy::read(p).unwrap()).collect();
        for chip in CHIPS {
            for gemm in GEMMS {
                let what = format!("{} ({chip}, {gemm:?})", prog.display());
                let program = compile_gpu(&prog, chip, gemm);
                let got = program.executable().execute(&inputs, None).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(got.len(), wants.len(), "{what}: outputs");
                for (k, (g, w)) in got.iter().zip(&wants).enumerate() {
                    assert_matches_tf32(g, w, &format!("{what} out{k}"), gemm == GemmMode::Library);
                }
                let counters = program.executable().device_counters().expect("the simulator counts");
                assert!(counters.launches + counters.library_calls > 0, "{what}: nothing ran on the device");
                runs += 1;
            }
        }
    }
    eprintln!("{runs} runs of the public corpus on the simulated GPU in {:.1} s (compiles included)", start.elapsed().as_secs_f64());
}

/// The ragged stress set and the f16/bf16 tensor-core programs against the
/// CPU floor on the same (deterministic random) inputs.
#[test]
fn stress_set_and_tensor_core_programs_match_the_cpu_floor() {
    let mut progs: Vec<PathBuf> = Vec::new();
    for dir in [common::corpus_dir().join("gpu-stress"), Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/tensorcore")] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".stablehlo.mlir"))
            .collect();
        files.sort();
        progs.extend(files);
    }
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    for prog in progs {
        let text = std::fs::read_to_string(&prog).unwrap();
        let name = prog.display().to_string();
        let reference = Program::compile(&cpu, &name, &text).unwrap();
        let inputs = floors::run::random_inputs(&reference.executable().parameters());
        let wants = reference.executable().execute(&inputs, None).unwrap();
        for (chip, gemm) in [("sm_80", GemmMode::Emitter), ("sm_90", GemmMode::Library), ("sm_90a", GemmMode::Emitter)] {
            let what = format!("{name} ({chip}, {gemm:?})");
            let got = compile_gpu(&prog, chip, gemm).executable().execute(&inputs, None).unwrap_or_else(|e| panic!("{what}: {e}"));
            for (k, (g, w)) in got.iter().zip(&wants).enumerate() {
                assert_matches_tf32(g, w, &format!("{what} out{k}"), gemm == GemmMode::Library);
            }
        }
    }
}

fn floors_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_floors"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("floors-gpusim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn counters_line(stdout: &str) -> String {
    let last = stdout.lines().last().unwrap_or("").to_string();
    let fields: Vec<&str> = last.strip_prefix("device: ").unwrap_or_else(|| panic!("no counters line: {stdout}")).split(' ').collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.split('=').next().unwrap()).collect();
    assert_eq!(keys, ["launches", "library_calls", "global_bytes", "flops", "modeled_us"], "{last}");
    for f in &fields {
        let v = f.split('=').nth(1).unwrap();
        assert!(v.parse::<f64>().is_ok(), "{last}");
    }
    last
}

/// `floors run --target gpu --device sim --counters` and the same program
/// as an artifact under `floors-run --device sim --counters` (no MLIR, no
/// LLVM, no CUDA driver): the outputs, and the counters line last.
#[test]
fn both_entry_points_run_on_the_simulated_device_and_print_counters() {
    let dir = common::corpus_dir().join("public");
    let (prog, input, want) =
        (dir.join("softmax.stablehlo.mlir"), dir.join("softmax.in0.npy"), npy::read(&dir.join("softmax.out0.npy")).unwrap());
    let out = scratch("run");
    let o = std::process::Command::new(floors_bin())
        .args(["run", "--target", "gpu", "--device", "sim", "--counters"])
        .arg(&prog)
        .arg("--input")
        .arg(&input)
        .arg("--output-dir")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let line = counters_line(&String::from_utf8_lossy(&o.stdout));
    assert!(line.starts_with("device: launches=") && !line.contains("launches=0 "), "{line}");
    assert_matches(&npy::read(&out.join("out0.npy")).unwrap(), &want, "floors run --device sim");

    let art = out.join("softmax.floors");
    let o = std::process::Command::new(floors_bin())
        .args(["compile", "--target", "gpu", "--gpu", "sm_90a"])
        .arg(&prog)
        .arg("-o")
        .arg(&art)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let run = floors_bin().with_file_name("floors-run");
    let o = std::process::Command::new(&run)
        .arg(&art)
        .args(["--device", "sim", "--counters", "--sanitize", "memcheck,racecheck,initcheck,synccheck"])
        .arg("--input")
        .arg(&input)
        .arg("--output-dir")
        .arg(out.join("art"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    counters_line(&String::from_utf8_lossy(&o.stdout));
    assert_matches(&npy::read(&out.join("art/out0.npy")).unwrap(), &want, "floors-run --device sim");

    // Bad options are errors naming the option.
    let o = std::process::Command::new(&run)
        .arg(&art)
        .args(["--device", "sim", "--sanitize", "bogus", "--output-dir"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown check `bogus`"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = std::process::Command::new(&run).arg(&art).args(["--counters", "--output-dir"]).arg(&out).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("need --device sim"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// An input of the wrong shape on the simulated device is the runtime's usual input error.
#[test]
fn wrong_inputs_are_errors_on_the_simulated_device() {
    let dir = common::corpus_dir().join("public");
    let program = compile_gpu(&dir.join("relu.stablehlo.mlir"), "sm_90", GemmMode::Auto);
    let bad = HostArray { element_type: ElementType::F32, shape: vec![3], bytes: floors::runtime::AlignedBuffer::zeros(12) };
    let e = program.executable().execute(&[(PathBuf::from("x.npy"), bad)], None).unwrap_err().to_string();
    assert!(e.contains("x.npy"), "{e}");
}

fn f32_array(v: &[f32]) -> HostArray {
    let mut bytes = floors::runtime::AlignedBuffer::zeros(4 * v.len());
    bytes.copy_from_slice(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    HostArray { element_type: ElementType::F32, shape: vec![v.len() as u64], bytes }
}

/// The GPU floor's f32 math on the arguments the simulator found wrong
/// (upstream's sin reduced 3.4e38 to inf and was 1.6e-3 off at |x| ≈ 1e4,
/// atan2(−0, x < 0) was +π, pow(−inf, y) NaN, pow(−0, −1) +inf,
/// pow(3.4e38, 1) inf): within 2 ulp of the CPU floor's (≤ 0.5 ulp + ε).
#[test]
fn gpu_math_is_accurate_on_huge_and_special_arguments() {
    let text = r#"
func.func public @main(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %0 = stablehlo.sine %x : tensor<16xf32>
  %1 = stablehlo.cosine %x : tensor<16xf32>
  %2 = stablehlo.tan %x : tensor<16xf32>
  %3 = stablehlo.atan2 %x, %y : tensor<16xf32>
  %4 = stablehlo.power %x, %y : tensor<16xf32>
  %5 = stablehlo.cbrt %x : tensor<16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}
"#;
    let dir = scratch("math");
    let prog = dir.join("math.mlir");
    std::fs::write(&prog, text).unwrap();
    let x = [
        3.4028235e38,
        -1e30,
        12345.678,
        -58.0,
        1e-38,
        -0.0,
        0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        2.5,
        -3.0,
        0.5,
        1.0,
        -0.0,
        7e9,
    ];
    let y = [1.0, 0.5, 2.0, -1.0, 3.0, -1.0, -1.0, 0.5, 0.5, 2.0, -2.5, 3.0, -1.0, f32::NAN, -1.0, 0.25];
    let inputs = vec![(PathBuf::from("x.npy"), f32_array(&x)), (PathBuf::from("y.npy"), f32_array(&y))];
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let wants = Program::compile(&cpu, "math", text).unwrap().executable().execute(&inputs, None).unwrap();
    for chip in ["sm_80", "sm_90a"] {
        let got = compile_gpu(&prog, chip, GemmMode::Auto).executable().execute(&inputs, None).unwrap();
        for (k, (g, w)) in got.iter().zip(&wants).enumerate() {
            for (i, (a, b)) in values(g).iter().zip(values(w)).enumerate() {
                let (a, b) = (*a as f32, b as f32);
                let ulps = (a.to_bits() as i64 - b.to_bits() as i64).abs();
                let ok = (a.is_nan() && b.is_nan()) || a == b || (a.signum() == b.signum() && ulps <= 2);
                assert!(ok, "{chip}: output {k} for x = {}, y = {}: GPU {a:e}, CPU {b:e}", x[i], y[i]);
            }
        }
    }
}

/// f64 exp, expm1, tanh, log, log1p, atan2 and cbrt on the GPU floor (the
/// CPU floor's f64 forms on scalars) within 2 ulp of the CPU floor's.
#[test]
fn gpu_f64_math_matches_the_cpu_floor() {
    let text = r#"
func.func public @main(%x: tensor<12xf64>, %y: tensor<12xf64>) -> (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>) {
  %0 = stablehlo.exponential %x : tensor<12xf64>
  %1 = stablehlo.exponential_minus_one %x : tensor<12xf64>
  %2 = stablehlo.tanh %x : tensor<12xf64>
  %a = stablehlo.abs %x : tensor<12xf64>
  %3 = stablehlo.log %a : tensor<12xf64>
  %4 = stablehlo.log_plus_one %a : tensor<12xf64>
  %5 = stablehlo.atan2 %x, %y : tensor<12xf64>
  %6 = stablehlo.cbrt %x : tensor<12xf64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>
}
"#;
    let dir = scratch("math64");
    let prog = dir.join("math64.mlir");
    std::fs::write(&prog, text).unwrap();
    let x = [0.5, -1e-10, 700.0, -745.5, 1e-310, -0.0, f64::INFINITY, f64::NAN, 3.0, -2.5, 1e300, 37.0];
    let y = [1.0, -1.0, 2.0, 0.5, -3.0, -1.0, 1.0, 2.0, f64::INFINITY, -0.0, 1.0, -7.0];
    let arr = |v: &[f64]| {
        let mut bytes = floors::runtime::AlignedBuffer::zeros(8 * v.len());
        bytes.copy_from_slice(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        HostArray { element_type: ElementType::F64, shape: vec![v.len() as u64], bytes }
    };
    let inputs = vec![(PathBuf::from("x.npy"), arr(&x)), (PathBuf::from("y.npy"), arr(&y))];
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let wants = Program::compile(&cpu, "math64", text).unwrap().executable().execute(&inputs, None).unwrap();
    let got = compile_gpu(&prog, "sm_90", GemmMode::Auto).executable().execute(&inputs, None).unwrap();
    for (k, (g, w)) in got.iter().zip(&wants).enumerate() {
        for (i, (a, b)) in values(g).iter().zip(values(w)).enumerate() {
            let ulps = (a.to_bits() as i128 - b.to_bits() as i128).abs();
            let ok = (a.is_nan() && b.is_nan()) || *a == b || (a.signum() == b.signum() && ulps <= 2);
            assert!(ok, "output {k} for x = {}, y = {}: GPU {a:e}, CPU {b:e}", x[i], y[i]);
        }
    }
}

/// argmax over columns and argmin over rows (JAX's variadic reduce, whose
/// comparator keeps its first operand's NaN) with several NaNs per row: the
/// GPU floor combines a variadic reduction's partials in order, so the
/// first NaN's index wins as on the CPU floor (rows of 9, 127 and 2000: a
/// warp per row with and without empty lanes, a block per row).
#[test]
fn argmax_with_several_nans_picks_the_first_like_the_cpu() {
    let program = |rows: usize, cols: usize, dim: usize, cmp: &str| {
        let (kept, n) = if dim == 0 { (cols, rows) } else { (rows, cols) };
        let _ = n;
        format!(
            r#"
func.func public @main(%x: tensor<{rows}x{cols}xf32>) -> tensor<{kept}xi32> {{
  %i = stablehlo.iota dim = {dim} : tensor<{rows}x{cols}xi32>
  %init = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %init), (%i init: %z) across dimensions = [{dim}] : (tensor<{rows}x{cols}xf32>, tensor<{rows}x{cols}xi32>, tensor<f32>, tensor<i32>) -> (tensor<{kept}xf32>, tensor<{kept}xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ia: tensor<i32>, %ib: tensor<i32>) {{
    %gt = stablehlo.compare {cmp}, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pick = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %pi = stablehlo.or %pick, %tie : tensor<i1>
    %v = stablehlo.select %pick, %a, %b : tensor<i1>, tensor<f32>
    %j = stablehlo.select %pi, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %v, %j : tensor<f32>, tensor<i32>
  }}
  return %r#1 : tensor<{kept}xi32>
}}
"#
        )
    };
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    for (rows, cols, dim, cmp) in [(33, 70, 0, "GT"), (40, 9, 1, "LT"), (7, 127, 1, "LT"), (3, 2000, 1, "GT")] {
        let text = program(rows, cols, dim, cmp);
        let dir = scratch(&format!("argmax{rows}x{cols}"));
        let prog = dir.join("argmax.mlir");
        std::fs::write(&prog, &text).unwrap();
        // Values with a NaN at every 5th and 7th element.
        let x: Vec<f32> =
            (0..rows * cols).map(|k| if k % 5 == 3 || k % 7 == 2 { f32::NAN } else { ((k * 37 % 101) as f32) - 50.0 }).collect();
        let inputs = vec![(PathBuf::from("x.npy"), {
            let mut a = f32_array(&x);
            a.shape = vec![rows as u64, cols as u64];
            a
        })];
        let want = Program::compile(&cpu, "argmax", &text).unwrap().executable().execute(&inputs, None).unwrap();
        for chip in ["sm_80", "sm_90a"] {
            let got = compile_gpu(&prog, chip, GemmMode::Auto).executable().execute(&inputs, None).unwrap();
            assert!(
                got[0].bytes == want[0].bytes,
                "{rows}x{cols} over dim {dim} ({chip}): {:?} vs {:?}",
                values(&got[0]),
                values(&want[0])
            );
        }
    }
}

/// Programs partitioned over several devices run on as many simulated GPUs,
/// each with its own memory, their collectives as NCCL calls (the host
/// reference with NCCL's contract on flat buffers, `runtime/src/gpu/nccl.rs`):
/// the CPU floor's outputs to the bit, and one library call per collective
/// and device in the counters. Gathers, scatters and all-to-alls along a
/// dimension that is not the major one run between the transposes
/// `floors-hlo-collectives-to-calls` puts around them on the GPU floor. A
/// collective NCCL cannot compute (a 16-bit integer sum) is refused when the
/// program is loaded, located, naming the rule.
#[test]
fn sharded_programs_run_their_collectives_as_nccl_calls() {
    let inputs_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs");
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let f32s = |shape: &[u64]| npy::TensorSpec { element_type: ElementType::F32, shape: shape.to_vec() };
    let cases: [(&str, Vec<npy::TensorSpec>, u64); 5] = [
        ("shard_map_psum2", vec![f32s(&[6, 2])], 2 * 2),
        ("shard_map_ring", vec![f32s(&[8, 4]), f32s(&[8, 4])], 4 * 2),
        ("shard_map_mesh22", vec![f32s(&[8, 8])], 4 * 2),
        ("shard_map_gather_minor", vec![f32s(&[8, 4])], 2),
        ("shard_map_all_to_all_minor", vec![f32s(&[8, 4]), f32s(&[4, 6, 4])], 2 * 3),
    ];
    for (name, specs, calls) in cases {
        let prog = inputs_dir.join(format!("{name}.mlir"));
        let text = std::fs::read_to_string(&prog).unwrap();
        let inputs = floors::run::random_inputs(&specs);
        let wants = Program::compile(&cpu, name, &text).unwrap().executable().execute(&inputs, None).unwrap();
        for chip in ["sm_80", "sm_90a"] {
            let gpu = compile_gpu(&prog, chip, GemmMode::Library);
            let got = gpu.executable().execute(&inputs, None).unwrap_or_else(|e| panic!("{name} ({chip}): {e}"));
            assert_eq!(got.len(), wants.len());
            for (k, (g, w)) in got.iter().zip(&wants).enumerate() {
                assert_eq!((&g.shape, g.element_type), (&w.shape, w.element_type), "{name} ({chip}) out{k}");
                assert!(g.bytes == w.bytes, "{name} ({chip}) out{k}: the simulated GPUs differ from the CPU floor");
            }
            let counters = gpu.executable().device_counters().unwrap();
            assert_eq!(counters.library_calls, calls, "{name} ({chip}): {counters:?}");
            assert!(counters.kernels.iter().any(|k| k.name.starts_with("nccl floors.")), "{name}: {counters:?}");
        }
    }
    let prog = inputs_dir.join("shard_map_psum_i16.mlir");
    let text = std::fs::read_to_string(&prog).unwrap();
    let compiler = Compiler::new(CompileOptions {
        target: floors::floor::Target::Gpu { target: GpuTarget::resolve("sm_90").unwrap(), gemm: GemmMode::Library },
        ..CompileOptions::default()
    })
    .unwrap();
    let e = Program::compile_traced_with(&compiler, "psum_i16.mlir", &text, Arc::new(CustomCallRegistry::with_builtins()), None, sim())
        .err()
        .expect("an int16 all-reduce is refused on the GPU floor")
        .to_string();
    assert!(e.contains("floors.all_reduce") && e.contains("psum_i16.mlir:"), "{e}");
    assert!(e.contains("NCCL has no I16 reductions (no 16-bit integer type)"), "{e}");
}

/// f32 dots of precision DEFAULT run as cuBLAS calls on TF32 tensor cores
/// (XLA:GPU's choice on sm_80 and later: each operand element rounded to 10
/// mantissa bits), HIGH and HIGHEST in FP32: (1 + 2^-12) · 1 summed 8 times
/// is 8 on TF32 and 8 + 2^-9 in FP32. The thunk listing and the fusion
/// report say which.
#[test]
fn default_precision_f32_dots_use_tf32_and_highest_fp32() {
    let x = 1.0f32 + 2f32.powi(-12);
    let (mut a, mut b) = (f32_array(&[x; 16]), f32_array(&[1.0; 16]));
    (a.shape, b.shape) = (vec![2, 8], vec![8, 2]);
    let inputs = vec![(PathBuf::from("a.npy"), a), (PathBuf::from("b.npy"), b)];
    for (precision, want, tf32) in [
        ("", 8.0f32, true),
        (", precision = [HIGHEST, HIGHEST]", 8.0 + 2f32.powi(-9), false),
        (", precision = [HIGH, DEFAULT]", 8.0 + 2f32.powi(-9), false),
    ] {
        let text = format!(
            "func.func public @main(%a: tensor<2x8xf32>, %b: tensor<8x2xf32>) -> tensor<2x2xf32> {{
               %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]{precision} : (tensor<2x8xf32>, tensor<8x2xf32>) -> tensor<2x2xf32>
               return %0 : tensor<2x2xf32>
             }}"
        );
        let compiler = Compiler::new(CompileOptions {
            target: floors::floor::Target::Gpu { target: GpuTarget::resolve("sm_80").unwrap(), gemm: GemmMode::Library },
            ..CompileOptions::default()
        })
        .unwrap();
        let program =
            Program::compile_traced_with(&compiler, "dot.mlir", &text, Arc::new(CustomCallRegistry::with_builtins()), None, sim()).unwrap();
        let got = program.executable().execute(&inputs, None).unwrap();
        let values: Vec<f32> = got[0].bytes.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(values, vec![want; 4], "precision `{precision}`");
        let thunks = compiler.compile_source("dot.mlir", &text, floors::Stage::Thunks).unwrap();
        assert_eq!(thunks.contains("gemm F32 TF32 1x2x2x8"), tf32, "{thunks}");
        let report = compiler.options().target.floor().fusion_report(&compiler, "dot.mlir", &text).unwrap();
        let says = if tf32 { "TF32 tensor cores (precision DEFAULT)" } else { "FP32 (precision HIGH or HIGHEST)" };
        assert!(report.contains(says), "{report}");
    }
}

/// f32 and f64 fmod (`stablehlo.remainder`) on the GPU floor, floors' exact
/// forms (no libdevice): bit for bit the CPU floor's (libm's fmodf and
/// fmod) on small and huge quotients (3e38 mod 1e-30 runs f32's exact-step
/// loop, 1e308 mod 1e-300 f64's 2000-step long division), subnormals,
/// signed zeros, infinities and NaNs.
#[test]
fn gpu_fmod_is_exact() {
    let text = r#"
func.func public @main(%x: tensor<24xf32>, %y: tensor<24xf32>) -> tensor<24xf32> {
  %0 = stablehlo.remainder %x, %y : tensor<24xf32>
  return %0 : tensor<24xf32>
}
"#;
    let dir = scratch("fmod");
    let prog = dir.join("fmod.mlir");
    std::fs::write(&prog, text).unwrap();
    let x = [
        5.5,
        -5.5,
        1e30,
        -1e30,
        3e38,
        1.0,
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NAN,
        7.0,
        1e-40,
        2.5e-45,
        123456789.0,
        -8.0,
        1e20,
        3.0,
        1.5,
        16777217.0,
        1e10,
        -3.4e38,
        0.1,
        7e-39,
        1e38,
    ];
    let y = [
        2.0,
        2.0,
        3.0,
        7.0,
        1e-30,
        0.0,
        1.0,
        3.0,
        2.0,
        1.0,
        f32::INFINITY,
        3e-41,
        1e-45,
        0.3,
        -3.0,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-38,
        3.0,
        0.7,
        1.1e-38,
        0.03,
        3e-45,
        1.5,
    ];
    let inputs = vec![(PathBuf::from("x.npy"), f32_array(&x)), (PathBuf::from("y.npy"), f32_array(&y))];
    let cpu = Compiler::new(CompileOptions::default()).unwrap();
    let want = &Program::compile(&cpu, "fmod", text).unwrap().executable().execute(&inputs, None).unwrap()[0];
    for chip in ["sm_80", "sm_90a"] {
        let got = &compile_gpu(&prog, chip, GemmMode::Auto).executable().execute(&inputs, None).unwrap()[0];
        for (i, (a, b)) in values(got).iter().zip(values(want)).enumerate() {
            let (a, b) = (*a as f32, b as f32);
            assert!((a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits(), "{chip}: fmod({}, {}): GPU {a:e}, CPU {b:e}", x[i], y[i]);
        }
    }
    let text64 = r#"
func.func public @main(%x: tensor<16xf64>, %y: tensor<16xf64>) -> tensor<16xf64> {
  %0 = stablehlo.remainder %x, %y : tensor<16xf64>
  return %0 : tensor<16xf64>
}
"#;
    let prog64 = dir.join("fmod64.mlir");
    std::fs::write(&prog64, text64).unwrap();
    let x64 =
        [5.5, -5.5, 1e308, -1e300, 5e-324, 1e-310, 0.0, -0.0, f64::INFINITY, f64::NAN, 7.0, 123456789.123, 1e20, 2.5e-320, -3.0, 1e17];
    let y64 = [2.0, 2.0, 1e-300, 7.0, 3e-324, 3e-320, 1.0, 3.0, 2.0, 1.0, f64::NEG_INFINITY, 0.1, 0.7, 1e-322, 3.0, 0.0];
    let f64_array = |v: &[f64]| {
        let mut bytes = floors::runtime::AlignedBuffer::zeros(8 * v.len());
        bytes.copy_from_slice(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
        HostArray { element_type: ElementType::F64, shape: vec![v.len() as u64], bytes }
    };
    let inputs = vec![(PathBuf::from("x.npy"), f64_array(&x64)), (PathBuf::from("y.npy"), f64_array(&y64))];
    let want = &Program::compile(&cpu, "fmod64", text64).unwrap().executable().execute(&inputs, None).unwrap()[0];
    let bits = |a: &HostArray| a.bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect::<Vec<f64>>();
    for chip in ["sm_80", "sm_90a"] {
        let got = &compile_gpu(&prog64, chip, GemmMode::Auto).executable().execute(&inputs, None).unwrap()[0];
        for (i, (a, b)) in bits(got).iter().zip(bits(want)).enumerate() {
            assert!(
                (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits(),
                "{chip}: fmod({:e}, {:e}): GPU {a:e}, CPU {b:e}",
                x64[i],
                y64[i]
            );
        }
    }
}
